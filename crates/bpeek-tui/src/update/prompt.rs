//! The go-to prompt: digits typed, deleted and submitted.

use super::*;
use crate::panes::merge_number::Numbering;

/// A key typed into the go-to prompt: digits only.
pub(super) fn prompt_type(app: &mut App, c: char) {
    if let InputMode::Goto(digits) = &mut app.input {
        if !c.is_ascii_digit() {
            app.notice = Some(format!("go to: {c:?} is not a digit; type a number"));
        } else if digits.len() < 9 {
            digits.push(c);
        } else {
            app.notice = Some("go to: at most 9 digits".into());
        }
    }
}

/// Backspace in the go-to prompt.
pub(super) fn prompt_delete(app: &mut App) {
    if let InputMode::Goto(digits) = &mut app.input {
        digits.pop();
    }
}

/// Enter in the go-to prompt: go to the merge (or the rank) typed.
pub(super) fn prompt_submit(app: &mut App) {
    let typed = match &app.input {
        InputMode::Goto(digits) => digits.clone(),
        _ => String::new(),
    };
    match typed.parse() {
        Ok(n) => {
            app.input = InputMode::Normal;
            if app.goto_is_rank() {
                // The number is read as the panel shows it: a merge counted
                // from 1, or a rank file's rank.
                let numbering = app.toks.get(app.toks.selected).map(|t| Numbering::of(t));
                app.fert.merge_row = Some(numbering.map_or(n, |k| k.place(n)));
            } else {
                start_seek(app, n, format!("going to merge {n}"));
            }
        }
        // Nothing typed: the prompt stays open for the number.
        Err(_) if app.goto_is_rank() => {
            app.notice = Some("go to: type a rank, then Enter (Esc cancels)".into());
        }
        Err(_) => {
            app.notice = Some("go to: type a merge number, then Enter (Esc cancels)".into());
        }
    }
}
