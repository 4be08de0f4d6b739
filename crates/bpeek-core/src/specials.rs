//! A tokenizer's special tokens: looked up by id in constant time and
//! found in text by one leftmost-longest automaton, so a file with a
//! hundred thousand of them costs no more per byte than one with three.

use crate::TokenId;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// A special token such as `<|endoftext|>`, with its own id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialToken {
    pub text: String,
    pub id: TokenId,
}

#[derive(Debug, Clone, Default)]
pub struct Specials {
    /// In the order the file lists them (and writes them back).
    list: Vec<SpecialToken>,
    /// The place in `list` of each id.
    by_id: FxHashMap<TokenId, usize>,
    /// Built the first time text is searched; `None` if no token has text.
    finder: OnceLock<Option<(AhoCorasick, Vec<usize>)>>,
}

impl Specials {
    pub fn new(list: Vec<SpecialToken>) -> Self {
        let by_id = list.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
        Specials {
            list,
            by_id,
            finder: OnceLock::new(),
        }
    }

    pub fn as_slice(&self) -> &[SpecialToken] {
        &self.list
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn get(&self, id: TokenId) -> Option<&SpecialToken> {
        self.by_id.get(&id).map(|&i| &self.list[i])
    }

    pub fn has_text(&self, text: &str) -> bool {
        self.list.iter().any(|s| s.text == text)
    }

    pub fn push(&mut self, token: SpecialToken) {
        self.by_id.insert(token.id, self.list.len());
        self.list.push(token);
        self.finder = OnceLock::new();
    }

    /// The largest id plus one (0 with none).
    pub fn id_limit(&self) -> usize {
        self.list
            .iter()
            .map(|s| s.id as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// The next special token in `text` at or after `from`: the leftmost,
    /// and the longest of those starting there (of two with the same text,
    /// the first listed).
    pub fn find(&self, text: &[u8], from: usize) -> Option<(Range<usize>, TokenId)> {
        let (automaton, token_of) = self.finder.get_or_init(|| self.build()).as_ref()?;
        let m = automaton.find(aho_corasick::Input::new(text).span(from..text.len()))?;
        Some((m.range(), self.list[token_of[m.pattern().as_usize()]].id))
    }

    fn build(&self) -> Option<(AhoCorasick, Vec<usize>)> {
        literal_automaton(self.list.iter().map(|s| s.text.as_bytes()))
    }
}

/// One leftmost-longest automaton over `patterns`, with the index in
/// `patterns` of each of its own: of equal patterns the first is kept, and
/// empty ones match nothing. `None` when no pattern is left.
pub fn literal_automaton<'a>(
    patterns: impl Iterator<Item = &'a [u8]>,
) -> Option<(AhoCorasick, Vec<usize>)> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut kept = Vec::new();
    let mut index_of = Vec::new();
    for (i, p) in patterns.enumerate() {
        if !p.is_empty() && seen.insert(p) {
            kept.push(p);
            index_of.push(i);
        }
    }
    if kept.is_empty() {
        return None;
    }
    let automaton = AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(kept)
        .expect("literal patterns of bounded size always build");
    Some((automaton, index_of))
}
