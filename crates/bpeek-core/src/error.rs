//! Errors that reach the user: one line each, with the exit code they deserve.

use std::fmt;

/// What went wrong, sorted by who can fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The command line or an input file is wrong: exit code 2.
    Input(String),
    /// Anything else (a write failed, a disk filled up): exit code 1.
    Failure(String),
}

/// The most characters of a value a message quotes.
const QUOTED_CHARS: usize = 100;
/// The most characters a whole message keeps: its head and its tail.
const MESSAGE_HEAD: usize = 1000;
const MESSAGE_TAIL: usize = 200;

/// A value from a file or the command line as a message quotes it: in
/// single quotes, control characters escaped (a file cannot retitle the
/// terminal or forge a line), and at most about 100 characters, cut with `…`.
pub fn quoted(value: &str) -> String {
    let mut cut = value.char_indices().nth(QUOTED_CHARS).map(|(i, _)| i);
    // A cut that leaves only a few characters out hides nothing worth it.
    if value.chars().count() <= QUOTED_CHARS + 3 {
        cut = None;
    }
    let shown = crate::display::escape_controls(&value[..cut.unwrap_or(value.len())]);
    match cut {
        Some(_) => format!("'{shown}…' ({} characters)", value.chars().count()),
        None => format!("'{shown}'"),
    }
}

/// A message as it may reach a terminal: one line with no control
/// characters and no invisible ones (a direction override would reorder
/// what follows it), a value quoted in double quotes cut as [`quoted`]
/// cuts, whatever a value held, and of bounded length.
fn one_line(msg: String) -> String {
    let msg = cut_long_quotes(msg);
    let escaped = if msg
        .chars()
        .any(|c| c.is_control() || crate::display::is_invisible(c))
    {
        crate::display::escape_controls(&msg)
    } else {
        msg
    };
    let n = escaped.chars().count();
    if n <= MESSAGE_HEAD + MESSAGE_TAIL + 3 {
        return escaped;
    }
    let head: String = escaped.chars().take(MESSAGE_HEAD).collect();
    let tail: String = escaped.chars().skip(n - MESSAGE_TAIL).collect();
    format!("{head} … {tail}")
}

/// Values many messages quote as Rust writes strings (`{:?}`: in double
/// quotes, quotes inside escaped): a quoted span longer than [`quoted`]
/// allows is cut the same way, with its length.
fn cut_long_quotes(msg: String) -> String {
    if msg.len() <= QUOTED_CHARS + 5 {
        return msg;
    }
    let mut out = String::with_capacity(msg.len().min(4 * QUOTED_CHARS));
    let mut rest = msg.as_str();
    while let Some(open) = rest.find('"') {
        out.push_str(&rest[..=open]);
        let inside = &rest[open + 1..];
        let Some(close) = closing_quote(inside) else {
            out.push_str(inside);
            return out;
        };
        let value = &inside[..close];
        let n = value.chars().count();
        if n > QUOTED_CHARS + 3 {
            let cut = value
                .char_indices()
                .nth(QUOTED_CHARS)
                .map_or(value.len(), |(i, _)| i);
            out.push_str(&value[..cut]);
            out.push_str(&format!("…\" ({n} characters)"));
        } else {
            out.push_str(value);
            out.push('"');
        }
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Where the double quote that ends a quoted span is: the first one not
/// escaped by a backslash.
fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'\\' if !escaped => escaped = true,
            b'"' if !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

/// Write one line to standard error. A standard error that cannot be
/// written (`2>/dev/full`, a closed pipe) loses the line; it never ends
/// the program with a panic as `eprintln!` would.
pub fn to_stderr(line: fmt::Arguments) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}

/// `eprintln!` that never panics: see [`to_stderr`].
#[macro_export]
macro_rules! tell {
    ($($arg:tt)*) => {
        $crate::error::to_stderr(format_args!($($arg)*))
    };
}

thread_local! {
    /// How many [`catch_quietly`] calls this thread is inside.
    static CATCHING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Run `f`, turning a panic inside it (a dependency's decoder failing on
/// untrusted bytes) into `None`, with no panic text printed: the caller
/// reports the failure as its own one-line error.
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    CATCHING.with(|c| c.set(c.get() + 1));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(c.get() - 1));
    result.ok()
}

/// Whether a panic now on this thread is one [`catch_quietly`] catches:
/// panic hooks say nothing and touch nothing (the terminal stays as it
/// is) for it.
pub fn panic_is_caught() -> bool {
    CATCHING.with(|c| c.get() > 0)
}

/// Install the process's panic hook: the default report, except for the
/// panics [`catch_quietly`] catches. Hooks installed later (the explorer's,
/// the server's) call this one after their own work.
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !panic_is_caught() {
            default(info);
        }
    }));
}

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(one_line(msg.into()))
    }

    pub fn failure(msg: impl Into<String>) -> Self {
        Error::Failure(one_line(msg.into()))
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Failure(_) => 1,
        }
    }

    /// Prefix the message with where the problem is, e.g. a file name.
    pub fn context(self, place: impl fmt::Display) -> Self {
        match self {
            Error::Input(m) => Error::input(format!("{place}: {m}")),
            Error::Failure(m) => Error::failure(format!("{place}: {m}")),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) | Error::Failure(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
