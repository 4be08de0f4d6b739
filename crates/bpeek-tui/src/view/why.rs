//! The round in words, drawn under the focused pane inside its border.

use crate::app::App;
use crate::panes::why;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let block = Block::new()
        .borders(Borders::LEFT | Borders::RIGHT | Borders::BOTTOM)
        .border_set(t.border())
        .border_style(t.border_style(true));
    let body = block.inner(area);
    let Some(mut rows) = why::rows(app, body.width as usize, body.height as usize) else {
        return;
    };
    let room = body.height as usize;
    if rows.len() > room && room > 0 {
        // Cut, and say so.
        rows.truncate(room);
        let last = rows.pop().unwrap_or_default();
        let cut = crate::view::widths::truncate(
            &format!("{last} {}", t.glyphs.ellipsis),
            body.width as usize,
            t.glyphs.ellipsis,
        );
        rows.push(cut);
    }
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|r| Line::styled(r, t.heading()))
        .collect();
    frame.render_widget(block, area);
    crate::view::put_lines(frame, body, &lines);
}
