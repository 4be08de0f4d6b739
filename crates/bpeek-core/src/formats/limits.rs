//! Limits that keep a hostile or broken tokenizer file from taking all
//! memory. A bpeek file names its tokens by merging earlier ones, so forty
//! merges of a token with itself would make a token of a terabyte: the
//! lengths are added up while loading and checked before anything is built.
//! The limits are far above any real tokenizer (the longest token of gpt2,
//! cl100k and o200k has 128 bytes; o200k's tokens add up to 1.4 MB).

use crate::error::{Error, Result};

/// The longest token a bpeek tokenizer file may make. Trained tokens can be
/// long (a repeated line with `--pretok lines`), so this one is generous.
pub const MAX_TOKEN_BYTES: usize = 65_536;
/// The longest token of a file made elsewhere (rank files, GPT-2, Hugging
/// Face), where tokens are written out whole.
pub const MAX_IMPORTED_TOKEN_BYTES: usize = 4_096;
/// The most bytes all the tokens of one vocabulary may add up to.
pub const MAX_VOCAB_BYTES: usize = 64 << 20;
/// The largest id a file may give a token.
pub const MAX_ID: u64 = 4_194_303;

/// Adds up the token lengths of a vocabulary as it is loaded.
#[derive(Debug, Default)]
pub struct VocabBudget {
    total: usize,
}

impl VocabBudget {
    /// Count one more token of `len` bytes, refusing it if it is longer than
    /// `max_token` or the vocabulary grows too large; `what` names it.
    pub fn add(
        &mut self,
        len: usize,
        max_token: usize,
        what: impl FnOnce() -> String,
    ) -> Result<()> {
        if len > max_token {
            return Err(Error::input(format!(
                "{}: the token would have {len} bytes, more than the limit of {max_token} bytes per token",
                what()
            )));
        }
        self.total += len;
        if self.total > MAX_VOCAB_BYTES {
            return Err(Error::input(format!(
                "{}: the tokens add up to more than the limit of {} MiB for a vocabulary",
                what(),
                MAX_VOCAB_BYTES >> 20
            )));
        }
        Ok(())
    }
}

/// An id read from a file, checked against [`MAX_ID`]; `what` names it.
pub fn id(value: u64, what: impl FnOnce() -> String) -> Result<u32> {
    if value > MAX_ID {
        return Err(Error::input(format!(
            "{}: id {value} is too large (ids go up to {MAX_ID})",
            what()
        )));
    }
    Ok(value as u32)
}

/// The deepest a JSON file may nest (serde_json's own bound).
pub const JSON_DEPTH_LIMIT: usize = 128;

/// A JSON parse error in words: a file nested too deep says so, with the
/// bound, rather than as the parser's "recursion limit exceeded".
pub fn json_error(e: &serde_json::Error) -> Error {
    if e.to_string().starts_with("recursion limit exceeded") {
        return Error::input(format!(
            "the JSON nests deeper than {JSON_DEPTH_LIMIT} levels (line {}, column {}); no tokenizer file nests so deep",
            e.line(),
            e.column()
        ));
    }
    Error::input(format!("malformed JSON: {e}"))
}

/// The largest binary tokenizer file read (a SentencePiece `.model` of a
/// 256k vocabulary is under 5 MB).
pub const MAX_MODEL_FILE_BYTES: usize = 256 << 20;
/// The largest normalization map a model file may carry (sentencepiece's
/// own `nmt_nfkc` map is under 300 kB).
pub const MAX_CHARSMAP_BYTES: usize = 32 << 20;
