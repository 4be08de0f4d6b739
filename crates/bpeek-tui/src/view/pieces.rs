//! Unigram mode's piece table, in the pair table's place: every piece in
//! the vocabulary with its probability and, once the round is scored, the
//! loss its removal would cost; the pieces the coming prune takes marked.
//!
//! ```text
//! ┌ Pieces 813 by probability ─────────── l: sort ┐
//! │ piece           p      loss if removed         │
//! │ ·the        0.0312              412.00          │
//! │ ·th         0.0004                0.31 goes     │
//! ```

use crate::app::unigram::UnigramView;
use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::piece_table::{label, rows};
use crate::view::pane_block;
use crate::view::widths::{fit_left, fit_right};
use bpeek_core::train::unigram::Verdict;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, u: &UnigramView) {
    let t = &app.theme;
    let trainer = &u.trainer;
    let table = rows(trainer, u.sort);
    let body = inner(area);
    let w = body.width as usize;
    let visible = (body.height as usize).saturating_sub(1).max(1);
    let first = crate::view::unigram_words::first_shown(u.piece_row, visible, table.len());
    let (p_w, loss_w) = (9, 10);
    let piece_w = w.saturating_sub(p_w + loss_w + 5);
    let e = t.glyphs.ellipsis;
    let mut lines = vec![Line::styled(
        format!(
            "{}{}{}",
            fit_left("piece", piece_w, e),
            fit_right("p", p_w, e),
            fit_right("if removed", loss_w + 5, e)
        ),
        t.dim(),
    )];
    let edge = trainer.prune_edge();
    for (i, row) in table.iter().enumerate().skip(first).take(visible) {
        let loss = row
            .loss_if_removed
            .map_or_else(|| "-".to_string(), |l| format!("{l:.2}"));
        // Only a scored round has pieces about to go.
        let goes = edge.is_some()
            && matches!(
                trainer.verdict(row.piece),
                Verdict::Scored { goes: true, .. }
            );
        let text = format!(
            "{}{}{} {}",
            fit_left(&label(&row.text, t.glyphs.space), piece_w, e),
            fit_right(&format!("{:.4}", row.logp.exp()), p_w, e),
            fit_right(&loss, loss_w, e),
            if goes { "goes" } else { "    " }
        );
        let style = if i == u.piece_row && app.focus == Focus::Pairs {
            t.cursor_row()
        } else if goes {
            t.gone()
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::styled(text, style));
    }
    let title = format!("Pieces {} by {}", table.len(), u.sort.name());
    let right = match edge {
        Some(e) => format!("{} go", e.going),
        None => "l: sort".to_string(),
    };
    frame.render_widget(
        pane_block(app, Focus::Pairs, title, right, area.width),
        area,
    );
    crate::view::put_lines(frame, body, &lines);
}
