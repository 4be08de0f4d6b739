//! Reading input files with errors that name the file and say what is wrong.

use crate::error::{Error, Result};
use std::path::Path;

/// Read a whole file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    not_a_directory(path)?;
    std::fs::read(path).map_err(|e| cannot_read(path, e))
}

/// Open a file for reading, with the errors [`read_bytes`] gives.
pub fn open(path: &Path) -> Result<std::fs::File> {
    not_a_directory(path)?;
    std::fs::File::open(path).map_err(|e| cannot_read(path, e))
}

/// Read at most the first `limit` bytes of a file (and no more from disk).
pub fn read_prefix(path: &Path, limit: usize) -> Result<Vec<u8>> {
    use std::io::Read;
    not_a_directory(path)?;
    let file = std::fs::File::open(path).map_err(|e| cannot_read(path, e))?;
    let mut out = Vec::new();
    file.take(limit as u64)
        .read_to_end(&mut out)
        .map_err(|e| cannot_read(path, e))?;
    Ok(out)
}

fn not_a_directory(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(Error::input(format!(
            "{}: is a directory, not a file",
            path.display()
        )));
    }
    Ok(())
}

fn cannot_read(path: &Path, e: std::io::Error) -> Error {
    let why = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    Error::input(format!("{}: cannot read: {why}", path.display()))
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
