//! The encode box: the text typed or pasted, cut into tokens by the merges
//! made so far, with its ids and what it costs.

use crate::action::Toggle;
use crate::app::{App, Focus, InputMode};
use crate::layout::inner;
use crate::panes::encode_box::SCROLLED_TO_TOP;
use crate::panes::rows::{Piece, Placed, Rows, TextLook, lay_out, tag_under};
use crate::panes::why::plural;
use crate::theme::Mark;
use crate::view::pane_block;
use crate::view::widths::truncate;
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::ops::Range;

/// What the box holds before it is cut to its height: the text (or a
/// hint) as rows, the row the cursor is on, and the ids line.
struct Body {
    lines: Vec<Line<'static>>,
    cursor_row: Option<usize>,
    ids_line: Option<Line<'static>>,
    /// Each row of text is followed by a row of its tokens' ids.
    paired: bool,
    /// Where each token drawn starts, on the rows of text (tagged by its
    /// place in the encoding); none while editing.
    placed: Vec<Placed>,
}

/// The lines of the text worth laying out for a box of `height` rows:
/// around the cursor while editing, else the last ones (more when scrolled
/// up), or the first ones when scrolled to the top. What is drawn then
/// costs what shows, however long the text.
fn window(app: &App, height: usize) -> Range<usize> {
    let enc = &app.encode;
    let lines = enc.lines();
    let count = lines.count();
    let (first, last) = if app.input == InputMode::Editing {
        let c = lines.line_of(enc.cursor_byte());
        (c.saturating_sub(height), (c + height + 1).min(count))
    } else if enc.scroll >= SCROLLED_TO_TOP {
        (0, (height + 1).min(count))
    } else {
        (count.saturating_sub(height + enc.scroll + 1), count)
    };
    let start = lines.range(first).start;
    let end = lines.range(last.max(first + 1) - 1).end;
    start..end
}

fn body(app: &App, width: usize, window: Range<usize>) -> Body {
    let t = &app.theme;
    let enc = &app.encode;
    let editing = app.input == InputMode::Editing;
    let slot = app.toks.selected_slot();
    let trained = app.toks.is_trained(app.toks.selected);
    let waiting = match slot.error() {
        Some(e) => Some(format!("{}: {e}", slot.label)),
        None if slot.is_loading() => {
            Some(format!("{} is loading{}", slot.label, t.glyphs.ellipsis))
        }
        None => None,
    };
    let mut cursor_row = None;
    let mut paired = false;
    let mut kept = Vec::new();
    let lines: Vec<Line> = if let Some(why) = waiting {
        // A load error or wait says something: never dim.
        vec![Line::raw(truncate(&why, width, t.glyphs.ellipsis))]
    } else if enc.text.is_empty() && !editing {
        let hint = if trained && app.unigram.is_some() {
            "press e, then type or paste text to see it cut by the pieces so far".to_string()
        } else if trained {
            "press e, then type or paste text to see it cut by the merges so far".to_string()
        } else {
            format!(
                "press e, then type or paste text to see it cut by {}",
                slot.label
            )
        };
        vec![Line::styled(
            truncate(&hint, width, t.glyphs.ellipsis),
            t.dim(),
        )]
    } else {
        // While typing the text stays as typed; the ids line up under their
        // tokens once editing stops.
        let (lines, row, placed) = if editing {
            let (lines, row, _) = token_rows_placed(app, width, window.clone());
            (lines, row, Vec::new())
        } else {
            token_rows_placed(app, width, window.clone())
        };
        if !placed.is_empty() {
            paired = true;
            cursor_row = row.map(|r| r * 2);
            let lines = interleave_ids(app, lines, &placed, width);
            kept = placed;
            lines
        } else {
            cursor_row = row;
            lines
        }
    };
    // Ids that cannot be put under their tokens are listed on one line.
    let ids_line = (!paired && !enc.ids.is_empty()).then(|| {
        let mut spans = vec![Span::styled("ids", t.heading())];
        let mut used = 3;
        let first = enc.spans.partition_point(|r| r.end <= window.start);
        let first = if enc.spans.is_empty() { 0 } else { first };
        for (i, e) in enc.ids.iter().enumerate().skip(first) {
            let id = e.to_string();
            if used + 1 + id.len() > width {
                spans.push(Span::raw(t.glyphs.ellipsis));
                break;
            }
            used += 1 + id.len();
            spans.push(Span::raw(" "));
            spans.push(Span::styled(id, t.token_at(i, Mark::None)));
        }
        Line::from(spans)
    });
    Body {
        lines,
        cursor_row,
        ids_line,
        paired,
        placed: kept,
    }
}

