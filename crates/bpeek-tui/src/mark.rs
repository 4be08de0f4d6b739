//! A point of training that jobs and followers move toward.

use bpeek_core::{Phase, Trainer};

/// A point of training: the merges made and the phase of the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mark {
    pub merges: usize,
    /// `None`: whichever phase a seek leaves (see [`Trainer::seek`]).
    pub phase: Option<PhaseName>,
}

impl Mark {
    /// Where `trainer` stands now.
    pub fn of(trainer: &Trainer) -> Self {
        Mark {
            merges: trainer.merges().len(),
            phase: Some(PhaseName::of(trainer.phase())),
        }
    }

    /// Where a go-to `merges` lands: merged after that many merges
    /// (counted at merge 0), whether it went forward or back, so the screen
    /// is the one the steps forward showed there.
    pub fn seek(merges: usize) -> Self {
        Mark {
            merges,
            phase: Some(if merges == 0 {
                PhaseName::Counted
            } else {
                PhaseName::Merged
            }),
        }
    }
}

/// A phase of a round, without its data: what a mark or a class shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhaseName {
    Counted,
    Chosen,
    Merged,
}

impl PhaseName {
    /// The name lessons and traces write.
    pub fn name(self) -> &'static str {
        match self {
            PhaseName::Counted => "counted",
            PhaseName::Chosen => "chosen",
            PhaseName::Merged => "merged",
        }
    }

    pub fn of(phase: &Phase) -> Self {
        match phase {
            Phase::Counted => PhaseName::Counted,
            Phase::Chosen(_) => PhaseName::Chosen,
            Phase::Merged => PhaseName::Merged,
        }
    }
}
