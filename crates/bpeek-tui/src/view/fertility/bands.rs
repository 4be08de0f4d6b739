//! Every tokenizer's cut of one text, a band each, on the same columns.
//!
//! The text is laid out once: a cell per character as seen, a gap column
//! before every cell where any band cuts, rows wrapped once for all. Each
//! band then draws the same cells and, in the gap columns, its own cut
//! (`│`), a cut inside the character after it (`┊`), or a blank where it
//! does not cut. So a cut at byte k is in the same column in every band.
//!
//! ```text
//! ► gpt2 · 7 tokens
//! Hello│·न│म│स│्│त│े│·你│好
//!   o200k · 5 tokens
//! Hello│·नम│स्ते│·你好
//! ```
//!
//! Only the rows around the focus (the selected token, else the cursor)
//! are laid out, however long the text.

use crate::app::App;
use crate::fertility::cuts::{Band, BandState, Bands, Cut};
use crate::panes::rows::{DOTTED_CIRCLE, TAB_WIDTH, cell_width};
use crate::theme::Glyphs;
use crate::view::widths::truncate;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

/// A character of the text as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Its bytes in the whole text.
    pub bytes: Range<usize>,
    pub symbol: String,
    pub width: usize,
    /// Drawn as a glyph (whitespace, an escape), not as itself.
    pub glyph: bool,
    /// A line break: the row ends after it.
    pub ends_row: bool,
    /// Some band cuts at its start or inside it: a gap column before it.
    pub gap: bool,
}

/// What one column run of a row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// The gap column before cell `i`.
    Gap(usize),
    Cell(usize),
}

/// The text laid out once for every band.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub cells: Vec<Cell>,
    pub rows: Vec<Vec<Unit>>,
    /// The row the focus byte is on.
    pub focus_row: usize,
    /// The text goes on past the last row laid out.
    pub stopped: bool,
}

impl Layout {
    /// The row and column of each unit of the layout.
    pub fn placed(&self) -> impl Iterator<Item = (usize, usize, Unit)> + '_ {
        self.rows.iter().enumerate().flat_map(move |(r, units)| {
            let mut col = 0;
            units.iter().map(move |&u| {
                let at = col;
                col += match u {
                    Unit::Gap(_) => 1,
                    Unit::Cell(i) => self.cells[i].width,
                };
                (r, at, u)
            })
        })
    }

    /// Where `cut` draws a mark: (row, column, the cell after it, inside
    /// that cell) for each gap column where it cuts.
    pub fn marks(&self, cut: &Cut) -> Vec<(usize, usize, usize, bool)> {
        self.placed()
            .filter_map(|(r, c, u)| match u {
                Unit::Gap(i) => {
                    let cell = &self.cells[i];
                    if cut.cuts_at(cell.bytes.start) {
                        Some((r, c, i, false))
                    } else if cut.cuts_inside(&cell.bytes) {
                        Some((r, c, i, true))
                    } else {
                        None
                    }
                }
                Unit::Cell(_) => None,
            })
            .collect()
    }
}

const JOINER: char = '\u{200D}';

/// How a character as seen is drawn, and whether as a glyph.
fn symbol_of(cluster: &str, g: &Glyphs) -> (String, bool) {
    let first = cluster.chars().next().unwrap_or(' ');
    match cluster {
        " " => return (g.space.into(), true),
        "\t" => {
            let pad = TAB_WIDTH.saturating_sub(cell_width(g.tab));
            return (format!("{}{}", g.tab, " ".repeat(pad)), true);
        }
        "\n" => return (g.newline.into(), true),
        "\r" => return (g.carriage_return.into(), true),
        _ => {}
    }
    if first.is_control() || (first.is_whitespace() && first.is_ascii()) {
        let esc: String = cluster
            .chars()
            .map(|c| format!("\\u{{{:x}}}", c as u32))
            .collect();
        return (esc, true);
    }
    if let Some(head) = cluster.strip_suffix(JOINER)
        && cell_width(head) > 0
    {
        // A joiner last would join whatever the next column draws.
        return (format!("{head}<U+200D>"), false);
    }
    if cell_width(cluster) > 0 {
        return (cluster.to_string(), false);
    }
    let marks_only = cluster
        .chars()
        .all(unicode_normalization::char::is_combining_mark);
    let on_circle = format!("{DOTTED_CIRCLE}{cluster}");
    if marks_only && on_circle.graphemes(true).count() == 1 && cell_width(&on_circle) == 1 {
        return (on_circle, false);
    }
    let spelt: String = cluster
        .chars()
        .map(|c| format!("<U+{:04X}>", c as u32))
        .collect();
    (spelt, true)
}

