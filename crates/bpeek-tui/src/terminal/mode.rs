//! The local terminal's modes: raw mode, the alternate screen, bracketed
//! paste, the mouse and the cursor, taken over and given back (also around
//! Ctrl-Z).

use crate::terminal::mouse_report::{MOUSE_OFF, MOUSE_ON};
use crossterm::{cursor, event, execute, terminal};
use std::io::{self, Write};

/// Whether the explorer holds the terminal (raw mode, alternate screen).
static ENTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the explorer asks the terminal for the mouse (`--no-mouse`
/// leaves it to the terminal: its own selection and scrollback).
static MOUSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Ask for the mouse from the next [`enter`] on, or not.
pub fn use_mouse(on: bool) {
    MOUSE.store(on, std::sync::atomic::Ordering::SeqCst);
}

/// [`restore`], only if the explorer holds the terminal: for a process
/// about to end for a reason of its own (out of memory).
pub fn restore_if_entered() {
    if ENTERED.load(std::sync::atomic::Ordering::SeqCst) {
        restore();
    }
}

/// Held while frame bytes go out and while the terminal is given back, so
/// that the two never interleave.
static OUTPUT: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Standard output for the explorer's frames. Bytes written once the
/// terminal has been given back are dropped: a frame still being drawn
/// when a signal ends the program (the signal thread restores the
/// terminal) must not land on the shell's screen.
pub struct FrameOutput;

impl Write for FrameOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _held = OUTPUT.lock().unwrap_or_else(|e| e.into_inner());
        if !ENTERED.load(std::sync::atomic::Ordering::SeqCst) {
            return Ok(buf.len());
        }
        io::stdout().write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _held = OUTPUT.lock().unwrap_or_else(|e| e.into_inner());
        io::stdout().flush()
    }
}

/// The output lock, waited for a little: a panic on the thread that holds
/// it (it cannot be waited for) restores the terminal all the same.
fn hold_output() -> Option<std::sync::MutexGuard<'static, ()>> {
    for _ in 0..100 {
        match OUTPUT.try_lock() {
            Ok(held) => return Some(held),
            Err(std::sync::TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
    None
}

/// Put the terminal back as the shell expects it. Safe to call twice.
pub fn restore() {
    let _held = hold_output();
    ENTERED.store(false, std::sync::atomic::Ordering::SeqCst);
    let mut out = io::stdout();
    // Given back whether or not it was asked for: it costs nothing, and a
    // terminal left reporting clicks would type them into the shell.
    let _ = out.write_all(MOUSE_OFF);
    let _ = execute!(
        out,
        event::DisableBracketedPaste,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    let _ = out.flush();
}

/// Take the terminal over: raw mode, the alternate screen, bracketed
/// paste, the mouse (see [`use_mouse`]) and no cursor.
pub fn enter() -> io::Result<()> {
    ENTERED.store(true, std::sync::atomic::Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    let mut out = io::stdout();
    execute!(
        out,
        terminal::EnterAlternateScreen,
        event::EnableBracketedPaste,
        cursor::Hide
    )?;
    if MOUSE.load(std::sync::atomic::Ordering::SeqCst) {
        // Presses and the wheel only, not crossterm's EnableMouseCapture,
        // which asks for every motion of the pointer too.
        out.write_all(MOUSE_ON)?;
        out.flush()?;
    }
    Ok(())
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
