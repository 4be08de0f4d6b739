//! `encode --format json`, written as it goes: the ids and then each
//! token's description go straight to stdout, so memory stays near that of
//! the ids themselves however long the text is. The bytes are those a
//! `serde_json` value of the same report would print (keys in order).

use bpeek_core::TokenId;
use bpeek_core::display::token_text;
use bpeek_core::encoder::Tokenizer;
use std::io::{self, Write};

/// Write the report for `ids`, encoded from `bytes` bytes of text.
pub fn write(
    w: &mut impl Write,
    tokenizer: &Tokenizer,
    ids: &[TokenId],
    bytes: usize,
) -> io::Result<()> {
    write!(w, "{{\"bytes\":{bytes},\"ids\":[")?;
    for (k, id) in ids.iter().enumerate() {
        if k > 0 {
            w.write_all(b",")?;
        }
        write!(w, "{id}")?;
    }
    w.write_all(b"],\"mode\":")?;
    serde_json::to_writer(&mut *w, tokenizer.mode().name())?;
    write!(w, ",\"token_count\":{},\"tokens\":[", ids.len())?;
    for (k, &id) in ids.iter().enumerate() {
        let token = tokenizer.describe(id);
        w.write_all(if k > 0 {
            b",{\"bytes\":["
        } else {
            b"{\"bytes\":["
        })?;
        for (i, b) in token.bytes.iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            write!(w, "{b}")?;
        }
        write!(w, "],\"id\":{id},\"special\":{},\"text\":", token.special)?;
        serde_json::to_writer(&mut *w, &token_text(&token.bytes))?;
        w.write_all(b"}")?;
    }
    w.write_all(b"]}\n")
}
