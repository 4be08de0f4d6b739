//! A pane's bordered frame and its titles.
//!
//! It draws what a bordered ratatui `Block` draws, cell for cell, without
//! the block's pass over every cell of its area to apply a style that is
//! always the plain one here: a served class draws a hundred screens a
//! step, and that pass was a tenth of each.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::Line;
use ratatui::widgets::{Block, Widget};

pub struct PaneFrame<'a> {
    /// Titles on the top border (a block without borders, drawn on that
    /// row alone).
    top: Block<'a>,
    /// Titles on the bottom border, likewise.
    bottom: Option<Block<'a>>,
    set: border::Set<'a>,
    style: Style,
}

impl<'a> PaneFrame<'a> {
    pub fn new(set: border::Set<'a>, style: Style) -> Self {
        PaneFrame {
            top: Block::new(),
            bottom: None,
            set,
            style,
        }
    }

    /// A title on the top border, after those before it.
    pub fn title(mut self, line: Line<'a>) -> Self {
        self.top = self.top.title_top(line);
        self
    }

    /// A title on the bottom border.
    pub fn title_bottom(mut self, line: Line<'a>) -> Self {
        self.bottom = Some(self.bottom.unwrap_or_default().title_bottom(line));
        self
    }

    /// The area inside the border.
    pub fn inner(&self, area: Rect) -> Rect {
        Rect {
            x: area.x.saturating_add(1).min(area.right()),
            y: area.y.saturating_add(1).min(area.bottom()),
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(2),
        }
    }
}

impl Widget for PaneFrame<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let (left, top) = (area.left(), area.top());
        let right = area.right() - 1;
        let bottom = area.bottom() - 1;
        let mut put = |x: u16, y: u16, symbol: &str| {
            buf[(x, y)].set_symbol(symbol).set_style(self.style);
        };
        // Sides first and corners over them, in the block's order, so that
        // a pane one cell wide or high looks the same.
        for y in top..=bottom {
            put(left, y, self.set.vertical_left);
        }
        for x in left..=right {
            put(x, top, self.set.horizontal_top);
        }
        for y in top..=bottom {
            put(right, y, self.set.vertical_right);
        }
        for x in left..=right {
            put(x, bottom, self.set.horizontal_bottom);
        }
        put(right, bottom, self.set.bottom_right);
        put(right, top, self.set.top_right);
        put(left, bottom, self.set.bottom_left);
        put(left, top, self.set.top_left);
        let row = |y: u16| Rect {
            x: left.saturating_add(1),
            y,
            width: area.width.saturating_sub(2),
            height: 1,
        };
        self.top.render(row(top), buf);
        if let Some(b) = self.bottom {
            b.render(row(bottom), buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Modifier};

    /// Random frames and titles, drawn by a bordered block and by the pane
    /// frame over random text, give the same cells.
    #[test]
    fn a_pane_frame_draws_what_a_bordered_block_draws() {
        let mut roll = bpeek_core::dice::rolls(0x2545_F491_4F6C_DD1D);
        let mut below = |n: u64| roll(n) as u16;
        let titles = [
            "",
            "Pairs",
            " Merges 12 ",
            "a title far too long for a pane",
            "界ab",
        ];
        for _ in 0..500 {
            let screen = Rect::new(0, 0, 12, 6);
            let area = Rect::new(below(4), below(3), below(13), below(7));
            let style = Style::new()
                .fg(Color::Indexed(below(200) as u8))
                .add_modifier(Modifier::BOLD);
            let set = if below(2) == 0 {
                border::PLAIN
            } else {
                border::DOUBLE
            };
            let top = titles[below(5) as usize];
            let right = titles[below(5) as usize];
            let under = titles[below(5) as usize];
            let mut block = Block::bordered().border_set(set).border_style(style);
            let mut ours = PaneFrame::new(set, style);
            if !top.is_empty() {
                block = block.title(Line::styled(top, Style::new().fg(Color::Red)));
                ours = ours.title(Line::styled(top, Style::new().fg(Color::Red)));
            }
            if !right.is_empty() {
                block = block.title_top(Line::styled(right, Style::reset()).right_aligned());
                ours = ours.title(Line::styled(right, Style::reset()).right_aligned());
            }
            if !under.is_empty() {
                block = block.title_bottom(Line::from(under).right_aligned());
                ours = ours.title_bottom(Line::from(under).right_aligned());
            }
            let mut want = Buffer::empty(screen);
            let mut got = Buffer::empty(screen);
            for b in [&mut want, &mut got] {
                for y in 0..screen.height {
                    b.set_string(0, y, "xyzxyzxyzxyz", Style::new().bg(Color::Blue));
                }
            }
            assert_eq!(block.inner(area), ours.inner(area), "{area:?}");
            block.render(area, &mut want);
            ours.render(area, &mut got);
            assert_eq!(want, got, "{area:?} {top:?} {right:?} {under:?}");
        }
    }
}
