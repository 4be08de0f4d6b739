//! Training moves: a step, a go-to or reset as a job, following the
//! teacher, and what the footer says about them.

use super::*;
use crate::app::Loaded;

pub(super) fn step(app: &mut App) {
    match app.trainer_mut().step() {
        Err(reason) => {
            app.autoplay.on = false;
            app.notice = Some(format!("training stopped: {reason}"));
        }
        Ok(_) => say_if_done(app),
    }
}

/// Say so as soon as the merge just made was the last one training will
/// make, rather than on the next key.
pub(super) fn say_if_done(app: &mut App) {
    if let Some(reason) = app.training_end() {
        let n = app.trainer().merges().len();
        app.autoplay.on = false;
        app.notice = Some(format!(
            "merge {n} was the last: {reason} (p undoes, g goes back)"
        ));
    }
}

pub(super) fn goto(app: &mut App, n: usize) {
    let reached = app.trainer_mut().seek(n);
    if reached < n {
        let why = app
            .trainer()
            .stop_reason()
            .map_or_else(String::new, |r| format!(": {r}"));
        app.notice = Some(format!("training stops at merge {reached}{why}"));
    }
}

/// Go to merge `n` as a job: its first slice now, the rest between frames
/// (or on another thread), Esc going back to where training stands now.
pub(super) fn start_seek(app: &mut App, n: usize, what: String) {
    app.autoplay.on = false;
    let trainer = app.trainer();
    let origin = Mark::of(trainer);
    let (job, work) = Job::seek(trainer, Mark::seek(n), what, Some(origin));
    start_job(app, job, work);
}

/// Make `job` the one under way, hand its work (if any) to another
/// thread, and run its first slice now.
pub(super) fn start_job(app: &mut App, job: Job, work: Option<Work>) {
    app.jobs.current = Some(job);
    app.jobs.work.extend(work);
    job_more(app);
}

/// Take training to the teacher's `target` as a job Esc cannot cancel; it
/// takes the place of any job under way (an earlier move of the teacher's).
pub(super) fn follow_to(app: &mut App, target: Mark) {
    app.autoplay.on = false;
    app.jobs.current = None;
    let what = format!("following the teacher to merge {}", target.merges);
    let (job, work) = Job::seek(app.trainer(), target, what, None);
    app.scroll.pairs = 0;
    start_job(app, job, work);
}

/// A follower takes the teacher's own trainer, already where the teacher
/// is: no training of its own however far the teacher went, and no copy.
pub fn adopt(app: &mut App, corpus: usize, trainer: Arc<bpeek_core::Trainer>) {
    app.autoplay.on = false;
    app.jobs.current = None;
    if corpus != app.current {
        app.scroll.corpus = Default::default();
        app.scroll.merge_cursor = None;
    }
    // The same corpus counted keeps its line index; another gets its own.
    let same = |l: &Loaded| std::ptr::eq(l.trainer.corpus(), trainer.corpus());
    let old = if corpus == app.current {
        let here = app.loaded_mut();
        if same(here) {
            Some(std::mem::replace(&mut here.trainer, trainer))
        } else {
            Some(std::mem::replace(here, Loaded::shared(trainer)).trainer)
        }
    } else {
        let (loaded, old) = match app.take_loaded(corpus) {
            Some(mut loaded) if same(&loaded) => {
                let old = std::mem::replace(&mut loaded.trainer, trainer);
                (loaded, Some(old))
            }
            other => (Loaded::shared(trainer), other.map(|l| l.trainer)),
        };
        app.make_current(corpus, loaded);
        old
    };
    // Freeing a big trainer of its own takes a while: not here. One that
    // others hold too (the teacher's, most often) is only let go of: a
    // thread and a frame more per follower and step would cost a class
    // twice the work of its steps.
    if let Some(old) = old {
        if Arc::strong_count(&old) > 1 {
            drop(old);
        } else {
            app.jobs.work.push(Work::new(move || drop(old)));
        }
    }
    app.scroll.pairs = 0;
    follow_round(app);
    // The other columns of a comparison go where the adopted one stands.
    super::compare::refresh(app, std::time::Instant::now() + crate::job::SLICE);
}

/// A training key pressed during a job. During a lesson's step it waits
/// its turn (a class presses Space and Left quicker than a step back
/// replays), a few at most; otherwise it is told to wait.
pub(super) fn wait_for_job(app: &mut App, action: Action) {
    let lesson_step = app
        .jobs
        .current
        .as_ref()
        .is_some_and(|j| j.lesson_at.is_some());
    if lesson_step && app.jobs.queued.len() < QUEUED_KEYS {
        app.jobs.queued.push(action);
    } else {
        app.notice = Some(busy_notice(app));
    }
}

/// At most this many keys wait for a lesson's step.
const QUEUED_KEYS: usize = 8;

/// The keys that waited for the job just done, in the order pressed
/// (until one of them starts a job of its own: the rest wait for that).
fn run_queued(app: &mut App) {
    while app.jobs.current.is_none() && !app.jobs.queued.is_empty() {
        let action = app.jobs.queued.remove(0);
        super::update(app, action);
    }
}

