//! The memory budget every command keeps: heap bytes in use are counted by
//! the program's allocator, and a large request that would pass the budget
//! is refused, which ends the program with a clear message, the terminal
//! restored and temporary files removed. An endless input (`/dev/zero`,
//! `/dev/urandom`) thus ends in seconds instead of filling the machine.
//!
//! The budget is the memory available when the program starts (the lower
//! of the system's and the control group's), or `BPEEK_MAX_MEMORY` (a
//! size as written, e.g. `2GB`).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Heap bytes allocated and not yet freed.
static IN_USE: AtomicUsize = AtomicUsize::new(0);
/// The most heap bytes allowed; no limit until [`set_from_environment`].
static BUDGET: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Requests below this size always go through, so the program can still
/// say what happened and clean up once the budget is reached.
pub const SMALL_REQUEST: usize = 1 << 16;

/// The environment variable that sets the budget.
pub const VARIABLE: &str = "BPEEK_MAX_MEMORY";

/// Count `size` more bytes in use; false (and nothing counted) when the
/// request is large and would pass the budget.
#[inline]
pub fn take(size: usize) -> bool {
    let before = IN_USE.fetch_add(size, Ordering::Relaxed);
    if size >= SMALL_REQUEST && before.saturating_add(size) > BUDGET.load(Ordering::Relaxed) {
        IN_USE.fetch_sub(size, Ordering::Relaxed);
        return false;
    }
    true
}

/// Count `size` bytes freed.
#[inline]
pub fn give_back(size: usize) {
    IN_USE.fetch_sub(size, Ordering::Relaxed);
}

/// The budget in bytes, if one is set.
pub fn budget() -> Option<usize> {
    match BUDGET.load(Ordering::Relaxed) {
        usize::MAX => None,
        b => Some(b),
    }
}

/// Heap bytes in use now.
pub fn in_use() -> usize {
    IN_USE.load(Ordering::Relaxed)
}

/// Set the budget from `BPEEK_MAX_MEMORY`, else from the memory available.
pub fn set_from_environment() -> crate::error::Result<()> {
    let budget = match std::env::var(VARIABLE) {
        Ok(v) => {
            size_in_bytes(&v).map_err(|e| crate::error::Error::input(format!("{VARIABLE}: {e}")))?
        }
        Err(_) => match available() {
            Some(bytes) => bytes,
            None => return Ok(()),
        },
    };
    BUDGET.store(
        usize::try_from(budget).unwrap_or(usize::MAX - 1),
        Ordering::Relaxed,
    );
    Ok(())
}

/// The memory available to this process: the system's available memory,
/// lowered to what the control group still allows.
fn available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let system = meminfo_kb(&info, "MemAvailable:")
        .or_else(|| meminfo_kb(&info, "MemTotal:"))?
        .saturating_mul(1024);
    Some(cgroup_room().map_or(system, |room| room.min(system)))
}

fn meminfo_kb(info: &str, key: &str) -> Option<u64> {
    info.lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// What a cgroup v2 memory limit leaves (`memory.max` less
/// `memory.current`), if there is a limit.
fn cgroup_room() -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let current: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// A size as a user writes it: `1500`, `64kB`, `500MB`, `2GB` (powers of
/// 1000, as the messages print them; `KiB`, `MiB` and `GiB` too).
pub fn size_in_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "m" | "mb" => 1_000_000,
        "g" | "gb" => 1_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        _ => return Err(format!("{s:?} is not a size (write e.g. 500MB or 2GB)")),
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("{s:?} is not a size (write e.g. 500MB or 2GB)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_lines_are_read_in_kilobytes() {
        let info = "MemTotal:       24000000 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(meminfo_kb(info, "MemAvailable:"), Some(20_000_000));
        assert_eq!(meminfo_kb(info, "Swap:"), None);
    }
}
