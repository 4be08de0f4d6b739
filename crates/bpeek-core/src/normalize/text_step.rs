//! A Unicode normalizer step (NFC, NFD, NFKC, NFKD, Lowercase), as
//! Hugging Face `tokenizers` applies it to a piece of text.
//!
//! The normalization forms come from the crate the library itself uses
//! (`unicode-normalization-alignments`, Unicode 9.0), pinned to its
//! version: a newer table decomposes characters the library leaves alone
//! (U+1FBF1 is `1` under NFKC from Unicode 13 on, U+209E is `y` from 16).

use unicode_normalization_alignments::UnicodeNormalization;

/// A Hugging Face normalizer step applied before the character map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStep {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
    Lowercase,
}

impl TextStep {
    pub fn apply(self, text: &str) -> String {
        let chars = |(c, _): (char, isize)| c;
        match self {
            TextStep::Nfc => text.nfc().map(chars).collect(),
            TextStep::Nfd => text.nfd().map(chars).collect(),
            TextStep::Nfkc => text.nfkc().map(chars).collect(),
            TextStep::Nfkd => text.nfkd().map(chars).collect(),
            // Character by character, as Hugging Face lowercases.
            TextStep::Lowercase => text.chars().flat_map(char::to_lowercase).collect(),
        }
    }
}