/// Under each row of text, the ids of the tokens that start on it, each
/// in its token's style and at its token's column (pushed right only as
/// far as the id before it needs).
fn interleave_ids(
    app: &App,
    text: Vec<Line<'static>>,
    placed: &[Placed],
    width: usize,
) -> Vec<Line<'static>> {
    let t = &app.theme;
    let enc = &app.encode;
    // Only the tokens drawn here, from the first placed to the last.
    let lo = placed.iter().map(|p| p.tag).min().unwrap_or(0);
    let mut hi = placed.iter().map(|p| p.tag + 1).max().unwrap_or(0);
    // The tokens that share the last placed one's character have no place
    // of their own, but their ids go after the last one's too. (A line
    // break is drawn as a glyph under ids, so it has a place.)
    while hi < enc.ids.len() && enc.spans.len() == enc.ids.len() && shares_a_place(app, hi) {
        hi += 1;
    }
    let mut where_of: Vec<Option<(usize, usize)>> = vec![None; hi.saturating_sub(lo)];
    for p in placed {
        if let Some(w) = where_of.get_mut(p.tag - lo) {
            w.get_or_insert((p.row, p.column));
        }
    }
    let mut id_rows: Vec<Vec<Span<'static>>> = vec![Vec::new(); text.len()];
    let mut used = vec![0usize; text.len()];
    let mut last_row = 0;
    for (i, token) in enc.ids.iter().enumerate().take(hi).skip(lo) {
        // A token that starts inside a character another token began (no
        // place of its own) follows the id before it.
        let (row, column) = where_of[i - lo].unwrap_or((last_row, used[last_row]));
        let row = row.min(text.len().saturating_sub(1));
        last_row = row;
        let id = token.to_string();
        let gap = usize::from(used[row] > 0);
        let at = column.max(used[row] + gap);
        if at + id.len() > width {
            if used[row] < width {
                id_rows[row].push(Span::raw(" ".repeat(width - used[row] - 1)));
                id_rows[row].push(Span::raw(t.glyphs.ellipsis));
                used[row] = width;
            }
            continue;
        }
        if at > used[row] {
            id_rows[row].push(Span::raw(" ".repeat(at - used[row])));
        }
        used[row] = at + id.len();
        id_rows[row].push(Span::styled(id, t.token_at(i, Mark::None)));
    }
    text.into_iter()
        .zip(id_rows)
        .flat_map(|(line, ids)| [line, Line::from(ids)])
        .collect()
}

/// The rows the text gets in a box of `height` rows inside its border:
/// whole pairs of text and ids when they are paired.
fn room(height: usize, body: &Body) -> usize {
    let room = height
        .saturating_sub(usize::from(body.ids_line.is_some()))
        .max(1);
    if body.paired {
        (room & !1).max(2)
    } else {
        room
    }
}

/// The first row shown: while editing the cursor's row, as low in the box
/// as it can be; else the end of the text (where typing happens) unless
/// scrolled up, on a row of text when ids follow each one.
fn first_shown(app: &App, body: &Body, room: usize) -> usize {
    let enc = &app.encode;
    let per = if body.paired { 2 } else { 1 };
    let first = match body.cursor_row.filter(|_| app.input == InputMode::Editing) {
        Some(c) => (c + 1).saturating_sub(room),
        None if enc.scroll >= SCROLLED_TO_TOP => 0,
        None => body
            .lines
            .len()
            .saturating_sub(room + enc.scroll.saturating_mul(per)),
    };
    if body.paired { first & !1 } else { first }
}

