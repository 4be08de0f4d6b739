//! Ctrl-C, `kill` and a closed terminal during a command that writes files:
//! remove the temporary files, then exit with 128 + the signal number, as a
//! shell reports a process killed by that signal.

use bpeek_core::formats::atomic::remove_temporaries;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// From now on, SIGINT, SIGTERM and SIGHUP remove pending temporary files
/// and end the process.
pub fn clean_up_on_signals() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        // Without the handler the defaults apply: the process still stops,
        // only its temporary files stay. Not a reason to refuse the work.
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            remove_temporaries();
            std::process::exit(128 + sig);
        }
    });
}
