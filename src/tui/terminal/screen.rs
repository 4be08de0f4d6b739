//! What the loop draws on: any ratatui backend that can be told its new
//! size.

use ratatui::backend::{Backend, TestBackend};

/// A backend the loop can tell about a resize. A real terminal already knows
/// its size; a test backend has to be resized by hand.
pub trait Screen: Backend {
    fn resized(&mut self, _width: u16, _height: u16) {}
}

impl Screen for TestBackend {
    fn resized(&mut self, width: u16, height: u16) {
        self.resize(width, height);
    }
}

impl<W: std::io::Write> Screen for ratatui::backend::CrosstermBackend<W> {}
