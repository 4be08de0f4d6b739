//! The fertility view: what text costs in tokens under the tokenizer being
//! trained, the byte baseline and real tokenizers, side by side. It takes
//! the whole screen between the status line and the footer and shows one
//! panel at a time (Tab moves on); every panel ends with the selected
//! tokenizer's tokens of the text and the selected token's detail.
//!
//! ```text
//!  Fertility [Cost] Scripts  Digits  Merges      text: samples | trained: merge 3
//!  the panel: a table with bars
//!  ── o200k on French: token 4/108 ─────────────────────────────────────────
//!  Le│·boulanger│·ouvre│...                      (the token line)
//!  id 45094 · 10 bytes ... · made by merge 45093: ·boul + anger
//! ```

pub mod bands;
mod cost;
mod digits;
mod merges;
mod scripts;

use crate::action::Toggle;
use crate::app::App;
use crate::fertility::layout::{Plan, pasted, plan};
use crate::fertility::tokenizers::{Slot, SlotState};
use crate::fertility::{Panel, StripText, TextSource};
use crate::panes::rows::{Piece, Placed, Rows, TextLook, lay_out, tag_under};
use crate::view::short_names::distinct_short_names;
use crate::view::widths::{fit_items, fit_left, truncate, width};
use bpeek_core::Tokenizer;
use bpeek_core::corpora::SAMPLES;
use bpeek_core::encoder::EncodedToken;
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let plan = plan(app, area.width, area.height + 2);
    let w = area.width as usize;
    let mut lines = panel_lines(app, &plan, w);
    if app.fert.panel != Panel::Merges {
        token_section(app, &plan, w, &mut lines);
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The tabs, the load error if any, and the panel shown: every row above
/// the token section.
fn panel_lines(app: &App, plan: &Plan, w: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = vec![tabs(app, w)];
    if let Some(e) = &plan.error {
        lines.push(Line::styled(
            truncate(&format!(" {e}"), w, app.theme.glyphs.ellipsis),
            app.theme.notice(),
        ));
    }
    match app.fert.panel {
        Panel::Cost if pasted(app) => cost::pasted(app, plan, w, &mut lines),
        Panel::Cost => cost::samples(app, plan, w, &mut lines),
        Panel::Scripts => scripts::draw(app, plan, w, &mut lines),
        Panel::Digits => digits::draw(app, plan, w, &mut lines),
        Panel::Merges => merges::draw(app, plan, w, &mut lines),
    }
    lines
}

/// The token of the token line drawn at `at` in a view `area`, if one is,
/// by its place in the text, as [`draw`] puts them (the bands of every
/// tokenizer's cut are not looked into).
pub fn token_at(app: &App, area: Rect, at: Position) -> Option<usize> {
    let shows_line = app.fert.panel != Panel::Merges
        && !app.fert.cuts.on
        && app.input != crate::app::InputMode::Editing;
    if !shows_line || !area.contains(at) {
        return None;
    }
    let tok = app.toks.get(app.toks.selected)?;
    let plan = plan(app, area.width, area.height + 2);
    let w = area.width as usize;
    // Under the panel and the rule over the token line.
    let top = panel_lines(app, &plan, w).len() + 1;
    let row = usize::from(at.y - area.y).checked_sub(top)?;
    let char_mode = tok.mode() == bpeek_core::Mode::Char;
    let (rows, placed) = token_rows(
        app,
        &app.fert.strip,
        char_mode,
        w.saturating_sub(1),
        plan.tokens,
    );
    // Each row starts with a column of its own (the mark of more before).
    let widths: Vec<usize> = rows.iter().map(|l| l.width().saturating_sub(1)).collect();
    let column = usize::from(at.x - area.x).checked_sub(1)?;
    tag_under(&placed, &widths, row, column)
}

/// The first row: the panels, the text measured and where training is.
fn tabs(app: &App, w: usize) -> Line<'static> {
    let t = &app.theme;
    let mut spans = vec![Span::styled(" Fertility ", t.heading())];
    let mut used = width(" Fertility ");
    for p in Panel::ORDER {
        let (text, style) = if p == app.fert.panel {
            (format!("[{}]", p.name()), t.title(true))
        } else {
            (format!(" {} ", p.name()), Style::new())
        };
        used += width(&text) + 1;
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    let source = match app.fert.effective_source(&app.encode.text) {
        TextSource::Pasted => "text: yours".to_string(),
        TextSource::Samples => format!("text: {} samples", SAMPLES.len()),
    };
    let loading = app.toks.slots.iter().filter(|s| s.is_loading()).count();
    let mut items = vec![(0, source)];
    if loading > 0 {
        items.push((1, format!("loading {loading}{}", t.glyphs.ellipsis)));
    }
    items.push((
        2,
        format!("trained: merge {}", app.trainer().merges().len()),
    ));
    let sep = if t.ascii { " | " } else { " │ " };
    let right = fit_items(&items, sep, w.saturating_sub(used + 2));
    let pad = w.saturating_sub(used + width(&right) + 1);
    spans.push(Span::raw(" ".repeat(pad)));
    spans.push(Span::styled(right, t.dim()));
    Line::from(spans)
}

/// A horizontal rule with a title in it: `── title ─────`.
pub fn rule(app: &App, title: &str, w: usize) -> Line<'static> {
    let h = if app.theme.ascii { "-" } else { "─" };
    let title = truncate(title, w.saturating_sub(5), app.theme.glyphs.ellipsis);
    let rest = w.saturating_sub(width(&title) + 4);
    Line::from(vec![
        Span::styled(format!("{h}{h} "), app.theme.dim()),
        Span::styled(title, app.theme.heading()),
        Span::styled(format!(" {}", h.repeat(rest)), app.theme.dim()),
    ])
}

