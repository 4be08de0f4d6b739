//! Folders for a test's files in the temporary directory, removed when the
//! test ends, however it ends: the guard's `Drop` also runs while a failed
//! assertion unwinds.
#![allow(dead_code)] // each test file uses its own part of this

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A folder of one test's own, removed (with all in it) when dropped.
/// It derefs to its path, so `dir.join(name)` and `&dir` as a `&Path` work.
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder `bpeek-{tag}-{pid}` in the temporary directory.
    pub fn new(tag: &str) -> Scratch {
        Scratch::named(&format!("bpeek-{tag}-{}", std::process::id()))
    }

    /// An empty folder called `name` in the temporary directory (what a
    /// run before this one left there is removed first).
    pub fn named(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder in the temporary directory");
        Scratch(dir)
    }

    /// `path`, which something else makes, removed when the test ends.
    pub fn adopt(path: PathBuf) -> Scratch {
        Scratch(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Write `contents` to the file `name` in the folder; its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
