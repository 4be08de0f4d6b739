//! What the class does to an explorer, as actions: the class changed
//! (follow the teacher, read the question again), a teacher tells the
//! class where it stands, a student answers "explore on your own?" or
//! follows again, and a line from the server. The rules of which key
//! means what are read in `class::follow`; the changes are made here.

use super::question::{after_teacher_move, read_question};
use super::update;
use crate::action::Action;
use crate::app::App;
use crate::class::follow::state_of;
use crate::class::{Role, SharedTrainer, TrainingState};
use crate::mark::PhaseName;
use bpeek_core::Trainer;
use std::sync::Arc;

/// Whether `action` is the class's (handled before anything else, while a
/// corpus opens too, and without clearing the notice line).
pub(super) fn is_class_event(action: &Action) -> bool {
    matches!(
        action,
        Action::ClassChanged
            | Action::Publish
            | Action::ResumeClass
            | Action::Notice(_)
            | Action::MemoryBudget(_)
            | Action::AnswerExplore(_)
            | Action::FollowTeacher
            | Action::AskToExplore(_)
    )
}

/// Apply one of the class's actions (see [`is_class_event`]).
pub(super) fn update_class_event(app: &mut App, action: Action) {
    match action {
        Action::ClassChanged => class_changed(app),
        Action::Publish => publish(app),
        Action::ResumeClass => resume(app),
        Action::Notice(text) => {
            app.notice = Some(text);
            app.dirty = true;
        }
        Action::MemoryBudget(over) => super::budget::reached(app, over),
        Action::AnswerExplore(yes) => answer_explore(app, yes),
        Action::FollowTeacher => follow_teacher(app),
        Action::AskToExplore(pending) => ask_to_explore(app, *pending),
        other => unreachable!("not a class event: {other:?}"),
    }
}

/// A following student's key would move training: hold it and ask.
fn ask_to_explore(app: &mut App, pending: Action) {
    if let Some(class) = &mut app.classroom {
        class.asking = Some(pending);
        app.notice =
            Some("you follow the teacher: explore on your own? y: yes, any other key: no".into());
        app.dirty = true;
    }
}

/// The answer to "explore on your own?": yes runs the key held.
fn answer_explore(app: &mut App, yes: bool) {
    let Some(class) = &mut app.classroom else {
        return;
    };
    let Some(pending) = class.asking.take() else {
        return;
    };
    app.dirty = true;
    if yes {
        class.following = false;
        class.link.set_following(false);
        update(app, pending);
        app.notice = Some("exploring on your own: F follows the teacher again".into());
    } else {
        app.notice = Some("still following the teacher".into());
    }
}

/// `F`: a student who explored follows the teacher again.
pub(super) fn follow_teacher(app: &mut App) {
    let Some(class) = &mut app.classroom else {
        return;
    };
    class.following = true;
    class.link.set_following(true);
    follow(app);
    app.notice = Some("following the teacher".into());
    app.dirty = true;
}

/// The class changed (the teacher moved, someone came or went): follow the
/// teacher if this explorer follows, and redraw the status line.
fn class_changed(app: &mut App) {
    let Some(class) = &app.classroom else {
        return;
    };
    if class.role == Role::Student && class.following {
        follow(app);
    }
    read_question(app);
    app.dirty = true;
}

/// After every event: a teacher publishes its state if it changed.
fn publish(app: &mut App) {
    // A long action's steps on the way are not the teacher's: the class
    // moves once it is done (or cancelled).
    if app.jobs.current.is_some() {
        return;
    }
    after_teacher_move(app);
    let state = state_of(app);
    let publishes = app
        .classroom
        .as_ref()
        .is_some_and(|c| c.role == Role::Teacher && c.published != Some(state));
    if !publishes {
        return;
    }
    // The trainer is shared only where it stands at the state told (a
    // Unigram training's followers train their own).
    let at_state = app.unigram.is_none()
        && app.trainer().merges().len() == state.merges
        && PhaseName::of(app.trainer().phase()) == state.phase;
    let shared = at_state.then(|| SharedTrainer {
        state,
        corpus: app.sources[app.current].name.clone(),
        trainer: Arc::downgrade(&app.loaded().trainer),
    });
    if let Some(class) = &mut app.classroom {
        class.published = Some(state);
        class.link.publish(state, shared);
    }
}

