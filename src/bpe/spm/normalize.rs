//! SentencePiece's normalizer: replacements from the precompiled character
//! map (longest match first), user-defined symbols kept as written, extra
//! whitespace removed, a dummy `▁` in front, and spaces shown as `▁`.
//!
//! The character map is a double-array trie (darts-clone's layout: 32-bit
//! little-endian units) over the UTF-8 of what is replaced; a key's value
//! is the offset of its replacement, a NUL-terminated string, in the bytes
//! after the trie. The blob is `u32 trie size` + trie + replacements.

use super::trie::Trie;
use crate::error::{Error, Result};

/// `▁`, U+2581, which stands for a space in pieces.
pub const SPACE: &[u8] = "\u{2581}".as_bytes();
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// The precompiled character map.
#[derive(Debug, Clone)]
pub struct CharsMap {
    units: Vec<u32>,
    replacements: Vec<u8>,
}

impl CharsMap {
    /// Read the blob; `field` names it in errors.
    pub fn parse(blob: &[u8], field: &str) -> Result<CharsMap> {
        let Some((size, rest)) = blob.split_first_chunk::<4>() else {
            return Err(Error::input(format!(
                "{field}: {} bytes, too short to hold the size of its trie",
                blob.len()
            )));
        };
        let size = u32::from_le_bytes(*size) as usize;
        if size >= blob.len() || size > rest.len() {
            return Err(Error::input(format!(
                "{field}: its trie declares {size} bytes but only {} follow",
                rest.len()
            )));
        }
        if !size.is_multiple_of(4) {
            return Err(Error::input(format!(
                "{field}: its trie has {size} bytes, not a whole number of 4-byte units"
            )));
        }
        let (trie, replacements) = rest.split_at(size);
        let units = trie
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(CharsMap {
            units,
            replacements: replacements.to_vec(),
        })
    }

    /// The longest key that is a prefix of `text`: its length and its
    /// replacement. A unit or offset outside the map ends the search there.
    pub fn longest(&self, text: &[u8]) -> Option<(usize, &[u8])> {
        let unit = |i: usize| self.units.get(i).copied();
        let offset = |u: u32| ((u >> 10) << ((u & (1 << 9)) >> 6)) as usize;
        let mut node = offset(unit(0)?);
        let mut best = None;
        for (i, &b) in text.iter().enumerate() {
            node ^= b as usize;
            let u = unit(node)?;
            // The label: the byte, and bit 31 set on leaves.
            if u & ((1 << 31) | 0xFF) != b as u32 {
                break;
            }
            node ^= offset(u);
            if (u >> 8) & 1 == 1 {
                let Some(value) = unit(node) else { break };
                let at = (value & ((1 << 31) - 1)) as usize;
                if let Some(rest) = self.replacements.get(at..) {
                    let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
                    best = Some((i + 1, &rest[..end]));
                }
            }
        }
        best
    }
}

/// How a text is normalized before it is cut into pieces.
#[derive(Debug, Clone)]
pub struct Normalizer {
    pub map: Option<CharsMap>,
    /// User-defined symbols: passed through unchanged.
    pub user: Option<Trie>,
    pub add_dummy_prefix: bool,
    pub remove_extra_whitespaces: bool,
    pub escape_whitespaces: bool,
    pub treat_whitespace_as_suffix: bool,
    /// The dummy `▁` goes in front only where the text does not already
    /// start with a space (Hugging Face's `Metaspace`).
    pub prefix_unless_space: bool,
}

