//! Added tokens as Hugging Face `tokenizers` matches them in the text,
//! before the normalizer and the pre-tokenizer run, and the normalizers
//! bpeek applies to the text between them.
//!
//! HF matches in two passes: first the tokens marked `normalized: false`
//! against the text as given, then, inside each piece left over and after
//! that piece is normalized, the tokens marked `normalized: true` (their
//! own text normalized the same way). Each pass takes the leftmost match,
//! the longest among those starting there, then searches on from its end.
//! A `single_word` token is skipped where a word character touches it;
//! `lstrip` and `rstrip` take the whitespace beside it into the token.

use crate::bpe::TokenId;
use regex_automata::meta::Regex;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// What HF does to the text before pre-tokenizing it, among the normalizers
/// bpeek applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Normalizer {
    #[default]
    None,
    /// Unicode canonical composition.
    Nfc,
}

impl Normalizer {
    pub fn apply<'t>(self, text: &'t str) -> Cow<'t, str> {
        match self {
            Normalizer::None => Cow::Borrowed(text),
            Normalizer::Nfc if unicode_normalization::is_nfc(text) => Cow::Borrowed(text),
            Normalizer::Nfc => Cow::Owned(text.nfc().collect()),
        }
    }
}

/// One added token and its matching flags, as a `tokenizer.json` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedToken {
    pub text: String,
    pub id: TokenId,
    pub special: bool,
    pub single_word: bool,
    pub lstrip: bool,
    pub rstrip: bool,
    pub normalized: bool,
}

/// A piece of text to encode, or a token matched whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddedPiece<'t> {
    Text(Cow<'t, str>),
    Token(TokenId),
}

#[derive(Debug, Clone, Default)]
pub struct AddedVocab {
    tokens: Vec<AddedToken>,
    normalizer: Normalizer,
}

/// A token as one pass looks for it.
struct Wanted<'a> {
    pattern: Cow<'a, str>,
    token: &'a AddedToken,
}

impl AddedVocab {
    pub fn new(tokens: Vec<AddedToken>, normalizer: Normalizer) -> Self {
        AddedVocab { tokens, normalizer }
    }

    pub fn tokens(&self) -> &[AddedToken] {
        &self.tokens
    }

    pub fn normalizer(&self) -> Normalizer {
        self.normalizer
    }

    /// Cut `text` into added tokens and normalized text, in order. Special
    /// tokens are matched only with `allow_special`.
    pub fn split<'t>(
        &self,
        text: &'t str,
        allow_special: bool,
        f: &mut impl FnMut(AddedPiece<'t>),
    ) {
        let usable = |t: &&AddedToken| allow_special || !t.special;
        let raw: Vec<Wanted> = self
            .tokens
            .iter()
            .filter(usable)
            .filter(|t| !t.normalized)
            .map(|t| Wanted {
                pattern: Cow::Borrowed(t.text.as_str()),
                token: t,
            })
            .collect();
        let normalized: Vec<Wanted> = self
            .tokens
            .iter()
            .filter(usable)
            .filter(|t| t.normalized)
            .map(|t| Wanted {
                pattern: self.normalizer.apply(&t.text),
                token: t,
            })
            .collect();
        for (id, range) in find_matches(text, &raw) {
            if let Some(id) = id {
                f(AddedPiece::Token(id));
                continue;
            }
            match self.normalizer.apply(&text[range]) {
                Cow::Borrowed(piece) => {
                    for (id, r) in find_matches(piece, &normalized) {
                        f(match id {
                            Some(id) => AddedPiece::Token(id),
                            None => AddedPiece::Text(Cow::Borrowed(&piece[r])),
                        });
                    }
                }
                Cow::Owned(piece) => {
                    for (id, r) in find_matches(&piece, &normalized) {
                        f(match id {
                            Some(id) => AddedPiece::Token(id),
                            None => AddedPiece::Text(Cow::Owned(piece[r].to_string())),
                        });
                    }
                }
            }
        }
    }
}

