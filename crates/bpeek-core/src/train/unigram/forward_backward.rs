//! Forward-backward over a word's lattice, the E step of EM: the sum of
//! every cut's probability, and each edge's share of it.
//!
//! A word is walked with plain probabilities, a multiply and an add per
//! edge. Logarithms (an `exp` and a `log1p` per edge) are kept for what
//! plain floats cannot hold:
//!
//! - a piece whose probability is below [`FAINT`] (one no cut has needed
//!   for many iterations) is left out of the plain sums, where it weighs
//!   less than 1e-100 of any of them, and its own share is found from the
//!   logs of the sums around it, so that it never falls to zero and a word
//!   that needs it later can still be cut;
//! - a word with a sum below [`FLOOR`] at any of its places (a very long
//!   word, or one that can be cut only through a faint piece) is walked
//!   in logarithms from start to end.

use crate::train::unigram::lattice::{Edge, PieceId, log_add};

/// A probability below this is left out of the plain sums.
pub const FAINT: f64 = 1e-200;
/// The least plain sum, forward or backward, a word's walk trusts.
const FLOOR: f64 = 1e-100;
/// A plain share below this is found again from logarithms: a product of
/// small factors this low may have lost digits as a subnormal float.
const SMALLEST_PLAIN_SHARE: f64 = 1e-250;

/// An edge's share of all its word's cuts: plain when a float holds it
/// with all its digits, else its logarithm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Share {
    Plain(f64),
    Log(f64),
}

/// The probabilities an iteration starts from, as logs and plain (zero
/// for a faint piece).
pub struct Probabilities<'a> {
    logp: &'a [f64],
    plain: Vec<f64>,
}

impl<'a> Probabilities<'a> {
    pub fn new(logp: &'a [f64]) -> Probabilities<'a> {
        let plain = logp
            .iter()
            .map(|&l| {
                let p = l.exp();
                if p < FAINT { 0.0 } else { p }
            })
            .collect();
        Probabilities { logp, plain }
    }
}

/// Forward and backward sums of a word, reused from word to word.
#[derive(Debug, Default)]
pub struct ForwardBackward {
    alpha: Vec<f64>,
    beta: Vec<f64>,
}

impl ForwardBackward {
    /// The log of the sum of every cut's probability (minus infinity if
    /// there is no cut), and for each edge, through `seen`, the share of
    /// that sum held by the cuts that take it.
    pub fn run(
        &mut self,
        edges: &[Edge],
        len: usize,
        p: &Probabilities,
        mut seen: impl FnMut(PieceId, Share),
    ) -> f64 {
        if !self.plain_sums(edges, len, &p.plain) {
            return self.run_in_logs(edges, len, p.logp, seen);
        }
        let z = self.alpha[len];
        let (inv_z, log_z) = (1.0 / z, z.ln());
        for e in edges {
            let (s, t, piece) = (e.start as usize, e.end as usize, e.piece);
            let plain = p.plain[piece as usize];
            let share = self.alpha[s] * plain * self.beta[t] * inv_z;
            if share >= SMALLEST_PLAIN_SHARE {
                seen(piece, Share::Plain(share));
            } else {
                let log = self.alpha[s].ln() + p.logp[piece as usize] + self.beta[t].ln() - log_z;
                seen(piece, Share::Log(log));
            }
        }
        log_z
    }

    /// The plain forward and backward sums; false if some place's sum is
    /// below [`FLOOR`] (or not finite), where plain floats are not to be
    /// trusted.
    fn plain_sums(&mut self, edges: &[Edge], len: usize, plain: &[f64]) -> bool {
        self.alpha.clear();
        self.alpha.resize(len + 1, 0.0);
        self.beta.clear();
        self.beta.resize(len + 1, 0.0);
        self.alpha[0] = 1.0;
        for e in edges {
            let (s, t) = (e.start as usize, e.end as usize);
            self.alpha[t] += self.alpha[s] * plain[e.piece as usize];
        }
        if !(self.alpha[len] >= FLOOR && self.alpha[len].is_finite()) {
            return false;
        }
        self.beta[len] = 1.0;
        for e in edges.iter().rev() {
            let (s, t) = (e.start as usize, e.end as usize);
            self.beta[s] += plain[e.piece as usize] * self.beta[t];
        }
        // Every place a piece starts or ends at is a place some cut
        // passes (single characters are always pieces).
        edges
            .iter()
            .all(|e| self.alpha[e.start as usize] >= FLOOR && self.beta[e.end as usize] >= FLOOR)
    }

