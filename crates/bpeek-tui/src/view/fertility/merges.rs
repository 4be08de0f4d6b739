//! The merges panel: the selected tokenizer's merges by rank. For a rank
//! file the merge that made each token is recovered, for the rows shown
//! only.

use super::{hex, marker, pad_to, rule, token_label};
use crate::app::App;
use crate::fertility::layout::Plan;
use crate::fertility::tokenizers::{Slot, SlotState};
use crate::fertility::{MergeRow, merge_row, merge_rows};
use crate::panes::merge_number::Numbering;
use crate::view::widths::{fit_right, truncate};
use bpeek_core::Tokenizer;
use bpeek_core::encoder::MergeSource;
use ratatui::style::Style;
use ratatui::text::Line;

pub fn draw(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let slot = app.toks.selected_slot();
    let Some(tok) = app.toks.get(app.toks.selected) else {
        not_loaded(app, slot, w, lines);
        return;
    };
    if let Some(why) = why_no_merge_list(slot, tok) {
        lines.push(rule(app, &format!("{}: {}", slot.label, tok.kind()), w));
        lines.push(Line::styled(truncate(&why, w, t.glyphs.ellipsis), t.dim()));
        return;
    }
    let (rows, first_merge) = merge_rows(tok);
    let (title, note) = title_and_note(app, slot, tok, rows);
    lines.push(rule(app, &title, w));
    if rows == 0 {
        let why = if app.toks.is_trained(app.toks.selected) {
            "no merges yet: press n to make one".to_string()
        } else {
            format!("{} has no merges: every token is one byte", slot.label)
        };
        lines.push(Line::styled(format!(" {why}"), t.dim()));
        return;
    }
    let at = app.fert.merge_row.unwrap_or(first_merge).min(rows - 1);
    let num_w = rows.to_string().len().max(4);
    let numbering = Numbering::of(tok);
    let word = numbering.word();
    let heading = if numbering == Numbering::List {
        "#"
    } else {
        word
    };
    lines.push(Line::styled(
        format!(
            " {} {}  merge{note} (g: go to {word})",
            fit_right(heading, num_w, ""),
            fit_right("id", num_w, "")
        ),
        t.heading(),
    ));
    let end = lines.len() + plan.list;
    let top = at
        .saturating_sub(plan.list / 2)
        .min(rows.saturating_sub(plan.list));
    for r in top..(top + plan.list).min(rows) {
        let Some(m) = merge_row(tok, r) else { break };
        lines.push(merge_line(app, tok, &m, r == at, num_w, w));
    }
    pad_to(lines, end);
    lines.push(rule(app, "selected", w));
    lines.push(Line::raw(truncate(
        &format!(" {}", detail(app, tok, at)),
        w,
        t.glyphs.ellipsis,
    )));
}

/// The selected tokenizer is still loading, or failed to.
fn not_loaded(app: &App, slot: &Slot, w: usize, lines: &mut Vec<Line<'static>>) {
    let g = &app.theme.glyphs;
    lines.push(rule(app, &format!("{}: merges", slot.label), w));
    let why = match &slot.state {
        SlotState::Failed(e) => format!(" {}: {e}", slot.label),
        _ => format!(" {} is loading{}", slot.label, g.ellipsis),
    };
    lines.push(Line::styled(truncate(&why, w, g.ellipsis), app.theme.dim()));
}

/// Why a tokenizer that is no BPE of byte merges lists no merges here.
fn why_no_merge_list(slot: &Slot, tok: &Tokenizer) -> Option<String> {
    if tok.wordpiece().is_some() {
        return Some(format!(
            " {} is a {}: its {} pieces have no merge list; each word is cut longest match first (the token line shows the steps)",
            slot.label,
            tok.kind(),
            tok.vocab().len(),
        ));
    }
    if tok.char_bpe().is_some() {
        return Some(format!(
            " {} is a {}: its merges work on characters and are not listed here (the token line shows the merge that made a token)",
            slot.label,
            tok.kind(),
        ));
    }
    if tok.sentencepiece().is_some() {
        return Some(format!(
            " {} is a {}: its {} pieces have scores, not a merge list ({} on the token line shows a piece's score)",
            slot.label,
            tok.kind(),
            tok.vocab().len(),
            "] [",
        ));
    }
    None
}

/// The panel's title (name, how many merges, how long the load took) and
/// the note on the header for a rank file.
fn title_and_note(app: &App, slot: &Slot, tok: &Tokenizer, rows: usize) -> (String, &'static str) {
    let took = match &slot.state {
        SlotState::Ready { took, .. } if !took.is_zero() => {
            format!(" {} loaded in {:.2} s", super::dot(app), took.as_secs_f64())
        }
        _ => String::new(),
    };
    let (how, note) = match tok.source() {
        MergeSource::List => (crate::panes::why::plural(rows as u64, "merge"), ""),
        MergeSource::Ranks => (
            format!(
                "{} by rank",
                crate::panes::why::plural(rows as u64, "token")
            ),
            ", recovered from lower ranks",
        ),
    };
    (format!("{}: {how}{took}", slot.label), note)
}

/// A row of the list: rank, id, and the pair merged into the token.
fn merge_line(
    app: &App,
    tok: &Tokenizer,
    m: &MergeRow,
    chosen: bool,
    num_w: usize,
    w: usize,
) -> Line<'static> {
    let t = &app.theme;
    let made = token_label(app, tok, m.id);
    let what = match m.pair {
        Some((a, b)) => format!(
            "{} + {} {} {made}",
            token_label(app, tok, a),
            token_label(app, tok, b),
            t.glyphs.arrow
        ),
        None => format!("{made}  (one byte, no merge)"),
    };
    let text = format!(
        "{}{} {}  {what}",
        marker(app, chosen),
        fit_right(&Numbering::of(tok).number(m.rank).to_string(), num_w, ""),
        fit_right(&m.id.to_string(), num_w, ""),
    );
    let style = if chosen { t.cursor_row() } else { Style::new() };
    Line::styled(truncate(&text, w, t.glyphs.ellipsis), style)
}

/// The selected row in full: rank, id, the token and its bytes.
fn detail(app: &App, tok: &Tokenizer, at: usize) -> String {
    match merge_row(tok, at) {
        Some(m) => {
            let bytes = tok.describe(m.id).bytes;
            format!(
                "{} {} id {} {} \"{}\" {} {} bytes {}",
                Numbering::of(tok).name(m.rank),
                super::dot(app),
                m.id,
                super::dot(app),
                super::shown(app, &bytes),
                super::dot(app),
                bytes.len(),
                hex(app, &bytes)
            )
        }
        None => String::new(),
    }
}
