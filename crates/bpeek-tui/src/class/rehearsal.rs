//! A class of one: the question "which pair wins?" asked with no class,
//! so that a teacher can rehearse it alone before `bpeek serve`. The
//! question lives here instead of in the server; nobody votes, the tally
//! is empty, and revealing the answer ends the rehearsal.

use super::{ClassLink, QuestionView, TrainingState};
use bpeek_core::Pair;
use std::sync::Mutex;

/// The link of a rehearsal: the one question, kept locally.
#[derive(Default)]
pub struct Rehearsal {
    /// The question and the pair that wins it.
    question: Mutex<Option<(QuestionView, Pair)>>,
}

impl Rehearsal {
    fn with<T>(&self, f: impl FnOnce(&mut Option<(QuestionView, Pair)>) -> T) -> T {
        let mut q = self.question.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut q)
    }
}

impl ClassLink for Rehearsal {
    fn publish(&self, _state: TrainingState, _shared: Option<super::SharedTrainer>) {}
    fn teacher(&self) -> Option<TrainingState> {
        None
    }
    fn set_following(&self, _following: bool) {}
    fn counts(&self) -> super::ClassCounts {
        super::ClassCounts::default()
    }
    fn ask(&self, at: TrainingState, winner: Pair) -> bool {
        let view = QuestionView {
            id: 1,
            at,
            votes: 0,
            right: 0,
            mine: None,
            tally: Vec::new(),
            tally_shown: false,
            winner: None,
        };
        self.with(|q| *q = Some((view, winner)));
        true
    }
    fn show_tally(&self, on: bool) {
        self.with(|q| {
            if let Some((view, _)) = q {
                view.tally_shown = on;
            }
        });
    }
    fn close_question(&self, reveal: bool, _label: &dyn Fn(Pair) -> String) {
        self.with(|q| match q {
            Some((view, winner)) if reveal => view.winner = Some(*winner),
            _ => *q = None,
        });
    }
    fn question(&self) -> Option<QuestionView> {
        self.with(|q| q.as_ref().map(|(view, _)| view.clone()))
    }
    fn rehearsal(&self) -> bool {
        true
    }
}
