//! The event loop: take an event, turn it into an action, update, and draw
//! only if something changed. It waits for input without a timeout unless
//! autoplay is on, so an idle explorer costs nothing. Tokenizer loads the
//! model asks for are handed to the event source, whose answers come back
//! as events, and so are long actions' threads (see [`crate::job`]).

use crate::action::Action;
use crate::app::App;
use crate::event::{Event, EventSource};
use crate::frames::Shown;
use crate::job::PROGRESS_EVERY;
use crate::keymap::action_of_key;
use crate::terminal::screen::Screen;
use crate::update::update;
use bpeek_core::error::{Error, Result};
use ratatui::Terminal;
use std::time::{Duration, Instant};

/// The most time between frames while input is queued.
const FLOOD_FRAME: Duration = Duration::from_millis(100);

fn draw_error(e: impl std::fmt::Display) -> Error {
    Error::failure(format!("drawing the screen: {e}"))
}

/// Draw the app once (the loop's first frame, and benchmarks).
pub fn draw<B: Screen>(terminal: &mut Terminal<B>, app: &mut App) -> Result<()> {
    draw_showing(terminal, app, &mut Shown::default())
}

/// Draw the app on a terminal that shows `shown`.
fn draw_showing<B: Screen>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    shown: &mut Shown,
) -> Result<()> {
    if std::mem::take(&mut app.redraw) {
        // Forget what the terminal is thought to show, so every cell is sent.
        shown.forget();
        terminal.clear().map_err(draw_error)?;
    }
    let widths = terminal.backend().widths();
    crate::terminal::term_widths::drawing_for(widths, || crate::frames::draw(terminal, app, shown))
        .map_err(draw_error)?;
    app.dirty = false;
    if !app.outgoing.is_empty() {
        let bytes = std::mem::take(&mut app.outgoing);
        terminal
            .backend_mut()
            .send_raw(&bytes)
            .map_err(draw_error)?;
    }
    Ok(())
}

/// A key press, as the key table (and a class) makes it an action.
fn on_key(app: &mut App, key: &crossterm::event::KeyEvent) {
    if let Some(action) = action_of_key(app, key) {
        update(app, action);
    }
}

/// A click or a turn of the wheel, as the actions its keys would give.
fn on_mouse(app: &mut App, mouse: &crossterm::event::MouseEvent) {
    for action in crate::mouse::actions_of_mouse(app, mouse) {
        update(app, crate::class::follow::held(app, action));
    }
}

/// Run until the user quits or the events run out.
pub fn run_loop<B: Screen>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &mut impl EventSource,
) -> Result<()> {
    let size = terminal.size().map_err(draw_error)?;
    update(app, Action::Resize(size.width, size.height));
    terminal.backend_mut().probe_widths().map_err(draw_error)?;
    let mut next_tick: Option<Instant> = None;
    let mut tick_every: Option<Duration> = None;
    let mut last_frame = Instant::now();
    let mut shown = Shown::default();
    while !app.quit {
        if events.stop_requested() {
            // Ctrl-C or a signal, ahead of whatever is queued: quit now.
            update(app, Action::Quit);
            break;
        }
        for spec in app.toks.take_requests() {
            events.load(&spec);
        }
        for work in app.take_work() {
            events.spawn(work);
        }
        // While keys are queued, a frame at most every FLOOD_FRAME: the
        // screen keeps moving, and a flood costs a few frames, not one a key.
        if app.dirty && (!events.pending() || last_frame.elapsed() >= FLOOD_FRAME) {
            draw_showing(terminal, app, &mut shown)?;
            last_frame = Instant::now();
        }
        // Ticks keep a steady beat: each is due one interval after the last
        // was due, not after the last one finished.
        let interval = app.autoplay.interval();
        if interval != tick_every {
            tick_every = interval;
            next_tick = interval.map(|i| Instant::now() + i);
        }
        // Work left on a long text or a long action goes on between
        // frames, after any key that is already waiting; work on another
        // thread is looked at now and then, to show how far it has got.
        let here = app.jobs.current.as_ref().is_some_and(|j| !j.is_away());
        let away = app.jobs.current.as_ref().is_some_and(|j| j.is_away());
        let measuring = app.fert.open && app.fert.behind;
        let columns_behind = app.compare.as_ref().is_some_and(|c| c.behind && !c.waiting);
        let columns_waiting = app.compare.as_ref().is_some_and(|c| c.behind && c.waiting);
        let busy = app.encode.encoding() || here || measuring || columns_behind;
        let timeout = if busy {
            Some(Duration::ZERO)
        } else if away || columns_waiting {
            Some(PROGRESS_EVERY)
        } else {
            next_tick.map(|t| t.saturating_duration_since(Instant::now()))
        };
        let opening = app.opening_job();
        let event = events
            .next(timeout)
            .map_err(|e| Error::failure(format!("reading input: {e}")))?;
        match event {
            None if busy || away || columns_waiting => {
                if here || away {
                    update(app, Action::JobMore);
                } else if columns_behind || columns_waiting {
                    update(app, Action::CompareMore);
                }
                if app.encode.encoding() {
                    update(app, Action::EncodeMore);
                } else if app.fert.open && app.fert.behind {
                    update(app, Action::MeasureMore);
                }
            }
            None => {
                update(app, Action::Tick);
                if let (Some(t), Some(i)) = (next_tick, tick_every) {
                    let now = Instant::now();
                    // After a stall, start the beat again rather than catch up.
                    next_tick = Some(if t + i > now { t + i } else { now + i });
                }
            }
            Some(Event::Closed) => break,
            Some(Event::Key(key)) => on_key(app, &key),
            Some(Event::Mouse(mouse)) => on_mouse(app, &mouse),
            Some(Event::Class) => update(app, Action::ClassChanged),
            Some(Event::Notice(text)) => update(app, Action::Notice(text)),
            Some(Event::MemoryBudget(over)) => update(app, Action::MemoryBudget(over)),
            Some(Event::Paste(text)) => update(app, Action::Paste(text)),
            Some(Event::Loaded(done)) => update(app, Action::Loaded(done)),
            Some(Event::JobDone) => update(app, Action::JobMore),
            Some(e @ (Event::CursorReport(..) | Event::Redraw | Event::Resize(..))) => {
                screen_event(terminal, app, &mut shown, e)?;
            }
        }
        if opening && !app.opening_job() {
            // The corpus is in: a follower catches up with the teacher.
            update(app, Action::ClassChanged);
        }
        update(app, Action::Publish);
    }
    match app.jobs.failed.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// An event about the screen itself: an answer to a probe of its widths,
/// a redraw after a suspend, a new size.
fn screen_event<B: Screen>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    shown: &mut Shown,
    event: Event,
) -> Result<()> {
    match event {
        Event::CursorReport(row, col) if terminal.backend_mut().learn_width(row, col) => {
            // Laid out for other widths: all of it again.
            app.redraw = true;
            app.dirty = true;
        }
        Event::Redraw => {
            // A resize to the current size clears the screen and forgets
            // the last frame (`clear` would ask the terminal where the
            // cursor is, while the input thread is reading it).
            let size = terminal.size().map_err(draw_error)?;
            let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
            shown.forget();
            terminal.resize(area).map_err(draw_error)?;
            update(app, Action::Resize(size.width, size.height));
        }
        Event::Resize(w, h) => {
            shown.settle(terminal).map_err(draw_error)?;
            terminal.backend_mut().resized(w, h);
            terminal.autoresize().map_err(draw_error)?;
            update(app, Action::Resize(w, h));
        }
        _ => {}
    }
    Ok(())
}
