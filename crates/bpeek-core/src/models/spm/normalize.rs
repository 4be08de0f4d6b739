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
    /// For each ASCII byte, whether it is a key or starts one whose next
    /// byte is ASCII too. Most text is ASCII and most maps replace none of
    /// it (their keys that start with a letter go on with a combining
    /// mark), so most characters skip the walk.
    ascii_keys: [bool; 128],
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
        let mut map = CharsMap {
            units,
            replacements: replacements.to_vec(),
            ascii_keys: [true; 128],
        };
        for b in 0..128u8 {
            let root = map.units.first().map_or(0, |&u| Self::offset(u));
            map.ascii_keys[b as usize] = map.longest(&[b]).is_some()
                || map
                    .step(root, b)
                    .is_some_and(|(node, _)| (0..128u8).any(|c| map.step(node, c).is_some()));
        }
        Ok(map)
    }

    /// The node reached from `node` by `b`, and its unit, if there is an
    /// edge for `b`.
    fn step(&self, node: usize, b: u8) -> Option<(usize, u32)> {
        let at = node ^ b as usize;
        let u = *self.units.get(at)?;
        // The label: the byte, and bit 31 set on leaves.
        (u & ((1 << 31) | 0xFF) == b as u32).then(|| (at ^ Self::offset(u), u))
    }

    fn offset(u: u32) -> usize {
        ((u >> 10) << ((u & (1 << 9)) >> 6)) as usize
    }

    /// Whether `b` followed by `next` (an ASCII byte or the end) starts no
    /// key, so `b` stands for itself.
    #[inline]
    pub fn keeps_ascii(&self, b: u8, next: Option<u8>) -> bool {
        b < 0x80 && next.is_none_or(|n| n < 0x80) && !self.ascii_keys[b as usize]
    }

    /// The longest key that is a prefix of `text`: its length and its
    /// replacement. A unit or offset outside the map ends the search there.
    pub fn longest(&self, text: &[u8]) -> Option<(usize, &[u8])> {
        let mut node = Self::offset(*self.units.first()?);
        let mut best = None;
        for (i, &b) in text.iter().enumerate() {
            let Some((next, u)) = self.step(node, b) else {
                break;
            };
            node = next;
            if (u >> 8) & 1 == 1 {
                let Some(&value) = self.units.get(node) else {
                    break;
                };
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
    /// start with a space or a `▁` (Hugging Face's `Metaspace`).
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
    // A static, not a literal: a literal table is built on the stack at
    // every call and read back at once, which stalls on the store.
    static BY_HIGH_BITS: [u8; 16] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4];
    let n = match text.first() {
        Some(b) => BY_HIGH_BITS[(b >> 4) as usize] as usize,
        None => 0,
    };
    n.min(text.len())
}

impl Normalizer {
    /// Whether `b` is an ASCII character that no replacement and no user
    /// symbol starts with, so it stands for itself whatever follows.
    #[inline]
    fn kept_as_is(&self, b: u8, next: Option<u8>) -> bool {
        b < 0x80
            && next.is_none_or(|n| n < 0x80)
            && self.map.as_ref().is_none_or(|m| m.keeps_ascii(b, next))
            && self.user.as_ref().is_none_or(|u| !u.may_start(b))
    }

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
    pub fn normalize(&self, input: &[u8]) -> (Vec<u8>, Vec<usize>) {
        let mut to_orig = Vec::with_capacity(input.len() + 9);
        let out = self.normalize_into(input, &mut to_orig);
        (out, to_orig)
    }

    /// The normalized text alone.
    pub fn normalize_text(&self, input: &[u8]) -> Vec<u8> {
        self.normalize_into(input, &mut NoOffsets)
    }

    fn normalize_into<O: Offsets>(&self, mut input: &[u8], to_orig: &mut O) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len() + 8);
        if input.is_empty() {
            to_orig.push(0);
            return out;
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
            to_orig.push(consumed);
            return out;
        }
        let space: &[u8] = if self.escape_whitespaces { SPACE } else { b" " };
        let add_space = |out: &mut Vec<u8>, to_orig: &mut O, at: usize| {
            out.extend_from_slice(space);
            to_orig.push_n(at, space.len());
        };
        if !self.treat_whitespace_as_suffix
            && self.add_dummy_prefix
            && !(self.prefix_unless_space && {
                let first = self.prefix(input).0;
                first.starts_with(b" ") || first.starts_with(SPACE)
            })
        {
            add_space(&mut out, to_orig, consumed);
        }
        let mut prev_space = self.remove_extra_whitespaces;
        while !input.is_empty() {
            // The common case, byte by byte: ASCII that no replacement or
            // user symbol starts with.
            let mut plain = 0;
            for (i, &b) in input.iter().enumerate() {
                if !self.kept_as_is(b, input.get(i + 1).copied()) {
                    break;
                }
                if b == b' ' {
                    if !prev_space {
                        add_space(&mut out, to_orig, consumed + plain);
                    }
                    prev_space = self.remove_extra_whitespaces;
                } else {
                    out.push(b);
                    to_orig.push(consumed + plain);
                    prev_space = false;
                }
                plain += 1;
            }
            if plain > 0 {
                consumed += plain;
                input = &input[plain..];
                continue;
            }
            let (mut to, len) = self.prefix(input);
            if prev_space {
                while let Some(rest) = to.strip_prefix(b" ") {
                    to = rest;
                }
            }
            if !to.is_empty() {
                for &b in to {
                    if self.escape_whitespaces && b == b' ' {
                        add_space(&mut out, to_orig, consumed);
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
                consumed = to_orig.at(keep);
                out.truncate(keep);
                to_orig.truncate(keep);
            }
        }
        if self.treat_whitespace_as_suffix && self.add_dummy_prefix {
            add_space(&mut out, to_orig, consumed);
        }
        to_orig.push(consumed);
        out
    }
}

/// Where the normalizer writes, for each byte it gives, the place in its
/// input that the byte came from.
trait Offsets {
    fn push(&mut self, at: usize);
    fn push_n(&mut self, at: usize, n: usize);
    fn at(&self, i: usize) -> usize;
    fn truncate(&mut self, len: usize);
}

impl Offsets for Vec<usize> {
    #[inline]
    fn push(&mut self, at: usize) {
        Vec::push(self, at);
    }
    fn push_n(&mut self, at: usize, n: usize) {
        self.extend(std::iter::repeat_n(at, n));
    }
    fn at(&self, i: usize) -> usize {
        self[i]
    }
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }
}

/// No places kept, where only ids are wanted: the table would be eight
/// bytes for every byte of text.
struct NoOffsets;

impl Offsets for NoOffsets {
    #[inline]
    fn push(&mut self, _: usize) {}
    #[inline]
    fn push_n(&mut self, _: usize, _: usize) {}
    fn at(&self, _: usize) -> usize {
        0
    }
    fn truncate(&mut self, _: usize) {}
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
