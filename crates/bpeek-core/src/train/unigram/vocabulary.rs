//! A trained Unigram vocabulary as files write it: the reserved pieces
//! first (`<unk>` at id 0, then with byte fallback `<0x00>`..`<0xFF>`),
//! then the learned pieces by log-probability, highest first.

use crate::error::{Error, Result};
use crate::train::unigram::config::WordMarks;
use crate::train::unigram::trainer::UnigramTrainer;

/// The unknown piece's text.
pub const UNK: &str = "<unk>";

#[derive(Debug, Clone, PartialEq)]
pub struct UnigramVocabulary {
    /// The learned pieces with their log-probabilities, in id order after
    /// the reserved ones.
    pub pieces: Vec<(String, f64)>,
    pub marks: WordMarks,
    pub byte_fallback: bool,
}

/// The text of byte `b`'s piece.
pub fn byte_piece(b: u8) -> String {
    format!("<0x{b:02X}>")
}

impl UnigramVocabulary {
    /// The vocabulary the trainer holds now. A learned piece with the text
    /// of a reserved one (a corpus holding `<unk>`) is refused: a file maps
    /// each text to one id.
    pub fn of(trainer: &UnigramTrainer) -> Result<UnigramVocabulary> {
        let config = trainer.config();
        let v = UnigramVocabulary {
            pieces: trainer.final_pieces(),
            marks: config.marks,
            byte_fallback: config.byte_fallback,
        };
        if v.pieces.is_empty() {
            return Err(Error::input(
                "--out: the corpus holds no word, so there is no piece to write (a tokenizer file needs one)",
            ));
        }
        if let Some((text, _)) = v.pieces.iter().find(|(t, _)| {
            t == UNK
                || (v.byte_fallback && t.len() == 6 && (0..=255u8).any(|b| *t == byte_piece(b)))
        }) {
            return Err(Error::input(format!(
                "--out: the learned piece {text:?} has the text of a reserved piece; a tokenizer file maps each text to one id"
            )));
        }
        Ok(v)
    }

    /// The reserved pieces' texts, in id order.
    pub fn reserved(&self) -> Vec<String> {
        let mut out = vec![UNK.to_string()];
        if self.byte_fallback {
            out.extend((0..=255u8).map(byte_piece));
        }
        out
    }

    /// How many pieces the file holds.
    pub fn len(&self) -> usize {
        self.reserved().len() + self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}
