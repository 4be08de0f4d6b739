//! A crossterm backend that leaves no stale cells behind text whose width
//! terminals disagree on.
//!
//! ratatui lays a row out by the widths `unicode-width` gives and writes
//! only the cells that changed, trusting the terminal to put each glyph
//! where it expects. For plain text that holds. For clusters of several
//! code points (a Devanagari conjunct, an emoji with a variation selector)
//! and for the marks of complex scripts, terminals differ: tmux keeps `स्`
//! and `ते` in two cells, some terminals draw a spacing vowel sign on its
//! neighbour, others give a two-column emoji one column. Then glyphs land
//! off by a cell and old ones stay behind where ratatui believes it wrote
//! blanks.
//!
//! So this backend keeps its own copy of the screen, and a row that holds
//! such text (now or before the frame) is not patched but erased and
//! written again whole, each of its uncertain clusters placed by an
//! explicit cursor move. Rows of plain text are patched as usual.

use crate::terminal::cell_writer::CompactBackend;
use crate::terminal::screen::Screen;
use crate::terminal::term_widths::{self, TermWidths};
use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell, CellWidth};
use ratatui::layout::{Position, Rect, Size};
use std::io::Write;

/// Wraps any backend: the local terminal's, or a served session's.
pub struct WideCellBackend<B: Backend> {
    inner: B,
    /// What the terminal shows, as far as this backend has drawn it.
    screen: Buffer,
    /// Rows that held uncertain text after the last frame.
    uncertain_rows: Vec<bool>,
    cursor: Position,
    /// The cells the terminal gives clusters, as its answers to the
    /// probes taught (tmux's until they come).
    widths: TermWidths,
}

impl<W: Write> WideCellBackend<CompactBackend<W>> {
    /// The local terminal, written through `writer`.
    pub fn new(writer: W) -> Self {
        WideCellBackend::over(CompactBackend::new(writer))
    }
}

impl<B: Backend> WideCellBackend<B> {
    pub fn over(inner: B) -> Self {
        WideCellBackend {
            inner,
            screen: Buffer::empty(Rect::default()),
            uncertain_rows: Vec::new(),
            cursor: Position::ORIGIN,
            widths: TermWidths::default(),
        }
    }

    /// Forget what the screen holds (after a clear or a resize).
    fn reset_copy(&mut self) {
        let size = self.inner.size().unwrap_or_default();
        self.screen = Buffer::empty(Rect::new(0, 0, size.width, size.height));
        self.uncertain_rows = vec![false; size.height as usize];
    }

    /// Erase row `y` and write all of it from the copy, each uncertain
    /// cluster and the cell after it placed by an explicit move. The blank
    /// cells a cluster covers where the terminal draws it wider than
    /// ratatui counts it (room the layout left, see [`term_widths`]) are
    /// not written: they would erase its end.
    fn rewrite_row(&mut self, y: u16) -> Result<(), B::Error> {
        self.inner.set_cursor_position(Position::new(0, y))?;
        self.inner.clear_region(ClearType::CurrentLine)?;
        let width = self.screen.area.width;
        let mut run: Vec<(u16, u16, Cell)> = Vec::new();
        let mut covered = 0;
        let mut x = 0;
        while x < width {
            let cell = self.screen[(x, y)].clone();
            let w = width_of(cell.symbol()).max(1);
            if covered > 0 && cell.symbol() == " " {
                covered -= 1;
                x += w;
                continue;
            }
            covered = 0;
            let uncertain = is_uncertain(cell.symbol());
            if uncertain {
                covered = term_widths::extra_cells(&self.widths, cell.symbol());
            }
            if cell.symbol() != " "
                || cell.bg != ratatui::style::Color::Reset
                || !cell.modifier.is_empty()
            {
                run.push((x, y, cell));
            }
            if uncertain {
                // The next cell starts a new run, so it gets its own move.
                self.inner.draw(run.iter().map(|(x, y, c)| (*x, *y, c)))?;
                run.clear();
            }
            x += w;
        }
        self.inner.draw(run.iter().map(|(x, y, c)| (*x, *y, c)))
    }
}

/// The columns `symbol` takes, by the widths ratatui lays rows out with.
fn width_of(symbol: &str) -> u16 {
    if symbol.len() == 1 {
        1
    } else {
        symbol.cell_width()
    }
}

/// Text whose width or placement terminals may not agree on: clusters of
/// several code points, and characters of scripts with combining or
/// spacing marks, or emoji. A single plain character is certain.
fn is_uncertain(symbol: &str) -> bool {
    if symbol.len() == 1 {
        return false;
    }
    let mut chars = symbol.chars();
    let Some(c) = chars.next() else {
        return false;
    };
    if chars.next().is_some() {
        return true;
    }
    matches!(c as u32,
        0x0300..=0x036F // combining diacritics
        | 0x0590..=0x08FF // Hebrew, Arabic, Syriac, Thaana, N'Ko
        | 0x0900..=0x0DFF // the scripts of India and Sri Lanka
        | 0x0E00..=0x0FFF // Thai, Lao, Tibetan
        | 0x1000..=0x109F // Myanmar
        | 0x1100..=0x11FF // Hangul jamo, which combine
        | 0x1780..=0x18AF // Khmer, Mongolian
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF // more marks
        | 0x200B..=0x200F // zero-width characters
        | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F // variation selectors, half marks
        | 0x1F000..=0x1FFFF // emoji and pictographs
    )
}

