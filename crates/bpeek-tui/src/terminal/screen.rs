//! What the loop draws on: any ratatui backend that can be told its new
//! size.

use ratatui::backend::{Backend, TestBackend};

/// A backend the loop can tell about a resize. A real terminal already knows
/// its size; a test backend has to be resized by hand.
pub trait Screen: Backend {
    fn resized(&mut self, _width: u16, _height: u16) {}

    /// Send bytes to the terminal as they are (an escape sequence that is
    /// no cell of the screen, such as the clipboard's). A test terminal
    /// has no use for them.
    fn send_raw(&mut self, _bytes: &[u8]) -> std::io::Result<()> {
        Ok(())
    }

    /// Whether a frame may be sent as bytes another explorer's terminal
    /// took from the same screen to the same screen (a served session's,
    /// where a class draws alike; see [`crate::frames`]).
    fn sends_shared_frames(&self) -> bool {
        false
    }

    /// The terminal shows `screen`, sent as shared bytes: what the backend
    /// keeps of the screen is brought up to it.
    fn assume_shown(&mut self, _screen: &ratatui::buffer::Buffer) {}

    /// Keep a copy of the next frame's bytes, for [`Screen::recorded`].
    fn record_next_frame(&mut self) {}

    /// The bytes of the frame recorded, if one was.
    fn recorded(&mut self) -> Option<Vec<u8>> {
        None
    }

    /// Ask the terminal how many cells it gives the clusters terminals
    /// disagree on (see [`crate::terminal::term_widths`]); its answers come
    /// back as cursor position reports. A test terminal is not asked.
    fn probe_widths(&mut self) -> std::io::Result<()> {
        Ok(())
    }

    /// A cursor position report came in (1-based): true if it taught the
    /// screen new widths, so everything is to be drawn again.
    fn learn_width(&mut self, _row: u16, _col: u16) -> bool {
        false
    }

    /// The cells the terminal gives clusters, as far as it is known.
    fn widths(&self) -> crate::terminal::term_widths::TermWidths {
        crate::terminal::term_widths::TermWidths::default()
    }
}

impl Screen for TestBackend {
    fn resized(&mut self, width: u16, height: u16) {
        self.resize(width, height);
    }
}

impl<W: std::io::Write> Screen for ratatui::backend::CrosstermBackend<W> {
    fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        std::io::Write::write_all(self, bytes)?;
        std::io::Write::flush(self)
    }
}
