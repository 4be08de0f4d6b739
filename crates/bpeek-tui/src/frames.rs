//! Frames sent as bytes another explorer already made.
//!
//! Followers at one size draw the same screens one after the other (see
//! [`crate::view::shared_frame`]), so the bytes that take one terminal
//! from one shared screen to the next take every terminal there that
//! showed the first. The first explorer to make a step's frame keeps its
//! bytes; the others send them as they are, without copying the screen,
//! comparing it with the last or writing a cell. Their own record of the
//! screen (ratatui's last frame, the backend's copy) then falls behind,
//! and is brought up to the screen shown before they next draw a frame of
//! their own.

use crate::app::App;
use crate::terminal::screen::Screen;
use crate::view::shared_frame::{self, SharedScreen};
use ratatui::Terminal;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Frames sent as another explorer's bytes so far (tests check that it
/// happens at all).
static SENT_SHARED: AtomicUsize = AtomicUsize::new(0);

/// How many frames have been sent as another explorer's bytes, in this
/// process.
pub fn sent_shared() -> usize {
    SENT_SHARED.load(Ordering::Relaxed)
}

/// What a terminal shows, as far as sharing frames goes.
#[derive(Default)]
pub struct Shown {
    /// The shared screen the terminal shows, if it shows one.
    screen: Option<SharedScreen>,
    /// The terminal's own record of the screen holds an older one: frames
    /// were sent as shared bytes since.
    behind: bool,
}

impl Shown {
    /// The terminal was cleared: it shows nothing shared, and its record
    /// of the screen starts again.
    pub fn forget(&mut self) {
        *self = Shown::default();
    }

    /// Before a change of size (which may keep the terminal's record of
    /// the screen): that record is brought up to what is shown, and
    /// nothing shared is counted on.
    pub fn settle<B: Screen>(&mut self, terminal: &mut Terminal<B>) -> Result<(), B::Error> {
        if self.behind {
            catch_up(terminal, self)?;
        }
        self.forget();
        Ok(())
    }
}

/// Draw `app`'s next frame on `terminal`, as shared bytes where another
/// explorer made them from the screen this one shows.
pub fn draw<B: Screen>(
    terminal: &mut Terminal<B>,
    app: &App,
    shown: &mut Shown,
) -> Result<(), B::Error> {
    let sharing = terminal.backend().sends_shared_frames();
    if sharing && send_shared(terminal, app, shown)? {
        return Ok(());
    }
    if shown.behind {
        catch_up(terminal, shown)?;
    }
    let from = shown.screen.take().map(|s| s.id);
    let record = sharing && from.is_some();
    if record {
        terminal.backend_mut().record_next_frame();
    }
    let mut drawn = None;
    terminal.draw(|frame| drawn = shared_frame::draw(frame, app))?;
    let bytes = if record {
        terminal.backend_mut().recorded()
    } else {
        None
    };
    if let (Some(from), Some(to), Some(bytes)) = (from, &drawn, bytes) {
        shared_frame::keep_transition(from, to.id, bytes.into());
    }
    shown.screen = drawn;
    Ok(())
}

/// Send the frame as another explorer's bytes, if there are any for the
/// screen shown and the one to show. True if the frame was sent.
fn send_shared<B: Screen>(
    terminal: &mut Terminal<B>,
    app: &App,
    shown: &mut Shown,
) -> Result<bool, B::Error> {
    let Some(from) = shown.screen.as_ref() else {
        return Ok(false);
    };
    let size = terminal.size()?;
    let area = Rect::new(0, 0, size.width, size.height);
    let Some(to) = shared_frame::find(app, area) else {
        return Ok(false);
    };
    if to.id == from.id {
        // The very screen shown: nothing to send.
        return Ok(true);
    }
    let Some(bytes) = shared_frame::transition(from.id, to.id) else {
        return Ok(false);
    };
    if terminal.backend_mut().send_raw(&bytes).is_err() {
        // The client is gone; the next frame drawn here says so.
        return Ok(false);
    }
    shown.screen = Some(to);
    shown.behind = true;
    SENT_SHARED.fetch_add(1, Ordering::Relaxed);
    Ok(true)
}

/// Bring the terminal's record of the screen (ratatui's last frame and
/// the backend's copy) up to the shared screen it shows.
fn catch_up<B: Screen>(terminal: &mut Terminal<B>, shown: &mut Shown) -> Result<(), B::Error> {
    shown.behind = false;
    let Some(screen) = shown.screen.as_ref() else {
        return Ok(());
    };
    let current = terminal.current_buffer_mut();
    if current.area != screen.screen.area {
        // Cannot happen (a resize forgets what is shown); if it did, the
        // whole screen is sent again.
        shown.screen = None;
        return terminal.clear();
    }
    current.content.clone_from_slice(&screen.screen.content);
    // The buffer just written becomes the last frame.
    terminal.swap_buffers();
    let screen: &Buffer = &screen.screen;
    terminal.backend_mut().assume_shown(screen);
    Ok(())
}
