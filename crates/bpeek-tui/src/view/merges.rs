//! The merge list: every merge so far, `left + right -> token`, with its
//! count and replacements; the pair chosen this round waits at the bottom.

use crate::app::{App, Focus};
use crate::layout::inner;
use crate::view::widths::{fit_left, fit_right, width};
use crate::view::{pane_block, token_label};
use bpeek_core::train::trainer::Choice;
use bpeek_core::{Phase, Round, TokenId, Trainer};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let trainer = app.trainer();
    let merges = trainer.merges();
    let t = &app.theme;
    let body = inner(area);
    let visible = (body.height as usize).saturating_sub(1).max(1);
    let pending = match trainer.phase() {
        Phase::Chosen(choice) => Some(choice),
        _ => None,
    };
    let (first, total) = rows_shown(app, body);
    let selected = app.selected_merge();
    let cols = Columns::fit(trainer, pending, total, body.width);
    let mut lines = Vec::with_capacity(visible + 1);
    lines.push(cols.header(app));
    for rank in first..(first + visible).min(total) {
        let line = if let Some(m) = merges.get(rank) {
            let style = if selected == Some(rank) {
                t.cursor_row()
            } else if rank + 1 == merges.len() && pending.is_none() {
                t.heading()
            } else {
                Style::new()
            };
            Line::styled(cols.merge_row(app, m), style)
        } else if let Some(choice) = pending {
            Line::styled(cols.pending_row(app, rank, choice), t.winner())
        } else {
            Line::default()
        };
        lines.push(line);
    }
    if total == 0 && trainer.stop_reason().is_none() {
        lines.extend(first_contact(body.width as usize));
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

/// The rank of the first merge the list shows in `body` (under its column
/// header), and how many rows the list has (the pair waiting to be merged
/// included).
pub fn rows_shown(app: &App, body: Rect) -> (usize, usize) {
    let trainer = app.trainer();
    let visible = (body.height as usize).saturating_sub(1).max(1);
    let pending = matches!(trainer.phase(), Phase::Chosen(_));
    let total = trainer.merges().len() + usize::from(pending);
    // Keep the selected row in view; otherwise show the newest rows.
    let first = match (app.selected_merge(), app.scroll.merge_cursor) {
        (Some(s), Some(_)) => s
            .saturating_sub(visible / 2)
            .min(total.saturating_sub(visible)),
        _ => total.saturating_sub(visible),
    };
    (first, total)
}

/// First contact: the empty list says how to fill it.
fn first_contact(width: usize) -> impl Iterator<Item = Line<'static>> {
    let words = "no merges yet: . picks the pair that wins, n merges it, \
                 g goes to a merge, ? lists every key";
    crate::panes::why::wrap(words, width)
        .into_iter()
        .map(Line::from)
}

/// The list's columns: their headings and widths.
struct Columns {
    rank_h: &'static str,
    count_h: &'static str,
    repl_h: &'static str,
    rank_w: usize,
    id_w: usize,
    count_w: usize,
    merge_w: usize,
}

impl Columns {
    /// Columns for the merges of `trainer` (and the one `pending`) in a
    /// body `width` wide: the merge column gets what the numbers leave.
    fn fit(trainer: &Trainer, pending: Option<&Choice>, total: usize, width: u16) -> Columns {
        // Short headings leave the merge column room in an 80-column terminal.
        let narrow = width < 44;
        // `#` is the merge's number, counted from 1 as the status line
        // counts merges; the token a merge made is named by its id.
        let (rank_h, count_h, repl_h) = if narrow {
            ("#", "cnt", "rep")
        } else {
            ("#", "count", "repl")
        };
        let rank_w = total.to_string().len().max(rank_h.len());
        let next_id = trainer.vocab().len();
        let id_w = next_id.to_string().len().max(3);
        let count_w = trainer
            .merges()
            .iter()
            .map(|m| m.count.to_string().len())
            .chain(pending.map(|c| c.count.to_string().len()))
            .max()
            .unwrap_or(0)
            .max(count_h.len());
        let fixed = rank_w + 1 + id_w + 2 + 1 + count_w + 1 + count_w;
        let merge_w = (width as usize).saturating_sub(fixed).max(5);
        Columns {
            rank_h,
            count_h,
            repl_h,
            rank_w,
            id_w,
            count_w,
            merge_w,
        }
    }

    fn header(&self, app: &App) -> Line<'static> {
        Line::styled(
            format!(
                "{} {}  {} {} {}",
                fit_right(self.rank_h, self.rank_w, ""),
                fit_right("id", self.id_w, ""),
                fit_left("merge", self.merge_w, ""),
                fit_right(self.count_h, self.count_w, ""),
                fit_right(self.repl_h, self.count_w, ""),
            ),
            app.theme.heading(),
        )
    }

    /// `a + b -> made` in the merge column. What a merge made is what the
    /// row is about: its halves give way first, then their spaces, and the
    /// new token is cut last.
    fn describe(&self, app: &App, a: TokenId, b: TokenId, made: String) -> String {
        let g = &app.theme.glyphs;
        let (a, b) = (token_label(app, a), token_label(app, b));
        let arrow = g.arrow;
        let forms = [
            format!("{a} + {b} {arrow} {made}"),
            format!("{a}+{b} {arrow} {made}"),
            format!("{} {arrow} {made}", g.ellipsis),
        ];
        forms
            .into_iter()
            .find(|form| width(form) <= self.merge_w)
            .unwrap_or(made)
    }

    /// A merge made: rank, id, the merge, its count and replacements.
    fn merge_row(&self, app: &App, m: &Round) -> String {
        format!(
            "{} {}  {} {} {}",
            fit_right(&(m.rank + 1).to_string(), self.rank_w, ""),
            fit_right(&m.id.to_string(), self.id_w, ""),
            fit_left(
                &self.describe(app, m.pair.0, m.pair.1, token_label(app, m.id)),
                self.merge_w,
                app.theme.glyphs.ellipsis
            ),
            fit_right(&m.count.to_string(), self.count_w, ""),
            fit_right(&m.replacements.to_string(), self.count_w, ""),
        )
    }

    /// The pair chosen this round, not merged yet: no id or replacements.
    fn pending_row(&self, app: &App, rank: usize, choice: &Choice) -> String {
        let (a, b) = choice.pair;
        let joined = app.trainer().vocab().joined((a, b));
        let made = crate::view::trained_label(app, app.trainer(), &joined);
        format!(
            "{} {}  {} {} {}",
            fit_right(&(rank + 1).to_string(), self.rank_w, ""),
            fit_right("?", self.id_w, ""),
            fit_left(
                &self.describe(app, a, b, made),
                self.merge_w,
                app.theme.glyphs.ellipsis
            ),
            fit_right(&choice.count.to_string(), self.count_w, ""),
            fit_right("?", self.count_w, ""),
        )
    }
}
