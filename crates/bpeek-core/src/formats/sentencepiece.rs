//! SentencePiece `.model` files: a protobuf `ModelProto`, read here by hand
//! for the fields encoding needs, as an untrusted file. Every length is
//! checked against what is left and against the limits in
//! [`crate::formats::limits`]; every error names the field.
//!
//! Field numbers (sentencepiece_model.proto): `ModelProto` pieces 1,
//! trainer_spec 2, normalizer_spec 3; `SentencePiece` piece 1, score 2,
//! type 3; `TrainerSpec` model_type 3, treat_whitespace_as_suffix 24,
//! split_digits 25, byte_fallback 35, unk_surface 44; `NormalizerSpec`
//! name 1, precompiled_charsmap 2, add_dummy_prefix 3,
//! remove_extra_whitespaces 4, escape_whitespaces 5. Other fields are
//! skipped.

use crate::error::{Error, Result};
use crate::formats::limits::{MAX_CHARSMAP_BYTES, MAX_ID, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::models::spm::{Algorithm, ModelSpec, NormalizerSpec, Piece, PieceType};

const VARINT: u8 = 0;
const FIXED64: u8 = 1;
const LEN: u8 = 2;
const FIXED32: u8 = 5;

fn wire_name(w: u8) -> &'static str {
    match w {
        VARINT => "varint",
        FIXED64 => "64-bit",
        LEN => "length-delimited",
        3 | 4 => "group",
        FIXED32 => "32-bit",
        _ => "invalid",
    }
}

/// A reader over one message's bytes.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Where the message starts in the file, for offsets in errors.
    base: usize,
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8], base: usize) -> Self {
        Reader { buf, pos: 0, base }
    }

    fn done(&self) -> bool {
        self.pos >= self.buf.len()
    }

    fn varint(&mut self, field: &str) -> Result<u64> {
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&b) = self.buf.get(self.pos) else {
                return Err(Error::input(format!(
                    "{field}: the file ends inside a number (byte {}): it is truncated",
                    self.base + self.pos
                )));
            };
            self.pos += 1;
            value |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Error::input(format!(
            "{field}: a number longer than 10 bytes (byte {}): not a protobuf varint",
            self.base + self.pos
        )))
    }

    /// The next field's number and wire type; `within` names the message.
    fn key(&mut self, within: &str) -> Result<(u64, u8)> {
        let at = self.base + self.pos;
        let key = self.varint(within)?;
        let (number, wire) = (key >> 3, (key & 7) as u8);
        if number == 0 {
            return Err(Error::input(format!(
                "{within}: field number 0 at byte {at}: this is not a SentencePiece model (or it is damaged)"
            )));
        }
        Ok((number, wire))
    }

    /// A length-delimited value, its length checked against what is left.
    fn bytes(&mut self, field: &str) -> Result<(&'a [u8], usize)> {
        let len = self.varint(field)?;
        let left = self.buf.len() - self.pos;
        if len > left as u64 {
            return Err(Error::input(format!(
                "{field}: declares {len} bytes but only {left} remain: the file is truncated or damaged"
            )));
        }
        let start = self.pos;
        self.pos += len as usize;
        Ok((&self.buf[start..self.pos], self.base + start))
    }

    fn fixed32(&mut self, field: &str) -> Result<[u8; 4]> {
        let Some(b) = self.buf.get(self.pos..self.pos + 4) else {
            return Err(Error::input(format!(
                "{field}: the file ends inside a 4-byte value: it is truncated"
            )));
        };
        self.pos += 4;
        Ok([b[0], b[1], b[2], b[3]])
    }

    /// Skip a field this reader does not need.
    fn skip(&mut self, wire: u8, field: &str) -> Result<()> {
        match wire {
            VARINT => self.varint(field).map(drop),
            FIXED64 => {
                if self.buf.len() - self.pos < 8 {
                    return Err(Error::input(format!(
                        "{field}: the file ends inside an 8-byte value: it is truncated"
                    )));
                }
                self.pos += 8;
                Ok(())
            }
            LEN => self.bytes(field).map(drop),
            FIXED32 => self.fixed32(field).map(drop),
            w => Err(Error::input(format!(
                "{field}: wire type {w} ({}) is not one a SentencePiece model uses",
                wire_name(w)
            ))),
        }
    }
}

/// Refuse a field whose wire type is not the one its type has.
fn expect(wire: u8, want: u8, field: &str) -> Result<()> {
    if wire != want {
        return Err(Error::input(format!(
            "{field}: wire type {wire} ({}), expected {want} ({}): the file is damaged or not a SentencePiece model",
            wire_name(wire),
            wire_name(want)
        )));
    }
    Ok(())
}

