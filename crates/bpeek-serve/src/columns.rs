//! The class's compare columns: each configuration counted and trained by
//! one session, taken by every other session that compares it. A column is
//! held weakly (it goes when no session shows it), and so is a claim on
//! computing one (it goes with the session, or the column, that made it).

use bpeek_core::Trainer;
use bpeek_core::train::unigram::UnigramTrainer;
use bpeek_tui::class::ColumnKey;
use bpeek_tui::class::columns::{ClaimHold, ColumnClaim};
use bpeek_tui::compare::ColumnTrainer;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// Columns and claims remembered before those nobody holds are forgotten.
const REMEMBERED: usize = 1024;

/// How often a session waiting for a column looks again: a claim dropped
/// without a result (its session ended) wakes nobody.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

enum Slot {
    Kept(WeakColumn),
    Claimed(Weak<()>),
}

/// A column's trainer, held weakly.
enum WeakColumn {
    Bpe(Weak<Trainer>),
    Unigram(Weak<UnigramTrainer>),
}

impl WeakColumn {
    fn of(t: &ColumnTrainer) -> Self {
        match t {
            ColumnTrainer::Bpe(t) => WeakColumn::Bpe(Arc::downgrade(t)),
            ColumnTrainer::Unigram(t) => WeakColumn::Unigram(Arc::downgrade(t)),
        }
    }

    fn upgrade(&self) -> Option<ColumnTrainer> {
        match self {
            WeakColumn::Bpe(t) => t.upgrade().map(ColumnTrainer::Bpe),
            WeakColumn::Unigram(t) => t.upgrade().map(ColumnTrainer::Unigram),
        }
    }

    fn is_held(&self) -> bool {
        match self {
            WeakColumn::Bpe(t) => t.strong_count() > 0,
            WeakColumn::Unigram(t) => t.strong_count() > 0,
        }
    }
}

impl Slot {
    fn is_held(&self) -> bool {
        match self {
            Slot::Kept(t) => t.is_held(),
            Slot::Claimed(c) => c.strong_count() > 0,
        }
    }
}

#[derive(Default)]
pub struct SharedColumns {
    slots: Mutex<HashMap<ColumnKey, Slot>>,
    kept: Condvar,
}

impl SharedColumns {
    fn lock(&self) -> MutexGuard<'_, HashMap<ColumnKey, Slot>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The column `key` if some session has it, else the claim to compute
    /// it, unless another session holds that claim: then wait up to `wait`
    /// for its result, and past that answer `Busy`.
    pub fn claim(&self, key: &ColumnKey, wait: Option<Duration>) -> ColumnClaim {
        let until = wait.map(|w| Instant::now() + w);
        let mut slots = self.lock();
        loop {
            match slots.get(key) {
                Some(Slot::Kept(t)) => {
                    if let Some(t) = t.upgrade() {
                        return ColumnClaim::Kept(t);
                    }
                }
                Some(Slot::Claimed(c)) if c.strong_count() > 0 => {
                    let now = Instant::now();
                    let Some(until) = until.filter(|&u| u > now) else {
                        return ColumnClaim::Busy;
                    };
                    let look = (until - now).min(LOOK_AGAIN);
                    slots = match self.kept.wait_timeout(slots, look) {
                        Ok((s, _)) => s,
                        Err(e) => e.into_inner().0,
                    };
                    continue;
                }
                _ => {}
            }
            if slots.len() >= REMEMBERED {
                slots.retain(|_, slot| slot.is_held());
            }
            let hold = ClaimHold::new();
            slots.insert(key.clone(), Slot::Claimed(hold.watch()));
            return ColumnClaim::Yours(hold);
        }
    }

    /// A session computed the column `key`: the others take it (and those
    /// waiting for it are woken).
    pub fn keep(&self, key: ColumnKey, trainer: &ColumnTrainer) {
        let mut slots = self.lock();
        if slots.len() >= REMEMBERED {
            slots.retain(|_, slot| slot.is_held());
        }
        slots.insert(key, Slot::Kept(WeakColumn::of(trainer)));
        drop(slots);
        self.kept.notify_all();
    }
}
