//! The page headers of a Parquet column chunk, read before any page is
//! decoded: the decoder makes room for the size a page header claims, so a
//! damaged or hostile header could claim gigabytes from a few bytes. Each
//! page's claim is checked against its stored bytes here first.
//!
//! A page header is a Thrift struct in the compact protocol; only its
//! sizes are kept, every other field is stepped over.

use bpeek_core::error::{Error, Result};

/// How much larger than its stored bytes a page may claim to be. Snappy
/// expands at most about 21 times; a plain page is its stored size.
pub const MAX_EXPANSION: u64 = 64;

/// The sizes one page header gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSizes {
    /// Bytes of the header itself.
    pub header: u64,
    pub uncompressed: u64,
    pub compressed: u64,
}

/// A cursor over Thrift compact-protocol bytes.
struct Compact<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn short() -> Error {
    Error::input("a page header ends early")
}

impl Compact<'_> {
    fn byte(&mut self) -> Result<u8> {
        let b = *self.bytes.get(self.at).ok_or_else(short)?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Error::input(
            "a page header holds a number longer than 64 bits",
        ))
    }

    fn zigzag(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn skip(&mut self, n: u64) -> Result<()> {
        let n = usize::try_from(n).map_err(|_| short())?;
        if self.bytes.len() - self.at < n {
            return Err(short());
        }
        self.at += n;
        Ok(())
    }

    /// Step over one value of compact type `kind`, at most `depth` deep.
    fn skip_value(&mut self, kind: u8, depth: u32) -> Result<()> {
        if depth == 0 {
            return Err(Error::input("a page header nests too deeply"));
        }
        match kind {
            1 | 2 => Ok(()), // booleans live in the field header
            3 => self.skip(1),
            4..=6 => self.varint().map(|_| ()),
            7 => self.skip(8),
            8 => {
                let n = self.varint()?;
                self.skip(n)
            }
            9 | 10 => {
                let head = self.byte()?;
                let n = match head >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                let elem = head & 0x0f;
                for _ in 0..n {
                    // A boolean in a list takes a byte of its own.
                    if elem == 1 || elem == 2 {
                        self.skip(1)?;
                    } else {
                        self.skip_value(elem, depth - 1)?;
                    }
                }
                Ok(())
            }
            11 => {
                let n = self.varint()?;
                if n > 0 {
                    let kinds = self.byte()?;
                    for _ in 0..n {
                        self.skip_value(kinds >> 4, depth - 1)?;
                        self.skip_value(kinds & 0x0f, depth - 1)?;
                    }
                }
                Ok(())
            }
            12 => self.skip_struct(depth - 1, |_, _, _| Ok(false)),
            _ => Err(Error::input(format!(
                "a page header holds Thrift type {kind}"
            ))),
        }
    }

    /// Read a struct's fields; `field(cursor, id, kind)` reads a field it
    /// wants and says so, the others are stepped over.
    fn skip_struct(
        &mut self,
        depth: u32,
        mut field: impl FnMut(&mut Self, i64, u8) -> Result<bool>,
    ) -> Result<()> {
        let mut id = 0i64;
        loop {
            let head = self.byte()?;
            let kind = head & 0x0f;
            if kind == 0 {
                return Ok(());
            }
            id = match head >> 4 {
                0 => self.zigzag()?,
                delta => id + i64::from(delta),
            };
            if !field(self, id, kind)? {
                self.skip_value(kind, depth)?;
            }
        }
    }
}

/// The sizes in the page header at the start of `bytes`.
pub fn page_sizes(bytes: &[u8]) -> Result<PageSizes> {
    let mut c = Compact { bytes, at: 0 };
    let (mut uncompressed, mut compressed) = (None, None);
    c.skip_struct(16, |c, id, kind| {
        if kind == 5 && (id == 2 || id == 3) {
            let v = c.zigzag()?;
            let v = u64::try_from(v)
                .map_err(|_| Error::input(format!("a page header gives a size of {v}")))?;
            if id == 2 {
                uncompressed = Some(v);
            } else {
                compressed = Some(v);
            }
            return Ok(true);
        }
        Ok(false)
    })?;
    match (uncompressed, compressed) {
        (Some(uncompressed), Some(compressed)) => Ok(PageSizes {
            header: c.at as u64,
            uncompressed,
            compressed,
        }),
        _ => Err(Error::input("a page header gives no sizes")),
    }
}

