//! The footer: a notice if there is one, else the progress of a long action
//! under way or the go-to prompt while it is open, then the keys that matter
//! now, from the key table.

use crate::tui::action::Action;
use crate::tui::app::{App, InputMode};
use crate::tui::keymap::footer_rows;
use crate::tui::view::progress;
use crate::tui::view::widths::{truncate, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let max = area.width as usize;
    let mut spans: Vec<Span> = Vec::new();
    let mut used = 0;
    if let Some(notice) = &app.notice {
        let text = truncate(&format!(" {notice}"), max, t.glyphs.ellipsis);
        used += width(&text);
        spans.push(Span::styled(text, t.notice()));
    } else if let Some(progress) = progress::text(app) {
        // The keys that still work follow, from the table (Esc cancels).
        let text = truncate(&format!(" {progress}"), max, t.glyphs.ellipsis);
        used += width(&text) + 1;
        spans.push(Span::styled(text, t.notice()));
        spans.push(Span::raw(" "));
    } else if let InputMode::Goto(digits) = &app.input {
        let what = if app.goto_is_rank() { "rank" } else { "merge" };
        let text = format!(" go to {what}: {digits}");
        used += width(&text) + 1;
        spans.push(Span::styled(text, t.heading()));
        spans.push(Span::styled(
            " ",
            Style::new().add_modifier(Modifier::REVERSED),
        ));
    }
    // The help key is always shown; the others as room allows, in table order.
    // Once training can go no further, the keys that train are not offered.
    // While a job runs, the keys that wait for it are not offered either.
    let done = app.training_end().is_some();
    let busy = app.jobs.current.is_some();
    let rank = app.goto_is_rank();
    let rows: Vec<_> = footer_rows(app)
        .filter(|b| {
            let trains = matches!(
                b.action,
                Action::Step | Action::Advance | Action::ToggleAutoplay
            );
            let waits = busy && b.action.waits_for_job(rank);
            !(waits || (done && trains))
        })
        .collect();
    let (help, others): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|b| b.action == Action::ToggleHelp);
    let label = |b: &crate::tui::keymap::Binding| {
        (
            format!(" {}", b.keys[0].label()),
            format!(" {} ", b.footer.unwrap_or_default()),
        )
    };
    let help_width: usize = help
        .iter()
        .map(|b| {
            let (k, d) = label(b);
            width(&k) + width(&d)
        })
        .sum();
    if app.notice.is_some() {
        return frame.render_widget(Line::from(spans), area);
    }
    for b in others.iter().chain(help.iter()) {
        let (k, d) = label(b);
        let w = width(&k) + width(&d);
        let is_help = b.action == Action::ToggleHelp;
        if !is_help && used + w + help_width > max {
            continue;
        }
        if used + w > max {
            break;
        }
        used += w;
        spans.push(Span::styled(k, t.key()));
        spans.push(Span::raw(d));
    }
    frame.render_widget(Line::from(spans), area);
}
