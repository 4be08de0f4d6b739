//! The pair table: live counts in selection order, the winner and its ties
//! marked, and how the last merge moved each count. With WordPiece's score
//! each pair's score is shown too, and the rows go by it.

use crate::action::Toggle;
use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::changed;
use crate::view::widths::{fit_left, fit_right};
use crate::view::{pane_block, pane_block_parts, token_label};
use bpeek_core::train::trainer::{CountChange, PairRow, PairScore};
use bpeek_core::{Phase, Score, Trainer};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use std::cmp::Ordering;

const CHANGE_WIDTH: usize = 7;

/// A row as the table draws it, from either list.
struct Shown {
    /// 0-based place in selection order; `None` for a vanished pair.
    rank: Option<usize>,
    pair: bpeek_core::Pair,
    count: u64,
    change: Option<CountChange>,
    score: Option<PairScore>,
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    // The teacher's screen, often on the projector, gives nothing away
    // either until the teacher shows the tally.
    if crate::class::question::open_ballot(app).is_some() || crate::class::question::asking(app) {
        return draw_ballot(frame, area, app);
    }
    let tally = crate::class::question::shown_tally(app).map(|q| q.tally.clone());
    let trainer = app.trainer();
    let body = inner(area);
    let visible = (body.height as usize).saturating_sub(1);
    let scored = trainer.config().score == Score::WordPiece;
    let (shown, total) = if app.shows(Toggle::ChangedOnly) {
        changed_rows(trainer, app.scroll.pairs, visible, scored)
    } else {
        top_rows(trainer, app.scroll.pairs, visible)
    };
    let race = Race::of(trainer);
    let scores: Vec<String> = shown
        .iter()
        .map(|r| r.score.map_or_else(String::new, |s| s.shown()))
        .collect();
    let cols = Columns::fit(&shown, &scores, scored, body.width);
    let mut lines = Vec::with_capacity(visible + 1);
    lines.push(cols.header(app, tally.is_some()));
    for (row, score) in shown.iter().zip(&scores) {
        lines.push(pair_line(app, &cols, &race, tally.as_deref(), row, score));
    }
    if app.shows(Toggle::ChangedOnly) && shown.is_empty() {
        lines.push(Line::raw("  no merge yet: nothing changed (d: all pairs)"));
    }
    render_block(frame, area, app, total);
    crate::view::put_lines(frame, body, &lines);
}

/// The pairs the last merge changed, `visible` of them from `skip`, and
/// how many there are (with a score, in the score's order).
fn changed_rows(
    trainer: &Trainer,
    skip: usize,
    visible: usize,
    scored: bool,
) -> (Vec<Shown>, usize) {
    let mut all = changed::rows(trainer);
    if scored {
        // Ranked by count there; the score's order is the one shown.
        let pairs: Vec<_> = all.iter().map(|r| r.pair).collect();
        for (r, rank) in all.iter_mut().zip(trainer.ranks_of(&pairs)) {
            r.rank = rank;
        }
        let counted = all.iter().take_while(|r| !r.gone()).count();
        all[..counted].sort_by_key(|r| r.rank);
    }
    let total = all.len();
    let shown = all
        .into_iter()
        .skip(skip)
        .take(visible)
        .map(|r| Shown {
            rank: r.rank,
            pair: r.pair,
            count: r.count,
            change: Some(r.change),
            score: trainer.pair_score(r.pair),
        })
        .collect();
    (shown, total)
}

/// The table's pairs in selection order, `visible` of them from `skip`,
/// and how many there are.
fn top_rows(trainer: &Trainer, skip: usize, visible: usize) -> (Vec<Shown>, usize) {
    let rows = trainer.top_pairs(skip + visible);
    let shown = rows
        .into_iter()
        .enumerate()
        .skip(skip)
        .map(|(i, r): (usize, PairRow)| Shown {
            rank: Some(i),
            pair: r.pair,
            count: r.count,
            change: r.change,
            score: r.score,
        })
        .collect();
    (shown, trainer.pairs().len())
}

/// The round's winner to come, for marking it and the pairs tied with it.
struct Race {
    /// Training goes on: the top row is the winner.
    open: bool,
    /// The winner is chosen, not merged yet.
    chosen: bool,
    /// The table's top count.
    best: Option<u64>,
    /// The winner's score, with a score.
    score: Option<PairScore>,
    min_count: u64,
}

