//! One numbering of merges on every pane. A merge list (trained here,
//! GPT-2 and Hugging Face files) is counted from 1, as the status line
//! counts the merges made: `merge 1` is the first. A rank file (tiktoken,
//! and the built-in gpt2, cl100k and o200k) has no list, only ranks, and a
//! token's rank is its id: that number is called a rank, never a merge.

use bpeek_core::Tokenizer;
use bpeek_core::encoder::MergeSource;

/// How a tokenizer's merges are numbered on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// Merge `k` is the `k`th of the list, counted from 1.
    List,
    /// A merge is named by its rank, the id of the token it makes.
    Ranks,
}

impl Numbering {
    pub fn of(tok: &Tokenizer) -> Self {
        match tok.source() {
            MergeSource::List => Numbering::List,
            MergeSource::Ranks => Numbering::Ranks,
        }
    }

    /// The number shown for the merge at `rank` (its place in the list,
    /// from 0, or a rank file's rank).
    pub fn number(self, rank: usize) -> usize {
        match self {
            Numbering::List => rank + 1,
            Numbering::Ranks => rank,
        }
    }

    /// `merge 419`, or `rank 674`.
    pub fn name(self, rank: usize) -> String {
        format!("{} {}", self.word(), self.number(rank))
    }

    /// What the number is called.
    pub fn word(self) -> &'static str {
        match self {
            Numbering::List => "merge",
            Numbering::Ranks => "rank",
        }
    }

    /// The place in the list of the number typed in the go-to prompt.
    pub fn place(self, typed: usize) -> usize {
        match self {
            Numbering::List => typed.saturating_sub(1),
            Numbering::Ranks => typed,
        }
    }
}