/// What a training key pressed during a job is told.
pub(super) fn busy_notice(app: &App) -> String {
    let what = app.jobs.current.as_ref().map_or("", |j| j.what.as_str());
    match app.jobs.current.as_ref().and_then(|j| j.origin) {
        Some(_) => format!(
            "{what} is under way: wait, or {} cancels it",
            keymap::keys_of(&Action::CancelJob)
        ),
        None => format!("{what} is under way: wait"),
    }
}

/// The next slice of the job under way, or its thread's result if it has
/// one.
pub(super) fn job_more(app: &mut App) {
    let Some(job) = app.jobs.current.as_ref() else {
        return;
    };
    let finished = match &job.run {
        Run::Here { target } => {
            let target = *target;
            let deadline = Instant::now() + app.jobs.slice;
            // Each slice moves the table: its winner is the top row.
            app.scroll.pairs = 0;
            move_until(app.trainer_mut(), target, deadline)
        }
        Run::Steps { target } => {
            let deadline = Instant::now() + app.jobs.slice;
            unigram::steps_until(app, *target, deadline)
        }
        Run::Replay(away) | Run::Open(away) => match away.take() {
            None => false,
            Some(Ok((trainer, lines))) => {
                let loaded = app.loaded_mut();
                let old = std::mem::replace(&mut loaded.trainer, Arc::new(trainer));
                if let Some(lines) = lines {
                    loaded.lines = Arc::new(lines);
                }
                // Freeing a big trainer takes a while of its own: not here.
                app.jobs.work.push(Work::new(move || drop(old)));
                app.scroll.pairs = 0;
                true
            }
            Some(Err(e)) => {
                let job = app.jobs.current.take().expect("a job is under way");
                if job.is_opening() {
                    app.jobs.failed = Some(e);
                    app.quit = true;
                } else {
                    app.notice = Some(format!("{} failed: {e}", job.what));
                }
                return;
            }
        },
    };
    if finished {
        finish_job(app);
    }
}

/// The job is done: say so if it did not reach what it was asked for, or
/// if it was itself the way back from a cancelled one.
pub(super) fn finish_job(app: &mut App) {
    let Some(job) = app.jobs.current.take() else {
        return;
    };
    // A "wait" said while it ran is out of date now.
    app.notice = None;
    let reached = app.trainer().merges().len();
    if app.unigram.is_some() {
        app.notice = unigram::finished_notice(app, &job);
    } else if job.returning {
        app.notice = Some(format!("cancelled: back at merge {reached}"));
    } else if let Some(n) = job.target.map(|t| t.merges)
        && reached < n
    {
        let why = app
            .trainer()
            .stop_reason()
            .map_or_else(String::new, |r| format!(": {r}"));
        app.notice = Some(format!("training stops at merge {reached}{why}"));
    }
    if !job.then.is_empty() {
        run_lesson_script(app, job.then, job.what, job.origin, job.lesson_at);
        if app.jobs.current.is_some() {
            // A step further on: the keys wait for that.
            return;
        }
    }
    follow_round(app);
    run_queued(app);
}

/// Esc during a job: stop it and go back to where training stood. A job
/// on another thread never touched the trainer on screen, so that is
/// at once; steps and undos made here are taken back as a job of its own.
pub(super) fn cancel_job(app: &mut App) {
    let Some(job) = app.jobs.current.take() else {
        return;
    };
    app.jobs.queued.clear();
    let Some(origin) = job.origin else {
        // Already on the way back: that cannot be cancelled.
        app.notice = Some(format!("{} is under way: wait", job.what));
        app.jobs.current = Some(job);
        return;
    };
    if let (Some(at), Some(lesson)) = (job.lesson_at, app.lesson.as_mut()) {
        lesson.at = at;
    }
    drop(job);
    if app.unigram.is_some() {
        return unigram::cancel_to(app, origin.merges);
    }
    if Mark::of(app.trainer()) == origin {
        app.notice = Some(format!("cancelled: still at merge {}", origin.merges));
        return;
    }
    let what = format!("going back to merge {}", origin.merges);
    let (mut back, work) = Job::seek(app.trainer(), origin, what, None);
    back.returning = true;
    start_job(app, back, work);
}

/// While the corpus opens, only quitting, the screen size and the loads
/// of other tokenizers count; the rest waits for the corpus.
pub(super) fn while_opening(app: &mut App, action: Action) {
    app.dirty = true;
    match action {
        Action::Quit | Action::CancelJob => app.quit = true,
        Action::Resize(w, h) => app.size = (w, h),
        Action::Redraw => app.redraw = true,
        Action::Loaded(done) => {
            app.toks.finish(done);
        }
        Action::JobMore => {
            job_more(app);
            if !app.opening_job() && !app.quit {
                after_change(app);
            }
        }
        _ => {}
    }
}

pub(super) fn speed_notice(app: &App) -> String {
    let state = if app.autoplay.on { "on" } else { "off" };
    let rate = app.autoplay.per_second();
    let what = match (app.autoplay.by_phase, rate == 1.0) {
        (true, true) => "phase",
        (true, false) => "phases",
        (false, true) => "merge",
        (false, false) => "merges",
    };
    format!("autoplay {state}, {rate} {what}/s (+/- to change)")
}

