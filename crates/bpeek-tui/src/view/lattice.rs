//! The Enter pane of Unigram mode: the selected word's lattice over the
//! panes, every piece of the vocabulary that stands in the word under the
//! characters it covers, the best cut (Viterbi) in the first row, and its
//! log-probability piece by piece.
//!
//! ```text
//! ┌ Lattice of hugs ×5 ─────────────────┐
//! │ best  h─u─g s                       │
//! │       h u g─s                       │
//! │       h─u                           │
//! │ hug -2.08 + s -2.77 = -4.85         │
//! └──────────────── Up/Down: word · Esc ┘
//! ```

use crate::app::App;
use crate::app::unigram::UnigramView;
use crate::panes::lattice_rows::rows;
use crate::panes::piece_table::label;
use crate::theme::Mark;
use crate::view::widths::{truncate, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, u: &UnigramView) {
    let t = &app.theme;
    let trainer = &u.trainer;
    if u.word >= trainer.words().len() {
        return;
    }
    let word = trainer.words().word(u.word);
    let lines = lattice_lines(app, u);
    let title = format!(
        "Lattice of {} {}{}",
        label(word, t.glyphs.space),
        crate::view::axes::glyphs(t.ascii).times,
        trainer.words().count(u.word)
    );
    draw_box(frame, area, app, &title, &lines);
}

/// The rows of the selected word's lattice, then its best cut summed.
fn lattice_lines(app: &App, u: &UnigramView) -> Vec<Line<'static>> {
    let t = &app.theme;
    let trainer = &u.trainer;
    let word = trainer.words().word(u.word);
    let lattice = trainer.lattice(u.word);
    let join = if t.ascii { "-" } else { "─" };
    let placed = rows(word, &lattice, join);
    let gutter = "best  ";
    let mut lines: Vec<Line> = Vec::new();
    for (r, row) in placed.iter().enumerate() {
        let mut spans = vec![Span::styled(
            if r == 0 {
                gutter.to_string()
            } else {
                " ".repeat(width(gutter))
            },
            t.dim(),
        )];
        let mut at = 0;
        for (k, p) in row.iter().enumerate() {
            spans.push(Span::raw(" ".repeat(p.col.saturating_sub(at))));
            let text = label(&p.text, t.glyphs.space);
            at = p.col + width(&text);
            let style = if p.on_best {
                t.token_at(k, Mark::Applied)
            } else {
                Style::new()
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    let sum: Vec<String> = lattice
        .best
        .iter()
        .map(|&e| {
            let edge = &lattice.edges[e];
            format!(
                "{} {:.2}",
                label(trainer.pieces().text(edge.piece), t.glyphs.space),
                edge.logp
            )
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!("{} = {:.2}", sum.join(" + "), lattice.best_logp),
        t.heading(),
    ));
    lines.push(Line::styled(
        format!(
            "{} pieces stand in the word; the best cut has the highest log-probability",
            lattice.edges.len()
        ),
        t.dim(),
    ));
    lines
}

/// `lines` in a bordered box titled `title`, in the middle of `area`.
fn draw_box(frame: &mut Frame, area: Rect, app: &App, title: &str, lines: &[Line]) {
    let t = &app.theme;
    let widest = lines
        .iter()
        .map(Line::width)
        .chain([width(title) + 4, 36])
        .max()
        .unwrap_or(0);
    let w = (widest as u16 + 4)
        .min(area.width.saturating_sub(2))
        .max(10);
    let h = (lines.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w,
        height: h,
    };
    let inner_w = w.saturating_sub(4) as usize;
    let dot = if t.ascii { "|" } else { t.glyphs.dot };
    let block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(true))
        .title(Line::styled(
            format!(" {} ", truncate(title, inner_w, t.glyphs.ellipsis)),
            t.title(true),
        ))
        .title_bottom(
            Line::styled(format!(" Up/Down: word {dot} Esc closes "), t.heading()).right_aligned(),
        );
    let body = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    let body = Rect {
        x: body.x + 1,
        width: body.width.saturating_sub(1),
        ..body
    };
    crate::view::put_lines(frame, body, lines);
}
