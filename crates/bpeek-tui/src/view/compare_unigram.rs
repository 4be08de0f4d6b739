//! A Unigram column beside BPE columns: the size it is trained to and
//! why (column A's vocabulary, or its own `--vocab-size`), whether a run
//! is under way, the corpus's tokens and bytes per token as the status
//! line counts them for a BPE column, the loss, and its pieces by
//! probability.

use crate::app::App;
use crate::compare::{Comparison, UnigramColumn};
use crate::view::compare::{ColumnLight, column_frame};
use crate::view::widths::fit_left;
use bpeek_core::train::unigram::UnigramStop;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

/// The column's lines, `w` cells wide, as many as `rows`.
pub fn column_lines(
    app: &App,
    c: &Comparison,
    u: &UnigramColumn,
    w: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let ell = theme.glyphs.ellipsis;
    let t = &u.shown;
    let mut lines = Vec::new();
    let size = t.config().vocab_size;
    let size_line = match u.pinned {
        // Never trained yet: the seeds, not a size.
        _ if t.stop_reason().is_none() => format!(
            "seeded: {} pieces",
            t.config().reserved() + t.pieces().alive().len()
        ),
        Some(_) => format!("{size} pieces (fixed)"),
        None => format!("{size} pieces = {}'s vocab", leader(c)),
    };
    lines.push(Line::styled(fit_left(&size_line, w, ell), theme.heading()));
    if let Some(why) = &u.refused {
        lines.push(Line::styled(
            fit_left(&format!("size {}: {why}", u.wanted), w, ell),
            theme.notice(),
        ));
    } else if !u.ready() {
        let to = u.training_to().unwrap_or(u.wanted);
        lines.push(Line::styled(
            fit_left(&format!("training to {to} pieces{ell}"), w, ell),
            theme.notice(),
        ));
    }
    let i = c
        .columns
        .iter()
        .position(|col| col.unigram.as_ref().is_some_and(|x| std::ptr::eq(x, u)));
    if let Some(row) = i.and_then(|i| crate::view::compare::cut_line(app, c, i, w)) {
        lines.push(row);
    }
    if let Some(stop) = t.stop_reason().filter(|s| *s != UnigramStop::VocabSize) {
        lines.push(Line::styled(
            fit_left(&stop.to_string(), w, ell),
            theme.notice(),
        ));
    }
    let tokens = t.last_step().tokens;
    lines.push(Line::raw(fit_left(
        &format!("{tokens} tok, {:.2} B/tok", per_token(app, tokens)),
        w,
        ell,
    )));
    lines.push(Line::styled(
        fit_left(
            &format!(
                "loss {:.1}, {} prune{}",
                t.last_step().loss,
                t.last_step().round,
                if t.last_step().round == 1 { "" } else { "s" }
            ),
            w,
            ell,
        ),
        theme.dim(),
    ));
    lines.push(Line::styled(
        fit_left("pieces by probability", w, ""),
        theme.heading(),
    ));
    let room = rows.saturating_sub(lines.len());
    lines.extend(
        t.top_pieces(room)
            .into_iter()
            .map(|(text, logp)| Line::raw(fit_left(&format!("{logp:>7.2} {text}"), w, ell))),
    );
    lines
}

/// The letter of the column the Unigram columns follow.
fn leader(c: &Comparison) -> char {
    let i = c.columns.iter().position(|col| !col.is_unigram());
    Comparison::name(i.unwrap_or(0))
}

/// Bytes of the corpus per token, as the status line divides them.
pub fn per_token(app: &App, tokens: u64) -> f64 {
    let bytes = app.trainer().corpus().source_len();
    if tokens > 0 {
        bytes as f64 / tokens as f64
    } else {
        0.0
    }
}

pub fn draw_column(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    c: &Comparison,
    i: usize,
    title: (String, Vec<String>),
) {
    let Some(u) = c.columns[i].unigram.as_ref() else {
        return;
    };
    // A Unigram column takes no keys of its own: its frame is never lit.
    let light = ColumnLight {
        title: false,
        border: false,
    };
    let Some((body, mut lines)) = column_frame(frame, area, app, title, light) else {
        return;
    };
    let w = body.width as usize;
    let rows = (body.height as usize).saturating_sub(lines.len());
    lines.extend(column_lines(app, c, u, w, rows));
    crate::view::put_lines(frame, body, &lines);
}
