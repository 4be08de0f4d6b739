//! The encode box: the text typed or pasted, cut into tokens by the merges
//! made so far, with its ids and what it costs.

use crate::tui::app::{App, Focus, InputMode};
use crate::tui::corpus_text::{Rows, push_bytes};
use crate::tui::layout::inner;
use crate::tui::theme::Mark;
use crate::tui::view::pane_block;
use crate::tui::view::widths::truncate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let enc = &app.encode;
    let editing = app.input == InputMode::Editing;
    let body = inner(area);
    let width = body.width as usize;
    let height = body.height as usize;

    let slot = app.toks.selected_slot();
    let trained = app.toks.is_trained(app.toks.selected);
    let waiting = match slot.error() {
        Some(e) => Some(format!("{}: {e}", slot.label)),
        None if slot.is_loading() => {
            Some(format!("{} is loading{}", slot.label, t.glyphs.ellipsis))
        }
        None => None,
    };
    let mut lines: Vec<Line> = if let Some(why) = waiting {
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
        token_rows(app, width)
    };
    let ids_line = (!enc.encoded.is_empty()).then(|| {
        let ids: Vec<String> = enc.encoded.iter().map(|e| e.id.to_string()).collect();
        Line::styled(
            truncate(&format!("ids {}", ids.join(" ")), width, t.glyphs.ellipsis),
            t.dim(),
        )
    });
    let room = height
        .saturating_sub(usize::from(ids_line.is_some()))
        .max(1);
    // Show the end of the text (where typing happens) unless scrolled up.
    let last_first = lines.len().saturating_sub(room);
    let first = last_first.saturating_sub(enc.scroll);
    lines = lines.into_iter().skip(first).take(room).collect();
    lines.extend(ids_line);

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
    frame.render_widget(Paragraph::new(lines), body);
}

/// The tokens in alternating styles, a line break starting a new row, and
/// the cursor at the end while editing.
fn token_rows(app: &App, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut rows = Rows::new(width);
    let separators = app.boundaries == crate::tui::app::Boundaries::Separators;
    for (i, token) in app.encode.encoded.iter().enumerate() {
        if separators && i > 0 {
            rows.separate(t.glyphs.separator, t.glyph());
        }
        let style = t.token(i % 2 == 1, Mark::None);
        let mut pieces = token.bytes.split(|&b| b == b'\n').peekable();
        while let Some(piece) = pieces.next() {
            push_bytes(&mut rows, piece, style, t, app.show_whitespace);
            if pieces.peek().is_some() {
                if app.show_whitespace {
                    rows.push(t.glyphs.newline, style.patch(t.glyph()));
                }
                rows.end_row();
            }
        }
    }
    if app.input == InputMode::Editing {
        rows.push(" ", Style::new().add_modifier(Modifier::REVERSED));
    }
    rows.finish()
}
