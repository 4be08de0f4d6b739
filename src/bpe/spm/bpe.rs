//! SentencePiece BPE: the text starts as characters (a user-defined symbol
//! is one frozen symbol); the adjacent pair whose concatenation is a piece
//! with the highest score merges first, the leftmost among equal scores,
//! until no pair makes a piece. A piece marked unused may be made along the
//! way but is given back as the two symbols that made it.

use super::SpmModel;
use super::normalize::one_char_len;
use crate::bpe::TokenId;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Range;

#[derive(Clone, Copy)]
struct Symbol {
    start: usize,
    /// 0 once merged into the symbol on its left.
    len: usize,
    prev: usize,
    next: usize,
    frozen: bool,
}

const END: usize = usize::MAX;

struct Candidate {
    score: f32,
    left: usize,
    right: usize,
    /// The length of the piece, to tell a candidate that is out of date.
    size: usize,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    /// The higher score first; among equal scores the leftmost.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.left.cmp(&self.left))
    }
}

/// The pieces of `norm` (a normalized text): each as a byte range of it
/// and its id. When no piece reaches across the start of a word (see
/// [`SpmModel::words_apart`]), no merge does either, and the order of
/// merges in one word does not depend on the others: each distinct word is
/// encoded once and its pieces reused.
pub fn encode(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
    if !model.words_apart {
        return encode_whole(model, norm);
    }
    const SPACE: &[u8] = "\u{2581}".as_bytes();
    let mut out = Vec::new();
    let mut seen: FxHashMap<&[u8], Vec<(Range<usize>, TokenId)>> = FxHashMap::default();
    let mut start = 0;
    let mut at = 0;
    while at <= norm.len() {
        // A word ends before a `▁` that follows another character, and at
        // the end of the text.
        let cut = at == norm.len()
            || (at > start && norm[at..].starts_with(SPACE) && !norm[..at].ends_with(SPACE));
        if cut && at > start {
            let word = &norm[start..at];
            let pieces = seen
                .entry(word)
                .or_insert_with(|| encode_whole(model, word));
            out.extend(
                pieces
                    .iter()
                    .map(|(r, id)| (r.start + start..r.end + start, *id)),
            );
            start = at;
        }
        if at == norm.len() {
            break;
        }
        at += one_char_len(&norm[at..]);
    }
    out
}

/// [`encode`] on the text as one stretch.
fn encode_whole(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
    let mut symbols: Vec<Symbol> = Vec::with_capacity(norm.len());
    let mut at = 0;
    while at < norm.len() {
        let rest = &norm[at..];
        let (len, frozen) = match model.user.as_ref().and_then(|u| u.longest(rest)) {
            Some(len) => (len, true),
            None => (one_char_len(rest), false),
        };
        let i = symbols.len();
        symbols.push(Symbol {
            start: at,
            len,
            prev: if i == 0 { END } else { i - 1 },
            next: if at + len >= norm.len() { END } else { i + 1 },
            frozen,
        });
        at += len;
    }
    if symbols.is_empty() {
        return Vec::new();
    }

    let mut agenda = BinaryHeap::new();
    // An unused piece, by its text: the two symbols that last made it.
    let mut unmerge: Unmerge = FxHashMap::default();
    for i in 1..symbols.len() {
        consider(model, norm, &symbols, &mut agenda, &mut unmerge, i - 1, i);
    }
    while let Some(top) = agenda.pop() {
        let (l, r) = (symbols[top.left], symbols[top.right]);
        if l.len == 0 || r.len == 0 || l.len + r.len != top.size {
            continue;
        }
        symbols[top.left].len += r.len;
        symbols[top.left].next = r.next;
        if r.next != END {
            symbols[r.next].prev = top.left;
        }
        symbols[top.right].len = 0;
        let prev = symbols[top.left].prev;
        consider(
            model,
            norm,
            &symbols,
            &mut agenda,
            &mut unmerge,
            prev,
            top.left,
        );
        let next = symbols[top.left].next;
        consider(
            model,
            norm,
            &symbols,
            &mut agenda,
            &mut unmerge,
            top.left,
            next,
        );
    }

    let mut out = Vec::new();
    let mut stack = Vec::new();
    let mut i = 0;
    while i != END {
        let s = symbols[i];
        stack.push(s.start..s.start + s.len);
        while let Some(w) = stack.pop() {
            let id = model.piece_to_id(&norm[w.clone()]);
            if model.pieces[id as usize].kind == super::PieceType::Unused
                && let Some((a, b)) = unmerge.get(&norm[w.clone()])
            {
                stack.push(b.clone());
                stack.push(a.clone());
                continue;
            }
            out.push((w, id));
        }
        i = s.next;
    }
    out
}

type Unmerge<'a> = FxHashMap<&'a [u8], (Range<usize>, Range<usize>)>;

/// Queue the pair `left`, `right` if it makes a piece.
fn consider<'a>(
    model: &SpmModel,
    norm: &'a [u8],
    symbols: &[Symbol],
    agenda: &mut BinaryHeap<Candidate>,
    unmerge: &mut Unmerge<'a>,
    left: usize,
    right: usize,
) {
    if left == END || right == END || symbols[left].frozen || symbols[right].frozen {
        return;
    }
    let (l, r) = (symbols[left], symbols[right]);
    let piece = &norm[l.start..l.start + l.len + r.len];
    let Some(&id) = model.normal.get(piece) else {
        return;
    };
    let p = &model.pieces[id as usize];
    agenda.push(Candidate {
        score: p.score,
        left,
        right,
        size: piece.len(),
    });
    if p.kind == super::PieceType::Unused {
        unmerge.insert(piece, (l.start..l.start + l.len, r.start..r.start + r.len));
    }
}
