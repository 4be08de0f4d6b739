//! The piece table of Unigram mode: the trainer's pieces in the order the
//! user sorted them, and a piece's text as the screen writes it.

use crate::app::unigram::PieceSort;
use bpeek_core::train::unigram::{PieceRow, UnigramTrainer};

/// The pieces in the vocabulary, sorted by `sort` (ties by text).
pub fn rows(trainer: &UnigramTrainer, sort: PieceSort) -> Vec<PieceRow> {
    let mut rows = trainer.piece_table();
    match sort {
        // The trainer's own order.
        PieceSort::Probability => {}
        PieceSort::Loss => rows.sort_by(|a, b| {
            let key = |r: &PieceRow| r.loss_if_removed.unwrap_or(f64::INFINITY);
            key(a).total_cmp(&key(b)).then_with(|| a.text.cmp(&b.text))
        }),
        PieceSort::Text => rows.sort_by(|a, b| a.text.cmp(&b.text)),
    }
    rows
}

/// A piece as the screen writes it: the space marker `▁` as the space
/// glyph (`·the`, or `.the` in ASCII), as the corpus shows spaces.
pub fn label(text: &str, space: &str) -> String {
    text.replace('\u{2581}', space)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpeek_core::train::unigram::{UnigramConfig, WordMarks};

    fn trainer() -> UnigramTrainer {
        let config = UnigramConfig {
            marks: WordMarks::None,
            vocab_size: 8,
            ..Default::default()
        };
        let text = "hug hug hug pug pun pun bun hugs";
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        // Estimated twice and scored: every long piece has its loss.
        for _ in 0..3 {
            t.step().unwrap();
        }
        t
    }

    #[test]
    fn each_sort_orders_the_same_pieces_by_its_key() {
        let t = trainer();
        let by_p = rows(&t, PieceSort::Probability);
        assert!(by_p.windows(2).all(|w| w[0].logp >= w[1].logp));
        let by_loss = rows(&t, PieceSort::Loss);
        let key = |r: &PieceRow| r.loss_if_removed.unwrap_or(f64::INFINITY);
        assert!(by_loss.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
        assert!(by_loss.iter().any(|r| r.loss_if_removed.is_some()));
        let by_text = rows(&t, PieceSort::Text);
        assert!(by_text.windows(2).all(|w| w[0].text <= w[1].text));
        let mut a: Vec<_> = by_p.iter().map(|r| r.piece).collect();
        let mut b: Vec<_> = by_text.iter().map(|r| r.piece).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }

    #[test]
    fn the_space_marker_is_drawn_as_the_space_glyph() {
        assert_eq!(label("\u{2581}the", "·"), "·the");
    }
}
