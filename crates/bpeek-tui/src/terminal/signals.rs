//! Signals to the local explorer. A signal that ends a program (INT, TERM,
//! HUP, QUIT, USR1, ALRM and every other one whose default is to end the
//! process and that can be caught) must not end it in raw mode on the alternate screen: the loop
//! is asked to stop, the terminal is restored on the way out, and the
//! process exits with 128 + the signal number as a shell expects. SIGTSTP
//! (`kill -TSTP`) suspends like Ctrl-Z does.

use crate::event::Event;
use signal_hook::consts::{
    SIGALRM, SIGHUP, SIGINT, SIGIO, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2,
    SIGVTALRM, SIGXCPU, SIGXFSZ,
};
use signal_hook::iterator::Signals;
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The signals that end the explorer: every one whose default action ends
/// the process and that a process may catch.
pub const ENDING: [i32; 12] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
    SIGXFSZ, SIGIO,
];

/// How long the loop has to stop by itself before the terminal is restored
/// and the process ended from the signal thread (a loop busy with a long
/// computation must not keep a killed program alive).
const GRACE: Duration = Duration::from_secs(2);

/// The ending signal received, 0 for none.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The ending signal received so far, if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        n => Some(n),
    }
}

/// The event a suspend arrives as: Ctrl-Z, what a terminal in cooked mode
/// turns into SIGTSTP.
pub fn suspend_key() -> Event {
    Event::ctrl('z')
}

/// Whether `event` asks to suspend.
pub fn is_suspend(event: &Event) -> bool {
    *event == suspend_key()
}

/// Catch the ending signals and SIGTSTP from now on, telling the loop
/// through `tell`: [`Event::Closed`] to stop, the suspend key to suspend.
pub fn watch(tell: impl Fn(Event) + Send + 'static) -> io::Result<()> {
    let mut signals = Signals::new(ENDING.iter().copied().chain([SIGTSTP]))?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if signal == SIGTSTP {
                tell(suspend_key());
                continue;
            }
            let first = RECEIVED
                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
            if !first {
                // Asked twice: do not wait for the loop any longer.
                end_now(received().unwrap_or(signal));
            }
            tell(Event::Closed);
            std::thread::spawn(move || {
                std::thread::sleep(GRACE);
                end_now(signal);
            });
        }
    });
    Ok(())
}

fn end_now(signal: i32) -> ! {
    crate::terminal::mode::restore();
    std::process::exit(128 + signal);
}
