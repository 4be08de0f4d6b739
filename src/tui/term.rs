//! The local terminal: raw mode, the alternate screen and bracketed paste on
//! the way in, and all of it undone on the way out, whether the way out is
//! `q`, Ctrl-C, an error, a panic or a signal; undone and redone around a
//! suspend (Ctrl-Z).

use crate::error::{Error, Result};
use crate::tui::app::App;
use crate::tui::event::TerminalEvents;
use crate::tui::runner::run_loop;
use crate::tui::wide_cells::WideCellBackend;
use crossterm::{cursor, event, execute, terminal};
use ratatui::Terminal;
use std::io::{self, BufWriter, Write};

/// Put the terminal back as the shell expects it. Safe to call twice.
pub fn restore() {
    let mut out = io::stdout();
    let _ = execute!(
        out,
        event::DisableBracketedPaste,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// Take the terminal over: raw mode, the alternate screen, bracketed paste
/// and no cursor.
pub fn enter() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(
        io::stdout(),
        terminal::EnterAlternateScreen,
        event::EnableBracketedPaste,
        cursor::Hide
    )
}

/// Stop the process the way Ctrl-Z stops a program in a shell, with the
/// terminal given back to the shell meanwhile and taken over again once the
/// shell continues the process (`fg`).
pub fn suspend() -> io::Result<()> {
    restore();
    // SIGTSTP is caught (to get here), so stop the way its default would.
    signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)?;
    enter()
}

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
    let backend = WideCellBackend::new(BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut terminal = Terminal::new(backend).map_err(fail)?;
    terminal.clear().map_err(fail)?;
    let mut events = TerminalEvents::start();
    setup(&events);
    run_loop(&mut terminal, app, &mut events)
}