/// Walk the pages of a column chunk's `bytes`, refusing a page that claims
/// more than [`MAX_EXPANSION`] times its stored bytes (or more than the
/// chunk's own claim), or that runs past the chunk.
pub fn check_pages(bytes: &[u8], chunk_claim: u64) -> Result<()> {
    let mut at = 0usize;
    let mut claimed = 0u64;
    let mut page = 0u64;
    while at < bytes.len() {
        let p = page_sizes(&bytes[at..]).map_err(|e| e.context(format!("page {page}")))?;
        if p.uncompressed > p.compressed.max(1).saturating_mul(MAX_EXPANSION) {
            return Err(Error::input(format!(
                "page {page} claims {} bytes from {} stored (a page may claim at most {MAX_EXPANSION} times its stored size)",
                p.uncompressed, p.compressed
            )));
        }
        claimed = claimed.saturating_add(p.uncompressed);
        if claimed > chunk_claim {
            return Err(Error::input(format!(
                "page {page}: its pages claim more than the {chunk_claim} bytes the column chunk says"
            )));
        }
        let next = (at as u64)
            .checked_add(p.header)
            .and_then(|n| n.checked_add(p.compressed))
            .filter(|&n| n <= bytes.len() as u64)
            .ok_or_else(|| Error::input(format!("page {page} runs past its column chunk")))?;
        at = next as usize;
        page += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compact-protocol page header with `fields` (id, kind, payload) in
    /// order, then STOP.
    fn header(fields: &[(u8, u8, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut last = 0;
        for &(id, kind, payload) in fields {
            out.push(((id - last) << 4) | kind);
            out.extend_from_slice(payload);
            last = id;
        }
        out.push(0);
        out
    }

    fn zigzag(v: i64) -> Vec<u8> {
        let mut z = ((v << 1) ^ (v >> 63)) as u64;
        let mut out = Vec::new();
        loop {
            let b = (z & 0x7f) as u8;
            z >>= 7;
            if z == 0 {
                out.push(b);
                return out;
            }
            out.push(b | 0x80);
        }
    }

    #[test]
    fn sizes_are_read_past_fields_of_every_kind() {
        // type, sizes, a crc, then a data page header struct holding a
        // nested struct, a list and a string.
        let inner = header(&[
            (1, 5, &zigzag(10)),
            (2, 8, b"\x03abc"),
            (3, 9, b"\x25\x02\x04"),
        ]);
        let mut nested = vec![];
        nested.extend_from_slice(&inner);
        let h = header(&[
            (1, 5, &zigzag(0)),
            (2, 5, &zigzag(700)),
            (3, 5, &zigzag(300)),
            (4, 5, &zigzag(-5)),
            (5, 12, &nested),
        ]);
        let p = page_sizes(&h).unwrap();
        assert_eq!(
            (p.uncompressed, p.compressed, p.header),
            (700, 300, h.len() as u64)
        );
    }

    #[test]
    fn a_page_claiming_far_more_than_it_stores_is_refused() {
        let h = header(&[
            (1, 5, &zigzag(0)),
            (2, 5, &zigzag(2 << 30)),
            (3, 5, &zigzag(10)),
        ]);
        let mut chunk = h.clone();
        chunk.extend_from_slice(&[0; 10]);
        let e = check_pages(&chunk, u64::MAX).unwrap_err().to_string();
        assert!(e.contains("claims 2147483648 bytes from 10 stored"), "{e}");
        let ok = header(&[
            (1, 5, &zigzag(0)),
            (2, 5, &zigzag(640)),
            (3, 5, &zigzag(10)),
        ]);
        let mut chunk = ok.clone();
        chunk.extend_from_slice(&[0; 10]);
        check_pages(&chunk, 640).unwrap();
        assert!(check_pages(&chunk, 639).is_err());
        assert!(check_pages(&chunk[..chunk.len() - 1], 640).is_err());
    }
}
