//! The real tokenizers built in: GPT-2 (r50k_base), cl100k_base and
//! o200k_base. Their rank data is the data the `tiktoken-rs` crate ships,
//! read through that crate's public API by the build script, which also
//! derives the pair that makes each token and lays out the tables the
//! encoder reads in place (see `build.rs`); the encoding itself is done by
//! bpeek's own pre-tokenizers and encoder.

use crate::TokenId;
use crate::encoder::{SpecialToken, Tokenizer};
use crate::error::{Error, Result};
use crate::pretokenize::pretok::Pretok;
use crate::token_bytes::TokenBytes;

/// A built-in tokenizer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pretok: Pretok,
    specials: &'static [(&'static str, TokenId)],
    /// The tables the build script wrote.
    tables: Tables,
}

/// What the build script wrote for a built-in tokenizer (see `build.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tables {
    /// The tokens' bytes.
    tokens: &'static [u8],
    /// Ids by token bytes, and by the pair that makes them.
    token_slots: &'static [u8],
    pair_slots: &'static [u8],
    /// The rank and id of each pair of two bytes.
    byte_pairs: &'static [u8],
}

/// The tables the build script wrote for the built-in tokenizer `$name`.
macro_rules! tables {
    ($name:literal) => {
        Tables {
            tokens: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".ranks")),
            token_slots: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".token_slots")),
            pair_slots: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".pair_slots")),
            byte_pairs: include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".byte_pairs")),
        }
    };
}

pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "gpt2",
        about: "GPT-2 / GPT-3 (r50k_base, 50,257 ids)",
        pretok: Pretok::Gpt2,
        specials: &[("<|endoftext|>", 50256)],
        tables: tables!("gpt2"),
    },
    Builtin {
        name: "cl100k",
        about: "GPT-4 / GPT-3.5 (cl100k_base)",
        pretok: Pretok::Cl100k,
        specials: &[
            ("<|endoftext|>", 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            ("<|endofprompt|>", 100276),
        ],
        tables: tables!("cl100k"),
    },
    Builtin {
        name: "o200k",
        about: "GPT-4o (o200k_base)",
        pretok: Pretok::O200k,
        specials: &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
        tables: tables!("o200k"),
    },
];

/// Other names people use for the same tokenizers.
const ALIASES: &[(&str, &str)] = &[
    ("r50k", "gpt2"),
    ("r50k_base", "gpt2"),
    ("cl100k_base", "cl100k"),
    ("o200k_base", "o200k"),
];

/// The built-in names, `bytes` (the 256-token baseline) included.
pub fn names() -> Vec<&'static str> {
    let mut v = vec!["bytes"];
    v.extend(BUILTINS.iter().map(|b| b.name));
    v
}

/// Whether `name` is a built-in name or alias.
/// Names are matched without regard to case (`GPT2`, `CL100K_BASE`).
pub fn is_builtin(name: &str) -> bool {
    name.eq_ignore_ascii_case("bytes") || find(name).is_some()
}

fn find(name: &str) -> Option<&'static Builtin> {
    let name = ALIASES
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(name))
        .map_or(name, |(_, n)| n);
    BUILTINS.iter().find(|b| b.name.eq_ignore_ascii_case(name))
}

/// A built-in tokenizer, its tables read in place where the build laid
/// them out: well under a millisecond, even for o200k.
pub fn load(name: &str) -> Result<Tokenizer> {
    if name.eq_ignore_ascii_case("bytes") {
        return Ok(Tokenizer::bytes_only());
    }
    let Some(b) = find(name) else {
        return Err(crate::names::unknown("built-in tokenizer", name, &names()));
    };
    let damaged = || Error::failure(format!("{}: the built-in table is damaged", b.name));
    let tokens = token_table(b.tables.tokens).ok_or_else(damaged)?;
    let specials = b
        .specials
        .iter()
        .map(|&(text, id)| SpecialToken {
            text: text.into(),
            id,
        })
        .collect();
    Tokenizer::from_laid_tables(
        b.name,
        tokens,
        b.tables.token_slots,
        b.tables.pair_slots,
        b.tables.byte_pairs,
        b.pretok,
        specials,
    )
    .ok_or_else(damaged)
}

/// The tokens of a table as `build.rs` writes it (little-endian u32s):
/// the token count `n`, `n + 1` offsets into the bytes (the first 0), the
/// bytes; read in place.
fn token_table(data: &'static [u8]) -> Option<TokenBytes> {
    let (n, rest) = take_u32(data)?;
    let (offsets, bytes) = rest.split_at_checked((n + 1).checked_mul(4)?)?;
    let (first, ends) = take_u32(offsets)?;
    let end = u32::from_le_bytes(offsets[offsets.len() - 4..].try_into().ok()?) as usize;
    (first == 0 && end == bytes.len())
        .then(|| TokenBytes::from_static(bytes, ends))
        .flatten()
}

fn take_u32(data: &[u8]) -> Option<(usize, &[u8])> {
    let (head, rest) = data.split_at_checked(4)?;
    Some((u32::from_le_bytes(head.try_into().ok()?) as usize, rest))
}