/// Pad `lines` with empty rows up to `len` rows.
pub fn pad_to(lines: &mut Vec<Line<'static>>, len: usize) {
    while lines.len() < len {
        lines.push(Line::default());
    }
}

/// A bar of `value` against `max`, `cols` wide at most: whole blocks and an
/// eighth-block end, or `#` in ASCII.
pub fn bar(app: &App, value: Option<f64>, max: f64, cols: usize) -> String {
    let (Some(v), true) = (value, max > 0.0) else {
        return String::new();
    };
    let eighths = ((v / max).clamp(0.0, 1.0) * cols as f64 * 8.0).round() as usize;
    if app.theme.ascii {
        return "#".repeat((eighths + 4) / 8);
    }
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    format!("{}{}", "█".repeat(eighths / 8), PARTS[eighths % 8])
}

/// What a cell says for a tokenizer that has no numbers yet.
pub fn not_ready(app: &App, slot: &Slot) -> String {
    match slot.state {
        SlotState::Failed(_) => "error".into(),
        _ => app.theme.glyphs.ellipsis.into(),
    }
}

/// The tokenizer columns that fit in `room` columns of `col` each, the
/// selected one always among them.
pub fn visible_columns(app: &App, room: usize, col: usize) -> Vec<usize> {
    let n = app.toks.slots.len();
    let fit = (room / col.max(1)).clamp(1, n);
    let mut cols: Vec<usize> = (0..fit).collect();
    let sel = app.toks.selected;
    if sel >= fit {
        cols[fit - 1] = sel;
    }
    cols
}

/// Every tokenizer's name cut to `cols` columns, no two alike (see
/// [`distinct_short_names`]).
pub fn short_labels(app: &App, cols: usize) -> Vec<String> {
    let labels: Vec<&str> = app.toks.slots.iter().map(|s| s.label.as_str()).collect();
    distinct_short_names(&labels, cols, app.theme.glyphs.ellipsis)
}

/// The columns of the widest tokenizer name.
pub fn longest_label(app: &App) -> usize {
    app.toks
        .slots
        .iter()
        .map(|s| width(&s.label))
        .max()
        .unwrap_or(0)
}

/// The tokenizer columns of a table, as (slot, columns): where `room`
/// holds every tokenizer with its whole name, each as wide as its name
/// and a blank (`least` at least); else as many as fit `least` wide, the
/// selected one among them, their names shortened.
pub fn tokenizer_columns(app: &App, room: usize, least: usize) -> Vec<(usize, usize)> {
    whole_name_columns(app, room, least).unwrap_or_else(|| narrow_columns(app, room, least))
}