/// The leftmost match at or after `from`, the longest of those starting
/// there: its range and which token.
fn leftmost_longest(s: &str, from: usize, wanted: &[Wanted]) -> Option<(Range<usize>, usize)> {
    let bytes = s.as_bytes();
    // Only positions holding some token's first byte are tried.
    let mut first = [false; 256];
    for w in wanted {
        if let Some(&b) = w.pattern.as_bytes().first() {
            first[b as usize] = true;
        }
    }
    (from..s.len())
        .filter(|&i| first[bytes[i] as usize])
        .find_map(|i| {
            wanted
                .iter()
                .enumerate()
                .filter(|(_, w)| {
                    !w.pattern.is_empty() && bytes[i..].starts_with(w.pattern.as_bytes())
                })
                .max_by_key(|(k, w)| (w.pattern.len(), std::cmp::Reverse(*k)))
                .map(|(k, w)| (i..i + w.pattern.len(), k))
        })
}

fn word_char(c: char) -> bool {
    static WORD: OnceLock<Regex> = OnceLock::new();
    let re = WORD.get_or_init(|| Regex::new(r"\w").expect("\\w compiles"));
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf) as &str)
}

/// The pieces of `s`: `(Some(id), range)` for a matched token (its range
/// may take in whitespace), `(None, range)` for the text between.
fn find_matches(s: &str, wanted: &[Wanted]) -> Vec<(Option<TokenId>, Range<usize>)> {
    if wanted.is_empty() {
        return if s.is_empty() {
            Vec::new()
        } else {
            vec![(None, 0..s.len())]
        };
    }
    let mut pieces = Vec::new();
    let mut start_offset = 0;
    let mut from = 0;
    while let Some((m, k)) = leftmost_longest(s, from, wanted) {
        from = m.end;
        let token = wanted[k].token;
        let (mut start, mut stop) = (m.start, m.end);
        if token.single_word {
            let word_before = s[..start].chars().next_back().is_some_and(word_char);
            let word_after = s[stop..].chars().next().is_some_and(word_char);
            if word_before || word_after {
                continue;
            }
        }
        if token.lstrip {
            let trimmed = s[..start].trim_end_matches(char::is_whitespace).len();
            start = trimmed.max(start_offset);
        }
        if token.rstrip {
            let rest = &s[stop..];
            stop += rest.len() - rest.trim_start_matches(char::is_whitespace).len();
        }
        if start_offset < start {
            pieces.push((None, start_offset..start));
        }
        pieces.push((Some(token.id), start..stop));
        start_offset = stop;
    }
    if start_offset < s.len() {
        pieces.push((None, start_offset..s.len()));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(text: &str, id: TokenId) -> AddedToken {
        AddedToken {
            text: text.into(),
            id,
            special: false,
            single_word: false,
            lstrip: false,
            rstrip: false,
            normalized: true,
        }
    }

    fn pieces(vocab: &AddedVocab, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        vocab.split(text, false, &mut |p| {
            out.push(match p {
                AddedPiece::Text(t) => t.into_owned(),
                AddedPiece::Token(id) => format!("#{id}"),
            })
        });
        out
    }

    #[test]
    fn the_longest_of_the_leftmost_matches_wins() {
        let v = AddedVocab::new(
            vec![token("ab", 1), token("abc", 2), token("bcd", 3)],
            Normalizer::None,
        );
        assert_eq!(pieces(&v, "xabcd"), ["x", "#2", "d"]);
    }

    #[test]
    fn strip_flags_take_the_whitespace_and_single_word_needs_a_boundary() {
        let mut pad = token("<pad>", 9);
        pad.lstrip = true;
        pad.rstrip = true;
        let mut word = token("hi", 7);
        word.single_word = true;
        let v = AddedVocab::new(vec![pad, word], Normalizer::None);
        assert_eq!(pieces(&v, "a  <pad>  b"), ["a", "#9", "b"]);
        assert_eq!(pieces(&v, "hi this"), ["#7", " this"]);
    }

    #[test]
    fn special_tokens_wait_for_allow_special() {
        let mut eot = token("<|e|>", 5);
        eot.special = true;
        let v = AddedVocab::new(vec![eot], Normalizer::None);
        assert_eq!(pieces(&v, "a<|e|>"), ["a<|e|>"]);
    }

    #[test]
    fn nfc_composes_the_text_between_tokens() {
        let v = AddedVocab::new(vec![], Normalizer::Nfc);
        assert_eq!(pieces(&v, "e\u{301}"), ["\u{e9}"]);
    }
}
