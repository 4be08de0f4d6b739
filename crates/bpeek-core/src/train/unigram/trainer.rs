//! The step-wise Unigram trainer, driven as the BPE one is: `step` moves
//! one phase, `step_back` takes it back, `seek` goes to any step.
//!
//! Training is seeded once (every character and the most frequent
//! substrings, each with its count), then goes in rounds: the
//! probabilities are *estimated* (EM, `em_iterations` steps), each piece
//! is *scored* (the loss increase if it were removed), and the
//! lowest-scoring share is *pruned* (single characters always kept). Once
//! the vocabulary is down to its size, a last estimate gives the final
//! probabilities and training stops. Every step records the corpus loss
//! after it (the negative log-probability of every word's best cut), so
//! the curve can be drawn from the seeds on.

use crate::error::Result;
use crate::train::unigram::config::UnigramConfig;
use crate::train::unigram::estimate::{Dropped, estimate};
use crate::train::unigram::lattice::PieceId;
use crate::train::unigram::lattices::Lattices;
use crate::train::unigram::pieces::Pieces;
use crate::train::unigram::prune::{choose_removals, ids};
use crate::train::unigram::score::{PieceScore, corpus_cut, score_pieces};
use crate::train::unigram::seed::seed_pieces;
use crate::train::unigram::words::Words;
use std::sync::Arc;

/// Where training stands: the phase the last step ended in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnigramPhase {
    /// The seed pieces with their counts' shares as probabilities.
    Seeded,
    /// After EM iteration `iteration` (from 1) of the round.
    Estimated { iteration: usize },
    /// Every piece of two characters or more scored.
    Scored,
    /// The lowest-scoring pieces removed.
    Pruned,
}

impl UnigramPhase {
    pub fn name(self) -> &'static str {
        match self {
            UnigramPhase::Seeded => "seeded",
            UnigramPhase::Estimated { .. } => "estimated",
            UnigramPhase::Scored => "scored",
            UnigramPhase::Pruned => "pruned",
        }
    }
}

/// Why training stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnigramStop {
    /// The vocabulary is down to its size and estimated.
    VocabSize,
    /// Only single characters are left, and there are more of them than
    /// the vocabulary size allows (they are never removed).
    OnlyCharacters,
    /// The corpus holds no word.
    EmptyCorpus,
}

impl UnigramStop {
    pub fn code(self) -> &'static str {
        match self {
            UnigramStop::VocabSize => "vocab_size",
            UnigramStop::OnlyCharacters => "only_characters",
            UnigramStop::EmptyCorpus => "empty_corpus",
        }
    }
}

impl std::fmt::Display for UnigramStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnigramStop::VocabSize => "the vocabulary reached its size",
            UnigramStop::OnlyCharacters => {
                "only single characters are left, more of them than the vocabulary size (characters are never removed)"
            }
            UnigramStop::EmptyCorpus => "the corpus holds no word",
        })
    }
}

/// A piece that went: removed by a prune with its score, or dropped after
/// an EM iteration with its expected count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gone<'a> {
    Pruned(&'a PieceScore),
    Dropped(&'a Dropped),
}

impl Gone<'_> {
    pub fn piece(&self) -> PieceId {
        match self {
            Gone::Pruned(s) => s.piece,
            Gone::Dropped(d) => d.piece,
        }
    }
}

/// What a step did, beyond its phase.
#[derive(Debug, Clone, PartialEq)]
pub enum StepDetail {
    Seeded,
    /// The negative log-likelihood of the corpus over every cut of each
    /// word, under the probabilities the iteration started from, and the
    /// pieces dropped for an expected count below one half (lowest
    /// first).
    Estimated {
        objective: f64,
        dropped: Vec<Dropped>,
    },
    /// Each piece of two characters or more, in id order.
    Scored {
        scores: Vec<PieceScore>,
    },
    /// The pieces removed, in the order they went (lowest score first).
    Pruned {
        removed: Vec<PieceScore>,
    },
}

/// One step of training as it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct UnigramStep {
    pub phase: UnigramPhase,
    /// The round it belongs to: how many prunes came before it.
    pub round: usize,
    /// How many pieces the vocabulary holds after it (reserved ones
    /// aside).
    pub pieces: usize,
    /// The corpus loss after it.
    pub loss: f64,
    /// The tokens of the corpus after it: every word's best cut, words
    /// counted as often as they occur (the curve: they rise as pieces go).
    pub tokens: u64,
    pub detail: StepDetail,
}