/// Every tokenizer's column as wide as its name and a blank (`least` at
/// least), if they all fit in `room`.
pub fn whole_name_columns(app: &App, room: usize, least: usize) -> Option<Vec<(usize, usize)>> {
    let wanted: Vec<(usize, usize)> = app
        .toks
        .slots
        .iter()
        .enumerate()
        .map(|(i, s)| (i, (width(&s.label) + 1).max(least)))
        .collect();
    (wanted.iter().map(|&(_, cw)| cw).sum::<usize>() <= room).then_some(wanted)
}

/// As many tokenizer columns `col` wide as fit in `room`, the selected
/// one among them.
pub fn narrow_columns(app: &App, room: usize, col: usize) -> Vec<(usize, usize)> {
    visible_columns(app, room, col)
        .into_iter()
        .map(|i| (i, col))
        .collect()
}

/// How wide a column of tokenizer names is: the longest name where the
/// table's other `fixed` columns and `least_bar` columns of bar leave room
/// in `w`, never below `least`.
pub fn name_width(app: &App, w: usize, fixed: usize, least_bar: usize, least: usize) -> usize {
    let room = w.saturating_sub(fixed + least_bar);
    longest_label(app).min(room).max(least)
}

/// A tokenizer's name cut to a column, the selected one underlined.
pub fn header_cell(app: &App, i: usize, col: usize) -> Span<'static> {
    let label = short_labels(app, col.saturating_sub(1)).swap_remove(i);
    let text = crate::view::widths::fit_right(&label, col, "");
    let style = if i == app.toks.selected {
        app.theme.heading().add_modifier(Modifier::UNDERLINED)
    } else {
        app.theme.heading()
    };
    Span::styled(text, style)
}

/// What separates the items of a detail line: a middle dot, or `|` in ASCII.
pub fn dot(app: &App) -> &'static str {
    if app.theme.ascii {
        "|"
    } else {
        app.theme.glyphs.dot
    }
}

/// The marker at the start of a selected row.
pub fn marker(app: &App, selected: bool) -> String {
    if selected {
        app.theme.glyphs.winner.to_string()
    } else {
        " ".into()
    }
}

/// The label of the text the token line shows.
fn strip_label(app: &App) -> String {
    let (what, _) = app
        .fert
        .strip_text(&app.encode.text, app.encode.generation());
    match what {
        StripText::Pasted(_) => "your text".into(),
        StripText::Sample(i) => SAMPLES[i].language.to_string(),
        StripText::Number(i) => crate::fertility::numbers()[i].clone(),
    }
}

/// The rule, the selected tokenizer's tokens around the token cursor, and
/// the selected token's detail.
fn token_section(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    if app.fert.cuts.on && app.input != crate::app::InputMode::Editing {
        return band_section(app, plan, w, lines);
    }
    let t = &app.theme;
    let slot = app.toks.selected_slot();
    let strip = &app.fert.strip;
    let title = if strip.is_empty() {
        format!("{} on {}", slot.label, strip_label(app))
    } else {
        let of = if app.fert.strip_cut {
            format!(
                "{} in its first {} KB",
                strip.len(),
                crate::fertility::STRIP_BYTES >> 10
            )
        } else {
            strip.len().to_string()
        };
        format!(
            "{} on {}: token {}/{of}  ([ ] select)",
            slot.label,
            strip_label(app),
            app.fert.token + 1,
        )
    };
    lines.push(rule(app, &title, w));
    let Some(tok) = app.toks.get(app.toks.selected) else {
        let why = match &slot.state {
            SlotState::Failed(e) => format!(" {}: {e}", slot.label),
            _ => format!(" {} is loading{}", slot.label, t.glyphs.ellipsis),
        };
        let target = lines.len() + plan.tokens + 1;
        lines.push(Line::styled(truncate(&why, w, t.glyphs.ellipsis), t.dim()));
        pad_to(lines, target);
        return;
    };
    let target = lines.len() + plan.tokens;
    if app.input == crate::app::InputMode::Editing {
        // Typing here edits the pasted text: show it with its cursor.
        let room = plan.tokens.max(1);
        let (rows, cursor) = crate::view::encode::token_rows(app, w.saturating_sub(1), room);
        let first = cursor.map_or(0, |c| (c + 1).saturating_sub(room));
        lines.extend(rows.into_iter().skip(first).take(room).map(|mut l| {
            l.spans.insert(0, Span::raw(" "));
            l
        }));
        pad_to(lines, target);
        lines.push(Line::styled(
            " editing your text: type, paste, move with the arrows; Esc when done",
            t.heading(),
        ));
        return;
    }
    let char_mode = tok.mode() == bpeek_core::Mode::Char;
    lines.extend(token_rows(app, strip, char_mode, w.saturating_sub(1), plan.tokens).0);
    pad_to(lines, target);
    lines.push(Line::styled(
        truncate(
            &format!(" {}", token_detail(app, tok)),
            w,
            t.glyphs.ellipsis,
        ),
        Style::new(),
    ));
}

