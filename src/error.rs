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
    let shown = crate::bpe::display::escape_controls(&value[..cut.unwrap_or(value.len())]);
    match cut {
        Some(_) => format!("'{shown}…' ({} characters)", value.chars().count()),
        None => format!("'{shown}'"),
    }
}

/// A message as it may reach a terminal: one line with no control
/// characters, whatever a value in it held, and of bounded length.
fn one_line(msg: String) -> String {
    let escaped = if msg.chars().any(char::is_control) {
        crate::bpe::display::escape_controls(&msg)
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
