//! The mouse: a click or a turn of the wheel becomes the actions the keys
//! would give, so the mouse adds nothing the keys cannot do and every
//! change still goes through `update`.
//!
//! - A click on a pane focuses it (Tab); on a merge it selects that merge
//!   (the arrows in the merge list); on a token of the encode box or of the
//!   fertility view's token line it selects that token (`[` `]`); on a
//!   token of a band (`B`) it selects that band and its token (`t`, then
//!   `[` `]`); on a token of the corpus it selects the merge that made it.
//! - The wheel scrolls the pane under the pointer, focusing it first.
//!
//! Where things are is worked out from the layout ([`crate::layout`]) and
//! from the same functions the views draw with, for the screen as the app
//! stands now: that is what the user clicked on, and it needs no record of
//! the last frame (a class's followers may not draw theirs at all).

use crate::action::{Action, Scroll, Toggle};
use crate::app::{App, Focus, InputMode};
use crate::layout::{self, inner};
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// Rows a turn of the wheel moves the text panes (the corpus, the pair
/// table, the encode box, help): what terminals scroll by. The lists
/// with a selected row (the merge list, the fertility view) move it by
/// one, as an arrow key does.
const WHEEL_ROWS: usize = 3;

/// The actions a mouse event asks for now, in order; none for an event
/// the explorer has no use for (a release, a click outside every pane).
pub fn actions_of_mouse(app: &App, event: &MouseEvent) -> Vec<Action> {
    let at = Position::new(event.column, event.row);
    let screen = Rect::new(0, 0, app.size.0, app.size.1);
    let asked = app.classroom.as_ref().is_some_and(|c| c.asking.is_some());
    if !screen.contains(at) || asked || app.opening_job() || layout::too_small(screen) {
        return Vec::new();
    }
    let wheel = match event.kind {
        MouseEventKind::ScrollUp => Some(Scroll::Up),
        MouseEventKind::ScrollDown => Some(Scroll::Down),
        MouseEventKind::Down(MouseButton::Left) => None,
        _ => return Vec::new(),
    };
    match (&app.input, wheel) {
        // Help and an open merge tree scroll wherever the pointer is.
        (InputMode::Help, Some(by)) => vec![Action::Scroll(by); WHEEL_ROWS],
        (InputMode::Normal, Some(by)) if app.tree.is_some() => vec![Action::Scroll(by)],
        (InputMode::Normal, Some(by)) if app.fert.open => vec![Action::Scroll(by)],
        (InputMode::Normal, Some(by)) => wheel_on_pane(app, at, by),
        (InputMode::Normal, None) if app.fert.open => click_in_fertility(app, at),
        (InputMode::Normal, None) => click_on_pane(app, at),
        // A prompt, the editor, the pickers: the keys' alone.
        _ => Vec::new(),
    }
}

/// The main screen's pane at `at`, if any (the why text and the curve
/// belong to the pane they are drawn under).
pub fn pane_at(app: &App, at: Position) -> Option<Focus> {
    let panes = layout::for_app(app);
    let inside = |r: Option<Rect>| r.is_some_and(|r| r.contains(at));
    if inside(panes.why) {
        return Some(app.focus);
    }
    [
        (Some(panes.corpus), Focus::Corpus),
        (panes.pairs, Focus::Pairs),
        (panes.merges, Focus::Merges),
        (panes.curve, Focus::Merges),
        (panes.encode, Focus::Encode),
    ]
    .into_iter()
    .find_map(|(r, f)| inside(r).then_some(f))
}

/// The focus moved to `pane` first, if it is not there.
fn focused(app: &App, pane: Focus, then: impl IntoIterator<Item = Action>) -> Vec<Action> {
    let mut out = Vec::new();
    if app.focus != pane {
        out.push(Action::FocusPane(pane));
    }
    out.extend(then);
    out
}

fn wheel_on_pane(app: &App, at: Position, by: Scroll) -> Vec<Action> {
    let Some(pane) = pane_at(app, at) else {
        return Vec::new();
    };
    let rows = if pane == Focus::Merges { 1 } else { WHEEL_ROWS };
    focused(app, pane, vec![Action::Scroll(by); rows])
}

fn click_on_pane(app: &App, at: Position) -> Vec<Action> {
    let Some(pane) = pane_at(app, at) else {
        return Vec::new();
    };
    let panes = layout::for_app(app);
    let side_by_side = app.compare.is_some();
    let chosen = match pane {
        Focus::Merges if !side_by_side => panes
            .merges
            .and_then(|r| merge_at(app, r, at))
            .map(Action::SelectMerge),
        Focus::Corpus if !side_by_side && !app.shows(Toggle::ChunkTable) => {
            crate::view::corpus::token_at(app, panes.corpus, at).map(Action::SelectMergeOf)
        }
        Focus::Encode if app.fert.cuts.on => panes
            .encode
            .and_then(|r| crate::view::encode::band_byte_at(app, r, at))
            .map(|(slot, byte)| Action::SelectBandByte { slot, byte }),
        Focus::Encode => panes
            .encode
            .and_then(|r| crate::view::encode::token_at(app, r, at))
            .map(Action::SelectToken),
        _ => None,
    };
    match chosen {
        // Each of these moves the focus itself, as its keys' state needs.
        Some(action) => vec![action],
        None => focused(app, pane, []),
    }
}

/// The merge whose row of the merge list `area` is at `at`, if one is.
fn merge_at(app: &App, area: Rect, at: Position) -> Option<usize> {
    let body = inner(area);
    // The first row of the body is the column header.
    if !body.contains(at) || at.y == body.y {
        return None;
    }
    let (first, total) = crate::view::merges::rows_shown(app, body);
    let rank = first + usize::from(at.y - body.y - 1);
    (rank < total).then_some(rank)
}

fn click_in_fertility(app: &App, at: Position) -> Vec<Action> {
    let area = fertility_area(app);
    let in_band = crate::view::fertility::band_byte_at(app, area, at)
        .map(|(slot, byte)| Action::SelectBandByte { slot, byte });
    in_band
        .or_else(|| crate::view::fertility::token_at(app, area, at).map(Action::SelectToken))
        .into_iter()
        .collect()
}

/// Where the fertility view is drawn: between the status line and the
/// footer.
fn fertility_area(app: &App) -> Rect {
    Rect::new(0, 1, app.size.0, app.size.1.saturating_sub(2))
}
