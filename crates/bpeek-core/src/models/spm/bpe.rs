//! SentencePiece BPE: the text starts as characters (a user-defined symbol
//! is one frozen symbol); the adjacent pair whose concatenation is a piece
//! with the highest score merges first, the leftmost among equal scores,
//! until no pair makes a piece. A piece marked unused may be made along the
//! way but is given back as the two symbols that made it.
//!
//! A long word (megabytes with no space) must cost a few bytes a byte: the
//! symbols are kept by their first byte in one array of links, and the
//! pairs that make a piece in a heap that holds each pair once and drops it
//! when it is no longer a pair, rather than leaving stale entries behind.

use super::SpmModel;
use super::kept_words::KeptWords;
use super::normalize::one_char_len;
use crate::TokenId;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::ops::Range;

/// Words up to this many bytes have their pieces kept and reused; longer
/// ones are rare enough to encode each time, and would cost their pieces'
/// size again if kept.
const CACHED_WORD: usize = 256;

/// The pieces of `norm` (a normalized text): each as a byte range of it
/// and its id. See [`each_piece`].
pub fn encode(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
    let mut out = Vec::new();
    each_piece(model, norm, &mut |r, id| out.push((r, id)));
    out
}

/// Hand each piece of `norm` to `f`, in order, as a byte range of it and
/// its id. See [`each_piece_in`]; the words met are kept for this text only.
pub fn each_piece(model: &SpmModel, norm: &[u8], f: &mut impl FnMut(Range<usize>, TokenId)) {
    each_piece_in(model, norm, &mut KeptWords::default(), f);
}

/// [`each_piece`], finding short words in `kept` (words met before, in
/// this text or in texts encoded before it by this model) and keeping the
/// new ones there. When no piece reaches across the start of a word (see
/// [`SpmModel::words_apart`]), no merge does either, and the order of
/// merges in one word does not depend on the others: each distinct short
/// word is encoded once and its pieces reused.
pub fn each_piece_in(
    model: &SpmModel,
    norm: &[u8],
    kept: &mut KeptWords,
    f: &mut impl FnMut(Range<usize>, TokenId),
) {
    if !model.words_apart {
        return encode_whole(model, norm, 0, f);
    }
    for word in words(norm) {
        let text = &norm[word.clone()];
        if text.len() > CACHED_WORD {
            encode_whole(model, text, word.start, f);
            continue;
        }
        let pieces = kept.pieces_of(model, text, |word, pieces| {
            encode_whole(model, word, 0, &mut |r: Range<usize>, id| {
                pieces.push((r.end as u32, id))
            })
        });
        let mut start = word.start;
        for &(end, id) in pieces {
            let end = word.start + end as usize;
            f(start..end, id);
            start = end;
        }
    }
}

/// The words of `norm`, each from a place [`starts_word`] to the next.
/// Only a `▁` can start a word, and its first byte is never inside a
/// character, so the search jumps from one such byte to the next.
fn words(norm: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    const SPACE_LEAD: u8 = "\u{2581}".as_bytes()[0];
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= norm.len() {
            return None;
        }
        let from = start + one_char_len(&norm[start..]);
        let end = memchr::memchr_iter(SPACE_LEAD, &norm[from..])
            .map(|k| from + k)
            .find(|&at| starts_word(norm, at))
            .unwrap_or(norm.len());
        let word = start..end;
        start = end;
        Some(word)
    })
}

/// Whether a word starts at `at`: at a `▁` that follows another character.
fn starts_word(norm: &[u8], at: usize) -> bool {
    const SPACE: &[u8] = "\u{2581}".as_bytes();
    norm[at..].starts_with(SPACE) && !norm[..at].ends_with(SPACE)
}

