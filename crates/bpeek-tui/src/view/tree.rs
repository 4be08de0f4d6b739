//! The merge tree over the panes: how one token was built, merge by merge.

use crate::app::App;
use crate::view::widths::{truncate, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(tree) = &app.tree else {
        return;
    };
    let t = &app.theme;
    let rows: Vec<String> = if tree.lines.is_empty() {
        vec!["(a base token: nothing below it)".to_string()]
    } else {
        tree.lines
            .iter()
            .map(|(depth, text)| format!("{}{text}", "  ".repeat(*depth)))
            .collect()
    };
    let widest = rows
        .iter()
        .map(|r| width(r))
        .chain([width(&tree.title) + 4, 24])
        .max()
        .unwrap_or(0);
    let w = (widest as u16 + 4)
        .min(area.width.saturating_sub(2))
        .max(10);
    let h = (rows.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let rect = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let inner_w = w.saturating_sub(4) as usize;
    let lines: Vec<Line> = rows
        .iter()
        .skip(tree.scroll)
        .map(|r| Line::raw(format!(" {}", truncate(r, inner_w + 1, t.glyphs.ellipsis))))
        .collect();
    let more = rows.len().saturating_sub(tree.scroll) > h.saturating_sub(2) as usize;
    let bottom = if more {
        // ASCII's own dot is a comma, which reads as part of the sentence.
        let dot = if t.ascii { "|" } else { t.glyphs.dot };
        format!(" Down: more {dot} Esc closes ")
    } else {
        " Esc closes ".to_string()
    };
    let block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(true))
        .title(Line::styled(
            format!(" {} ", truncate(&tree.title, inner_w, t.glyphs.ellipsis)),
            t.title(true),
        ))
        .title_bottom(Line::styled(bottom, t.heading()).right_aligned());
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
