//! Unigram mode's removal list, in the merge list's place: every piece
//! that went, newest first, with its round: a prune's with its score (the
//! loss its removal cost) and its uses, an EM iteration's drop with its
//! expected count (`exp 0.31`, below one half).
//!
//! ```text
//! ┌ Removed 476 ──────────────────────────┐
//! │ round  piece            loss   uses   │
//! │     2  ·ork           0.0000      0   │
//! │     1  ·qu          exp 0.21      -   │
//! ```

use crate::app::unigram::UnigramView;
use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::piece_table::label;
use crate::panes::unigram_why;
use crate::view::pane_block;
use crate::view::widths::{fit_left, fit_right};
use bpeek_core::train::unigram::Gone;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, u: &UnigramView) {
    let t = &app.theme;
    let trainer = &u.trainer;
    let body = inner(area);
    let w = body.width as usize;
    let visible = (body.height as usize).saturating_sub(1).max(1);
    let total = trainer.gone_count();
    let first = crate::view::unigram_words::first_shown(u.removal_row, visible, total);
    let e = t.glyphs.ellipsis;
    let (round_w, loss_w, uses_w) = (6, 11, 7);
    let piece_w = w.saturating_sub(round_w + loss_w + uses_w + 1);
    let mut lines = vec![Line::styled(
        format!(
            "{} {}{}{}",
            fit_right("round", round_w, e),
            fit_left("piece", piece_w, e),
            fit_right("loss", loss_w, e),
            fit_right("uses", uses_w, e)
        ),
        t.dim(),
    )];
    for (i, (round, gone)) in trainer.gone().enumerate().skip(first).take(visible) {
        let (loss, uses) = match gone {
            Gone::Pruned(s) => (format!("{:.4}", s.loss_increase), s.uses.to_string()),
            Gone::Dropped(d) => (
                format!("exp {}", unigram_why::expected_count(d.expected)),
                "-".to_string(),
            ),
        };
        let text = format!(
            "{} {}{}{}",
            fit_right(&round.to_string(), round_w, e),
            fit_left(
                &label(trainer.pieces().text(gone.piece()), t.glyphs.space),
                piece_w,
                e
            ),
            fit_right(&loss, loss_w, e),
            fit_right(&uses, uses_w, e)
        );
        let style = if i == u.removal_row && app.focus == Focus::Merges {
            t.cursor_row()
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::styled(text, style));
    }
    if total == 0 {
        lines.push(Line::raw(
            "nothing removed yet: a round is estimated (rare pieces dropped), scored, then pruned",
        ));
    }
    let right = if app.focus == Focus::Merges && total > 0 {
        "newest first".to_string()
    } else {
        String::new()
    };
    frame.render_widget(
        pane_block(
            app,
            Focus::Merges,
            format!("Removed {total}"),
            right,
            area.width,
        ),
        area,
    );
    crate::view::put_lines(frame, body, &lines);
}
