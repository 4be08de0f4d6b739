//! The explorer in Unigram mode: the actions that move the Unigram
//! trainer or its panes are answered here; the others go on to the
//! explorer's own updates (focus, help, the encode box, the fertility
//! view), and the ones that mean nothing for Unigram are told so.

use super::*;
use crate::app::unigram::UnigramView;
use crate::panes::piece_table;

/// Answer `action` in Unigram mode; give it back if the explorer's own
/// updates answer it.
pub(super) fn update(app: &mut App, action: Action) -> Option<Action> {
    if close_lattice_first(app, &action) {
        return None;
    }
    if means_nothing(&action) {
        app.notice = Some(nothing_notice(&action));
        return None;
    }
    match action {
        Action::Step | Action::Advance => step(app),
        Action::Tick => step(app),
        Action::Undo => undo(app),
        Action::Reset if view(app).trainer.step_count() == 0 => {
            app.notice = Some("already at step 0, the seeding".into());
        }
        Action::Reset => seek(app, 0, going_to(0)),
        Action::Goto(n) => seek(app, n, going_to(n)),
        Action::PromptSubmit => prompt_submit(app),
        Action::ToggleAutoplay | Action::ToggleAutoplayPhases => toggle_autoplay(app),
        Action::Scroll(by) if app.input == InputMode::Normal && !app.fert.open => {
            if !scroll(app, by) {
                return Some(action);
            }
        }
        Action::OpenTree if app.input == InputMode::Normal && !app.fert.open => open_lattice(app),
        Action::CloseTree => view_mut(app).lattice = false,
        Action::SortPieces => {
            let u = view_mut(app);
            u.sort = u.sort.next();
            u.piece_row = 0;
            app.notice = Some(format!("pieces sorted by {}", view(app).sort.name()));
        }
        other => return Some(other),
    }
    None
}

/// Actions of BPE training and its panes that have no meaning for a
/// Unigram training: the footer leaves them out and a key for one is
/// told so.
pub fn means_nothing(action: &Action) -> bool {
    matches!(
        action,
        Action::NextCorpus
            | Action::PrevCorpus
            | Action::TrainOnTyped
            | Action::FindNext
            | Action::Toggle(Toggle::ChunkTable | Toggle::ChangedOnly | Toggle::Hex)
            | Action::OpenVocab
            | Action::OpenAddColumn
            | Action::AddColumn(_)
            | Action::DropColumn
            | Action::FocusColumn(_)
            | Action::AskClass
            | Action::SelectMerge(_)
            | Action::SelectMergeOf(_)
    )
}

fn nothing_notice(action: &Action) -> String {
    let what = match action {
        Action::NextCorpus | Action::PrevCorpus => "another corpus",
        Action::TrainOnTyped => "training on the typed text",
        Action::FindNext => "finding the highlighted pair",
        Action::Toggle(Toggle::ChunkTable) => "the chunk table",
        Action::Toggle(Toggle::ChangedOnly) => "the pairs a merge changed",
        Action::Toggle(Toggle::Hex) => "characters split as hex",
        Action::OpenVocab => "the vocabulary search",
        Action::OpenAddColumn | Action::AddColumn(_) | Action::DropColumn => "compare columns",
        Action::FocusColumn(_) => "compare columns",
        Action::AskClass => "the question which pair wins",
        _ => "merges",
    };
    format!("{what}: not in Unigram mode (the explorer of BPE training has it)")
}

/// An open lattice closes on any key but the arrows, which pick the word
/// it shows; true if the key was the one that closes it.
fn close_lattice_first(app: &mut App, action: &Action) -> bool {
    let open = app.unigram.as_ref().is_some_and(|u| u.lattice);
    if !open
        || action.is_background()
        || matches!(action, Action::Scroll(Scroll::Up | Scroll::Down))
    {
        return false;
    }
    view_mut(app).lattice = false;
    *action == Action::CloseTree
}

fn view(app: &App) -> &UnigramView {
    app.unigram.as_ref().expect("Unigram mode")
}

fn view_mut(app: &mut App) -> &mut UnigramView {
    app.unigram.as_mut().expect("Unigram mode")
}

/// One step: a phase of a round (an EM iteration, the scoring or the
/// prune).
fn step(app: &mut App) {
    let result = view_mut(app)
        .trainer_mut()
        .step()
        .map(|s| (s.phase, s.round));
    match result {
        Err(stop) => {
            app.autoplay.on = false;
            app.notice = Some(format!("training stopped: {stop}"));
        }
        Ok(_) => {
            if let Err(stop) = view(app).trainer.next_phase() {
                let n = view(app).trainer.step_count();
                app.autoplay.on = false;
                app.notice = Some(format!(
                    "step {n} was the last: {stop} (p undoes, g goes back)"
                ));
            }
        }
    }
}

fn undo(app: &mut App) {
    if !view_mut(app).trainer_mut().step_back() {
        app.notice = Some("already at step 0, the seeding: nothing to undo".into());
    }
}

/// Go to step `n` as a job: a step at a time between frames (an EM
/// iteration on a big corpus takes a while), Esc going back to the step
/// training stands at now.
fn seek(app: &mut App, n: usize, what: String) {
    app.autoplay.on = false;
    let here = view(app).trainer.step_count();
    if n == here {
        return;
    }
    start_job(app, Job::unigram_steps(here, n, what, Some(here)), None);
}

