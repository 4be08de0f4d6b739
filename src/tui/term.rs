//! The local terminal: raw mode, the alternate screen and bracketed paste on
//! the way in, and all of it undone on the way out, whether the way out is
//! `q`, Ctrl-C, an error or a panic.

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

/// Restores the terminal when dropped, so every return path does it.
struct Session;

impl Session {
    fn start() -> io::Result<Self> {
        terminal::enable_raw_mode()?;
        let session = Session;
        execute!(
            io::stdout(),
            terminal::EnterAlternateScreen,
            event::EnableBracketedPaste,
            cursor::Hide
        )?;
        Ok(session)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}

/// Run the app on this process's terminal until the user quits.
pub fn run_on_terminal(mut app: App) -> Result<()> {
    run_app(&mut app)
}

/// [`run_on_terminal`], leaving the app to the caller afterwards.
pub fn run_app(app: &mut App) -> Result<()> {
    let previous = std::sync::Arc::new(std::panic::take_hook());
    let chained = previous.clone();
    // A panic message printed on the alternate screen in raw mode would be
    // lost and leave the shell unusable; restore first, then report.
    std::panic::set_hook(Box::new(move |info| {
        restore();
        chained(info);
    }));
    let result = run_session(app);
    let _ = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| previous(info)));
    result
}

fn run_session(app: &mut App) -> Result<()> {
    let fail = |e: io::Error| Error::failure(format!("terminal: {e}"));
    let _session = Session::start().map_err(fail)?;
    // One buffered write per frame keeps the bytes on the wire together.
    let backend = WideCellBackend::new(BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut terminal = Terminal::new(backend).map_err(fail)?;
    terminal.clear().map_err(fail)?;
    run_loop(&mut terminal, app, &mut TerminalEvents::start())
}
