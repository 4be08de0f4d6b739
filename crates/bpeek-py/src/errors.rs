//! bpeek's errors as Python exceptions, with the message the command line
//! prints. A file the system would not give (missing, unreadable) is an
//! `OSError` (`FileNotFoundError` when it is not there), anything else
//! wrong with the input (a name, a file's content, an id, a text) a
//! `ValueError`, and a failure that is nobody's input an `OSError`.

use bpeek_core::error::Error;
use pyo3::PyErr;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};

/// The exception for `e`.
pub fn to_python(e: Error) -> PyErr {
    match e {
        Error::Input(msg) if is_missing_file(&msg) => PyFileNotFoundError::new_err(msg),
        // The core words every refused read of a file so (formats/files.rs).
        Error::Input(msg) if msg.contains(": cannot read: ") => PyOSError::new_err(msg),
        Error::Input(msg) => PyValueError::new_err(msg),
        Error::Failure(msg) => PyOSError::new_err(msg),
    }
}

/// Whether the message says a file named is not there (a name that is no
/// file and no built-in tokenizer is said so too: the user meant a file or
/// mistyped a name, and both are a path that is not there).
fn is_missing_file(msg: &str) -> bool {
    msg.contains(": cannot read: no such file")
        || msg.contains(": no such file, and not a built-in")
}
