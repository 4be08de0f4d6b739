//! The corpus as distinct words with their counts, in order of first
//! appearance: Unigram training never looks across a word's edge.

use crate::error::{Error, Result};
use crate::train::unigram::config::WordMarks;
use rustc_hash::FxHashMap;

/// The space marker sentencepiece writes in front of each word.
pub const SPACE_MARK: &str = "\u{2581}";

/// Distinct words, side by side in one string.
#[derive(Debug, Clone, Default)]
pub struct Words {
    text: String,
    /// Word `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
    ends: Vec<u32>,
    counts: Vec<u64>,
    total_chars: u64,
}

impl Words {
    /// The words of `text`, cut at whitespace, written as `marks` says.
    /// The text must be UTF-8: the error names the first byte that is not.
    pub fn from_text(text: &[u8], marks: WordMarks) -> Result<Words> {
        let text = std::str::from_utf8(text).map_err(|e| {
            Error::input(format!(
                "the corpus is not UTF-8 at byte {}: Unigram training reads text as characters",
                e.valid_up_to()
            ))
        })?;
        let mut index: FxHashMap<&str, u32> = FxHashMap::default();
        let mut order: Vec<&str> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        for word in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
            let i = *index.entry(word).or_insert_with(|| {
                order.push(word);
                counts.push(0);
                (order.len() - 1) as u32
            });
            counts[i as usize] += 1;
        }
        Ok(Words::from_counted(
            order.iter().copied().zip(counts.iter().copied()),
            marks,
        ))
    }

    /// Words already counted, each written as `marks` says. A word given
    /// twice adds its counts.
    pub fn from_counted<'a>(
        words: impl IntoIterator<Item = (&'a str, u64)>,
        marks: WordMarks,
    ) -> Words {
        let mut out = Words::default();
        let mut index: FxHashMap<String, usize> = FxHashMap::default();
        for (word, count) in words {
            if let Some(&i) = index.get(word) {
                out.counts[i] += count;
                out.total_chars += count * word.chars().count() as u64;
                continue;
            }
            index.insert(word.to_string(), out.counts.len());
            if marks == WordMarks::Space {
                out.text.push_str(SPACE_MARK);
            }
            out.text.push_str(word);
            out.ends.push(out.text.len() as u32);
            out.counts.push(count);
            let chars = word.chars().count() + usize::from(marks == WordMarks::Space);
            out.total_chars += count * chars as u64;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Word `i` as written (with its marker).
    pub fn word(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    /// How often word `i` occurs.
    pub fn count(&self, i: usize) -> u64 {
        self.counts[i]
    }

    /// Every word with its count, in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        (0..self.len()).map(|i| (self.word(i), self.counts[i]))
    }

    /// The characters of the corpus as words, markers included, each word
    /// as often as it occurs.
    pub fn total_chars(&self) -> u64 {
        self.total_chars
    }

    /// The index of `word` as written, if it is one of the words.
    pub fn find(&self, word: &str) -> Option<usize> {
        (0..self.len()).find(|&i| self.word(i) == word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_counted_in_order_of_first_appearance_with_their_marker() {
        let w = Words::from_text("hug pug\thug\n pun  hug".as_bytes(), WordMarks::Space).unwrap();
        let got: Vec<_> = w.iter().collect();
        assert_eq!(got, [("▁hug", 3), ("▁pug", 1), ("▁pun", 1)]);
        assert_eq!(w.total_chars(), 3 * 4 + 4 + 4);
        let w = Words::from_text(b"ab ab", WordMarks::None).unwrap();
        assert_eq!(w.iter().collect::<Vec<_>>(), [("ab", 2)]);
    }

    #[test]
    fn a_corpus_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
        let e = Words::from_text(b"ab \xff", WordMarks::Space).unwrap_err();
        assert!(e.to_string().contains("byte 3"), "{e}");
    }
}
