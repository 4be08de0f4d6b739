//! SentencePiece Unigram: the segmentation with the highest total score
//! (Viterbi over every piece that matches at each character). A character
//! no piece starts with is unknown, scored the lowest piece score minus 10.
//!
//! Near ties fall as they do in the library that made the model, so the sums
//! are kept as it keeps them. sentencepiece (0.2.3) keeps them in single
//! precision, gives a user-defined symbol 0.1 per byte after its first, and
//! once the sum reaching a position passes 100000 either way, takes that sum
//! off every sum already kept from there on, so that long texts do not lose
//! precision. Hugging Face keeps every sum in double precision and gives a
//! user-defined piece its length times the highest score, less 0.1.
//! llama.cpp (GGUF files of model `t5`) keeps every sum in double precision
//! too, with each score as the file's single-precision number, gives a
//! user-defined piece 0, takes unused pieces like normal ones, and scores
//! an unknown character the lowest normal score minus 10, worked out in
//! single precision.

use super::normalize::one_char_len;
use super::{Piece, PieceType, SpmModel};
use crate::TokenId;
use std::ops::Range;

/// What each step of a path adds, precomputed per piece.
#[derive(Debug, Clone, Default)]
pub struct Lattice {
    /// Per piece; NaN for a piece a path never takes (unused).
    pub(super) scores: Vec<f64>,
    /// The same in single precision, where sums are kept so.
    scores32: Vec<f32>,
    pub(super) unk: f64,
    /// Best sums are rounded to single precision (sentencepiece).
    pub(super) single: bool,
}

/// The penalty below the lowest piece score that an unknown character
/// takes.
const UNK_PENALTY: f32 = 10.0;

impl Lattice {
    /// As sentencepiece scores: everything in single precision.
    pub fn single(pieces: &[Piece], min_score: f32) -> Lattice {
        let scores: Vec<f64> = pieces
            .iter()
            .map(|p| match p.kind {
                PieceType::Unused => f64::NAN,
                PieceType::UserDefined => (0.1 * (p.text.len() as f64 - 1.0)) as f32 as f64,
                _ => p.score as f64,
            })
            .collect();
        Lattice {
            scores32: scores.iter().map(|&s| s as f32).collect(),
            scores,
            unk: (min_score - UNK_PENALTY) as f64,
            single: true,
        }
    }

    /// As llama.cpp scores: sums in double precision of single-precision
    /// scores.
    pub fn llama(pieces: &[Piece]) -> Lattice {
        let min_normal = pieces
            .iter()
            .filter(|p| p.kind == PieceType::Normal)
            .fold(f32::MAX, |min, p| min.min(p.score));
        Lattice {
            scores: pieces
                .iter()
                .map(|p| match p.kind {
                    PieceType::UserDefined => 0.0,
                    _ => p.score as f64,
                })
                .collect(),
            scores32: Vec::new(),
            unk: (min_normal - UNK_PENALTY) as f64,
            single: false,
        }
    }

    /// As Hugging Face scores: everything in double precision.
    pub fn double(pieces: &[Piece], exact: &[f64], max_score: f32) -> Lattice {
        let min = exact.iter().copied().fold(f64::INFINITY, f64::min);
        let scores = pieces
            .iter()
            .zip(exact)
            .map(|(p, &s)| match p.kind {
                PieceType::Unused => f64::NAN,
                PieceType::UserDefined => p.text.len() as f64 * max_score as f64 - 0.1,
                _ => s,
            })
            .collect();
        Lattice {
            scores,
            scores32: Vec::new(),
            unk: min - UNK_PENALTY as f64,
            single: false,
        }
    }
}

#[derive(Clone, Copy)]
struct Best<F> {
    id: TokenId,
    score: F,
    /// The length of the last piece of the best path ending here (0: no
    /// path yet). A length rather than a place keeps the table small.
    len: u32,
}

const UNSET: u32 = 0;

