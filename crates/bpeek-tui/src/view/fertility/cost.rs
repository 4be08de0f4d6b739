//! The cost panel: for the samples, a language table (one number per
//! tokenizer, a bar for the selected one) and the selected language's full
//! table; for pasted text, the full table.

use super::{bar, header_cell, left, marker, not_ready, pad_to, rule};
use crate::app::App;
use crate::fertility::layout::Plan;
use crate::fertility::{Metric, format_ratio};
use crate::panes::why::plural;
use crate::view::widths::{fit_number, fit_right};
use bpeek_core::corpora::SAMPLES;
use bpeek_core::fertility::Row;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Columns of a tokenizer's number, at least (more for a long name).
const COL: usize = 8;
/// Columns of a language's name.
const LANG: usize = 12;
/// Columns of a tokenizer's name in the full tables, at least.
const NAME: usize = 10;
/// Columns a long tokenizer name leaves for the bar (or the chat table's
/// turn markers), at least.
const MIN_BAR: usize = 12;

/// The sample rows of tokenizer `i`, if measured.
fn sample_rows(app: &App, i: usize) -> Option<&Vec<Row>> {
    app.toks.get(i)?;
    app.fert.columns.get(i)?.samples.as_ref().map(|(_, r)| r)
}

pub fn samples(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let metric = app.fert.metric;
    let sel = app.toks.selected;
    let room = w.saturating_sub(1 + LANG + 2 + 8);
    let cols = super::tokenizer_columns(app, room, COL);
    let cols_w: usize = cols.iter().map(|&(_, cw)| cw).sum();
    let bar_w = w.saturating_sub(1 + LANG + cols_w + 2);
    // One scale for every tokenizer, so bars compare across them.
    let max = (0..app.toks.slots.len())
        .filter_map(|i| sample_rows(app, i))
        .flatten()
        .filter_map(|r| metric.value(r))
        .fold(0.0, f64::max);

    let mut head = vec![Span::styled(
        format!(" {}", left(app, "text", LANG)),
        t.heading(),
    )];
    head.extend(cols.iter().map(|&(i, cw)| header_cell(app, i, cw)));
    head.push(Span::styled(
        format!(
            "  {}",
            left(
                app,
                &format!("{}: {}", metric.short(), app.toks.slots[sel].label),
                bar_w
            )
        ),
        t.dim(),
    ));
    lines.push(Line::from(head));

    let first = app
        .fert
        .language
        .saturating_sub(plan.list / 2)
        .min(SAMPLES.len().saturating_sub(plan.list));
    let end = lines.len() + plan.list;
    for (k, sample) in SAMPLES.iter().enumerate().skip(first).take(plan.list) {
        let chosen = k == app.fert.language;
        let mut spans = vec![Span::raw(format!(
            "{}{}",
            marker(app, chosen),
            left(app, sample.language, LANG)
        ))];
        for &(i, cw) in &cols {
            let cell = match sample_rows(app, i) {
                // `*`: some of the tokens are unknown, or some bytes have
                // no token (the detail below says how many).
                Some(rows) if rows[k].unknown > 0 || rows[k].dropped > 0 => {
                    format!("{}*", metric.format(&rows[k]))
                }
                Some(rows) => metric.format(&rows[k]),
                None => not_ready(app, &app.toks.slots[i]),
            };
            spans.push(Span::raw(fit_number(&cell, cw)));
        }
        let value = sample_rows(app, sel).and_then(|r| metric.value(&r[k]));
        spans.push(Span::styled(
            format!("  {}", bar(app, value, max, bar_w)),
            t.fresh(),
        ));
        let style = if chosen { t.cursor_row() } else { Style::new() };
        lines.push(Line::from(spans).style(style));
    }
    pad_to(lines, end);

    if plan.detail {
        let k = app.fert.language;
        let sample = &SAMPLES[k];
        let any = (0..app.toks.slots.len()).find_map(|i| sample_rows(app, i));
        let title = match any {
            Some(rows) => {
                let r = &rows[k];
                let dot = super::dot(app);
                format!(
                    "{}: {} {dot} {} {dot} {}",
                    sample.language,
                    plural(r.bytes as u64, "byte"),
                    plural(r.chars as u64, "char"),
                    plural(r.words as u64, "word")
                )
            }
            None => sample.language.to_string(),
        };
        lines.push(rule(app, &title, w));
        let scale = (0..app.toks.slots.len())
            .filter_map(|i| sample_rows(app, i))
            .flatten()
            .filter_map(Row::bytes_per_token)
            .fold(0.0, f64::max);
        table(app, w, scale, false, lines, |i| {
            sample_rows(app, i).map(|r| &r[k])
        });
    }
}

pub fn pasted(app: &App, _plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    // Numbers of another text or tokenizer are not shown while the new
    // ones are measured.
    let generation = app.encode.generation();
    let row_of = |i: usize| {
        app.toks.get(i)?;
        let stamp = app.toks.slots[i].stamp;
        match app.fert.columns.get(i)?.pasted.as_ref() {
            Some((s, g, r)) if (*s, *g) == (stamp, generation) => Some(r),
            _ => None,
        }
    };
    let any = (0..app.toks.slots.len()).find_map(row_of);
    let dot = super::dot(app);
    let title = match any {
        Some(r) => {
            let counts = format!(
                "your text: {} {dot} {} {dot} {}",
                plural(r.bytes as u64, "byte"),
                plural(r.chars as u64, "char"),
                plural(r.words as u64, "word"),
            );
            // What the premium is measured against, where the rule has
            // room for it: the counts are never cut for it.
            let whole = format!("{counts} {dot} {}", app.fert.english_label());
            if crate::view::widths::width(&whole) + 5 <= w {
                whole
            } else {
                counts
            }
        }
        None => "your text".into(),
    };
    lines.push(rule(app, &title, w));
    let scale = (0..app.toks.slots.len())
        .filter_map(row_of)
        .filter_map(Row::bytes_per_token)
        .fold(0.0, f64::max);
    table(app, w, scale, true, lines, row_of);
    if app.chat.on {
        chat_table(app, w, lines);
    }
}