impl Race {
    fn of(trainer: &Trainer) -> Race {
        let next = match trainer.stop_reason() {
            None => trainer.peek_choice().ok(),
            Some(_) => None,
        };
        Race {
            open: next.is_some(),
            chosen: matches!(trainer.phase(), Phase::Chosen(_)),
            best: trainer.pairs().iter().next().map(|(_, c)| c),
            score: next.as_ref().and_then(|c| c.score),
            min_count: trainer.config().min_count,
        }
    }

    /// Tied with the winner: the same count, or with the score the same
    /// score (among the pairs the minimum count lets merge).
    fn ties(&self, row: &Shown) -> bool {
        match (self.score, row.score) {
            (Some(best), Some(s)) => {
                row.count >= self.min_count && s.cmp_exact(&best) == Ordering::Equal
            }
            _ => Some(row.count) == self.best,
        }
    }
}

/// The table's columns: their widths and the headings that fit.
struct Columns {
    idx_w: usize,
    tok_w: usize,
    count_w: usize,
    score_w: usize,
    change_w: usize,
    count_head: &'static str,
    /// Short headings, to give the tokens room back from the score.
    short: bool,
}

impl Columns {
    /// Columns for `shown` (and their `scores`) in a body `width` wide.
    fn fit(shown: &[Shown], scores: &[String], scored: bool, width: u16) -> Columns {
        let idx_w = shown
            .iter()
            .filter_map(|r| r.rank)
            .map(|i| (i + 1).to_string().len())
            .max()
            .unwrap_or(0)
            .max(2);
        let widest_count = shown
            .iter()
            .map(|r| r.count.to_string().len())
            .max()
            .unwrap_or(0);
        let score_w = if scored {
            scores.iter().map(|s| s.len()).max().unwrap_or(0).max(6) + 1
        } else {
            0
        };
        let room_for_tokens = |count_w: usize, change_w: usize| {
            let fixed = 2 + idx_w + 1 + 1 + 1 + count_w + score_w + 1 + change_w;
            (width as usize).saturating_sub(fixed) / 2
        };
        // The score column takes room from the tokens; where they would be
        // cut to a few letters, the headings are shortened to give it back.
        let short = scored && room_for_tokens(widest_count.max(5), CHANGE_WIDTH) < 5;
        let (count_head, change_w) = if short {
            ("cnt", CHANGE_WIDTH - 2)
        } else {
            ("count", CHANGE_WIDTH)
        };
        let count_w = widest_count.max(count_head.len());
        Columns {
            idx_w,
            // Tokens rarely need more than a dozen columns; the rest stays
            // blank.
            tok_w: room_for_tokens(count_w, change_w).clamp(3, 14),
            count_w,
            score_w,
            change_w,
            count_head,
            short,
        }
    }

    /// The heading row; the last column is the class's votes while the
    /// tally is shown.
    fn header(&self, app: &App, votes: bool) -> Line<'static> {
        let change_head = match (votes, self.short) {
            (true, _) => "votes",
            (false, true) => "chg",
            (false, false) => "change",
        };
        Line::styled(
            format!(
                "  {} {} {} {}{} {}",
                fit_right("#", self.idx_w, ""),
                fit_left("left", self.tok_w, ""),
                fit_left("right", self.tok_w, ""),
                fit_right(self.count_head, self.count_w, ""),
                fit_right("score", self.score_w, ""),
                fit_left(change_head, self.change_w, "")
            ),
            app.theme.heading(),
        )
    }
}

/// A pair's row: marker, place, tokens, count and score, then how the
/// last merge changed its count (or the class's votes for it).
fn pair_line(
    app: &App,
    cols: &Columns,
    race: &Race,
    tally: Option<&[(bpeek_core::Pair, usize)]>,
    row: &Shown,
    score: &str,
) -> Line<'static> {
    let t = &app.theme;
    let g = &t.glyphs;
    let is_winner = row.rank == Some(0) && race.open;
    let tied = !is_winner && race.open && row.rank.is_some() && race.ties(row);
    let marker = if is_winner {
        g.winner
    } else if tied {
        g.tie
    } else {
        " "
    };
    let (change, change_style) = match tally {
        Some(tally) => (
            tally
                .iter()
                .find(|(p, _)| *p == row.pair)
                .map_or_else(String::new, |(_, n)| n.to_string()),
            t.heading(),
        ),
        None => change_text(app, row.change),
    };
    let index = row
        .rank
        .map_or_else(|| "-".to_string(), |i| (i + 1).to_string());
    let text = format!(
        "{marker} {} {} {} {}{} ",
        fit_right(&index, cols.idx_w, ""),
        fit_left(&token_label(app, row.pair.0), cols.tok_w, g.ellipsis),
        fit_left(&token_label(app, row.pair.1), cols.tok_w, g.ellipsis),
        fit_right(&row.count.to_string(), cols.count_w, ""),
        fit_right(score, cols.score_w, ""),
    );
    let style = if is_winner && race.chosen {
        t.cursor_row()
    } else if is_winner || tied {
        t.winner()
    } else if row.rank.is_none() {
        t.gone()
    } else {
        Style::new()
    };
    Line::from(vec![
        Span::styled(text, style),
        Span::styled(change, change_style),
    ])
}

