//! Writing a trained byte-mode tokenizer as a `.tiktoken` rank file: one
//! `base64(token bytes) rank` per line, ranks being bpeek's ids (bytes
//! 0-255, then the merges in order). Special tokens and the pre-tokenizer
//! are not part of the format; the loader is told the pre-tokenizer
//! (`FILE.tiktoken:PRETOK`).

use crate::encoder::Tokenizer;
use crate::error::{Error, Result};
use crate::names::Mode;
use crate::pretokenize::pretok::Digits;
use base64::Engine;

/// Why a tokenizer of `mode` with digit rule `digits` cannot be a rank file.
pub fn check(mode: Mode, digits: Digits) -> Result<()> {
    if mode == Mode::Char {
        return Err(Error::input(
            "--out-format tiktoken: rank files hold byte tokens; char mode has [UNK] and </w>",
        ));
    }
    if digits != Digits::Keep {
        return Err(Error::input(
            "--out-format tiktoken: a rank file is loaded with a pre-tokenizer name only, which cannot carry --digits",
        ));
    }
    Ok(())
}

/// The rank file's text.
pub fn to_text(tok: &Tokenizer) -> Result<String> {
    check(tok.mode(), tok.chunker().digits)?;
    let mut out = String::new();
    let b64 = base64::engine::general_purpose::STANDARD;
    for id in 0..tok.vocab().len() as u32 {
        out.push_str(&b64.encode(tok.vocab().token_bytes(id)));
        out.push(' ');
        out.push_str(&id.to_string());
        out.push('\n');
    }
    Ok(out)
}
