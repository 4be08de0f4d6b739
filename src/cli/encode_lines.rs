//! `encode --lines`: each line of the input its own text, encoded on every
//! core. Lines are handed out in blocks; each thread writes its block's
//! output lines into a buffer of its own, and the buffers are written in
//! the order of the input, so the output is that of one pass.

use crate::cli::args::EncodeFormat;
use crate::cli::encode_ids::{push_ids, push_separated};
use bpeek_core::TokenId;
use bpeek_core::encoder::{EncodeCache, Tokenizer};
use bpeek_core::error::{Error, Result};
use std::io::Write;

/// What each line becomes.
#[derive(Debug, Clone, Copy)]
pub struct LineOptions {
    pub format: EncodeFormat,
    pub count: bool,
    pub allow_special: bool,
    pub add_special: bool,
}

/// Bytes of input encoded between writes, so the output of a long input
/// is not all held at once.
const BATCH_BYTES: usize = 16 << 20;

/// The lines of `text` (without their `\n` or `\r\n`), in order.
pub fn lines(text: &[u8]) -> Vec<&[u8]> {
    // The breaks found by `memchr`, many bytes at a time.
    let mut out: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text) {
        out.push(&text[start..end]);
        start = end + 1;
    }
    out.push(&text[start..]);
    if text.ends_with(b"\n") || text.is_empty() {
        out.pop();
    }
    for line in &mut out {
        if let Some(l) = line.strip_suffix(b"\r") {
            *line = l;
        }
    }
    out
}

/// One line's output: its ids (or its count) as text, or a JSON object.
fn line_output(
    tok: &Tokenizer,
    line: &[u8],
    o: LineOptions,
    cache: &mut EncodeCache,
    scratch: &mut Vec<TokenId>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let cut_or_padded;
    let ids: &[TokenId] = if tok.length_rules().is_none() {
        // One vector of ids for every line, not one made and freed each.
        scratch.clear();
        tok.encode_for_model_onto(line, o.allow_special, o.add_special, cache, scratch)?;
        scratch
    } else {
        let ids = tok.encode_for_model_in(line, o.allow_special, false, cache)?;
        // As the library's `encode`: the file's truncation and padding too.
        cut_or_padded = tok.as_file_encodes(ids, o.add_special)?;
        &cut_or_padded
    };
    let mut number = itoa::Buffer::new();
    match (o.format, o.count) {
        (EncodeFormat::Json, true) => {
            out.extend_from_slice(b"{\"bytes\":");
            out.extend_from_slice(number.format(line.len()).as_bytes());
            out.extend_from_slice(b",\"token_count\":");
            out.extend_from_slice(number.format(ids.len()).as_bytes());
            out.push(b'}');
        }
        (EncodeFormat::Json, false) => {
            out.extend_from_slice(b"{\"bytes\":");
            out.extend_from_slice(number.format(line.len()).as_bytes());
            out.extend_from_slice(b",\"ids\":[");
            push_separated(out, ids, b',');
            out.extend_from_slice(b"],\"token_count\":");
            out.extend_from_slice(number.format(ids.len()).as_bytes());
            out.push(b'}');
        }
        (_, true) => out.extend_from_slice(number.format(ids.len()).as_bytes()),
        (_, false) => push_ids(out, ids),
    }
    out.push(b'\n');
    Ok(())
}

/// Encode `lines` on `threads` threads: their outputs, in order.
fn encode_block(
    tok: &Tokenizer,
    lines: &[&[u8]],
    first_line: usize,
    o: LineOptions,
    threads: usize,
) -> Result<Vec<Vec<u8>>> {
    bpeek_core::parallel::in_blocks(
        lines,
        threads,
        |l| l.len(),
        |first, block| {
            let mut out = Vec::new();
            // The chunks of a line are kept for the lines after it.
            let mut cache = tok.encode_cache(block.iter().map(|l| l.len()).sum());
            let mut scratch = Vec::new();
            for (k, line) in block.iter().enumerate() {
                let at = first_line + first + k + 1;
                line_output(tok, line, o, &mut cache, &mut scratch, &mut out)
                    .map_err(|e| e.context(format!("line {at}")))?;
            }
            Ok(out)
        },
    )
}

/// Each line of `text` encoded, written to `w` in order.
pub fn write(tok: &Tokenizer, text: &[u8], o: LineOptions, w: &mut dyn Write) -> Result<()> {
    let threads = bpeek_core::parallel::threads();
    let all = lines(text);
    let mut start = 0;
    while start < all.len() {
        let mut end = start;
        let mut bytes = 0;
        while end < all.len() && (end == start || bytes < BATCH_BYTES) {
            bytes += all[end].len() + 1;
            end += 1;
        }
        for out in encode_block(tok, &all[start..end], start, o, threads)? {
            w.write_all(&out)
                .map_err(|e| Error::failure(format!("stdout: {e}")))?;
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_lose_their_breaks_and_a_last_line_needs_none() {
        assert_eq!(lines(b"a\nb\r\n\nc"), vec![&b"a"[..], b"b", b"", b"c"]);
        assert_eq!(lines(b"a\n"), vec![&b"a"[..]]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n"), vec![&b""[..]]);
    }
}