/// The last character boundary at or before `at`.
fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// How many bytes before the focus are looked through for the start of
/// its line; past that the layout starts at a character.
fn back_limit(width: usize, height: usize) -> usize {
    (width * height * 8).max(4096)
}

/// Lay `text[range]` out `width` columns wide, with a gap column before
/// every cell some of `cuts` cuts at or inside: from the start of the
/// line that holds `focus` (not more than a few screens back) to `height`
/// rows past the focus row.
pub fn lay_out(
    text: &str,
    range: Range<usize>,
    cuts: &[&Cut],
    focus: usize,
    width: usize,
    height: usize,
    glyphs: &Glyphs,
) -> Layout {
    let width = width.max(1);
    let end = floor_char(text, range.end);
    let start = floor_char(text, range.start.min(end));
    let mut focus = floor_char(text, focus.clamp(start, end));
    if focus == end && end > start {
        // The end of the text has no character of its own: its last one.
        focus = floor_char(text, end - 1);
    }
    let floor = floor_char(text, focus.saturating_sub(back_limit(width, height))).max(start);
    // From a few lines back, so rows above the focus can fill the screen;
    // always from a line start (or a character far back) so that rows
    // wrap the same wherever the focus is.
    let wanted = height.min(64);
    let mut lo = focus;
    let mut back = 0;
    loop {
        match text[floor..lo].rfind('\n') {
            None => {
                lo = floor;
                break;
            }
            Some(i) if back == wanted => {
                lo = floor + i + 1;
                break;
            }
            Some(i) => {
                back += 1;
                lo = floor + i;
            }
        }
    }
    let mut out = Layout {
        rows: vec![Vec::new()],
        ..Layout::default()
    };
    let mut used = 0;
    let mut focus_row = None;
    let piece = &text[lo..end];
    for (i, g) in piece.grapheme_indices(true) {
        // "\r\n" is two cells, as the encode box draws it.
        let parts: &[(usize, &str)] = &if g == "\r\n" {
            vec![(i, "\r"), (i + 1, "\n")]
        } else {
            vec![(i, g)]
        };
        for &(at, s) in parts {
            let bytes = lo + at..lo + at + s.len();
            let (symbol, glyph) = symbol_of(s, glyphs);
            let w = cell_width(&symbol).max(1);
            let gap = cuts
                .iter()
                .any(|c| c.cuts_at(bytes.start) || c.cuts_inside(&bytes));
            let need = usize::from(gap) + w;
            if used > 0 && used + need > width {
                out.rows.push(Vec::new());
                used = 0;
            }
            if focus_row.is_none() && (bytes.end > focus || bytes.start >= focus) {
                focus_row = Some(out.rows.len() - 1);
            }
            let ci = out.cells.len();
            let row = out.rows.last_mut().expect("a row");
            if gap {
                row.push(Unit::Gap(ci));
            }
            row.push(Unit::Cell(ci));
            used += need;
            let ends_row = s == "\n";
            out.cells.push(Cell {
                bytes,
                symbol,
                width: w,
                glyph,
                ends_row,
                gap,
            });
            if ends_row {
                out.rows.push(Vec::new());
                used = 0;
            }
        }
        if focus_row.is_some_and(|f| out.rows.len() > f + height + 1) {
            out.stopped = lo + i + g.len() < end;
            break;
        }
    }
    if out.rows.len() > 1 && out.rows.last().is_some_and(Vec::is_empty) {
        out.rows.pop();
    }
    out.focus_row = focus_row.unwrap_or(out.rows.len() - 1);
    out
}