/// The bands as [`band_section`] draws them, `w` columns wide.
fn drawn_bands(app: &App, plan: &Plan, w: usize) -> self::bands::Drawn {
    let bands = &app.fert.cuts.fert;
    let (key, text) = app
        .fert
        .strip_text(&app.encode.text, app.encode.generation());
    let current = bands.key == Some(key);
    let focused = bands
        .of_slot(app.toks.selected)
        .and_then(|b| b.cut())
        .filter(|_| current);
    let selected = focused.and_then(|c| c.spans.get(app.fert.token).cloned());
    let focus = selected.as_ref().map_or(bands.range.start, |r| r.start);
    let empty = crate::fertility::cuts::Bands::default();
    let shown = if current { bands } else { &empty };
    self::bands::draw(
        app,
        shown,
        text,
        focus,
        selected,
        w.saturating_sub(1),
        plan.tokens,
    )
}

/// The band (its slot) and the byte of the token line's text under `at`,
/// when the view in `area` shows every tokenizer's cut.
pub fn band_byte_at(app: &App, area: Rect, at: Position) -> Option<(usize, usize)> {
    let shows_bands = app.fert.panel != Panel::Merges
        && app.fert.cuts.on
        && app.input != crate::app::InputMode::Editing;
    if !shows_bands || !area.contains(at) {
        return None;
    }
    let plan = plan(app, area.width, area.height + 2);
    let w = area.width as usize;
    // Under the panel and the rule over the bands.
    let top = panel_lines(app, &plan, w).len() + 1;
    let line = usize::from(at.y - area.y).checked_sub(top)?;
    if line >= plan.tokens {
        return None;
    }
    // Each line starts with a column of its own.
    let column = usize::from(at.x - area.x).checked_sub(1)?;
    drawn_bands(app, &plan, w).byte_at(line, column)
}

/// In place of the token line, every tokenizer's cut of its text, a band
/// each, the token cursor in the focused one; the selected token's detail
/// under them.
fn band_section(app: &App, plan: &Plan, w: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let bands = &app.fert.cuts.fert;
    let (key, _) = app
        .fert
        .strip_text(&app.encode.text, app.encode.generation());
    let current = bands.key == Some(key);
    let empty = crate::fertility::cuts::Bands::default();
    let shown = if current { bands } else { &empty };
    let drawn = drawn_bands(app, plan, w);
    let differ = shown.differ.len();
    let mut title = format!(
        "every tokenizer on {}: {differ} stretch{} cut differently",
        strip_label(app),
        if differ == 1 { "" } else { "es" }
    );
    if current && !bands.whole {
        title += &format!(" in its first {} KB", crate::fertility::STRIP_BYTES >> 10);
    }
    if let Some(note) = self::bands::hidden_note(&drawn, shown.bands.len()) {
        title += &format!(" {} {note}", dot(app));
    }
    lines.push(rule(app, &title, w));
    let target = lines.len() + plan.tokens;
    lines.extend(drawn.lines.into_iter().take(plan.tokens).map(|mut l| {
        l.spans.insert(0, Span::raw(" "));
        l
    }));
    pad_to(lines, target);
    let detail = match app.toks.get(app.toks.selected) {
        Some(tok) => token_detail(app, tok),
        None => {
            let slot = app.toks.selected_slot();
            match &slot.state {
                SlotState::Failed(e) => format!("{}: {e}", slot.label),
                _ => format!("{} is loading{}", slot.label, t.glyphs.ellipsis),
            }
        }
    };
    lines.push(Line::raw(truncate(
        &format!(" {detail}"),
        w,
        t.glyphs.ellipsis,
    )));
}

