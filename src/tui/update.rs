//! All behaviour: `update` takes the model and one action and leaves the
//! model as the screen should show it next. Nothing here draws or waits.

use crate::bpe::Phase;
use crate::tui::action::{Action, Scroll};
use crate::tui::app::{App, Boundaries, CorpusScroll, Focus, InputMode, SPEEDS};
use crate::tui::corpus_text::CorpusLook;
use crate::tui::fertility::{Metric, Panel, TextSource, merge_rows, numbers};
use crate::tui::fertility_layout::plan;
use crate::tui::job::{Job, Run, Work, move_until};
use crate::tui::keymap;
use crate::tui::layout::{self, inner};
use crate::tui::lesson;
use crate::tui::mark::Mark;
use crate::tui::merge_tree;
use std::sync::Arc;
use std::time::Instant;

pub fn update(app: &mut App, action: Action) {
    if matches!(action, Action::Tick) && !app.autoplay.on {
        return;
    }
    if app.opening_job() {
        return while_opening(app, action);
    }
    if !action.is_background() {
        app.notice = None;
    }
    app.dirty = true;
    if app.job.is_some() && action.waits_for_job(app.goto_is_rank()) {
        app.notice = Some(busy_notice(app));
        return;
    }
    if app.tree.is_some()
        && !action.is_background()
        && !matches!(action, Action::Scroll(Scroll::Up | Scroll::Down))
    {
        // Anything else the user asks for is about the screen below.
        app.tree = None;
        if action == Action::CloseTree {
            return;
        }
    }
    if let Some(undone) = action.changes_shown() {
        app.changed_by_undo = undone;
    }
    let trains = action.trains();
    if trains {
        // The winner of a round is the top row of the pair table.
        app.pairs_scroll = 0;
    }
    match action {
        Action::Step | Action::Tick => step(app),
        Action::Undo => {
            if !app.trainer_mut().undo() {
                app.notice = Some("at merge 0: nothing to undo".into());
            }
        }
        Action::Advance => match app.trainer_mut().advance() {
            Err(reason) => app.notice = Some(format!("training stopped: {reason}")),
            Ok(()) if matches!(app.trainer().phase(), Phase::Merged) => say_if_done(app),
            Ok(()) => {}
        },
        Action::Reset => start_seek(app, 0, "back to merge 0".into()),
        Action::EncodeMore => app.encode.encode_more(&app.toks),
        // The view's refresh below measures the next tokenizers.
        Action::MeasureMore => {}
        Action::JobMore => job_more(app),
        Action::Follow(target) => follow_to(app, target),
        Action::AskClass => crate::tui::question::ask(app),
        Action::BallotMove(down) => crate::tui::question::move_cursor(app, down),
        Action::Vote => crate::tui::question::vote(app),
        Action::CancelJob => cancel_job(app),
        Action::Goto(n) => goto(app, n),
        Action::OpenGoto => app.input = InputMode::Goto(String::new()),
        Action::PromptType(c) => {
            if let InputMode::Goto(digits) = &mut app.input {
                if !c.is_ascii_digit() {
                    app.notice = Some(format!("go to: {c:?} is not a digit; type a number"));
                } else if digits.len() < 9 {
                    digits.push(c);
                } else {
                    app.notice = Some("go to: at most 9 digits".into());
                }
            }
        }
        Action::PromptDelete => {
            if let InputMode::Goto(digits) = &mut app.input {
                digits.pop();
            }
        }
        Action::PromptSubmit => {
            let typed = match &app.input {
                InputMode::Goto(digits) => digits.clone(),
                _ => String::new(),
            };
            match typed.parse() {
                Ok(n) => {
                    app.input = InputMode::Normal;
                    if app.goto_is_rank() {
                        app.fert.merge_row = Some(n);
                    } else {
                        start_seek(app, n, format!("going to merge {n}"));
                    }
                }
                // Nothing typed: the prompt stays open for the number.
                Err(_) if app.goto_is_rank() => {
                    app.notice = Some("go to: type a rank, then Enter (Esc cancels)".into());
                }
                Err(_) => {
                    app.notice =
                        Some("go to: type a merge number, then Enter (Esc cancels)".into());
                }
            }
        }
        Action::PromptCancel => app.input = InputMode::Normal,
        Action::ToggleAutoplay => match app.training_end() {
            Some(reason) if !app.autoplay.on => {
                app.notice = Some(format!("nothing to play: training has stopped ({reason})"));
            }
            _ => {
                app.autoplay.on = !app.autoplay.on;
                if app.autoplay.on {
                    app.notice = Some(speed_notice(app));
                }
            }
        },
        Action::Faster => {
            app.autoplay.speed = (app.autoplay.speed + 1).min(SPEEDS.len() - 1);
            app.notice = Some(speed_notice(app));
        }
        Action::Slower => {
            app.autoplay.speed = app.autoplay.speed.saturating_sub(1);
            app.notice = Some(speed_notice(app));
        }
        Action::FocusNext => cycle_focus(app, 1),
        Action::FocusPrev => cycle_focus(app, Focus::ORDER.len() - 1),
        Action::Scroll(by) => scroll(app, by),
        Action::FindNext => find_next(app),
        Action::StartEditing => {
            app.input = InputMode::Editing;
            app.focus = Focus::Encode;
            app.fert.source = TextSource::Pasted;
        }
        Action::StopEditing => app.input = InputMode::Normal,
        Action::Type(c) => {
            let dropped = app.encode.insert(c.encode_utf8(&mut [0; 4]));
            note_full(app, dropped);
            app.fert.source = TextSource::Pasted;
        }
        Action::Paste(text) => paste(app, &text),
        Action::MoveCursor(to) => app.encode.move_cursor(to),
        Action::DeleteBack => app.encode.delete_back(),
        Action::DeleteForward => app.encode.delete_forward(),
        Action::ClearEncode => app.encode.clear(),
        Action::ToggleWhitespace => app.show_whitespace = !app.show_whitespace,
        Action::ToggleHex => app.show_hex = !app.show_hex,
        Action::Redraw => app.redraw = true,
        Action::ToggleBoundaries => {
            app.boundaries = match app.boundaries {
                Boundaries::Styles => Boundaries::Separators,
                Boundaries::Separators => Boundaries::Styles,
            }
        }
        Action::NextCorpus => switch_corpus(app, 1),
        Action::PrevCorpus => switch_corpus(app, app.sources.len() - 1),
        Action::ToggleHelp => {
            app.input = match app.input {
                InputMode::Help => InputMode::Normal,
                _ => InputMode::Help,
            };
            app.help_scroll = 0;
        }
        Action::ToggleFertility => {
            app.fert.open = !app.fert.open;
            if app.fert.open {
                app.toks.request_all();
                app.fert.source = if app.encode.text.is_empty() {
                    TextSource::Samples
                } else {
                    TextSource::Pasted
                };
            }
        }
        Action::NextPanel => cycle_panel(app, 1),
        Action::PrevPanel => cycle_panel(app, Panel::ORDER.len() - 1),
        Action::NextTokenizer => select_tokenizer(app, 1),
        Action::PrevTokenizer => select_tokenizer(app, -1),
        Action::NextToken if !app.fert.open => select_encode_token(app, 1),
        Action::PrevToken if !app.fert.open => select_encode_token(app, -1),
        Action::NextToken => app.fert.token += 1,
        Action::PrevToken => app.fert.token = app.fert.token.saturating_sub(1),
        Action::OpenTree => open_tree(app),
        Action::LessonNext => lesson_next(app),
        Action::LessonBack => lesson_back(app),
        Action::CloseTree => app.tree = None,
        Action::ToggleTextSource => {
            app.fert.source = match app.fert.effective_source(&app.encode.text) {
                TextSource::Samples if app.encode.text.is_empty() => {
                    app.notice = Some(
                        "no pasted text yet: paste some, or press e and type (Esc when done)"
                            .into(),
                    );
                    TextSource::Samples
                }
                TextSource::Samples => TextSource::Pasted,
                TextSource::Pasted => TextSource::Samples,
            };
        }
        Action::NextMetric => {
            app.fert.metric = cycle(&Metric::ORDER, app.fert.metric, 1);
        }
        Action::Loaded(done) => {
            let waited_for = app.toks.selected_slot().label.clone();
            for (label, error) in app.toks.finish(done) {
                match error {
                    Some(e) => app.notice = Some(format!("cannot load {label}: {e}")),
                    // The encode box was waiting for it: say it is ready.
                    None if label == waited_for && !app.encode.text.is_empty() => {
                        app.notice = Some(format!("{label} loaded"));
                    }
                    None => {}
                }
            }
        }
        Action::ToggleZoom => {
            app.zoomed = !app.zoomed;
            if app.zoomed {
                app.notice = Some(format!("{} pane zoomed (z returns)", app.focus.name()));
            }
        }
        Action::ToggleChunkTable => {
            app.chunk_table = !app.chunk_table;
            app.focus = Focus::Corpus;
        }
        Action::ToggleChangedOnly => {
            app.changed_only = !app.changed_only;
            app.pairs_scroll = 0;
            app.focus = Focus::Pairs;
            app.notice = Some(
                if app.changed_only {
                    "pairs: only those the last merge changed (d: all)"
                } else {
                    "pairs: all, in selection order"
                }
                .into(),
            );
        }
        Action::Resize(w, h) => app.size = (w, h),
        Action::Quit => app.quit = true,
    }
    if trains {
        follow_round(app);
    }
    record(app);
    after_change(app);
}

