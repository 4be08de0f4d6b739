//! A WordPiece tokenizer in the fertility view: a selected token says it is
//! a WordPiece piece and shows the pieces of its word in the order the
//! longest-match-first cut took them, where a byte-level token shows the
//! merge that made it; an unknown word says why it is `[UNK]`.

mod scratch;

use bpeek::tui::keymap::action_for;
use bpeek::tui::{Action, App, Event, ScriptedEvents, update};
use scratch::Scratch;

mod common;
use common::{default_app, loaded};

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let Event::Key(key) = Event::char(c) else {
            unreachable!()
        };
        if let Some(action) = action_for(app, &key) {
            update(app, action);
        }
    }
}

fn screen(app: &mut App) -> Vec<String> {
    common::screen_after(app, ScriptedEvents::new([]).loading_with(loaded), 100, 30)
}

#[test]
fn a_wordpiece_token_shows_the_pieces_of_its_word() {
    let dir = Scratch::new("tui-wp");
    let vocab = dir.join("vocab.txt");
    std::fs::write(
        &vocab,
        "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\n##a\nu\n",
    )
    .unwrap();
    let spec = vocab.to_string_lossy().into_owned();

    let mut app = default_app();
    app.add_tokenizer(&spec);
    update(&mut app, Action::Paste("Unaffable xyz".into()));
    update(&mut app, Action::StopEditing);
    press(&mut app, "f");
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(loaded(&spec)));
    }
    while app.toks.selected_slot().label != "vocab.txt" {
        press(&mut app, "t");
    }
    let pieces: Vec<&[u8]> = app.fert.strip.iter().map(|t| &t.bytes[..]).collect();
    assert_eq!(pieces, [&b"un"[..], b"##aff", b"##able", b"[UNK]"]);

    press(&mut app, "]");
    let rows = screen(&mut app);
    let detail = rows
        .iter()
        .find(|r| r.contains("id 6 "))
        .unwrap_or_else(|| panic!("{}", rows.join("\n")));
    assert!(
        detail.contains("wordpiece: un + ##aff + ##able (longest match first)"),
        "{detail}"
    );

    press(&mut app, "]]");
    let rows = screen(&mut app);
    let detail = rows
        .iter()
        .find(|r| r.contains("id 1 "))
        .unwrap_or_else(|| panic!("{}", rows.join("\n")));
    assert!(detail.contains("\"xyz\""), "{detail}");
    assert!(detail.contains("no piece matches"), "{detail}");
}
