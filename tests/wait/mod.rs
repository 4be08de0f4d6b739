//! Waiting for a condition instead of sleeping a fixed time: poll it often,
//! and give up only at a deadline far beyond what a loaded machine needs.
#![allow(dead_code)] // each test file uses its own part of this

use std::time::{Duration, Instant};

/// How long a test waits for something that takes milliseconds when all
/// is well: long enough for a machine busy with other tests.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// How often a condition is looked at.
const POLL: Duration = Duration::from_millis(10);

/// Whether `cond` holds within `timeout`, looked at every 10 ms.
pub fn until(timeout: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(POLL);
    }
}

/// Wait until `cond` holds; fail, naming `what`, if it does not within
/// [`PATIENCE`].
pub fn wait_until(what: &str, cond: impl FnMut() -> bool) {
    assert!(until(PATIENCE, cond), "waited {PATIENCE:?} for {what}");
}