/// Where a Unigram go-to lands, in words.
fn going_to(n: usize) -> String {
    if n == 0 {
        "back to step 0".into()
    } else {
        format!("going to step {n}")
    }
}

/// One slice of a Unigram go-to: steps toward `target` until training is
/// there or can go no further (true), or the slice's time is nearly up
/// (false), timed as a BPE go-to's moves are.
pub(super) fn steps_until(app: &mut App, target: usize, deadline: Instant) -> bool {
    let trainer = view_mut(app).trainer_mut();
    crate::job::moves_until(deadline, || match trainer.step_count().cmp(&target) {
        std::cmp::Ordering::Greater => trainer.step_back(),
        std::cmp::Ordering::Less => trainer.step().is_ok(),
        std::cmp::Ordering::Equal => false,
    })
}

/// Where a Unigram go-to that just ended left training, said if it is
/// not where it was asked to go.
pub(super) fn finished_notice(app: &App, job: &Job) -> Option<String> {
    let reached = view(app).trainer.step_count();
    if job.returning {
        return Some(format!("cancelled: back at step {reached}"));
    }
    let n = job.target?.merges;
    (reached < n).then(|| {
        let why = view(app)
            .trainer
            .next_phase()
            .err()
            .map_or_else(String::new, |s| format!(": {s}"));
        format!("training stops at step {reached}{why}")
    })
}

/// Esc during a Unigram go-to: back to the step it started from, as a job
/// of its own (the steps back take a while on a big corpus too).
pub(super) fn cancel_to(app: &mut App, origin: usize) {
    let here = view(app).trainer.step_count();
    if here == origin {
        app.notice = Some(format!("cancelled: still at step {origin}"));
        return;
    }
    let what = format!("going back to step {origin}");
    let mut back = Job::unigram_steps(here, origin, what, None);
    back.returning = true;
    start_job(app, back, None);
}

/// A follower goes to the teacher's step `n`, saying nothing.
pub(super) fn follow_to_step(app: &mut App, n: usize) {
    // The teacher's step takes the place of a go-to of one's own.
    app.jobs.current = None;
    let u = view_mut(app);
    if u.trainer.step_count() != n {
        u.trainer_mut().seek(n);
    }
    after_change(view_mut(app));
}

fn prompt_submit(app: &mut App) {
    let typed = match &app.input {
        InputMode::Goto(digits) => digits.clone(),
        _ => String::new(),
    };
    match typed.parse() {
        Ok(n) => {
            app.input = InputMode::Normal;
            seek(app, n, going_to(n));
        }
        Err(_) => {
            app.notice = Some("go to: type a step number, then Enter (Esc cancels)".into());
        }
    }
}

fn toggle_autoplay(app: &mut App) {
    if app.autoplay.on {
        app.autoplay.on = false;
        return;
    }
    match view(app).trainer.next_phase() {
        Err(stop) => app.notice = Some(format!("nothing to play: training has stopped ({stop})")),
        Ok(_) => {
            app.autoplay.on = true;
            // Every Unigram step is one phase already.
            app.autoplay.by_phase = false;
            app.notice = Some(format!(
                "autoplay: {} steps/s (+ and - change it)",
                app.autoplay.per_second()
            ));
        }
    }
}

/// Move the selection of the focused Unigram pane; false for a pane this
/// mode does not change (the encode box).
fn scroll(app: &mut App, by: Scroll) -> bool {
    let focus = if view(app).lattice {
        Focus::Corpus
    } else {
        app.focus
    };
    let page = page(app, focus);
    let u = view(app);
    let rows = match focus {
        Focus::Corpus => u.trainer.words().len(),
        Focus::Pairs => u.trainer.pieces().alive().len(),
        Focus::Merges => u.trainer.gone_count(),
        Focus::Encode => return false,
    };
    let last = rows.saturating_sub(1);
    let u = view_mut(app);
    let at = match focus {
        Focus::Corpus => &mut u.word,
        Focus::Pairs => &mut u.piece_row,
        _ => &mut u.removal_row,
    };
    *at = by.apply((*at).min(last), page, last);
    true
}

fn open_lattice(app: &mut App) {
    if app.focus == Focus::Pairs {
        // From the piece table: a word whose cut takes the piece.
        let u = view(app);
        let rows = piece_table::rows(&u.trainer, u.sort);
        let piece = rows.get(u.piece_row).map(|r| r.piece);
        let word = piece.and_then(|p| {
            (0..u.trainer.words().len()).find(|&w| u.trainer.cut(w).iter().any(|(_, q)| *q == p))
        });
        match word {
            Some(w) => view_mut(app).word = w,
            None => {
                app.notice = Some(
                    "no word's cut takes this piece now: its lattice is of the selected word"
                        .into(),
                );
            }
        }
    }
    if view(app).trainer.words().is_empty() {
        app.notice = Some("the corpus holds no word: no lattice to draw".into());
        return;
    }
    view_mut(app).lattice = true;
}

/// Keep the panes' selections within what training shows now.
pub(super) fn after_change(u: &mut UnigramView) {
    u.refresh_changed();
    u.word = u.word.min(u.trainer.words().len().saturating_sub(1));
    u.piece_row = u
        .piece_row
        .min(u.trainer.pieces().alive().len().saturating_sub(1));
    u.removal_row = u.removal_row.min(u.trainer.gone_count().saturating_sub(1));
}
