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

use crate::TokenId;
use crate::normalize::text_step::TextStep;
use crate::pretokenize::hf_text::HfText;
use aho_corasick::{AhoCorasick, Input};
use regex_automata::meta::Regex;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// What HF does to the text before pre-tokenizing it, among the normalizers
/// bpeek applies.
#[derive(Debug, Clone, Default)]
pub enum Normalizer {
    #[default]
    None,
    /// Unicode canonical composition.
    Nfc,
    /// A file's own normalizer steps (the pre-tokenizer then runs on the
    /// text they made).
    Steps(Arc<HfText>),
}

impl PartialEq for Normalizer {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Normalizer::None, Normalizer::None) | (Normalizer::Nfc, Normalizer::Nfc) => true,
            (Normalizer::Steps(a), Normalizer::Steps(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Normalizer {
    pub fn apply<'t>(&self, text: &'t str) -> Cow<'t, str> {
        match self {
            Normalizer::None => Cow::Borrowed(text),
            Normalizer::Nfc if unicode_normalization_alignments::is_nfc(text) => {
                Cow::Borrowed(text)
            }
            Normalizer::Nfc => Cow::Owned(TextStep::Nfc.apply(text)),
            Normalizer::Steps(steps) => Cow::Owned(steps.normalize(text).text),
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
    /// One automaton per pass and per choice of special tokens, built the
    /// first time it is needed: a file may add hundreds of thousands of
    /// tokens, and a scan per token per position would cost text length
    /// times tokens.
    passes: [OnceLock<Pass>; 4],
}

/// The tokens one pass looks for, matched leftmost-longest at once.
#[derive(Debug, Clone)]
struct Pass {
    /// `None` when the pass has nothing to look for.
    automaton: Option<AhoCorasick>,
    /// For each pattern of the automaton, the index of its token.
    token_of: Vec<usize>,
}

impl Pass {
    /// Patterns in list order; of tokens whose pattern is the same (two
    /// texts the normalizer makes equal), the first listed is the one
    /// matched, and an empty pattern matches nothing.
    fn new<'a>(patterns: impl Iterator<Item = (usize, Cow<'a, str>)>) -> Pass {
        let (tokens, patterns): (Vec<usize>, Vec<Cow<str>>) = patterns.unzip();
        match crate::specials::literal_automaton(patterns.iter().map(|p| p.as_bytes())) {
            Some((automaton, index_of)) => Pass {
                automaton: Some(automaton),
                token_of: index_of.into_iter().map(|i| tokens[i]).collect(),
            },
            None => Pass {
                automaton: None,
                token_of: Vec::new(),
            },
        }
    }
}

impl AddedVocab {
    pub fn new(tokens: Vec<AddedToken>, normalizer: Normalizer) -> Self {
        AddedVocab {
            tokens,
            normalizer,
            passes: Default::default(),
        }
    }

    /// The raw pass (tokens matched before normalizing) or the normalized
    /// one, with or without the special tokens.
    fn pass(&self, allow_special: bool, normalized: bool) -> &Pass {
        let slot = usize::from(allow_special) * 2 + usize::from(normalized);
        self.passes[slot].get_or_init(|| {
            Pass::new(
                self.tokens
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| (allow_special || !t.special) && t.normalized == normalized)
                    .map(|(i, t)| {
                        let pattern = if normalized {
                            self.normalizer.apply(&t.text)
                        } else {
                            Cow::Borrowed(t.text.as_str())
                        };
                        (i, pattern)
                    }),
            )
        })
    }

    pub fn tokens(&self) -> &[AddedToken] {
        &self.tokens
    }

    pub fn normalizer(&self) -> &Normalizer {
        &self.normalizer
    }

    /// Cut `text` into added tokens and normalized text, in order. Special
    /// tokens are matched only with `allow_special`.
    pub fn split<'t>(
        &self,
        text: &'t str,
        allow_special: bool,
        f: &mut impl FnMut(AddedPiece<'t>),
    ) {
        let raw = self.pass(allow_special, false);
        let normalized = self.pass(allow_special, true);
        for (id, range) in self.find_matches(text, raw) {
            if let Some(id) = id {
                f(AddedPiece::Token(id));
                continue;
            }
            match self.normalizer.apply(&text[range]) {
                Cow::Borrowed(piece) => {
                    for (id, r) in self.find_matches(piece, normalized) {
                        f(match id {
                            Some(id) => AddedPiece::Token(id),
                            None => AddedPiece::Text(Cow::Borrowed(&piece[r])),
                        });
                    }
                }
                Cow::Owned(piece) => {
                    for (id, r) in self.find_matches(&piece, normalized) {
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

fn word_char(c: char) -> bool {
    static WORD: OnceLock<Regex> = OnceLock::new();
    let re = WORD.get_or_init(|| Regex::new(r"\w").expect("\\w compiles"));
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf) as &str)
}

impl AddedVocab {
    /// The pieces of `s`: `(Some(id), range)` for a matched token (its
    /// range may take in whitespace), `(None, range)` for the text between.
    fn find_matches(&self, s: &str, pass: &Pass) -> Vec<(Option<TokenId>, Range<usize>)> {
        let Some(automaton) = &pass.automaton else {
            return if s.is_empty() {
                Vec::new()
            } else {
                vec![(None, 0..s.len())]
            };
        };
        let mut pieces = Vec::new();
        let mut start_offset = 0;
        let mut from = 0;
        while from < s.len()
            && let Some(m) = automaton.find(Input::new(s).span(from..s.len()))
        {
            // A skipped match is searched past, not into, as HF does.
            from = m.end();
            let token = &self.tokens[pass.token_of[m.pattern().as_usize()]];
            let (mut start, mut stop) = (m.start(), m.end());
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