/// [`each_piece`] on `norm` as one stretch; ranges are moved by `offset`.
fn encode_whole(
    model: &SpmModel,
    norm: &[u8],
    offset: usize,
    f: &mut impl FnMut(Range<usize>, TokenId),
) {
    // Positions fit in 32 bits for any text under 4 GiB, and take half
    // the room they would as `usize`.
    if norm.len() < u32::MAX as usize - 1 {
        Merger::<u32>::new(model, norm).run().emit(offset, f);
    } else {
        Merger::<usize>::new(model, norm).run().emit(offset, f);
    }
}

/// A byte position in the text, in as few bytes as the text allows.
trait Pos: Copy + Ord {
    /// No candidate (in [`Merger::slot`]).
    const NONE: Self;
    /// A user-defined symbol, which never merges (in [`Merger::slot`]).
    const FROZEN: Self;
    fn at(i: usize) -> Self;
    fn get(self) -> usize;
}

impl Pos for u32 {
    const NONE: u32 = u32::MAX;
    const FROZEN: u32 = u32::MAX - 1;
    fn at(i: usize) -> u32 {
        i as u32
    }
    fn get(self) -> usize {
        self as usize
    }
}

impl Pos for usize {
    const NONE: usize = usize::MAX;
    const FROZEN: usize = usize::MAX - 1;
    fn at(i: usize) -> usize {
        i
    }
    fn get(self) -> usize {
        self
    }
}

/// A pair of neighbours that makes a piece: the symbol starting at `left`
/// and the one after it.
#[derive(Clone, Copy)]
struct Candidate<P> {
    score: f32,
    left: P,
}

impl<P: Pos> Candidate<P> {
    /// Whether `self` merges before `other`: the higher score first, and
    /// among equal scores the leftmost.
    fn before(&self, other: &Self) -> bool {
        self.score
            .total_cmp(&other.score)
            .then(other.left.cmp(&self.left))
            == Ordering::Greater
    }
}

/// An unused piece, by its text: the two symbols that last made it.
type Unmerge<'a> = FxHashMap<&'a [u8], (Range<usize>, Range<usize>)>;

/// The symbols of one stretch of text as merges join them.
///
/// A symbol `s..e` is known by its first byte: `link[s]` is its end `e`,
/// and `link[e - 1]` its start `s` (the same place when it is one byte, and
/// then `link[s] = s + 1` tells it apart, as a start is never past the
/// byte it is read at). Bytes inside a symbol hold nothing of use.
struct Merger<'a, P> {
    model: &'a SpmModel,
    norm: &'a [u8],
    link: Vec<P>,
    /// For each symbol's first byte, where in `heap` the pair it starts
    /// is ([`Pos::NONE`] if that pair makes no piece, [`Pos::FROZEN`] for
    /// a user-defined symbol).
    slot: Vec<P>,
    /// The pairs that make a piece, each once, the next to merge first.
    heap: Vec<Candidate<P>>,
    unmerge: Unmerge<'a>,
}

impl<'a, P: Pos> Merger<'a, P> {
    /// The text cut into characters and user-defined symbols, with each
    /// neighbouring pair that makes a piece queued, left to right.
    fn new(model: &'a SpmModel, norm: &'a [u8]) -> Self {
        let mut m = Merger {
            model,
            norm,
            link: vec![P::NONE; norm.len()],
            slot: vec![P::NONE; norm.len()],
            heap: Vec::new(),
            unmerge: FxHashMap::default(),
        };
        let symbols = m.cut_symbols();
        // There is never more than a pair a symbol, so the heap is never
        // moved or grown past what the text needs.
        m.heap.reserve_exact(symbols.saturating_sub(1));
        let mut left = 0;
        while left < norm.len() {
            let right = m.end_of(left);
            if right < norm.len()
                && let Some(c) = m.candidate(left, right)
            {
                m.slot[left] = P::at(m.heap.len());
                m.heap.push(c);
            }
            left = right;
        }
        for i in (0..m.heap.len() / 2).rev() {
            m.sift_down(i);
        }
        m
    }

