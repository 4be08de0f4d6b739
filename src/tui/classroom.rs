//! Follow the teacher: the part of a classroom the explorer itself knows.
//!
//! A served explorer has a [`Classroom`]: the teacher's publishes its
//! training state (corpus, merge, phase, autoplay) after every change; a
//! student's follows that state while it follows, and asks before a key of
//! its own would leave it. Only state travels, never frames, so every
//! screen keeps its own size. How the state gets from one explorer to the
//! others is the [`ClassLink`]'s business (the SSH server's).

use crate::bpe::Phase;
use crate::tui::action::Action;
use crate::tui::app::{App, InputMode};
use crate::tui::update::update;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Teacher,
    Student,
}

/// Where the teacher's training stands: what followers seek to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainingState {
    /// Index of the corpus among the explorer's sources (the same list in
    /// every session of one server).
    pub corpus: usize,
    pub merges: usize,
    pub phase: PhaseName,
    pub autoplay: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseName {
    Counted,
    Chosen,
    Merged,
}

impl PhaseName {
    pub fn of(phase: &Phase) -> Self {
        match phase {
            Phase::Counted => PhaseName::Counted,
            Phase::Chosen(_) => PhaseName::Chosen,
            Phase::Merged => PhaseName::Merged,
        }
    }
}

/// Who is connected, for the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassCounts {
    pub students: usize,
    /// Students following the teacher.
    pub following: usize,
    pub teacher: bool,
}

/// The explorer's line to the rest of the class.
pub trait ClassLink: Send {
    /// The teacher's state changed (called for the teacher only).
    fn publish(&self, state: TrainingState);
    /// The teacher's latest state, if a teacher is connected.
    fn teacher(&self) -> Option<TrainingState>;
    /// This student now follows (or not).
    fn set_following(&self, following: bool);
    fn counts(&self) -> ClassCounts;
}

pub struct Classroom {
    pub role: Role,
    /// A student follows the teacher until it chooses to explore alone.
    pub following: bool,
    /// A training key a follower pressed, waiting for "explore on your own?".
    pub asking: Option<Action>,
    link: Box<dyn ClassLink>,
    published: Option<TrainingState>,
}

impl std::fmt::Debug for Classroom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classroom")
            .field("role", &self.role)
            .field("following", &self.following)
            .field("asking", &self.asking)
            .finish()
    }
}

impl Classroom {
    pub fn new(role: Role, link: Box<dyn ClassLink>) -> Self {
        Classroom {
            role,
            following: role == Role::Student,
            asking: None,
            link,
            published: None,
        }
    }

    /// The status line's item: role, follow state, who is there.
    pub fn status(&self) -> String {
        let counts = self.link.counts();
        let students = match counts.students {
            1 => "1 student".to_string(),
            n => format!("{n} students"),
        };
        match self.role {
            Role::Teacher => format!("teacher, {students}, {} follow", counts.following),
            Role::Student if !self.following => format!("on your own (F follows), {students}"),
            Role::Student if !counts.teacher => format!("no teacher yet, {students}"),
            Role::Student => format!("following the teacher, {students}"),
        }
    }
}

/// The training state the app shows.
pub fn state_of(app: &App) -> TrainingState {
    TrainingState {
        corpus: app.current,
        merges: app.trainer().merges().len(),
        phase: PhaseName::of(app.trainer().phase()),
        autoplay: app.autoplay.on,
    }
}

/// Keys the classroom answers before the key table: the answer to "explore
/// on your own?", and `F` to follow again. Returns whether it took the key.
pub fn on_key(app: &mut App, key: &KeyEvent) -> bool {
    let Some(class) = &mut app.classroom else {
        return false;
    };
    if let Some(pending) = class.asking.take() {
        app.dirty = true;
        if matches!(key.code, KeyCode::Char('y' | 'Y')) {
            class.following = false;
            class.link.set_following(false);
            update(app, pending);
            app.notice = Some("exploring on your own: F follows the teacher again".into());
        } else {
            app.notice = Some("still following the teacher".into());
        }
        return true;
    }
    let plain = key.modifiers.difference(KeyModifiers::SHIFT).is_empty();
    if class.role == Role::Student
        && !class.following
        && key.code == KeyCode::Char('F')
        && plain
        && app.input == InputMode::Normal
    {
        class.following = true;
        class.link.set_following(true);
        follow(app);
        app.notice = Some("following the teacher".into());
        app.dirty = true;
        return true;
    }
    false
}

/// Let an action through, or (a training key of a follower while a teacher
/// leads) hold it and ask first.
pub fn guard(app: &mut App, action: Action) -> Option<Action> {
    let rank_prompt = app.goto_is_rank();
    let Some(class) = &mut app.classroom else {
        return Some(action);
    };
    let moves_training = match action {
        Action::Step
        | Action::Undo
        | Action::Advance
        | Action::Reset
        | Action::Goto(_)
        | Action::ToggleAutoplay
        | Action::NextCorpus
        | Action::PrevCorpus => true,
        Action::OpenGoto => !rank_prompt,
        _ => false,
    };
    if class.role == Role::Student
        && class.following
        && moves_training
        && class.link.teacher().is_some()
    {
        class.asking = Some(action);
        app.notice =
            Some("you follow the teacher: explore on your own? y: yes, any other key: no".into());
        app.dirty = true;
        return None;
    }
    Some(action)
}

/// The class changed (the teacher moved, someone came or went): follow the
/// teacher if this explorer follows, and redraw the status line.
pub fn on_class_change(app: &mut App) {
    let Some(class) = &app.classroom else {
        return;
    };
    if class.role == Role::Student && class.following {
        follow(app);
    }
    app.dirty = true;
}

/// After every event: a teacher publishes its state if it changed.
pub fn after_event(app: &mut App) {
    // A long action's steps on the way are not the teacher's: the class
    // moves once it is done (or cancelled).
    if app.job.is_some() {
        return;
    }
    let state = state_of(app);
    let Some(class) = &mut app.classroom else {
        return;
    };
    if class.role == Role::Teacher && class.published != Some(state) {
        class.published = Some(state);
        class.link.publish(state);
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
    if app.autoplay.on {
        // The teacher's steps drive a follower; its own clock would race them.
        app.autoplay.on = false;
    }
    let wanted = TrainingState {
        autoplay: false,
        ..target
    };
    if state_of(app) == wanted {
        return;
    }
    let notice = app.notice.take();
    if target.corpus != app.current && target.corpus < app.sources.len() {
        if let Err(e) = app.switch_to(target.corpus) {
            app.notice = Some(format!("cannot follow the teacher: {e}"));
            return;
        }
        app.corpus_scroll = Default::default();
        app.pairs_scroll = 0;
        app.merge_cursor = None;
    }
    // Between frames, like the teacher's own go-to; a newer move of the
    // teacher's takes the place of one still under way.
    let mark = crate::tui::job::Mark {
        merges: target.merges,
        phase: Some(target.phase),
    };
    let heading_there = app.job.as_ref().is_some_and(|j| j.target == Some(mark));
    if !heading_there {
        update(app, Action::Follow(mark));
    }
    app.notice = notice;
}
