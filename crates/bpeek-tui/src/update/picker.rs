//! The list of tokenizers by name: opened, moved in, and a name chosen,
//! which is added to the tokenizers and selected (the encode box encodes
//! with it once it has loaded).

use crate::action::Action;
use crate::app::{App, InputMode};
use crate::picker::{Picker, nothing_found};

pub(super) fn update(app: &mut App, action: Action) {
    match action {
        Action::OpenPicker => open(app),
        Action::PickMove(by) => {
            if let InputMode::Pick(p) = &mut app.input {
                p.move_by(by);
            }
        }
        Action::PickChoose => choose(app),
        other => unreachable!("not a picker action: {other:?}"),
    }
}

fn open(app: &mut App) {
    // A class compares the tokenizers its teacher named; a student does
    // not browse the server's disk.
    if app.classroom.is_some() {
        app.notice =
            Some("in a class the tokenizers are those `bpeek serve --tokenizer` names".into());
        return;
    }
    let have: Vec<String> = app.toks.slots.iter().map(|s| s.spec.clone()).collect();
    match Picker::of_this_machine(&have) {
        Some(picker) => app.input = InputMode::Pick(picker),
        None => app.notice = Some(nothing_found()),
    }
}

fn choose(app: &mut App) {
    let InputMode::Pick(picker) = &app.input else {
        return;
    };
    let Some(name) = picker.chosen().map(str::to_string) else {
        app.input = InputMode::Normal;
        return;
    };
    app.input = InputMode::Normal;
    app.add_tokenizer(&name);
    if let Some(i) = app.toks.slots.iter().position(|s| s.spec == name) {
        app.toks.selected = i;
    }
    app.fert.merge_row = None;
    let slot = app.toks.selected_slot();
    let state = if slot.is_loading() { " (loading)" } else { "" };
    app.notice = Some(format!("encoding with {}{state}", slot.label));
}
