//! The help overlay: every row of the key table, by section.

use crate::app::App;
use crate::glossary;
use crate::keymap::{help_rows_for, section_order};
use crate::layout::help_geometry;
use crate::view::widths::{fit_left, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The help text as lines of one column `width` wide: a heading per
/// section, then `keys  what they do`, what they do wrapped under itself
/// (never cut); the sections of the view on screen come first.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    sections(app, width).0
}

/// The help's lines, and the index of each section's heading (the
/// glossary's last), where two columns may split.
pub fn sections(app: &App, width: usize) -> (Vec<Line<'static>>, Vec<usize>) {
    let t = &app.theme;
    let rows = help_rows_for(app);
    let keys_width = rows.iter().map(|(k, _, _)| width_of(k)).max().unwrap_or(0);
    let room = width.saturating_sub(keys_width + 1).max(12);
    let mut out = Vec::new();
    let mut headings = Vec::new();
    for section in section_order(app) {
        let mut first = true;
        for (keys, help, _) in rows.iter().filter(|(_, _, s)| *s == section) {
            if first {
                headings.push(out.len());
                out.push(Line::styled(section.title().to_string(), t.heading()));
                first = false;
            }
            for (k, part) in crate::panes::why::wrap(help, room).into_iter().enumerate() {
                let keys = if k == 0 { keys.as_str() } else { "" };
                out.push(Line::from(vec![
                    Span::styled(format!("{} ", fit_left(keys, keys_width, "")), t.key()),
                    Span::raw(truncate(&part, room, t.glyphs.ellipsis)),
                ]));
            }
        }
    }
    headings.push(out.len());
    out.push(Line::styled(glossary::TITLE.to_string(), t.heading()));
    for (term, meaning) in glossary::lines(app, width) {
        out.push(Line::from(vec![
            Span::styled(term, t.heading()),
            Span::raw(meaning),
        ]));
    }
    (out, headings)
}

fn width_of(s: &str) -> usize {
    crate::panes::rows::cell_width(s)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let g = help_geometry(app, area);
    let mut left = lines(app, g.col_width);
    let right = left.split_off(g.split.min(left.len()));
    let rect = g.rect;
    let max_scroll = g.max_scroll;
    let scroll = app.scroll.help.min(max_scroll as usize) as u16;
    let two_columns = g.two_columns;
    let col_width = g.col_width;
    // A small terminal cannot show every row at once: say so, or the last
    // rows would look like they do not exist.
    let hint = if scroll < max_scroll {
        " Down PgDn: more · ? or Esc closes "
    } else if max_scroll > 0 {
        " Up PgUp: back · ? or Esc closes "
    } else {
        " ? or Esc closes "
    };
    let block = Block::bordered()
        .border_set(app.theme.border())
        .title(Line::styled(" Keys ", app.theme.title(true)))
        .title_bottom(Line::styled(hint, app.theme.dim()).right_aligned());
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    if two_columns {
        let lw = col_width as u16;
        let l = Rect::new(inner.x + 1, inner.y, lw, inner.height);
        let r = Rect::new(
            inner.x + lw + 2,
            inner.y,
            inner.width.saturating_sub(lw + 2),
            inner.height,
        );
        frame.render_widget(Paragraph::new(left).scroll((scroll, 0)), l);
        frame.render_widget(Paragraph::new(right).scroll((scroll, 0)), r);
    } else {
        let l = Rect::new(
            inner.x + 1,
            inner.y,
            inner.width.saturating_sub(1),
            inner.height,
        );
        frame.render_widget(Paragraph::new(left).scroll((scroll, 0)), l);
    }
}