/// Keep the views consistent with the trainer after any action.
fn after_change(app: &mut App) {
    let merges = app.trainer().merges().len();
    if app.merge_cursor.is_some_and(|i| i + 1 >= merges) {
        // At (or past) the newest merge the list follows training again.
        app.merge_cursor = None;
    }
    let pairs = app.trainer().pairs().len();
    app.pairs_scroll = app.pairs_scroll.min(pairs.saturating_sub(1));
    let lines = app.lines().count();
    if app.corpus_scroll.line >= lines {
        app.corpus_scroll = CorpusScroll::default();
    }
    let current = app.current;
    let loaded = app.sources[current]
        .loaded
        .as_ref()
        .expect("the current corpus is always loaded");
    // The trained tokenizer is rebuilt only when something shows it.
    let encoding_trained = app.toks.is_trained(app.toks.selected) && !app.encode.text.is_empty();
    if app.fert.open || encoding_trained {
        app.toks.sync_trained(current, &loaded.trainer);
    }
    app.encode.refresh(&app.toks);
    if app.encode_token.is_some_and(|i| i >= app.encode.ids.len()) {
        app.encode_token = None;
    }
    if app.input == InputMode::Editing {
        // Editing shows the cursor; leaving shows the end again.
        app.encode.scroll = 0;
    }
    if app.fert.open {
        let generation = app.encode.generation();
        let deadline = Instant::now() + app.slice;
        app.fert
            .refresh(&app.toks, &app.encode.text, generation, deadline);
    }
}

