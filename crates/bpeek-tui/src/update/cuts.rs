//! The bands of cuts (`B`): shown or hidden, the focused band moved, and
//! kept up to date with the text and training after every action. What a
//! band holds and how it is cut is `fertility::cuts`'.

use crate::app::App;
use crate::fertility::StripText;
use crate::fertility::cuts::{
    Band, fert_selected, is_baseline, main_focus, main_selected, stretch_of,
};
use crate::fertility::tokenizers::SlotState;
use std::sync::Arc;

/// Select the token that holds byte `at` in the encode box and the token
/// line, once the focused band's tokens are there.
fn settle_selection(app: &mut App) {
    let (main, fert) = app.fert.cuts.pending;
    if let Some(at) = main {
        let enc = &app.encode;
        if enc.is_fully_encoded() && enc.spans.len() == enc.ids.len() {
            let i = enc.spans.partition_point(|r| r.end <= at);
            app.encode.selected = (i < enc.ids.len()).then_some(i);
            app.fert.cuts.pending.0 = None;
        } else if app.toks.get(app.toks.selected).is_none() {
            // Still loading: selected again when it is cut.
            app.encode.selected = None;
        } else {
            app.fert.cuts.pending.0 = None;
        }
    }
    if !app.fert.open {
        app.fert.cuts.pending.1 = None;
    }
    if let Some(at) = fert
        && app.fert.open
        && let Some(cut) = app
            .fert
            .cuts
            .fert
            .of_slot(app.toks.selected)
            .and_then(Band::cut)
    {
        let i = cut.spans.partition_point(|r| r.end <= at);
        app.fert.token = i.min(cut.spans.len().saturating_sub(1));
        app.fert.cuts.pending.1 = None;
    }
}

/// Keep the bands of both views up to date, the trained tokenizer with
/// training; nothing when they are hidden.
pub(super) fn refresh(app: &mut App) {
    if !app.fert.cuts.on {
        return;
    }
    let needs_trained = app
        .toks
        .slots
        .iter()
        .any(|s| matches!(s.state, SlotState::Trained));
    if needs_trained {
        let trainer = Arc::clone(&app.loaded().trainer);
        app.toks.sync_trained(app.current, &trainer);
    }
    let generation = app.encode.generation();
    let last = (app.fert.cuts.main.key == Some(StripText::Pasted(generation)))
        .then(|| app.fert.cuts.main.range.clone());
    let range = stretch_of(&app.encode.text, main_focus(app), last);
    let mut main = std::mem::take(&mut app.fert.cuts.main);
    main.refresh(
        &app.toks,
        StripText::Pasted(generation),
        &app.encode.text,
        range,
    );
    app.fert.cuts.main = main;
    if app.fert.open {
        let (key, text) = app.fert.strip_text(&app.encode.text, generation);
        let end = crate::fertility::strip_end(text);
        let mut fert = std::mem::take(&mut app.fert.cuts.fert);
        fert.refresh(&app.toks, key, text, 0..end);
        app.fert.cuts.fert = fert;
    }
    settle_selection(app);
}

/// Show or hide the bands; showing them asks for every tokenizer.
pub(super) fn toggle(app: &mut App) {
    let cuts = &mut app.fert.cuts;
    cuts.on = !cuts.on;
    if cuts.on {
        app.toks.request_all();
        if is_baseline(&app.toks.selected_slot().spec) {
            select_band(app, 1);
        }
    }
}

/// Focus the band of `slot` and select its token that holds `byte` (of
/// the encode box's text, or of the token line's while the fertility view
/// is open), as `t` and `[`/`]` would get there.
pub(super) fn select_band_at(app: &mut App, slot: usize, byte: usize) {
    if slot >= app.toks.slots.len() || is_baseline(&app.toks.slots[slot].spec) {
        return;
    }
    app.fert.cuts.pending = if app.fert.open {
        (None, Some(byte))
    } else {
        app.focus = crate::app::Focus::Encode;
        (Some(byte), None)
    };
    if app.toks.selected != slot {
        app.toks.selected = slot;
        app.toks.request(slot);
        app.fert.merge_row = None;
    }
}

/// Focus the next (`by` > 0) or previous band: the tokenizer the encode
/// box and the token line use, the byte baseline passed over.
pub(super) fn select_band(app: &mut App, by: isize) {
    let in_main = main_selected(app).map(|r| r.start);
    let in_fert = fert_selected(app).map(|r| r.start);
    app.fert.cuts.pending = (in_main, in_fert);
    for _ in 0..app.toks.slots.len() {
        app.toks.select_by(by.signum());
        if !is_baseline(&app.toks.selected_slot().spec) {
            break;
        }
    }
    app.fert.merge_row = None;
}
