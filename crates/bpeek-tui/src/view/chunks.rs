//! The chunk table in place of the corpus text (`v`): each distinct chunk
//! cut into its current tokens, with its count; the chosen pair marked in
//! every row that holds it, the rows the last merge changed marked too.

use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::chunk_table::{self, ChunkRow};
use crate::theme::Mark;
use crate::view::widths::{fit_right, width};
use crate::view::{pane_block, token_label};
use bpeek_core::Phase;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let trainer = app.trainer();
    let body = inner(area);
    let height = body.height as usize;
    let total = trainer.corpus().chunks().len();
    let from = app.scroll.chunks.min(total.saturating_sub(1));
    let rows = chunk_table::rows(trainer, from, height);
    let count_w = rows
        .iter()
        .map(|r| r.count.to_string().len() + 1)
        .max()
        .unwrap_or(2);
    let lines: Vec<Line> = rows
        .iter()
        .map(|r| row_line(app, r, body.width as usize, count_w))
        .collect();
    let right = format!("{}-{} of {total}", from + 1, from + rows.len());
    let block = pane_block(
        app,
        Focus::Corpus,
        "Chunks by count".to_string(),
        right,
        area.width,
    )
    .title_bottom(legend(app));
    frame.render_widget(block, area);
    crate::view::put_lines(frame, body, &lines);
}

/// `* ·low er ⌟        ×5`: the changed mark, the tokens, the count.
fn row_line(app: &App, row: &ChunkRow, cols: usize, count_w: usize) -> Line<'static> {
    let t = &app.theme;
    let trainer = app.trainer();
    let pair = match trainer.phase() {
        Phase::Chosen(choice) if row.holds_chosen => Some(choice.pair),
        _ => None,
    };
    let made = match trainer.phase() {
        Phase::Merged => trainer.merges().last().map(|m| m.id),
        _ => None,
    };
    // Occurrences of the chosen pair, left to right without overlap, as the
    // merge will replace them.
    let mut marks = vec![Mark::None; row.tokens.len()];
    if let Some((a, b)) = pair {
        let mut i = 0;
        while i + 1 < row.tokens.len() {
            if row.tokens[i] == a && row.tokens[i + 1] == b {
                marks[i] = Mark::Chosen;
                marks[i + 1] = Mark::Chosen;
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    for (m, &id) in marks.iter_mut().zip(&row.tokens) {
        if row.changed && Some(id) == made {
            *m = Mark::Applied;
        }
    }
    let marker = if row.changed { t.glyphs.winner } else { " " };
    let count = fit_right(&format!("{}{}", times(app), row.count), count_w, "");
    let room = cols.saturating_sub(2 + 1 + count_w);
    let mut spans = vec![Span::styled(format!("{marker} "), t.heading())];
    let mut used = 0;
    for (i, (&id, mark)) in row.tokens.iter().zip(&marks).enumerate() {
        let label = token_label(app, id);
        let w = width(&label) + usize::from(i > 0);
        if used + w > room {
            spans.push(Span::raw(t.glyphs.ellipsis));
            used += width(t.glyphs.ellipsis);
            break;
        }
        if i > 0 {
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(label, t.token_at(i, *mark)));
        used += w;
    }
    spans.push(Span::raw(" ".repeat(room.saturating_sub(used) + 1)));
    spans.push(Span::styled(count, Style::new()));
    Line::from(spans)
}

fn times(app: &App) -> &'static str {
    if app.theme.ascii { "x" } else { "×" }
}

fn legend(app: &App) -> Line<'static> {
    let t = &app.theme;
    let mut spans = vec![Span::raw(" ")];
    match app.trainer().phase() {
        Phase::Chosen(_) => {
            spans.push(Span::styled("pair", t.token(false, Mark::Chosen)));
            spans.push(Span::raw(" chosen "));
        }
        Phase::Merged => {
            spans.push(Span::styled(t.glyphs.winner, t.heading()));
            spans.push(Span::raw(" changed by the merge "));
        }
        Phase::Counted => spans.push(Span::raw("v: back to the text ")),
    }
    Line::from(spans)
}