fn cycle_panel(app: &mut App, by: usize) {
    app.fert.panel = cycle(&Panel::ORDER, app.fert.panel, by);
}

/// The item `by` places after `now` in `order`, round the end.
fn cycle<T: Copy + PartialEq>(order: &[T], now: T, by: usize) -> T {
    let i = order.iter().position(|x| *x == now).unwrap_or(0);
    order[(i + by) % order.len()]
}

fn select_tokenizer(app: &mut App, by: isize) {
    app.toks.select_by(by);
    app.fert.merge_row = None;
    let slot = app.toks.selected_slot();
    if !app.fert.open {
        let state = if slot.is_loading() { " (loading)" } else { "" };
        app.notice = Some(format!("encoding with {}{state}", slot.label));
    }
}

/// Move the cursor of the fertility panel shown.
fn scroll_fertility(app: &mut App, by: Scroll) {
    let page = plan(app, app.size.0, app.size.1).list.max(1);
    let step = |at: usize, last: usize| by.apply(at, page, last);
    let pasted = app.fert.effective_source(&app.encode.text) == TextSource::Pasted;
    match app.fert.panel {
        Panel::Cost if pasted => {
            let last = app.toks.slots.len() - 1;
            app.toks.selected = step(app.toks.selected, last);
            app.toks.request(app.toks.selected);
            app.fert.merge_row = None;
        }
        Panel::Cost => {
            let last = crate::corpora::SAMPLES.len() - 1;
            app.fert.language = step(app.fert.language, last);
        }
        Panel::Scripts => {
            let count = app
                .fert
                .columns
                .iter()
                .filter_map(|c| c.scripts.as_ref().map(|(_, _, s)| s.len()))
                .max()
                .unwrap_or(0);
            let last = count.saturating_sub(page);
            app.fert.script_row = step(app.fert.script_row, last);
        }
        Panel::Digits => {
            app.fert.digit_row = step(app.fert.digit_row, numbers().len() - 1);
        }
        Panel::Merges => {
            let Some(tok) = app.toks.get(app.toks.selected) else {
                return;
            };
            let (rows, first) = merge_rows(tok);
            let at = app.fert.merge_row.unwrap_or(first);
            app.fert.merge_row = Some(step(at, rows.saturating_sub(1)));
        }
    }
}