#[derive(Debug, Clone)]
pub struct UnigramTrainer {
    config: UnigramConfig,
    /// Never changed once counted, so clones share it.
    words: Arc<Words>,
    pieces: Pieces,
    /// Every word's lattice over every seed, never changed once found.
    seed_lattices: Arc<Lattices>,
    /// The lattices over the pieces in the vocabulary (the seeds' own
    /// until the first prune).
    lattices: Arc<Lattices>,
    /// Step 0 is the seeding; each step after is one phase.
    steps: Vec<UnigramStep>,
    /// For each estimate step (by step index), the log-probabilities it
    /// replaced, to step back.
    replaced: Vec<(usize, Vec<f64>)>,
    stop: Option<UnigramStop>,
}

impl UnigramTrainer {
    /// Seed a training on `text`, cut into words as the config says.
    pub fn new(text: &[u8], config: UnigramConfig) -> Result<UnigramTrainer> {
        let words = Words::from_text(text, config.marks)?;
        UnigramTrainer::from_words(words, config)
    }

    /// Seed a training on words already counted.
    pub fn from_words(words: Words, config: UnigramConfig) -> Result<UnigramTrainer> {
        config.check()?;
        let pieces = Pieces::new(seed_pieces(&words, &config));
        let lattices = Arc::new(Lattices::build(
            &words,
            pieces.seeds().iter().map(|s| s.text.as_str()),
        ));
        let cut = corpus_cut(&words, &lattices, &pieces);
        let seeded = UnigramStep {
            phase: UnigramPhase::Seeded,
            round: 0,
            pieces: pieces.alive().len(),
            loss: cut.loss,
            tokens: cut.tokens,
            detail: StepDetail::Seeded,
        };
        Ok(UnigramTrainer {
            config,
            words: Arc::new(words),
            pieces,
            seed_lattices: Arc::clone(&lattices),
            lattices,
            steps: vec![seeded],
            replaced: Vec::new(),
            stop: None,
        })
    }

    pub fn config(&self) -> &UnigramConfig {
        &self.config
    }