/// The `scroll` at which a box `area` shows the first row of the text: the
/// rows of text below its first page. Texts too long to lay out whole
/// here are measured by their lines.
pub fn top_scroll(app: &App, area: Rect) -> usize {
    let body_area = inner(area);
    let height = body_area.height as usize;
    let text = app.encode.text.len();
    if text > TOP_SCROLL_MOST_BYTES {
        return app.encode.lines().count().saturating_sub(height);
    }
    let body = body(app, body_area.width as usize, 0..text);
    let room = room(height, &body);
    let per = if body.paired { 2 } else { 1 };
    body.lines.len().saturating_sub(room).div_ceil(per)
}

/// Texts up to this long are laid out whole to find their first row.
const TOP_SCROLL_MOST_BYTES: usize = 1 << 20;

/// The token of the encode box drawn at `at` in a box `area`, if one is,
/// by its place in the encoding: on its row of text or on its id under
/// it, as [`draw`] puts them.
pub fn token_at(app: &App, area: Rect, at: Position) -> Option<usize> {
    let body_area = inner(area);
    if !body_area.contains(at) || app.input == InputMode::Editing {
        return None;
    }
    let height = body_area.height as usize;
    let body = body(app, body_area.width as usize, window(app, height));
    let room = room(height, &body);
    let row = usize::from(at.y - body_area.y);
    if !body.paired || row >= room {
        return None;
    }
    // Text and ids alternate: both rows of a pair are the text row's.
    let text_row = (first_shown(app, &body, room) + row) / 2;
    let widths: Vec<usize> = body
        .lines
        .chunks(2)
        .map(|pair| pair.iter().map(Line::width).max().unwrap_or(0))
        .collect();
    let column = usize::from(at.x - body_area.x);
    tag_under(&body.placed, &widths, text_row, column)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let enc = &app.encode;
    let editing = app.input == InputMode::Editing;
    if app.fert.cuts.on && !editing {
        return draw_bands(frame, area, app);
    }
    let body_area = inner(area);
    let width = body_area.width as usize;
    let height = body_area.height as usize;

    let slot = app.toks.selected_slot();
    let trained = app.toks.is_trained(app.toks.selected);
    let window = window(app, height);
    let body = body(app, width, window.clone());
    let room = room(height, &body);
    let first = first_shown(app, &body, room);
    let total = body.lines.len();
    let below = total.saturating_sub(first + room);
    let mut lines: Vec<Line> = body.lines.into_iter().skip(first).take(room).collect();
    lines.extend(body.ids_line);
    // Lines outside the window were not laid out: their rows are not
    // counted, only said to be there.
    let hidden = hidden_note(
        first,
        below,
        body.paired,
        window.start,
        enc.text.len().saturating_sub(window.end),
    );

    // While the tokenizer loads there is nothing to count yet.
    let right = if enc.text.is_empty() || slot.is_loading() || slot.error().is_some() {
        String::new()
    } else if enc.refused.is_some() {
        format!(
            "{} {} no tokens: refused",
            plural(enc.bytes() as u64, "byte"),
            t.glyphs.dot
        )
    } else if let Some(done) = enc.encoded_percent() {
        format!(
            "{} {} encoding, {done}% done{}",
            plural(enc.bytes() as u64, "byte"),
            t.glyphs.dot,
            t.glyphs.ellipsis
        )
    } else {
        let per_token = enc.bytes() as f64 / enc.tokens().max(1) as f64;
        format!(
            "{} {} {} {} {} {} {per_token:.2} B/token",
            plural(enc.bytes() as u64, "byte"),
            t.glyphs.dot,
            plural(enc.chars() as u64, "char"),
            t.glyphs.dot,
            plural(enc.tokens() as u64, "token"),
            t.glyphs.dot
        )
    };
    let with = if trained {
        String::new()
    } else {
        format!(" with {}", slot.label)
    };
    let chat = if app.chat.on { ", chat turn" } else { "" };
    let title = if editing {
        format!("Encode{with}{chat}: editing")
    } else {
        format!("Encode{with}{chat}")
    };
    let mut block = pane_block(app, Focus::Encode, title, right, area.width);
    if let Some(line) = chat_line(app, usize::from(area.width.saturating_sub(4))) {
        block = block.title_bottom(line);
    }
    if let Some(note) = hidden {
        block = block.title_bottom(Line::styled(format!(" {note} "), t.heading()).right_aligned());
    }
    if crate::view::shows_right_to_left(&lines) {
        block = block.title_bottom(Line::styled(
            format!(" {} ", crate::view::LOGICAL_ORDER),
            t.heading(),
        ));
    }
    frame.render_widget(block, area);
    crate::view::put_lines(frame, body_area, &lines);
}

