//! An encoding as a text report: the ids on one line, the tokens on the
//! next, then the count. Each token is described as it is written, so
//! memory stays near that of the ids however long the text is. The command
//! line prints it (`encode --format text`) and the explorer exports it.

use crate::display::token_visible;
use crate::encoder::Tokenizer;
use crate::{Mode, TokenId};
use std::io::{self, Write};

/// Write the report for `ids`, encoded from `bytes` bytes of text.
pub fn write(
    w: &mut impl Write,
    tokenizer: &Tokenizer,
    ids: &[TokenId],
    bytes: usize,
) -> io::Result<()> {
    for (k, id) in ids.iter().enumerate() {
        if k > 0 {
            w.write_all(b" ")?;
        }
        write!(w, "{id}")?;
    }
    w.write_all(b"\n")?;
    for (k, &id) in ids.iter().enumerate() {
        if k > 0 {
            w.write_all(b" ")?;
        }
        write!(w, "\"{}\"", token_visible(&tokenizer.describe(id).bytes))?;
    }
    w.write_all(b"\n")?;
    let per = if ids.is_empty() {
        0.0
    } else {
        bytes as f64 / ids.len() as f64
    };
    let unit = match (tokenizer.mode(), ids.len()) {
        (Mode::Char, 1) => "symbol",
        (Mode::Char, _) => "symbols",
        (_, 1) => "token",
        _ => "tokens",
    };
    writeln!(
        w,
        "{bytes} bytes -> {} {unit} ({per:.2} bytes per token)",
        ids.len()
    )
}
