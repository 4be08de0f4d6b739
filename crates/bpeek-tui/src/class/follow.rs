//! What being in a class means for an explorer's keys and state, read
//! from the app: where it stands, which keys the class answers, and which
//! actions of a follower wait for its "yes" first. What they do is
//! `update`'s (see `update/class.rs`); nothing here changes the app.

use crate::action::Action;
use crate::app::{App, InputMode};
use crate::class::{Role, TrainingState};
use crate::mark::PhaseName;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The training state the app shows.
pub fn state_of(app: &App) -> TrainingState {
    if let Some(u) = &app.unigram {
        // A Unigram training stands at a step; its phase is in the step.
        return TrainingState {
            corpus: app.current,
            merges: u.trainer.step_count(),
            phase: PhaseName::Merged,
            autoplay: app.autoplay.on,
        };
    }
    let here = PhaseName::of(app.trainer().phase());
    // Configurations side by side stand at their target, which a focused
    // column that stopped early does not reach.
    let (merges, phase) = match &app.compare {
        Some(c) => (c.target.merges, c.target.phase.unwrap_or(here)),
        None => (app.trainer().merges().len(), here),
    };
    TrainingState {
        corpus: app.current,
        merges,
        phase,
        autoplay: app.autoplay.on,
    }
}

/// Keys the classroom answers before the key table: the answer to "explore
/// on your own?" (any key; only `y` says yes), and `F` that follows again.
pub fn class_key(app: &App, key: &KeyEvent) -> Option<Action> {
    let class = app.classroom.as_ref()?;
    if class.asking.is_some() {
        return Some(Action::AnswerExplore(matches!(
            key.code,
            KeyCode::Char('y' | 'Y')
        )));
    }
    let plain = key.modifiers.difference(KeyModifiers::SHIFT).is_empty();
    let follows_again = class.role == Role::Student
        && !class.following
        && key.code == KeyCode::Char('F')
        && plain
        && app.input == InputMode::Normal;
    follows_again.then_some(Action::FollowTeacher)
}

/// `action` if it may go ahead, or `None` when it would move a following
/// student's training while a teacher leads: then the student is asked
/// first (see [`held`]).
pub fn guard(app: &App, action: Action) -> Option<Action> {
    let Some(class) = &app.classroom else {
        return Some(action);
    };
    let holds = class.role == Role::Student
        && class.following
        && action.moves_class(app.goto_is_rank())
        && class.link.teacher().is_some();
    (!holds).then_some(action)
}

/// The action a key's `action` becomes in a class: itself, or the
/// question whether to leave the class for it.
pub fn held(app: &App, action: Action) -> Action {
    match guard(app, action.clone()) {
        Some(action) => action,
        None => Action::AskToExplore(Box::new(action)),
    }
}