fn step(app: &mut App) {
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
fn say_if_done(app: &mut App) {
    if let Some(reason) = app.training_end() {
        let n = app.trainer().merges().len();
        app.autoplay.on = false;
        app.notice = Some(format!(
            "merge {n} was the last: {reason} (p undoes, g goes back)"
        ));
    }
}

fn goto(app: &mut App, n: usize) {
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
fn start_seek(app: &mut App, n: usize, what: String) {
    app.autoplay.on = false;
    let trainer = app.trainer();
    let origin = Mark::of(trainer);
    let (job, work) = Job::seek(trainer, Mark::seek(n), what, Some(origin));
    start_job(app, job, work);
}

/// Make `job` the one under way, hand its work (if any) to another
/// thread, and run its first slice now.
fn start_job(app: &mut App, job: Job, work: Option<Work>) {
    app.job = Some(job);
    app.work.extend(work);
    job_more(app);
}

/// Take training to the teacher's `target` as a job Esc cannot cancel; it
/// takes the place of any job under way (an earlier move of the teacher's).
fn follow_to(app: &mut App, target: Mark) {
    app.autoplay.on = false;
    app.job = None;
    let what = format!("following the teacher to merge {}", target.merges);
    let (job, work) = Job::seek(app.trainer(), target, what, None);
    app.pairs_scroll = 0;
    start_job(app, job, work);
}

/// A follower takes the teacher's own trainer, already where the teacher
/// is: no training of its own however far the teacher went, and no copy.
pub fn adopt(app: &mut App, corpus: usize, trainer: Arc<crate::bpe::Trainer>) {
    app.autoplay.on = false;
    app.job = None;
    if corpus != app.current {
        app.corpus_scroll = Default::default();
        app.merge_cursor = None;
    }
    let source = &mut app.sources[corpus];
    let old = match &mut source.loaded {
        Some(loaded) if std::ptr::eq(loaded.trainer.corpus(), trainer.corpus()) => {
            Some(std::mem::replace(&mut loaded.trainer, trainer))
        }
        slot => slot
            .replace(crate::tui::app::Loaded::shared(trainer))
            .map(|l| l.trainer),
    };
    // Freeing a big trainer of its own takes a while: not here.
    if let Some(old) = old {
        app.work.push(Work::new(move || drop(old)));
    }
    app.current = corpus;
    app.pairs_scroll = 0;
    app.changed_by_undo = false;
    follow_round(app);
}

/// What a training key pressed during a job is told.
fn busy_notice(app: &App) -> String {
    let what = app.job.as_ref().map_or("", |j| j.what.as_str());
    match app.job.as_ref().and_then(|j| j.origin) {
        Some(_) => format!(
            "{what} is under way: wait, or {} cancels it",
            keymap::keys_of(&Action::CancelJob)
        ),
        None => format!("{what} is under way: wait"),
    }
}

/// The next slice of the job under way, or its thread's result if it has
/// one.
fn job_more(app: &mut App) {
    let Some(job) = app.job.as_ref() else {
        return;
    };
    let finished = match &job.run {
        Run::Here { target } => {
            let target = *target;
            let deadline = Instant::now() + app.slice;
            // Each slice moves the table: its winner is the top row.
            app.pairs_scroll = 0;
            move_until(app.trainer_mut(), target, deadline)
        }
        Run::Replay(away) | Run::Open(away) => match away.take() {
            None => false,
            Some(Ok((trainer, lines))) => {
                let loaded = app.loaded_mut();
                let old = std::mem::replace(&mut loaded.trainer, Arc::new(trainer));
                if let Some(lines) = lines {
                    loaded.lines = lines;
                }
                // Freeing a big trainer takes a while of its own: not here.
                app.work.push(Work::new(move || drop(old)));
                app.pairs_scroll = 0;
                true
            }
            Some(Err(e)) => {
                let job = app.job.take().expect("a job is under way");
                if job.is_opening() {
                    app.failed = Some(e);
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
fn finish_job(app: &mut App) {
    let Some(job) = app.job.take() else {
        return;
    };
    // A "wait" said while it ran is out of date now.
    app.notice = None;
    let reached = app.trainer().merges().len();
    if job.returning {
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
    app.changed_by_undo = false;
    if !job.then.is_empty() {
        return run_lesson_script(app, job.then, job.what, job.origin, job.lesson_at);
    }
    follow_round(app);
}

/// Esc during a job: stop it and go back to where training stood. A job
/// on another thread never touched the trainer on screen, so that is
/// at once; steps and undos made here are taken back as a job of its own.
fn cancel_job(app: &mut App) {
    let Some(job) = app.job.take() else {
        return;
    };
    let Some(origin) = job.origin else {
        // Already on the way back: that cannot be cancelled.
        app.notice = Some(format!("{} is under way: wait", job.what));
        app.job = Some(job);
        return;
    };
    if let (Some(at), Some(lesson)) = (job.lesson_at, app.lesson.as_mut()) {
        lesson.at = at;
    }
    drop(job);
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
fn while_opening(app: &mut App, action: Action) {
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

fn speed_notice(app: &App) -> String {
    let state = if app.autoplay.on { "on" } else { "off" };
    let rate = app.autoplay.per_second();
    let merges = if rate == 1.0 { "merge" } else { "merges" };
    format!("autoplay {state}, {rate} {merges}/s (+/- to change)")
}

fn cycle_focus(app: &mut App, by: usize) {
    app.focus = cycle(&Focus::ORDER, app.focus, by);
}

fn paste(app: &mut App, text: &str) {
    match &mut app.input {
        InputMode::Goto(digits) => digits.extend(text.chars().filter(char::is_ascii_digit)),
        InputMode::Help => {}
        InputMode::Normal | InputMode::Editing => {
            // Pasted text can only be meant for the encode box.
            app.input = InputMode::Editing;
            app.focus = Focus::Encode;
            let dropped = app.encode.insert(text);
            note_full(app, dropped);
            app.fert.source = TextSource::Pasted;
        }
    }
}

/// Say so when the encode box had no room for all of an insertion.
fn note_full(app: &mut App, dropped: usize) {
    if dropped > 0
        && let Some(limit) = app.encode.limit
    {
        app.notice = Some(format!(
            "the encode box holds at most {} KB here: {dropped} bytes left out",
            limit / 1024
        ));
    }
}

fn switch_corpus(app: &mut App, by: usize) {
    let next = (app.current + by) % app.sources.len();
    match app.switch_to(next) {
        Ok(()) => {
            app.corpus_scroll = CorpusScroll::default();
            app.pairs_scroll = 0;
            app.merge_cursor = None;
            app.autoplay.on = false;
            app.notice = Some(format!(
                "corpus {}: {} bytes",
                app.corpus_name(),
                app.trainer().corpus().text().len()
            ));
        }
        Err(e) => app.notice = Some(format!("cannot open {}: {e}", app.sources[next].name)),
    }
}

/// Rows a page of the focused list holds.
fn page(app: &App, focus: Focus) -> usize {
    let panes = layout::for_app(app);
    let rect = match focus {
        Focus::Corpus => Some(panes.corpus),
        Focus::Pairs => panes.pairs,
        Focus::Merges => panes.merges,
        Focus::Encode => panes.encode,
    };
    // Bordered, and the two tables have a header row.
    let header = usize::from(matches!(focus, Focus::Pairs | Focus::Merges));
    rect.map_or(1, |r| {
        (inner(r).height as usize).saturating_sub(header).max(1)
    })
}

fn scroll(app: &mut App, by: Scroll) {
    if let Some(tree) = &mut app.tree {
        tree.scroll = match by {
            Scroll::Up => tree.scroll.saturating_sub(1),
            _ => (tree.scroll + 1).min(tree.lines.len().saturating_sub(1)),
        };
        return;
    }
    if app.input == InputMode::Help {
        let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
        let g = layout::help_geometry(app, area);
        let page = g.rect.height.saturating_sub(3).max(1) as usize;
        let at = app.help_scroll.min(g.max_scroll as usize);
        app.help_scroll = by.apply(at, page, g.max_scroll as usize);
        return;
    }
    if app.fert.open {
        scroll_fertility(app, by);
        return;
    }
    let page = page(app, app.focus);
    match app.focus {
        Focus::Corpus if app.chunk_table => {
            let last = app.trainer().corpus().chunks().len().saturating_sub(page);
            app.chunk_scroll = by.apply(app.chunk_scroll, page, last);
        }
        Focus::Corpus => scroll_corpus(app, by, page),
        Focus::Pairs => {
            let rows = if app.changed_only {
                crate::tui::changed::rows(app.trainer()).len()
            } else {
                app.trainer().pairs().len()
            };
            let last = rows.saturating_sub(page);
            app.pairs_scroll = by.apply(app.pairs_scroll, page, last);
        }
        Focus::Merges => {
            let n = app.trainer().merges().len();
            let at = app.merge_cursor.unwrap_or(n.saturating_sub(1));
            let to = match by {
                Scroll::Up => at.saturating_sub(1),
                Scroll::Down => at + 1,
                Scroll::PageUp => at.saturating_sub(page),
                Scroll::PageDown => at + page,
                Scroll::Top => 0,
                Scroll::Bottom => n,
            };
            app.merge_cursor = Some(to);
        }
        Focus::Encode => {
            app.encode.scroll = match by {
                Scroll::Up => app.encode.scroll + 1,
                Scroll::Down => app.encode.scroll.saturating_sub(1),
                Scroll::PageUp => app.encode.scroll + page,
                Scroll::PageDown => app.encode.scroll.saturating_sub(page),
                Scroll::Top => crate::tui::encode_box::SCROLLED_TO_TOP,
                Scroll::Bottom => 0,
            };
        }
    }
}

fn scroll_corpus(app: &mut App, by: Scroll, page: usize) {
    let width = inner(layout::for_app(app).corpus).width as usize;
    let look = CorpusLook::of(app);
    let lines = app.lines().count();
    let mut at = app.corpus_scroll;
    let down = |at: &mut CorpusScroll| {
        if at.row + 1 < look.line_height_upto(at.line, width, at.row + 2) {
            at.row += 1;
        } else if at.line + 1 < lines {
            *at = CorpusScroll {
                line: at.line + 1,
                row: 0,
            };
        }
    };
    let up = |at: &mut CorpusScroll| {
        if at.row > 0 {
            at.row -= 1;
        } else if at.line > 0 {
            at.line -= 1;
            at.row = look.line_height(at.line, width) - 1;
        }
    };
    match by {
        Scroll::Up => up(&mut at),
        Scroll::Down => down(&mut at),
        Scroll::PageUp => (0..page.saturating_sub(1).max(1)).for_each(|_| up(&mut at)),
        Scroll::PageDown => (0..page.saturating_sub(1).max(1)).for_each(|_| down(&mut at)),
        Scroll::Top => at = CorpusScroll::default(),
        Scroll::Bottom => {
            // Fill the pane from the last line upwards.
            at = CorpusScroll {
                line: lines - 1,
                row: 0,
            };
            let mut room = page;
            let mut line = lines;
            while line > 0 && room > 0 {
                line -= 1;
                let h = look.line_height(line, width);
                if h >= room {
                    at = CorpusScroll {
                        line,
                        row: h - room,
                    };
                    room = 0;
                } else {
                    room -= h;
                    at = CorpusScroll { line, row: 0 };
                }
            }
        }
    }
    app.corpus_scroll = at;
    app.corpus_moved = true;
}

/// What the corpus highlights, in words, and its places as (chunk, offset
/// in the chunk): the selected merge if the merge list has one, else the
/// current round.
fn highlighted(app: &App) -> Option<(String, Vec<(u32, u32)>)> {
    let trainer = app.trainer();
    if let Some(rank) = app.selected_merge() {
        return Some((format!("merge {rank}"), trainer.places_of_merge(rank)));
    }
    match trainer.phase() {
        Phase::Chosen(choice) => Some((
            "the chosen pair".into(),
            trainer.places_of_pair(choice.pair),
        )),
        Phase::Merged => {
            let rank = trainer.merges().len() - 1;
            Some((format!("merge {rank}"), trainer.places_of_merge(rank)))
        }
        Phase::Counted => None,
    }
}

/// After a training step, bring the first place of the chosen pair or the
/// new token into the corpus view, unless the user moved the view since
/// the step before, or it is in view already.
fn follow_round(app: &mut App) {
    if std::mem::take(&mut app.corpus_moved) {
        return;
    }
    let Some(first) = app.trainer().first_place() else {
        return;
    };
    let width = inner(layout::for_app(app).corpus).width as usize;
    let page = page(app, Focus::Corpus);
    let look = CorpusLook::of(app);
    let line = look.lines.line_of(first);
    let row = look.row_of(line, width, first);
    let at = app.corpus_scroll;
    if (line, row) >= (at.line, at.row) {
        // Rows from the top of the pane down to the place.
        let (mut down, mut l, mut skip) = (0, at.line, at.row);
        while l < line && down < page {
            down += look
                .line_height_upto(l, width, skip + page - down)
                .saturating_sub(skip);
            skip = 0;
            l += 1;
        }
        if l == line && down + (row - skip) < page {
            return;
        }
    }
    app.corpus_scroll = CorpusScroll { line, row };
}

/// Scroll the corpus to the next place (after the top line) of the
/// highlighted pair or merge, wrapping to the start, and say which place
/// of how many it is.
fn find_next(app: &mut App) {
    let Some((what, places)) = highlighted(app) else {
        app.notice =
            Some("nothing highlighted: press . to choose a pair, or select a merge".into());
        return;
    };
    app.corpus_moved = true;
    let lines = app.lines();
    let top = app.corpus_scroll.line;
    // On from the place found last while it is on the top line, else from
    // the line after the top one.
    let from = match app.found_at {
        Some(at) if lines.line_of(at) == top => at + 1,
        _ if top + 1 < lines.count() => lines.range(top + 1).start,
        _ => 0,
    };
    // Every place in the text, in order: each occurrence of a chunk, at
    // each of the chunk's places.
    let corpus = app.trainer().corpus();
    let occurrences = corpus.occurrences();
    // Each chunk's places, found by index: there are millions of
    // occurrences to go through.
    let mut span = vec![(0u32, 0u32); corpus.chunks().len()];
    for (i, &(c, _)) in places.iter().enumerate() {
        let s = &mut span[c as usize];
        if s.1 == 0 {
            s.0 = i as u32;
        }
        s.1 += 1;
    }
    let in_chunk = |c: u32| {
        let (from, n) = span[c as usize];
        places[from as usize..(from + n) as usize]
            .iter()
            .map(|p| p.1 as usize)
    };
    let in_text = |from_occurrence: usize| {
        occurrences[from_occurrence..]
            .iter()
            .flat_map(move |o| in_chunk(o.chunk).map(move |off| o.start as usize + off))
    };
    let total: usize = occurrences.iter().map(|o| in_chunk(o.chunk).len()).sum();
    // The occurrence holding `from` may start before it.
    let split = occurrences
        .partition_point(|o| (o.start as usize) <= from)
        .saturating_sub(1);
    let (hit, wrapped) = match in_text(split).find(|&at| at >= from) {
        Some(at) => (Some(at), false),
        None => (in_text(0).next(), true),
    };
    match hit {
        Some(at) => {
            let k = in_text(0).take_while(|&p| p < at).count() + 1;
            let wrap = if wrapped {
                " (wrapped to the start)"
            } else {
                ""
            };
            let line = lines.line_of(at);
            let width = inner(layout::for_app(app).corpus).width as usize;
            let row = CorpusLook::of(app).row_of(line, width, at);
            app.notice = Some(format!("{what}: {k} of {total}{wrap}"));
            app.found_at = Some(at);
            app.corpus_scroll = CorpusScroll { line, row };
        }
        None => app.notice = Some(format!("{what}: not found in the corpus")),
    }
}

/// Move the encode box's token selection by `by`, from none to the first
/// (or last) token.
fn select_encode_token(app: &mut App, by: isize) {
    let n = app.encode.ids.len();
    if n == 0 {
        app.notice = Some("no tokens yet: press e and type some text".into());
        return;
    }
    app.encode_token = Some(match (app.encode_token, by > 0) {
        (None, true) => 0,
        (None, false) => n - 1,
        (Some(i), true) => (i + 1).min(n - 1),
        (Some(i), false) => i.saturating_sub(1),
    });
}

/// Open the merge tree of the token selected where the eye is: the
/// fertility view's token line, the encode box or the merge list.
fn open_tree(app: &mut App) {
    let label = |bytes: &[u8]| crate::tui::rows::label(bytes, &app.theme);
    let tree = if app.fert.open || app.focus == Focus::Encode {
        let (token, tok) = if app.fert.open {
            (
                app.fert.selected_token().cloned(),
                app.toks.get(app.toks.selected),
            )
        } else {
            (
                app.encode_token.and_then(|i| app.encode.token(i)),
                app.toks.get(app.toks.selected),
            )
        };
        match (token, tok) {
            (Some(token), Some(tok)) => {
                let source = app.toks.selected_slot().label.clone();
                Some(merge_tree::build(
                    token.id,
                    &|id| tok.made_by(id),
                    &|id| label(&tok.describe(id).bytes),
                    &source,
                ))
            }
            _ => None,
        }
    } else {
        app.selected_merge().map(|rank| {
            let trainer = app.trainer();
            let merges = trainer.merges();
            let base = trainer.vocab().base_size() as u32;
            let made_by = |id: u32| {
                let m = merges.get(id.checked_sub(base)? as usize)?;
                (m.id == id).then_some(crate::bpe::encoder::MadeBy {
                    rank: m.rank as u32,
                    left: m.pair.0,
                    right: m.pair.1,
                })
            };
            merge_tree::build(
                merges[rank].id,
                &made_by,
                &|id| label(trainer.vocab().token_bytes(id)),
                "the merges so far",
            )
        })
    };
    match tree {
        Some(tree) => app.tree = Some(tree),
        None => {
            app.notice = Some(
                "select a token first: a merge in the merge list, [ ] in the encode box or the fertility view"
                    .into(),
            )
        }
    }
}

/// Write down where training stands, if the session is being recorded.
fn record(app: &mut App) {
    if app.job.is_some() {
        // The merges a job passes on its way are not lesson steps.
        return;
    }
    let current = app.current;
    let Some(rec) = app.recording.as_mut() else {
        return;
    };
    if rec.source == current
        && let Some(loaded) = app.sources[current].loaded.as_ref()
    {
        rec.note(&loaded.trainer);
    }
}

/// Run the lesson's next step.
fn lesson_next(app: &mut App) {
    let Some(lesson) = app.lesson.as_mut() else {
        return;
    };
    let next = lesson.at.map_or(0, |i| i + 1);
    if next >= lesson.steps.len() {
        app.notice = Some("end of the lesson (Left goes back)".into());
        return;
    }
    let before = lesson.at;
    lesson.at = Some(next);
    let command = lesson.steps[next].command.clone();
    app.autoplay.on = false;
    let origin = Mark::of(app.trainer());
    let what = format!("lesson step {}", next + 1);
    run_lesson_script(app, vec![command], what, Some(origin), Some(before));
}

/// Back one lesson step: the steps up to it run again from merge 0, so
/// the screen is what it was when the class first saw it.
fn lesson_back(app: &mut App) {
    let Some(lesson) = app.lesson.as_mut() else {
        return;
    };
    let Some(at) = lesson.at else {
        app.notice = Some("at the start of the lesson".into());
        return;
    };
    let back = at.checked_sub(1);
    lesson.at = back;
    let mut commands = vec![lesson::Command::Step(0)];
    if let Some(b) = back {
        commands.extend(lesson.steps[..=b].iter().map(|s| s.command.clone()));
    }
    app.autoplay.on = false;
    let origin = Mark::of(app.trainer());
    let what = match back {
        Some(b) => format!("lesson: back to step {}", b + 1),
        None => "lesson: back to the start".to_string(),
    };
    run_lesson_script(app, commands, what, Some(origin), Some(Some(at)));
}

/// Run lesson commands in order; a go-to among them becomes a job that
/// runs the rest once it is there. `origin` and `lesson_at` are where Esc
/// takes training and the lesson back to.
fn run_lesson_script(
    app: &mut App,
    commands: Vec<lesson::Command>,
    what: String,
    origin: Option<Mark>,
    lesson_at: Option<Option<usize>>,
) {
    let mut rest = commands.into_iter();
    while let Some(command) = rest.next() {
        let lesson::Command::Step(n) = command else {
            run_lesson_command(app, &command);
            continue;
        };
        let (mut job, work) = Job::seek(app.trainer(), Mark::seek(n), what, origin);
        job.then = rest.collect();
        job.lesson_at = lesson_at;
        start_job(app, job, work);
        return;
    }
}

fn run_lesson_command(app: &mut App, command: &lesson::Command) {
    match command {
        lesson::Command::Step(n) => goto(app, *n),
        lesson::Command::Phase(want) => {
            // At most two phases on: counted -> chosen -> merged.
            for _ in 0..2 {
                if crate::tui::mark::PhaseName::of(app.trainer().phase()) == *want {
                    break;
                }
                if *want == lesson::PhaseName::Counted
                    && matches!(app.trainer().phase(), Phase::Chosen(_))
                {
                    app.trainer_mut().undo();
                    break;
                }
                if let Err(reason) = app.trainer_mut().advance() {
                    app.notice = Some(format!("training stopped: {reason}"));
                    break;
                }
            }
        }
        lesson::Command::Say => {}
    }
}
