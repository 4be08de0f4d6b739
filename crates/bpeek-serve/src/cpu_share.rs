//! A student's share of the processor. The class's steps come first: a
//! student whose own work (training on its own text, comparing columns,
//! long go-tos alone) takes more than its share over a couple of seconds
//! waits a moment between its actions, and is told so once; its long jobs
//! run on threads of lower priority. The teacher has no limit.
//!
//! A share is half a core, and all students' own work together may take
//! half the machine: twenty students training at once on two cores each
//! get a twentieth of one, and the other core is left to the class's steps.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most of one core a student's session may use, measured over
/// [`WINDOW`].
pub const STUDENT_SHARE: f64 = 0.5;

/// How long a measure of use runs before it starts again.
pub const WINDOW: Duration = Duration::from_secs(2);

/// The longest wait between two of a student's actions: long enough that
/// a share of a twentieth of a core holds for work done in slices of
/// 25 ms, short enough that the screen still moves.
const LONGEST_WAIT: Duration = Duration::from_secs(1);

/// A student whose own work took more than this part of a core in the
/// current window is busy: the class's share is split between those.
const BUSY_FROM: f64 = 0.05;

/// Priority (nice) of a student's long jobs: below every session's own.
pub const JOB_NICE: i32 = 10;

/// The cores all students' own work may take together: half the
/// machine's, and at least one student's share.
pub fn class_cores() -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    (cores as f64 / 2.0).max(STUDENT_SHARE)
}

/// The students of a class whose own work used the processor lately.
#[derive(Debug, Default)]
pub struct BusyStudents {
    last_busy: Mutex<HashMap<u64, Instant>>,
    next_id: AtomicU64,
}

impl BusyStudents {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Instant>> {
        self.last_busy.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn join(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn mark(&self, id: u64, now: Instant) {
        self.lock().insert(id, now);
    }

    fn leave(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Students busy within the last window at `now` (at least one: the
    /// one asking).
    fn count(&self, now: Instant) -> usize {
        let mut busy = self.lock();
        busy.retain(|_, at| now.saturating_duration_since(*at) < WINDOW);
        busy.len().max(1)
    }
}

/// The processor time a student's session has used in the current window.
#[derive(Debug)]
pub struct CpuShare {
    since: Instant,
    used_before: Duration,
    told: bool,
    id: u64,
    busy: Arc<BusyStudents>,
    /// The cores all students' own work may take together.
    class_cores: f64,
}

impl CpuShare {
    /// A student's share, among the `busy` students of its class, who
    /// may take `class_cores` together.
    pub fn new(now: Instant, used: Duration, busy: Arc<BusyStudents>, class_cores: f64) -> Self {
        let id = busy.join();
        CpuShare {
            since: now,
            used_before: used,
            told: false,
            id,
            busy,
            class_cores,
        }
    }

    /// With `used` the thread's processor time so far at `now`: how long
    /// to wait before the next action so the share is kept, if at all, and
    /// whether to say so (once a window).
    pub fn wait(&mut self, now: Instant, used: Duration) -> Option<(Duration, bool)> {
        let elapsed = now.saturating_duration_since(self.since);
        let spent = used.saturating_sub(self.used_before);
        if spent > elapsed.mul_f64(BUSY_FROM) {
            self.busy.mark(self.id, now);
        }
        let share = (self.class_cores / self.busy.count(now) as f64).min(STUDENT_SHARE);
        let allowed = elapsed.mul_f64(share);
        let wait = if spent > allowed {
            Some((spent - allowed).div_f64(share).min(LONGEST_WAIT))
        } else {
            None
        };
        if elapsed >= WINDOW && wait.is_none() {
            self.since = now;
            self.used_before = used;
            self.told = false;
        }
        let tell = wait.is_some() && !std::mem::replace(&mut self.told, true);
        wait.map(|w| (w, tell))
    }
}

impl Drop for CpuShare {
    fn drop(&mut self) {
        self.busy.leave(self.id);
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
        let mut share = CpuShare::new(t0, Duration::ZERO, Arc::default(), 1.0);
        // 0.4 s of work in a second: within the share.
        assert_eq!(
            share.wait(t0 + Duration::from_secs(1), Duration::from_millis(400)),
            None
        );
        // 0.7 s in a second: 0.2 s over half a core, 0.4 s of waiting to
        // make up for it, said the first time.
        let (wait, tell) = share
            .wait(t0 + Duration::from_secs(1), Duration::from_millis(700))
            .unwrap();
        assert_eq!(wait, Duration::from_millis(400));
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
    fn busy_students_split_the_class_share_and_a_quiet_one_takes_none_of_it() {
        let t0 = Instant::now();
        let busy: Arc<BusyStudents> = Arc::default();
        // A class that may take one core: four students each use 0.3 s in
        // the first second.
        let mut students: Vec<CpuShare> = (0..4)
            .map(|_| CpuShare::new(t0, Duration::ZERO, Arc::clone(&busy), 1.0))
            .collect();
        let at = t0 + Duration::from_secs(1);
        let waits: Vec<_> = students
            .iter_mut()
            .map(|s| s.wait(at, Duration::from_millis(300)))
            .collect();
        // The first asked when it alone was busy; the last, of four, has a
        // quarter of a core: 0.05 s over, 0.2 s to wait.
        assert_eq!(waits[0], None);
        assert_eq!(waits[3], Some((Duration::from_millis(200), true)));
        // A student who did next to nothing is not counted busy.
        let mut quiet = CpuShare::new(t0, Duration::ZERO, Arc::clone(&busy), 1.0);
        assert_eq!(quiet.wait(at, Duration::from_millis(10)), None);
        assert_eq!(busy.count(at), 4);
        // Students who leave give their part back.
        students.truncate(1);
        assert_eq!(busy.count(at), 1);
        // Busy long ago is not busy now.
        assert_eq!(busy.count(at + WINDOW), 1);
        assert!(busy.lock().is_empty());
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
