//! `encode`'s plain outputs, written at the encoder's speed: the ids alone
//! as text (one buffer, integers written by `itoa`), as little-endian
//! 32-bit integers, as a NumPy `.npy` array, or only their number.

use bpeek_core::TokenId;
use std::io::{self, Write};

/// `ids` separated by spaces, then a line break.
pub fn write_ids(w: &mut dyn Write, ids: &[TokenId]) -> io::Result<()> {
    let mut line = Vec::with_capacity(ids.len() * 6 + 1);
    push_ids(&mut line, ids);
    line.push(b'\n');
    w.write_all(&line)
}

/// `ids` separated by spaces, onto `out`.
pub fn push_ids(out: &mut Vec<u8>, ids: &[TokenId]) {
    let mut number = itoa::Buffer::new();
    for (k, &id) in ids.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(number.format(id).as_bytes());
    }
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
