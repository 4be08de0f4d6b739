//! The merge list: every merge so far, `left + right -> token`, with its
//! count and replacements; the pair chosen this round waits at the bottom.

use crate::app::{App, Focus};
use crate::layout::inner;
use crate::view::widths::{fit_left, fit_right, width};
use crate::view::{pane_block, token_label};
use bpeek_core::Phase;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let trainer = app.trainer();
    let merges = trainer.merges();
    let t = &app.theme;
    let g = &t.glyphs;
    let body = inner(area);
    let visible = (body.height as usize).saturating_sub(1).max(1);
    let pending = match trainer.phase() {
        Phase::Chosen(choice) => Some(choice),
        _ => None,
    };
    let total = merges.len() + usize::from(pending.is_some());
    let selected = app.selected_merge();
    // Keep the selected row in view; otherwise show the newest rows.
    let first = match (selected, app.scroll.merge_cursor) {
        (Some(s), Some(_)) => s
            .saturating_sub(visible / 2)
            .min(total.saturating_sub(visible)),
        _ => total.saturating_sub(visible),
    };

    // Short headings leave the merge column room in an 80-column terminal.
    let narrow = body.width < 44;
    let (rank_h, count_h, repl_h) = if narrow {
        ("#", "cnt", "rep")
    } else {
        ("rank", "count", "repl")
    };
    let rank_w = total.to_string().len().max(rank_h.len());
    let next_id = trainer.vocab().len();
    let id_w = next_id.to_string().len().max(3);
    let count_w = merges
        .iter()
        .map(|m| m.count.to_string().len())
        .chain(pending.map(|c| c.count.to_string().len()))
        .max()
        .unwrap_or(0)
        .max(count_h.len());
    let fixed = rank_w + 1 + id_w + 2 + 1 + count_w + 1 + count_w;
    let merge_w = (body.width as usize).saturating_sub(fixed).max(5);

    let mut lines = Vec::with_capacity(visible + 1);
    lines.push(Line::styled(
        format!(
            "{} {}  {} {} {}",
            fit_right(rank_h, rank_w, ""),
            fit_right("id", id_w, ""),
            fit_left("merge", merge_w, ""),
            fit_right(count_h, count_w, ""),
            fit_right(repl_h, count_w, ""),
        ),
        t.heading(),
    ));
    // What a merge made is what the row is about: its halves give way
    // first, then their spaces, and the new token is cut last.
    let describe = |a, b, made: String| {
        let (a, b) = (token_label(app, a), token_label(app, b));
        let arrow = g.arrow;
        let forms = [
            format!("{a} + {b} {arrow} {made}"),
            format!("{a}+{b} {arrow} {made}"),
            format!("{} {arrow} {made}", g.ellipsis),
        ];
        forms
            .into_iter()
            .find(|form| width(form) <= merge_w)
            .unwrap_or(made)
    };
    for rank in first..(first + visible).min(total) {
        let line = if let Some(m) = merges.get(rank) {
            let text = format!(
                "{} {}  {} {} {}",
                fit_right(&m.rank.to_string(), rank_w, ""),
                fit_right(&m.id.to_string(), id_w, ""),
                fit_left(
                    &describe(m.pair.0, m.pair.1, token_label(app, m.id)),
                    merge_w,
                    g.ellipsis
                ),
                fit_right(&m.count.to_string(), count_w, ""),
                fit_right(&m.replacements.to_string(), count_w, ""),
            );
            let style = if selected == Some(rank) {
                t.cursor_row()
            } else if rank + 1 == merges.len() && pending.is_none() {
                t.heading()
            } else {
                Style::new()
            };
            Line::styled(text, style)
        } else if let Some(choice) = pending {
            let (a, b) = choice.pair;
            let vocab = trainer.vocab();
            let joined = vocab.joined((a, b));
            let made = crate::panes::rows::label(&joined, &app.theme);
            let text = format!(
                "{} {}  {} {} {}",
                fit_right(&rank.to_string(), rank_w, ""),
                fit_right("?", id_w, ""),
                fit_left(&describe(a, b, made), merge_w, g.ellipsis),
                fit_right(&choice.count.to_string(), count_w, ""),
                fit_right("?", count_w, ""),
            );
            Line::styled(text, t.winner())
        } else {
            Line::default()
        };
        lines.push(line);
    }
    if total == 0 && trainer.stop_reason().is_none() {
        // First contact: the empty list says how to fill it.
        let words = "no merges yet: . picks the pair that wins, n merges it, \
                     g goes to a merge, ? lists every key";
        lines.extend(
            crate::panes::why::wrap(words, body.width as usize)
                .into_iter()
                .map(Line::from),
        );
    }
    let right = if app.focus == Focus::Merges {
        "Enter: tree".to_string()
    } else {
        String::new()
    };
    frame.render_widget(
        pane_block(
            app,
            Focus::Merges,
            format!("Merges {}", merges.len()),
            right,
            area.width,
        ),
        area,
    );
    crate::view::put_lines(frame, body, &lines);
}