/// What the bands show, and which of them are not shown.
pub struct Drawn {
    pub lines: Vec<Line<'static>>,
    /// Bands above and below the ones shown.
    pub above: usize,
    pub below: usize,
    /// Rows of text above and below the ones shown (in every band); more
    /// than `rows_below` when the text was not laid out to its end.
    pub rows_above: usize,
    pub rows_below: usize,
    pub more_below: bool,
    /// For each line, the band (its slot) and the row of the layout it
    /// draws, if it draws text: where a click lands.
    pub text_rows: Vec<Option<(usize, usize)>>,
    /// The columns of labels left of the text (compact), or 0.
    pub gutter: usize,
    pub layout: Layout,
}

impl Drawn {
    /// The band (its slot) and the byte of the text at column `col` of
    /// line `line`, if text is drawn there. A gap column counts as the
    /// character after it.
    pub fn byte_at(&self, line: usize, col: usize) -> Option<(usize, usize)> {
        let (slot, row) = (*self.text_rows.get(line)?)?;
        let col = col.checked_sub(self.gutter)?;
        self.layout
            .placed()
            .filter(|&(r, _, _)| r == row)
            .find_map(|(_, at, unit)| {
                let (i, w) = match unit {
                    Unit::Gap(i) => (i, 1),
                    Unit::Cell(i) => (i, self.layout.cells[i].width),
                };
                (at <= col && col < at + w).then(|| (slot, self.layout.cells[i].bytes.start))
            })
    }
}

/// The bands of `bands` (cuts of `text`) in `width` x `height`, the band
/// of slot `focused` marked and always shown, the rows around `focus`, the
/// bytes of `selected` highlighted in every band.
pub fn draw(
    app: &App,
    bands: &Bands,
    text: &str,
    focus: usize,
    selected: Option<Range<usize>>,
    width: usize,
    height: usize,
) -> Drawn {
    let focused = app.toks.selected;
    let cuts: Vec<&Cut> = bands.bands.iter().filter_map(|b| b.cut()).collect();
    let n = bands.bands.len();
    let ready = cuts.len();
    let others = n - ready;
    // Too low for a label row over every band: the labels go in a column
    // on the left instead, the same width for all so the text still
    // lines up.
    let compact = ready * 2 + others > height && n > 1 && width >= 24;
    let labels: Vec<String> = bands.bands.iter().map(|b| label_of(app, b)).collect();
    let gutter = if compact {
        gutter_width(&labels, width)
    } else {
        0
    };
    let layout = lay_out(
        text,
        bands.range.clone(),
        &cuts,
        focus,
        width - gutter,
        height,
        &app.theme.glyphs,
    );
    let rows = layout.rows.len();
    let label_rows = usize::from(!compact);
    let per = rows_per_band(ready, others, height, label_rows, rows);
    let band_height = |i: usize| match bands.bands[i].cut() {
        Some(_) => label_rows + per,
        None => 1,
    };
    let fi = bands
        .bands
        .iter()
        .position(|b| b.slot == focused)
        .unwrap_or(0);
    let (a, b) = bands_around(fi, n, height, band_height);
    let shown = rows_around_focus(&layout, per);
    let drawing = BandDrawing {
        app,
        bands,
        layout: &layout,
        selected: selected.as_ref(),
        shown: shown.clone(),
        width,
        gutter,
    };
    let mut lines = Vec::new();
    let mut text_rows = Vec::new();
    for (band, label) in bands.bands[a..b].iter().zip(&labels[a..b]) {
        if compact {
            drawing.beside_label(band, label, &mut lines);
        } else {
            drawing.under_head(band, &mut lines);
            text_rows.push(None);
        }
        match band.cut() {
            Some(_) => text_rows.extend(shown.clone().map(|r| Some((band.slot, r)))),
            None if compact && state_of(app, band).is_some() => text_rows.push(None),
            None => {}
        }
    }
    Drawn {
        lines,
        above: a,
        below: n - b,
        rows_above: shown.start,
        rows_below: rows - shown.end,
        more_below: layout.stopped,
        text_rows,
        gutter,
        layout,
    }
}