/// A teacher's explorer just opened: go where the class already is.
fn resume(app: &mut App) {
    let Some(class) = &app.classroom else {
        return;
    };
    if class.role != Role::Teacher {
        return;
    }
    if let Some(target) = class.link.resume() {
        seek(app, target);
    }
}

/// Seek to the teacher's state (at this explorer's own size and view).
fn follow(app: &mut App) {
    if app.opening_job() {
        return;
    }
    let Some(target) = app.classroom.as_ref().and_then(|c| c.link.teacher()) else {
        return;
    };
    seek(app, target);
}

fn seek(app: &mut App, target: TrainingState) {
    if app.autoplay.on {
        // The teacher's steps drive a follower; its own clock would race them.
        app.autoplay.on = false;
    }
    let corpus = local_corpus(app, target);
    let wanted = TrainingState {
        autoplay: false,
        corpus,
        ..target
    };
    if state_of(app) == wanted {
        return;
    }
    if app.unigram.is_some() {
        // Each follower trains its own Unigram steps to the teacher's.
        return super::unigram::follow_to_step(app, target.merges);
    }
    let notice = app.notice.take();
    if let Some(trainer) = shared_at(app, target, corpus) {
        super::adopt(app, corpus, trainer);
        app.notice = notice;
        return;
    }
    if corpus != app.current && corpus < app.sources.len() {
        // The teacher's trainer of that corpus, wherever it stands, is the
        // place to start from (and the only one for text the teacher typed).
        let teachers = app
            .classroom
            .as_ref()
            .and_then(|c| c.link.shared())
            .filter(|s| s.corpus == app.sources[corpus].name)
            .and_then(|s| s.trainer.upgrade());
        match teachers {
            Some(trainer) => super::adopt(app, corpus, trainer),
            None => {
                if let Err(e) = app.switch_to(corpus) {
                    app.notice = Some(format!("cannot follow the teacher: {e}"));
                    return;
                }
            }
        }
        app.scroll.corpus = Default::default();
        app.scroll.pairs = 0;
        app.scroll.merge_cursor = None;
    }
    // Between frames, like the teacher's own go-to; a newer move of the
    // teacher's takes the place of one still under way.
    let mark = crate::mark::Mark {
        merges: target.merges,
        phase: Some(target.phase),
    };
    let heading_there = app
        .jobs
        .current
        .as_ref()
        .is_some_and(|j| j.target == Some(mark));
    if !heading_there {
        update(app, Action::Follow(mark));
    }
    app.notice = notice;
}

/// Where the teacher's corpus is among this explorer's sources. The lists
/// are the same in every session, except for text typed and trained on: a
/// teacher's typed corpus is found by its name, and added to the list the
/// first time.
fn local_corpus(app: &mut App, target: TrainingState) -> usize {
    let Some(shared) = app.classroom.as_ref().and_then(|c| c.link.shared()) else {
        return target.corpus;
    };
    let same_place = app
        .sources
        .get(target.corpus)
        .is_some_and(|s| s.name == shared.corpus);
    if shared.state.corpus != target.corpus || same_place {
        return target.corpus;
    }
    if let Some(i) = app.sources.iter().position(|s| s.name == shared.corpus) {
        return i;
    }
    app.sources.push(crate::app::Source {
        name: shared.corpus.clone(),
        loaded: None,
    });
    app.sources.len() - 1
}

/// The teacher's own trainer, if it stands at `target` and fits this
/// explorer's source `corpus` (same corpus, same options).
fn shared_at(app: &App, target: TrainingState, corpus: usize) -> Option<Arc<Trainer>> {
    let shared = app.classroom.as_ref()?.link.shared()?;
    let source = app.sources.get(corpus)?;
    if source.name != shared.corpus {
        return None;
    }
    let trainer = shared.at(target)?;
    let fits = app
        .loaded_at(corpus)
        .is_none_or(|l| l.trainer.config() == trainer.config());
    fits.then_some(trainer)
}
