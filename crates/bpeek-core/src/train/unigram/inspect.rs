//! What a screen shows of a Unigram training, read off the trainer: the
//! piece table, a word's best cut and its lattice, and why a piece goes
//! or stays.

use crate::train::unigram::lattice::{PieceId, Viterbi};
use crate::train::unigram::prune::{kept_size, removal_order};
use crate::train::unigram::score::PieceScore;
use crate::train::unigram::trainer::{StepDetail, UnigramTrainer};
use std::ops::Range;

/// A row of the piece table.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceRow {
    pub piece: PieceId,
    pub text: String,
    pub logp: f64,
    /// The loss increase if it were removed, once the round is scored
    /// (never for a single character).
    pub loss_if_removed: Option<f64>,
    pub single_char: bool,
}

/// One piece standing in a word, with its log-probability now.
#[derive(Debug, Clone, PartialEq)]
pub struct LatticeEdge {
    pub bytes: Range<usize>,
    pub piece: PieceId,
    pub logp: f64,
}

/// A word's lattice and its best cut.
#[derive(Debug, Clone, PartialEq)]
pub struct WordLattice {
    /// Every piece in the vocabulary that stands in the word, by start,
    /// shortest first.
    pub edges: Vec<LatticeEdge>,
    /// The best cut, as indices into `edges`.
    pub best: Vec<usize>,
    /// Its log-probability.
    pub best_logp: f64,
}

/// Why a piece is where it is.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A single character: never removed.
    SingleCharacter,
    /// Removed in round `round` with this score; `threshold` is the lowest
    /// score kept in that prune.
    Removed {
        round: usize,
        score: PieceScore,
        threshold: Option<f64>,
    },
    /// Dropped after an EM iteration of round `round`: it was expected
    /// `expected` times, fewer than one half.
    Dropped { round: usize, expected: f64 },
    /// In the vocabulary and scored this round: it would go in the coming
    /// prune (`goes`), the prune keeping scores above `threshold`.
    Scored {
        score: PieceScore,
        goes: bool,
        threshold: Option<f64>,
    },
    /// In the vocabulary; this round has not been scored yet.
    NotScored,
}

/// Where the coming prune cuts the scored pieces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PruneEdge {
    /// The highest-scoring piece that goes, if any goes.
    pub last_going: Option<PieceScore>,
    /// The lowest-scoring piece that stays, if any scored piece stays.
    pub first_kept: Option<PieceScore>,
    /// How many pieces go.
    pub going: usize,
}

impl UnigramTrainer {
    /// Where the coming prune cuts, once the round is scored.
    pub fn prune_edge(&self) -> Option<PruneEdge> {
        let scores = self.current_scores()?;
        let (order, going) = self.coming_prune(scores);
        Some(PruneEdge {
            last_going: going.checked_sub(1).map(|i| order[i]),
            first_kept: order.get(going).copied(),
            going,
        })
    }

    /// The scored pieces in the order the coming prune takes them, and how
    /// many of the first it takes.
    fn coming_prune(&self, scores: &[PieceScore]) -> (Vec<PieceScore>, usize) {
        let size = self.pieces().alive().len();
        let keep = kept_size(
            size,
            self.config().shrinking_factor,
            self.config().learned_target(),
        );
        let order = removal_order(scores);
        let going = size.saturating_sub(keep).min(order.len());
        (order, going)
    }

    /// The piece table: every piece in the vocabulary, highest
    /// log-probability first (then by text).
    pub fn piece_table(&self) -> Vec<PieceRow> {
        let pieces = self.pieces();
        let scores = self.current_scores().unwrap_or(&[]);
        let mut score_of = vec![None; pieces.seeds().len()];
        for s in scores {
            score_of[s.piece as usize] = Some(s.loss_increase);
        }
        let mut rows: Vec<PieceRow> = pieces
            .alive()
            .iter()
            .map(|&p| PieceRow {
                piece: p,
                text: pieces.text(p).to_string(),
                logp: pieces.logp(p),
                loss_if_removed: score_of[p as usize],
                single_char: pieces.is_char(p),
            })
            .collect();
        rows.sort_by(|a, b| b.logp.total_cmp(&a.logp).then_with(|| a.text.cmp(&b.text)));
        rows
    }

