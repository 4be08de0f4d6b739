//! A crossterm backend that leaves no stale cells behind clusters whose
//! width terminals disagree on.
//!
//! ratatui lays a row out by the widths `unicode-width` gives, and never
//! writes the cell a two-column character hides; when the character is
//! replaced, it trusts the terminal to clear both halves. A cluster of
//! several code points (an emoji with a variation selector or joiners, a
//! Devanagari conjunct) may be two columns to ratatui but one to the
//! terminal, or two separate cells (tmux puts `स्` and `ते` in one cell
//! each), and then a stray glyph from an earlier screen stays behind. So
//! the cells such a cluster covers are erased before it is drawn and again
//! when something else is drawn in its place.

use crossterm::{QueueableCommand, cursor::MoveTo};
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::{Cell, CellWidth};
use ratatui::layout::{Position, Size};
use std::collections::HashMap;
use std::io::{self, Write};

pub struct WideCellBackend<W: Write> {
    inner: CrosstermBackend<W>,
    /// Where uncertain clusters are on screen, and their widths.
    uncertain_at: HashMap<(u16, u16), u16>,
}

impl<W: Write> WideCellBackend<W> {
    pub fn new(writer: W) -> Self {
        WideCellBackend {
            inner: CrosstermBackend::new(writer),
            uncertain_at: HashMap::new(),
        }
    }

    /// Blank `width` cells from (x, y), without moving past them.
    fn erase(&mut self, x: u16, y: u16, width: u16) -> io::Result<()> {
        self.inner.queue(MoveTo(x, y))?;
        write!(self.inner, "\x1b[{width}X")
    }
}

/// A cluster whose width a terminal may not agree with: several code points
/// (more than the four bytes one code point takes) in more than one column.
fn uncertain(symbol: &str) -> bool {
    symbol.len() > 4 && symbol.cell_width() > 1
}

impl<W: Write> Backend for WideCellBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut run: Vec<(u16, u16, &'a Cell)> = Vec::new();
        for (x, y, cell) in content {
            let was = self.uncertain_at.remove(&(x, y));
            let is = uncertain(cell.symbol()).then(|| cell.symbol().cell_width());
            let erase = was.into_iter().chain(is).max();
            if let Some(width) = erase {
                self.inner.draw(run.drain(..))?;
                self.erase(x, y, width)?;
            }
            if let Some(width) = is {
                self.uncertain_at.insert((x, y), width);
            }
            run.push((x, y, cell));
        }
        self.inner.draw(run.into_iter())
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.uncertain_at.clear();
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        if clear_type == ClearType::All {
            self.uncertain_at.clear();
        }
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}
