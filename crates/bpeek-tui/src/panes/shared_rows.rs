//! Corpus rows laid out once for a whole class.
//!
//! Every follower shows the teacher's own trainer, and most show the same
//! part of the corpus at the same width and with the same marks: laying
//! out those rows once per step, not once per student, is the largest
//! part of a follower's frame saved. A row set is found again only for the
//! very trainer it was made from: the cache keeps a weak link to it, which
//! keeps its address from being reused, and a trainer is never changed in
//! place while a weak link to it lives (`Arc::make_mut` moves it first).

use crate::panes::corpus_text::Target;
use crate::theme::Theme;
use bpeek_core::Trainer;
use ratatui::text::Line;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

/// Everything besides the trainer that decides how a line is laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct LookKey {
    pub theme: Theme,
    pub whitespace: bool,
    pub separators: bool,
    pub hex: bool,
    pub target: Target,
}

/// A corpus line's rows: (line, width, most rows).
type RowsAt = (usize, usize, usize);

struct Entry {
    trainer: Weak<Trainer>,
    look: LookKey,
    rows: HashMap<RowsAt, Arc<Vec<Line<'static>>>>,
}

/// Looks kept at once: a class's few (the teacher's, and students with
/// another width or mark); the oldest goes first.
const LOOKS: usize = 4;
/// Row sets kept per look, beyond which it starts again.
const ROW_SETS: usize = 512;

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn same(entry: &Entry, trainer: &Weak<Trainer>, look: &LookKey) -> bool {
    entry.trainer.ptr_eq(trainer) && entry.trainer.strong_count() > 0 && entry.look == *look
}

/// The rows at `at` for `trainer` and `look`, laid out by `lay_out` only
/// if no explorer has yet.
pub fn rows(
    trainer: &Weak<Trainer>,
    look: &LookKey,
    at: RowsAt,
    lay_out: impl FnOnce() -> Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let found = cache
            .iter()
            .find(|e| same(e, trainer, look))
            .and_then(|e| e.rows.get(&at));
        if let Some(rows) = found {
            return rows.as_ref().clone();
        }
    }
    // Laid out without the lock, so that other explorers go on meanwhile.
    let rows = lay_out();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|e| e.trainer.strong_count() > 0);
    let entry = match cache.iter().position(|e| same(e, trainer, look)) {
        Some(i) => &mut cache[i],
        None => {
            if cache.len() >= LOOKS {
                cache.remove(0);
            }
            cache.push(Entry {
                trainer: trainer.clone(),
                look: look.clone(),
                rows: HashMap::new(),
            });
            cache.last_mut().expect("just pushed")
        }
    };
    if entry.rows.len() >= ROW_SETS {
        entry.rows.clear();
    }
    entry.rows.insert(at, Arc::new(rows.clone()));
    rows
}
