//! The ids Hugging Face tokenizers' BpeTrainer gives symbols in byte mode,
//! which decide its ties.
//!
//! HF's trainer numbers its starting alphabet by code point, and in byte
//! mode the alphabet is GPT-2's printable stand-ins for the 256 bytes (see
//! [`crate::formats::byte_unicode`]): the 188 printable bytes keep their own
//! code points and the other 68 take U+0100 upwards. So the printable bytes
//! come first in byte order, then space, newline, tab, the control bytes,
//! 0x7F-0xA0 and 0xAD in byte order. Merged tokens follow in creation order,
//! as bpeek's do. Special tokens take HF's first ids, which moves every
//! other id by the same amount and so changes no order.

use crate::TokenId;

/// Whether byte `b` stands for itself in GPT-2's byte-to-character table.
const fn printable(b: u8) -> bool {
    matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF)
}

/// HF's place for each byte in its starting alphabet.
const BYTE_ORDER: [u16; 256] = {
    let mut order = [0u16; 256];
    let mut next = 0u16;
    let mut pass = 0;
    while pass < 2 {
        let mut b = 0usize;
        while b < 256 {
            if printable(b as u8) == (pass == 0) {
                order[b] = next;
                next += 1;
            }
            b += 1;
        }
        pass += 1;
    }
    order
};

/// HF's id for bpeek's byte-mode id `id`, less the number of special tokens.
pub fn hf_id(id: TokenId) -> TokenId {
    match BYTE_ORDER.get(id as usize) {
        Some(&o) => o as TokenId,
        None => id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bpeek's byte for HF's place `order` in the starting alphabet.
    fn byte_of_hf_id(order: TokenId) -> Option<u8> {
        (0..=255u8).find(|&b| BYTE_ORDER[b as usize] as TokenId == order)
    }

    #[test]
    fn printable_bytes_come_first_then_the_others_in_byte_order() {
        assert_eq!(hf_id(b'!' as TokenId), 0);
        assert_eq!(hf_id(b'a' as TokenId), (b'a' - b'!') as TokenId);
        assert_eq!(hf_id(0), 188);
        assert_eq!(hf_id(b' ' as TokenId), 188 + 32);
        assert_eq!(hf_id(0xAD), 255);
        assert_eq!(hf_id(300), 300);
        assert!(hf_id(b' ' as TokenId) > hf_id(0xFF));
        let printable_count = (0..=255u8).filter(|&b| printable(b)).count();
        assert_eq!(printable_count, 188);
        let mut all: Vec<TokenId> = (0..256).map(hf_id).collect();
        all.sort_unstable();
        assert_eq!(all, (0..256).collect::<Vec<_>>());
        assert_eq!(byte_of_hf_id(188 + 32), Some(b' '));
    }
}
