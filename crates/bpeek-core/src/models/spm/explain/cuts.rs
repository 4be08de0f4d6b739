//! A Unigram piece explained by the cuts of its own text: the encoder takes
//! the cut with the highest total score, so a piece is given for its text
//! when it alone beats every cut into smaller parts. Scores and sums are
//! the encoder's (see [`super::super::unigram`]): unknown characters, user
//! symbols and single-precision sums alike.

use crate::TokenId;
use crate::models::spm::SpmModel;
use crate::models::spm::normalize::one_char_len;
use std::ops::Range;

/// A cut of a text into pieces (the unknown piece for a character no piece
/// covers) and its total score.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    pub pieces: Vec<(Range<usize>, TokenId)>,
    /// What each piece adds to the total.
    pub scores: Vec<f64>,
    pub total: f64,
}

/// The cuts that say why a text is cut as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct UnigramCuts {
    /// The text taken as one piece, and that piece's score, where the
    /// model can take it so.
    pub whole: Option<(TokenId, f64)>,
    /// The cut the encoder gives (`None` only for the empty text).
    pub best: Option<Cut>,
    /// The best cut into two or more parts (`None` for one character).
    pub other: Option<Cut>,
}

/// The best cut of `text` (a normalized text, such as a piece's own) and
/// the best one that does not take it whole.
pub fn unigram_cuts(model: &SpmModel, text: &[u8]) -> UnigramCuts {
    let mut whole = None;
    edges(model, text, 0, |len, id, score| {
        if len == text.len() {
            whole = Some((id, score));
        }
    });
    UnigramCuts {
        whole,
        best: viterbi(model, text, false),
        other: viterbi(model, text, true),
    }
}

/// Call `f(len, id, score)` for each step a path may take at `start`, as
/// the encoder offers them: every piece that matches (unused ones never),
/// and the unknown piece for one character where no piece is that
/// character.
fn edges(model: &SpmModel, text: &[u8], start: usize, mut f: impl FnMut(usize, TokenId, f64)) {
    let lattice = &model.lattice;
    let char_len = one_char_len(&text[start..]);
    let mut has_char = false;
    model.trie.prefixes(&text[start..], |len, id| {
        let score = lattice.scores[id as usize];
        if score.is_nan() {
            return;
        }
        has_char |= len == char_len;
        f(len, id, score);
    });
    // A model with no unknown piece has no such step (its encoder fails).
    if !has_char && char_len > 0 && model.has_unknown() {
        f(char_len, model.unk_id, lattice.unk);
    }
}

/// `a + b` as the encoder sums: in single precision where the model's
/// library does (sentencepiece), in double otherwise (Hugging Face).
fn add(model: &SpmModel, a: f64, b: f64) -> f64 {
    if model.lattice.single {
        (a as f32 + b as f32) as f64
    } else {
        a + b
    }
}

