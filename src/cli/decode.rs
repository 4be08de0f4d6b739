//! `bpeek decode`: ids in, text out.

use crate::bpe::TokenId;
use crate::cli::args::{DecodeArgs, Format};
use crate::cli::input::load_tokenizer;
use crate::error::{Error, Result};
use serde_json::json;

pub fn run(args: &DecodeArgs) -> Result<()> {
    let tokenizer = load_tokenizer(&args.tokenizer)?;
    let mut ids = Vec::with_capacity(args.ids.len());
    for (i, s) in args.ids.iter().enumerate() {
        let id: TokenId = s.trim().parse().map_err(|_| {
            Error::input(format!(
                "decode: argument {} '{s}' is not a token id (a whole number 0 or above)",
                i + 1
            ))
        })?;
        ids.push(id);
    }
    let bytes = tokenizer
        .decode_bytes(&ids)
        .map_err(|e| e.context("decode"))?;
    match args.format {
        Format::Json => {
            let text = tokenizer.decode(&ids)?;
            crate::outln!(
                "{}",
                json!({"ids": ids, "bytes": bytes, "text": text, "valid_utf8": std::str::from_utf8(&bytes).is_ok()})
            );
        }
        Format::Text => {
            // The exact bytes: decoding is only correct on the whole sequence.
            let mut bytes = bytes;
            bytes.push(b'\n');
            crate::cli::output::emit_bytes(&bytes)?;
        }
    }
    Ok(())
}
