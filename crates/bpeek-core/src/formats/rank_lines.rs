//! The lines of a `.tiktoken` rank file, read by the rules tiktoken's own
//! loader (`tiktoken.load.load_tiktoken_bpe`) follows, so that a file it
//! takes is taken here with the same ranks:
//!
//! - lines end at `\n`, `\r\n` or a lone `\r`; only an empty line is
//!   skipped (one of spaces alone is an error, as there);
//! - a line is two fields parted by ASCII whitespace (tab, vertical tab and
//!   form feed too);
//! - the token is base64 read leniently: characters outside the alphabet
//!   are passed over, and the first complete padding ends it (Whisper's
//!   `multilingual.tiktoken` ends with `= 50256`, an empty token);
//! - the rank is a whole number as Python's `int` reads it (`+7`, `1_000`,
//!   `-0`);
//! - a token given twice keeps its last rank.

use crate::error::{Error, Result, quoted};
use rustc_hash::FxHashMap;

/// One token of the file with its rank and the line that gave it.
pub struct RankLine {
    pub bytes: Vec<u8>,
    pub rank: u64,
    pub line_no: usize,
}

/// The tokens of a rank file, each once, in the order of their lines.
pub fn read(text: &str) -> Result<Vec<RankLine>> {
    let mut by_bytes: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
    let mut out: Vec<Option<RankLine>> = Vec::new();
    for (i, line) in lines(text).enumerate() {
        let line_no = i + 1;
        if line.is_empty() {
            continue;
        }
        let mut fields = line
            .split([' ', '\t', '\u{b}', '\u{c}'])
            .filter(|f| !f.is_empty());
        let (Some(b64), Some(rank), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(Error::input(format!(
                "line {line_no}: expected 'BASE64 RANK'"
            )));
        };
        let bytes = lenient_base64(b64)
            .map_err(|why| Error::input(format!("line {line_no}: bad base64 ({why})")))?;
        let rank = python_int(rank)
            .ok_or_else(|| {
                Error::input(format!(
                    "line {line_no}: rank {} is not a whole number",
                    quoted(rank)
                ))
            })?
            .map_err(|()| Error::input(format!("line {line_no}: rank {rank} is negative")))?;
        // A token given again replaces the first: its first rank is unused.
        if let Some(earlier) = by_bytes.insert(bytes.clone(), out.len()) {
            out[earlier] = None;
        }
        out.push(Some(RankLine {
            bytes,
            rank,
            line_no,
        }));
    }
    Ok(out.into_iter().flatten().collect())
}

/// The lines of `text` as Python's `bytes.splitlines` cuts them.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let s = rest?;
        match s.find(['\n', '\r']) {
            Some(at) => {
                let skip = if s[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&s[at + skip..]).filter(|r| !r.is_empty());
                Some(&s[..at])
            }
            None => {
                rest = None;
                Some(s)
            }
        }
    })
}

/// The value of a base64 character, or `None` for one outside the alphabet.
fn base64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Base64 as Python's `base64.b64decode` reads it without `validate`:
/// characters outside the alphabet are passed over, padding that completes
/// a group ends the data, and the bits left over are dropped. Why it is
/// refused otherwise.
fn lenient_base64(text: &str) -> std::result::Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    // Characters into the group of four, the bits not yet written, and the
    // padding seen since the last character of data.
    let (mut quad, mut left, mut pads) = (0u32, 0u32, 0u32);
    for &c in text.as_bytes() {
        if c == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    return Ok(out);
                }
            }
            continue;
        }
        let Some(v) = base64_value(c) else { continue };
        let v = u32::from(v);
        pads = 0;
        match quad {
            0 => left = v,
            1 => {
                out.push(((left << 2) | (v >> 4)) as u8);
                left = v & 0x0f;
            }
            2 => {
                out.push(((left << 4) | (v >> 2)) as u8);
                left = v & 0x03;
            }
            _ => out.push(((left << 6) | v) as u8),
        }
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Ok(out),
        1 => Err("one character more than a multiple of four"),
        _ => Err("incorrect padding"),
    }
}

/// A whole number as Python's `int` reads ASCII text: a sign, then digits
/// with single underscores between them. `None` if it is not one,
/// `Some(Err)` if it is below zero; a number too large for 64 bits is
/// `u64::MAX`, for the caller's limit to refuse.
fn python_int(text: &str) -> Option<std::result::Result<u64, ()>> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let b = digits.as_bytes();
    let well_formed = !b.is_empty()
        && b[0].is_ascii_digit()
        && b[b.len() - 1].is_ascii_digit()
        && b.iter().all(|&c| c.is_ascii_digit() || c == b'_')
        && !digits.contains("__");
    if !well_formed {
        return None;
    }
    let value = b
        .iter()
        .filter(|c| c.is_ascii_digit())
        .try_fold(0u64, |n, &c| {
            n.checked_mul(10)?.checked_add(u64::from(c - b'0'))
        })
        .unwrap_or(u64::MAX);
    Some(if negative && value != 0 {
        Err(())
    } else {
        Ok(value)
    })
}
