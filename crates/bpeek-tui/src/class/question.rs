//! "Which pair wins?": the teacher asks in the counted phase, every
//! follower's pair table becomes a ballot, and the teacher's next `.`
//! reveals the answer on every screen. The class keeps the votes (see
//! `serve::question`); this is what one explorer does with them.

use crate::app::App;
use crate::class::follow::state_of;
use crate::class::{QuestionView, Role, TrainingState};
use bpeek_core::{Pair, Trainer};

/// How many pairs a ballot offers: the top of the table, so the winner is
/// always among them, in an order that does not give it away.
pub const BALLOT_SIZE: usize = 8;

/// The pairs on the ballot with their counts, in the order of their text.
pub fn ballot(trainer: &Trainer) -> Vec<(Pair, u64)> {
    let mut pairs: Vec<(Pair, u64)> = trainer
        .top_pairs(BALLOT_SIZE)
        .into_iter()
        .map(|r| (r.pair, r.count))
        .collect();
    pairs.sort_by_key(|&((a, b), _)| {
        (
            trainer.token_bytes(a).to_vec(),
            trainer.token_bytes(b).to_vec(),
        )
    });
    pairs
}

/// `l + a`, as the screens write a pair.
pub fn pair_label(app: &App, (a, b): Pair) -> String {
    let t = |id| crate::view::token_label(app, id);
    format!("{} + {}", t(a), t(b))
}

pub fn same_place(a: TrainingState, b: TrainingState) -> bool {
    (a.corpus, a.merges, a.phase) == (b.corpus, b.merges, b.phase)
}

/// The question this explorer votes on now: a student's, at the state
/// it was asked in, not yet revealed.
pub fn open_ballot(app: &App) -> Option<&QuestionView> {
    let class = app.classroom.as_ref()?;
    let q = class.question.as_ref()?;
    (class.role == Role::Student
        && class.following
        && q.winner.is_none()
        && same_place(q.at, state_of(app)))
    .then_some(q)
}

/// The teacher has a question open and its tally hidden.
pub fn asking(app: &App) -> bool {
    app.classroom.as_ref().is_some_and(|c| {
        c.role == Role::Teacher
            && c.question.as_ref().is_some_and(|q| {
                q.winner.is_none() && !q.tally_shown && same_place(q.at, state_of(app))
            })
    })
}

/// The teacher's question, with its tally on screen.
pub fn shown_tally(app: &App) -> Option<&QuestionView> {
    let class = app.classroom.as_ref()?;
    let q = class.question.as_ref()?;
    (class.role == Role::Teacher && q.tally_shown).then_some(q)
}
