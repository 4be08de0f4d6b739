//! SentencePiece Unigram: the segmentation with the highest total score
//! (Viterbi over every piece that matches at each character). A character
//! no piece starts with is unknown, scored the lowest piece score minus 10.
//! A user-defined symbol scores its length times the highest score, less
//! 0.1, so that it is always taken. The sums are kept in single precision,
//! which gives the library's choice in near ties within a text; on a single
//! text of hundreds of kilobytes the library's sums stay more precise than
//! one running single-precision sum, and a few ids can differ.

use super::SpmModel;
use super::normalize::one_char_len;
use crate::bpe::TokenId;
use std::ops::Range;

#[derive(Clone, Copy)]
struct Best<F> {
    id: TokenId,
    score: F,
    /// Where the last piece of the best path ending here starts.
    from: usize,
}

const UNSET: usize = usize::MAX;

/// The pieces of `norm` (a normalized text): each as a byte range of it
/// and its id.
pub fn encode(model: &SpmModel, norm: &[u8]) -> Vec<(Range<usize>, TokenId)> {
    match &model.exact_scores {
        Some(scores) => {
            let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
            viterbi(model, norm, min - 10.0, 0.0, |id, len| {
                let p = &model.pieces[id as usize];
                if p.kind == super::PieceType::UserDefined {
                    len as f64 * model.max_score as f64 - 0.1
                } else {
                    scores[id as usize]
                }
            })
        }
        None => viterbi(model, norm, model.min_score - 10.0, 0.0, |id, len| {
            let p = &model.pieces[id as usize];
            if p.kind == super::PieceType::UserDefined {
                len as f32 * model.max_score - 0.1
            } else {
                p.score
            }
        }),
    }
}

/// The best path, with scores summed in `F` (single precision as
/// sentencepiece sums them, double as Hugging Face does).
fn viterbi<F: Copy + PartialOrd + std::ops::Add<Output = F>>(
    model: &SpmModel,
    norm: &[u8],
    unk_score: F,
    zero: F,
    score_of: impl Fn(TokenId, usize) -> F,
) -> Vec<(Range<usize>, TokenId)> {
    if norm.is_empty() {
        return Vec::new();
    }
    let size = norm.len();
    let mut best = vec![
        Best {
            id: model.unk_id,
            score: zero,
            from: UNSET,
        };
        size + 1
    ];
    let mut start = 0;
    while start < size {
        let here = best[start].score;
        let char_len = one_char_len(&norm[start..]);
        let mut has_char = false;
        model.trie.prefixes(&norm[start..], |len, id| {
            let p = &model.pieces[id as usize];
            if p.kind == super::PieceType::Unused {
                return;
            }
            let candidate = score_of(id, len) + here;
            let target = &mut best[start + len];
            if target.from == UNSET || candidate > target.score {
                *target = Best {
                    id,
                    score: candidate,
                    from: start,
                };
            }
            if len == char_len {
                has_char = true;
            }
        });
        if !has_char {
            let candidate = unk_score + here;
            let target = &mut best[start + char_len];
            if target.from == UNSET || candidate > target.score {
                *target = Best {
                    id: model.unk_id,
                    score: candidate,
                    from: start,
                };
            }
        }
        start += char_len;
    }
    let mut out = Vec::new();
    let mut end = size;
    while end > 0 {
        let node = best[end];
        if node.from == UNSET || node.from >= end {
            break;
        }
        out.push((node.from..end, node.id));
        end = node.from;
    }
    out.reverse();
    out
}
