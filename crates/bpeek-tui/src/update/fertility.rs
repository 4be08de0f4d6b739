//! The fertility view's own actions: opening it, its text, and
//! tokenizers as they load.

use super::*;

/// The fertility view open or closed; opening loads every tokenizer.
pub(super) fn toggle_fertility(app: &mut App) {
    app.fert.open = !app.fert.open;
    if app.fert.open {
        app.toks.request_all();
        app.fert.source = if app.encode.text.is_empty() {
            TextSource::Samples
        } else {
            TextSource::Pasted
        };
    }
}

/// Measure the pasted text or the bundled samples.
pub(super) fn toggle_text_source(app: &mut App) {
    app.fert.source = match app.fert.effective_source(&app.encode.text) {
        TextSource::Samples if app.encode.text.is_empty() => {
            app.notice = Some(
                "no text of yours yet: paste some, or press e and type (Esc when done)".into(),
            );
            TextSource::Samples
        }
        TextSource::Samples => TextSource::Pasted,
        TextSource::Pasted => TextSource::Samples,
    };
}

/// A tokenizer load finished: say so if it failed, or if the encode box
/// was waiting for it.
pub(super) fn loaded(app: &mut App, done: crate::fertility::tokenizers::LoadDone) {
    let waited_for = app.toks.selected_slot().label.clone();
    for (label, error) in app.toks.finish(done) {
        match error {
            Some(e) => app.notice = Some(format!("cannot load {label}: {e}")),
            // The encode box was waiting for it: say it is ready.
            None if label == waited_for && !app.encode.text.is_empty() => {
                app.notice = Some(format!("{label} loaded"));
            }
            None => {}
        }
    }
}