/// The length of the UTF-8 character at the start of `text` if it is a
/// valid one (U+FFFD itself included), as sentencepiece decodes it.
pub fn valid_char_len(text: &[u8]) -> Option<usize> {
    let b0 = *text.first()?;
    if b0 < 0x80 {
        return Some(1);
    }
    let len = match b0 {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let s = text.get(..len)?;
    std::str::from_utf8(s).ok().map(|_| len)
}

/// The length sentencepiece steps by at `text`: the length its first byte
/// announces, cut at the end of the text.
pub fn one_char_len(text: &[u8]) -> usize {
    let n = match text.first() {
        Some(b) => [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4][(b >> 4) as usize],
        None => 0,
    };
    n.min(text.len())
}

impl Normalizer {
    /// What the text at the start of `input` becomes, and how many bytes
    /// of it that takes.
    fn prefix<'a>(&'a self, input: &'a [u8]) -> (&'a [u8], usize) {
        if let Some(user) = &self.user
            && let Some(len) = user.longest(input)
        {
            return (&input[..len], len);
        }
        if let Some(map) = &self.map
            && let Some((len, to)) = map.longest(input)
        {
            return (to, len);
        }
        match valid_char_len(input) {
            Some(len) => (&input[..len], len),
            None => (REPLACEMENT, 1),
        }
    }

    /// The normalized text, and for each of its bytes (and one past the
    /// end) the offset in `input` it came from.
    pub fn normalize(&self, mut input: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::with_capacity(input.len() + 8);
        let mut to_orig = Vec::with_capacity(input.len() + 9);
        if input.is_empty() {
            to_orig.push(0);
            return (out, to_orig);
        }
        let mut consumed = 0;
        if self.remove_extra_whitespaces {
            while !input.is_empty() {
                let (to, len) = self.prefix(input);
                if to != b" " {
                    break;
                }
                input = &input[len..];
                consumed += len;
            }
        }
        if input.is_empty() {
            return (out, vec![consumed]);
        }
        let space: &[u8] = if self.escape_whitespaces { SPACE } else { b" " };
        let add_space = |out: &mut Vec<u8>, to_orig: &mut Vec<usize>, at: usize| {
            out.extend_from_slice(space);
            to_orig.extend(std::iter::repeat_n(at, space.len()));
        };
        if !self.treat_whitespace_as_suffix
            && self.add_dummy_prefix
            && !(self.prefix_unless_space && self.prefix(input).0.starts_with(b" "))
        {
            add_space(&mut out, &mut to_orig, consumed);
        }
        let mut prev_space = self.remove_extra_whitespaces;
        while !input.is_empty() {
            let (mut to, len) = self.prefix(input);
            if prev_space {
                while let Some(rest) = to.strip_prefix(b" ") {
                    to = rest;
                }
            }
            if !to.is_empty() {
                for &b in to {
                    if self.escape_whitespaces && b == b' ' {
                        add_space(&mut out, &mut to_orig, consumed);
                    } else {
                        out.push(b);
                        to_orig.push(consumed);
                    }
                }
                prev_space = to.ends_with(b" ");
            }
            consumed += len;
            input = &input[len..];
            if !self.remove_extra_whitespaces {
                prev_space = false;
            }
        }
        if self.remove_extra_whitespaces {
            while out.ends_with(space) {
                let keep = out.len() - space.len();
                consumed = to_orig[keep];
                out.truncate(keep);
                to_orig.truncate(keep);
            }
        }
        if self.treat_whitespace_as_suffix && self.add_dummy_prefix {
            add_space(&mut out, &mut to_orig, consumed);
        }
        to_orig.push(consumed);
        (out, to_orig)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> Normalizer {
        Normalizer {
            map: None,
            user: None,
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
            treat_whitespace_as_suffix: false,
            prefix_unless_space: false,
        }
    }

    #[test]
    fn spaces_become_the_space_mark_and_extra_ones_go() {
        let n = plain();
        let (out, to_orig) = n.normalize(b"  a  b ");
        assert_eq!(String::from_utf8(out).unwrap(), "\u{2581}a\u{2581}b");
        assert_eq!(to_orig.len(), 3 + 1 + 3 + 1 + 1);
        assert_eq!(to_orig[3], 2, "a is byte 2 of the input");
        assert_eq!(
            *to_orig.last().unwrap(),
            6,
            "the trailing space is no part of the last piece"
        );
        let keep = Normalizer {
            remove_extra_whitespaces: false,
            add_dummy_prefix: false,
            ..plain()
        };
        let (out, _) = keep.normalize(b" a  ");
        assert_eq!(String::from_utf8(out).unwrap(), "\u{2581}a\u{2581}\u{2581}");
        assert_eq!(n.normalize(b"   ").0, b"");
    }

    #[test]
    fn a_broken_byte_becomes_the_replacement_character() {
        let (out, _) = plain().normalize(b"a\xffb");
        assert_eq!(String::from_utf8(out).unwrap(), "\u{2581}a\u{FFFD}b");
    }

    #[test]
    fn a_short_or_lying_map_is_refused_or_ends_the_search() {
        assert!(CharsMap::parse(b"\x01\x00", "m").is_err());
        assert!(CharsMap::parse(b"\xff\x00\x00\x00abc", "m").is_err());
        let map = CharsMap::parse(b"\x04\x00\x00\x00\xff\xff\xff\xffx", "m").unwrap();
        assert_eq!(map.longest(b"abc"), None);
    }
}
