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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

struct Entry {
    trainer: Weak<Trainer>,
    key: ScreenKey,
    screen: Arc<Buffer>,
}

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

/// Draw `app`'s whole screen, copied from another explorer's when it has
/// drawn the very same one.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let Some(key) = app.screen_key(area) else {
        return super::draw(frame, app);
    };
    let trainer = Arc::downgrade(&app.loaded().trainer);
    let found = {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .iter()
            .find(|e| same(e, &trainer, &key))
            .map(|e| e.screen.clone())
    };
    // Copied without the lock, so that other explorers go on meanwhile.
    if let Some(screen) = found {
        let buf = frame.buffer_mut();
        if buf.area == screen.area {
            buf.content.clone_from_slice(&screen.content);
            COPIES.fetch_add(1, Ordering::Relaxed);
            return;
        }
    }
    super::draw(frame, app);
    let screen = Arc::new(frame.buffer_mut().clone());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|e| e.trainer.strong_count() > 0);
    cache.retain(|e| !same(e, &trainer, &key));
    if cache.len() >= SCREENS {
        cache.remove(0);
    }
    cache.push(Entry {
        trainer,
        key,
        screen,
    });
}
