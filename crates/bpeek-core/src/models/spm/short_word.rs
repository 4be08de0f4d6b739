//! SentencePiece BPE on one short word, the common case of running text:
//! the same merges as the heap of [`super::bpe`], done in a few small
//! arrays that are kept from word to word.
//!
//! A word of a dozen characters is merged a dozen times at most; scanning
//! its pairs for the best one costs less than keeping a heap, and the
//! arrays are reused, so a word costs no allocation at all. Words are
//! short by [`SHORT_WORD`]: past it the scan would grow with the square of
//! the word, and the heap takes over.

use super::SpmModel;
use super::normalize::one_char_len;
use crate::TokenId;

/// The longest word, in bytes, merged here (longer ones go to the heap).
pub const SHORT_WORD: usize = 64;

/// No piece id known yet: the symbol is as the text was cut, and its id is
/// looked up when it is given out.
const CUT: TokenId = TokenId::MAX;

/// One symbol of the word: its bytes, its id once merged, and whether it
/// is a user-defined symbol (which never merges).
#[derive(Clone, Copy)]
struct Symbol {
    start: u8,
    end: u8,
    id: TokenId,
    frozen: bool,
}

/// No pair: below the key of every score (see [`order_key`]).
const NO_PAIR: u64 = 0;

/// A score as a number that orders as `f32::total_cmp` orders scores,
/// above [`NO_PAIR`]: the best pair is then the largest key, found by a
/// plain scan the compiler can vectorize.
fn order_key(score: f32) -> u64 {
    let bits = score.to_bits();
    let key = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    key as u64 + 1
}

/// The arrays one word is merged in, kept for the next word.
#[derive(Default)]
pub struct ShortWords {
    symbols: Vec<Symbol>,
    /// `keys[i]` orders the pair of `symbols[i]` and `symbols[i + 1]`
    /// ([`order_key`] of its piece's score, or [`NO_PAIR`]), `ids[i]` is
    /// its piece.
    keys: Vec<u64>,
    ids: Vec<TokenId>,
}

impl ShortWords {
    /// The pieces of `word` (at most [`SHORT_WORD`] bytes), each as where
    /// it ends in the word and its id, pushed onto `out`.
    pub fn merge(&mut self, model: &SpmModel, word: &[u8], out: &mut Vec<(u32, TokenId)>) {
        debug_assert!(word.len() <= SHORT_WORD);
        self.cut(model, word);
        self.keys.clear();
        self.ids.clear();
        for i in 1..self.symbols.len() {
            let (key, id) = self.pair(model, word, i - 1);
            self.keys.push(key);
            self.ids.push(id);
        }
        while let Some(best) = self.best_pair() {
            self.join(model, word, best);
        }
        for s in &self.symbols {
            let text = &word[s.start as usize..s.end as usize];
            let id = if s.id == CUT {
                model.char_to_id(text)
            } else if model.reserved_overlaps_normal {
                model.piece_to_id(text)
            } else {
                s.id
            };
            out.push((s.end as u32, id));
        }
    }

    /// Cut the word into characters and user-defined symbols.
    fn cut(&mut self, model: &SpmModel, word: &[u8]) {
        self.symbols.clear();
        let mut at = 0;
        while at < word.len() {
            let rest = &word[at..];
            let (len, frozen) = match model.user.as_ref().and_then(|u| u.longest(rest)) {
                Some(len) => (len, true),
                None => (one_char_len(rest), false),
            };
            self.symbols.push(Symbol {
                start: at as u8,
                end: (at + len) as u8,
                id: CUT,
                frozen,
            });
            at += len;
        }
    }

    /// The pair of symbols `i` and `i + 1`: its key and its piece
    /// ([`NO_PAIR`] if it makes none).
    fn pair(&self, model: &SpmModel, word: &[u8], i: usize) -> (u64, TokenId) {
        let (a, b) = (self.symbols[i], self.symbols[i + 1]);
        if a.frozen || b.frozen {
            return (NO_PAIR, CUT);
        }
        let text = &word[a.start as usize..b.end as usize];
        if !model.normal_filter.may_hold(text) {
            return (NO_PAIR, CUT);
        }
        match model.normal.get(text) {
            Some(&id) => (order_key(model.pieces[id as usize].score), id),
            None => (NO_PAIR, CUT),
        }
    }

    /// The pair that merges next: the highest score, the leftmost among
    /// equal ones (as the heap orders them).
    fn best_pair(&self) -> Option<usize> {
        let (mut best, mut at) = (NO_PAIR, 0);
        for (i, &k) in self.keys.iter().enumerate() {
            if k > best {
                (best, at) = (k, i);
            }
        }
        (best != NO_PAIR).then_some(at)
    }

    /// Merge symbols `i` and `i + 1`, and find the pairs on either side
    /// of the new symbol again.
    fn join(&mut self, model: &SpmModel, word: &[u8], i: usize) {
        let right = self.symbols.remove(i + 1);
        self.symbols[i].end = right.end;
        self.symbols[i].id = self.ids[i];
        self.keys.remove(i);
        self.ids.remove(i);
        if i + 1 < self.symbols.len() {
            (self.keys[i], self.ids[i]) = self.pair(model, word, i);
        }
        if i > 0 {
            (self.keys[i - 1], self.ids[i - 1]) = self.pair(model, word, i - 1);
        }
    }
}
