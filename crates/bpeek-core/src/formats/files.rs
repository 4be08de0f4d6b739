//! Reading input files with errors that name the file and say what is wrong.

use crate::error::{Error, Result};
use std::path::Path;

/// Read a whole file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    open(path)?
        .read_to_end(&mut out)
        .map_err(|e| cannot_read(path, e))?;
    Ok(out)
}

/// Open a file that may be looked at more than once (its first bytes to
/// tell its format, then the whole): a tokenizer or count file. A stream
/// (a FIFO, process substitution's `/dev/fd/N`) can be read only once, so
/// its bytes are kept the first time ([`kept`]) and every open reads them
/// from the start.
pub fn open(path: &Path) -> Result<std::fs::File> {
    not_a_directory(path)?;
    if is_stream(path) {
        return kept(path);
    }
    std::fs::File::open(path).map_err(|e| cannot_read(path, e))
}

/// Open a file read once from start to end (a corpus or shard): a stream
/// is read as it comes, never kept.
pub fn open_stream(path: &Path) -> Result<std::fs::File> {
    not_a_directory(path)?;
    std::fs::File::open(path).map_err(|e| cannot_read(path, e))
}

/// Read at most the first `limit` bytes of a file (and no more from disk).
pub fn read_prefix(path: &Path, limit: usize) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    open(path)?
        .take(limit as u64)
        .read_to_end(&mut out)
        .map_err(|e| cannot_read(path, e))?;
    Ok(out)
}

/// The most bytes kept of one stream: more than any tokenizer or count
/// file bpeek reads whole is refused rather than held in memory.
pub const MAX_KEPT_STREAM: u64 = 256 << 20;

/// Whether `path` is something other than a regular file (a FIFO, a
/// pipe, a character device): it cannot be opened twice for the same bytes.
fn is_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The streams read so far, by the path given, each as a file in memory.
static KEPT: std::sync::Mutex<Vec<(std::path::PathBuf, std::fs::File)>> =
    std::sync::Mutex::new(Vec::new());

/// A fresh handle, at its start, on the bytes of the stream `path`: read
/// whole into an anonymous file the first time, reopened after.
fn kept(path: &Path) -> Result<std::fs::File> {
    let mut list = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, file)) = list.iter().find(|(p, _)| p == path) {
        return reopen(file).map_err(|e| cannot_read(path, e));
    }
    let mut source = std::fs::File::open(path).map_err(|e| cannot_read(path, e))?;
    let mut copy = anonymous_file().map_err(|e| cannot_read(path, e))?;
    let copied = std::io::copy(
        &mut std::io::Read::take(&mut source, MAX_KEPT_STREAM + 1),
        &mut copy,
    )
    .map_err(|e| cannot_read(path, e))?;
    if copied > MAX_KEPT_STREAM {
        return Err(Error::input(format!(
            "{}: a stream of more than {} MiB; give the file itself",
            path.display(),
            MAX_KEPT_STREAM >> 20
        )));
    }
    let handle = reopen(&copy).map_err(|e| cannot_read(path, e))?;
    list.push((path.to_path_buf(), copy));
    Ok(handle)
}

/// A file in memory, with no name: gone when the process ends.
fn anonymous_file() -> std::io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: memfd_create takes a NUL-terminated name and flags; a
    // descriptor it returns is new and owned by the File made from it.
    let fd = unsafe { libc::memfd_create(c"bpeek-stream".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// A handle of its own (its own offset, at 0) on the file `file` is.
fn reopen(file: &std::fs::File) -> std::io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    std::fs::File::open(format!("/proc/self/fd/{}", file.as_raw_fd()))
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

/// The names of the entries of `dir`, sorted; none if it cannot be read.
pub fn sorted_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
