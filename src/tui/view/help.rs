//! The help overlay: every row of the key table, by section.

use crate::tui::app::App;
use crate::tui::keymap::{BINDINGS, Section, When};
use crate::tui::view::widths::{fit_left, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The help text as lines of one column: a heading per section, then
/// `keys  what they do`; the sections of the view on screen come first.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let rows = help_rows();
    let keys_width = rows.iter().map(|(k, _, _)| width_of(k)).max().unwrap_or(0);
    let mut out = Vec::new();
    for section in section_order(app) {
        let mut first = true;
        for (keys, help, _) in rows.iter().filter(|(_, _, s)| *s == section) {
            if first {
                out.push(Line::styled(section.title().to_string(), t.heading()));
                first = false;
            }
            let help = truncate(
                help,
                width.saturating_sub(keys_width + 1),
                t.glyphs.ellipsis,
            );
            out.push(Line::from(vec![
                Span::styled(format!("{} ", fit_left(keys, keys_width, "")), t.key()),
                Span::raw(help),
            ]));
        }
    }
    out
}

/// The sections in the order help lists them: the keys of the view on
/// screen first.
pub fn section_order(app: &App) -> Vec<Section> {
    let first: &[Section] = if app.fert.open {
        &[Section::Fertility]
    } else if app.focus == crate::tui::app::Focus::Encode {
        &[Section::Encoding]
    } else {
        &[]
    };
    let mut order = first.to_vec();
    order.extend(Section::ORDER.iter().filter(|s| !first.contains(s)));
    order
}

/// How the overlay sits on a screen: its rectangle, its columns, and how
/// far it can scroll. The key table alone decides it, so scrolling can be
/// bounded without drawing.
pub struct Geometry {
    pub rect: Rect,
    pub two_columns: bool,
    pub col_width: usize,
    /// Lines of the left column; the rest go right.
    pub split: usize,
    pub body_height: u16,
    pub max_scroll: u16,
}

pub fn geometry(app: &App, area: Rect) -> Geometry {
    let two_columns = area.width >= 78;
    let col_width = if two_columns {
        (area.width.saturating_sub(4) / 2) as usize
    } else {
        area.width.saturating_sub(4) as usize
    };
    let all = lines(app, col_width);
    let split = if two_columns {
        // Split at the section heading that balances the columns best, so
        // no section breaks across them.
        (1..all.len())
            .filter(|&i| is_heading(&all[i]))
            .min_by_key(|&i| i.max(all.len() - i))
            .unwrap_or(all.len())
    } else {
        all.len()
    };
    let body_height = split.max(all.len() - split) as u16;
    let height = (body_height + 2).min(area.height);
    let rect = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    Geometry {
        rect,
        two_columns,
        col_width,
        split,
        body_height,
        max_scroll: body_height.saturating_sub(height.saturating_sub(2)),
    }
}

/// The rows of the key table as help lists them: rows that say the same
/// thing in the same section share a line (`+ = -  autoplay faster/slower`).
fn help_rows() -> Vec<(String, &'static str, Section)> {
    let mut rows: Vec<(String, &'static str, Section)> = Vec::new();
    for b in BINDINGS.iter().filter(|b| b.when != When::Help) {
        match rows
            .iter_mut()
            .find(|(_, help, section)| *help == b.help && *section == b.section)
        {
            Some(row) => {
                for key in b.keys.iter().map(|k| k.label()) {
                    if !row.0.split(' ').any(|k| k == key) {
                        row.0.push(' ');
                        row.0.push_str(&key);
                    }
                }
            }
            None => rows.push((b.keys_label(), b.help, b.section)),
        }
    }
    rows
}

fn width_of(s: &str) -> usize {
    crate::tui::rows::cell_width(s)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let g = geometry(app, area);
    let mut left = lines(app, g.col_width);
    let right = left.split_off(g.split.min(left.len()));
    let rect = g.rect;
    let max_scroll = g.max_scroll;
    let scroll = app.help_scroll.min(max_scroll as usize) as u16;
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

fn is_heading(line: &Line) -> bool {
    line.spans.len() == 1
}
