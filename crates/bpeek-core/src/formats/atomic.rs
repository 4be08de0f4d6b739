//! Output files that are either complete or not there.
//!
//! A regular file (or a new path) is written to a temporary file beside it,
//! flushed to disk and renamed into place; the temporary file takes the old
//! file's mode. A symbolic link is followed, so the file it points to is
//! replaced and the link stays. Anything that is not a regular file (a
//! device such as `/dev/null`, a FIFO, a terminal) cannot be replaced that
//! way and is opened and written directly; `-` and `/dev/stdout` are this
//! process's standard output.
//!
//! Several outputs of one run are renamed together, after all of them are
//! written ([`commit_all`]). The temporary files are listed in one place so
//! that a signal handler can remove them ([`remove_temporaries`]); the list
//! stays locked while the renames run, so a handler that waits for it sees
//! either none or all of them renamed.

use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The temporary files not yet renamed or removed.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Folders a run made for itself (a bench's server keys and log), removed
/// with the temporary files however the run ends.
static TEMPORARY_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Remove `dir` and what is in it when the process is told to stop or
/// runs out of memory (a normal end removes it itself).
pub fn remove_on_exit(dir: &Path) {
    let mut list = TEMPORARY_DIRS.lock().unwrap_or_else(|e| e.into_inner());
    list.push(dir.to_path_buf());
}

/// Remove every temporary file still pending. Called when the process is
/// told to stop; it waits for renames under way to finish.
pub fn remove_temporaries() {
    if let Ok(dirs) = TEMPORARY_DIRS.try_lock() {
        for d in dirs.iter() {
            let _ = fs::remove_dir_all(d);
        }
    }
    let list = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
    for p in list.iter() {
        let _ = fs::remove_file(p);
    }
    // Keep the lock: the process is about to exit and nothing may rename now.
    std::mem::forget(list);
}

/// Where an output goes, once links are followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// This process's standard output (`-`, `/dev/stdout`, `/dev/fd/1`).
    Stdout,
    /// Not a regular file (device, FIFO, terminal, socket): written in place.
    Direct(PathBuf),
    /// A regular file or a new path, replaced through a temporary file.
    Replace(PathBuf),
}

/// What identifies a file, to tell whether two paths are the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    Stdout,
    /// A character device (`/dev/null`): any number of outputs may share it.
    Device,
    /// An existing file: device and inode.
    Inode(u64, u64),
    /// A file that does not exist yet: its absolute, resolved path.
    New(PathBuf),
}

