//! The text around a Hugging Face BPE model on characters (Llama 2,
//! Mistral, any `tokenizer.json` whose BPE has no ByteLevel step): the
//! normalizer steps, the pre-tokenizer steps ([`crate::pretokenize::hf_pretok`])
//! and the decoder chain, each as the library applies it, with every byte
//! of the normalized text traced to the bytes of the input it came from.

use crate::normalize::bert_text::BertNormalizer;
use crate::normalize::mapped::Mapped;
use crate::normalize::text_step::TextStep;
use crate::pretokenize::hf_pretok::{PreStep, Word, pre_tokenize};

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
    /// `StripAccents`: combining marks (as of Unicode 9.0) dropped.
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

/// A decoder step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeStep {
    Replace {
        from: String,
        to: String,
    },
    /// Runs of `<0xNN>` tokens as the text their bytes make.
    ByteFallback,
    /// All tokens as one.
    Fuse,
    /// Up to `start` copies of `content` off the front of each token and
    /// `stop` off its end.
    Strip {
        content: char,
        start: usize,
        stop: usize,
    },
    /// The mark as a space; in the first token, when a mark is put in
    /// front, every mark dropped.
    Metaspace {
        replacement: char,
        prepend: bool,
    },
    /// `BPEDecoder`: the end-of-word suffix as a space (nothing in the
    /// last token).
    WordEnds {
        suffix: String,
    },
    /// `WordPiece`: a token with the prefix joins the one before, any
    /// other gets a space before it; `cleanup` tidies spaces before
    /// punctuation.
    WordPiece {
        prefix: String,
        cleanup: bool,
    },
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

    /// The text of tokens whose texts are `tokens`, through the decoder
    /// chain.
    pub fn decode(&self, mut tokens: Vec<String>) -> String {
        // Without a decoder the library joins the tokens with spaces.
        if self.decoder.is_empty() {
            return tokens.join(" ");
        }
        for step in &self.decoder {
            tokens = match step {
                DecodeStep::Replace { from, to } => tokens
                    .into_iter()
                    .map(|t| {
                        if from.is_empty() {
                            t
                        } else {
                            t.replace(from.as_str(), to)
                        }
                    })
                    .collect(),
                DecodeStep::ByteFallback => byte_fallback(tokens),
                DecodeStep::Fuse => vec![tokens.concat()],
                DecodeStep::Strip {
                    content,
                    start,
                    stop,
                } => tokens
                    .into_iter()
                    .map(|t| strip(&t, *content, *start, *stop))
                    .collect(),
                DecodeStep::Metaspace {
                    replacement,
                    prepend,
                } => tokens
                    .into_iter()
                    .enumerate()
                    // In the first token every mark goes, not only the
                    // one put in front: the library decodes so.
                    .map(|(i, t)| {
                        t.chars()
                            .filter(|&c| !(i == 0 && *prepend && c == *replacement))
                            .map(|c| if c == *replacement { ' ' } else { c })
                            .collect()
                    })
                    .collect(),
                DecodeStep::WordEnds { suffix } => {
                    let n = tokens.len();
                    tokens
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| {
                            if suffix.is_empty() {
                                t
                            } else {
                                t.replace(suffix.as_str(), if i + 1 == n { "" } else { " " })
                            }
                        })
                        .collect()
                }
                DecodeStep::WordPiece { prefix, cleanup } => tokens
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let t = match t.strip_prefix(prefix.as_str()) {
                            _ if i == 0 => t,
                            Some(rest) => rest.to_string(),
                            None => format!(" {t}"),
                        };
                        if *cleanup {
                            crate::normalize::bert_text::cleanup(&t)
                        } else {
                            t
                        }
                    })
                    .collect(),
            };
        }
        tokens.concat()
    }
}

/// A combining mark as the library's `StripAccents` sees one: any mark
/// (Mn, Mc, Me) assigned up to Unicode 9.0.
fn is_combining_mark(c: char) -> bool {
    static M: std::sync::OnceLock<crate::normalize::bert_text::Class> = std::sync::OnceLock::new();
    crate::normalize::bert_text::class(&M, r"[\p{M}&&\p{Age=V9_0}]").contains(c)
}

/// The byte of a `<0xNN>` token.
fn byte_token(t: &str) -> Option<u8> {
    let hex = t.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// Runs of byte tokens as the text they make, or U+FFFD for each byte
/// when they make no text.
fn byte_fallback(tokens: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut bytes = Vec::new();
    let flush = |bytes: &mut Vec<u8>, out: &mut Vec<String>| {
        if bytes.is_empty() {
            return;
        }
        match String::from_utf8(std::mem::take(bytes)) {
            Ok(s) => out.push(s),
            Err(e) => out.extend(std::iter::repeat_n(
                "\u{FFFD}".to_string(),
                e.as_bytes().len(),
            )),
        }
    };
    for t in tokens {
        match byte_token(&t) {
            Some(b) => bytes.push(b),
            None => {
                flush(&mut bytes, &mut out);
                out.push(t);
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

fn strip(t: &str, content: char, start: usize, stop: usize) -> String {
    let mut s = t;
    for _ in 0..start {
        match s.strip_prefix(content) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    for _ in 0..stop {
        match s.strip_suffix(content) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    s.to_string()
}
