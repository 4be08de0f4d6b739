//! A text being rewritten (normalized, cut into words, written in
//! byte-level characters) that keeps, for each of its bytes, the range of
//! the input it came from: what lets a token be shown over its place.

use crate::normalize::bert_text::BertNormalizer;
use crate::normalize::text_step::TextStep;
use std::ops::Range;

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
    pub fn replace_ranges(&mut self, matches: &[Range<usize>], to: &str) {
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
    pub fn filter(&mut self, drop: impl Fn(char) -> bool) {
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
    pub fn charsmap(&mut self, n: &crate::models::spm::normalize::Normalizer) {
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
    pub fn as_byte_chars(&mut self) {
        let table = crate::formats::byte_unicode::byte_chars();
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
    pub fn bert(&mut self, n: BertNormalizer) {
        let chars = self
            .text
            .char_indices()
            .map(|(i, c)| (c, self.from[i].clone()))
            .collect();
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        for (c, r) in crate::normalize::bert_text::bert_normalize(n, chars) {
            text.push(c);
            from.extend(std::iter::repeat_n(r, c.len_utf8()));
        }
        self.text = text;
        self.from = from;
    }

    pub fn replace(&mut self, pat: &str, to: &str) {
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

    pub fn strip(&mut self, left: bool, right: bool) {
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

    pub fn prepend(&mut self, p: &str) {
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
    pub fn unicode(&mut self, step: TextStep) {
        let mut text = String::with_capacity(self.text.len());
        let mut from = Vec::with_capacity(self.from.len());
        let mut start = 0;
        let src = std::mem::take(&mut self.text);
        let mut flush = |part: Range<usize>| {
            let piece = &src[part.clone()];
            let r = self.from[part.start].start..self.from[part.end - 1].end;
            // An ASCII part (one character, nothing after it to compose
            // with) is its own normal form, and lowercases as ASCII: no
            // string is made for it.
            if piece.is_ascii() {
                match step {
                    TextStep::Lowercase => {
                        text.extend(piece.bytes().map(|b| char::from(b.to_ascii_lowercase())))
                    }
                    _ => text.push_str(piece),
                }
                from.extend(std::iter::repeat_n(r, piece.len()));
                return;
            }
            let t = step.apply(piece);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A Unicode step part by part (ASCII parts copied or lowercased) is
    /// the step on the whole text, on random texts of letters that
    /// compose, decompose, fold or lowercase.
    #[test]
    fn unicode_steps_part_by_part_are_the_step_on_the_whole() {
        let pieces = [
            "A", "e", "\u{301}", "\u{327}", "É", "ﬁ", "①", " ", "\u{3000}", "İ", "K", "ǅ", "x",
        ];
        let mut roll = crate::dice::rolls(0xacce_5500);
        for _ in 0..500 {
            let n = roll(10);
            let text: String = (0..n)
                .map(|_| pieces[roll(pieces.len() as u64) as usize])
                .collect();
            for step in [
                TextStep::Nfc,
                TextStep::Nfd,
                TextStep::Nfkc,
                TextStep::Nfkd,
                TextStep::Lowercase,
            ] {
                let mut m = Mapped::new(&text);
                m.unicode(step);
                assert_eq!(m.text, step.apply(&text), "{step:?} {text:?}");
                assert_eq!(m.from.len(), m.text.len());
            }
        }
    }
}
