//! GPT-2's printable stand-ins for bytes: vocabulary files (`encoder.json`,
//! `vocab.bpe`, Hugging Face byte-level BPE) write each byte as a visible
//! character, so that a space is `Ġ` and a newline `Ċ`.
//!
//! Bytes that are printable Latin-1 (`!`-`~`, `¡`-`¬`, `®`-`ÿ`) stand for
//! themselves; the other 68 bytes, in order, take U+0100, U+0101, ...

use rustc_hash::FxHashMap;
use std::sync::OnceLock;

fn stands_for_itself(b: u8) -> bool {
    matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF)
}

/// The character that stands for each byte.
pub fn byte_chars() -> &'static [char; 256] {
    static TABLE: OnceLock<[char; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = ['\0'; 256];
        let mut next = 0u32;
        for b in 0..=255u8 {
            table[b as usize] = if stands_for_itself(b) {
                b as char
            } else {
                next += 1;
                char::from_u32(0xFF + next).unwrap_or('\0')
            };
        }
        table
    })
}

fn char_bytes() -> &'static FxHashMap<char, u8> {
    static MAP: OnceLock<FxHashMap<char, u8>> = OnceLock::new();
    MAP.get_or_init(|| {
        byte_chars()
            .iter()
            .enumerate()
            .map(|(b, &c)| (c, b as u8))
            .collect()
    })
}

/// The bytes a vocabulary string stands for, or the first character that
/// is not a byte stand-in.
pub fn decode(s: &str) -> Result<Vec<u8>, char> {
    s.chars()
        .map(|c| char_bytes().get(&c).copied().ok_or(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_and_newline_have_their_familiar_stand_ins() {
        assert_eq!(byte_chars()[b' ' as usize], 'Ġ');
        assert_eq!(byte_chars()[b'\n' as usize], 'Ċ');
        assert_eq!(byte_chars()[b'a' as usize], 'a');
        assert_eq!(decode("Ġthe").unwrap(), b" the");
        assert_eq!(decode("日"), Err('日'));
    }
}
