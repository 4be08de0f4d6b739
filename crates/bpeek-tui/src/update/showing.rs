//! What the main screen shows: help, zoom, the chunk table, changed
//! pairs and how token boundaries are drawn.

use super::*;

/// A part of the main screen shown or hidden, and what comes with it: the
/// list it changes starts at the top, and the pane it fills takes the
/// focus.
pub(super) fn toggle(app: &mut App, toggle: Toggle) {
    let on = app.shown.flip(toggle);
    match toggle {
        Toggle::Zoom => {
            if on {
                app.notice = Some(format!("{} pane zoomed (z returns)", app.focus.name()));
            }
        }
        Toggle::ChunkTable => app.focus = Focus::Corpus,
        Toggle::ChangedOnly => {
            app.scroll.pairs = 0;
            app.focus = Focus::Pairs;
            app.notice = Some(
                if on {
                    "pairs: only those the last merge changed (d: all)"
                } else {
                    "pairs: all, in selection order"
                }
                .into(),
            );
        }
        // Only how tokens are drawn changes.
        Toggle::Whitespace | Toggle::Hex | Toggle::Separators => {}
    }
}

/// The help overlay on or off.
pub(super) fn toggle_help(app: &mut App) {
    app.input = match app.input {
        InputMode::Help => InputMode::Normal,
        _ => InputMode::Help,
    };
    app.scroll.help = 0;
}
