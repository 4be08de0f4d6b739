//! Showing tokens to people: bytes that are not whole characters become
//! `<E6>`-style hex, never a silent U+FFFD.

use crate::bpe::pretok::for_each_utf8_run;
use std::fmt::Write;

/// The token's text, with each byte that is not part of a valid UTF-8
/// character written as `<XX>`.
pub fn token_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for_each_utf8_run(bytes, |start, run| match run {
        Ok(s) => out.push_str(s),
        Err(len) => {
            for b in &bytes[start..start + len] {
                let _ = write!(out, "<{b:02X}>");
            }
        }
    });
    out
}

/// Like [`token_text`], with control characters escaped (`\n`, `\t`, `\r`,
/// `\u{7}`) so a token always stays on one line of a table.
pub fn token_visible(bytes: &[u8]) -> String {
    escape_controls(&token_text(bytes))
}

/// Escape control characters so the text stays on one line.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_characters_are_hex() {
        assert_eq!(token_text("日".as_bytes()), "日");
        assert_eq!(token_text(&"日".as_bytes()[..2]), "<E6><97>");
        assert_eq!(token_text(b"a\xffb"), "a<FF>b");
        assert_eq!(token_visible(b" a\n"), " a\\n");
    }
}
