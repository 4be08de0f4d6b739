//! The local terminal's modes: raw mode, the alternate screen, bracketed
//! paste and the cursor, taken over and given back (also around Ctrl-Z).

use crossterm::{cursor, event, execute, terminal};
use std::io::{self, Write};

/// Whether the explorer holds the terminal (raw mode, alternate screen).
static ENTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// [`restore`], only if the explorer holds the terminal: for a process
/// about to end for a reason of its own (out of memory).
pub fn restore_if_entered() {
    if ENTERED.load(std::sync::atomic::Ordering::SeqCst) {
        restore();
    }
}

/// Put the terminal back as the shell expects it. Safe to call twice.
pub fn restore() {
    ENTERED.store(false, std::sync::atomic::Ordering::SeqCst);
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
    ENTERED.store(true, std::sync::atomic::Ordering::SeqCst);
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
