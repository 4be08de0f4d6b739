//! The local terminal: raw mode, the alternate screen, bracketed paste and
//! the mouse (unless `--no-mouse`) on the way in, and all of it undone on the way out, whether the way out is
//! `q`, Ctrl-C, an error, a panic or a signal; undone and redone around a
//! suspend (Ctrl-Z).

pub mod cell_writer;
pub mod events;
pub mod input_bytes;
pub mod mode;
pub mod mouse_report;
pub mod screen;
pub mod signals;
pub mod term_widths;
pub mod wide_cells;

use crate::app::App;
use crate::runner::run_loop;
use crate::terminal::events::TerminalEvents;
use crate::terminal::mode::{enter, restore};
use crate::terminal::wide_cells::WideCellBackend;
use bpeek_core::error::{Error, Result};
use ratatui::Terminal;
use std::io::{self, BufWriter};

/// Restores the terminal when dropped, so every return path does it.
struct Session;

impl Session {
    fn start() -> io::Result<Self> {
        let session = Session;
        enter()?;
        Ok(session)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Run the app on this process's terminal until the user quits, or a
/// signal ends it ([`signals::received`] says which); the app stays the
/// caller's afterwards.
pub fn run_app(app: &mut App) -> Result<()> {
    run_with(app, |_| {})
}

/// [`run_app`], letting `setup` see the event source first (to take a
/// waker from it).
pub fn run_with(app: &mut App, setup: impl FnOnce(&TerminalEvents)) -> Result<()> {
    let previous = std::sync::Arc::new(std::panic::take_hook());
    let chained = previous.clone();
    let explorer = std::thread::current().id();
    // A panic message printed on the alternate screen in raw mode would be
    // lost and leave the shell unusable; restore first, then report. Only
    // the explorer's own thread owns the terminal: other threads' panics
    // (a served session's, say) leave it alone.
    std::panic::set_hook(Box::new(move |info| {
        if bpeek_core::error::panic_is_caught() {
            return;
        }
        if std::thread::current().id() == explorer {
            restore();
        }
        chained(info);
    }));
    let result = run_session(app, setup);
    let _ = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| previous(info)));
    result
}

fn run_session(app: &mut App, setup: impl FnOnce(&TerminalEvents)) -> Result<()> {
    let fail = |e: io::Error| Error::failure(format!("terminal: {e}"));
    let _session = Session::start().map_err(fail)?;
    // One buffered write per frame keeps the bytes on the wire together.
    let backend = WideCellBackend::new(BufWriter::with_capacity(1 << 16, mode::FrameOutput));
    let mut terminal = Terminal::new(backend).map_err(fail)?;
    terminal.clear().map_err(fail)?;
    let mut events = TerminalEvents::start();
    setup(&events);
    run_loop(&mut terminal, app, &mut events)
}
