//! What a terminal below the minimum size shows instead of broken panes.

use crate::app::App;
use crate::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::view::widths::truncate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    // The longest wording that fits, down to a terminal of a few cells.
    let long = [
        format!("bpeek needs {MIN_WIDTH}x{MIN_HEIGHT}"),
        format!("this terminal is {}x{}", area.width, area.height),
        "enlarge it, or press q".to_string(),
    ];
    let short = [
        format!("need {MIN_WIDTH}x{MIN_HEIGHT}"),
        format!("have {}x{}", area.width, area.height),
        "q quits".to_string(),
    ];
    let fits = |lines: &[String]| {
        lines
            .iter()
            .all(|l| crate::view::widths::width(l) <= area.width as usize)
    };
    let lines = if fits(&long) { long } else { short };
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, text) in lines.iter().enumerate() {
        let y = top + i as u16;
        if y >= area.y + area.height {
            break;
        }
        let text = truncate(text, area.width as usize, "");
        let w = unicode_width::UnicodeWidthStr::width(text.as_str()) as u16;
        let x = area.x + area.width.saturating_sub(w) / 2;
        let row = Rect::new(x, y, w, 1);
        frame.render_widget(Line::styled(text, app.theme.heading()), row);
    }
}
