//! The encode box: text the user types or pastes, and its encoding with the
//! merges made so far, kept up to date as training moves.

use crate::bpe::Trainer;
use crate::bpe::encoder::EncodedToken;

#[derive(Debug, Clone, Default)]
pub struct EncodeBox {
    pub text: String,
    /// The encoding of `text`, if it has been computed for `encoded_for`.
    pub encoded: Vec<EncodedToken>,
    /// (corpus index, merge count, text generation) the encoding belongs to.
    encoded_for: Option<(usize, usize, u64)>,
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

    /// Encode again if the text, the corpus or the merges changed.
    pub fn refresh(&mut self, corpus: usize, trainer: &Trainer) {
        let key = (corpus, trainer.merges().len(), self.generation);
        if self.encoded_for == Some(key) {
            return;
        }
        self.encoded_for = Some(key);
        self.encoded = if self.text.is_empty() {
            Vec::new()
        } else {
            trainer
                .tokenizer()
                .encode_detailed(self.text.as_bytes(), false)
                .unwrap_or_default()
        };
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
