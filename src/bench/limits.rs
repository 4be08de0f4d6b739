//! `bench` sizes checked against the machine's memory before anything is
//! allocated, so that a large number is refused with a message rather than
//! ending in an allocation failure.

use bpeek_core::error::{Error, Result};
use bpeek_tui::options::args::BenchArgs;

/// Training takes up to about this many times the corpus in memory (the
/// bench reports the real figure, about 6.5x on man pages).
const BYTES_PER_CORPUS_BYTE: u64 = 10;
/// What each timed merge keeps (its times, the merge, the undo record).
const BYTES_PER_MERGE: u64 = 256;

pub fn check(args: &BenchArgs) -> Result<()> {
    let Some(available) = available_memory() else {
        return Ok(());
    };
    let corpus = (args.megabytes as u64).saturating_mul(1_000_000);
    let need = corpus
        .saturating_mul(BYTES_PER_CORPUS_BYTE)
        .saturating_add((args.merges as u64).saturating_mul(BYTES_PER_MERGE));
    if need > available {
        return Err(Error::input(format!(
            "bench: --megabytes {} with --merges {} needs about {} MB of memory, and {} MB are available",
            args.megabytes,
            args.merges,
            need / 1_000_000,
            available / 1_000_000
        )));
    }
    Ok(())
}

/// The memory available to a new allocation, from /proc/meminfo (Linux).
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .or_else(|| info.lines().find(|l| l.starts_with("MemTotal:")))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
