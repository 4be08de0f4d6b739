//! The compression curve under the merge list: corpus tokens against
//! merges so far, on a y axis from 0 (so a merge that takes 4% of the
//! tokens falls 4% of the height), the merge numbers under it and the
//! selected (or newest) merge marked. With `--d-model`, a row under the
//! axis says what the vocabulary at that merge costs a model that wide.
//!
//! ```text
//! ┌ Corpus tokens by merge ──────────── 2958 → 2000 tokens ┐
//! │2958┤███▆▄▂▁                                             │
//! │    │████████▇▆▅▄▃▃▂▁                                    │
//! │   0┤██████████████████▇▆▆▅▅▄▄▃▃▂▂▁▁                     │
//! │    0                      merge 30                      │
//! │vocab 286 × d 4,096 × 2 = 2.3M params (embedding + head) │
//! └ ▲ 30 merges: 2000 tokens ───────────────────────────────┘
//! ```

use crate::app::App;
use crate::layout::inner;
use crate::panes::curve::tokens_by_merge;
use crate::panes::why::plural;
use crate::view::axes::{YAxis, bar_lines, curve_block, glyphs, x_row, y_gutter};
use crate::view::widths::{fit_left, width};
use bpeek_core::embedding::EmbeddingCost;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// `1 token`, `5 tokens`.
fn tokens(n: u64) -> String {
    plural(n, "token")
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let points = tokens_by_merge(app.trainer());
    let n = points.len() - 1;
    let (first, last) = (points[0], points[n]);
    // A selected merge is marked by the count after it; else the newest.
    let selected = app
        .selected_merge()
        .filter(|_| app.scroll.merge_cursor.is_some());
    let marked = selected.map_or(n, |rank| rank + 1);
    let arrow = t.glyphs.arrow;
    let right = format!("{first} {arrow} {}", tokens(last));
    let mut block = curve_block(t, "Corpus tokens by merge", &right, area.width);
    if n > 0 {
        let up = t.glyphs.up;
        block = block.title_bottom(Line::styled(
            format!(" {up} {} ", mark_label(selected, marked, n, &points)),
            t.heading(),
        ));
    }
    let body = inner(area);
    frame.render_widget(block, area);
    let (w, h) = (body.width as usize, body.height as usize);
    if w < 8 || h < 2 {
        return;
    }
    if n == 0 {
        frame.render_widget(
            Paragraph::new("no merges yet: the curve starts with the first merge"),
            body,
        );
        return;
    }
    let cost = app
        .d_model
        .filter(|_| h >= 3)
        .map(|d| cost_line(app, marked, d, w));
    let chart_h = h - 1 - usize::from(cost.is_some());
    let axis = YAxis::from_zero(points.iter().copied().max().unwrap_or(first));
    let g = glyphs(t.ascii);
    let gutter = y_gutter(&axis, chart_h, &g);
    let gutter_w = gutter.first().map_or(0, |s| width(s));
    let plot_w = w.saturating_sub(gutter_w).max(1);
    let columns = plot_w.min(n + 1);
    // Column c shows the count after merge k(c); the first column merge 0.
    let k_at = |c: usize| {
        if columns == n + 1 || plot_w == 1 {
            c.min(n)
        } else {
            (c * n).div_ceil(plot_w - 1).min(n)
        }
    };
    let mark_col = (0..columns)
        .find(|&c| k_at(c) >= marked)
        .unwrap_or(columns - 1);
    let mut lines = bar_lines(
        t,
        &axis,
        &gutter,
        (0..columns).map(|c| points[k_at(c)]),
        mark_col,
    );
    let x_axis = x_row(plot_w, columns - 1, n, Some(mark_col), t.glyphs.up);
    lines.push(Line::styled(
        format!("{}{x_axis}", " ".repeat(gutter_w)),
        t.dim(),
    ));
    if let Some(cost) = cost {
        lines.push(Line::styled(cost, t.heading()));
    }
    crate::view::put_lines(frame, body, &lines);
}

/// The marked merge in words: `after merge 13: 2100 tokens`, `30 merges:
/// 2000 tokens`.
fn mark_label(selected: Option<usize>, marked: usize, n: usize, points: &[u64]) -> String {
    match selected {
        Some(_) => format!("after merge {marked}: {}", tokens(points[marked])),
        None => format!("{}: {}", plural(n as u64, "merge"), tokens(points[marked])),
    }
}

/// The vocabulary after `merges` merges, special tokens included, as the
/// status line counts it.
pub fn vocab_after(app: &App, merges: usize) -> usize {
    let trainer = app.trainer();
    let unmade = trainer.merges().len().saturating_sub(merges);
    trainer.vocab().len() - unmade + app.specials().len()
}

/// What the vocabulary after `merges` merges costs a model `d_model`
/// wide, in `w` columns: the sum, then what it counts as room allows.
fn cost_line(app: &App, merges: usize, d_model: u32, w: usize) -> String {
    let g = glyphs(app.theme.ascii);
    let sum = EmbeddingCost::new(vocab_after(app, merges), d_model).sum(g.times);
    let forms = [
        format!("{sum} (embedding table + output head, untied)"),
        format!("{sum} (embedding + head, untied)"),
        format!("{sum} (untied)"),
        sum,
    ];
    let text = forms.iter().find(|f| width(f) <= w).unwrap_or(&forms[3]);
    fit_left(text, w, app.theme.glyphs.ellipsis)
}
