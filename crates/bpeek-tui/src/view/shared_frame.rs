//! Whole screens drawn once for a class.
//!
//! A hundred followers at one size, each showing the teacher's trainer with
//! the panes where they left them, draw the same screen after every step.
//! The first of them to draw it keeps a copy here; the others copy it
//! instead of laying out every pane again. A screen is shared only in the
//! plain state most followers are in (no prompt, help, notice, overlay,
//! job, question or text of their own), and only between explorers whose
//! [`ScreenKey`] is equal: everything the screen is drawn from, taken from
//! `App` whole so that no field can be forgotten. A screen is found again
//! only for the very trainer it was drawn from (see
//! [`crate::panes::shared_rows`] for why a weak link makes that safe).

use crate::app::App;
use crate::app::screen_key::ScreenKey;
use bpeek_core::Trainer;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

struct Entry {
    trainer: Weak<Trainer>,
    key: ScreenKey,
    shared: SharedScreen,
}

/// A screen drawn once for a class, with a number of its own (never
/// given twice in a process) that names it in [`transition`]s.
#[derive(Clone)]
pub struct SharedScreen {
    pub id: u64,
    pub screen: Arc<Buffer>,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Screens kept at once: a class's few sizes and settings; the oldest goes
/// first.
const SCREENS: usize = 8;

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// Screens copied so far (tests check that sharing happens at all).
static COPIES: AtomicUsize = AtomicUsize::new(0);

/// How many screens have been copied instead of drawn, in this process.
pub fn copies() -> usize {
    COPIES.load(Ordering::Relaxed)
}

fn same(entry: &Entry, trainer: &Weak<Trainer>, key: &ScreenKey) -> bool {
    entry.trainer.ptr_eq(trainer) && entry.trainer.strong_count() > 0 && entry.key == *key
}

/// The screen another explorer drew for `app` at `area`, if there is one:
/// the same trainer, drawn from the same state.
pub fn find(app: &App, area: ratatui::layout::Rect) -> Option<SharedScreen> {
    let key = app.screen_key(area)?;
    let trainer = Arc::downgrade(&app.loaded().trainer);
    cached(&trainer, &key).filter(|s| s.screen.area == area)
}

/// The screen kept for `trainer` drawn from `key`, if there is one.
fn cached(trainer: &Weak<Trainer>, key: &ScreenKey) -> Option<SharedScreen> {
    let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .iter()
        .find(|e| same(e, trainer, key))
        .map(|e| e.shared.clone())
}

/// Draw `app`'s whole screen, copied from another explorer's when it has
/// drawn the very same one; the shared screen drawn, if it is one.
pub fn draw(frame: &mut Frame, app: &App) -> Option<SharedScreen> {
    let area = frame.area();
    let Some(key) = app.screen_key(area) else {
        super::draw(frame, app);
        return None;
    };
    let trainer = Arc::downgrade(&app.loaded().trainer);
    // Copied without the lock, so that other explorers go on meanwhile.
    if let Some(shared) = cached(&trainer, &key) {
        let buf = frame.buffer_mut();
        if buf.area == shared.screen.area {
            buf.content.clone_from_slice(&shared.screen.content);
            COPIES.fetch_add(1, Ordering::Relaxed);
            return Some(shared);
        }
    }
    super::draw(frame, app);
    let shared = SharedScreen {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        screen: Arc::new(frame.buffer_mut().clone()),
    };
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|e| e.trainer.strong_count() > 0);
    cache.retain(|e| !same(e, &trainer, &key));
    if cache.len() >= SCREENS {
        cache.remove(0);
    }
    cache.push(Entry {
        trainer,
        key,
        shared: shared.clone(),
    });
    Some(shared)
}

/// The bytes that took a terminal from one shared screen to another.
struct Transition {
    from: u64,
    to: u64,
    bytes: Arc<[u8]>,
}

/// Transitions kept at once: a step's, for a class's few sizes.
const TRANSITIONS: usize = 32;

static TRANSITION_CACHE: Mutex<Vec<Transition>> = Mutex::new(Vec::new());

/// The bytes some explorer sent to take its terminal from shared screen
/// `from` to `to`: every terminal showing `from` is taken to `to` by them.
pub fn transition(from: u64, to: u64) -> Option<Arc<[u8]>> {
    let cache = TRANSITION_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .iter()
        .find(|t| t.from == from && t.to == to)
        .map(|t| t.bytes.clone())
}

/// Keep the bytes that took a terminal from shared screen `from` to `to`.
pub fn keep_transition(from: u64, to: u64, bytes: Arc<[u8]>) {
    let mut cache = TRANSITION_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.iter().any(|t| t.from == from && t.to == to) {
        return;
    }
    if cache.len() >= TRANSITIONS {
        cache.remove(0);
    }
    cache.push(Transition { from, to, bytes });
}