/// Where `given` writes to, following symbolic links.
pub fn destination(given: &Path) -> Result<Destination> {
    if is_stdout(given) {
        return Ok(Destination::Stdout);
    }
    // `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` name a descriptor this
    // process already has open (often a shell redirection): write through it.
    if names_a_descriptor(given) {
        return Ok(Destination::Direct(given.to_path_buf()));
    }
    let resolved = resolve(given)?;
    match fs::metadata(&resolved) {
        Ok(m) if m.is_file() => Ok(Destination::Replace(resolved)),
        Ok(m) if m.is_dir() => Err(Error::input(format!(
            "{}: is a directory, not a file",
            given.display()
        ))),
        Ok(_) => Ok(Destination::Direct(given.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Destination::Replace(resolved)),
        Err(e) => Err(Error::input(format!("{}: {e}", given.display()))),
    }
}

/// The identity of the file `given` names (existing or not).
pub fn identity(given: &Path) -> Result<Identity> {
    if is_stdout(given) {
        return Ok(Identity::Stdout);
    }
    match fs::metadata(given) {
        Ok(m) if m.file_type().is_char_device() => Ok(Identity::Device),
        Ok(m) => Ok(Identity::Inode(m.dev(), m.ino())),
        Err(_) => Ok(Identity::New(resolve(given)?)),
    }
}

fn is_stdout(p: &Path) -> bool {
    let own = format!("/proc/{}/fd/1", std::process::id());
    [
        "-",
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/1",
        own.as_str(),
    ]
    .iter()
    .any(|name| p == Path::new(name))
}

fn names_a_descriptor(p: &Path) -> bool {
    let s = p.to_string_lossy();
    s == "/dev/stderr"
        || s.starts_with("/dev/fd/")
        || (s.starts_with("/proc/") && s.contains("/fd/"))
}

/// An absolute path with every symbolic link followed, for a path whose last
/// part may not exist yet (or may be a dangling link).
fn resolve(given: &Path) -> Result<PathBuf> {
    let mut path = absolute(given)?;
    for _ in 0..40 {
        let Some(name) = path.file_name().map(|n| n.to_owned()) else {
            return Ok(path);
        };
        let parent = path.parent().unwrap_or(Path::new("/"));
        let parent = fs::canonicalize(parent).map_err(|e| {
            let why = if e.kind() == io::ErrorKind::NotFound {
                "no such directory".to_string()
            } else {
                e.to_string()
            };
            Error::input(format!(
                "{}: cannot write there: {}: {why}",
                given.display(),
                parent.display()
            ))
        })?;
        let joined = parent.join(&name);
        match fs::read_link(&joined) {
            Ok(target) => path = absolute_from(&parent, &target),
            Err(_) => return Ok(joined),
        }
    }
    Err(Error::input(format!(
        "{}: too many levels of symbolic links",
        given.display()
    )))
}

fn absolute(p: &Path) -> Result<PathBuf> {
    let cwd = std::env::current_dir()
        .map_err(|e| Error::failure(format!("cannot read the current directory: {e}")))?;
    Ok(absolute_from(&cwd, p))
}

/// `p` made absolute against `base`, with `.` and `..` parts removed where
/// they follow a plain name (the parent is canonical, so this is exact).
fn absolute_from(base: &Path, p: &Path) -> PathBuf {
    let joined = base.join(p);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// One output file of a run, opened before the work starts so that a path
/// that cannot be written is reported before any time is spent.
pub struct Output {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    kind: Kind,
}

enum Kind {
    Stdout(BufWriter<io::Stdout>),
    Direct(Option<BufWriter<File>>),
    Replace {
        target: PathBuf,
        tmp: PathBuf,
        file: Option<BufWriter<File>>,
    },
}

impl Output {
    /// Prepare writing to `given`: for a regular file or a new path, create
    /// the temporary file now (with the old file's mode).
    pub fn create(given: &Path) -> Result<Output> {
        let shown = given.to_path_buf();
        let kind = match destination(given)? {
            Destination::Stdout => Kind::Stdout(BufWriter::new(io::stdout())),
            Destination::Direct(_) => Kind::Direct(None),
            Destination::Replace(target) => {
                refuse_protected(&shown, &target)?;
                let tmp = temp_path(&target);
                let file = create_temp(&tmp, &target).map_err(|e| {
                    Error::input(format!("{}: cannot write: {}", shown.display(), why(&e)))
                })?;
                Kind::Replace {
                    target,
                    tmp,
                    file: Some(BufWriter::new(file)),
                }
            }
        };
        Ok(Output { shown, kind })
    }

    /// Whether this output is the process's standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.kind, Kind::Stdout(_))
    }

    /// Where to write the content.
    pub fn writer(&mut self) -> Result<&mut (dyn Write + Send)> {
        let shown = &self.shown;
        match &mut self.kind {
            Kind::Stdout(w) => Ok(w),
            Kind::Direct(slot) => {
                if slot.is_none() {
                    // Devices and FIFOs are opened only when there is
                    // something to write: opening a FIFO waits for a reader.
                    let f = OpenOptions::new().write(true).open(shown).map_err(|e| {
                        if e.kind() == io::ErrorKind::NotFound {
                            Error::input(format!("{}: cannot write: no such file", shown.display()))
                        } else {
                            Error::failure(format!(
                                "{}: cannot write: {}",
                                shown.display(),
                                why(&e)
                            ))
                        }
                    })?;
                    *slot = Some(BufWriter::new(f));
                }
                Ok(slot.as_mut().expect("opened above"))
            }
            Kind::Replace { file, .. } => Ok(file.as_mut().expect("open until committed")),
        }
    }

    /// The error for a failed write to this output.
    pub fn write_error(&self, e: &io::Error) -> Error {
        Error::failure(format!(
            "{}: cannot write: {}",
            self.shown.display(),
            why(e)
        ))
    }

    /// Flush and, for a temporary file, sync it to disk.
    fn finish(&mut self) -> io::Result<()> {
        match &mut self.kind {
            Kind::Stdout(w) => w.flush(),
            Kind::Direct(slot) => match slot {
                Some(w) => w.flush(),
                None => Ok(()),
            },
            Kind::Replace { file, .. } => {
                let w = file.take().expect("finished once");
                let f = w.into_inner().map_err(|e| e.into_error())?;
                f.sync_all()
            }
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Kind::Replace { tmp, .. } = &self.kind {
            // Not committed (an error or an early return): nothing was renamed.
            let mut list = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = list.iter().position(|p| p == tmp) {
                let _ = fs::remove_file(tmp);
                list.swap_remove(i);
            }
        }
    }
}

/// Finish every output, then rename all the temporary files into place. A
/// failure before the renames leaves every target as it was.
pub fn commit_all(mut outputs: Vec<&mut Output>) -> Result<()> {
    for o in outputs.iter_mut() {
        if let Err(e) = o.finish() {
            if o.is_stdout() && e.kind() == io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            return Err(o.write_error(&e));
        }
    }
    let mut list = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
    for o in outputs.iter_mut() {
        if let Kind::Replace { target, tmp, .. } = &o.kind {
            fs::rename(tmp, target).map_err(|e| o.write_error(&e))?;
            if let Some(i) = list.iter().position(|p| p == tmp) {
                list.swap_remove(i);
            }
        }
    }
    Ok(())
}

/// Refuse to replace a file this user may not write (mode 0444, say), as
/// `cp` would: the rename that replaces it needs only the folder's
/// permission, so the file's own is asked by opening it for writing,
/// without truncating it.
fn refuse_protected(shown: &Path, target: &Path) -> Result<()> {
    match OpenOptions::new().write(true).open(target) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Err(Error::input(format!(
            "{}: cannot write: permission denied (the file is write-protected; it is left as it is)",
            shown.display()
        ))),
        _ => Ok(()),
    }
}

/// Create the temporary file and list it, with the mode (and, where
/// allowed, the owner) of the file it will replace.
fn create_temp(tmp: &Path, target: &Path) -> io::Result<File> {
    let mut list = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
    let file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    list.push(tmp.to_path_buf());
    drop(list);
    if let Ok(old) = fs::metadata(target) {
        let keep = (|| {
            file.set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))?;
            let now = file.metadata()?;
            if now.uid() != old.uid() || now.gid() != old.gid() {
                // Only root may give a file away; others keep their own.
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            Ok::<(), io::Error>(())
        })();
        if let Err(e) = keep {
            let mut list = TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner());
            let _ = fs::remove_file(tmp);
            list.retain(|p| p != tmp);
            return Err(e);
        }
    }
    Ok(file)
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

fn why(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::AlreadyExists => "a temporary file of this run is in the way".to_string(),
        _ => e.to_string(),
    }
}