/// The bands as [`draw_bands`] draws them in the box's `body_area`.
fn drawn_bands(app: &App, body_area: Rect) -> crate::view::fertility::bands::Drawn {
    use crate::fertility::cuts::{Bands, main_focus, main_selected};
    let stored = &app.fert.cuts.main;
    let empty = Bands::default();
    let current = stored.key == Some(crate::fertility::StripText::Pasted(app.encode.generation()));
    crate::view::fertility::bands::draw(
        app,
        if current { stored } else { &empty },
        &app.encode.text,
        main_focus(app),
        main_selected(app),
        body_area.width as usize,
        body_area.height as usize,
    )
}

/// The band (its slot) and the byte of the text under `at`, when the box
/// in `area` shows every tokenizer's cut.
pub fn band_byte_at(app: &App, area: Rect, at: Position) -> Option<(usize, usize)> {
    let body_area = inner(area);
    let shows_bands = app.fert.cuts.on && app.input != InputMode::Editing;
    if !shows_bands || app.encode.text.is_empty() || !body_area.contains(at) {
        return None;
    }
    let drawn = drawn_bands(app, body_area);
    drawn.byte_at(
        usize::from(at.y - body_area.y),
        usize::from(at.x - body_area.x),
    )
}

/// The box showing every tokenizer's cut of its text, a band each (see
/// [`crate::view::fertility::bands`]), the selected token's bytes
/// highlighted in all of them.
fn draw_bands(frame: &mut Frame, area: Rect, app: &App) {
    use crate::fertility::{StripText, cuts::Bands};
    use crate::view::fertility::bands;
    let t = &app.theme;
    let enc = &app.encode;
    let body_area = inner(area);
    let width = body_area.width as usize;
    let height = body_area.height as usize;
    let stored = &app.fert.cuts.main;
    let empty = Bands::default();
    let current = stored.key == Some(StripText::Pasted(enc.generation()));
    let shown = if current { stored } else { &empty };
    let differ = shown.differ.len();
    let right = if enc.text.is_empty() {
        String::new()
    } else {
        let stretch = if shown.whole || !current {
            String::new()
        } else {
            format!(
                " {} bytes {}-{} cut",
                t.glyphs.dot, shown.range.start, shown.range.end
            )
        };
        format!(
            "{} {} {differ} stretch{} cut differently{stretch}",
            plural(enc.bytes() as u64, "byte"),
            t.glyphs.dot,
            if differ == 1 { "" } else { "es" }
        )
    };
    let title = "Encode: every tokenizer".to_string();
    let lines = if enc.text.is_empty() {
        let hint = "press e, then type or paste text to see every tokenizer cut it";
        vec![Line::styled(
            truncate(hint, width, t.glyphs.ellipsis),
            t.dim(),
        )]
    } else {
        let drawn = drawn_bands(app, body_area);
        let note = bands::hidden_note(&drawn, shown.bands.len());
        let mut lines = drawn.lines;
        lines.truncate(height);
        let mut block = pane_block(app, Focus::Encode, title, right, area.width);
        if let Some(note) = note {
            block =
                block.title_bottom(Line::styled(format!(" {note} "), t.heading()).right_aligned());
        }
        frame.render_widget(block, area);
        crate::view::put_lines(frame, body_area, &lines);
        return;
    };
    frame.render_widget(
        pane_block(app, Focus::Encode, title, right, area.width),
        area,
    );
    crate::view::put_lines(frame, body_area, &lines);
}

