//! `encode`'s plain outputs, written at the encoder's speed: the ids alone
//! as text (one buffer, digits written in place), as little-endian
//! 32-bit integers, as a NumPy `.npy` array, or only their number.

use bpeek_core::TokenId;
use std::io::{self, Write};

/// `ids` separated by spaces, then a line break.
pub fn write_ids(w: &mut dyn Write, ids: &[TokenId]) -> io::Result<()> {
    write_separated(w, ids, b' ')?;
    w.write_all(b"\n")
}

/// `ids` with `separator` between them. Many ids are written a part per
/// core (writing them cost a third of a whole run), the parts joined in
/// order.
pub fn write_separated(w: &mut dyn Write, ids: &[TokenId], separator: u8) -> io::Result<()> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_part = ids.len().div_ceil(threads).max(PART_FROM);
    let parts: Vec<Vec<u8>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ids
            .chunks(per_part)
            .map(|part| {
                scope.spawn(move || {
                    let mut text = Vec::new();
                    push_separated(&mut text, part, separator);
                    text
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            w.write_all(&[separator])?;
        }
        w.write_all(part)?;
    }
    Ok(())
}

/// One later part's ids as text (see [`write_parts`]), made on the
/// thread that encoded them; `text` is empty when only their number is
/// wanted.
pub struct PartText {
    pub text: Vec<u8>,
    pub ids: usize,
}

/// Ids written at once from a buffer this many ids long: small enough to
/// stay in cache and to make no large allocation, whose pages would each
/// fault on first touch (a sixth of a whole 2 MB run).
const BLOCK: usize = 4096;

/// `ids` as text with `separator` between them, written a block at a
/// time into a vector that grows only by what is written.
pub fn part_text(ids: &[TokenId], separator: u8) -> PartText {
    // About six bytes an id: more room is made if needed.
    let mut text = bpeek_core::large_pages::vec_with_capacity(ids.len() * 6);
    let mut blocks = BlockWriter::new(separator);
    for block in ids.chunks(BLOCK) {
        text.extend_from_slice(blocks.text(block));
    }
    PartText {
        text,
        ids: ids.len(),
    }
}

/// The ids of a text encoded in parts, `separator` between every two:
/// the first part's through one small buffer, then each later part's
/// text.
pub fn write_parts(
    w: &mut dyn Write,
    first: &[TokenId],
    later: &[PartText],
    separator: u8,
) -> io::Result<()> {
    let mut blocks = BlockWriter::new(separator);
    for block in first.chunks(BLOCK) {
        w.write_all(blocks.text(block))?;
    }
    let mut any = !first.is_empty();
    for part in later.iter().filter(|p| p.ids > 0) {
        if any {
            w.write_all(&[separator])?;
        }
        w.write_all(&part.text)?;
        any = true;
    }
    Ok(())
}

/// Fewer ids than this are written by one thread (a thread costs more).
const PART_FROM: usize = 1 << 16;

/// `ids` separated by spaces, onto `out`.
pub fn push_ids(out: &mut Vec<u8>, ids: &[TokenId]) {
    push_separated(out, ids, b' ');
}

/// `ids` with `separator` between them, onto `out`. The room for the
/// longest id and its separator is made once and the digits written in
/// place: a number below 10^8 (every id of the built-in vocabularies) as
/// two table look-ups of four digits, stored as one word whose leading
/// zeros are then written over; pushing each number's bytes, or making
/// its digits two at a time, cost more than encoding its token.
pub fn push_separated(out: &mut Vec<u8>, ids: &[TokenId], separator: u8) {
    let start = out.len();
    out.resize(start + room_for(ids.len()), 0);
    let written = put_separated(&mut out[start..], ids, separator);
    out.truncate(start + written);
}

/// Bytes enough for `n` ids and their separators: eleven an id (ten
/// digits and a separator), and the eight a last word stores.
const fn room_for(n: usize) -> usize {
    n * 11 + 8
}

/// `ids` with `separator` between them at the start of `room` (at least
/// [`room_for`] their number): how many bytes they took.
fn put_separated(room: &mut [u8], ids: &[TokenId], separator: u8) -> usize {
    let mut at = 0;
    for (k, &id) in ids.iter().enumerate() {
        room[at] = separator;
        at += usize::from(k > 0);
        at += put_decimal(&mut room[at..], id);
    }
    at
}

/// A block of ids at a time as text, in one buffer made once and written
/// over (never zeroed again, and no larger than a block).
struct BlockWriter {
    room: Vec<u8>,
    separator: u8,
    any: bool,
}

impl BlockWriter {
    fn new(separator: u8) -> Self {
        BlockWriter {
            room: vec![0; room_for(BLOCK) + 1],
            separator,
            any: false,
        }
    }

    /// The text of `block` (at most [`BLOCK`] ids), with a separator in
    /// front unless it is the first block.
    fn text(&mut self, block: &[TokenId]) -> &[u8] {
        self.room[0] = self.separator;
        let from = usize::from(!self.any);
        let written = put_separated(&mut self.room[1..], block, self.separator);
        self.any |= !block.is_empty();
        &self.room[from..1 + written]
    }
}

/// The four digits of every number below 10,000 (zeros in front), as the
/// bytes of a little-endian word.
static FOUR_DIGITS: [u32; 10_000] = {
    let mut t = [0u32; 10_000];
    let mut n = 0;
    while n < 10_000 {
        let m = n as u32;
        t[n] = digit(m / 1000) | digit(m / 100) << 8 | digit(m / 10) << 16 | digit(m) << 24;
        n += 1;
    }
    t
};

/// The ASCII byte of the last decimal digit of `n`.
const fn digit(n: u32) -> u32 {
    b'0' as u32 + n % 10
}

const POWERS_OF_TEN: [u32; 10] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
];

