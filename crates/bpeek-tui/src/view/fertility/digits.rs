//! The digits panel: how each tokenizer cuts numbers of 1 to 20 digits,
//! decimals, years, a phone number and long runs. Each row gives every
//! tokenizer's token count, then the cut itself for the selected tokenizer
//! (and the ones after it, as room allows). Token boundaries show without
//! colour: a separator between tokens, and neighbouring tokens alternate
//! plain and underlined.

use super::{header_cell, marker, pad_to, rule};
use crate::app::App;
use crate::fertility::layout::Plan;
use crate::fertility::{number_labels, numbers};
use crate::theme::Mark;
use crate::view::widths::{fit_left, fit_number, truncate, width};
use bpeek_core::display::token_visible;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Columns of a token count.
const COL: usize = 8;
/// Gap before each cut.
const GAP: usize = 2;
/// Columns of the row label (`12 digits`, `phone`).
const LABEL: usize = 10;
/// Columns the cuts keep before the count columns widen for long names.
const CUT_ROOM: usize = 60;

fn cuts(app: &App, i: usize) -> Option<&Vec<Vec<Vec<u8>>>> {
    app.toks.get(i)?;
    app.fert.columns.get(i)?.digits.as_ref().map(|(_, d)| d)
}

/// Columns a cut takes: the pieces and the separators between them.
fn cut_width(app: &App, pieces: &[Vec<u8>]) -> usize {
    let sep = width(app.theme.glyphs.separator);
    pieces
        .iter()
        .map(|p| width(&token_visible(p)))
        .sum::<usize>()
        + sep * pieces.len().saturating_sub(1)
}

pub fn draw(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    // The cuts are what this panel is for: the counts widen for whole
    // names only where the cuts keep room.
    let counts = super::whole_name_columns(app, w.saturating_sub(1 + LABEL + GAP + CUT_ROOM), COL)
        .unwrap_or_else(|| super::narrow_columns(app, w.saturating_sub(1 + LABEL + GAP + 20), COL));
    let counts_w: usize = counts.iter().map(|&(_, cw)| cw).sum();
    let shown = cuts_shown(app, w.saturating_sub(1 + LABEL + counts_w));
    let sep = app.theme.glyphs.separator;
    lines.push(rule(
        app,
        &format!("how numbers are cut: tokens, and the cut ({sep} between tokens)"),
        w,
    ));
    lines.push(head_row(app, &counts, &shown));
    let all = numbers();
    let end = lines.len() + plan.list;
    let top = app
        .fert
        .digit_row
        .saturating_sub(plan.list / 2)
        .min(all.len().saturating_sub(plan.list));
    for row in top..(top + plan.list).min(all.len()) {
        lines.push(number_row(app, row, &counts, &shown));
    }
    pad_to(lines, end);
}

/// The cuts shown in `room` columns, as (slot, columns): the selected
/// tokenizer's, then the next ones that fit.
fn cuts_shown(app: &App, mut room: usize) -> Vec<(usize, usize)> {
    let n = app.toks.slots.len();
    let sel = app.toks.selected;
    let mut shown: Vec<(usize, usize)> = Vec::new();
    for k in 0..n {
        let i = (sel + k) % n;
        let natural = cuts(app, i)
            .map(|c| c.iter().map(|p| cut_width(app, p)).max().unwrap_or(0))
            .unwrap_or(10)
            .max(width(&app.toks.slots[i].label) + 7);
        if k == 0 {
            let col = natural.min(room.saturating_sub(GAP));
            shown.push((i, col));
            room = room.saturating_sub(col + GAP);
        } else if natural + GAP <= room {
            shown.push((i, natural));
            room -= natural + GAP;
        } else {
            break;
        }
    }
    shown
}

/// The header: `number`, a token count column per tokenizer, then `cut
/// by NAME` over each cut shown (the selected tokenizer's underlined).
fn head_row(app: &App, counts: &[(usize, usize)], shown: &[(usize, usize)]) -> Line<'static> {
    let t = &app.theme;
    let mut head = vec![Span::styled(
        format!(" {}", fit_left("number", LABEL, "")),
        t.heading(),
    )];
    head.extend(counts.iter().map(|&(i, cw)| header_cell(app, i, cw)));
    for &(i, col) in shown {
        let name = super::short_labels(app, col.saturating_sub(width("cut by "))).swap_remove(i);
        let label = format!("cut by {name}");
        let style = if i == app.toks.selected {
            t.heading()
                .add_modifier(ratatui::style::Modifier::UNDERLINED)
        } else {
            t.heading()
        };
        head.push(Span::raw(" ".repeat(GAP)));
        head.push(Span::styled(
            fit_left(&label, col, t.glyphs.ellipsis),
            style,
        ));
    }
    Line::from(head)
}

/// Number example `row`: its label, every tokenizer's count of tokens,
/// then the cuts shown.
fn number_row(
    app: &App,
    row: usize,
    counts: &[(usize, usize)],
    shown: &[(usize, usize)],
) -> Line<'static> {
    let t = &app.theme;
    let chosen = row == app.fert.digit_row;
    let label = fit_left(&number_labels()[row], LABEL, t.glyphs.ellipsis);
    let mut spans = vec![Span::raw(format!("{}{label}", marker(app, chosen)))];
    for &(i, cw) in counts {
        let cell = match cuts(app, i) {
            Some(c) => c[row].len().to_string(),
            None => super::not_ready(app, &app.toks.slots[i]),
        };
        spans.push(Span::raw(fit_number(&cell, cw)));
    }
    for &(i, col) in shown {
        spans.push(Span::raw(" ".repeat(GAP)));
        match cuts(app, i) {
            Some(c) => push_cut(app, &c[row], col, &mut spans),
            None => {
                let cell = match app.toks.slots[i].error() {
                    Some(_) => "error".to_string(),
                    None => format!("loading{}", t.glyphs.ellipsis),
                };
                spans.push(Span::styled(fit_left(&cell, col, ""), t.dim()));
            }
        }
    }
    let style = if chosen { t.heading() } else { Style::new() };
    Line::from(spans).style(style)
}

/// One cut in `col` columns: its pieces, separated and in alternating
/// styles, cut short with an ellipsis where they do not fit.
fn push_cut(app: &App, pieces: &[Vec<u8>], col: usize, spans: &mut Vec<Span<'static>>) {
    let t = &app.theme;
    let sep = t.glyphs.separator;
    let texts: Vec<String> = pieces.iter().map(|p| token_visible(p)).collect();
    let whole: usize =
        texts.iter().map(|x| width(x)).sum::<usize>() + width(sep) * texts.len().saturating_sub(1);
    // A cut that does not fit keeps room for the ellipsis that says so.
    let room = if whole > col {
        col.saturating_sub(width(t.glyphs.ellipsis))
    } else {
        col
    };
    let mut used = 0;
    for (k, text) in texts.into_iter().enumerate() {
        let need = width(&text) + if k > 0 { width(sep) } else { 0 };
        if used + need > room {
            spans.push(Span::styled(
                truncate(t.glyphs.ellipsis, col - used, ""),
                t.dim(),
            ));
            used = col;
            break;
        }
        if k > 0 {
            spans.push(Span::styled(sep.to_string(), t.glyph()));
        }
        spans.push(Span::styled(text, t.token_at(k, Mark::None)));
        used += need;
    }
    spans.push(Span::raw(" ".repeat(col.saturating_sub(used))));
}
