//! What a Unigram training is asked for, with sentencepiece's names and
//! defaults for the parameters sentencepiece has.

use crate::error::{Error, Result};

/// How the corpus is cut into words, and how a word is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WordMarks {
    /// As sentencepiece: words cut at whitespace, each written with the
    /// space marker `▁` in front (`hug` is `▁hug`).
    #[default]
    Space,
    /// As the Hugging Face course's worked example: words cut at
    /// whitespace with no marker, every strict substring of a word a seed.
    None,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnigramConfig {
    /// The pieces the vocabulary ends with, the unknown piece and byte
    /// pieces included.
    pub vocab_size: usize,
    /// `--seed-size` (sentencepiece's `seed_sentencepiece_size`): the most
    /// seed pieces, characters included.
    pub seed_size: usize,
    /// `--shrinking-factor`: the share of pieces a prune keeps.
    pub shrinking_factor: f64,
    /// `--em-iterations` (sentencepiece's `num_sub_iterations`): EM
    /// iterations before each scoring.
    pub em_iterations: usize,
    /// `--max-piece-length`: the longest piece, in characters.
    pub max_piece_length: usize,
    pub marks: WordMarks,
    /// Add the 256 byte pieces `<0x00>`..`<0xFF>`, so that an unknown
    /// character is written as its bytes rather than as `<unk>`.
    pub byte_fallback: bool,
}

impl Default for UnigramConfig {
    fn default() -> Self {
        UnigramConfig {
            vocab_size: 8000,
            seed_size: 1_000_000,
            shrinking_factor: 0.75,
            em_iterations: 2,
            max_piece_length: 16,
            marks: WordMarks::Space,
            byte_fallback: false,
        }
    }
}

impl UnigramConfig {
    /// The pieces the vocabulary holds besides the learned ones: `<unk>`,
    /// and the byte pieces with byte fallback.
    pub fn reserved(&self) -> usize {
        1 + if self.byte_fallback { 256 } else { 0 }
    }

    /// How many learned pieces training ends with.
    pub fn learned_target(&self) -> usize {
        self.vocab_size.saturating_sub(self.reserved())
    }

    /// Refuse values no training can use; each error names its option.
    pub fn check(&self) -> Result<()> {
        if self.vocab_size <= self.reserved() {
            return Err(Error::input(format!(
                "--vocab-size {}: a Unigram vocabulary needs room for more than its {} reserved piece{} (<unk>{})",
                self.vocab_size,
                self.reserved(),
                if self.reserved() == 1 { "" } else { "s" },
                if self.byte_fallback {
                    " and the 256 byte pieces of --byte-fallback"
                } else {
                    ""
                }
            )));
        }
        if !(self.shrinking_factor > 0.0 && self.shrinking_factor < 1.0) {
            return Err(Error::input(format!(
                "--shrinking-factor {}: must be above 0 and below 1 (the share of pieces a prune keeps)",
                self.shrinking_factor
            )));
        }
        if self.max_piece_length == 0 {
            return Err(Error::input(
                "--max-piece-length 0: a piece holds at least one character",
            ));
        }
        if self.seed_size == 0 {
            return Err(Error::input("--seed-size 0: training needs seed pieces"));
        }
        Ok(())
    }
}