/// `2 rows hidden above` when the box cannot show all its rows of text;
/// text outside the stretch laid out for the screen is counted in bytes
/// (`3 rows and 5210 bytes hidden above`), as its rows were never laid out.
fn hidden_note(
    above: usize,
    below: usize,
    paired: bool,
    bytes_above: usize,
    bytes_below: usize,
) -> Option<String> {
    // With ids under the text, a row of text is two screen rows.
    let per = if paired { 2 } else { 1 };
    let (above, below) = (above / per, below.div_ceil(per));
    let rows = |n: usize| {
        if n == 1 {
            "1 row".to_string()
        } else {
            format!("{n} rows")
        }
    };
    let part = |n: usize, bytes: usize| match (n, bytes) {
        (0, 0) => None,
        (n, 0) => Some(rows(n)),
        (0, b) => Some(plural(b as u64, "byte")),
        (n, b) => Some(format!("{} and {}", rows(n), plural(b as u64, "byte"))),
    };
    match (part(above, bytes_above), part(below, bytes_below)) {
        (None, None) => None,
        (Some(a), None) => Some(format!("{a} hidden above")),
        (None, Some(b)) => Some(format!("{b} hidden below")),
        (Some(a), Some(b)) => Some(format!("hidden: {a} above, {b} below")),
    }
}

/// A stretch of what the box shows: bytes to draw, the bytes of the text
/// they stand for, and how.
struct Stretch<'a> {
    shown: &'a [u8],
    text: Range<usize>,
    /// `shown` is `text`'s own bytes, so the cursor can fall inside it.
    /// Otherwise (`[UNK]`) it is drawn whole.
    same: bool,
    style: Style,
    /// The token's place in the encoding; `None` for text between tokens.
    tag: Option<usize>,
    /// A token, not text between tokens.
    token: bool,
    /// Char mode: the token ends its word (`</w>`).
    end_of_word: bool,
}

/// The text cut into stretches: its tokens in alternating styles when they
/// line up with it (and what lies between them, such as the spaces
/// between char-mode words), else the text itself.
fn stretches<'a>(app: &'a App, window: Range<usize>) -> Vec<Stretch<'a>> {
    let t = &app.theme;
    let enc = &app.encode;
    let text = &enc.text.as_bytes()[..window.end];
    let plain = |r: Range<usize>| Stretch {
        shown: &text[r.clone()],
        text: r,
        same: true,
        style: Style::new(),
        tag: None,
        token: false,
        end_of_word: false,
    };
    let mut out = Vec::new();
    let lined_up = enc.spans.len() == enc.ids.len()
        && enc.spans.last().is_none_or(|r| r.end <= enc.text.len());
    if !lined_up || enc.spans.is_empty() {
        if window.start < text.len() {
            out.push(plain(window.clone()));
        }
        return out;
    }
    let selected = app.toks.get(app.toks.selected);
    let char_mode = selected.is_some_and(|tok| tok.mode() == bpeek_core::Mode::Char);
    let pieces = selected.is_some_and(|tok| tok.is_piece_model());
    // Only the tokens that reach into the window.
    let first = enc
        .spans
        .partition_point(|r| r.end <= window.start && r.start < window.start);
    let mut at = window.start;
    // Counted from `first`, not skipped to: a long text has a quarter of a
    // million tokens before the window.
    for (i, span) in (first..enc.spans.len()).map(|i| (i, enc.spans.range(i))) {
        if span.start >= window.end && !(span.is_empty() && span.start == window.end) {
            break;
        }
        if span.start > at {
            out.push(plain(at..span.start));
        }
        let mark = if app.encode.selected == Some(i) {
            Mark::Selected
        } else {
            Mark::None
        };
        let style = t.token_at(i, mark);
        // A token cut by the window's edge shows its part inside it.
        if span.start < window.start || span.end > window.end {
            let part = span.start.max(window.start)..span.end.min(window.end);
            out.push(Stretch {
                shown: &text[part.clone()],
                text: part.clone(),
                same: true,
                style,
                tag: None,
                token: true,
                end_of_word: false,
            });
            at = at.max(part.end);
            continue;
        }
        let own = &text[span.clone()];
        let (bytes, special) = enc.token_bytes(i).unwrap_or((own, false));
        let end_of_word = char_mode && !special && bytes.ends_with(b"</w>");
        let word = if end_of_word {
            &bytes[..bytes.len() - 4]
        } else {
            bytes
        };
        // A model of pieces writes a space as `▁` (one it adds before the
        // text too): the token is its text, drawn with the space glyph
        // every other pane draws.
        let same = word == own
            || (pieces && {
                let spaced = spaced(word);
                spaced == own || spaced.strip_prefix(b" ") == Some(own)
            });
        out.push(Stretch {
            shown: if same { own } else { word },
            text: span.clone(),
            same,
            style,
            tag: Some(i),
            token: true,
            end_of_word,
        });
        at = at.max(span.end);
    }
    if at < window.end {
        out.push(plain(at..window.end));
    }
    out
}