/// `n` in decimal at the start of `room` (at least 10 bytes, and 8 for a
/// number below 10^8); returns how many bytes it took.
#[inline(always)]
fn put_decimal(room: &mut [u8], n: u32) -> usize {
    if n >= 100_000_000 {
        return put_large(room, n);
    }
    let len = decimal_len(n);
    let high = u64::from(FOUR_DIGITS[(n / 10_000) as usize]);
    let low = u64::from(FOUR_DIGITS[(n % 10_000) as usize]);
    // The first digit that counts goes to the lowest byte.
    let word = (high | low << 32) >> (8 * (8 - len));
    room[..8].copy_from_slice(&word.to_le_bytes());
    len
}

/// [`put_decimal`] for `n` of 10^8 or more: its one or two leading
/// digits, then the eight below them, zeros included.
#[cold]
fn put_large(room: &mut [u8], n: u32) -> usize {
    let (high, low) = (n / 100_000_000, n % 100_000_000);
    let head = if high >= 10 { 2 } else { 1 };
    room[..head].copy_from_slice(&FOUR_DIGITS[high as usize].to_le_bytes()[4 - head..]);
    let low_len = put_decimal(&mut room[head..], low);
    room.copy_within(head..head + low_len, head + 8 - low_len);
    room[head..head + 8 - low_len].fill(b'0');
    head + 8
}

/// The number of decimal digits of `n`, from its bit length: the guess
/// `bits * log10(2)` is right or one short.
#[inline]
fn decimal_len(n: u32) -> usize {
    let bits = 32 - (n | 1).leading_zeros();
    let guess = (bits * 1233) >> 12;
    (guess as usize + usize::from(n >= POWERS_OF_TEN[guess as usize])).max(1)
}

/// `ids` as little-endian unsigned 32-bit integers.
pub fn write_u32(w: &mut dyn Write, ids: &[TokenId]) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(ids.len() * 4);
    for &id in ids {
        bytes.extend_from_slice(&id.to_le_bytes());
    }
    w.write_all(&bytes)
}

