//! The encode box: the text typed or pasted, cut into tokens by the merges
//! made so far, with its ids and what it costs.

use crate::tui::app::{App, Focus, InputMode};
use crate::tui::layout::inner;
use crate::tui::rows::{Piece, Rows, TextLook, lay_out};
use crate::tui::theme::Mark;
use crate::tui::view::pane_block;
use crate::tui::view::widths::truncate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use std::ops::Range;

/// What the box holds before it is cut to its height: the text (or a
/// hint) as rows, the row the cursor is on, and the ids line.
struct Body {
    lines: Vec<Line<'static>>,
    cursor_row: Option<usize>,
    ids_line: Option<Line<'static>>,
}

/// The lines of the text worth laying out for a box of `room` rows: around
/// the cursor while editing, else the last ones (more when scrolled up),
/// or the first ones when scrolled to the top.
fn window(app: &App, room: usize) -> Range<usize> {
    let enc = &app.encode;
    let lines = enc.lines();
    let count = lines.count();
    let (first, last) = if app.input == InputMode::Editing {
        let c = lines.line_of(enc.cursor_byte());
        (c.saturating_sub(room), (c + room + 1).min(count))
    } else if enc.scroll >= SCROLLED_TO_TOP {
        (0, (room + 1).min(count))
    } else {
        (count.saturating_sub(room + enc.scroll + 1), count)
    };
    let start = lines.range(first).start;
    let end = lines.range(last.max(first + 1) - 1).end;
    start..end
}

/// A scroll this large means the top of the text.
pub const SCROLLED_TO_TOP: usize = usize::MAX / 4;

