//! The text around a Hugging Face BPE model on characters (Llama 2,
//! Mistral, any `tokenizer.json` whose BPE has no ByteLevel step): the
//! normalizer steps, the pre-tokenizer steps ([`crate::bpe::hf_pretok`])
//! and the decoder chain, each as the library applies it, with every byte
//! of the normalized text traced to the bytes of the input it came from.

use crate::bpe::hf_pretok::{PreStep, Word, pre_tokenize};
use crate::bpe::spm::TextStep;
use crate::bpe::wordpiece::BertNormalizer;
use std::ops::Range;

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
        from: Box<fancy_regex::Regex>,
        to: String,
    },
    /// `BertNormalizer`.
    Bert(BertNormalizer),
    /// `Precompiled`: SentencePiece's character map, longest match first.
    Precompiled(std::sync::Arc<crate::bpe::spm::normalize::Normalizer>),
}

/// The `Metaspace` pre-tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metaspace {
    pub replacement: char,
    /// A mark in front (`prepend_scheme` `always` or `first`).
    pub prepend: bool,
    /// Only in front of the whole text, not of a piece after an added
    /// token (`first`).
    pub first_only: bool,
    /// Each word (from one mark to the next) merged on its own.
    pub split: bool,
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

/// A text being normalized, and for each of its bytes the range of the
/// input it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapped {
    pub text: String,
    pub from: Vec<Range<usize>>,
}

