//! The text around a Hugging Face BPE model on characters (Llama 2,
//! Mistral, any `tokenizer.json` whose BPE has no ByteLevel step): the
//! normalizer steps, the Metaspace pre-tokenizer and the decoder chain,
//! each as the library applies it, with every byte of the normalized text
//! traced to the bytes of the input it came from.

use crate::bpe::spm::TextStep;
use std::ops::Range;

/// A normalizer step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NormStep {
    /// `Prepend`: the text, in front of a text that is not empty.
    Prepend(String),
    /// `Replace` with a string pattern: every match, left to right.
    Replace { from: String, to: String },
    /// NFC, NFD, NFKC, NFKD, Lowercase.
    Unicode(TextStep),
    /// `Strip`: whitespace off the start and the end.
    Strip { left: bool, right: bool },
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
}

/// How text becomes the words BPE merges, and ids become text again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HfText {
    pub normalizer: Vec<NormStep>,
    pub metaspace: Option<Metaspace>,
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

    fn replace(&mut self, pat: &str, to: &str) {
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

    fn prepend(&mut self, p: &str) {
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
    /// The normalized, pre-tokenized text and the byte ranges of its
    /// words (each merged on its own); `at_start` says whether `text`
    /// starts the whole text or follows an added token.
    pub fn words(&self, text: &str, at_start: bool) -> (Mapped, Vec<Range<usize>>) {
        let mut m = Mapped::new(text);
        for step in &self.normalizer {
            match step {
                NormStep::Prepend(p) => m.prepend(p),
                NormStep::Replace { from, to } => m.replace(from, to),
                NormStep::Unicode(s) => m.unicode(*s),
                NormStep::Strip { left, right } => m.strip(*left, *right),
            }
        }
        let Some(ms) = self.metaspace else {
            let all = 0..m.text.len();
            return (m, if all.is_empty() { vec![] } else { vec![all] });
        };
        let mut mark = [0u8; 4];
        let mark: &str = ms.replacement.encode_utf8(&mut mark);
        m.replace(" ", mark);
        if ms.prepend && (at_start || !ms.first_only) && !m.text.starts_with(mark) {
            m.prepend(mark);
        }
        let mut words = Vec::new();
        if ms.split {
            let mut start = 0;
            for (i, _) in m.text.match_indices(mark) {
                if i > start {
                    words.push(start..i);
                    start = i;
                }
            }
            if start < m.text.len() {
                words.push(start..m.text.len());
            }
        } else if !m.text.is_empty() {
            words.push(0..m.text.len());
        }
        (m, words)
    }

    /// The text of tokens whose texts are `tokens`, through the decoder
    /// chain.
    pub fn decode(&self, mut tokens: Vec<String>) -> String {
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
            };
        }
        tokens.concat()
    }
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