fn body(app: &App, width: usize, room: usize) -> Body {
    let window = window(app, room);
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
    let lines: Vec<Line> = if let Some(why) = waiting {
        vec![Line::styled(
            truncate(&why, width, t.glyphs.ellipsis),
            t.dim(),
        )]
    } else if enc.text.is_empty() && !editing {
        let hint = if trained {
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
        let (lines, row) = token_rows_in(app, width, window.clone());
        cursor_row = row;
        lines
    };
    let ids_line = (!enc.encoded.is_empty()).then(|| {
        // The ids of the tokens in the window, as many as fit.
        let from = enc.spans.partition_point(|r| r.end <= window.start);
        let mut ids: Vec<String> = Vec::new();
        let mut used = 4;
        for e in enc
            .encoded
            .iter()
            .skip(if enc.spans.is_empty() { 0 } else { from })
        {
            let id = e.id.to_string();
            used += id.len() + 1;
            ids.push(id);
            if used > width {
                break;
            }
        }
        Line::styled(
            truncate(&format!("ids {}", ids.join(" ")), width, t.glyphs.ellipsis),
            t.dim(),
        )
    });
    Body {
        lines,
        cursor_row,
        ids_line,
    }
}

/// The rows the text gets in a box of `height` rows inside its border
/// (the last one holds the ids once there are tokens).
fn room(height: usize, app: &App) -> usize {
    height
        .saturating_sub(usize::from(!app.encode.encoded.is_empty()))
        .max(1)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let enc = &app.encode;
    let editing = app.input == InputMode::Editing;
    let body_area = inner(area);
    let width = body_area.width as usize;
    let height = body_area.height as usize;

    let slot = app.toks.selected_slot();
    let trained = app.toks.is_trained(app.toks.selected);
    let room = room(height, app);
    let body = body(app, width, room);
    // Show the end of the text (where typing happens) unless scrolled up,
    // and while editing the cursor's row, as low in the box as it can be.
    let first = match body.cursor_row.filter(|_| editing) {
        Some(c) => (c + 1).saturating_sub(room),
        None if enc.scroll >= SCROLLED_TO_TOP => 0,
        None => body.lines.len().saturating_sub(room + enc.scroll),
    };
    let mut lines: Vec<Line> = body.lines.into_iter().skip(first).take(room).collect();
    lines.extend(body.ids_line);

    // While the tokenizer loads there is nothing to count yet.
    let right = if enc.text.is_empty() || slot.is_loading() || slot.error().is_some() {
        String::new()
    } else {
        let per_token = enc.bytes() as f64 / enc.tokens().max(1) as f64;
        format!(
            "{} bytes {} {} chars {} {} tokens {} {per_token:.2} B/token",
            enc.bytes(),
            t.glyphs.dot,
            enc.chars(),
            t.glyphs.dot,
            enc.tokens(),
            t.glyphs.dot
        )
    };
    let with = if trained {
        String::new()
    } else {
        format!(" with {}", slot.label)
    };
    let title = if editing {
        format!("Encode{with}: editing")
    } else {
        format!("Encode{with}")
    };
    frame.render_widget(pane_block(app, Focus::Encode, title, right), area);
    frame.render_widget(Paragraph::new(lines), body_area);
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
        token: false,
        end_of_word: false,
    };
    let mut out = Vec::new();
    let lined_up = enc.spans.len() == enc.encoded.len()
        && enc.spans.last().is_none_or(|r| r.end <= enc.text.len());
    if !lined_up || enc.spans.is_empty() {
        if window.start < text.len() {
            out.push(plain(window.clone()));
        }
        return out;
    }
    let char_mode = app
        .toks
        .get(app.toks.selected)
        .is_some_and(|tok| tok.mode() == crate::bpe::Mode::Char);
    // Only the tokens that reach into the window: what is drawn costs what
    // shows, however long the text.
    let first = enc
        .spans
        .partition_point(|r| r.end <= window.start && r.start < window.start);
    let mut at = window.start;
    for (i, (token, span)) in enc.encoded.iter().zip(&enc.spans).enumerate().skip(first) {
        if span.start >= window.end && !(span.is_empty() && span.start == window.end) {
            break;
        }
        if span.start > at {
            out.push(plain(at..span.start));
        }
        // A token cut by the window's edge shows its part inside it.
        if span.start < window.start || span.end > window.end {
            let part = span.start.max(window.start)..span.end.min(window.end);
            out.push(Stretch {
                shown: &text[part.clone()],
                text: part.clone(),
                same: true,
                style: t.token(i % 2 == 1, Mark::None),
                token: true,
                end_of_word: false,
            });
            at = at.max(part.end);
            continue;
        }
        let style = t.token(i % 2 == 1, Mark::None);
        let own = &text[span.clone()];
        let end_of_word = char_mode && !token.special && token.bytes.ends_with(b"</w>");
        let word = if end_of_word {
            &token.bytes[..token.bytes.len() - 4]
        } else {
            &token.bytes[..]
        };
        out.push(Stretch {
            shown: if word == own { own } else { word },
            text: span.clone(),
            same: word == own,
            style,
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

/// The tokens in alternating styles, a line break starting a new row, and
/// while editing the cursor in reverse video; with the cursor's row. The
/// fertility view shows the same rows while the text is edited there.
pub fn token_rows(app: &App, width: usize) -> (Vec<Line<'static>>, Option<usize>) {
    token_rows_in(app, width, 0..app.encode.text.len())
}

/// [`token_rows`] for the bytes of `window` only (whole lines of the text).
fn token_rows_in(
    app: &App,
    width: usize,
    window: Range<usize>,
) -> (Vec<Line<'static>>, Option<usize>) {
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
            });
        }
        pieces[first].token_start = true;
        if let Some(last) = pieces.last_mut() {
            last.end_of_word = st.end_of_word;
        }
    }
    let look = TextLook {
        theme: &app.theme,
        whitespace: app.show_whitespace,
        hex: app.show_hex,
        separators: app.boundaries == crate::tui::app::Boundaries::Separators,
        line_breaks: true,
    };
    let mut rows = Rows::new(width);
    lay_out(&mut rows, &pieces, &look);
    if editing && cursor.is_empty() && at_end {
        // At the end of the text.
        rows.mark_cursor();
        rows.push(" ", Style::new().add_modifier(Modifier::REVERSED));
    }
    rows.finish_with_cursor()
}