    pub fn words(&self) -> &Words {
        &self.words
    }

    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }

    /// Every word's lattice over the pieces in the vocabulary.
    pub fn lattices(&self) -> &Lattices {
        &self.lattices
    }

    /// Every step made, the seeding first.
    pub fn steps(&self) -> &[UnigramStep] {
        &self.steps
    }

    /// How many steps have been made after the seeding.
    pub fn step_count(&self) -> usize {
        self.steps.len() - 1
    }

    pub fn last_step(&self) -> &UnigramStep {
        self.steps.last().expect("the seeding is always there")
    }

    pub fn phase(&self) -> UnigramPhase {
        self.last_step().phase
    }

    /// Why training stopped, once a step found nothing left to do.
    pub fn stop_reason(&self) -> Option<UnigramStop> {
        self.stop
    }

    /// What the next step will do, or why there is none.
    pub fn next_phase(&self) -> std::result::Result<UnigramPhase, UnigramStop> {
        if self.words.is_empty() {
            return Err(UnigramStop::EmptyCorpus);
        }
        let last = self.last_step();
        let estimated = match last.phase {
            UnigramPhase::Seeded | UnigramPhase::Pruned => 0,
            UnigramPhase::Estimated { iteration } => iteration,
            UnigramPhase::Scored => return Ok(UnigramPhase::Pruned),
        };
        if estimated < self.config.em_iterations {
            return Ok(UnigramPhase::Estimated {
                iteration: estimated + 1,
            });
        }
        let size = self.pieces.alive().len();
        if size <= self.config.learned_target() {
            return Err(UnigramStop::VocabSize);
        }
        if self.pieces.alive().iter().all(|&p| self.pieces.is_char(p)) {
            return Err(UnigramStop::OnlyCharacters);
        }
        Ok(UnigramPhase::Scored)
    }

    /// Make the next step; returns it, or why training stops.
    pub fn step(&mut self) -> std::result::Result<&UnigramStep, UnigramStop> {
        let phase = match self.next_phase() {
            Ok(p) => p,
            Err(stop) => {
                self.stop = Some(stop);
                return Err(stop);
            }
        };
        let round = self.last_step().round;
        let step = match phase {
            UnigramPhase::Estimated { .. } => self.estimate_step(phase, round),
            UnigramPhase::Scored => self.score_step(round),
            UnigramPhase::Pruned => self.prune_step(round),
            UnigramPhase::Seeded => unreachable!("seeding is step 0"),
        };
        self.steps.push(step);
        Ok(self.last_step())
    }

    fn estimate_step(&mut self, phase: UnigramPhase, round: usize) -> UnigramStep {
        let target = self.config.learned_target();
        let e = estimate(&self.words, &self.lattices, &self.pieces, target);
        let before = self.pieces.replace_logp(&e.logp);
        self.replaced.push((self.steps.len(), before));
        if !e.dropped.is_empty() {
            self.pieces.remove(&dropped_ids(&e.dropped));
            let pieces = &self.pieces;
            self.lattices = Arc::new(self.lattices.filtered(|p| pieces.is_alive(p)));
        }
        let cut = corpus_cut(&self.words, &self.lattices, &self.pieces);
        UnigramStep {
            phase,
            round,
            pieces: self.pieces.alive().len(),
            loss: cut.loss,
            tokens: cut.tokens,
            detail: StepDetail::Estimated {
                objective: e.objective,
                dropped: e.dropped,
            },
        }
    }

    fn score_step(&mut self, round: usize) -> UnigramStep {
        let (cut, scores) = score_pieces(&self.words, &self.lattices, &self.pieces);
        UnigramStep {
            phase: UnigramPhase::Scored,
            round,
            pieces: self.pieces.alive().len(),
            loss: cut.loss,
            tokens: cut.tokens,
            detail: StepDetail::Scored { scores },
        }
    }

    fn prune_step(&mut self, round: usize) -> UnigramStep {
        let scores = match &self.last_step().detail {
            StepDetail::Scored { scores } => scores.clone(),
            _ => unreachable!("a prune follows a scoring"),
        };
        let removed = choose_removals(
            &scores,
            self.pieces.alive().len(),
            self.config.shrinking_factor,
            self.config.learned_target(),
        );
        self.pieces.remove(&ids(&removed));
        let pieces = &self.pieces;
        self.lattices = Arc::new(self.lattices.filtered(|p| pieces.is_alive(p)));
        let cut = corpus_cut(&self.words, &self.lattices, &self.pieces);
        UnigramStep {
            phase: UnigramPhase::Pruned,
            round: round + 1,
            pieces: self.pieces.alive().len(),
            loss: cut.loss,
            tokens: cut.tokens,
            detail: StepDetail::Pruned { removed },
        }
    }

    /// Run until training stops; returns why.
    pub fn run(&mut self) -> UnigramStop {
        loop {
            if let Err(stop) = self.step() {
                return stop;
            }
        }
    }

    /// Take back the last step. Returns false at the seeding.
    pub fn step_back(&mut self) -> bool {
        if self.steps.len() == 1 {
            return false;
        }
        self.stop = None;
        let step = self.steps.pop().expect("more than the seeding");
        match step.detail {
            StepDetail::Estimated { dropped, .. } => {
                let (at, before) = self.replaced.pop().expect("an estimate kept its values");
                debug_assert_eq!(at, self.steps.len());
                // Back in first: the values replaced were the pieces' then.
                self.pieces.restore(&dropped_ids(&dropped));
                self.pieces.replace_logp(&before);
                if !dropped.is_empty() {
                    self.refilter_lattices();
                }
            }
            StepDetail::Pruned { removed } => {
                self.pieces.restore(&ids(&removed));
                self.refilter_lattices();
            }
            StepDetail::Scored { .. } | StepDetail::Seeded => {}
        }
        true
    }

    /// The lattices over the pieces in the vocabulary, from the seeds'
    /// (after pieces came back).
    fn refilter_lattices(&mut self) {
        let pieces = &self.pieces;
        self.lattices = Arc::new(self.seed_lattices.filtered(|p| pieces.is_alive(p)));
    }

    /// Go to the state after exactly `n` steps (or as far as training
    /// goes); returns the step count reached.
    pub fn seek(&mut self, n: usize) -> usize {
        while self.step_count() > n {
            self.step_back();
        }
        while self.step_count() < n {
            if self.step().is_err() {
                break;
            }
        }
        self.step_count()
    }

    /// Train to another vocabulary size from here, keeping every step a
    /// training to that size makes too: a step that left more pieces than
    /// both sizes' learned targets was made alike under either (no prune
    /// and no drop was held back by a target, and no stop came from one),
    /// so only the steps after the last such one are taken back. Running
    /// on then gives exactly the training a fresh trainer with
    /// `vocab_size` gives, at the cost of the steps taken back: going from
    /// 300 pieces to 280 redoes a prune and its estimates, not the seeds.
    pub fn retarget(&mut self, vocab_size: usize) -> Result<()> {
        let config = UnigramConfig {
            vocab_size,
            ..self.config.clone()
        };
        config.check()?;
        let bound = self.config.learned_target().max(config.learned_target());
        while self.step_count() > 0 && self.last_step().pieces <= bound {
            self.step_back();
        }
        self.config = config;
        self.stop = None;
        Ok(())
    }

    /// The pieces removed so far, newest first, each with the round it
    /// went in.
    pub fn removals(&self) -> impl Iterator<Item = (usize, &PieceScore)> + '_ {
        self.steps.iter().rev().flat_map(|s| match &s.detail {
            StepDetail::Pruned { removed } => removed
                .iter()
                .rev()
                .map(|r| (s.round, r))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
    }

    /// The pieces dropped after EM iterations so far, newest first, each
    /// with the round it went in.
    pub fn drops(&self) -> impl Iterator<Item = (usize, &Dropped)> + '_ {
        self.steps.iter().rev().flat_map(|s| match &s.detail {
            StepDetail::Estimated { dropped, .. } => dropped
                .iter()
                .rev()
                .map(|d| (s.round, d))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
    }

    /// Every piece gone so far, dropped after an EM iteration or removed
    /// by a prune, newest first, each with the round it went in.
    pub fn gone(&self) -> impl Iterator<Item = (usize, Gone<'_>)> + '_ {
        self.steps.iter().rev().flat_map(|s| {
            let (pruned, dropped): (&[PieceScore], &[Dropped]) = match &s.detail {
                StepDetail::Pruned { removed } => (removed, &[]),
                StepDetail::Estimated { dropped, .. } => (&[], dropped),
                _ => (&[], &[]),
            };
            let round = s.round;
            pruned
                .iter()
                .rev()
                .map(move |r| (round, Gone::Pruned(r)))
                .chain(dropped.iter().rev().map(move |d| (round, Gone::Dropped(d))))
        })
    }

    /// How many pieces [`UnigramTrainer::gone`] lists, without walking them.
    pub fn gone_count(&self) -> usize {
        self.steps
            .iter()
            .map(|s| match &s.detail {
                StepDetail::Pruned { removed } => removed.len(),
                StepDetail::Estimated { dropped, .. } => dropped.len(),
                _ => 0,
            })
            .sum()
    }

    /// The scores of the round under way, if it has been scored.
    pub fn current_scores(&self) -> Option<&[PieceScore]> {
        match &self.last_step().detail {
            StepDetail::Scored { scores } => Some(scores),
            _ => None,
        }
    }

    /// The learned pieces as a vocabulary is written: by log-probability,
    /// highest first, then by text.
    pub fn final_pieces(&self) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = self
            .pieces
            .alive()
            .iter()
            .map(|&p| (self.pieces.text(p).to_string(), self.pieces.logp(p)))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }

    /// The first `n` of [`Self::final_pieces`], found without sorting the
    /// rest: a screen shows a few of tens of thousands, every frame.
    pub fn top_pieces(&self, n: usize) -> Vec<(String, f64)> {
        let order = |a: &PieceId, b: &PieceId| {
            let (pa, pb) = (self.pieces.logp(*a), self.pieces.logp(*b));
            pb.total_cmp(&pa)
                .then_with(|| self.pieces.text(*a).cmp(self.pieces.text(*b)))
        };
        let mut ids: Vec<PieceId> = self.pieces.alive().to_vec();
        if n < ids.len() {
            if n == 0 {
                return Vec::new();
            }
            ids.select_nth_unstable_by(n - 1, order);
            ids.truncate(n);
        }
        ids.sort_unstable_by(order);
        ids.iter()
            .map(|&p| (self.pieces.text(p).to_string(), self.pieces.logp(p)))
            .collect()
    }

    /// The id of the piece with this text, in the vocabulary or not.
    pub fn piece_id(&self, text: &str) -> Option<PieceId> {
        self.pieces.find(text)
    }
}

fn dropped_ids(dropped: &[Dropped]) -> Vec<PieceId> {
    dropped.iter().map(|d| d.piece).collect()
}
