//! The encode box: text the user types or pastes, and its encoding with the
//! selected tokenizer (the merges made so far, unless another is chosen),
//! kept up to date as training moves.

use crate::bpe::encoder::EncodedToken;
use crate::tui::tokenizers::TokenizerSet;

#[derive(Debug, Clone, Default)]
pub struct EncodeBox {
    pub text: String,
    /// The encoding of `text`, if it has been computed for `encoded_for`.
    pub encoded: Vec<EncodedToken>,
    /// (tokenizer slot, its stamp, text generation) the encoding belongs to.
    encoded_for: Option<(usize, u64, u64)>,
    generation: u64,
    /// Rows scrolled up from the bottom of the box.
    pub scroll: usize,
}

impl EncodeBox {
    pub fn insert(&mut self, s: &str) {
        // Pasted text from Windows editors brings \r\n; one break is enough.
        self.text
            .push_str(&s.replace("\r\n", "\n").replace('\r', "\n"));
        self.touch();
    }

    pub fn delete_back(&mut self) {
        if self.text.pop().is_some() {
            self.touch();
        }
    }

    pub fn clear(&mut self) {
        if !self.text.is_empty() {
            self.text.clear();
            self.touch();
        }
    }

    fn touch(&mut self) {
        self.generation += 1;
        self.scroll = 0;
    }

    /// Which version of the text this is; it changes with every edit.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Encode again if the text or the selected tokenizer changed. A
    /// tokenizer still loading leaves the box without tokens.
    pub fn refresh(&mut self, toks: &TokenizerSet) {
        let slot = toks.selected;
        let key = (slot, toks.slots[slot].stamp, self.generation);
        if self.encoded_for == Some(key) {
            return;
        }
        self.encoded = match toks.get(slot) {
            Some(tok) if !self.text.is_empty() => tok
                .encode_detailed(self.text.as_bytes(), false)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        // A tokenizer not ready yet is tried again on the next refresh.
        self.encoded_for = toks.get(slot).is_some().then_some(key);
    }

    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }

    pub fn tokens(&self) -> usize {
        self.encoded.len()
    }
}
