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
    finish(out.write_all(bytes).and_then(|_| out.flush()), "stdout")
}

/// Let `write` write a report as it goes, buffered, to stdout (or to
/// stderr when stdout holds a file the command writes).
pub fn emit_with(
    to_stderr: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let (mut out, what): (Box<dyn Write>, _) = if to_stderr {
        (Box::new(std::io::stderr().lock()), "stderr")
    } else {
        (Box::new(std::io::stdout().lock()), "stdout")
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut out);
    let written = write(&mut out).and_then(|()| out.flush());
    finish(written, what)
}

/// A closed pipe ends quietly; other errors name the stream.
fn finish(written: std::io::Result<()>, what: &str) -> Result<()> {
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::failure(format!("{what}: {e}"))),
    }
}

/// `println!` for reports: a closed pipe ends quietly, other write errors
/// propagate with `?`.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::emit(&format!("{}\n", format_args!($($arg)*)))?
    };
}