    /// The lattice of word `i` (see [`crate::train::unigram::words::Words`])
    /// at the current vocabulary, with its best cut.
    pub fn lattice(&self, i: usize) -> WordLattice {
        let word = self.words().word(i);
        let list = self.lattices().word(i);
        let logp = self.pieces().all_logp();
        let mut viterbi = Viterbi::default();
        let best_logp = viterbi.run(list, word.len(), logp, None);
        let mut path = Vec::new();
        viterbi.path_in(list, &mut path);
        WordLattice {
            edges: list
                .iter()
                .map(|e| LatticeEdge {
                    bytes: e.start as usize..e.end as usize,
                    piece: e.piece,
                    logp: logp[e.piece as usize],
                })
                .collect(),
            best: path.iter().map(|&i| i as usize).collect(),
            best_logp,
        }
    }

    /// The best cut of word `i` at the current vocabulary: each piece
    /// with the bytes of the word it covers.
    pub fn cut(&self, i: usize) -> Vec<(Range<usize>, PieceId)> {
        let l = self.lattice(i);
        l.best
            .iter()
            .map(|&e| (l.edges[e].bytes.clone(), l.edges[e].piece))
            .collect()
    }

    /// Why `piece` goes or stays.
    pub fn verdict(&self, piece: PieceId) -> Verdict {
        if self.pieces().is_char(piece) {
            return Verdict::SingleCharacter;
        }
        if !self.pieces().is_alive(piece) {
            return self.removed_verdict(piece);
        }
        let Some(scores) = self.current_scores() else {
            return Verdict::NotScored;
        };
        let Some(&score) = scores.iter().find(|s| s.piece == piece) else {
            return Verdict::NotScored;
        };
        let (order, going) = self.coming_prune(scores);
        let goes = order[..going].iter().any(|s| s.piece == piece);
        Verdict::Scored {
            score,
            goes,
            threshold: order.get(going).map(|s| s.loss_increase),
        }
    }

    fn removed_verdict(&self, piece: PieceId) -> Verdict {
        let steps = self.steps();
        for (i, step) in steps.iter().enumerate() {
            let removed = match &step.detail {
                StepDetail::Pruned { removed } => removed,
                StepDetail::Estimated { dropped, .. } => {
                    if let Some(d) = dropped.iter().find(|d| d.piece == piece) {
                        return Verdict::Dropped {
                            round: step.round,
                            expected: d.expected,
                        };
                    }
                    continue;
                }
                _ => continue,
            };
            let Some(&score) = removed.iter().find(|s| s.piece == piece) else {
                continue;
            };
            let threshold = match &steps[i - 1].detail {
                StepDetail::Scored { scores } => removal_order(scores)
                    .get(removed.len())
                    .map(|s| s.loss_increase),
                _ => None,
            };
            return Verdict::Removed {
                round: step.round,
                score,
                threshold,
            };
        }
        unreachable!("a piece out of the vocabulary was dropped or pruned")
    }

    /// The words whose best cut now differs from their cut just before
    /// the last prune, with that prune's round (none before the first
    /// prune): what a prune changed, and what the estimates after it did.
    pub fn cuts_changed_since_last_prune(&self) -> Option<(usize, Vec<bool>)> {
        let at = self
            .steps()
            .iter()
            .rposition(|s| matches!(s.detail, StepDetail::Pruned { .. }))?;
        let round = self.steps()[at].round;
        let mut before = self.clone();
        before.seek(at - 1);
        let changed = (0..self.words().len())
            .map(|i| before.cut(i) != self.cut(i))
            .collect();
        Some((round, changed))
    }

    /// The tokens of the corpus after every step, the seeding first: the
    /// curve, rising as pieces go.
    pub fn tokens_by_step(&self) -> Vec<u64> {
        self.steps().iter().map(|s| s.tokens).collect()
    }

    /// The loss after every step, the seeding first: the curve.
    pub fn losses(&self) -> Vec<f64> {
        self.steps().iter().map(|s| s.loss).collect()
    }
}
