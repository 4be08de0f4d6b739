//! `encode` as text, written to stdout as it goes (the report itself is
//! [`crate::encode_report`], which the explorer's export writes too).

use crate::bpe::TokenId;
use crate::bpe::encoder::Tokenizer;
use crate::error::Result;

/// Write the report for `ids`, encoded from `bytes` bytes of text, to stdout.
pub fn emit(tokenizer: &Tokenizer, ids: &[TokenId], bytes: usize) -> Result<()> {
    crate::output::emit_with(false, |mut out| {
        crate::encode_report::write(&mut out, tokenizer, ids, bytes)
    })
}