impl Mapped {
    pub fn new(text: &str) -> Self {
        let mut from = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            from.extend(std::iter::repeat_n(i..i + c.len_utf8(), c.len_utf8()));
        }
        Mapped {
            text: text.to_string(),
            from,
        }
    }

    /// The part `r` of the text, with where its bytes came from.
    pub fn slice(&self, r: Range<usize>) -> Mapped {
        Mapped {
            text: self.text[r.clone()].to_string(),
            from: self.from[r].to_vec(),
        }
    }

    /// Each of `matches` (in order, not overlapping) replaced by `to`.
    fn replace_ranges(&mut self, matches: &[Range<usize>], to: &str) {
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        let mut i = 0;
        for m in matches {
            text.push_str(&self.text[i..m.start]);
            from.extend_from_slice(&self.from[i..m.start]);
            let r = if m.is_empty() {
                let at = self
                    .from
                    .get(m.start)
                    .map_or_else(|| self.from.last().map_or(0, |r| r.end), |r| r.start);
                at..at
            } else {
                self.from[m.start].start..self.from[m.end - 1].end
            };
            text.push_str(to);
            from.extend(std::iter::repeat_n(r, to.len()));
            i = m.end;
        }
        text.push_str(&self.text[i..]);
        from.extend_from_slice(&self.from[i..]);
        self.text = text;
        self.from = from;
    }

    /// Characters for which `drop` holds taken out.
    fn filter(&mut self, drop: impl Fn(char) -> bool) {
        if !self.text.chars().any(&drop) {
            return;
        }
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        for (i, c) in self.text.char_indices() {
            if !drop(c) {
                text.push(c);
                from.extend_from_slice(&self.from[i..i + c.len_utf8()]);
            }
        }
        self.text = text;
        self.from = from;
    }

    /// A character map applied, each output byte traced to the character
    /// it came from.
    fn charsmap(&mut self, n: &crate::bpe::spm::normalize::Normalizer) {
        let (out, to) = n.normalize(self.text.as_bytes());
        let Ok(text) = String::from_utf8(out) else {
            return;
        };
        let last = self.from.len().saturating_sub(1);
        let from = (0..text.len())
            .map(|i| self.from.get(to[i].min(last)).cloned().unwrap_or(0..0))
            .collect();
        self.text = text;
        self.from = from;
    }

    /// Each byte written as its byte-level character (GPT-2's table).
    pub(crate) fn as_byte_chars(&mut self) {
        let table = crate::bpe::io::byte_unicode::byte_chars();
        let mut text = String::with_capacity(self.text.len() * 2);
        let mut from = Vec::with_capacity(self.from.len() * 2);
        for (i, &b) in self.text.as_bytes().iter().enumerate() {
            let c = table[b as usize];
            text.push(c);
            from.extend(std::iter::repeat_n(self.from[i].clone(), c.len_utf8()));
        }
        self.text = text;
        self.from = from;
    }

    /// BERT's normalizer, character by character.
    fn bert(&mut self, n: BertNormalizer) {
        let chars = self
            .text
            .char_indices()
            .map(|(i, c)| (c, self.from[i].clone()))
            .collect();
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        for (c, r) in crate::bpe::wordpiece::bert_normalize(n, chars) {
            text.push(c);
            from.extend(std::iter::repeat_n(r, c.len_utf8()));
        }
        self.text = text;
        self.from = from;
    }

    pub(crate) fn replace(&mut self, pat: &str, to: &str) {
        if pat.is_empty() || !self.text.contains(pat) {
            return;
        }
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        let mut i = 0;
        while let Some(k) = self.text[i..].find(pat) {
            let at = i + k;
            text.push_str(&self.text[i..at]);
            from.extend_from_slice(&self.from[i..at]);
            let r = self.from[at].start..self.from[at + pat.len() - 1].end;
            text.push_str(to);
            from.extend(std::iter::repeat_n(r, to.len()));
            i = at + pat.len();
        }
        text.push_str(&self.text[i..]);
        from.extend_from_slice(&self.from[i..]);
        self.text = text;
        self.from = from;
    }

    fn strip(&mut self, left: bool, right: bool) {
        let end = if right {
            self.text.trim_end().len()
        } else {
            self.text.len()
        };
        let start = if left {
            end - self.text[..end].trim_start().len()
        } else {
            0
        };
        self.text = self.text[start..end].to_string();
        self.from = self.from[start..end].to_vec();
    }

    pub(crate) fn prepend(&mut self, p: &str) {
        if self.text.is_empty() {
            return;
        }
        let at = self.from[0].start;
        self.text.insert_str(0, p);
        self.from.splice(0..0, std::iter::repeat_n(at..at, p.len()));
    }

    /// A Unicode step, applied to parts cut before each ASCII or
    /// whitespace character (nothing composes with those); a part's bytes
    /// all come from the whole part.
    fn unicode(&mut self, step: TextStep) {
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        let mut start = 0;
        let src = std::mem::take(&mut self.text);
        let mut flush = |part: Range<usize>| {
            let t = step.apply(&src[part.clone()]);
            let r = self.from[part.start].start..self.from[part.end - 1].end;
            from.extend(std::iter::repeat_n(r, t.len()));
            text.push_str(&t);
        };
        for (i, c) in src.char_indices() {
            if i > start && (c.is_ascii() || c.is_whitespace()) {
                flush(start..i);
                start = i;
            }
        }
        if start < src.len() {
            flush(start..src.len());
        }
        self.text = text;
        self.from = from;
    }
}

impl HfText {
    /// The normalized text of `text`, with where each byte came from.
    pub fn normalize(&self, text: &str) -> Mapped {
        let mut m = Mapped::new(text);
        for step in &self.normalizer {
            match step {
                NormStep::Prepend(p) => m.prepend(p),
                NormStep::Replace { from, to } => m.replace(from, to),
                NormStep::Unicode(s) => m.unicode(*s),
                NormStep::Strip { left, right } => m.strip(*left, *right),
                NormStep::StripAccents => m.filter(is_combining_mark),
                NormStep::ReplaceRegex { from, to } => {
                    let mut matches = Vec::new();
                    for found in from.find_iter(&m.text) {
                        // The backtracking bound was reached: the rest is
                        // left as it is.
                        let Ok(found) = found else { break };
                        matches.push(found.range());
                    }
                    m.replace_ranges(&matches, to);
                }
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
                            crate::bpe::wordpiece::cleanup(&t)
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
    static M: std::sync::OnceLock<crate::bpe::wordpiece::Class> = std::sync::OnceLock::new();
    crate::bpe::wordpiece::class(&M, r"[\p{M}&&\p{Age=V9_0}]").contains(c)
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
