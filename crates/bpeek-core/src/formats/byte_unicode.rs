//! GPT-2's printable stand-ins for bytes: vocabulary files (`encoder.json`,
//! `vocab.bpe`, Hugging Face byte-level BPE) write each byte as a visible
//! character, so that a space is `Ġ` and a newline `Ċ`.
//!
//! Bytes that are printable Latin-1 (`!`-`~`, `¡`-`¬`, `®`-`ÿ`) stand for
//! themselves; the other 68 bytes, in order, take U+0100, U+0101, ...

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

/// The bytes a vocabulary string stands for, or the first character that
/// is not a byte stand-in.
pub fn decode(s: &str) -> Result<Vec<u8>, char> {
    let mut out = Vec::with_capacity(s.len());
    decode_into(s, &mut out)?;
    Ok(out)
}

/// [`decode`] onto the end of `out` (a buffer kept from word to word); on
/// a character that stands for no byte, `out` holds the bytes before it.
pub fn decode_into(s: &str, out: &mut Vec<u8>) -> Result<(), char> {
    let table = byte_of_char();
    for c in s.chars() {
        match table.get(c as usize) {
            Some(&b) if b != NO_BYTE => out.push(b as u8),
            _ => return Err(c),
        }
    }
    Ok(())
}

/// No byte stands behind this character.
const NO_BYTE: u16 = u16::MAX;

/// The byte each character up to the last stand-in stands for, by its
/// code point.
fn byte_of_char() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let chars = byte_chars();
        let last = chars.iter().map(|&c| c as usize).max().unwrap_or(0);
        let mut table = vec![NO_BYTE; last + 1];
        for (b, &c) in chars.iter().enumerate() {
            table[c as usize] = b as u16;
        }
        table
    })
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
        let every: String = byte_chars().iter().collect();
        assert_eq!(decode(&every).unwrap(), (0..=255u8).collect::<Vec<_>>());
        assert_eq!(decode("a\u{144}"), Err('\u{144}'));
    }
}