    /// Cut the text into its first symbols: characters, and user-defined
    /// symbols (frozen); how many.
    fn cut_symbols(&mut self) -> usize {
        let mut symbols = 0;
        let mut at = 0;
        while at < self.norm.len() {
            let rest = &self.norm[at..];
            let (len, frozen) = match self.model.user.as_ref().and_then(|u| u.longest(rest)) {
                Some(len) => (len, true),
                None => (one_char_len(rest), false),
            };
            self.set_span(at, at + len);
            if frozen {
                self.slot[at] = P::FROZEN;
            }
            symbols += 1;
            at += len;
        }
        symbols
    }

    /// Record the symbol `start..end`.
    fn set_span(&mut self, start: usize, end: usize) {
        self.link[start] = P::at(end);
        if end - 1 > start {
            self.link[end - 1] = P::at(start);
        }
    }

    fn end_of(&self, start: usize) -> usize {
        self.link[start].get()
    }

    /// The first byte of the symbol before the one at `start` (not 0).
    fn start_before(&self, start: usize) -> usize {
        let v = self.link[start - 1].get();
        if v == start { start - 1 } else { v }
    }

    /// The pair of the symbols at `left` and `right` as a candidate, if
    /// it makes a piece; an unused piece notes the two symbols that made
    /// it.
    fn candidate(&mut self, left: usize, right: usize) -> Option<Candidate<P>> {
        if self.slot[left] == P::FROZEN || self.slot[right] == P::FROZEN {
            return None;
        }
        let end = self.end_of(right);
        let norm = self.norm;
        let piece = &norm[left..end];
        let &id = self.model.normal.get(piece)?;
        let p = &self.model.pieces[id as usize];
        if p.kind == super::PieceType::Unused {
            self.unmerge.insert(piece, (left..right, right..end));
        }
        Some(Candidate {
            score: p.score,
            left: P::at(left),
        })
    }

    /// Merge the best pair until no pair makes a piece.
    fn run(mut self) -> Self {
        while let Some(&top) = self.heap.first() {
            let left = top.left.get();
            let right = self.end_of(left);
            let end = self.end_of(right);
            self.remove(left);
            self.remove(right);
            self.set_span(left, end);
            if left > 0 {
                let prev = self.start_before(left);
                self.requeue(prev, left);
            }
            if end < self.norm.len() {
                self.requeue(left, end);
            }
        }
        self
    }

    /// The pair at `left` has a new right symbol, or a new left one: queue
    /// it anew.
    fn requeue(&mut self, left: usize, right: usize) {
        self.remove(left);
        if let Some(c) = self.candidate(left, right) {
            self.push(left, c);
        }
    }

    /// Hand each symbol to `f` as its piece, or as the pieces an unused
    /// one is given back as.
    fn emit(self, offset: usize, f: &mut impl FnMut(Range<usize>, TokenId)) {
        let mut stack = Vec::new();
        let mut start = 0;
        while start < self.norm.len() {
            let end = self.end_of(start);
            stack.push(start..end);
            while let Some(w) = stack.pop() {
                let piece = &self.norm[w.clone()];
                let id = self.model.piece_to_id(piece);
                if self.model.pieces[id as usize].kind == super::PieceType::Unused
                    && let Some((a, b)) = self.unmerge.get(piece)
                {
                    stack.push(b.clone());
                    stack.push(a.clone());
                    continue;
                }
                f(w.start + offset..w.end + offset, id);
            }
            start = end;
        }
    }

    // The heap, each entry's place kept in `slot` so that a pair that is
    // gone can be taken out wherever it is.

    fn push(&mut self, left: usize, c: Candidate<P>) {
        self.slot[left] = P::at(self.heap.len());
        self.heap.push(c);
        self.sift_up(self.heap.len() - 1);
    }

    /// Take out the pair at `left`, if it is queued.
    fn remove(&mut self, left: usize) {
        let i = self.slot[left];
        if i == P::NONE || i == P::FROZEN {
            return;
        }
        let i = i.get();
        self.slot[left] = P::NONE;
        let last = self.heap.pop().expect("a queued pair is in the heap");
        if i < self.heap.len() {
            self.place(i, last);
            self.sift_down(i);
            self.sift_up(i);
        }
    }