/// A piece's text with SentencePiece's `▁` read as the space it stands for.
fn spaced(piece: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(piece)
        .replace('\u{2581}', " ")
        .into_bytes()
}

/// The tokens in alternating styles, a line break starting a new row, and
/// while editing the cursor in reverse video; with the cursor's row. Only
/// the lines around the cursor that `height` rows can show are laid out.
/// The fertility view shows the same rows while the text is edited there.
pub fn token_rows(app: &App, width: usize, height: usize) -> (Vec<Line<'static>>, Option<usize>) {
    let (rows, cursor, _) = token_rows_placed(app, width, window(app, height));
    (rows, cursor)
}

/// [`token_rows`] for the bytes of `window` (whole lines of the text), with
/// where each token (numbered by its place in the encoding) starts.
fn token_rows_placed(
    app: &App,
    width: usize,
    window: Range<usize>,
) -> (Vec<Line<'static>>, Option<usize>, Vec<Placed>) {
    let editing = app.input == InputMode::Editing;
    let cursor = app.encode.cursor_span();
    let at_end = window.end == app.encode.text.len();
    let stretches = stretches(app, window);
    let mut pieces: Vec<Piece> = Vec::with_capacity(stretches.len() + 2);
    for st in &stretches {
        let r = &st.text;
        let first = pieces.len();
        if st.same && editing && !cursor.is_empty() && r.start < cursor.end && cursor.start < r.end
        {
            // Cut where the cursor's character starts and ends.
            let mut cuts = vec![r.start];
            cuts.extend(
                [cursor.start, cursor.end]
                    .into_iter()
                    .filter(|&c| r.start < c && c < r.end),
            );
            cuts.push(r.end);
            cuts.dedup();
            for w in cuts.windows(2) {
                pieces.push(Piece {
                    bytes: &st.shown[w[0] - r.start..w[1] - r.start],
                    style: st.style,
                    token_start: false,
                    cursor: cursor.start <= w[0] && w[1] <= cursor.end,
                    end_of_word: false,
                    gap: !st.token,
                    tag: None,
                });
            }
        } else {
            pieces.push(Piece {
                bytes: st.shown,
                style: st.style,
                token_start: false,
                cursor: editing && !st.same && r.start < cursor.end && cursor.start < r.end,
                end_of_word: false,
                gap: !st.token,
                tag: None,
            });
        }
        pieces[first].token_start = true;
        pieces[first].tag = st.tag;
        if let Some(last) = pieces.last_mut() {
            last.end_of_word = st.end_of_word;
        }
    }
    let look = TextLook {
        theme: &app.theme,
        // Under ids, tokens are padded to their ids' width: spaces are
        // drawn as glyphs so that no blank reads as one.
        whitespace: app.shows(Toggle::Whitespace) || !editing,
        hex: app.shows(Toggle::Hex),
        separators: app.shows(Toggle::Separators),
        line_breaks: true,
    };
    let mut rows = Rows::new(width);
    if !editing {
        // Each token as wide as its id and a space, so the ids line up
        // under their tokens.
        // Only for the tokens drawn here.
        let tags = pieces.iter().filter_map(|p| p.tag);
        let (lo, hi) = tags.fold((usize::MAX, 0), |(lo, hi), t| (lo.min(t), hi.max(t + 1)));
        if lo < hi {
            rows.reserve(lo, id_widths(app, lo, hi));
        }
    }
    lay_out(&mut rows, &pieces, &look);
    if editing && cursor.is_empty() && at_end {
        // At the end of the text.
        rows.mark_cursor();
        rows.push(" ", Style::new().add_modifier(Modifier::REVERSED));
    }
    rows.finish_placed()
}

/// Whether a token starting at byte `start` of `text` starts inside a
/// character as seen (a byte of a UTF-8 sequence, or a mark that joins the
/// letter before): such tokens are drawn together with the one before.
fn inside_cluster(text: &str, start: usize) -> bool {
    if start == 0 || start >= text.len() {
        return false;
    }
    if !text.is_char_boundary(start) {
        return true;
    }
    let mut cursor = unicode_segmentation::GraphemeCursor::new(start, text.len(), true);
    !cursor.is_boundary(text, 0).unwrap_or(true)
}

