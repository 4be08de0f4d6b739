//! The footer: a notice if there is one, else the progress of a long action
//! under way or the go-to prompt while it is open, then the keys that matter
//! now, from the key table.

use crate::action::{Action, Toggle};
use crate::app::{App, Focus, InputMode};
use crate::keymap::{Binding, footer_rows};
use crate::view::progress;
use crate::view::widths::{truncate, width};
use bpeek_core::Phase;
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
        let what = if app.goto_is_rank() {
            "rank"
        } else if app.unigram.is_some() {
            "step"
        } else {
            "merge"
        };
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
    let done = app.training_over();
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
    let (help, mut others): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|b| b.action == Action::ToggleHelp);
    // The keys are offered in the order they matter now; the ones that
    // fit are then shown in table order.
    let table_order = |b: &&Binding| {
        crate::keymap::BINDINGS
            .iter()
            .position(|x| std::ptr::eq(x, *b))
            .unwrap_or(usize::MAX)
    };
    others.sort_by_key(|b| (priority(app, b), table_order(b)));
    if app.notice.is_some() {
        return frame.render_widget(Line::from(spans), area);
    }
    // Two spaces between keys, or one when that is what it takes to show
    // every key that matters most (at 80 columns).
    let (shown, spacing) = [2, 1]
        .into_iter()
        .map(|spacing| {
            (
                fit(app, &others, &help, max.saturating_sub(used), spacing),
                spacing,
            )
        })
        .find(|(shown, _)| {
            others
                .iter()
                .filter(|b| priority(app, b) <= ESSENTIAL)
                .all(|b| shown.iter().any(|s| std::ptr::eq(*s, *b)))
        })
        .unwrap_or_else(|| (fit(app, &others, &help, max.saturating_sub(used), 2), 2));
    let mut shown = shown;
    shown.sort_by_key(table_order);
    let fits_help = help
        .iter()
        .map(|b| label_width(app, b, spacing))
        .sum::<usize>()
        <= max.saturating_sub(used);
    for b in shown
        .into_iter()
        .chain(help.into_iter().filter(|_| fits_help))
    {
        spans.push(Span::styled(format!(" {}", b.keys[0].label()), t.key()));
        let gap = " ".repeat(spacing - 1);
        spans.push(Span::raw(format!(
            " {}{gap}",
            crate::keymap::footer_label(app, b)
        )));
    }
    frame.render_widget(Line::from(spans), area);
}

/// Keys of this priority or lower are shown with one space between keys
/// rather than dropped.
const ESSENTIAL: usize = 6;

/// Columns a key takes: ` k label` and the spacing after it.
fn label_width(app: &App, b: &Binding, spacing: usize) -> usize {
    let label = crate::keymap::footer_label(app, b);
    1 + width(&b.keys[0].label()) + 1 + width(label) + spacing - 1
}

/// The keys of `others` that fit in `room` beside the help key, taken in
/// the order given.
fn fit<'a>(
    app: &App,
    others: &[&'a Binding],
    help: &[&'a Binding],
    room: usize,
    spacing: usize,
) -> Vec<&'a Binding> {
    let mut used: usize = help.iter().map(|b| label_width(app, b, spacing)).sum();
    let mut shown = Vec::new();
    for b in others {
        let w = label_width(app, b, spacing);
        if used + w <= room {
            used += w;
            shown.push(*b);
        }
    }
    shown
}

/// How much a key matters now (lower first): what moves training on, then
/// what finds one's way around the panes, the focused pane's own keys
/// before the others. Keys not named keep their table order after these.
fn priority(app: &App, b: &Binding) -> usize {
    if app.fert.open && b.action == Action::ToggleCuts {
        // Stepping on matters more than another way to see the cut.
        return ESSENTIAL + 2;
    }
    if app.fert.open || app.input != InputMode::Normal {
        // The fertility view and the prompts list their keys in table order.
        return ESSENTIAL + 1;
    }
    let focus = app.focus;
    let at_start = app.trainer().merges().is_empty() && *app.trainer().phase() == Phase::Counted;
    match b.action {
        Action::CancelJob | Action::CloseTree | Action::Step | Action::LessonNext => 0,
        Action::Advance => 1,
        Action::OpenGoto => 2,
        Action::FocusNext | Action::FocusColumn(true) => 3,
        Action::FindNext | Action::Toggle(Toggle::ChunkTable) if focus == Focus::Corpus => 4,
        Action::Toggle(Toggle::ChangedOnly) if focus == Focus::Pairs => 4,
        Action::OpenTree if matches!(focus, Focus::Merges | Focus::Encode) => 4,
        Action::OpenTree | Action::SortPieces if app.unigram.is_some() => 4,
        Action::NextToken | Action::NextTokenizer if focus == Focus::Encode => 4,
        Action::ToggleFertility => 5,
        Action::Quit => 6,
        // Nothing to undo yet.
        Action::Undo if at_start => 50,
        Action::Undo => 7,
        Action::ToggleAutoplay => 8,
        Action::StartEditing => 9,
        Action::Toggle(Toggle::Zoom) if app.compare.is_some() => 4,
        Action::Toggle(Toggle::Zoom) => 10,
        Action::OpenAddColumn => 11,
        _ => 20,
    }
}
