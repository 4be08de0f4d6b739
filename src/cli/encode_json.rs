//! `encode --format json`, written as it goes: the ids (and with
//! `--tokens`, each token's description) go straight to stdout, so memory
//! stays near that of the ids themselves however long the text is. The
//! bytes are those a `serde_json` value of the same report would print
//! (keys in order).

use bpeek_core::TokenId;
use bpeek_core::display::token_text;
use bpeek_core::encoder::Tokenizer;
use std::io::{self, Write};

/// The report up to its ids.
pub fn write_head(w: &mut (impl Write + ?Sized), bytes: usize) -> io::Result<()> {
    write!(w, "{{\"bytes\":{bytes},\"ids\":[")
}

/// The report after its ids, up to its tokens (the closing brace left
/// off).
pub fn write_after_ids(
    w: &mut (impl Write + ?Sized),
    tokenizer: &Tokenizer,
    count: usize,
) -> io::Result<()> {
    w.write_all(b"],\"mode\":")?;
    serde_json::to_writer(&mut *w, tokenizer.mode().name())?;
    write!(w, ",\"token_count\":{count}")
}

/// Write the report for `ids`, encoded from `bytes` bytes of text; each
/// token is described only when `tokens` asks (the descriptions are many
/// times the size of the ids, and most readers want the ids).
pub fn write(
    w: &mut impl Write,
    tokenizer: &Tokenizer,
    ids: &[TokenId],
    bytes: usize,
    tokens: bool,
) -> io::Result<()> {
    write_head(w, bytes)?;
    crate::cli::encode_ids::write_separated(w, ids, b',')?;
    write_after_ids(w, tokenizer, ids.len())?;
    if !tokens {
        return w.write_all(b"}\n");
    }
    w.write_all(b",\"tokens\":[")?;
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
