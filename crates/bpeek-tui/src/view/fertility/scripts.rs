//! The scripts panel: the measured text cut into runs of one script, and
//! each script's bytes per token under each tokenizer.

use super::{bar, header_cell, left, marker, not_ready, pad_to, rule};
use crate::app::App;
use crate::fertility::layout::Plan;
use crate::fertility::{TextSource, format_ratio};
use crate::view::widths::{fit_number, fit_right};
use bpeek_core::corpora::SAMPLES;
use bpeek_core::fertility::ScriptShare;
use bpeek_core::script::Script;
use ratatui::text::{Line, Span};

const COL: usize = 8;
const NAME: usize = 18;
const BYTES: usize = 7;

fn shares(app: &App, i: usize) -> Option<&Vec<ScriptShare>> {
    app.toks.get(i)?;
    let stamp = app.toks.slots[i].stamp;
    let pasted = app.fert.effective_source(&app.encode.text) == TextSource::Pasted;
    let key = pasted.then(|| app.encode.generation());
    // Shares of another text or tokenizer wait for the new ones.
    match app.fert.columns.get(i)?.scripts.as_ref() {
        Some((s, k, shares)) if (*s, *k) == (stamp, key) => Some(shares),
        _ => None,
    }
}

fn per_token(shares: &[ScriptShare], script: Script) -> Option<f64> {
    shares
        .iter()
        .find(|s| s.script == script)
        .and_then(ScriptShare::bytes_per_token)
}

pub fn draw(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let sel = app.toks.selected;
    let text = match app.fert.effective_source(&app.encode.text) {
        TextSource::Pasted => "your text".to_string(),
        TextSource::Samples => format!("the {} samples, joined", SAMPLES.len()),
    };
    lines.push(rule(
        app,
        &format!("bytes per token by script, in {text}"),
        w,
    ));
    let room = w.saturating_sub(1 + NAME + BYTES + 2 + 8);
    let cols = super::tokenizer_columns(app, room, COL);
    let cols_w: usize = cols.iter().map(|&(_, cw)| cw).sum();
    let bar_w = w.saturating_sub(1 + NAME + BYTES + cols_w + 2);
    // Every tokenizer sees the same runs; take them from any that has them.
    let runs: Vec<(Script, usize)> = (0..app.toks.slots.len())
        .filter_map(|i| shares(app, i))
        .find(|s| !s.is_empty())
        .map(|s| s.iter().map(|x| (x.script, x.bytes)).collect())
        .unwrap_or_default();
    let max = (0..app.toks.slots.len())
        .filter_map(|i| shares(app, i))
        .flatten()
        .filter_map(ScriptShare::bytes_per_token)
        .fold(0.0, f64::max);

    let mut head = vec![Span::styled(
        format!(
            " {}{}",
            left(app, "script", NAME),
            fit_right("in text", BYTES, "")
        ),
        t.heading(),
    )];
    head.extend(cols.iter().map(|&(i, cw)| header_cell(app, i, cw)));
    head.push(Span::styled(
        format!(
            "  {}",
            left(
                app,
                &format!("B/token: {}", app.toks.slots[sel].label),
                bar_w
            )
        ),
        t.dim(),
    ));
    lines.push(Line::from(head));

    let end = lines.len() + plan.list;
    let first = app
        .fert
        .script_row
        .min(runs.len().saturating_sub(plan.list));
    for &(script, bytes) in runs.iter().skip(first).take(plan.list) {
        let mut spans = vec![Span::raw(format!(
            "{}{}{}",
            marker(app, false),
            left(app, script.name(), NAME),
            fit_number(&bytes.to_string(), BYTES)
        ))];
        for &(i, cw) in &cols {
            let cell = match shares(app, i) {
                Some(s) if s.is_empty() => "-".to_string(),
                Some(s) => format_ratio(per_token(s, script)),
                None => not_ready(app, &app.toks.slots[i]),
            };
            spans.push(Span::raw(fit_number(&cell, cw)));
        }
        let value = shares(app, sel).and_then(|s| per_token(s, script));
        spans.push(Span::styled(
            format!("  {}", bar(app, value, max, bar_w)),
            t.fresh(),
        ));
        lines.push(Line::from(spans));
    }
    if runs.len() > first + plan.list
        && let Some(last) = lines.last_mut()
    {
        *last = Line::styled(
            format!(
                " {} {} more (Down)",
                t.glyphs.down,
                runs.len() - first - plan.list + 1
            ),
            t.dim(),
        );
    }
    pad_to(lines, end);
    for note in &plan.note {
        lines.push(Line::styled(format!(" {note}"), t.dim()));
    }
}