/// The pieces of `norm` (a normalized text): each as a byte range of it
/// and its id. A model with no unknown piece fails at the first character
/// the search would take as unknown: the error is where it starts in
/// `norm`.
pub fn encode(model: &SpmModel, norm: &[u8]) -> Result<Vec<(Range<usize>, TokenId)>, usize> {
    if model.lattice.single {
        Ok(single(model, norm))
    } else {
        double(model, norm)
    }
}

/// The best path with sums in double precision (Hugging Face). Without an
/// unknown piece, the library fails where it would keep an unknown
/// character as the best path to its end, even a path the final best one
/// leaves aside: so does this.
fn double(model: &SpmModel, norm: &[u8]) -> Result<Vec<(Range<usize>, TokenId)>, usize> {
    let lattice = &model.lattice;
    let mut best = vec![
        Best {
            id: model.unk_id,
            score: 0.0,
            len: UNSET,
        };
        norm.len() + 1
    ];
    let mut start = 0;
    while start < norm.len() {
        let here = best[start].score;
        let char_len = one_char_len(&norm[start..]);
        let mut has_char = false;
        model.trie.prefixes(&norm[start..], |len, id| {
            let score = lattice.scores[id as usize];
            if score.is_nan() {
                return;
            }
            offer(&mut best[start + len], id, score + here, len);
            has_char |= len == char_len;
        });
        if !has_char {
            let target = &mut best[start + char_len];
            let score = lattice.unk + here;
            if !model.has_unknown() && (target.len == UNSET || score > target.score) {
                return Err(start);
            }
            offer(target, model.unk_id, score, char_len);
        }
        start += char_len;
    }
    Ok(path(&best))
}

/// Sums past this size are taken off what is kept (sentencepiece).
const RESET_PAST: f32 = 100_000.0;

/// The best path with sums in single precision, as sentencepiece keeps
/// them.
fn single(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
    let lattice = &model.lattice;
    let unk = lattice.unk as f32;
    let mut best = vec![
        Best {
            id: model.unk_id,
            score: 0.0f32,
            len: UNSET,
        };
        norm.len() + 1
    ];
    // The furthest place any path reaches so far.
    let mut frontier = 0;
    let mut start = 0;
    while start < norm.len() {
        let mut here = best[start].score;
        if !(-RESET_PAST..=RESET_PAST).contains(&here) {
            for (i, node) in best.iter_mut().enumerate().take(frontier + 1).skip(start) {
                if i == start || node.len != UNSET {
                    node.score -= here;
                }
            }
            here = 0.0;
        }
        let char_len = one_char_len(&norm[start..]);
        let mut has_char = false;
        model.trie.prefixes(&norm[start..], |len, id| {
            let score = lattice.scores32[id as usize];
            if score.is_nan() {
                return;
            }
            frontier = frontier.max(start + len);
            offer(&mut best[start + len], id, score + here, len);
            has_char |= len == char_len;
        });
        if !has_char {
            frontier = frontier.max(start + char_len);
            offer(
                &mut best[start + char_len],
                model.unk_id,
                unk + here,
                char_len,
            );
        }
        start += char_len;
    }
    path(&best)
}

/// Keep `score` at `target` if nothing is kept there yet or it is higher
/// (so the first of equals stays).
#[inline]
fn offer<F: Copy + PartialOrd>(target: &mut Best<F>, id: TokenId, score: F, len: usize) {
    if target.len == UNSET || score > target.score {
        *target = Best {
            id,
            score,
            len: len as u32,
        };
    }
}

/// Follow the best path back from the end.
fn path<F: Copy>(best: &[Best<F>]) -> Vec<(Range<usize>, TokenId)> {
    let mut out = Vec::new();
    let mut end = best.len() - 1;
    while end > 0 {
        let node = best[end];
        let len = node.len as usize;
        if len == 0 || len > end {
            break;
        }
        out.push((end - len..end, node.id));
        end -= len;
    }
    out.reverse();
    out
}