    /// The same walk in logarithms, each share as a log.
    fn run_in_logs(
        &mut self,
        edges: &[Edge],
        len: usize,
        logp: &[f64],
        mut seen: impl FnMut(PieceId, Share),
    ) -> f64 {
        self.alpha.clear();
        self.alpha.resize(len + 1, f64::NEG_INFINITY);
        self.beta.clear();
        self.beta.resize(len + 1, f64::NEG_INFINITY);
        self.alpha[0] = 0.0;
        for e in edges {
            let (s, t) = (e.start as usize, e.end as usize);
            self.alpha[t] = log_add(self.alpha[t], self.alpha[s] + logp[e.piece as usize]);
        }
        self.beta[len] = 0.0;
        for e in edges.iter().rev() {
            let (s, t) = (e.start as usize, e.end as usize);
            self.beta[s] = log_add(self.beta[s], logp[e.piece as usize] + self.beta[t]);
        }
        let z = self.alpha[len];
        if z == f64::NEG_INFINITY {
            return z;
        }
        for e in edges {
            let (s, t) = (e.start as usize, e.end as usize);
            let log = self.alpha[s] + logp[e.piece as usize] + self.beta[t] - z;
            seen(e.piece, Share::Log(log));
        }
        z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(start: u32, end: u32, piece: PieceId) -> Edge {
        Edge { start, end, piece }
    }

    /// Every share of a word as a log, by edge.
    fn log_shares(edges: &[Edge], len: usize, logp: &[f64]) -> (f64, Vec<f64>) {
        let p = Probabilities::new(logp);
        let mut out = Vec::new();
        let z = ForwardBackward::default().run(edges, len, &p, |_, s| {
            out.push(match s {
                Share::Plain(x) => x.ln(),
                Share::Log(l) => l,
            })
        });
        (z, out)
    }

    /// "ab": a, b, ab. Two cuts: a b (0.5 x 0.25) and ab (0.25).
    fn ab() -> Vec<Edge> {
        vec![edge(0, 1, 0), edge(0, 2, 2), edge(1, 2, 1)]
    }

    #[test]
    fn shares_are_each_cuts_part_of_the_sum() {
        let logp = [0.5f64.ln(), 0.25f64.ln(), 0.25f64.ln()];
        let (z, shares) = log_shares(&ab(), 2, &logp);
        assert!((z - 0.375f64.ln()).abs() < 1e-12);
        let want = [1.0 / 3.0, 2.0 / 3.0, 1.0 / 3.0];
        for (got, want) in shares.iter().zip(want) {
            assert!((got.exp() - want).abs() < 1e-12, "{shares:?}");
        }
    }

    #[test]
    fn a_faint_piece_keeps_a_share_a_float_cannot_hold() {
        // "abc": a, ab, b, bc, c, with `b` at e^-700 (left out of the
        // plain sums). The cuts ab c and a bc make 0.06 each, so a b c's
        // share is 0.09 e^-700 / 0.12.
        let edges = [
            edge(0, 1, 0),
            edge(0, 2, 1),
            edge(1, 2, 2),
            edge(1, 3, 3),
            edge(2, 3, 4),
        ];
        let logp = [0.3f64.ln(), 0.2f64.ln(), -700.0, 0.2f64.ln(), 0.3f64.ln()];
        let mut got = Vec::new();
        let p = Probabilities::new(&logp);
        let z = ForwardBackward::default().run(&edges, 3, &p, |piece, s| got.push((piece, s)));
        assert!((z - 0.12f64.ln()).abs() < 1e-12);
        match got[2] {
            (2, Share::Log(l)) => assert!((l - (-700.0 + 0.75f64.ln())).abs() < 1e-9, "{l}"),
            other => panic!("b's share: {other:?}"),
        }
        match got[1] {
            (1, Share::Plain(x)) => assert!((x - 0.5).abs() < 1e-12, "{x}"),
            other => panic!("ab's share: {other:?}"),
        }
    }

    #[test]
    fn a_word_cut_only_through_faint_pieces_is_walked_in_logs() {
        let logp = [-700.0, -700.0, f64::NEG_INFINITY];
        let (z, shares) = log_shares(&ab(), 2, &logp);
        assert!((z + 1400.0).abs() < 1e-9);
        assert!(
            shares[0].abs() < 1e-12 && shares[2].abs() < 1e-12,
            "{shares:?}"
        );
    }

    #[test]
    fn a_long_word_is_walked_in_logs() {
        // 400 characters of one piece with probability e^-1: the sum is
        // e^-400, below what the plain walk trusts.
        let edges: Vec<Edge> = (0..400).map(|i| edge(i, i + 1, 0)).collect();
        let (z, shares) = log_shares(&edges, 400, &[-1.0]);
        assert!((z + 400.0).abs() < 1e-9);
        assert!(shares.iter().all(|s| s.abs() < 1e-9));
    }
}
