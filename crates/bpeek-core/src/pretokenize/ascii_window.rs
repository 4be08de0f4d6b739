//! The classes of the next 64 bytes of a text as bit masks, one bit a
//! byte, for the hand-worked cuts of [`super::ascii_cuts`].
//!
//! A chunk of English is four or five bytes, and finding where each of
//! its runs (capitals, small letters, spaces) stops took a load and a
//! dozen operations on eight bytes per run. With the classes of 64 bytes
//! worked out at once (a few vector operations per 16 bytes), a run's end
//! is one shift and one count of trailing zeros, and the window serves the
//! ten or so chunks that start in its first half.

use crate::pretokenize::ascii_cuts::{BREAK, DIGIT, HIGH, LOWER, OTHER, SPACE, UPPER};

/// Bytes a window covers.
pub const WIDTH: usize = 64;

/// Bit `k` of each mask is set when byte `base + k` of the text is of the
/// class; bytes past the end of the text are of none (not `HIGH` either),
/// so every run stops there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassMasks {
    pub upper: u64,
    pub lower: u64,
    pub digit: u64,
    pub space: u64,
    pub line_break: u64,
    pub other: u64,
    pub high: u64,
}

impl ClassMasks {
    /// The classes of `s[at..]`, up to [`WIDTH`] bytes of it.
    #[inline(always)]
    pub fn of(s: &[u8], at: usize) -> Self {
        let rest = &s[at.min(s.len())..];
        let masks = match rest.first_chunk::<WIDTH>() {
            Some(bytes) => Self::of_full(bytes),
            None => {
                // Near the end: the bytes past it read as zeros, whose
                // class (a control character) is then taken off `other`.
                let mut padded = [0u8; WIDTH];
                padded[..rest.len()].copy_from_slice(rest);
                let mut m = Self::of_full(&padded);
                m.other &= (1u64 << rest.len()) - 1;
                m
            }
        };
        debug_assert_eq!(masks, Self::by_table(rest));
        masks
    }

    /// The mask of the class `class` (one of the class bits, or both
    /// letter bits).
    #[inline(always)]
    pub fn of_class(&self, class: u8) -> u64 {
        match class {
            UPPER => self.upper,
            LOWER => self.lower,
            c if c == UPPER | LOWER => self.upper | self.lower,
            DIGIT => self.digit,
            SPACE => self.space,
            BREAK => self.line_break,
            OTHER => self.other,
            HIGH => self.high,
            _ => unreachable!("no mask for class {class}"),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn of_full(bytes: &[u8; WIDTH]) -> Self {
        sse2::masks(bytes)
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn of_full(bytes: &[u8; WIDTH]) -> Self {
        Self::by_table(bytes)
    }

    /// The same masks a byte at a time, from the class table: what the
    /// vector code must agree with.
    pub fn by_table(bytes: &[u8]) -> Self {
        use crate::pretokenize::ascii_cuts::class_of;
        let mut m = ClassMasks::default();
        for (k, &b) in bytes.iter().take(WIDTH).enumerate() {
            let bit = 1u64 << k;
            let c = class_of(b);
            let set = |mask: &mut u64, class: u8| {
                if c & class != 0 {
                    *mask |= bit;
                }
            };
            set(&mut m.upper, UPPER);
            set(&mut m.lower, LOWER);
            set(&mut m.digit, DIGIT);
            set(&mut m.space, SPACE);
            set(&mut m.line_break, BREAK);
            set(&mut m.other, OTHER);
            set(&mut m.high, HIGH);
        }
        m
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! SSE2 is part of every x86-64 processor, so these need no check at
    //! run time before they are called.
    use super::{ClassMasks, WIDTH};
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };

    /// The bytes of `v` in `lo..lo + n` (n < 128): moved so that `lo`
    /// becomes -128, then one signed comparison.
    #[inline(always)]
    fn within(v: __m128i, lo: u8, n: u8) -> __m128i {
        // SAFETY (here and below): SSE2 is the target's baseline.
        unsafe {
            let moved = _mm_add_epi8(v, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
            _mm_cmplt_epi8(moved, _mm_set1_epi8((0x80u8 + n) as i8))
        }
    }

    #[inline(always)]
    fn equal(v: __m128i, b: u8) -> __m128i {
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)) }
    }

    #[inline(always)]
    fn either(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_or_si128(a, b) }
    }

    #[inline(always)]
    fn bits(v: __m128i) -> u64 {
        unsafe { _mm_movemask_epi8(v) as u16 as u64 }
    }

    #[inline(always)]
    pub fn masks(bytes: &[u8; WIDTH]) -> ClassMasks {
        let mut m = ClassMasks::default();
        for k in 0..WIDTH / 16 {
            // SAFETY: the 16 bytes from `16 * k` lie within `bytes`, and
            // the load needs no alignment.
            let v = unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * k).cast()) };
            let shift = 16 * k;
            let upper = within(v, b'A', 26);
            let lower = within(v, b'a', 26);
            let digit = within(v, b'0', 10);
            let space = either(within(v, b'\t', 5), equal(v, b' '));
            let line_break = either(equal(v, b'\n'), equal(v, b'\r'));
            let (upper, lower, digit, space) = (bits(upper), bits(lower), bits(digit), bits(space));
            let high = bits(v);
            m.upper |= upper << shift;
            m.lower |= lower << shift;
            m.digit |= digit << shift;
            m.space |= space << shift;
            m.line_break |= bits(line_break) << shift;
            m.high |= high << shift;
            m.other |= (!(upper | lower | digit | space | high) & 0xffff) << shift;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_masks_are_the_table_s_for_every_byte_at_every_place() {
        // Every byte value at every place of a window, among neighbours
        // that change with it.
        for b in 0..=255u8 {
            let mut text = [0u8; WIDTH + 7];
            for (k, t) in text.iter_mut().enumerate() {
                *t = b.wrapping_add((k * 37) as u8);
            }
            for at in 0..8 {
                assert_eq!(
                    ClassMasks::of(&text, at),
                    ClassMasks::by_table(&text[at..]),
                    "byte {b} from {at}"
                );
            }
        }
    }

    #[test]
    fn bytes_past_the_end_are_of_no_class() {
        let text = b"ab 1\n\xc3";
        let m = ClassMasks::of(text, 0);
        let past = !0u64 << text.len();
        for mask in [
            m.upper,
            m.lower,
            m.digit,
            m.space,
            m.line_break,
            m.other,
            m.high,
        ] {
            assert_eq!(mask & past, 0);
        }
        assert_eq!(m.lower, 0b11);
        assert_eq!(m.high, 1 << 5);
        assert_eq!(ClassMasks::of(text, text.len()), ClassMasks::default());
    }
}