/// The tokens from a little before the cursor, in alternating styles with
/// separators, the cursor token in reverse video; at most `height` rows;
/// and where each token starts (tagged by its place in the text).
fn token_rows(
    app: &App,
    tokens: &[EncodedToken],
    char_mode: bool,
    cols: usize,
    height: usize,
) -> (Vec<Line<'static>>, Vec<Placed>) {
    let t = &app.theme;
    let one_row = height <= 1;
    let cursor = app.fert.token.min(tokens.len().saturating_sub(1));
    // Start far enough back that the cursor sits in the first half.
    let budget = (cols * height.max(1)) / 2;
    let mut start = cursor;
    let mut used = 0;
    while start > 0 {
        let w = width(&shown(app, &tokens[start - 1].bytes)) + 1;
        if used + w > budget {
            break;
        }
        used += w;
        start -= 1;
    }
    // Enough tokens to fill the rows, and no more: a long text costs only
    // what shows.
    let room = cols * height.max(1);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut drawn = 0;
    let mut stopped = false;
    for (i, token) in tokens.iter().enumerate().skip(start) {
        let mut style = t.token_at(i, crate::theme::Mark::None);
        if i == cursor {
            style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
        }
        let end_of_word = char_mode && !token.special && token.bytes.ends_with(b"</w>");
        let bytes = if end_of_word {
            &token.bytes[..token.bytes.len() - 4]
        } else {
            &token.bytes[..]
        };
        let mut piece = Piece::token(bytes, style);
        piece.end_of_word = end_of_word;
        piece.tag = Some(i);
        pieces.push(piece);
        drawn += bytes.len() * 4 + 1;
        if i > cursor && drawn > room * 2 {
            stopped = i + 1 < tokens.len();
            break;
        }
    }
    let look = TextLook {
        theme: t,
        whitespace: one_row || app.shows(Toggle::Whitespace),
        hex: app.shows(Toggle::Hex),
        separators: one_row || app.shows(Toggle::Separators),
        line_breaks: !one_row,
    };
    // The last column is kept for the mark that says more follows.
    let mut rows = Rows::new(cols.saturating_sub(1));
    lay_out(&mut rows, &pieces, &look);
    let (mut out, _, placed) = rows.finish_placed();
    let more_after = stopped || out.len() > height.max(1);
    out.truncate(height.max(1));
    let more = t.glyphs.ellipsis;
    for (i, line) in out.iter_mut().enumerate() {
        let lead = if i == 0 && start > 0 { more } else { " " };
        line.spans.insert(0, Span::styled(lead, t.dim()));
    }
    if more_after && let Some(last) = out.last_mut() {
        let pad = (cols + 1).saturating_sub(last.width() + 1);
        last.spans.push(Span::raw(" ".repeat(pad)));
        last.spans.push(Span::styled(more, t.dim()));
    }
    (out, placed)
}

/// A token as the tables show it, spaces as glyphs.
pub fn token_label(app: &App, tok: &Tokenizer, id: bpeek_core::TokenId) -> String {
    shown(app, &tok.describe(id).bytes)
}

/// Token bytes on one line (see [`crate::panes::rows::label`]). A
/// model of pieces writes a space as `▁` in its tokens: it is drawn as
/// the space glyph, as a byte-level token's space is, so the two kinds
/// read alike side by side.
pub fn shown(app: &App, bytes: &[u8]) -> String {
    const MARK: &[u8] = "\u{2581}".as_bytes();
    let pieces = app
        .toks
        .get(app.toks.selected)
        .is_some_and(|t| t.is_piece_model());
    if pieces && bytes.windows(MARK.len()).any(|w| w == MARK) {
        let spaced = String::from_utf8_lossy(bytes).replace('\u{2581}', " ");
        return crate::panes::rows::label(spaced.as_bytes(), &app.theme);
    }
    crate::panes::rows::label(bytes, &app.theme)
}

/// Bytes as hex, the first few of them.
pub fn hex(app: &App, bytes: &[u8]) -> String {
    let mut out: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02X}")).collect();
    if bytes.len() > 8 {
        out.push(app.theme.glyphs.ellipsis.to_string());
    }
    out.join(" ")
}