/// Chat mode: what the text costs as a user's turn in each tokenizer's
/// chat template, and what the template adds.
fn chat_table(app: &App, w: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let name_w = super::name_width(app, w, 1 + 8 + 8 + 9 + 2, MIN_BAR, NAME);
    let names = super::short_labels(app, name_w);
    lines.push(rule(
        app,
        "your text as a user's turn in each chat template",
        w,
    ));
    if app.encode.text.len() > crate::panes::chat_turn::EVERY_TOKENIZER_UP_TO {
        let limit = crate::panes::chat_turn::EVERY_TOKENIZER_UP_TO >> 10;
        lines.push(Line::styled(
            format!(" longer than {limit} KiB: the encode box counts it for its tokenizer"),
            t.dim(),
        ));
        return;
    }
    lines.push(Line::styled(
        format!(
            " {}{}{}{}  {}",
            left(app, "tokenizer", name_w),
            fit_right("tokens", 8, ""),
            fit_right("text", 8, ""),
            fit_right("template", 9, ""),
            "typed turn markers"
        ),
        t.heading(),
    ));
    let generation = app.encode.generation();
    for (i, slot) in app.toks.slots.iter().enumerate() {
        let name = format!(" {}", left(app, &names[i], name_w));
        let cells = match app.chat.of_slot(i, slot.stamp, generation) {
            Some(Ok(c)) => {
                let forged: Vec<&str> = c.forged.iter().map(|(s, _)| s.as_str()).collect();
                format!(
                    "{}{}{}  {}",
                    fit_number(&c.tokens.to_string(), 8),
                    fit_number(&c.message.to_string(), 8),
                    fit_number(&format!("+{}", c.template()), 9),
                    if forged.is_empty() {
                        "none".to_string()
                    } else {
                        format!("! {}", forged.join(" "))
                    }
                )
            }
            Some(Err(why)) => format!("   {why}"),
            None => format!("   {}", t.glyphs.ellipsis),
        };
        let line = format!("{name}{cells}");
        lines.push(Line::raw(crate::view::widths::truncate(
            &line,
            w,
            t.glyphs.ellipsis,
        )));
    }
}

/// A heading and one row per tokenizer: tokens, bytes, chars and words per
/// token, premium, and a bar of bytes per token.
fn table<'a>(
    app: &'a App,
    w: usize,
    scale: f64,
    cursor: bool,
    lines: &mut Vec<Line<'static>>,
    row_of: impl Fn(usize) -> Option<&'a Row>,
) {
    let t = &app.theme;
    let numbers = 1 + 7 + 7 + 7 + 9 + 8 + 2;
    let name_w = super::name_width(app, w, numbers, MIN_BAR, NAME);
    let names = super::short_labels(app, name_w);
    let bar_w = w.saturating_sub(numbers + name_w);
    let head = format!(
        " {}{}{}{}{}{}  {}",
        left(app, "tokenizer", name_w),
        fit_right("tokens", 7, ""),
        fit_right("B/tok", 7, ""),
        fit_right("ch/tok", 7, ""),
        fit_right("tok/word", 9, ""),
        fit_right("premium", 8, ""),
        left(app, "bytes per token", bar_w),
    );
    lines.push(Line::styled(head, t.heading()));
    for (i, slot) in app.toks.slots.iter().enumerate() {
        let chosen = i == app.toks.selected;
        let name = format!("{}{}", marker(app, chosen), left(app, &names[i], name_w));
        let line = match row_of(i) {
            Some(r) => Line::from(vec![
                Span::raw(format!(
                    "{name}{}{}{}{}{}",
                    fit_number(&Metric::Tokens.format(r), 7),
                    fit_number(&format_ratio(r.bytes_per_token()), 7),
                    fit_number(&format_ratio(r.chars_per_token()), 7),
                    fit_number(&format_ratio(r.tokens_per_word()), 9),
                    fit_number(&format_ratio(r.premium), 8),
                )),
                match r.unknown_share() {
                    // Unknown characters make a text look cheap: say so
                    // instead of drawing its bar.
                    Some(share) => Span::styled(
                        format!(
                            "  *{} of {} are unknown ({:.0}%)",
                            r.unknown,
                            crate::panes::why::plural(r.tokens as u64, "token"),
                            share * 100.0
                        ),
                        t.heading(),
                    ),
                    // So do bytes no token stands for (a byte-level file
                    // without a token for every byte drops them).
                    None if r.dropped > 0 => Span::styled(
                        format!(
                            "  *{} of {} dropped (no token for them)",
                            r.dropped,
                            crate::panes::why::plural(r.bytes as u64, "byte"),
                        ),
                        t.heading(),
                    ),
                    None => Span::styled(
                        format!("  {}", bar(app, r.bytes_per_token(), scale, bar_w)),
                        t.fresh(),
                    ),
                },
            ]),
            None => {
                let why = match slot.error() {
                    Some(_) => "could not load (see above)".to_string(),
                    None if slot.is_loading() => format!("loading{}", t.glyphs.ellipsis),
                    None => format!("measuring{}", t.glyphs.ellipsis),
                };
                Line::from(vec![
                    Span::raw(name),
                    Span::styled(format!("   {why}"), t.dim()),
                ])
            }
        };
        let style = match (chosen, cursor) {
            (true, true) => t.cursor_row(),
            (true, false) => t.heading(),
            _ => Style::new(),
        };
        lines.push(line.style(style));
    }
}