fn utf8(bytes: &[u8], field: &str) -> Result<String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        Error::input(format!(
            "{field}: not UTF-8 (byte {} of the string)",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Read a `ModelProto`.
pub fn read(file: &[u8]) -> Result<ModelSpec> {
    let mut spec = ModelSpec {
        pieces: Vec::new(),
        algorithm: Algorithm::Unigram,
        byte_fallback: false,
        split_digits: false,
        treat_whitespace_as_suffix: false,
        unk_surface: None,
        normalizer: NormalizerSpec::default(),
    };
    let mut model_type = 1;
    let mut budget = VocabBudget::default();
    let mut r = Reader::new(file, 0);
    while !r.done() {
        let (number, wire) = r.key("ModelProto")?;
        match number {
            1 => {
                let i = spec.pieces.len();
                let field = format!("pieces[{i}]");
                expect(wire, LEN, &field)?;
                if i as u64 > MAX_ID {
                    return Err(Error::input(format!(
                        "pieces: more than {} pieces (ids go up to {MAX_ID})",
                        MAX_ID + 1
                    )));
                }
                let (msg, at) = r.bytes(&field)?;
                let piece = read_piece(msg, at, &field)?;
                budget.add(piece.text.len(), MAX_IMPORTED_TOKEN_BYTES, || {
                    format!("{field}.piece")
                })?;
                spec.pieces.push(piece);
            }
            2 => {
                expect(wire, LEN, "trainer_spec")?;
                let (msg, at) = r.bytes("trainer_spec")?;
                read_trainer(msg, at, &mut spec, &mut model_type)?;
            }
            3 => {
                expect(wire, LEN, "normalizer_spec")?;
                let (msg, at) = r.bytes("normalizer_spec")?;
                read_normalizer(msg, at, &mut spec.normalizer)?;
            }
            n => r.skip(wire, &format!("ModelProto field {n}"))?,
        }
    }
    if spec.pieces.is_empty() {
        return Err(Error::input(
            "pieces: the model has no pieces (an empty or damaged file?)",
        ));
    }
    spec.algorithm = match model_type {
        1 => Algorithm::Unigram,
        2 => Algorithm::Bpe,
        3 | 4 => {
            return Err(Error::input(format!(
                "trainer_spec.model_type: {} models are not supported (bpeek reads UNIGRAM and BPE)",
                if model_type == 3 { "WORD" } else { "CHAR" }
            )));
        }
        n => {
            return Err(Error::input(format!(
                "trainer_spec.model_type: {n} is not a model type (1 UNIGRAM, 2 BPE, 3 WORD, 4 CHAR)"
            )));
        }
    };
    Ok(spec)
}

fn read_piece(msg: &[u8], base: usize, field: &str) -> Result<Piece> {
    let mut piece = Piece {
        text: Vec::new(),
        score: 0.0,
        kind: PieceType::Normal,
    };
    let mut r = Reader::new(msg, base);
    while !r.done() {
        let (number, wire) = r.key(field)?;
        match number {
            1 => {
                let f = format!("{field}.piece");
                expect(wire, LEN, &f)?;
                let (text, _) = r.bytes(&f)?;
                if text.len() > MAX_IMPORTED_TOKEN_BYTES {
                    return Err(Error::input(format!(
                        "{f}: {} bytes, more than the limit of {MAX_IMPORTED_TOKEN_BYTES} bytes per token",
                        text.len()
                    )));
                }
                piece.text = text.to_vec();
            }
            2 => {
                let f = format!("{field}.score");
                expect(wire, FIXED32, &f)?;
                piece.score = f32::from_le_bytes(r.fixed32(&f)?);
            }
            3 => {
                let f = format!("{field}.type");
                expect(wire, VARINT, &f)?;
                let n = r.varint(&f)?;
                piece.kind = PieceType::from_number(n).ok_or_else(|| {
                    Error::input(format!(
                        "{f}: {n} is not a piece type (1 NORMAL, 2 UNKNOWN, 3 CONTROL, 4 USER_DEFINED, 5 UNUSED, 6 BYTE)"
                    ))
                })?;
            }
            n => r.skip(wire, &format!("{field} field {n}"))?,
        }
    }
    Ok(piece)
}

fn bool_field(r: &mut Reader, wire: u8, field: &str) -> Result<bool> {
    expect(wire, VARINT, field)?;
    Ok(r.varint(field)? != 0)
}

fn read_trainer(msg: &[u8], base: usize, spec: &mut ModelSpec, model_type: &mut u64) -> Result<()> {
    let mut r = Reader::new(msg, base);
    while !r.done() {
        let (number, wire) = r.key("trainer_spec")?;
        match number {
            3 => {
                expect(wire, VARINT, "trainer_spec.model_type")?;
                *model_type = r.varint("trainer_spec.model_type")?;
            }
            24 => {
                spec.treat_whitespace_as_suffix =
                    bool_field(&mut r, wire, "trainer_spec.treat_whitespace_as_suffix")?
            }
            25 => spec.split_digits = bool_field(&mut r, wire, "trainer_spec.split_digits")?,
            35 => spec.byte_fallback = bool_field(&mut r, wire, "trainer_spec.byte_fallback")?,
            44 => {
                expect(wire, LEN, "trainer_spec.unk_surface")?;
                let (s, _) = r.bytes("trainer_spec.unk_surface")?;
                if s.len() > MAX_IMPORTED_TOKEN_BYTES {
                    return Err(Error::input(format!(
                        "trainer_spec.unk_surface: {} bytes, more than the limit of {MAX_IMPORTED_TOKEN_BYTES}",
                        s.len()
                    )));
                }
                spec.unk_surface = Some(s.to_vec());
            }
            n => r.skip(wire, &format!("trainer_spec field {n}"))?,
        }
    }
    Ok(())
}

fn read_normalizer(msg: &[u8], base: usize, n: &mut NormalizerSpec) -> Result<()> {
    let mut r = Reader::new(msg, base);
    while !r.done() {
        let (number, wire) = r.key("normalizer_spec")?;
        match number {
            1 => {
                expect(wire, LEN, "normalizer_spec.name")?;
                let (s, _) = r.bytes("normalizer_spec.name")?;
                if s.len() > 256 {
                    return Err(Error::input(format!(
                        "normalizer_spec.name: {} bytes, more than the limit of 256",
                        s.len()
                    )));
                }
                n.name = utf8(s, "normalizer_spec.name")?;
            }
            2 => {
                expect(wire, LEN, "normalizer_spec.precompiled_charsmap")?;
                let (s, _) = r.bytes("normalizer_spec.precompiled_charsmap")?;
                if s.len() > MAX_CHARSMAP_BYTES {
                    return Err(Error::input(format!(
                        "normalizer_spec.precompiled_charsmap: {} bytes, more than the limit of {} MiB",
                        s.len(),
                        MAX_CHARSMAP_BYTES >> 20
                    )));
                }
                n.precompiled_charsmap = s.to_vec();
            }
            3 => n.add_dummy_prefix = bool_field(&mut r, wire, "normalizer_spec.add_dummy_prefix")?,
            4 => {
                n.remove_extra_whitespaces =
                    bool_field(&mut r, wire, "normalizer_spec.remove_extra_whitespaces")?
            }
            5 => {
                n.escape_whitespaces =
                    bool_field(&mut r, wire, "normalizer_spec.escape_whitespaces")?
            }
            f => r.skip(wire, &format!("normalizer_spec field {f}"))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn field_bytes(number: u64, bytes: &[u8], out: &mut Vec<u8>) {
        varint(number << 3 | 2, out);
        varint(bytes.len() as u64, out);
        out.extend_from_slice(bytes);
    }

    fn piece(text: &str, score: f32, kind: u64) -> Vec<u8> {
        let mut p = Vec::new();
        field_bytes(1, text.as_bytes(), &mut p);
        p.push(2 << 3 | 5);
        p.extend_from_slice(&score.to_le_bytes());
        varint(3 << 3, &mut p);
        varint(kind, &mut p);
        p
    }

    #[test]
    fn reads_pieces_and_specs() {
        let mut file = Vec::new();
        field_bytes(1, &piece("<unk>", 0.0, 2), &mut file);
        field_bytes(1, &piece("\u{2581}a", -1.5, 1), &mut file);
        let mut trainer = Vec::new();
        varint(3 << 3, &mut trainer);
        varint(2, &mut trainer);
        // pad_id = -1: a ten-byte varint in a field that is skipped.
        varint(43 << 3, &mut trainer);
        varint(u64::MAX, &mut trainer);
        field_bytes(2, &trainer, &mut file);
        let mut norm = Vec::new();
        field_bytes(1, b"identity", &mut norm);
        varint(3 << 3, &mut norm);
        varint(0, &mut norm);
        field_bytes(3, &norm, &mut file);
        let spec = read(&file).unwrap();
        assert_eq!(spec.pieces.len(), 2);
        assert_eq!(spec.pieces[1].score, -1.5);
        assert_eq!(spec.pieces[0].kind, PieceType::Unknown);
        assert_eq!(spec.algorithm, Algorithm::Bpe);
        assert_eq!(spec.normalizer.name, "identity");
        assert!(!spec.normalizer.add_dummy_prefix);
        assert!(spec.normalizer.remove_extra_whitespaces, "the default");
    }

    #[test]
    fn errors_name_the_field() {
        let mut file = Vec::new();
        field_bytes(1, &piece("<unk>", 0.0, 2), &mut file);
        let whole = file.clone();
        file.truncate(file.len() - 3);
        let e = read(&file).unwrap_err().to_string();
        assert!(e.starts_with("pieces[0]: declares"), "{e}");

        let mut bad = whole.clone();
        bad.extend_from_slice(&[1 << 3]); // pieces as a varint
        bad.push(1);
        let e = read(&bad).unwrap_err().to_string();
        assert!(
            e.starts_with("pieces[1]: wire type 0 (varint), expected 2"),
            "{e}"
        );

        let mut huge = Vec::new();
        varint(3 << 3 | 2, &mut huge);
        varint(u64::MAX >> 1, &mut huge);
        let e = read(&huge).unwrap_err().to_string();
        assert!(e.starts_with("normalizer_spec: declares"), "{e}");

        let mut kind = Vec::new();
        field_bytes(1, &piece("x", 0.0, 9), &mut kind);
        let e = read(&kind).unwrap_err().to_string();
        assert!(
            e.starts_with("pieces[0].type: 9 is not a piece type"),
            "{e}"
        );
    }
}
