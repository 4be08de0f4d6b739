//! The help overlay: every row of the key table, by section.

use crate::tui::app::App;
use crate::tui::keymap::{BINDINGS, Section, When};
use crate::tui::view::widths::{fit_left, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// The help text as lines of one column: a heading per section, then
/// `keys  what they do`.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let rows = help_rows();
    let keys_width = rows.iter().map(|(k, _, _)| width_of(k)).max().unwrap_or(0);
    let mut out = Vec::new();
    for section in Section::ORDER {
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
    unicode_width::UnicodeWidthStr::width(s)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let two_columns = area.width >= 78;
    let col_width = if two_columns {
        (area.width.saturating_sub(4) / 2) as usize
    } else {
        area.width.saturating_sub(4) as usize
    };
    let all = lines(app, col_width);
    let (left, right): (Vec<_>, Vec<_>) = if two_columns {
        // Split at the section heading that balances the columns best, so
        // no section breaks across them.
        let split = (1..all.len())
            .filter(|&i| is_heading(&all[i]))
            .min_by_key(|&i| i.max(all.len() - i))
            .unwrap_or(all.len());
        let mut l = all;
        let r = l.split_off(split);
        (l, r)
    } else {
        (all, Vec::new())
    };
    let body_height = left.len().max(right.len()) as u16;
    let height = (body_height + 2).min(area.height);
    let width = area.width;
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let max_scroll = body_height.saturating_sub(height.saturating_sub(2));
    let scroll = app.help_scroll.min(max_scroll as usize) as u16;
    // A small terminal cannot show every row at once: say so, or the last
    // rows would look like they do not exist.
    let hint = if scroll < max_scroll {
        " Down: more · ? or Esc closes "
    } else if max_scroll > 0 {
        " Up: back · ? or Esc closes "
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
