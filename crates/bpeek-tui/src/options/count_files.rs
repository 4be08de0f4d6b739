//! Finding and summing the count files `--counts` names: files, quoted
//! globs, and folders of part files as Spark, Dask, Ray and DuckDB write
//! them.

use bpeek_core::error::{Error, Result};
use bpeek_core::train::chunk_counts::ChunkCounts;
use bpeek_counts::count_file::CountReader;
use std::path::{Path, PathBuf};

/// The count files `specs` name, each once, in the order given (a glob's
/// and a folder's in name order).
pub fn expand(specs: &[String]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for spec in specs {
        let before = files.len();
        let path = Path::new(spec);
        if path.is_dir() {
            walk(path, &mut files)?;
        } else if spec.contains(['*', '?', '[']) && !path.exists() {
            let pattern = glob::glob(spec)
                .map_err(|e| Error::input(format!("--counts {spec}: not a glob: {e}")))?;
            let mut found = Vec::new();
            for entry in pattern {
                let p = entry.map_err(|e| Error::input(format!("--counts {spec}: {e}")))?;
                if p.is_dir() {
                    walk(&p, &mut found)?;
                } else {
                    found.push(p);
                }
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.to_path_buf());
        }
        if files.len() == before {
            return Err(Error::input(format!(
                "--counts {spec}: no count files there (a folder is searched for *.parquet and *.tsv, skipping names that start with _ or .)"
            )));
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|p| seen.insert(p.clone()));
    Ok(files)
}

/// The part files under `dir`, in name order, subfolders (Hive partitions
/// such as `year=2024/`) included; bookkeeping files (`_SUCCESS`,
/// `_metadata`, `.crc`) skipped.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::input(format!("{}: cannot read the folder: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with('_') || name.starts_with('.') {
            continue;
        }
        if p.is_dir() {
            walk(&p, out)?;
        } else if name.ends_with(".parquet") || name.ends_with(".tsv") {
            out.push(p);
        }
    }
    Ok(())
}

/// The sum of the count files `specs` name, and whether the bytes of the
/// source had to be estimated (some file did not say them).
pub fn read_all(specs: &[String]) -> Result<(ChunkCounts, bool)> {
    let files = expand(specs)?;
    let mut reader = CountReader::new();
    for f in &files {
        reader.read(f)?;
    }
    let estimated = reader.source_estimated;
    let mut counts = reader
        .finish()
        .ok_or_else(|| Error::input("--counts: no count files given"))?;
    if estimated {
        // A file that lost its metadata still has its chunks: in byte mode
        // they cover every byte of the text.
        counts.set_source_bytes(counts.source_bytes().max(counts.covered_bytes()?));
    }
    Ok((counts, estimated))
}
