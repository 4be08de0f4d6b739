//! GGUF files (llama.cpp): the header and the metadata key/values, never
//! the tensors, read as an untrusted file with bounded reads so that a
//! model of many gigabytes opens in the time its tokenizer takes.
//!
//! Little-endian. Header: magic `GGUF`, version u32 (2 or 3), tensor count
//! u64, key/value count u64; then each key (u64 length + UTF-8), a value
//! type u32 and the value. Strings are u64 length + bytes; an array is an
//! element type u32, a count u64 and the elements. Only the `tokenizer.*`
//! keys are kept; the others are skipped over.

use crate::error::{Error, Result};
use rustc_hash::FxHashMap;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

/// The most key/value pairs a file may declare.
const MAX_KEYS: u64 = 1 << 20;
/// The longest key.
const MAX_KEY_BYTES: u64 = 65_536;
/// The longest single string value kept or skipped (a chat template can
/// be long; a token is far shorter and is checked again where it is used).
const MAX_STRING_BYTES: u64 = 64 << 20;
/// The most elements of an array that is kept.
const MAX_KEPT_ELEMENTS: u64 = 1 << 23;
/// The most bytes all kept values may add up to.
const MAX_KEPT_BYTES: u64 = 256 << 20;

/// A metadata value that is kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    UInt(u64),
    Float(f64),
    Bool(bool),
    Str(String),
    /// An array of u8 or i8 (the precompiled character map).
    Bytes(Vec<u8>),
    Strs(Vec<String>),
    Floats(Vec<f32>),
    Ints(Vec<i64>),
    /// Any other array: its element type's name, not kept.
    Other(&'static str),
}

impl Value {
    /// What the value is, in words, for errors.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "a signed integer",
            Value::UInt(_) => "an unsigned integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a bool",
            Value::Str(_) => "a string",
            Value::Bytes(_) => "an array of bytes",
            Value::Strs(_) => "an array of strings",
            Value::Floats(_) => "an array of floats",
            Value::Ints(_) => "an array of integers",
            Value::Other(t) => t,
        }
    }
}

/// The tokenizer keys of a file.
#[derive(Debug, Default)]
pub struct Metadata {
    pub version: u32,
    pub keys: FxHashMap<String, Value>,
}

impl Metadata {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.keys.get(key)
    }
}

/// Whether bytes start like a GGUF file.
pub fn is_gguf(start: &[u8]) -> bool {
    start.starts_with(b"GGUF")
}

struct Reader<R> {
    r: R,
    /// Bytes read or skipped so far, and the file's length.
    at: u64,
    len: u64,
    kept: u64,
}

fn type_name(t: u32) -> &'static str {
    match t {
        0 => "u8",
        1 => "i8",
        2 => "u16",
        3 => "i16",
        4 => "u32",
        5 => "i32",
        6 => "f32",
        7 => "bool",
        8 => "string",
        9 => "array",
        10 => "u64",
        11 => "i64",
        12 => "f64",
        _ => "unknown",
    }
}

/// The size of one element of a fixed-size type.
fn fixed_size(t: u32) -> Option<u64> {
    Some(match t {
        0 | 1 | 7 => 1,
        2 | 3 => 2,
        4..=6 => 4,
        10..=12 => 8,
        _ => return None,
    })
}

