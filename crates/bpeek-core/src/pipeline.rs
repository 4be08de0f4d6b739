//! The text steps around a tokenizer's model, in the order Hugging Face
//! `tokenizers` runs them: the pre-tokenizer that cuts a text into the
//! chunks the model sees.

use crate::hf_text::HfText;
use crate::io::byte_unicode;
use crate::pretok::{Chunker, for_each_utf8_run};
use crate::regex_split::RegexChain;
use std::sync::Arc;

/// What cuts text into chunks for a byte-level model.
#[derive(Debug, Clone)]
pub struct PreTokenizer {
    /// The named rule and digit rule: it cuts the text unless `cut` says
    /// otherwise, and names the pre-tokenizer either way.
    rule: Chunker,
    cut: Cut,
}

/// How a [`PreTokenizer`] cuts.
#[derive(Debug, Clone)]
pub enum Cut {
    /// By the named rule.
    Rule,
    /// By split patterns written out in full (GGUF presets, Hugging Face
    /// `Split` steps).
    Split(Arc<RegexChain>),
    /// By a Hugging Face byte-level file's own normalizer and pre-tokenizer
    /// steps, where bpeek has no fast path for them.
    HfText(Arc<HfText>),
}

impl PreTokenizer {
    /// Cut by `rule`.
    pub fn new(rule: Chunker) -> Self {
        PreTokenizer {
            rule,
            cut: Cut::Rule,
        }
    }

    /// The named rule (what cuts unless the file has steps of its own).
    pub fn rule(&self) -> Chunker {
        self.rule
    }

    pub fn rule_mut(&mut self) -> &mut Chunker {
        &mut self.rule
    }

    /// Cut with `cut` instead of the named rule.
    pub fn set_cut(&mut self, cut: Cut) {
        self.cut = cut;
    }

    /// Whether the named rule alone cuts.
    pub fn by_rule(&self) -> bool {
        matches!(self.cut, Cut::Rule)
    }

    /// The split patterns, if they cut.
    pub fn split(&self) -> Option<&RegexChain> {
        match &self.cut {
            Cut::Split(chain) => Some(chain),
            Cut::Rule | Cut::HfText(_) => None,
        }
    }

    /// A file's own steps, if they cut.
    pub fn hf_text(&self) -> Option<&HfText> {
        match &self.cut {
            Cut::HfText(steps) => Some(steps),
            Cut::Rule | Cut::Split(_) => None,
        }
    }

    /// Each chunk of `text`, as the bytes a byte-level model merges.
    /// `as_str` is `text` as a string, when the caller has one: it is then
    /// not checked for UTF-8 again. `at_start` says whether `text` starts
    /// the whole text.
    #[inline]
    pub fn for_each_chunk(
        &self,
        text: &[u8],
        as_str: Option<&str>,
        at_start: bool,
        mut each: impl FnMut(&[u8]),
    ) {
        match &self.cut {
            // The file's own steps: each word, in byte-level
            // characters, is the bytes it stands for.
            // Bytes that are not UTF-8 are chunks of their own.
            Cut::HfText(steps) => for_each_utf8_run(text, |start, run| match run {
                Ok(s) => {
                    for word in steps.words(s, at_start && start == 0) {
                        match byte_unicode::decode(&word.text.text) {
                            Ok(bytes) => each(&bytes),
                            Err(_) => each(word.text.text.as_bytes()),
                        }
                    }
                }
                Err(len) => each(&text[start..start + len]),
            }),
            Cut::Split(chain) => chain.for_each_chunk(text, |r| each(&text[r])),
            Cut::Rule => match as_str {
                Some(s) => self.rule.for_each_chunk_str(s, |r| each(&text[r])),
                None => self.rule.for_each_chunk(text, |r| each(&text[r])),
            },
        }
    }
}
