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
