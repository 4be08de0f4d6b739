//! Unigram mode's corpus pane: each distinct word as the current
//! vocabulary cuts it (Viterbi), tokens told apart as in the corpus text,
//! with its count; a word whose cut changed since the last prune is
//! marked.
//!
//! ```text
//! ┌ Words 280, cut by 813 pieces ──────── * changed since round 1 ┐
//! │*·hu g                                                      ×10 │
//! │ ·pun                                                        ×12 │
//! ```

use crate::app::unigram::UnigramView;
use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::piece_table::label;
use crate::theme::Mark;
use crate::view::pane_block;
use crate::view::widths::{truncate, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The mark of a word whose cut changed.
pub fn changed_glyph(app: &App) -> &'static str {
    if app.theme.ascii { "*" } else { "•" }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, u: &UnigramView) {
    let t = &app.theme;
    let trainer = &u.trainer;
    let words = trainer.words();
    let body = inner(area);
    let rows = body.height as usize;
    let first = first_shown(u.word, rows, words.len());
    let mark = changed_glyph(app);
    let mut lines = Vec::with_capacity(rows);
    for i in first..(first + rows).min(words.len()) {
        let times = crate::view::axes::glyphs(t.ascii).times;
        let count = format!(" {times}{}", words.count(i));
        let count = format!("{count:>7}");
        let room = (body.width as usize).saturating_sub(width(&count) + 1);
        let mut spans = vec![Span::styled(
            if u.cut_changed(i) { mark } else { " " },
            t.winner(),
        )];
        spans.extend(cut_spans(app, u, i, room));
        let used: usize = spans.iter().map(|s| width(&s.content)).sum();
        let pad = (body.width as usize).saturating_sub(used + width(&count));
        spans.push(Span::raw(" ".repeat(pad)));
        spans.push(Span::styled(count, t.dim()));
        let mut line = Line::from(spans);
        if i == u.word && app.focus == Focus::Corpus {
            line = line.style(t.cursor_row());
        }
        lines.push(line);
    }
    if words.is_empty() {
        lines.push(Line::raw(
            "the corpus holds no word (Unigram cuts words at whitespace)",
        ));
    }
    let right = match &u.changed.words {
        Some((round, _)) => format!("{mark} changed since round {round}'s prune"),
        None => String::new(),
    };
    let title = format!(
        "Words {}, cut by {} pieces",
        words.len(),
        trainer.pieces().alive().len()
    );
    frame.render_widget(
        pane_block(app, Focus::Corpus, title, right, area.width),
        area,
    );
    crate::view::put_lines(frame, body, &lines);
}

/// The first word shown so that the selected one is in view.
pub fn first_shown(selected: usize, rows: usize, total: usize) -> usize {
    if rows == 0 {
        return 0;
    }
    selected
        .saturating_sub(rows / 2)
        .min(total.saturating_sub(rows))
}

/// Word `i`'s cut in at most `room` columns: its pieces in turn styles,
/// the separator glyph between them.
fn cut_spans(app: &App, u: &UnigramView, i: usize, room: usize) -> Vec<Span<'static>> {
    let t = &app.theme;
    let trainer = &u.trainer;
    let mut out = Vec::new();
    let mut used = 0;
    for (k, (_, piece)) in trainer.cut(i).iter().enumerate() {
        let text = label(trainer.pieces().text(*piece), t.glyphs.space);
        let sep = if k > 0 { " " } else { "" };
        let w = width(sep) + width(&text);
        if used + w > room {
            let left = room.saturating_sub(used);
            out.push(Span::styled(
                truncate(&format!("{sep}{text}"), left, t.glyphs.ellipsis),
                Style::new(),
            ));
            break;
        }
        if !sep.is_empty() {
            out.push(Span::raw(sep));
        }
        out.push(Span::styled(text, t.token_at(k, Mark::None)));
        used += w;
    }
    out
}