/// Token `k` has no place of its own: it starts inside a character that
/// is drawn once for all the tokens sharing it. With separators a
/// character cut only between its code points (a Devanagari vowel sign
/// after its consonant) is drawn token by token, and with hex every token
/// stands alone; this mirrors [`crate::panes::rows::lay_out`].
fn shares_a_place(app: &App, k: usize) -> bool {
    let enc = &app.encode;
    let text = &enc.text;
    let start = enc.spans.range(k).start;
    if app.shows(Toggle::Hex) || !inside_cluster(text, start) {
        return false;
    }
    if !app.shows(Toggle::Separators) || !text.is_char_boundary(start) {
        return true;
    }
    let cluster_start = unicode_segmentation::GraphemeCursor::new(start, text.len(), true)
        .prev_boundary(text, 0)
        .ok()
        .flatten()
        .unwrap_or(0);
    let cluster_end = unicode_segmentation::GraphemeCursor::new(start, text.len(), true)
        .next_boundary(text, 0)
        .ok()
        .flatten()
        .unwrap_or(text.len());
    // Drawn once if any token of the character starts inside a code point.
    let starts = |j: usize| enc.spans.range(j).start;
    let before = (0..k).rev().map(starts).take_while(|&s| s > cluster_start);
    let after = (k + 1..enc.ids.len())
        .map(starts)
        .take_while(|&s| s < cluster_end);
    before.chain(after).any(|s| !text.is_char_boundary(s))
}

/// The columns each token of `lo..hi` keeps for the ids under it: its id
/// and a space, except that tokens sharing one character (the bytes of a
/// Devanagari letter at merge 0, say) are drawn as that character once, so
/// the first of them keeps room for all their ids and the others none; so
/// does a token before a line break, which draws nothing but has an id.
fn id_widths(app: &App, lo: usize, hi: usize) -> Vec<usize> {
    let enc = &app.encode;
    // A space after each id keeps ids apart; a separator does that itself.
    let gap = usize::from(!app.shows(Toggle::Separators));
    let mut widths: Vec<usize> = enc.ids[lo..hi]
        .iter()
        .map(|id| id.to_string().len() + gap)
        .collect();
    if enc.spans.len() != enc.ids.len() {
        return widths;
    }
    let mut first = 0;
    for k in 1..widths.len() {
        if shares_a_place(app, lo + k) {
            // Its id follows the first one's, after a space.
            widths[first] += widths[k] + 1 - gap;
            widths[k] = 0;
        } else {
            first = k;
        }
    }
    widths
}

/// Chat mode's line under the box: what the text costs as a user's turn
/// and what the template adds, a special token typed in the text marked
/// (the model reads it as a turn marker), or why there is no count.
fn chat_line(app: &App, width: usize) -> Option<Line<'static>> {
    let t = &app.theme;
    let cost = app.chat.cost.as_ref()?;
    if app.encode.text.is_empty() {
        return None;
    }
    let (text, style) = match cost {
        Err(why) => (
            format!(" chat: {}: {why} ", app.toks.selected_slot().label),
            t.dim(),
        ),
        Ok(c) if c.forged.is_empty() => (
            format!(
                " as a chat turn: {} = {} of the text + {} of the template ",
                plural(c.tokens as u64, "token"),
                c.message,
                c.template()
            ),
            t.heading(),
        ),
        Ok(c) => {
            let (token, id) = &c.forged[0];
            let more = if c.forged.len() > 1 {
                format!(" and {} more", c.forged.len() - 1)
            } else {
                String::new()
            };
            let plain = c
                .as_plain
                .map_or(String::new(), |n| format!(" ({n} if kept as text)"));
            (
                format!(
                    " ! the text types {token} (id {id}){more}: a turn marker to the model; {}{plain} ",
                    plural(c.tokens as u64, "token")
                ),
                t.notice(),
            )
        }
    };
    Some(Line::styled(
        truncate(&text, width, t.glyphs.ellipsis),
        style,
    ))
}
