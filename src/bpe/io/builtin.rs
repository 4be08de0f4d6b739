//! The real tokenizers built in: GPT-2 (r50k_base), cl100k_base and
//! o200k_base. Their rank data is the data the `tiktoken-rs` crate ships; it
//! is read through that crate's public API, and the encoding itself is done
//! by bpeek's own pre-tokenizers and encoder.

use crate::bpe::TokenId;
use crate::bpe::encoder::{SpecialToken, Tokenizer};
use crate::bpe::pretok::Pretok;
use crate::error::{Error, Result};

/// A built-in tokenizer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pretok: Pretok,
    specials: &'static [(&'static str, TokenId)],
}

pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "gpt2",
        about: "GPT-2 / GPT-3 (r50k_base, 50,257 ids)",
        pretok: Pretok::Gpt2,
        specials: &[("<|endoftext|>", 50256)],
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
    },
    Builtin {
        name: "o200k",
        about: "GPT-4o (o200k_base)",
        pretok: Pretok::O200k,
        specials: &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
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

/// Build a built-in tokenizer. The large ones take a noticeable fraction of
/// a second: callers that must stay responsive load them in the background.
pub fn load(name: &str) -> Result<Tokenizer> {
    if name.eq_ignore_ascii_case("bytes") {
        return Ok(Tokenizer::bytes_only());
    }
    let Some(b) = find(name) else {
        return Err(crate::bpe::names::unknown(
            "built-in tokenizer",
            name,
            &names(),
        ));
    };
    let name = b.name;
    let core = match b.name {
        "gpt2" => tiktoken_rs::r50k_base(),
        "cl100k" => tiktoken_rs::cl100k_base(),
        _ => tiktoken_rs::o200k_base(),
    }
    .map_err(|e| Error::failure(format!("{name}: the bundled rank data did not load: {e}")))?;
    let first_special = b.specials.iter().map(|s| s.1).min().unwrap_or(0);
    let mut tokens = Vec::with_capacity(first_special as usize);
    for rank in 0..first_special {
        match core.decode_bytes(&[rank]) {
            Ok(bytes) => tokens.push(bytes),
            Err(_) => break,
        }
    }
    let specials = b
        .specials
        .iter()
        .map(|&(text, id)| SpecialToken {
            text: text.into(),
            id,
        })
        .collect();
    Tokenizer::from_ranks(b.name, tokens, b.pretok, specials)
}
