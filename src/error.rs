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

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }

    pub fn failure(msg: impl Into<String>) -> Self {
        Error::Failure(msg.into())
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
            Error::Input(m) => Error::Input(format!("{place}: {m}")),
            Error::Failure(m) => Error::Failure(format!("{place}: {m}")),
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