/// The left column of labels: as wide as the widest label and its marker,
/// at most a third of `width`.
fn gutter_width(labels: &[String], width: usize) -> usize {
    let widest = labels.iter().map(|l| width_of(l)).max().unwrap_or(0);
    (widest + 3).min(width / 3)
}

/// Rows of text each ready band gets: as many as share out evenly, at
/// least one, never more than the focused band alone can show.
fn rows_per_band(
    ready: usize,
    others: usize,
    height: usize,
    label_rows: usize,
    rows: usize,
) -> usize {
    if ready == 0 || height < 1 + label_rows {
        0
    } else {
        (height.saturating_sub(others) / ready)
            .saturating_sub(label_rows)
            .clamp(1, rows.max(1))
            .min(height - label_rows)
    }
}

/// The `per` rows of text shown, the focus row in their middle where the
/// text allows.
fn rows_around_focus(layout: &Layout, per: usize) -> Range<usize> {
    let rows = layout.rows.len();
    let first = layout
        .focus_row
        .saturating_sub(per.saturating_sub(1) / 2)
        .min(rows.saturating_sub(per));
    first..(first + per).min(rows)
}

/// The bands shown (`a..b` of `n`): band `fi`, then as many below and
/// above it, one at a time, as fit in `height` rows.
fn bands_around(
    fi: usize,
    n: usize,
    height: usize,
    band_height: impl Fn(usize) -> usize,
) -> (usize, usize) {
    let (mut a, mut b) = (fi.min(n), (fi + 1).min(n));
    let mut used = if n > 0 { band_height(fi) } else { 0 };
    loop {
        let mut grew = false;
        if b < n && used + band_height(b) <= height {
            used += band_height(b);
            b += 1;
            grew = true;
        }
        if a > 0 && used + band_height(a - 1) <= height {
            a -= 1;
            used += band_height(a);
            grew = true;
        }
        if !grew {
            return (a, b);
        }
    }
}

/// What every band shown is drawn with.
struct BandDrawing<'a> {
    app: &'a App,
    bands: &'a Bands,
    layout: &'a Layout,
    selected: Option<&'a Range<usize>>,
    /// The rows of text shown.
    shown: Range<usize>,
    width: usize,
    /// The left column of labels (compact), or 0.
    gutter: usize,
}

