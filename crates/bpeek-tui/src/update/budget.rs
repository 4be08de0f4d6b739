//! A served student past its memory budget (the server measures what the
//! session's threads hold; see `bpeek_core::memory_owner`). Its own work
//! stops and what it holds of its own is let go: the job under way, the
//! columns it compares, its own typed corpora, the other corpora it
//! counted; a student exploring alone follows the teacher again, whose
//! trainer costs it nothing. While the session stays past its budget, a
//! key that would start work of its own is refused, and the notice line
//! says why each time. The class's steps are never refused.

use super::class::follow_teacher;
use super::training::is_typed_by_student;
use crate::action::Action;
use crate::app::App;

/// The budget was reached (`Some`, with what to say) or there is room
/// again (`None`).
pub(super) fn reached(app: &mut App, over: Option<String>) {
    let Some(class) = app.classroom.as_mut() else {
        return;
    };
    class.memory_full.clone_from(&over);
    // Room again is not said: letting go usually makes it at once, and the
    // reason must stay on screen.
    if let Some(why) = over {
        let_go(app);
        app.notice = Some(why);
        app.dirty = true;
    }
}

/// Stop the student's own work and let go of what it holds.
fn let_go(app: &mut App) {
    // Dropped, not cancelled: going back would be more work.
    app.jobs.current = None;
    app.jobs.queued.clear();
    app.compare = None;
    if app.classroom.as_ref().is_some_and(|c| !c.following) {
        follow_teacher(app);
    }
    let current = app.sources[app.current].name.clone();
    app.sources
        .retain(|s| s.name == current || !is_typed_by_student(&s.name));
    app.current = app
        .sources
        .iter()
        .position(|s| s.name == current)
        .unwrap_or(0);
    for (i, source) in app.sources.iter_mut().enumerate() {
        // The server's corpora are counted again if shown again; a corpus
        // the teacher typed comes back from the teacher's trainer.
        if i != app.current && !super::training::is_typed(&source.name) {
            source.loaded = None;
        }
    }
}

/// Whether `action` is refused because the student is past its budget (and
/// if so, the notice says why).
pub(super) fn refuses(app: &mut App, action: &Action) -> bool {
    let Some(why) = app.classroom.as_ref().and_then(|c| c.memory_full.clone()) else {
        return false;
    };
    let inner = match action {
        Action::AskToExplore(pending) => pending,
        a => a,
    };
    let going = matches!(inner, Action::PromptSubmit)
        && matches!(app.input, crate::app::InputMode::Goto(_))
        && !app.goto_is_rank();
    if !going && !starts_own_work(inner) {
        return false;
    }
    app.notice = Some(why);
    app.dirty = true;
    true
}

/// Actions that make a student's session train, count or compare on its
/// own (the teacher's moves come as [`Action::Follow`], never refused).
fn starts_own_work(action: &Action) -> bool {
    matches!(
        action,
        Action::Step
            | Action::Undo
            | Action::Advance
            | Action::Reset
            | Action::Goto(_)
            | Action::TrainOnTyped
            | Action::NextCorpus
            | Action::PrevCorpus
            | Action::OpenAddColumn
            | Action::AddColumn(_)
            | Action::ToggleAutoplay
            | Action::ToggleAutoplayPhases
    )
}
