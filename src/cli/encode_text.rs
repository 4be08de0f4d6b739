//! `encode` as text, written to stdout as it goes (the report itself is
//! [`bpeek_core::encode_report`], which the explorer's export writes too).

use bpeek_core::TokenId;
use bpeek_core::encoder::Tokenizer;
use bpeek_core::error::Result;

/// Write the report for `ids`, encoded from `bytes` bytes of text, to stdout.
pub fn emit(tokenizer: &Tokenizer, ids: &[TokenId], bytes: usize) -> Result<()> {
    bpeek_core::output::emit_with(false, |mut out| {
        bpeek_core::encode_report::write(&mut out, tokenizer, ids, bytes)
    })
}
