//! The lesson's caption bar, above the footer.

use crate::app::App;
use crate::panes::why::wrap;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(lesson) = &app.lesson else {
        return;
    };
    let text = lesson.bar_text();
    let mut rows = wrap(&format!(" {text}"), area.width as usize);
    rows.truncate(area.height as usize);
    // Bold on reverse video: it reads as the bar it is without colour.
    let style = Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED);
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|r| {
            let pad = (area.width as usize).saturating_sub(crate::view::widths::width(&r));
            Line::styled(format!("{r}{}", " ".repeat(pad)), style)
        })
        .collect();
    crate::view::put_lines(frame, area, &lines);
}
