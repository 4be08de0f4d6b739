//! Writing reports to stdout. A closed pipe (`bpeek ... | head`) ends the
//! program quietly instead of panicking.

use crate::error::{Error, Result};
use std::io::Write;

/// Write `text` to stdout.
pub fn emit(text: &str) -> Result<()> {
    emit_bytes(text.as_bytes())
}

pub fn emit_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::failure(format!("stdout: {e}"))),
    }
}

/// `println!` for reports: a closed pipe ends quietly, other write errors
/// propagate with `?`.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::emit(&format!("{}\n", format_args!($($arg)*)))?
    };
}
