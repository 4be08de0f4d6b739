//! The server's memory budget. Each session's own input is bounded (a
//! paste, and the encode box's whole text, at most [`SESSION_TEXT`]); the
//! server as a whole watches its resident memory, and past the budget
//! turns new students away and leaves new pastes out, so that a class that
//! pastes too much slows nobody down and brings nothing down.

/// The most text a served session's encode box holds (what a student
/// pastes or types, in all).
pub const SESSION_TEXT: usize = crate::input::PASTE_CAP;

/// Allocations at least this big are mapped on their own, and given back
/// whole when freed.
const OWN_MAPPING: i32 = 256 << 10;

/// Free memory at the top of a heap beyond this is given back at once.
const KEEP_FREE_AT_TOP: i32 = 1 << 20;

/// Have the C library give freed memory back to the system as a server
/// needs. By default it raises both thresholds after the first big free
/// (up to 32 and 64 MB): a session that encodes a pasted megabyte then
/// keeps its peak, tens of MB, in its thread's heap after it closes.
/// Fixed thresholds keep big buffers in mappings of their own, returned
/// when freed, and heaps trimmed.
pub fn give_back_promptly() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the allocator's tuning parameters.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_MAPPING);
        libc::mallopt(libc::M_TRIM_THRESHOLD, KEEP_FREE_AT_TOP);
    }
}

/// This process's resident memory in bytes, where the system says it.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok().filter(|&p| p > 0).unwrap_or(4096))
}

/// Whether the server is past `budget` (never, without a budget or where
/// resident memory cannot be read).
pub fn over(budget: Option<u64>) -> bool {
    budget.is_some_and(|b| resident_bytes().is_some_and(|r| r > b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_and_a_tiny_budget_is_exceeded() {
        let r = resident_bytes().expect("Linux tells resident memory");
        assert!(r > 100_000, "{r}");
        assert!(over(Some(1)));
        assert!(!over(Some(u64::MAX)));
        assert!(!over(None));
    }
}
