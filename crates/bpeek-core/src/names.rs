//! The small named choices of training, parsed from and printed as the names
//! the command line and the files use.

use crate::error::{Error, Result};
use std::fmt;

/// How the corpus is cut into base symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Mode {
    /// Ids 0-255 are byte values; every input can be encoded.
    #[default]
    Byte,
    /// Words split on whitespace, each word its characters plus `</w>`
    /// (Sennrich et al. 2016); characters not seen in training are `[UNK]`.
    Char,
}

/// Which pair wins when several have the same count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum TieRule {
    /// The pair met first when scanning the distinct chunks in order of first
    /// appearance, left to right (the tutorials' Python and minbpe).
    #[default]
    First,
    /// The smallest `(left_id, right_id)`.
    Lex,
    /// Hugging Face tokenizers' BpeTrainer in byte mode: the smallest pair of
    /// HF ids, where the 256 bytes are numbered in the order of the
    /// characters GPT-2's byte-to-character table gives them (so space,
    /// newline, tab, the control bytes, 0x7F-0xA0 and 0xAD come after every
    /// printable byte) and merged tokens in creation order after them.
    Hf,
}

/// What decides which pair merges next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Score {
    /// The pair with the highest count (BPE).
    #[default]
    Count,
    /// The pair with the highest count(ab) / (count(a) x count(b)), the
    /// likelihood score of WordPiece as the Hugging Face course describes
    /// it; among equal scores the higher count, then the tie rule.
    WordPiece,
}

impl Score {
    pub const NAMES: &'static [&'static str] = &["count", "wordpiece"];

    pub fn name(self) -> &'static str {
        match self {
            Score::Count => "count",
            Score::WordPiece => "wordpiece",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "count" => Ok(Score::Count),
            "wordpiece" => Ok(Score::WordPiece),
            _ => Err(unknown("score", s, Self::NAMES)),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Mode {
    pub const NAMES: &'static [&'static str] = &["byte", "char"];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Byte => "byte",
            Mode::Char => "char",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "byte" => Ok(Mode::Byte),
            "char" => Ok(Mode::Char),
            _ => Err(unknown("mode", s, Self::NAMES)),
        }
    }
}

impl TieRule {
    pub const NAMES: &'static [&'static str] = &["first", "lex", "hf"];

    pub fn name(self) -> &'static str {
        match self {
            TieRule::First => "first",
            TieRule::Lex => "lex",
            TieRule::Hf => "hf",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "first" => Ok(TieRule::First),
            "lex" => Ok(TieRule::Lex),
            "hf" => Ok(TieRule::Hf),
            _ => Err(unknown("tie rule", s, Self::NAMES)),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for TieRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a name that is not one of `valid`, listing the valid ones.
pub fn unknown(what: &str, got: &str, valid: &[&str]) -> Error {
    Error::input(format!(
        "unknown {what} {} (valid: {})",
        crate::error::quoted(got),
        valid.join(", ")
    ))
}
