//! Showing tokens to people: bytes that are not whole characters become
//! `<E6>`-style hex, never a silent U+FFFD.

use crate::pretokenize::pretok::for_each_utf8_run;
use std::borrow::Cow;
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
    token_visible_borrowed(bytes).into_owned()
}

/// [`token_visible`], borrowing the bytes when they are printable ASCII
/// (most tokens), which needs neither step.
pub fn token_visible_borrowed(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.iter().all(|&b| is_plain(b))
        && let Ok(text) = std::str::from_utf8(bytes)
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(escape_controls(&token_text(bytes)))
}

/// A printable ASCII byte: shown as it is.
fn is_plain(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

/// Escape control characters so the text stays on one line, and name the
/// characters that draw nothing (`<U+FEFF>`), so that no token is blank.
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_visible = false;
    let mut rest = s;
    while !rest.is_empty() {
        // Printable ASCII goes out a run at a time: a report of tens of
        // thousands of long tokens is mostly that.
        let plain = rest
            .bytes()
            .position(|b| !is_plain(b))
            .unwrap_or(rest.len());
        if plain > 0 {
            out.push_str(&rest[..plain]);
            after_visible = true;
            rest = &rest[plain..];
            continue;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            after_visible = escape_char(&mut out, c, after_visible);
        }
        rest = chars.as_str();
    }
    out
}

/// Writes `c`, escaped or named as [`escape_controls`] says; gives whether
/// a joiner after it would shape a visible character.
fn escape_char(out: &mut String, c: char, after_visible: bool) -> bool {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c.is_control() => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        // A joiner or selector shapes the character before it (emoji
        // sequences, Persian words); alone it is invisible.
        c if is_joiner(c) && after_visible => out.push(c),
        c if is_joiner(c) || is_invisible(c) => {
            let _ = write!(out, "<U+{:04X}>", c as u32);
            return false;
        }
        c => out.push(c),
    }
    !c.is_control()
}

/// Characters that draw nothing on their own: format characters (byte-order
/// mark, zero-width space, direction marks and overrides, word joiner, soft
/// hyphen, ...), line and paragraph separators, and blank fillers.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x0600..=0x0605 | 0x06DD | 0x070F | 0x0890..=0x0891
        | 0x08E2 | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E | 0x200B | 0x200E | 0x200F
        | 0x2028..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0x3164 | 0xFEFF | 0xFFA0
        | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0001)
}

/// Invisible characters that modify the one before them: joiners and
/// variation selectors (kept inside a token, named when they start one).
fn is_joiner(c: char) -> bool {
    matches!(c as u32,
        0x200C | 0x200D | 0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE0020..=0xE007F
        | 0xE0100..=0xE01EF)
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

    #[test]
    fn invisible_characters_are_named() {
        assert_eq!(token_visible("\u{feff}".as_bytes()), "<U+FEFF>");
        assert_eq!(token_visible("\u{feff}a".as_bytes()), "<U+FEFF>a");
        assert_eq!(token_visible("a\u{200b}".as_bytes()), "a<U+200B>");
        assert_eq!(token_visible("\u{202e}x".as_bytes()), "<U+202E>x");
        // A joiner inside an emoji sequence stays; alone it is named.
        assert_eq!(token_visible("👨\u{200d}👩".as_bytes()), "👨\u{200d}👩");
        assert_eq!(token_visible("\u{200d}👩".as_bytes()), "<U+200D>👩");
        assert_eq!(token_visible("\u{fe0f}".as_bytes()), "<U+FE0F>");
        assert_eq!(token_visible("❤\u{fe0f}".as_bytes()), "❤\u{fe0f}");
    }

    /// One character at a time, every character through the full test:
    /// what the runs of printable ASCII must not change.
    fn escaped_one_by_one(s: &str) -> String {
        let mut out = String::new();
        let mut after_visible = false;
        for c in s.chars() {
            after_visible = escape_char(&mut out, c, after_visible);
        }
        out
    }

    #[test]
    fn runs_of_plain_ascii_are_escaped_as_one_character_at_a_time() {
        let alphabet = [
            "a", " ", "~", "\n", "\t", "\u{7f}", "\u{85}", "é", "\u{200d}", "\u{fe0f}", "\u{feff}",
            "👩", "\\", "\"",
        ];
        let mut seed = 0x5eed_u64;
        for _ in 0..5000 {
            let mut text = String::new();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            for k in 0..(seed >> 60) {
                let pick = (seed >> (k * 4 % 56)) as usize % alphabet.len();
                text.push_str(alphabet[pick]);
            }
            assert_eq!(
                escape_controls(&text),
                escaped_one_by_one(&text),
                "{text:?}"
            );
            let bytes = text.as_bytes();
            assert_eq!(
                token_visible(bytes),
                escaped_one_by_one(&token_text(bytes)),
                "{text:?}"
            );
        }
        assert_eq!(token_visible(b"plain ascii~"), "plain ascii~");
    }
}
