//! What the main screen shows: help, zoom, the chunk table, changed
//! pairs and how token boundaries are drawn.

use super::*;

/// Token boundaries as alternating styles, or as separators.
pub(super) fn toggle_boundaries(app: &mut App) {
    app.boundaries = match app.boundaries {
        Boundaries::Styles => Boundaries::Separators,
        Boundaries::Separators => Boundaries::Styles,
    }
}

/// The help overlay on or off.
pub(super) fn toggle_help(app: &mut App) {
    app.input = match app.input {
        InputMode::Help => InputMode::Normal,
        _ => InputMode::Help,
    };
    app.help_scroll = 0;
}

/// The focused pane fills the screen, or gives the room back.
pub(super) fn toggle_zoom(app: &mut App) {
    app.zoomed = !app.zoomed;
    if app.zoomed {
        app.notice = Some(format!("{} pane zoomed (z returns)", app.focus.name()));
    }
}

/// The corpus pane shows the chunk table, or the text again.
pub(super) fn toggle_chunk_table(app: &mut App) {
    app.chunk_table = !app.chunk_table;
    app.focus = Focus::Corpus;
}

/// The pair table lists only what the last merge changed, or all.
pub(super) fn toggle_changed_only(app: &mut App) {
    app.changed_only = !app.changed_only;
    app.pairs_scroll = 0;
    app.focus = Focus::Pairs;
    app.notice = Some(
        if app.changed_only {
            "pairs: only those the last merge changed (d: all)"
        } else {
            "pairs: all, in selection order"
        }
        .into(),
    );
}
