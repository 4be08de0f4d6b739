//! Drawing: one file per pane, each a function of `&App` that draws into a
//! rectangle it is given. Nothing here changes the model.

pub(crate) mod caption;
pub(crate) mod chunks;
pub(crate) mod corpus;
pub(crate) mod curve;
pub(crate) mod encode;
pub mod fertility;
pub(crate) mod footer;
pub(crate) mod help;
pub(crate) mod merges;
pub(crate) mod opening;
pub(crate) mod pairs;
pub(crate) mod progress;
pub(crate) mod status;
pub(crate) mod too_small;
pub(crate) mod tree;
pub(crate) mod why;
pub(crate) mod widths;

use crate::tui::action::Toggle;
use crate::tui::app::{App, Focus, InputMode};
use crate::tui::layout;
use ratatui::Frame;
use ratatui::text::Line;
use ratatui::widgets::Block;

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if app.opening_job() {
        opening::draw(frame, area, app);
        return;
    }
    if layout::too_small(area) {
        too_small::draw(frame, area, app);
        return;
    }
    let panes = layout::panes(area, app);
    status::draw(frame, panes.status, app);
    if app.fert.open {
        let body = ratatui::layout::Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(2),
            ..area
        };
        fertility::draw(frame, body, app);
        tree::draw(frame, body, app);
        footer::draw(frame, panes.footer, app);
        if app.input == InputMode::Help {
            help::draw(frame, area, app);
        }
        return;
    }
    if (!app.shows(Toggle::Zoom) || app.focus == Focus::Corpus) && app.shows(Toggle::ChunkTable) {
        chunks::draw(frame, panes.corpus, app);
    } else if !app.shows(Toggle::Zoom) || app.focus == Focus::Corpus {
        corpus::draw(frame, panes.corpus, app);
    }
    if let Some(r) = panes.pairs {
        pairs::draw(frame, r, app);
    }
    if let Some(r) = panes.merges {
        merges::draw(frame, r, app);
    }
    if let Some(r) = panes.encode {
        encode::draw(frame, r, app);
    }
    if let Some(r) = panes.curve {
        curve::draw(frame, r, app);
    }
    if let Some(r) = panes.why {
        why::draw(frame, r, app);
    }
    tree::draw(frame, area, app);
    if let Some(r) = panes.caption {
        caption::draw(frame, r, app);
    }
    footer::draw(frame, panes.footer, app);
    if app.input == InputMode::Help {
        help::draw(frame, area, app);
    }
}

/// The bordered frame of a pane, its title marked when it has the focus.
/// Titles that do not fit the pane's `width` are shortened by whole items
/// (see [`widths::fit_titles`]), never cut into misleading text.
pub fn pane_block<'a>(
    app: &App,
    pane: Focus,
    title: String,
    right: String,
    width: u16,
) -> Block<'a> {
    pane_block_parts(app, pane, &[&title], right, width)
}

/// [`pane_block`] with a title in parts, the first kept longest (see
/// [`widths::fit_titles`]).
pub fn pane_block_parts<'a>(
    app: &App,
    pane: Focus,
    title: &[&str],
    right: String,
    width: u16,
) -> Block<'a> {
    let focused = app.focus == pane && !matches!(app.input, InputMode::Help);
    let t = &app.theme;
    let dot = format!(" {} ", t.glyphs.dot);
    let (title, right) = widths::fit_titles(
        title,
        &right,
        &[", ", &dot],
        width as usize,
        t.glyphs.ellipsis,
    );
    let mut block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(focused))
        .title(Line::styled(format!(" {title} "), t.title(focused)));
    if !right.is_empty() {
        // What the right title says counts (`3 new, 1 gone`): never dim.
        block = block.title_top(
            Line::styled(format!(" {right} "), ratatui::style::Style::reset()).right_aligned(),
        );
    }
    block
}

/// A token as the tables show it (see [`crate::tui::panes::rows::label`]).
pub fn token_label(app: &App, id: crate::bpe::TokenId) -> String {
    crate::tui::panes::rows::label(app.trainer().token_bytes(id), &app.theme)
}
