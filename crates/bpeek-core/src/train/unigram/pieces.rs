//! The piece table: every seed piece, whether it is still in the
//! vocabulary, and its log-probability (a removed piece keeps the one it
//! had when it went).

use crate::train::unigram::lattice::PieceId;
use crate::train::unigram::seed::Seed;

#[derive(Debug, Clone)]
pub struct Pieces {
    seeds: Vec<Seed>,
    logp: Vec<f64>,
    /// The pieces in the vocabulary, by id.
    alive: Vec<PieceId>,
    is_alive: Vec<bool>,
}

impl Pieces {
    /// The seeds, each with the log of its share of all seed counts.
    pub fn new(seeds: Vec<Seed>) -> Pieces {
        let total: u64 = seeds.iter().map(|s| s.count).sum();
        let log_total = (total as f64).ln();
        let logp = seeds
            .iter()
            .map(|s| (s.count as f64).ln() - log_total)
            .collect();
        let alive = (0..seeds.len() as PieceId).collect();
        let is_alive = vec![true; seeds.len()];
        Pieces {
            seeds,
            logp,
            alive,
            is_alive,
        }
    }

    /// Every seed, in the vocabulary or not, by id.
    pub fn seeds(&self) -> &[Seed] {
        &self.seeds
    }

    pub fn text(&self, id: PieceId) -> &str {
        &self.seeds[id as usize].text
    }

    /// Whether the piece is a single character (never removed).
    pub fn is_char(&self, id: PieceId) -> bool {
        self.seeds[id as usize].chars == 1
    }

    pub fn logp(&self, id: PieceId) -> f64 {
        self.logp[id as usize]
    }

    /// Every seed's log-probability, by id.
    pub fn all_logp(&self) -> &[f64] {
        &self.logp
    }

    /// The pieces in the vocabulary, by id.
    pub fn alive(&self) -> &[PieceId] {
        &self.alive
    }

    pub fn is_alive(&self, id: PieceId) -> bool {
        self.is_alive[id as usize]
    }

    /// The piece with this text, in the vocabulary or not.
    pub fn find(&self, text: &str) -> Option<PieceId> {
        self.seeds
            .iter()
            .position(|s| s.text == text)
            .map(|i| i as PieceId)
    }

    /// Set the log-probabilities of the pieces in, in the order of
    /// [`Pieces::alive`]; returns the ones they replace.
    pub(crate) fn replace_logp(&mut self, values: &[f64]) -> Vec<f64> {
        self.alive
            .iter()
            .zip(values)
            .map(|(&id, &v)| std::mem::replace(&mut self.logp[id as usize], v))
            .collect()
    }

    /// Take `ids` out of the vocabulary.
    pub(crate) fn remove(&mut self, ids: &[PieceId]) {
        for &id in ids {
            self.is_alive[id as usize] = false;
        }
        let is_alive = &self.is_alive;
        self.alive.retain(|&id| is_alive[id as usize]);
    }

    /// Put `ids` back into the vocabulary (undoing a prune).
    pub(crate) fn restore(&mut self, ids: &[PieceId]) {
        for &id in ids {
            self.is_alive[id as usize] = true;
        }
        self.alive.extend_from_slice(ids);
        self.alive.sort_unstable();
    }
}
