//! Files the explorer writes at a key press (`S`, `W`): always under a
//! name not taken yet, so nothing saved before is lost, and each written
//! whole or not at all (a temporary file renamed into place).

use bpeek_core::error::Result;
use bpeek_core::formats::atomic::{Output, commit_all};
use std::path::Path;

/// The most files of one stem looked for before giving up.
const MOST_TRIES: usize = 10_000;

/// Write each `(extension, bytes)` of `files` into `dir` as
/// `STEM-N.EXTENSION`, with the smallest N from 1 that names none of
/// them already; the names written.
pub fn write_new(dir: &Path, stem: &str, files: &[(&str, &[u8])]) -> Result<Vec<String>> {
    let taken = |n: usize| {
        files.iter().any(|(ext, _)| {
            let path = dir.join(format!("{stem}-{n}.{ext}"));
            path.symlink_metadata().is_ok()
        })
    };
    let Some(n) = (1..=MOST_TRIES).find(|&n| !taken(n)) else {
        return Err(bpeek_core::error::Error::input(format!(
            "{MOST_TRIES} files named {stem}-N are here already: move some away"
        )));
    };
    let names: Vec<String> = files
        .iter()
        .map(|(ext, _)| format!("{stem}-{n}.{ext}"))
        .collect();
    let mut outputs = names
        .iter()
        .map(|name| Output::create(&dir.join(name)))
        .collect::<Result<Vec<Output>>>()?;
    for (out, (_, bytes)) in outputs.iter_mut().zip(files) {
        out.writer()?
            .write_all(bytes)
            .map_err(|e| out.write_error(&e))?;
    }
    commit_all(outputs.iter_mut().collect())?;
    Ok(names)
}
