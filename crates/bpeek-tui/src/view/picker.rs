//! The list of tokenizers by name, drawn over the screen: each name with
//! where it lives, the cursor's row marked.

use crate::app::{App, InputMode};
use crate::view::widths::truncate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let InputMode::Pick(picker) = &app.input else {
        return;
    };
    let t = &app.theme;
    let width = area.width.saturating_sub(4).clamp(10, 76);
    let height = (picker.rows.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(width)) / 2,
        y: area.y + 1,
        width,
        height,
    };
    let shown = usize::from(height.saturating_sub(2)).max(1);
    let first = picker.at.saturating_sub(shown - 1);
    let inner = usize::from(width.saturating_sub(2));
    let source_width = 9;
    let lines: Vec<Line> = picker
        .rows
        .iter()
        .enumerate()
        .skip(first)
        .take(shown)
        .map(|(i, row)| {
            let name = truncate(
                &row.name,
                inner.saturating_sub(source_width + 1),
                t.glyphs.ellipsis,
            );
            let pad = inner.saturating_sub(crate::panes::rows::cell_width(&name) + source_width);
            let text = format!("{name}{}{:>source_width$}", " ".repeat(pad), row.source);
            if i == picker.at {
                Line::from(Span::styled(text, t.cursor_row()))
            } else {
                Line::from(text)
            }
        })
        .collect();
    let title = format!(" Add a tokenizer: {} by name ", picker.rows.len());
    let block = Block::bordered()
        .border_set(t.border())
        .title(Line::styled(title, t.title(true)))
        .title_bottom(Line::styled(" Enter adds · Esc closes ", t.dim()).right_aligned());
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