impl<B: Screen> Screen for WideCellBackend<B> {
    fn resized(&mut self, width: u16, height: u16) {
        self.inner.resized(width, height);
    }

    fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.inner.send_raw(bytes)
    }

    /// Only a terminal with the usual widths: the frames of another one
    /// are laid out for other widths.
    fn sends_shared_frames(&self) -> bool {
        self.inner.sends_shared_frames() && self.widths == TermWidths::default()
    }

    fn probe_widths(&mut self) -> std::io::Result<()> {
        // On a screen too short for a row each, a probe would land on
        // another's row and its answer be taken for that one's.
        let rows = term_widths::FIRST_PROBE_ROW as usize + term_widths::PROBES.len();
        if self
            .inner
            .size()
            .ok()
            .is_none_or(|s| usize::from(s.height) < rows)
        {
            return Ok(());
        }
        self.inner.send_raw(&term_widths::probe_bytes())?;
        // The probes erased the screen.
        self.reset_copy();
        Ok(())
    }

    fn learn_width(&mut self, row: u16, col: u16) -> bool {
        self.widths.learn(row, col)
    }

    fn widths(&self) -> TermWidths {
        self.widths
    }

    fn assume_shown(&mut self, screen: &Buffer) {
        self.screen.clone_from(screen);
        let width = screen.area.width as usize;
        self.uncertain_rows = (0..screen.area.height as usize)
            .map(|row| {
                screen.content[row * width..(row + 1) * width]
                    .iter()
                    .any(|c| is_uncertain(c.symbol()))
            })
            .collect();
        self.inner.assume_shown(screen);
    }

    fn record_next_frame(&mut self) {
        self.inner.record_next_frame();
    }

    fn recorded(&mut self) -> Option<Vec<u8>> {
        self.inner.recorded()
    }
}

impl<B: Backend> Backend for WideCellBackend<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), B::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        if self.screen.area.width == 0 {
            self.reset_copy();
        }
        let patches: Vec<(u16, u16, &'a Cell)> = content.collect();
        // A screen the backend cannot measure (a fixed viewport) grows to
        // whatever is drawn on it.
        let (mut width, mut height) = (self.screen.area.width, self.screen.area.height);
        for &(x, y, _) in &patches {
            width = width.max(x + 1);
            height = height.max(y + 1);
        }
        if (width, height) != (self.screen.area.width, self.screen.area.height) {
            self.screen.resize(Rect::new(0, 0, width, height));
            self.uncertain_rows.resize(height as usize, false);
        }
        let area = self.screen.area;
        let row_len = area.width as usize;
        let mut touched = vec![false; area.height as usize];
        for &(x, y, cell) in &patches {
            let at = y as usize * row_len + x as usize;
            self.screen.content[at].clone_from(cell);
            // The cells a wide cluster hides are blank, as in ratatui's own
            // buffer, which never sends them.
            let width = width_of(cell.symbol()) as usize;
            let hidden_end = (x as usize + width).min(row_len);
            for hx in x as usize + 1..hidden_end {
                self.screen.content[y as usize * row_len + hx].reset();
            }
            touched[y as usize] = true;
        }
        // The patches come row by row (a diff runs through the buffer in
        // order), so each row's are one run of them; sorting keeps that
        // true of any caller, at no cost when it already holds.
        let mut patches = patches;
        patches.sort_by_key(|&(x, y, _)| (y, x));
        let mut rest = &patches[..];
        // Rows patched as usual go to the terminal together, in one call.
        let mut plain: Vec<(u16, u16, &'a Cell)> = Vec::new();
        for y in 0..area.height {
            let row = y as usize;
            let here = rest.partition_point(|&(_, py, _)| py == y);
            let (in_row, after) = rest.split_at(here);
            rest = after;
            if !touched[row] {
                continue;
            }
            let cells = &self.screen.content[row * row_len..(row + 1) * row_len];
            let now_uncertain = cells.iter().any(|c| is_uncertain(c.symbol()));
            if now_uncertain || self.uncertain_rows[row] {
                if !plain.is_empty() {
                    self.inner.draw(plain.drain(..))?;
                }
                self.rewrite_row(y)?;
            } else {
                plain.extend_from_slice(in_row);
            }
            self.uncertain_rows[row] = now_uncertain;
        }
        if !plain.is_empty() {
            self.inner.draw(plain.into_iter())?;
        }
        Ok(())
    }

    fn append_lines(&mut self, n: u16) -> Result<(), B::Error> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), B::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), B::Error> {
        self.inner.show_cursor()
    }

    /// Where the cursor was last put. The terminal is never asked: its
    /// answer would come in on standard input, where the explorer's own
    /// reader is waiting for keys, and either could take the other's bytes
    /// (ratatui asks on every clear and resize).
    fn get_cursor_position(&mut self) -> Result<Position, B::Error> {
        Ok(self.cursor)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), B::Error> {
        let position = position.into();
        self.cursor = position;
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), B::Error> {
        self.inner.clear()?;
        self.reset_copy();
        Ok(())
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), B::Error> {
        self.inner.clear_region(clear_type)?;
        if clear_type == ClearType::All {
            self.reset_copy();
        }
        Ok(())
    }

    fn size(&self) -> Result<Size, B::Error> {
        self.inner.size()
    }

    fn window_size(&mut self) -> Result<WindowSize, B::Error> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> Result<(), B::Error> {
        self.inner.flush()
    }
}