impl BandDrawing<'_> {
    /// The focused band's marker and its label's style.
    fn marker_and_style(&self, band: &Band) -> (&'static str, Style) {
        let t = &self.app.theme;
        if band.slot == self.app.toks.selected {
            (t.glyphs.winner, t.title(true))
        } else {
            (" ", t.heading())
        }
    }

    /// Row `r` of a band's text.
    fn row(&self, r: usize, cut: &Cut, focused: bool) -> Line<'static> {
        band_row(
            self.app,
            self.bands,
            self.layout,
            r,
            cut,
            focused,
            self.selected,
        )
    }

    /// A band in the compact layout: its label in the left column, on its
    /// first row of text (or beside its state).
    fn beside_label(&self, band: &Band, label: &str, lines: &mut Vec<Line<'static>>) {
        let t = &self.app.theme;
        let (marker, label_style) = self.marker_and_style(band);
        let gutter = self.gutter;
        let head = truncate(label, gutter.saturating_sub(3), t.glyphs.ellipsis);
        let pad = gutter.saturating_sub(2 + width_of(&head));
        let gutter_spans = |first: bool| {
            if first {
                vec![
                    Span::raw(marker),
                    Span::styled(head.clone(), label_style),
                    Span::raw(" ".repeat(pad + 1)),
                ]
            } else {
                vec![Span::raw(" ".repeat(gutter))]
            }
        };
        match (band.cut(), state_of(self.app, band)) {
            (Some(cut), _) => {
                let focused = band.slot == self.app.toks.selected;
                for (k, r) in self.shown.clone().enumerate() {
                    let mut spans = gutter_spans(k == 0);
                    spans.extend(self.row(r, cut, focused).spans);
                    lines.push(Line::from(spans));
                }
            }
            (None, Some(state)) => {
                let mut spans = gutter_spans(true);
                spans.push(state);
                lines.push(fit(Line::from(spans), self.width, t.glyphs.ellipsis));
            }
            (None, None) => {}
        }
    }

    /// A band under a head row: marker, label and its count of tokens (or
    /// its state).
    fn under_head(&self, band: &Band, lines: &mut Vec<Line<'static>>) {
        let t = &self.app.theme;
        let (marker, label_style) = self.marker_and_style(band);
        let mut head = vec![
            Span::raw(format!("{marker} ")),
            Span::styled(slot_label(self.app, band), label_style),
        ];
        match (band.cut(), state_of(self.app, band)) {
            (Some(cut), _) => head.push(Span::styled(count_of(self.app, cut), t.heading())),
            (None, Some(state)) => {
                head.push(Span::raw(" "));
                head.push(state);
            }
            (None, None) => {}
        }
        lines.push(fit(Line::from(head), self.width, t.glyphs.ellipsis));
        if let Some(cut) = band.cut() {
            let focused = band.slot == self.app.toks.selected;
            lines.extend(self.shown.clone().map(|r| self.row(r, cut, focused)));
        }
    }
}

/// A band's state in words, unless it is ready.
fn state_of(app: &App, band: &Band) -> Option<Span<'static>> {
    let t = &app.theme;
    match &band.state {
        BandState::Ready { .. } => None,
        BandState::Loading => Some(Span::styled(
            format!("loading{}", t.glyphs.ellipsis),
            t.dim(),
        )),
        BandState::Failed(e) => Some(Span::styled(format!("cannot load: {e}"), t.notice())),
    }
}

fn slot_label(app: &App, band: &Band) -> String {
    app.toks.slots[band.slot].label.clone()
}

/// ` · 12 tokens`
fn count_of(app: &App, cut: &Cut) -> String {
    let n = cut.spans.len();
    let s = if n == 1 { "" } else { "s" };
    format!(" {} {n} token{s}", app.theme.glyphs.dot)
}

/// A band's name and count as the left column shows them: `gpt2 12`.
fn label_of(app: &App, band: &Band) -> String {
    match band.cut() {
        Some(cut) => format!("{} {}", slot_label(app, band), cut.spans.len()),
        None => slot_label(app, band),
    }
}

fn width_of(s: &str) -> usize {
    crate::view::widths::width(s)
}

