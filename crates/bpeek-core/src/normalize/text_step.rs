//! A Unicode normalizer step (NFC, NFD, NFKC, NFKD, Lowercase), as
//! Hugging Face `tokenizers` applies it to a piece of text.

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
        use unicode_normalization::UnicodeNormalization;
        match self {
            TextStep::Nfc => text.nfc().collect(),
            TextStep::Nfd => text.nfd().collect(),
            TextStep::Nfkc => text.nfkc().collect(),
            TextStep::Nfkd => text.nfkd().collect(),
            // Character by character, as Hugging Face lowercases.
            TextStep::Lowercase => text.chars().flat_map(char::to_lowercase).collect(),
        }
    }
}
