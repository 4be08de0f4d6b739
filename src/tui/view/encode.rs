//! The encode box: the text typed or pasted, cut into tokens by the merges
//! made so far, with its ids and what it costs.

use crate::tui::app::{App, Focus, InputMode};
use crate::tui::corpus_text::{Rows, push_bytes};
use crate::tui::layout::{self, inner};
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

fn body(app: &App, width: usize) -> Body {
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
        let (lines, row) = token_rows(app, width);
        cursor_row = row;
        lines
    };
    let ids_line = (!enc.encoded.is_empty()).then(|| {
        let ids: Vec<String> = enc.encoded.iter().map(|e| e.id.to_string()).collect();
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

/// The first row to show: `scroll` rows up from the last screenful, moved
/// as little as it takes to show the cursor row.
fn first_row(rows: usize, room: usize, scroll: usize, cursor: Option<usize>) -> usize {
    let last_first = rows.saturating_sub(room);
    let mut first = last_first.saturating_sub(scroll);
    if let Some(c) = cursor {
        if c < first {
            first = c;
        } else if c >= first + room {
            first = c + 1 - room;
        }
    }
    first
}

/// The rows the text gets in a box of `height` rows inside its border.
fn room(height: usize, body: &Body) -> usize {
    height
        .saturating_sub(usize::from(body.ids_line.is_some()))
        .max(1)
}

/// The scroll (rows up from the bottom) that keeps the cursor in view,
/// moving no more than needed; `None` when the box is not on screen or
/// shows no cursor.
pub fn scroll_to_cursor(app: &App) -> Option<usize> {
    let area = layout::for_app(app).encode?;
    let body_area = inner(area);
    let body = body(app, body_area.width as usize);
    let cursor = body.cursor_row?;
    let room = room(body_area.height as usize, &body);
    let rows = body.lines.len();
    let first = first_row(rows, room, app.encode.scroll, Some(cursor));
    Some(rows.saturating_sub(room) - first)
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
    let body = body(app, width);
    let room = room(height, &body);
    // Show the end of the text (where typing happens) unless scrolled up,
    // and the cursor always while editing.
    let cursor = body.cursor_row.filter(|_| editing);
    let first = first_row(body.lines.len(), room, enc.scroll, cursor);
    let mut lines: Vec<Line> = body.lines.into_iter().skip(first).take(room).collect();
    lines.extend(body.ids_line);

    let right = if enc.text.is_empty() {
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
struct Piece<'a> {
    shown: &'a [u8],
    text: Range<usize>,
    /// `shown` is `text`'s own bytes, so the cursor can fall inside it.
    /// Otherwise (`</w>`, `[UNK]`) it is drawn whole.
    same: bool,
    style: Style,
    /// A token boundary comes before it.
    separate: bool,
}

/// The text cut into pieces: its tokens in alternating styles when they
/// line up with it (and what lies between them, such as the spaces
/// between char-mode words), else the text itself.
fn pieces<'a>(app: &'a App) -> Vec<Piece<'a>> {
    let t = &app.theme;
    let enc = &app.encode;
    let text = enc.text.as_bytes();
    let plain = |r: Range<usize>| Piece {
        shown: &text[r.clone()],
        text: r,
        same: true,
        style: Style::new(),
        separate: false,
    };
    let mut out = Vec::new();
    let lined_up =
        enc.spans.len() == enc.encoded.len() && enc.spans.iter().all(|r| r.end <= text.len());
    if !lined_up || enc.spans.is_empty() {
        if !text.is_empty() {
            out.push(plain(0..text.len()));
        }
        return out;
    }
    let separators = app.boundaries == crate::tui::app::Boundaries::Separators;
    let mut at = 0;
    for (i, (token, span)) in enc.encoded.iter().zip(&enc.spans).enumerate() {
        if span.start > at {
            out.push(plain(at..span.start));
        }
        let style = t.token(i % 2 == 1, Mark::None);
        let separate = separators && i > 0 && span.start == at;
        let own = &text[span.clone()];
        if token.bytes.starts_with(own) {
            let tail = &token.bytes[own.len()..];
            out.push(Piece {
                shown: &token.bytes[..own.len()],
                text: span.clone(),
                same: true,
                style,
                separate,
            });
            if !tail.is_empty() {
                out.push(Piece {
                    shown: tail,
                    text: span.end..span.end,
                    same: false,
                    style,
                    separate: false,
                });
            }
        } else {
            out.push(Piece {
                shown: &token.bytes,
                text: span.clone(),
                same: false,
                style,
                separate,
            });
        }
        at = at.max(span.end);
    }
    if at < text.len() {
        out.push(plain(at..text.len()));
    }
    out
}

/// The tokens in alternating styles, a line break starting a new row, and
/// while editing the cursor in reverse video; with the cursor's row.
fn token_rows(app: &App, width: usize) -> (Vec<Line<'static>>, Option<usize>) {
    let t = &app.theme;
    let mut rows = Rows::new(width);
    let editing = app.input == InputMode::Editing;
    let cursor = app.encode.cursor_span();
    let mut marked = false;
    let mut emit = |rows: &mut Rows, bytes: &[u8], style: Style, on_cursor: bool| {
        let style = if on_cursor {
            style.add_modifier(Modifier::REVERSED)
        } else {
            style
        };
        if on_cursor && !marked {
            rows.mark_cursor();
            marked = true;
        }
        let mut lines = bytes.split(|&b| b == b'\n').peekable();
        while let Some(line) = lines.next() {
            push_bytes(rows, line, style, t, app.show_whitespace);
            if lines.peek().is_some() {
                if app.show_whitespace {
                    rows.push(t.glyphs.newline, style.patch(t.glyph()));
                } else if on_cursor {
                    // The cursor on a line break: a cell at the line's end.
                    rows.push(" ", style);
                }
                rows.end_row();
            }
        }
    };
    for piece in pieces(app) {
        if piece.separate {
            rows.separate(t.glyphs.separator, t.glyph());
        }
        let r = &piece.text;
        if !piece.same || !editing {
            let on = editing && !r.is_empty() && r.start < cursor.end && cursor.start < r.end;
            emit(&mut rows, piece.shown, piece.style, on);
            continue;
        }
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
            let on = !cursor.is_empty() && cursor.start <= w[0] && w[1] <= cursor.end;
            let shown = &piece.shown[w[0] - r.start..w[1] - r.start];
            emit(&mut rows, shown, piece.style, on);
        }
    }
    if editing && cursor.is_empty() {
        // At the end of the text.
        rows.mark_cursor();
        rows.push(" ", Style::new().add_modifier(Modifier::REVERSED));
    }
    rows.finish_with_cursor()
}