/// The selected token: id, bytes and the merge that made it.
fn token_detail(app: &App, tok: &Tokenizer) -> String {
    let Some(token) = app.fert.selected_token() else {
        return "no tokens: the text is empty".into();
    };
    let dot = dot(app);
    if tok.is_unknown(token.id) {
        // The unknown token's own bytes say nothing of the text it stands for.
        let text = app
            .fert
            .strip_text
            .get(app.fert.token)
            .cloned()
            .unwrap_or_default();
        let n = text.len();
        let (name, why) = match (tok.sentencepiece(), tok.wordpiece()) {
            (_, Some(_)) => (
                shown(app, &token.bytes),
                "a word with a part no piece matches, or longer than the model reads",
            ),
            (Some(_), _) => (
                shown(app, &token.bytes),
                "characters the model has no piece for",
            ),
            (None, None) => ("[UNK]".to_string(), "a character never seen in training"),
        };
        return format!(
            "id {} {dot} {name} for \"{}\" {dot} {n} byte{} {} {dot} {why}",
            token.id,
            shown(app, &text),
            if n == 1 { "" } else { "s" },
            hex(app, &text),
        );
    }
    let n = token.bytes.len();
    let made = if token.special {
        "a special token".to_string()
    } else if let Some(m) = tok.sentencepiece() {
        spm_piece(app, tok, m, token.id)
    } else if let Some(w) = tok.wordpiece() {
        wordpiece_steps(app, w)
    } else if let Some(m) = tok.char_bpe() {
        match m.made_by(token.id) {
            Some((rank, left, right)) => format!(
                "made by merge {}: {} + {}",
                rank + 1,
                token_label(app, tok, left),
                token_label(app, tok, right)
            ),
            None if n == 1 && tok.kind_detail().contains("byte fallback") => {
                "a character or a byte (byte fallback): no merge made it".into()
            }
            None => "a base character: no merge made it".into(),
        }
    } else {
        match tok.made_by(token.id) {
            Some(m) => format!(
                "made by {}: {} + {}",
                crate::panes::merge_number::Numbering::of(tok).name(m.rank as usize),
                token_label(app, tok, m.left),
                token_label(app, tok, m.right)
            ),
            None if n == 1 => "one byte: no merge made it".into(),
            None => "a base symbol: no merge made it".into(),
        }
    };
    format!(
        "id {} {dot} \"{}\" {dot} {n} byte{} {} {dot} {made}",
        token.id,
        shown(app, &token.bytes),
        if n == 1 { "" } else { "s" },
        hex(app, &token.bytes),
    )
}

/// What a SentencePiece piece is: no merge list made it, so its model
/// says how it is given (see [`crate::panes::piece_story`]).
fn spm_piece(
    app: &App,
    tok: &Tokenizer,
    m: &bpeek_core::models::spm::SpmModel,
    id: bpeek_core::TokenId,
) -> String {
    let label = |bytes: &[u8]| shown(app, bytes);
    crate::panes::piece_story::story(m, id, tok.kind(), &label, app.theme.glyphs.ellipsis)
        .map_or_else(|| "an added token".into(), |s| s.summary)
}

/// A WordPiece piece: no merge made it; its word was cut longest match
/// first, and the pieces of that word (the selected one and the ones
/// around it that carry the `##` prefix) say how: `un + ##aff + ##able`.
fn wordpiece_steps(app: &App, w: &bpeek_core::models::wordpiece::WordPiece) -> String {
    let strip = &app.fert.strip;
    let at = app.fert.token.min(strip.len().saturating_sub(1));
    let prefix = w.prefix().as_bytes();
    let continues = |i: usize| {
        !prefix.is_empty()
            && strip
                .get(i)
                .is_some_and(|t| !t.special && t.bytes.starts_with(prefix))
    };
    let mut first = at;
    while first > 0 && continues(first) {
        first -= 1;
    }
    let mut last = at;
    while continues(last + 1) {
        last += 1;
    }
    let pieces: Vec<String> = strip[first..=last]
        .iter()
        .map(|t| shown(app, &t.bytes))
        .collect();
    format!("wordpiece: {} (longest match first)", pieces.join(" + "))
}

/// `s` padded or cut to `cols` columns (left-aligned).
pub fn left(app: &App, s: &str, cols: usize) -> String {
    fit_left(s, cols, app.theme.glyphs.ellipsis)
}
