//! Compare columns a class computes once. Twenty students who add the same
//! column at the same moment would otherwise each count and train it: the
//! first to ask claims it and computes it, the others wait for its result
//! (or, between frames, show their column behind until it is there).

use crate::compare::ColumnTrainer;
use std::sync::{Arc, Weak};

/// What the class answers a session that wants a column.
#[derive(Debug)]
pub enum ColumnClaim {
    /// Another session computed it: take it.
    Kept(ColumnTrainer),
    /// Another session is computing it now.
    Busy,
    /// Nobody has it: this session computes it, and the claim stands as
    /// long as the hold is kept (dropping it frees the column for others).
    Yours(ClaimHold),
}

/// A session's claim on computing a column: while some session holds it,
/// the others wait instead of computing the same.
#[derive(Debug, Clone, Default)]
pub struct ClaimHold(Arc<()>);

impl ClaimHold {
    pub fn new() -> Self {
        ClaimHold::default()
    }

    /// What the class keeps of the claim: alive while the hold is.
    pub fn watch(&self) -> Weak<()> {
        Arc::downgrade(&self.0)
    }
}
