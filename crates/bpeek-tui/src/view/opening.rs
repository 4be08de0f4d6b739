//! The screen while a big corpus is read and counted: what is being
//! opened, how far it has got, and the keys that work meanwhile.

use crate::app::App;
use crate::keymap::footer_rows;
use crate::view::{progress, widths::truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let max = area.width as usize;
    let what = progress::text(app).unwrap_or_default();
    let keys: Vec<Span> = footer_rows(app)
        .flat_map(|b| {
            [
                Span::styled(format!(" {}", b.keys_label()), t.key()),
                Span::raw(format!(" {} ", b.footer.unwrap_or_default())),
            ]
        })
        .collect();
    let lines = [
        Line::styled(truncate("bpeek", max, ""), t.heading()),
        Line::raw(""),
        Line::styled(truncate(&what, max, t.glyphs.ellipsis), t.notice()),
        Line::raw(""),
        Line::from(keys),
    ];
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.into_iter().enumerate() {
        let y = top + i as u16;
        if y >= area.y + area.height {
            break;
        }
        let w = (line.width() as u16).min(area.width);
        let x = area.x + area.width.saturating_sub(w) / 2;
        frame.render_widget(line, Rect::new(x, y, w, 1));
    }
}
