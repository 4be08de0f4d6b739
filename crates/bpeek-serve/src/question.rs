//! A question for the class: "which pair wins?", asked by the teacher in
//! the counted phase. Each session votes once (and may change its vote
//! until the reveal); votes are kept per session, never with a name, and
//! only the tally leaves this file.

use bpeek_core::Pair;
use bpeek_tui::class::{QuestionView, TrainingState};
use std::collections::HashMap;

pub struct Question {
    pub id: u64,
    /// Where the teacher asked it.
    pub at: TrainingState,
    /// The pair that wins, known to the teacher's trainer when asking.
    pub winner: Pair,
    /// Each voting session's pick, by seat.
    votes: HashMap<u64, Pair>,
    pub revealed: bool,
    pub tally_shown: bool,
}

impl Question {
    pub fn new(id: u64, at: TrainingState, winner: Pair) -> Self {
        Question {
            id,
            at,
            winner,
            votes: HashMap::new(),
            revealed: false,
            tally_shown: false,
        }
    }

    /// Seat `seat` votes `pair` (a later vote replaces it); false once the
    /// answer is out.
    pub fn vote(&mut self, seat: u64, pair: Pair) -> bool {
        if self.revealed {
            return false;
        }
        self.votes.insert(seat, pair);
        true
    }

    /// A seat that left takes its vote with it.
    pub fn forget(&mut self, seat: u64) {
        if !self.revealed {
            self.votes.remove(&seat);
        }
    }

    /// Votes per pair, most first (ties in pair order, so every screen
    /// lists them alike).
    pub fn tally(&self) -> Vec<(Pair, usize)> {
        let mut per: HashMap<Pair, usize> = HashMap::new();
        for p in self.votes.values() {
            *per.entry(*p).or_default() += 1;
        }
        let mut tally: Vec<(Pair, usize)> = per.into_iter().collect();
        tally.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        tally
    }

    /// What seat `seat` sees of it: the winner only once revealed.
    pub fn view_for(&self, seat: u64) -> QuestionView {
        QuestionView {
            id: self.id,
            at: self.at,
            votes: self.votes.len(),
            right: self.votes.values().filter(|p| **p == self.winner).count(),
            mine: self.votes.get(&seat).copied(),
            tally: self.tally(),
            tally_shown: self.tally_shown,
            winner: self.revealed.then_some(self.winner),
        }
    }

    /// The log's line at the reveal: counts only.
    pub fn summary(&self, label: impl Fn(Pair) -> String) -> String {
        let tally: Vec<String> = self
            .tally()
            .iter()
            .map(|(p, n)| format!("{} {n}", label(*p)))
            .collect();
        format!(
            "question at merge {}: {} voted, {} right (winner {}){}{}",
            self.at.merges,
            self.votes.len(),
            self.votes.values().filter(|p| **p == self.winner).count(),
            label(self.winner),
            if tally.is_empty() { "" } else { "; " },
            tally.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpeek_tui::mark::PhaseName;

    fn at() -> TrainingState {
        TrainingState {
            corpus: 0,
            merges: 3,
            phase: PhaseName::Counted,
            autoplay: false,
        }
    }

    #[test]
    fn one_vote_per_session_changeable_until_the_reveal() {
        let mut q = Question::new(1, at(), (1, 2));
        assert!(q.vote(10, (3, 4)));
        assert!(q.vote(11, (1, 2)));
        assert!(q.vote(10, (1, 2)), "a vote may change");
        assert!(q.vote(12, (3, 4)));
        assert_eq!(q.tally(), [((1, 2), 2), ((3, 4), 1)]);
        let seen = q.view_for(12);
        assert_eq!((seen.votes, seen.right, seen.mine), (3, 2, Some((3, 4))));
        assert_eq!(seen.winner, None, "the answer stays hidden");
        q.revealed = true;
        assert!(!q.vote(12, (1, 2)), "no change after the reveal");
        assert_eq!(q.view_for(12).winner, Some((1, 2)));
        assert_eq!(
            q.summary(|p| format!("{}+{}", p.0, p.1)),
            "question at merge 3: 3 voted, 2 right (winner 1+2); 1+2 2, 3+4 1"
        );
    }
}
