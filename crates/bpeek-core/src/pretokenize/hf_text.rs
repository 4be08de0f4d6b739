//! The text around a Hugging Face BPE model on characters (Llama 2,
//! Mistral, any `tokenizer.json` whose BPE has no ByteLevel step): the
//! normalizer steps, the pre-tokenizer steps ([`crate::pretokenize::hf_pretok`])
//! and the decoder chain ([`crate::decode::steps`]), each as the library applies it, with every byte
//! of the normalized text traced to the bytes of the input it came from.

use crate::normalize::bert_text::BertNormalizer;
use crate::normalize::mapped::Mapped;
use crate::normalize::text_step::TextStep;
use crate::pretokenize::hf_pretok::{PreStep, Word, pre_tokenize};
use crate::pretokenize::word_ranges::{StepWords, steps_need_sources};

pub use crate::decode::steps::DecodeStep;

/// A normalizer step.
#[derive(Debug, Clone)]
pub enum NormStep {
    /// `Prepend`: the text, in front of a text that is not empty.
    Prepend(String),
    /// `Replace` with a string pattern: every match, left to right.
    Replace { from: String, to: String },
    /// NFC, NFD, NFKC, NFKD, Lowercase.
    Unicode(TextStep),
    /// `Strip`: whitespace off the start and the end.
    Strip { left: bool, right: bool },
    /// `StripAccents`: combining marks (the library's table) dropped.
    StripAccents,
    /// `Replace` with a regex pattern: every match, left to right, by the
    /// text as written (no group references).
    ReplaceRegex {
        from: Box<crate::pretokenize::pattern_work::FileRegex>,
        to: String,
    },
    /// `BertNormalizer`.
    Bert(BertNormalizer),
    /// `Precompiled`: SentencePiece's character map, longest match first.
    Precompiled(std::sync::Arc<crate::models::spm::normalize::Normalizer>),
}

/// How text becomes the words BPE merges, and ids become text again.
#[derive(Debug, Clone, Default)]
pub struct HfText {
    pub normalizer: Vec<NormStep>,
    pub pre_tokenizer: Vec<PreStep>,
    pub decoder: Vec<DecodeStep>,
}

impl HfText {
    /// The normalized text of `text`, with where each byte came from. A
    /// regex that would take more than linear work on it makes the result
    /// empty and reports the refusal to the
    /// [`crate::pretokenize::pattern_work::watch`] around.
    pub fn normalize(&self, text: &str) -> Mapped {
        let mut m = Mapped::new(text);
        let mut meter = crate::pretokenize::pattern_work::Meter::new();
        for step in &self.normalizer {
            match step {
                NormStep::Prepend(p) => m.prepend(p),
                NormStep::Replace { from, to } => m.replace(from, to),
                NormStep::Unicode(s) => m.unicode(*s),
                NormStep::Strip { left, right } => m.strip(*left, *right),
                NormStep::StripAccents => m.filter(is_combining_mark),
                NormStep::ReplaceRegex { from, to } => match from.find_all(&m.text, &mut meter) {
                    Ok(matches) => m.replace_ranges(&matches, to),
                    Err(e) => {
                        crate::pretokenize::pattern_work::note(e);
                        return Mapped::new("");
                    }
                },
                NormStep::Bert(n) => m.bert(*n),
                NormStep::Precompiled(n) => m.charsmap(n),
            }
        }
        m
    }

    /// The words of `text`, normalized and pre-tokenized, each merged on
    /// its own; `at_start` says whether `text` starts the whole text or
    /// follows an added token.
    pub fn words(&self, text: &str, at_start: bool) -> Vec<Word> {
        pre_tokenize(&self.pre_tokenizer, self.normalize(text), at_start)
    }

    /// [`HfText::words`] into `words`, whose buffers are kept from one
    /// call to the next. `sources` says whether the caller reads where
    /// each byte came from (`words.from`); without it, and with no step
    /// that needs it, none is kept.
    pub fn words_into(&self, text: &str, at_start: bool, sources: bool, words: &mut StepWords) {
        let untracked =
            !sources && self.normalizer.is_empty() && !steps_need_sources(&self.pre_tokenizer);
        if untracked {
            words.run_untracked(&self.pre_tokenizer, text, at_start);
        } else {
            words.run(&self.pre_tokenizer, self.normalize(text), at_start);
        }
    }

    /// The text of tokens whose texts are `tokens`, through the decoder
    /// chain.
    pub fn decode(&self, tokens: Vec<String>) -> String {
        crate::decode::steps::run(&self.decoder, tokens)
    }
}

/// A combining mark as the library's `StripAccents` sees one: any mark
/// (Mn, Mc, Me) in the table of `unicode-normalization-alignments`, the
/// crate (and version) the library takes it from.
fn is_combining_mark(c: char) -> bool {
    unicode_normalization_alignments::char::is_combining_mark(c)
}
