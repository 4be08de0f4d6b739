//! Unigram mode's curve, in the compression curve's place: the corpus
//! tokens after each step, on a y axis cut where that shows the change
//! (as the compared curves are). It goes the other way from
//! BPE's: as prunes take pieces away, words are cut into more tokens.
//!
//! ```text
//! ┌ Corpus tokens by step ─── 1085 pieces → 813 ┐
//! │ 724┤         ▂▂▂▄▄▄                          │
//! │   0┤████████████████                         │
//! │    0                                  step 9 │
//! └ ▲ step 9, round 1: 700 tokens ───────────────┘
//! ```

use crate::app::App;
use crate::app::unigram::UnigramView;
use crate::layout::inner;
use crate::view::axes::{YAxis, bar_lines, curve_block, glyphs, y_gutter};
use crate::view::widths::width;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, u: &UnigramView) {
    let t = &app.theme;
    let trainer = &u.trainer;
    let points = trainer.tokens_by_step();
    let n = points.len() - 1;
    let steps = trainer.steps();
    let right = format!(
        "{} pieces {} {}",
        steps[0].pieces,
        t.glyphs.arrow,
        trainer.last_step().pieces
    );
    let mut block = curve_block(t, "Corpus tokens by step", &right, area.width);
    block = block.title_bottom(Line::styled(
        format!(
            " {} step {n}, round {}: {} tokens ",
            t.glyphs.up,
            trainer.last_step().round,
            points[n]
        ),
        t.heading(),
    ));
    let body = inner(area);
    frame.render_widget(block, area);
    let (w, h) = (body.width as usize, body.height as usize);
    if w < 8 || h < 2 {
        return;
    }
    if n == 0 {
        let text = "step 0, the seeds: the curve starts with the first step";
        crate::view::put_lines(frame, body, &[Line::raw(text)]);
        return;
    }
    let chart_h = h - 1;
    // Fitted, so that a rise of a few tokens in a thousand shows.
    let most = points.iter().copied().max().unwrap_or(1);
    let least = points.iter().copied().min().unwrap_or(0);
    let axis = YAxis::fitted(least, most);
    let gutter = y_gutter(&axis, chart_h, &glyphs(t.ascii));
    let gutter_w = gutter.first().map_or(0, |s| width(s));
    let plot_w = w.saturating_sub(gutter_w).max(1);
    // Few steps are drawn wide, each over the same number of columns;
    // many share columns, the last column the newest step.
    let per_step = (plot_w / (n + 1)).max(1);
    let columns = plot_w.min((n + 1) * per_step);
    let k_at = |c: usize| {
        if per_step > 1 || columns == n + 1 {
            (c / per_step).min(n)
        } else {
            (c * n).div_ceil(columns - 1).min(n)
        }
    };
    let values = (0..columns).map(|c| points[k_at(c)]);
    let mut lines = bar_lines(t, &axis, &gutter, values, columns - 1);
    let last = format!("step {n}");
    let pad = columns.saturating_sub(1 + width(&last)).max(1);
    lines.push(Line::styled(
        format!("{}0{}{last}", " ".repeat(gutter_w), " ".repeat(pad)),
        t.dim(),
    ));
    crate::view::put_lines(frame, body, &lines);
}
