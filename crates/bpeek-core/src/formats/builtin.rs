//! The real tokenizers built in: GPT-2 (r50k_base), cl100k_base and
//! o200k_base. Their rank data is the data the `tiktoken-rs` crate ships,
//! read through that crate's public API by the build script, which also
//! derives the pair that makes each token (see `build.rs`); the encoding
//! itself is done by bpeek's own pre-tokenizers and encoder.

use crate::Pair;
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
    /// The table the build script wrote: tokens and pairs.
    table: &'static [u8],
}

pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "gpt2",
        about: "GPT-2 / GPT-3 (r50k_base, 50,257 ids)",
        pretok: Pretok::Gpt2,
        specials: &[("<|endoftext|>", 50256)],
        table: include_bytes!(concat!(env!("OUT_DIR"), "/gpt2.ranks")),
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
        table: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k.ranks")),
    },
    Builtin {
        name: "o200k",
        about: "GPT-4o (o200k_base)",
        pretok: Pretok::O200k,
        specials: &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
        table: include_bytes!(concat!(env!("OUT_DIR"), "/o200k.ranks")),
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

/// Build a built-in tokenizer from its table: a few tens of milliseconds for
/// the large ones, which callers that must stay responsive may still load in
/// the background.
pub fn load(name: &str) -> Result<Tokenizer> {
    if name.eq_ignore_ascii_case("bytes") {
        return Ok(Tokenizer::bytes_only());
    }
    let Some(b) = find(name) else {
        return Err(crate::names::unknown("built-in tokenizer", name, &names()));
    };
    let damaged = || Error::failure(format!("{}: the built-in table is damaged", b.name));
    let table = Table::new(b.table).ok_or_else(damaged)?;
    let specials = b
        .specials
        .iter()
        .map(|&(text, id)| SpecialToken {
            text: text.into(),
            id,
        })
        .collect();
    let tokens = table.tokens().ok_or_else(damaged)?;
    Tokenizer::from_ranks_and_pairs(b.name, tokens, table.pairs(), b.pretok, specials)
}

/// A table as `build.rs` writes it (little-endian u32s): the token count
/// `n`, `n + 1` offsets into the bytes, the bytes, the pair count, and
/// `left, right, made` for each pair.
struct Table {
    offsets: &'static [u8],
    bytes: &'static [u8],
    pairs: &'static [u8],
}

impl Table {
    fn new(data: &'static [u8]) -> Option<Table> {
        let (n, rest) = take_u32(data)?;
        let (offsets, rest) = rest.split_at_checked((n + 1).checked_mul(4)?)?;
        let end = u32::from_le_bytes(offsets[offsets.len() - 4..].try_into().ok()?) as usize;
        let (bytes, rest) = rest.split_at_checked(end)?;
        let (pairs, rest) = take_u32(rest)?;
        (rest.len() == pairs.checked_mul(12)?).then_some(Table {
            offsets,
            bytes,
            pairs: rest,
        })
    }

    /// The tokens' bytes, copied as they lie in the table (the first
    /// offset is 0: the table's bytes start with token 0's).
    fn tokens(&self) -> Option<TokenBytes> {
        let mut offsets = self
            .offsets
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize);
        if offsets.next() != Some(0) {
            return None;
        }
        TokenBytes::from_parts(self.bytes.to_vec(), offsets.collect())
    }

    fn pairs(&self) -> impl ExactSizeIterator<Item = (Pair, TokenId)> {
        self.pairs.chunks_exact(12).map(|c| {
            let at = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            ((at(0), at(4)), at(8))
        })
    }
}

fn take_u32(data: &[u8]) -> Option<(usize, &[u8])> {
    let (head, rest) = data.split_at_checked(4)?;
    Some((u32::from_le_bytes(head.try_into().ok()?) as usize, rest))
}
