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

/// A student's memory account and budget: what the session's threads hold
/// (see [`bpeek_core::memory_owner`]), and whether it is past the budget.
#[derive(Debug)]
pub struct StudentMemory {
    account: bpeek_core::memory_owner::Account,
    budget: u64,
    /// Past the budget, as last said.
    over: bool,
}

impl StudentMemory {
    /// An account with `budget`; none when the server has no slot left
    /// (that session is then held by the server's budget only).
    pub fn open(budget: u64) -> Option<Self> {
        Some(StudentMemory {
            account: bpeek_core::memory_owner::Account::open()?,
            budget,
            over: false,
        })
    }

    pub fn owner(&self) -> bpeek_core::memory_owner::Owner {
        self.account.owner()
    }

    /// A change to tell the explorer: the budget reached (what to say), or
    /// room again once the session holds under nine tenths of it.
    pub fn change(&mut self) -> Option<Option<String>> {
        let held = self.account.bytes();
        if !self.over && held > self.budget {
            self.over = true;
            return Some(Some(format!(
                "past your memory budget ({} of {} MB): your own work stopped and let go",
                held.div_ceil(1_000_000),
                self.budget.div_ceil(1_000_000)
            )));
        }
        if self.over && held < self.budget / 10 * 9 {
            self.over = false;
            return Some(None);
        }
        None
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