/// The pane's frame: how many pairs (changed, of how many), and how many
/// the last merge made new or took away.
fn render_block(frame: &mut Frame, area: Rect, app: &App, total: usize) {
    let trainer = app.trainer();
    let (fresh, gone) = changed::new_and_gone(trainer);
    let right = [(fresh, "new"), (gone, "gone")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect::<Vec<_>>()
        .join(", ");
    let (title, of) = if app.shows(Toggle::ChangedOnly) {
        (
            format!("Pairs changed {total}"),
            format!("of {}", trainer.pairs().len()),
        )
    } else {
        (format!("Pairs {total}"), String::new())
    };
    let title: Vec<&str> = [title.as_str(), of.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    frame.render_widget(
        pane_block_parts(app, Focus::Pairs, &title, right, area.width),
        area,
    );
}

/// The change column: up, down or new, in words and glyphs so it reads
/// without colour.
fn change_text(app: &App, change: Option<CountChange>) -> (String, Style) {
    let t = &app.theme;
    let g = &t.glyphs;
    match change {
        Some(c) if c.after == 0 => ("gone".into(), t.fall()),
        Some(c) if c.before == 0 => ("new".into(), t.fresh()),
        Some(c) if c.after > c.before => (format!("{}{}", g.up, c.after - c.before), t.rise()),
        Some(c) if c.after < c.before => (format!("{}{}", g.down, c.before - c.after), t.fall()),
        _ => (String::new(), Style::new()),
    }
}

/// A student's ballot: the top pairs in the order of their text (so the
/// table does not give the winner away), the cursor's row in reverse and
/// the student's own vote marked.
fn draw_ballot(frame: &mut Frame, area: Rect, app: &App) {
    let trainer = app.trainer();
    let t = &app.theme;
    let g = &t.glyphs;
    let body = inner(area);
    let rows = crate::class::question::ballot(trainer);
    let pairs: Vec<bpeek_core::Pair> = rows.iter().map(|r| r.0).collect();
    let class = app.classroom.as_ref();
    let at = class.map_or(0, |c| c.ballot_at.min(pairs.len().saturating_sub(1)));
    let mine = class.and_then(|c| c.question.as_ref()).and_then(|q| q.mine);
    let counts: Vec<u64> = rows.iter().map(|r| r.1).collect();
    let count_w = counts
        .iter()
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(0)
        .max(5);
    let tok_w = ((body.width as usize).saturating_sub(2 + count_w + 3) / 2).clamp(3, 14);
    let mut lines = vec![Line::styled(
        format!(
            "  {} {} {}",
            fit_left("left", tok_w, ""),
            fit_left("right", tok_w, ""),
            fit_right("count", count_w, "")
        ),
        t.heading(),
    )];
    let visible = (body.height as usize).saturating_sub(1);
    let skip = at.saturating_sub(visible.saturating_sub(1));
    for (i, (pair, count)) in pairs
        .iter()
        .zip(&counts)
        .enumerate()
        .skip(skip)
        .take(visible)
    {
        let marker = if Some(*pair) == mine { g.vote } else { " " };
        let text = format!(
            "{marker} {} {} {} ",
            fit_left(&token_label(app, pair.0), tok_w, g.ellipsis),
            fit_left(&token_label(app, pair.1), tok_w, g.ellipsis),
            fit_right(&count.to_string(), count_w, ""),
        );
        let student = class.is_some_and(|c| c.role == crate::class::Role::Student);
        let style = if i == at && student {
            t.cursor_row()
        } else {
            Style::new()
        };
        lines.push(Line::styled(text, style));
    }
    let right = match class.and_then(|c| c.question.as_ref()) {
        Some(q) if class.is_some_and(|c| c.role == crate::class::Role::Teacher) => {
            format!("{} voted", q.votes)
        }
        _ if mine.is_some() => "voted; Enter changes".to_string(),
        _ => "Enter votes".to_string(),
    };
    frame.render_widget(
        pane_block(
            app,
            Focus::Pairs,
            "Which pair wins?".to_string(),
            right,
            area.width,
        ),
        area,
    );
    crate::view::put_lines(frame, body, &lines);
}
