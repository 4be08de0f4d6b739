//! The encode box: pasting and typing within its budget, and selecting
//! a token or a tokenizer.

use super::*;

pub(super) fn select_tokenizer(app: &mut App, by: isize) {
    app.toks.select_by(by);
    app.fert.merge_row = None;
    let slot = app.toks.selected_slot();
    if !app.fert.open {
        let state = if slot.is_loading() { " (loading)" } else { "" };
        app.notice = Some(format!("encoding with {}{state}", slot.label));
    }
}

pub(super) fn paste(app: &mut App, text: &str) {
    match &mut app.input {
        InputMode::Goto(digits) => digits.extend(text.chars().filter(char::is_ascii_digit)),
        InputMode::Help | InputMode::AddColumn | InputMode::Pick(_) => {}
        InputMode::Vocab => {
            // Pasted into the search: its first line, as typed.
            let line: String = text
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect();
            super::vocab::type_text(app, &line);
        }
        InputMode::Normal | InputMode::Editing => {
            // Pasted text can only be meant for the encode box.
            app.input = InputMode::Editing;
            app.focus = Focus::Encode;
            let dropped = app.encode.insert(text);
            note_full(app, dropped);
            app.fert.source = TextSource::Pasted;
        }
    }
}

/// Say so when the encode box had no room for all of an insertion.
pub(super) fn note_full(app: &mut App, dropped: usize) {
    if dropped > 0
        && let Some(limit) = app.encode.limit
    {
        app.notice = Some(format!(
            "the encode box holds at most {} KB here: {dropped} bytes left out",
            limit / 1024
        ));
    }
}

/// Move the encode box's token selection by `by`, from none to the first
/// (or last) token.
pub(super) fn select_encode_token(app: &mut App, by: isize) {
    let n = app.encode.ids.len();
    if n == 0 {
        app.notice = Some("no tokens yet: press e and type some text".into());
        return;
    }
    app.encode.selected = Some(match (app.encode.selected, by > 0) {
        (None, true) => 0,
        (None, false) => n - 1,
        (Some(i), true) => (i + 1).min(n - 1),
        (Some(i), false) => i.saturating_sub(1),
    });
}

/// Select the encode box's token `i` (a click on it): where `]` pressed
/// `i + 1` times from no selection would go.
pub(super) fn select_encode_token_at(app: &mut App, i: usize) {
    if i < app.encode.ids.len() {
        app.focus = Focus::Encode;
        app.encode.selected = Some(i);
    }
}

/// Edit the encode box.
pub(super) fn start_editing(app: &mut App) {
    app.input = InputMode::Editing;
    app.focus = Focus::Encode;
    app.fert.source = TextSource::Pasted;
}

/// A character typed into the encode box.
pub(super) fn type_char(app: &mut App, c: char) {
    let dropped = app.encode.insert(c.encode_utf8(&mut [0; 4]));
    note_full(app, dropped);
    app.fert.source = TextSource::Pasted;
}

/// Chat mode on or off; on, said what it shows, or why it shows nothing.
pub(super) fn toggle_chat(app: &mut App) {
    app.chat.on = !app.chat.on;
    let slot = app.toks.selected_slot();
    app.notice = Some(if !app.chat.on {
        "chat mode off".into()
    } else if app.toks.is_trained(app.toks.selected) {
        "chat mode: a tokenizer being trained has no chat template; t picks one that has".into()
    } else {
        match app.toks.get(app.toks.selected).map(|t| t.chat().is_some()) {
            Some(false) => format!(
                "chat mode: {} carries no chat template (tokenizer_config.json, GGUF tokenizer.chat_template)",
                slot.label
            ),
            _ => format!(
                "chat mode: the text as a user's turn in {}'s chat template",
                slot.label
            ),
        }
    });
}