/// The header of a NumPy `.npy` file (format 1.0) holding `len` ids as a
/// one-dimensional `<u4` array: magic, version, header length, and the
/// header dictionary padded with spaces so the data starts at a multiple
/// of 64 bytes.
pub fn npy_header(len: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '<u4', 'fortran_order': False, 'shape': ({len},), }}");
    let unpadded = 10 + dict.len() + 1;
    let padding = (64 - unpadded % 64) % 64;
    let header_len = (dict.len() + padding + 1) as u16;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', padding));
    out.push(b'\n');
    out
}

/// `ids` as a NumPy `.npy` array.
pub fn write_npy(w: &mut dyn Write, ids: &[TokenId]) -> io::Result<()> {
    w.write_all(&npy_header(ids.len()))?;
    write_u32(w, ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_written_as_space_separated_numbers() {
        let mut out = Vec::new();
        write_ids(&mut out, &[0, 7, 4_294_967_295, 15339]).unwrap();
        assert_eq!(out, b"0 7 4294967295 15339\n");
        let mut none = Vec::new();
        write_ids(&mut none, &[]).unwrap();
        assert_eq!(none, b"\n");
    }

    #[test]
    fn ids_are_written_as_rust_writes_each_number() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut ids: Vec<TokenId> = (0..=1000)
            .chain([9, 10, 99, 100, 999_999, 1_000_000])
            .collect();
        // Around every power of ten and of two, where a number's length
        // changes and its length is guessed from its bits.
        for k in 1..10 {
            let p = 10u32.pow(k);
            ids.extend([p - 1, p, p + 1]);
        }
        for k in 1..32 {
            let p = 1u32 << k;
            ids.extend([p - 1, p, p + 1]);
        }
        for _ in 0..100_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Every length of number, not only the long ones.
            ids.push((seed >> 32) as u32 >> (seed % 32));
        }
        ids.push(u32::MAX);
        let mut out = b"before:".to_vec();
        push_ids(&mut out, &ids);
        let want: Vec<String> = ids.iter().map(u32::to_string).collect();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("before:{}", want.join(" "))
        );
        let mut written = Vec::new();
        write_ids(&mut written, &ids).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            format!("{}\n", want.join(" "))
        );
    }

    /// Parts of every size, empty ones too, cut anywhere: the text of
    /// the whole.
    #[test]
    fn ids_written_in_parts_are_the_ids_of_the_whole() {
        let ids: Vec<TokenId> = (0..3 * BLOCK as u32 + 17)
            .map(|i| i * 7919 % 200_000)
            .collect();
        let cuts = [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 5, ids.len()];
        for &a in &cuts {
            for &b in cuts.iter().filter(|&&b| b >= a) {
                let later = [part_text(&ids[a..b], b' '), part_text(&ids[b..], b' ')];
                let mut out = Vec::new();
                write_parts(&mut out, &ids[..a], &later, b' ').unwrap();
                let mut whole = Vec::new();
                write_separated(&mut whole, &ids, b' ').unwrap();
                assert_eq!(out, whole, "parts cut at {a} and {b}");
                assert_eq!(later[0].ids + later[1].ids + a, ids.len());
            }
        }
    }

    #[test]
    fn an_npy_header_is_a_multiple_of_64_bytes_and_names_the_shape() {
        for len in [0, 1, 9, 10, 123_456_789] {
            let h = npy_header(len);
            assert_eq!(h.len() % 64, 0, "{len}");
            assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
            let header_len = u16::from_le_bytes([h[8], h[9]]) as usize;
            assert_eq!(10 + header_len, h.len());
            let dict = std::str::from_utf8(&h[10..]).unwrap();
            assert!(dict.contains(&format!("'shape': ({len},)")), "{dict}");
            assert!(dict.ends_with('\n'));
        }
    }
}
