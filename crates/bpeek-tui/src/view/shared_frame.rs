//! Whole screens drawn once for a class.
//!
//! A hundred followers at one size, each showing the teacher's trainer with
//! the panes where they left them, draw the same screen after every step.
//! The first of them to draw it keeps a copy here; the others copy it
//! instead of laying out every pane again. A screen is shared only in the
//! plain state most followers are in (no prompt, help, notice, overlay,
//! job, question or text of their own), and only between explorers whose
//! every setting the screen shows is the same: the key below writes them
//! all out. A screen is found again only for the very trainer it was drawn
//! from (see [`crate::panes::shared_rows`] for why a weak link makes
//! that safe).

use crate::app::{App, InputMode};
use bpeek_core::Trainer;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// What decides a shared screen besides its trainer.
#[derive(PartialEq)]
struct Look {
    area: Rect,
    /// Every other setting the screen shows, written out.
    settings: String,
}

struct Entry {
    trainer: Weak<Trainer>,
    look: Look,
    screen: Arc<Buffer>,
}

/// Screens kept at once: a class's few sizes and looks; the oldest goes
/// first.
const SCREENS: usize = 8;

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// Screens copied so far (tests check that sharing happens at all).
static COPIES: AtomicUsize = AtomicUsize::new(0);

/// How many screens have been copied instead of drawn, in this process.
pub fn copies() -> usize {
    COPIES.load(Ordering::Relaxed)
}

/// The look of `app`'s screen at `area`, if it is one that may be shared.
fn look(app: &App, area: Rect) -> Option<Look> {
    let class = app.classroom.as_ref()?;
    let plain = app.input == InputMode::Normal
        && app.notice.is_none()
        && app.tree.is_none()
        && app.vocab.is_none()
        && app.lesson.is_none()
        && app.recording.is_none()
        && app.jobs.current.is_none()
        && !app.fert.open
        && app.encode.text.is_empty()
        && !app.encode.encoding()
        && !app.autoplay.on
        && class.asking.is_none()
        && class.question.is_none();
    if !plain {
        return None;
    }
    let mut settings = String::with_capacity(512);
    let _ = write!(
        settings,
        "{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{}|{}|{}|{:?}",
        app.focus,
        app.shown,
        app.scroll,
        app.theme,
        app.options,
        app.current,
        app.sources.get(app.current).map(|s| &s.name),
        app.encode.scroll,
        app.encode.selected,
        app.toks.selected,
        class.status(),
        class.following,
        class.role,
    );
    for slot in &app.toks.slots {
        let _ = write!(
            settings,
            "|{}:{}:{}",
            slot.label,
            slot.is_loading(),
            slot.stamp
        );
    }
    Some(Look { area, settings })
}

fn same(entry: &Entry, trainer: &Weak<Trainer>, look: &Look) -> bool {
    entry.trainer.ptr_eq(trainer) && entry.trainer.strong_count() > 0 && entry.look == *look
}

/// Draw `app`'s whole screen, copied from another explorer's when it has
/// drawn the very same one.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let Some(look) = look(app, area) else {
        return super::draw(frame, app);
    };
    let trainer = Arc::downgrade(&app.loaded().trainer);
    let found = {
        let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .iter()
            .find(|e| same(e, &trainer, &look))
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
    cache.retain(|e| !same(e, &trainer, &look));
    if cache.len() >= SCREENS {
        cache.remove(0);
    }
    cache.push(Entry {
        trainer,
        look,
        screen,
    });
}