const TYPED: &str = "typed ";
const OWN_TYPED: &str = "own typed ";

/// Whether a corpus of this name was made of typed text (in one session:
/// its text is not the class's).
pub(super) fn is_typed(name: &str) -> bool {
    name.starts_with(TYPED) || name.starts_with(OWN_TYPED)
}

/// Whether `name` is a corpus a student typed (a class's other sessions
/// never have it).
pub(super) fn is_typed_by_student(name: &str) -> bool {
    name.starts_with(OWN_TYPED)
}

/// The name of the next corpus made of typed text: numbered in this
/// explorer, and in a class a student's called "own", so that it never
/// takes the name of the teacher's (which a follower is shown).
fn typed_corpus_name(app: &App) -> String {
    let student = app
        .classroom
        .as_ref()
        .is_some_and(|c| c.role == crate::class::Role::Student);
    let prefix = if student { OWN_TYPED } else { TYPED };
    let n = app
        .sources
        .iter()
        .filter(|s| s.name.starts_with(prefix))
        .count()
        + 1;
    format!("{prefix}{n}")
}

/// The encode box's text as a corpus of its own (`typed 1`, …), trained
/// from merge 0 with the explorer's options. The other corpora stay where
/// they were (`c` goes back to them).
pub(super) fn train_on_typed(app: &mut App) {
    if app.encode.text.is_empty() {
        app.notice =
            Some("the encode box is empty: e, type the text to train on, Esc, then u".into());
        return;
    }
    let options = &app.options;
    let config = match crate::options::input::trainer_config(options) {
        Ok(config) => bpeek_core::TrainerConfig {
            text_positions: true,
            keep_history: true,
            ..config
        },
        Err(e) => {
            app.notice = Some(format!("cannot train on the typed text: {e}"));
            return;
        }
    };
    let name = typed_corpus_name(app);
    let text = app.encode.text.clone().into_bytes();
    let bytes = text.len();
    match crate::options::input::trainer_for_text(options, &name, text, config) {
        Ok(trainer) => {
            app.sources.push(crate::app::Source {
                name: name.clone(),
                loaded: None,
            });
            let i = app.sources.len() - 1;
            app.make_current(i, Loaded::new(trainer));
            app.scroll.corpus = CorpusScroll::default();
            app.scroll.pairs = 0;
            app.scroll.merge_cursor = None;
            app.autoplay.on = false;
            app.notice = Some(format!(
                "corpus {name}: the encode box's {}, no merges yet (c: the other corpora)",
                crate::panes::why::plural(bytes as u64, "byte")
            ));
        }
        Err(e) => app.notice = Some(format!("cannot train on the typed text: {e}")),
    }
}

pub(super) fn switch_corpus(app: &mut App, by: usize) {
    let next = (app.current + by) % app.sources.len();
    match app.switch_to(next) {
        Ok(()) => {
            app.scroll.corpus = CorpusScroll::default();
            app.scroll.pairs = 0;
            app.scroll.merge_cursor = None;
            app.autoplay.on = false;
            app.notice = Some(format!(
                "corpus {}: {}",
                app.corpus_name(),
                crate::panes::why::plural(app.trainer().corpus().source_len() as u64, "byte")
            ));
        }
        Err(e) => app.notice = Some(format!("cannot open {}: {e}", app.sources[next].name)),
    }
}

/// Take back the last merge (or the round's choice).
pub(super) fn undo(app: &mut App) {
    if !app.trainer_mut().step_back() {
        app.notice = Some("at merge 0: nothing to undo".into());
    }
}

/// One phase of the round on.
pub(super) fn advance(app: &mut App) {
    match app.trainer_mut().advance() {
        Err(reason) => {
            app.autoplay.on = false;
            app.notice = Some(format!("training stopped: {reason}"));
        }
        Ok(()) if matches!(app.trainer().phase(), Phase::Merged) => say_if_done(app),
        Ok(()) => {}
    }
}

/// Autoplay on or off, by merge or `by_phase` (nothing to play once
/// training has stopped). The other key while playing switches to its way
/// of playing.
pub(super) fn toggle_autoplay(app: &mut App, by_phase: bool) {
    let playing = app.autoplay.on;
    match app.training_end() {
        Some(reason) if !playing => {
            app.notice = Some(format!("nothing to play: training has stopped ({reason})"));
        }
        _ if playing && app.autoplay.by_phase == by_phase => app.autoplay.on = false,
        _ => {
            app.autoplay.on = true;
            app.autoplay.by_phase = by_phase;
            app.notice = Some(speed_notice(app));
        }
    }
}

/// Autoplay one speed up.
pub(super) fn faster(app: &mut App) {
    app.autoplay.speed = (app.autoplay.speed + 1).min(SPEEDS.len() - 1);
    app.notice = Some(speed_notice(app));
}

/// Autoplay one speed down.
pub(super) fn slower(app: &mut App) {
    app.autoplay.speed = app.autoplay.speed.saturating_sub(1);
    app.notice = Some(speed_notice(app));
}
