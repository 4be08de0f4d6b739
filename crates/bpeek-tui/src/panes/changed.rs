//! The pairs the last merge changed, for the pair table's changed-only
//! view: the ones still counted in selection order, then the ones that
//! vanished, with the count they had.

use bpeek_core::train::trainer::CountChange;
use bpeek_core::{Pair, Trainer};
use rustc_hash::FxHashMap;

/// One row of the changed-only view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedRow {
    pub pair: Pair,
    /// The 0-based place in selection order; `None` for a vanished pair.
    pub rank: Option<usize>,
    /// The count now, or the count it had for a vanished pair.
    pub count: u64,
    pub change: CountChange,
}

impl ChangedRow {
    pub fn gone(&self) -> bool {
        self.rank.is_none()
    }
}

/// Every pair the last merge changed: counted ones by rank, then vanished
/// ones by the count they had (largest first).
pub fn rows(trainer: &Trainer) -> Vec<ChangedRow> {
    let changes: FxHashMap<Pair, CountChange> = trainer.last_changes().collect();
    if changes.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<ChangedRow> = trainer
        .pairs()
        .iter()
        .enumerate()
        .filter_map(|(rank, (pair, count))| {
            changes.get(&pair).map(|&change| ChangedRow {
                pair,
                rank: Some(rank),
                count,
                change,
            })
        })
        .collect();
    let mut gone: Vec<ChangedRow> = changes
        .iter()
        .filter(|(_, c)| c.after == 0)
        .map(|(&pair, &change)| ChangedRow {
            pair,
            rank: None,
            count: change.before,
            change,
        })
        .collect();
    gone.sort_by(|a, b| b.count.cmp(&a.count).then(a.pair.cmp(&b.pair)));
    out.extend(gone);
    out
}

/// How many pairs the last merge made and how many it took away.
pub fn new_and_gone(trainer: &Trainer) -> (usize, usize) {
    trainer
        .last_changes()
        .fold((0, 0), |(fresh, gone), (_, c)| {
            (
                fresh + usize::from(c.before == 0),
                gone + usize::from(c.after == 0),
            )
        })
}
