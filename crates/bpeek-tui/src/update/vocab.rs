//! The vocabulary search (`s`): open, type, move, close; Enter opens the
//! selected token's merge tree over it.

use super::*;
use crate::panes::vocab_search::VocabSearch;

/// Rows of tokens the search shows (the view draws exactly these).
pub fn list_rows(app: &App) -> usize {
    (app.size.1 as usize).saturating_sub(2 + 2 + 2)
}

pub(super) fn open(app: &mut App) {
    if app.toks.is_trained(app.toks.selected) {
        let trainer = Arc::clone(&app.loaded().trainer);
        app.toks.sync_trained(app.current, &trainer);
    } else {
        app.toks.request(app.toks.selected);
    }
    let Some(tok) = app.toks.get(app.toks.selected).cloned() else {
        app.notice = Some(format!(
            "{} is still loading: s again when it is ready",
            app.toks.selected_slot().label
        ));
        return;
    };
    let mut search = app.vocab.take().unwrap_or_default();
    search.refresh(&tok);
    app.vocab = Some(search);
    app.input = InputMode::Vocab;
}

pub(super) fn type_char(app: &mut App, c: char) {
    type_text(app, c.encode_utf8(&mut [0; 4]));
}

/// Typed or pasted text added to the query (searched once).
pub(super) fn type_text(app: &mut App, text: &str) {
    let Some(tok) = app.toks.get(app.toks.selected).cloned() else {
        return;
    };
    if let Some(search) = &mut app.vocab {
        search.query.push_str(text);
        search.refresh(&tok);
    }
}

pub(super) fn delete(app: &mut App) {
    let Some(tok) = app.toks.get(app.toks.selected).cloned() else {
        return;
    };
    if let Some(search) = &mut app.vocab
        && search.query.pop().is_some()
    {
        search.refresh(&tok);
    }
}

pub(super) fn close(app: &mut App) {
    app.vocab = None;
    app.input = InputMode::Normal;
}

pub(super) fn scroll(app: &mut App, by: Scroll) {
    let rows = list_rows(app);
    let Some(search) = &mut app.vocab else {
        return;
    };
    let page = rows.max(1) as isize;
    match by {
        Scroll::Up => search.move_by(-1),
        Scroll::Down => search.move_by(1),
        Scroll::PageUp => search.move_by(-page),
        Scroll::PageDown => search.move_by(page),
        Scroll::Top => search.cursor = 0,
        Scroll::Bottom => search.move_by(isize::MAX),
    }
    search.scroll_to_cursor(rows);
}

/// The merge tree of the selected token; the search comes back when the
/// tree closes.
pub(super) fn open_tree(app: &mut App) {
    let (Some(id), Some(tok)) = (
        app.vocab.as_ref().and_then(VocabSearch::selected),
        app.toks.get(app.toks.selected).cloned(),
    ) else {
        app.notice = Some("no token matches: Backspace widens the search".into());
        return;
    };
    // The selected tokenizer's tokens, drawn as its token line draws them.
    let label = |bytes: &[u8]| crate::view::fertility::shown(app, bytes);
    let source = app.toks.selected_slot().label.clone();
    app.tree = Some(merge_tree::of_token(
        &tok,
        id,
        &label,
        app.theme.glyphs.ellipsis,
        &source,
    ));
    app.input = InputMode::Normal;
}