    fn place(&mut self, i: usize, c: Candidate<P>) {
        self.slot[c.left.get()] = P::at(i);
        self.heap[i] = c;
    }

    fn sift_up(&mut self, mut i: usize) {
        let c = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if !c.before(&self.heap[parent]) {
                break;
            }
            self.place(i, self.heap[parent]);
            i = parent;
        }
        self.place(i, c);
    }

    fn sift_down(&mut self, mut i: usize) {
        let c = self.heap[i];
        loop {
            let mut child = 2 * i + 1;
            if child >= self.heap.len() {
                break;
            }
            if child + 1 < self.heap.len() && self.heap[child + 1].before(&self.heap[child]) {
                child += 1;
            }
            if !self.heap[child].before(&c) {
                break;
            }
            self.place(i, self.heap[child]);
            i = child;
        }
        self.place(i, c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::PieceType;
    use super::super::explain::random_models::{CHARS, Rng, random_model, random_text};
    use super::*;

    /// BPE as its rule reads, one merge at a time: scan every pair of
    /// neighbours for the best, merge it, scan again. An unused piece is
    /// given back as the two symbols that last made it, in the order the
    /// pairs were formed: left to right at first, then the pair before
    /// and the pair after each merge.
    fn naive(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
        let mut symbols: Vec<(Range<usize>, bool)> = Vec::new();
        let mut at = 0;
        while at < norm.len() {
            let rest = &norm[at..];
            let (len, frozen) = match model.user.as_ref().and_then(|u| u.longest(rest)) {
                Some(len) => (len, true),
                None => (one_char_len(rest), false),
            };
            symbols.push((at..at + len, frozen));
            at += len;
        }
        let piece_of = |a: &(Range<usize>, bool), b: &(Range<usize>, bool)| {
            if a.1 || b.1 {
                return None;
            }
            let id = *model.normal.get(&norm[a.0.start..b.0.end])?;
            Some(&model.pieces[id as usize])
        };
        let mut unmerge: std::collections::HashMap<&[u8], (Range<usize>, Range<usize>)> =
            Default::default();
        let mut note = |symbols: &[(Range<usize>, bool)], i: usize| {
            if i + 1 < symbols.len()
                && let Some(p) = piece_of(&symbols[i], &symbols[i + 1])
                && p.kind == PieceType::Unused
            {
                let (a, b) = (symbols[i].0.clone(), symbols[i + 1].0.clone());
                unmerge.insert(&norm[a.start..b.end], (a, b));
            }
        };
        for i in 0..symbols.len() {
            note(&symbols, i);
        }
        loop {
            let mut best: Option<(usize, f32)> = None;
            for i in 0..symbols.len().saturating_sub(1) {
                if let Some(p) = piece_of(&symbols[i], &symbols[i + 1])
                    && best.is_none_or(|(_, s)| p.score > s)
                {
                    best = Some((i, p.score));
                }
            }
            let Some((i, _)) = best else { break };
            let right = symbols.remove(i + 1);
            symbols[i].0.end = right.0.end;
            if i > 0 {
                note(&symbols, i - 1);
            }
            note(&symbols, i);
        }
        let mut out = Vec::new();
        let mut stack: Vec<Range<usize>> = symbols.into_iter().rev().map(|s| s.0).collect();
        while let Some(w) = stack.pop() {
            let id = model.piece_to_id(&norm[w.clone()]);
            match unmerge.get(&norm[w.clone()]) {
                Some((a, b)) if model.pieces[id as usize].kind == PieceType::Unused => {
                    stack.push(b.clone());
                    stack.push(a.clone());
                }
                _ => out.push((w, id)),
            }
        }
        out
    }

    /// A word of `len` characters with no `▁` in it: one character over
    /// and over, two in turn, or any.
    fn long_word(rng: &mut Rng, len: usize) -> String {
        let letters: Vec<&str> = CHARS.into_iter().filter(|c| *c != "\u{2581}").collect();
        let (a, b) = (rng.below(letters.len()), rng.below(letters.len()));
        match rng.below(3) {
            0 => letters[a].repeat(len),
            1 => (0..len).map(|k| letters[[a, b][k % 2]]).collect(),
            _ => (0..len)
                .map(|_| letters[rng.below(letters.len())])
                .collect(),
        }
    }

    #[test]
    fn the_pieces_are_those_of_merging_one_pair_at_a_time() {
        let mut rng = Rng(0xb9e_5eed);
        let mut compared = 0;
        for _ in 0..300 {
            let model = random_model(&mut rng, super::super::Algorithm::Bpe);
            let mut texts: Vec<String> = (0..6).map(|_| random_text(&mut rng, 0, 60)).collect();
            // One word longer than the words kept for reuse, alone and
            // between spaces.
            let len = CACHED_WORD + rng.below(400);
            let word = long_word(&mut rng, len);
            texts.push(format!("\u{2581}{word}\u{2581}ab"));
            texts.push(word);
            for text in &texts {
                let norm = text.as_bytes();
                assert_eq!(encode(&model, norm), naive(&model, norm), "{text:?}");
                compared += 1;
            }
        }
        assert_eq!(compared, 300 * 8);
    }

    #[test]
    fn a_merged_piece_that_is_also_reserved_takes_the_reserved_id() {
        use super::super::explain::random_models::{model_of, piece};
        // "ab" is a control piece and a normal one: merging makes it, and
        // the id given out is the reserved one, as for any lookup.
        let model = model_of(
            vec![
                piece("<unk>", 0.0, PieceType::Unknown),
                piece("ab", 0.0, PieceType::Control),
                piece("a", -1.0, PieceType::Normal),
                piece("b", -1.0, PieceType::Normal),
                piece("\u{2581}", -1.0, PieceType::Normal),
                piece("ab", -0.5, PieceType::Normal),
            ],
            super::super::Algorithm::Bpe,
        );
        let norm = "\u{2581}ab\u{2581}ab".as_bytes();
        let pieces = encode(&model, norm);
        assert_eq!(pieces, naive(&model, norm));
        assert_eq!(pieces.iter().filter(|(_, id)| *id == 1).count(), 2);
    }

    #[test]
    fn a_word_met_again_has_the_pieces_it_had() {
        let mut rng = Rng(0xcafe);
        for _ in 0..100 {
            let model = random_model(&mut rng, super::super::Algorithm::Bpe);
            let words: Vec<String> = (0..3)
                .map(|_| format!("\u{2581}{}", random_text(&mut rng, 1, 8)))
                .collect();
            let text: String = (0..30).map(|_| words[rng.below(3)].as_str()).collect();
            let norm = text.as_bytes();
            assert_eq!(encode(&model, norm), naive(&model, norm), "{text:?}");
        }
    }

    #[test]
    fn words_kept_from_texts_before_give_each_text_its_own_pieces() {
        let mut rng = Rng(0x5eed_ba7c);
        for _ in 0..100 {
            let model = random_model(&mut rng, super::super::Algorithm::Bpe);
            let words: Vec<String> = (0..4)
                .map(|_| format!("\u{2581}{}", random_text(&mut rng, 1, 8)))
                .collect();
            let mut kept = KeptWords::default();
            for _ in 0..8 {
                let mut text: String = (0..rng.below(6))
                    .map(|_| words[rng.below(4)].as_str())
                    .collect();
                text.push_str(&random_text(&mut rng, 0, 12));
                let norm = text.as_bytes();
                let mut pieces = Vec::new();
                each_piece_in(&model, norm, &mut kept, &mut |r, id| pieces.push((r, id)));
                assert_eq!(pieces, naive(&model, norm), "{text:?}");
            }
        }
    }
}
