//! Reading input files with errors that name the file and say what is wrong.

use crate::error::{Error, Result};
use std::path::Path;

/// Read a whole file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    if path.is_dir() {
        return Err(Error::input(format!(
            "{}: is a directory, not a file",
            path.display()
        )));
    }
    std::fs::read(path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        Error::input(format!("{}: cannot read: {why}", path.display()))
    })
}

/// Read a whole file that must be UTF-8 text.
pub fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        Error::input(format!(
            "{}: not UTF-8 text (byte offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}
