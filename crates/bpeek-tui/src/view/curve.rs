//! The compression curve under the merge list: corpus tokens against
//! merges so far, the selected (or newest) merge marked under the axis.

use crate::app::App;
use crate::layout::inner;
use crate::panes::curve::tokens_by_merge;
use crate::panes::why::plural;
use crate::view::widths::{fit_left, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

const EIGHTHS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
const ASCII_LEVELS: [&str; 9] = [" ", " ", ".", ".", "o", "o", "O", "O", "#"];

/// `1 token`, `5 tokens`.
fn tokens(n: u64) -> String {
    plural(n, "token")
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let points = tokens_by_merge(app.trainer());
    let n = points.len() - 1;
    let first = points[0];
    let last = points[n];
    let arrow = t.glyphs.arrow;
    let right = format!("{first} {arrow} {}", tokens(last));
    let block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(false))
        .title(Line::styled(" Corpus tokens by merge ", t.title(false)))
        .title_top(Line::raw(format!(" {right} ")).right_aligned());
    let body = inner(area);
    frame.render_widget(block, area);
    let (w, h) = (body.width as usize, body.height as usize);
    if w < 4 || h < 2 {
        return;
    }
    if n == 0 {
        frame.render_widget(
            Paragraph::new("no merges yet: the curve starts with the first merge"),
            body,
        );
        return;
    }
    let chart_h = h - 1;
    // Column c shows the count after merge k(c); the first column merge 0.
    let k_of = |c: usize| {
        if w == 1 {
            n
        } else {
            (c * n).div_ceil(w - 1).min(n)
        }
    };
    let columns = w.min(n + 1);
    let k_at = |c: usize| if columns == n + 1 { c } else { k_of(c) };
    // A selected merge is marked by the count after it; else the newest.
    let selected = app
        .selected_merge()
        .filter(|_| app.scroll.merge_cursor.is_some());
    let marked = selected.map_or(n, |rank| rank + 1);
    let mark_col = (0..columns)
        .find(|&c| k_at(c) >= marked)
        .unwrap_or(columns - 1);
    let span = (first - last).max(1) as f64;
    let levels = if t.ascii { &ASCII_LEVELS } else { &EIGHTHS };
    let eighths: Vec<usize> = (0..columns)
        .map(|c| {
            let v = points[k_at(c)];
            // At least a sliver, so the lowest point still shows.
            (((v - last) as f64 / span) * ((chart_h * 8 - 1) as f64)).round() as usize + 1
        })
        .collect();
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    for row in 0..chart_h {
        let floor = (chart_h - 1 - row) * 8;
        let spans: Vec<Span> = eighths
            .iter()
            .enumerate()
            .map(|(c, &e)| {
                let level = e.saturating_sub(floor).min(8);
                let style = if c == mark_col {
                    t.winner()
                } else {
                    t.heading()
                };
                Span::styled(levels[level], style)
            })
            .collect();
        lines.push(Line::from(spans));
    }
    // Under the chart, the marked merge: where it is and its count.
    let up = t.glyphs.up;
    let label = match selected {
        Some(_) => format!("after merge {marked}: {}", tokens(points[marked])),
        None => format!("{}: {}", plural(n as u64, "merge"), tokens(points[marked])),
    };
    let lw = width(&label);
    let axis = if mark_col + 2 + lw <= w {
        format!("{}{up} {label}", " ".repeat(mark_col))
    } else if mark_col > lw {
        format!("{}{label} {up}", " ".repeat(mark_col - lw - 1))
    } else {
        format!("{up} {label}")
    };
    lines.push(Line::styled(
        fit_left(&axis, w, t.glyphs.ellipsis),
        t.heading(),
    ));
    crate::view::put_lines(frame, body, &lines);
}