/// The highest-scoring cut, with `split` the highest that has two parts
/// or more. The first of equal totals is kept, as the encoder keeps it, so
/// that the best cut is the encoder's. Sums here never grow past the
/// encoder's threshold for rebasing them (a piece's text is short), so
/// that step of the encoder is left out.
fn viterbi(model: &SpmModel, text: &[u8], split: bool) -> Option<Cut> {
    // best[end]: the total, last piece, its length and its score of the
    // best path to `end`.
    let mut best: Vec<Option<(f64, TokenId, usize, f64)>> = vec![None; text.len() + 1];
    let mut start = 0;
    while start < text.len() {
        let here = match start {
            0 => Some(0.0),
            _ => best[start].map(|(total, ..)| total),
        };
        if let Some(here) = here {
            edges(model, text, start, |len, id, score| {
                if split && start == 0 && len == text.len() {
                    return;
                }
                let total = add(model, here, score);
                let node = &mut best[start + len];
                if node.is_none_or(|(kept, ..)| total > kept) {
                    *node = Some((total, id, len, score));
                }
            });
        }
        start += one_char_len(&text[start..]);
    }
    let (total, ..) = best[text.len()]?;
    let mut pieces = Vec::new();
    let mut scores = Vec::new();
    let mut end = text.len();
    while end > 0 {
        let (_, id, len, score) = best[end]?;
        pieces.push((end - len..end, id));
        scores.push(score);
        end -= len;
    }
    pieces.reverse();
    scores.reverse();
    Some(Cut {
        pieces,
        scores,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::super::random_models::{Rng, model_of, piece, random_model, random_text};
    use super::*;
    use crate::models::spm::{Algorithm, PieceType, unigram};

    /// `▁hello` alone scores -8, which beats `▁hel` + `lo` (-15) and
    /// every other cut.
    #[test]
    fn a_piece_beats_the_next_best_cut_of_its_text() {
        let model = model_of(
            vec![
                piece("<unk>", 0.0, PieceType::Unknown),
                piece("\u{2581}hello", -8.0, PieceType::Normal),
                piece("\u{2581}hel", -7.0, PieceType::Normal),
                piece("lo", -8.0, PieceType::Normal),
                piece("\u{2581}", -5.0, PieceType::Normal),
                piece("h", -6.0, PieceType::Normal),
                piece("e", -6.0, PieceType::Normal),
                piece("l", -6.0, PieceType::Normal),
                piece("o", -6.0, PieceType::Normal),
            ],
            Algorithm::Unigram,
        );
        let text = "\u{2581}hello".as_bytes();
        let cuts = unigram_cuts(&model, text);
        assert_eq!(cuts.whole, Some((1, -8.0)));
        let best = cuts.best.unwrap();
        assert_eq!((best.pieces, best.total), (vec![(0..text.len(), 1)], -8.0));
        let other = cuts.other.unwrap();
        assert_eq!(other.pieces, [(0..6, 2), (6..8, 3)]);
        assert_eq!(other.total, -15.0);

        // One character has no other cut; an unknown one is the unknown
        // piece at the lowest score less 10.
        let h = unigram_cuts(&model, b"h");
        assert_eq!((h.whole, h.other), (Some((5, -6.0)), None));
        let x = unigram_cuts(&model, b"x");
        assert_eq!(x.whole, Some((0, -18.0)));
        assert_eq!(x.other, None);
        assert_eq!(unigram_cuts(&model, b"").best, None);
    }

    /// The steps a path may take at `at`, found by trying every piece of
    /// the vocabulary in turn rather than by the trie.
    fn naive_steps(model: &SpmModel, text: &[u8], at: usize) -> Vec<(usize, TokenId, f64)> {
        let rest = &text[at..];
        let mut out: Vec<(usize, TokenId, f64)> = model
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.kind, PieceType::Normal | PieceType::UserDefined))
            .filter(|(_, p)| rest.starts_with(&p.text))
            .map(|(id, p)| (p.text.len(), id as TokenId, model.lattice.scores[id]))
            .collect();
        let char_len = one_char_len(rest);
        if !out.iter().any(|&(len, _, _)| len == char_len) {
            out.push((char_len, model.unk_id, model.lattice.unk));
        }
        out
    }

    /// Every cut of `text` the encoder could take, with its total summed
    /// left to right as the encoder sums.
    fn every_cut(model: &SpmModel, text: &[u8]) -> Vec<Cut> {
        fn from(model: &SpmModel, text: &[u8], at: usize, so_far: &Cut, out: &mut Vec<Cut>) {
            if at == text.len() {
                out.push(so_far.clone());
                return;
            }
            for (len, id, score) in naive_steps(model, text, at) {
                let mut next = so_far.clone();
                next.pieces.push((at..at + len, id));
                next.scores.push(score);
                next.total = add(model, next.total, score);
                from(model, text, at + len, &next, out);
            }
        }
        let mut out = Vec::new();
        let start = Cut {
            pieces: Vec::new(),
            scores: Vec::new(),
            total: 0.0,
        };
        from(model, text, 0, &start, &mut out);
        out
    }

    fn highest(cuts: impl Iterator<Item = Cut>) -> Option<f64> {
        cuts.map(|c| c.total).reduce(f64::max)
    }

    /// The total of a cut, summed again from its pieces.
    fn total_of(model: &SpmModel, text: &[u8], cut: &Cut) -> f64 {
        let mut total = 0.0;
        let mut at = 0;
        assert_eq!(cut.pieces.len(), cut.scores.len());
        for ((span, id), &said) in cut.pieces.iter().zip(&cut.scores) {
            assert_eq!(span.start, at, "the pieces follow each other");
            let score = naive_steps(model, text, at)
                .into_iter()
                .find(|&(len, step, _)| len == span.len() && step == *id)
                .map(|(_, _, s)| s);
            assert_eq!(
                score,
                Some(said),
                "each piece's score as the encoder adds it"
            );
            total = add(model, total, score.expect("a step the encoder offers"));
            at = span.end;
        }
        assert_eq!(at, text.len(), "the pieces cover the text");
        total
    }

    /// On random small models, for every piece's text and random texts:
    /// the best cut is the encoder's, and its total and the best split's
    /// are the highest of all cuts, counted one by one.
    #[test]
    fn the_cuts_are_the_highest_of_every_cut() {
        let mut rng = Rng(0xC075);
        let mut splits = 0;
        for _ in 0..300 {
            let model = random_model(&mut rng, Algorithm::Unigram);
            let mut texts: Vec<Vec<u8>> = model
                .pieces
                .iter()
                .filter(|p| p.kind == PieceType::Normal)
                .map(|p| p.text.clone())
                .collect();
            for _ in 0..4 {
                texts.push(random_text(&mut rng, 1, 7).into_bytes());
            }
            for text in &texts {
                let all = every_cut(&model, text);
                let cuts = unigram_cuts(&model, text);
                let whole = naive_steps(&model, text, 0)
                    .into_iter()
                    .find(|&(len, _, _)| len == text.len())
                    .map(|(_, id, score)| (id, score));
                assert_eq!(cuts.whole, whole);
                let best = cuts.best.expect("a text of characters has a cut");
                assert_eq!(Ok(best.pieces.clone()), unigram::encode(&model, text));
                assert_eq!(Some(best.total), highest(all.iter().cloned()));
                assert_eq!(best.total, total_of(&model, text, &best));
                let split = highest(all.into_iter().filter(|c| c.pieces.len() > 1));
                assert_eq!(cuts.other.as_ref().map(|c| c.total), split);
                if let Some(other) = &cuts.other {
                    splits += 1;
                    assert!(other.pieces.len() > 1);
                    assert_eq!(other.total, total_of(&model, text, other));
                }
            }
        }
        assert!(splits > 1000, "{splits}");
    }
}
