//! A quick "certainly not a piece" for SentencePiece BPE: most pairs a
//! merge looks up make no piece, and a bit of a small table answers that
//! for most of them before the text is hashed and compared.

/// Bits in the table: with a vocabulary of 32,000 pieces about half are
/// set, so a missing pair is still turned away half the time or more.
const BITS: usize = 1 << 16;

/// One bit for each class of texts (by length and three of their bytes)
/// that holds a piece.
#[derive(Clone)]
pub struct PieceFilter {
    bits: Box<[u64]>,
}

impl std::fmt::Debug for PieceFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set: u32 = self.bits.iter().map(|w| w.count_ones()).sum();
        write!(f, "PieceFilter({set} of {BITS} bits set)")
    }
}

impl PieceFilter {
    /// The filter of these pieces (each non-empty).
    pub fn of<'a>(pieces: impl Iterator<Item = &'a [u8]>) -> Self {
        let mut bits = vec![0u64; BITS / 64].into_boxed_slice();
        for piece in pieces.filter(|p| !p.is_empty()) {
            let slot = slot(piece);
            bits[slot / 64] |= 1 << (slot % 64);
        }
        PieceFilter { bits }
    }

    /// False when `piece` (non-empty) is surely not one of the pieces.
    #[inline]
    pub fn may_hold(&self, piece: &[u8]) -> bool {
        let slot = slot(piece);
        self.bits[slot / 64] & (1 << (slot % 64)) != 0
    }
}

/// The class of a non-empty text: its length, first, middle and last byte.
#[inline]
fn slot(piece: &[u8]) -> usize {
    let n = piece.len();
    let h = (piece[0] as u32)
        | (piece[n - 1] as u32) << 8
        | (piece[n / 2] as u32) << 16
        | (n as u32 & 0xff) << 24;
    (h.wrapping_mul(0x9E37_79B1) >> 16) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_passes_and_most_other_texts_do_not() {
        let pieces: Vec<Vec<u8>> = (0..4000u32)
            .map(|i| format!("p{}q", i * 7919).into_bytes())
            .collect();
        let filter = PieceFilter::of(pieces.iter().map(|p| p.as_slice()));
        assert!(pieces.iter().all(|p| filter.may_hold(p)));
        let others: Vec<Vec<u8>> = (0..4000u32)
            .map(|i| format!("x{}y", i * 104_729).into_bytes())
            .collect();
        let let_through = others.iter().filter(|o| filter.may_hold(o)).count();
        assert!(let_through < others.len() / 4, "{let_through} of 4000");
    }
}
