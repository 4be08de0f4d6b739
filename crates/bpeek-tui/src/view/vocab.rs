//! The vocabulary search over the panes: every token with its id, bytes
//! and the merge that made it, filtered by what is typed.

use crate::app::App;
use crate::panes::merge_number::Numbering;
use crate::view::widths::{fit_left, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(search) = &app.vocab else {
        return;
    };
    let Some(tok) = app.toks.get(app.toks.selected) else {
        return;
    };
    let t = &app.theme;
    let inner_w = area.width.saturating_sub(2) as usize;
    let label = |id| crate::panes::rows::label(&tok.describe(id).bytes, t);
    let ellipsis = t.glyphs.ellipsis;
    let mut lines: Vec<Line> = Vec::new();
    let shown_query = if search.query.is_empty() {
        "(type to filter: ing, ·the, 123)".to_string()
    } else {
        search.query.clone()
    };
    lines.push(Line::from(vec![
        Span::styled(" search: ", t.heading()),
        Span::raw(shown_query),
        Span::styled(
            " ",
            ratatui::style::Style::new().add_modifier(Modifier::REVERSED),
        ),
    ]));
    lines.push(Line::styled(
        truncate(
            &format!(" {:>7}  {:<24} {:>5}  made by", "id", "token", "bytes"),
            inner_w,
            ellipsis,
        ),
        t.heading(),
    ));
    let rows = crate::update::vocab::list_rows(app);
    for (i, &id) in search
        .matches
        .iter()
        .enumerate()
        .skip(search.top)
        .take(rows)
    {
        let n = tok.bytes_of(id).len();
        let made = if tok.describe_is_special(id) {
            "a special token".to_string()
        } else {
            match tok.made_by(id) {
                Some(m) => format!(
                    "{}: {} + {}",
                    Numbering::of(tok).name(m.rank as usize),
                    label(m.left),
                    label(m.right)
                ),
                None => "base".to_string(),
            }
        };
        let row = format!(
            " {:>7}  {} {:>5}  {}",
            id,
            fit_left(&label(id), 24, ellipsis),
            n,
            made
        );
        let mut style = ratatui::style::Style::new();
        if i == search.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(truncate(&row, inner_w, ellipsis), style));
    }
    if search.matches.is_empty() {
        lines.push(Line::styled(
            " no token holds that: Backspace widens the search",
            t.dim(),
        ));
    }
    let title = format!(
        " Vocabulary of {}: {} of {} ",
        app.toks.selected_slot().label,
        search.matches.len(),
        crate::panes::why::plural(search.total as u64, "token")
    );
    let block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(true))
        .title(Line::styled(
            truncate(&title, inner_w, ellipsis),
            t.title(true),
        ))
        .title_bottom(
            Line::styled(" Enter: merge tree · Esc closes ", t.heading()).right_aligned(),
        );
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
