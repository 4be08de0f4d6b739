//! The text steps around a tokenizer's model, in the order Hugging Face
//! `tokenizers` runs them: the added tokens cut out of a text first (with
//! the normalizer run on the text between them), the pre-tokenizer that
//! cuts the rest into the chunks the model sees (the post-processor's
//! template is in [`crate::post`]).

use crate::TokenId;

use crate::formats::byte_unicode;
use crate::normalize::added::{AddedPiece, AddedVocab};
pub use crate::post::Template;
use crate::pretokenize::hf_text::HfText;
use crate::pretokenize::pretok::{Chunker, for_each_utf8_run};
use crate::pretokenize::regex_split::RegexChain;
use crate::pretokenize::word_ranges::StepWords;
use crate::specials::Specials;
use std::borrow::Cow;
use std::sync::Arc;

/// The tokens taken whole out of a text before its model sees it: special
/// tokens, or a Hugging Face file's added tokens matched as the library
/// matches them, with its normalizer run on the text between them.
#[derive(Debug, Clone, Default)]
pub struct AddedTokens {
    specials: Specials,
    /// Added tokens matched as Hugging Face matches them, and the text
    /// normalizer (files from HF only).
    hf: Option<Box<AddedVocab>>,
}

/// A part of a text cut at added tokens.
pub(crate) enum Piece<'t> {
    Text(&'t [u8]),
    /// Text a normalizer changed.
    Normalized(String),
    Special(TokenId),
}

impl AddedTokens {
    pub fn specials(&self) -> &Specials {
        &self.specials
    }

    pub fn specials_mut(&mut self) -> &mut Specials {
        &mut self.specials
    }

    pub fn set_specials(&mut self, specials: Specials) {
        self.specials = specials;
    }

    /// The added tokens and normalizer of a file from HF, if it has any.
    pub fn hf(&self) -> Option<&AddedVocab> {
        self.hf.as_deref()
    }

    /// Match `added` tokens (and normalize the text between them) as
    /// Hugging Face does, instead of the special tokens.
    pub fn set_hf(&mut self, added: Option<AddedVocab>) {
        self.hf = added.map(Box::new);
    }

    /// Split `text` at the special tokens (leftmost, longest first) when
    /// they are allowed.
    pub(crate) fn for_each_piece<'t>(
        &self,
        text: &'t [u8],
        allow_special: bool,
        mut f: impl FnMut(Piece<'t>),
    ) {
        if let Some(added) = &self.hf {
            for_each_utf8_run(text, |start, run| match run {
                Ok(run) => {
                    // The same bytes, borrowed from `text` for as long as it lives.
                    let s =
                        std::str::from_utf8(&text[start..start + run.len()]).unwrap_or_default();
                    added.split(s, allow_special, &mut |p| match p {
                        AddedPiece::Token(id) => f(Piece::Special(id)),
                        AddedPiece::Text(Cow::Borrowed(t)) => f(Piece::Text(t.as_bytes())),
                        AddedPiece::Text(Cow::Owned(t)) => f(Piece::Normalized(t)),
                    })
                }
                Err(len) => f(Piece::Text(&text[start..start + len])),
            });
            return;
        }
        if !allow_special || self.specials.is_empty() {
            f(Piece::Text(text));
            return;
        }
        let mut start = 0;
        while let Some((found, id)) = self.specials.find(text, start) {
            if start < found.start {
                f(Piece::Text(&text[start..found.start]));
            }
            f(Piece::Special(id));
            start = found.end;
        }
        if start < text.len() {
            f(Piece::Text(&text[start..]));
        }
    }
}

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
            Cut::HfText(steps) => with_kept_words(|(words, bytes)| {
                for_each_utf8_run(text, |start, run| match run {
                    Ok(s) => {
                        steps.words_into(s, at_start && start == 0, false, words);
                        for word in words.texts() {
                            bytes.clear();
                            match byte_unicode::decode_into(word, bytes) {
                                Ok(()) => each(bytes),
                                Err(_) => each(word.as_bytes()),
                            }
                        }
                    }
                    Err(len) => each(&text[start..start + len]),
                })
            }),
            Cut::Split(chain) => chain.for_each_chunk(text, |r| each(&text[r])),
            Cut::Rule => match as_str {
                Some(s) => self.rule.for_each_chunk_str(s, |r| each(&text[r])),
                None => self.rule.for_each_chunk(text, |r| each(&text[r])),
            },
        }
    }
}

/// The buffers a file's steps cut words in, and a word's bytes, kept by
/// each thread from one text to the next: a batch of short texts (the
/// lines of `encode --lines`) then makes none per text.
fn with_kept_words<R>(f: impl FnOnce(&mut (StepWords, Vec<u8>)) -> R) -> R {
    thread_local! {
        static KEPT: std::cell::RefCell<(StepWords, Vec<u8>)> = Default::default();
    }
    KEPT.with(|kept| match kept.try_borrow_mut() {
        Ok(mut kept) => f(&mut kept),
        // Called again from inside a call: buffers of its own.
        Err(_) => f(&mut Default::default()),
    })
}
