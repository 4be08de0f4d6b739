//! A student's share of the processor. The class's steps come first: a
//! student whose own work (training on its own text, comparing columns,
//! long go-tos alone) takes more than half a core over a couple of seconds
//! waits a moment between its actions, and is told so once; its long jobs
//! run on threads of lower priority. The teacher has no limit.

use std::time::{Duration, Instant};

/// The part of one core a student's session may use, measured over
/// [`WINDOW`].
pub const STUDENT_SHARE: f64 = 0.5;

/// How long a measure of use runs before it starts again.
pub const WINDOW: Duration = Duration::from_secs(2);

/// The longest wait between two of a student's actions.
const LONGEST_WAIT: Duration = Duration::from_millis(250);

/// Priority (nice) of a student's long jobs: below every session's own.
pub const JOB_NICE: i32 = 10;

/// The processor time a student's session has used in the current window.
#[derive(Debug)]
pub struct CpuShare {
    since: Instant,
    used_before: Duration,
    told: bool,
}

impl CpuShare {
    pub fn new(now: Instant, used: Duration) -> Self {
        CpuShare {
            since: now,
            used_before: used,
            told: false,
        }
    }

    /// With `used` the thread's processor time so far at `now`: how long
    /// to wait before the next action so the share is kept, if at all, and
    /// whether to say so (once a window).
    pub fn wait(&mut self, now: Instant, used: Duration) -> Option<(Duration, bool)> {
        let elapsed = now.saturating_duration_since(self.since);
        let spent = used.saturating_sub(self.used_before);
        let allowed = elapsed.mul_f64(STUDENT_SHARE);
        let wait = if spent > allowed {
            Some((spent - allowed).div_f64(STUDENT_SHARE).min(LONGEST_WAIT))
        } else {
            None
        };
        if elapsed >= WINDOW && wait.is_none() {
            *self = CpuShare::new(now, used);
        }
        let tell = wait.is_some() && !std::mem::replace(&mut self.told, true);
        wait.map(|w| (w, tell))
    }
}

/// The processor time this thread has used.
pub fn thread_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

/// Run this thread below every session (a student's long job). Lowering
/// priority needs no privilege; raising it again would, so only threads of
/// their own are lowered.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority with who 0 changes the calling thread's nice
    // value on Linux and touches no memory.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, JOB_NICE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_student_within_half_a_core_never_waits_and_one_past_it_waits_for_the_excess() {
        let t0 = Instant::now();
        let mut share = CpuShare::new(t0, Duration::ZERO);
        // 0.4 s of work in a second: within the share.
        assert_eq!(
            share.wait(t0 + Duration::from_secs(1), Duration::from_millis(400)),
            None
        );
        // 0.7 s in a second: 0.2 s over half a core, 0.4 s of waiting to
        // make up for it, capped, and said the first time.
        let (wait, tell) = share
            .wait(t0 + Duration::from_secs(1), Duration::from_millis(700))
            .unwrap();
        assert_eq!(wait, LONGEST_WAIT);
        assert!(tell);
        let (_, tell) = share
            .wait(t0 + Duration::from_millis(1100), Duration::from_millis(700))
            .unwrap();
        assert!(!tell, "said once");
        // Caught up: no wait, and a new window starts.
        assert_eq!(
            share.wait(t0 + Duration::from_secs(3), Duration::from_millis(700)),
            None
        );
        assert_eq!(
            share.wait(t0 + Duration::from_millis(3100), Duration::from_millis(720)),
            None
        );
    }

    #[test]
    fn the_thread_time_grows_with_work() {
        let before = thread_time();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_time() > before);
    }
}