/// A line cut to `width` columns, an ellipsis at the end if it was cut.
fn fit(line: Line<'static>, width: usize, ellipsis: &str) -> Line<'static> {
    if line.width() <= width {
        return line;
    }
    let mut left = width.saturating_sub(1);
    let mut spans = Vec::new();
    for s in line.spans {
        if left == 0 {
            break;
        }
        let cut = truncate(&s.content, left, "");
        left = left.saturating_sub(crate::view::widths::width(&cut));
        spans.push(Span::styled(cut, s.style));
    }
    spans.push(Span::raw(ellipsis.to_string()));
    Line::from(spans)
}

/// A band's row `r` of the layout.
fn band_row(
    app: &App,
    bands: &Bands,
    layout: &Layout,
    r: usize,
    cut: &Cut,
    focused: bool,
    selected: Option<&Range<usize>>,
) -> Line<'static> {
    let t = &app.theme;
    let g = &t.glyphs;
    // The selected token's bytes in reverse video in every band, bold in
    // the focused one: bands draw no underline of their own, it is left
    // to the stretches cut differently.
    let covered = {
        let s = Style::new().add_modifier(Modifier::REVERSED);
        let s = if focused {
            s.add_modifier(Modifier::BOLD)
        } else {
            s
        };
        if t.colour { s.fg(Color::Magenta) } else { s }
    };
    let token_style = |at: usize| {
        // Boundaries are drawn, so tokens need no underline of their own:
        // underline is left to the stretches cut differently.
        cut.token_at(at)
            .and_then(|i| t.token_colour(i))
            .map_or(Style::new(), |c| Style::new().fg(c))
    };
    let mut spans = Vec::new();
    // A gap column where another band cuts but this one does not is held
    // back and drawn at the end of this band's token, before its own cut:
    // the token reads whole (`·baker`, not `· b a k e r`) and its cuts stay
    // in the columns every band shares.
    let mut held: Vec<Style> = Vec::new();
    let flush = |held: &mut Vec<Style>, spans: &mut Vec<Span<'static>>| {
        spans.extend(held.drain(..).map(|style| Span::styled(" ", style)));
    };
    for &u in &layout.rows[r] {
        match u {
            Unit::Gap(i) => {
                let cell = &layout.cells[i];
                let at = cell.bytes.start;
                let inside = selected.is_some_and(|s| s.start < at && at < s.end);
                let (symbol, mut style) = if cut.cuts_at(at) {
                    (g.separator, t.glyph())
                } else if cut.cuts_inside(&cell.bytes) {
                    (g.fragment, t.fragment())
                } else {
                    held.push(if inside { covered } else { Style::new() });
                    continue;
                };
                flush(&mut held, &mut spans);
                if bands.differs_at(at) {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                if inside {
                    style = style.patch(covered);
                }
                spans.push(Span::styled(symbol, style));
            }
            Unit::Cell(i) => {
                let cell = &layout.cells[i];
                let mut style = token_style(cell.bytes.start);
                if cell.glyph {
                    style = style.patch(t.glyph());
                }
                if cut.cuts_inside(&cell.bytes) {
                    style = style.patch(t.fragment());
                }
                if bands.differs(&cell.bytes) {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                if selected.is_some_and(|s| overlaps(s, &cell.bytes)) {
                    style = style.patch(covered);
                }
                spans.push(Span::styled(cell.symbol.clone(), style));
            }
        }
    }
    flush(&mut held, &mut spans);
    Line::from(spans)
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    if a.is_empty() {
        return b.start <= a.start && a.start < b.end;
    }
    a.start < b.end && b.start < a.end
}

/// `bands 2-3 of 5, 4 rows above`: what the bands leave out, if anything.
pub fn hidden_note(d: &Drawn, total: usize) -> Option<String> {
    let mut parts = Vec::new();
    if d.above + d.below > 0 {
        let shown = total - d.above - d.below;
        parts.push(format!(
            "bands {}-{} of {total} (t/T; z zooms)",
            d.above + 1,
            d.above + shown
        ));
    }
    let rows = |n: usize| {
        if n == 1 {
            "1 row".to_string()
        } else {
            format!("{n} rows")
        }
    };
    let below = match (d.rows_below, d.more_below) {
        (0, false) => None,
        (_, true) => Some("more".to_string()),
        (b, false) => Some(rows(b)),
    };
    match (d.rows_above, below) {
        (0, None) => {}
        (a, None) => parts.push(format!("{} above", rows(a))),
        (0, Some(b)) => parts.push(format!("{b} below")),
        (a, Some(b)) => parts.push(format!("{} above, {b} below", rows(a))),
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
