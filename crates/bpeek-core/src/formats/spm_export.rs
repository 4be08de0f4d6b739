//! Writing a trained Unigram vocabulary as a SentencePiece `.model` (a
//! protobuf `ModelProto`, written here by hand) that the `sentencepiece`
//! library loads and encodes with bpeek's ids.
//!
//! Field numbers (sentencepiece_model.proto): `ModelProto` pieces 1,
//! trainer_spec 2, normalizer_spec 3; `SentencePiece` piece 1, score 2,
//! type 3; `TrainerSpec` model_type 3 (UNIGRAM is 1), vocab_size 4,
//! byte_fallback 35, unk_id 40, bos_id 41, eos_id 42, pad_id 43;
//! `NormalizerSpec` name 1, add_dummy_prefix 3, remove_extra_whitespaces
//! 4, escape_whitespaces 5. The normalizer is `identity` (no character
//! map), so only spaces separate words, as in training with the space
//! marker. A `.model` always marks spaces, so a vocabulary trained
//! without the marker (`--mode char`) is refused.

use crate::error::{Error, Result};
use crate::train::unigram::config::WordMarks;
use crate::train::unigram::vocabulary::UnigramVocabulary;

const VARINT: u64 = 0;
const LEN: u64 = 2;
const FIXED32: u64 = 5;

/// Piece types (`SentencePiece.Type`).
const NORMAL: u64 = 1;
const UNKNOWN: u64 = 2;
const BYTE: u64 = 6;

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn key(out: &mut Vec<u8>, field: u64, wire: u64) {
    varint(out, (field << 3) | wire);
}

fn number(out: &mut Vec<u8>, field: u64, v: i64) {
    key(out, field, VARINT);
    // Negative int32 values are written as ten-byte two's complement.
    varint(out, v as u64);
}

fn bytes(out: &mut Vec<u8>, field: u64, b: &[u8]) {
    key(out, field, LEN);
    varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

fn piece(text: &str, score: f32, kind: u64) -> Vec<u8> {
    let mut p = Vec::new();
    bytes(&mut p, 1, text.as_bytes());
    key(&mut p, 2, FIXED32);
    p.extend_from_slice(&score.to_le_bytes());
    number(&mut p, 3, kind as i64);
    p
}

/// Why `v` cannot be written as a `.model`, if it cannot.
pub fn check(marks: WordMarks) -> Result<()> {
    if marks == WordMarks::None {
        return Err(Error::input(
            "--out-format sentencepiece: a vocabulary trained with --mode char has no space marker, and a SentencePiece .model always marks spaces (▁); write it as a Hugging Face tokenizer.json (--out-format hf)",
        ));
    }
    Ok(())
}

/// `v` as the bytes of a `.model` file.
pub fn to_bytes(v: &UnigramVocabulary) -> Result<Vec<u8>> {
    check(v.marks)?;
    let mut out = Vec::new();
    for (i, text) in v.reserved().iter().enumerate() {
        let kind = if i == 0 { UNKNOWN } else { BYTE };
        bytes(&mut out, 1, &piece(text, 0.0, kind));
    }
    for (text, logp) in &v.pieces {
        bytes(&mut out, 1, &piece(text, *logp as f32, NORMAL));
    }
    let mut trainer = Vec::new();
    number(&mut trainer, 3, 1);
    number(&mut trainer, 4, v.len() as i64);
    number(&mut trainer, 35, i64::from(v.byte_fallback));
    number(&mut trainer, 40, 0);
    for field in [41, 42, 43] {
        number(&mut trainer, field, -1);
    }
    bytes(&mut out, 2, &trainer);
    let mut normalizer = Vec::new();
    bytes(&mut normalizer, 1, b"identity");
    for field in [3, 4, 5] {
        number(&mut normalizer, field, 1);
    }
    bytes(&mut out, 3, &normalizer);
    Ok(out)
}