impl<R: Read + Seek> Reader<R> {
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let mut b = [0u8; N];
        self.r
            .read_exact(&mut b)
            .map_err(|_| self.truncated(what))?;
        self.at += N as u64;
        Ok(b)
    }

    fn truncated(&self, what: &str) -> Error {
        Error::input(format!(
            "{what}: the file ends at byte {} inside it: it is truncated or not a GGUF file",
            self.len
        ))
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.bytes(what)?))
    }

    /// Check that `n` more bytes are in the file before reading them.
    fn room(&self, n: u64, what: &str) -> Result<()> {
        if self.at.checked_add(n).is_none_or(|end| end > self.len) {
            return Err(Error::input(format!(
                "{what}: declares {n} bytes at byte {}, past the end of the file ({} bytes)",
                self.at, self.len
            )));
        }
        Ok(())
    }

    fn skip(&mut self, n: u64, what: &str) -> Result<()> {
        self.room(n, what)?;
        let n = i64::try_from(n).map_err(|_| self.truncated(what))?;
        self.r.seek_relative(n).map_err(|_| self.truncated(what))?;
        self.at += n as u64;
        Ok(())
    }

    /// A string of at most `limit` bytes; `keep` false skips it.
    /// A string of at most `limit` bytes; `keep` false skips it. `what`
    /// names it, with `index` when it is an element of an array (the name
    /// is written out only for an error).
    fn string(
        &mut self,
        limit: u64,
        keep: bool,
        what: &str,
        index: Option<u64>,
    ) -> Result<Option<String>> {
        let name = || match index {
            Some(i) => format!("{what}[{i}]"),
            None => what.to_string(),
        };
        let mut len = [0u8; 8];
        if self.r.read_exact(&mut len).is_err() {
            return Err(self.truncated(&name()));
        }
        self.at += 8;
        let n = u64::from_le_bytes(len);
        if n > limit {
            return Err(Error::input(format!(
                "{}: a string of {n} bytes, more than the limit of {limit}",
                name()
            )));
        }
        if self.at.checked_add(n).is_none_or(|end| end > self.len) {
            return Err(Error::input(format!(
                "{}: declares {n} bytes at byte {}, past the end of the file ({} bytes)",
                name(),
                self.at,
                self.len
            )));
        }
        if !keep {
            self.skip(n, what)?;
            return Ok(None);
        }
        self.count_kept(n, what)?;
        let mut buf = vec![0u8; n as usize];
        if self.r.read_exact(&mut buf).is_err() {
            return Err(self.truncated(&name()));
        }
        self.at += n;
        String::from_utf8(buf).map(Some).map_err(|e| {
            Error::input(format!(
                "{}: not UTF-8 (byte {} of the string)",
                name(),
                e.utf8_error().valid_up_to()
            ))
        })
    }

    fn count_kept(&mut self, n: u64, what: &str) -> Result<()> {
        self.kept += n;
        if self.kept > MAX_KEPT_BYTES {
            return Err(Error::input(format!(
                "{what}: the tokenizer's metadata adds up to more than the limit of {} MiB",
                MAX_KEPT_BYTES >> 20
            )));
        }
        Ok(())
    }

    fn scalar(&mut self, t: u32, what: &str) -> Result<Value> {
        Ok(match t {
            0 => Value::UInt(u64::from(self.bytes::<1>(what)?[0])),
            1 => Value::Int(i64::from(self.bytes::<1>(what)?[0] as i8)),
            2 => Value::UInt(u64::from(u16::from_le_bytes(self.bytes(what)?))),
            3 => Value::Int(i64::from(i16::from_le_bytes(self.bytes(what)?))),
            4 => Value::UInt(u64::from(self.u32(what)?)),
            5 => Value::Int(i64::from(i32::from_le_bytes(self.bytes(what)?))),
            6 => Value::Float(f64::from(f32::from_le_bytes(self.bytes(what)?))),
            7 => Value::Bool(self.bytes::<1>(what)?[0] != 0),
            10 => Value::UInt(self.u64(what)?),
            11 => Value::Int(i64::from_le_bytes(self.bytes(what)?)),
            12 => Value::Float(f64::from_le_bytes(self.bytes(what)?)),
            t => {
                return Err(Error::input(format!(
                    "{what}: value type {t} is not a GGUF type (0-12)"
                )));
            }
        })
    }

    /// A value of type `t`; `keep` false skips it (and returns `None`).
    fn value(&mut self, t: u32, keep: bool, what: &str) -> Result<Option<Value>> {
        match t {
            8 => Ok(self
                .string(MAX_STRING_BYTES, keep, what, None)?
                .map(Value::Str)),
            9 => self.array(keep, what),
            t if fixed_size(t).is_some() => {
                let v = self.scalar(t, what)?;
                Ok(keep.then_some(v))
            }
            t => Err(Error::input(format!(
                "{what}: value type {t} is not a GGUF type (0-12)"
            ))),
        }
    }

    fn array(&mut self, keep: bool, what: &str) -> Result<Option<Value>> {
        let t = self.u32(what)?;
        let n = self.u64(what)?;
        if let Some(size) = fixed_size(t) {
            let bytes = n.checked_mul(size).ok_or_else(|| {
                Error::input(format!("{what}: an array of {n} elements is too long"))
            })?;
            self.room(bytes, what)?;
            if !keep || !matches!(t, 0 | 1 | 4 | 5 | 6) {
                self.skip(bytes, what)?;
                return Ok(keep.then_some(Value::Other(type_name(t))));
            }
            if n > MAX_KEPT_ELEMENTS {
                return Err(Error::input(format!(
                    "{what}: {n} elements, more than the limit of {MAX_KEPT_ELEMENTS}"
                )));
            }
            self.count_kept(bytes, what)?;
            let mut raw = vec![0u8; bytes as usize];
            self.r
                .read_exact(&mut raw)
                .map_err(|_| self.truncated(what))?;
            self.at += bytes;
            return Ok(Some(match t {
                0 | 1 => Value::Bytes(raw),
                6 => Value::Floats(
                    raw.chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect(),
                ),
                4 => Value::Ints(
                    raw.chunks_exact(4)
                        .map(|c| i64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                        .collect(),
                ),
                _ => Value::Ints(
                    raw.chunks_exact(4)
                        .map(|c| i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                        .collect(),
                ),
            }));
        }
        match t {
            8 => {
                if keep && n > MAX_KEPT_ELEMENTS {
                    return Err(Error::input(format!(
                        "{what}: {n} strings, more than the limit of {MAX_KEPT_ELEMENTS}"
                    )));
                }
                // Each string takes at least its 8-byte length.
                self.room(n.saturating_mul(8), what)?;
                let mut out = Vec::with_capacity(if keep { n as usize } else { 0 });
                for i in 0..n {
                    let s = self.string(MAX_STRING_BYTES, keep, what, Some(i))?;
                    if let Some(s) = s {
                        out.push(s);
                    }
                }
                Ok(keep.then_some(Value::Strs(out)))
            }
            9 => Err(Error::input(format!(
                "{what}: an array of arrays, which no tokenizer key holds"
            ))),
            t => Err(Error::input(format!(
                "{what}: array element type {t} is not a GGUF type (0-12)"
            ))),
        }
    }
}

/// Read the header and the `tokenizer.*` metadata of a GGUF file.
pub fn read(path: &Path) -> Result<Metadata> {
    let file = crate::formats::files::open(path)?;
    let len = file
        .metadata()
        .map_err(|e| Error::input(format!("cannot read: {e}")))?
        .len();
    read_from(BufReader::with_capacity(1 << 16, file), len)
}

/// [`read`] from any reader of `len` bytes.
pub fn read_from<R: Read + Seek>(r: R, len: u64) -> Result<Metadata> {
    let mut r = Reader {
        r,
        at: 0,
        len,
        kept: 0,
    };
    let magic: [u8; 4] = r.bytes("header")?;
    if &magic != b"GGUF" {
        return Err(Error::input(
            "header: does not start with GGUF: not a GGUF file",
        ));
    }
    let version = r.u32("header.version")?;
    if !(2..=3).contains(&version) {
        return Err(Error::input(format!(
            "header.version: {version}, and bpeek reads GGUF versions 2 and 3"
        )));
    }
    let _tensors = r.u64("header.tensor_count")?;
    let count = r.u64("header.metadata_kv_count")?;
    if count > MAX_KEYS {
        return Err(Error::input(format!(
            "header.metadata_kv_count: {count} keys, more than the limit of {MAX_KEYS}"
        )));
    }
    let mut meta = Metadata {
        version,
        keys: FxHashMap::default(),
    };
    for i in 0..count {
        let key = r
            .string(MAX_KEY_BYTES, true, "metadata key", Some(i))?
            .unwrap_or_default();
        let t = r.u32(&key)?;
        let keep = key.starts_with("tokenizer.");
        if let Some(v) = r.value(t, keep, &key)? {
            meta.keys.insert(key, v);
        }
    }
    Ok(meta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn string(s: &str, out: &mut Vec<u8>) {
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    }

    fn header(keys: u64) -> Vec<u8> {
        let mut f = b"GGUF".to_vec();
        f.extend_from_slice(&3u32.to_le_bytes());
        f.extend_from_slice(&0u64.to_le_bytes());
        f.extend_from_slice(&keys.to_le_bytes());
        f
    }

    fn read_bytes(f: &[u8]) -> Result<Metadata> {
        read_from(Cursor::new(f), f.len() as u64)
    }

    #[test]
    fn keeps_the_tokenizer_keys_only() {
        let mut f = header(3);
        string("general.name", &mut f);
        f.extend_from_slice(&8u32.to_le_bytes());
        string("x", &mut f);
        string("tokenizer.ggml.tokens", &mut f);
        f.extend_from_slice(&9u32.to_le_bytes());
        f.extend_from_slice(&8u32.to_le_bytes());
        f.extend_from_slice(&2u64.to_le_bytes());
        string("a", &mut f);
        string("b", &mut f);
        string("tokenizer.ggml.scores", &mut f);
        f.extend_from_slice(&9u32.to_le_bytes());
        f.extend_from_slice(&6u32.to_le_bytes());
        f.extend_from_slice(&2u64.to_le_bytes());
        f.extend_from_slice(&1.5f32.to_le_bytes());
        f.extend_from_slice(&(-2f32).to_le_bytes());
        let m = read_bytes(&f).unwrap();
        assert_eq!(m.keys.len(), 2);
        assert_eq!(
            m.get("tokenizer.ggml.tokens"),
            Some(&Value::Strs(vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            m.get("tokenizer.ggml.scores"),
            Some(&Value::Floats(vec![1.5, -2.0]))
        );
    }

    #[test]
    fn refuses_what_does_not_fit_by_name() {
        let mut f = header(1);
        string("tokenizer.ggml.tokens", &mut f);
        f.extend_from_slice(&9u32.to_le_bytes());
        f.extend_from_slice(&8u32.to_le_bytes());
        f.extend_from_slice(&u64::MAX.to_le_bytes());
        let e = read_bytes(&f).unwrap_err().to_string();
        assert!(e.starts_with("tokenizer.ggml.tokens:"), "{e}");

        let mut f = header(1);
        string("tokenizer.ggml.scores", &mut f);
        f.extend_from_slice(&9u32.to_le_bytes());
        f.extend_from_slice(&6u32.to_le_bytes());
        f.extend_from_slice(&(u64::MAX / 2).to_le_bytes());
        let e = read_bytes(&f).unwrap_err().to_string();
        assert!(e.starts_with("tokenizer.ggml.scores:"), "{e}");

        let e = read_bytes(&header(u64::MAX)).unwrap_err().to_string();
        assert!(e.contains("metadata_kv_count"), "{e}");
        let e = read_bytes(b"GGML").unwrap_err().to_string();
        assert!(e.starts_with("header"), "{e}");
        let mut f = header(1);
        f.truncate(f.len() - 1);
        assert!(read_bytes(&f).is_err());
    }
}
