//! The encode box with a long text, for a tokenizer trained with each
//! pre-tokenizer: a paste encoded a part at a time between frames, then
//! edits anywhere in it, each followed by a step of training now and then;
//! after each the tokens equal a fresh encoding of the whole text and lie
//! end to end over it.

use bpeek::bpe::Pretok;
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, update};

mod common;
use common::Rng;

/// Pieces of text that the pre-tokenizers cut differently: words, digit
/// runs, spaces before line breaks, letters outside ASCII, long runs of
/// one letter (an edit at their start moves every merge after it when
/// there is no pre-tokenizer), text with no space at all.
const PIECES: [&str; 18] = [
    "the ",
    "player",
    " played",
    "\n",
    "\n\n",
    "  ",
    "12345",
    "!?",
    "é",
    "日本語の文",
    " \t",
    "'s",
    "x=2000",
    "\r\n",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "abababababababababab",
    "  \n",
    "Word",
];

fn app_with(pretok: Pretok) -> App {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        pretok: Some(pretok),
        ..TrainingOptions::default()
    };
    let mut app = App::from_options(&options, Theme::plain()).expect("the bundled corpus trains");
    update(&mut app, Action::Goto(60));
    app
}

fn piece(rng: &mut Rng) -> &'static str {
    PIECES[rng.below(PIECES.len())]
}

fn text(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::new();
    while out.len() < bytes {
        out.push_str(piece(rng));
    }
    out
}

fn check(app: &App, what: &str) {
    let tok = app.toks.get(app.toks.selected).unwrap().clone();
    let fresh = tok.encode(&app.encode.text, false);
    assert!(app.encode.is_fully_encoded(), "{what}: encoded");
    assert_eq!(app.encode.ids.len(), fresh.len(), "{what}: token count");
    assert!(
        app.encode.ids == fresh,
        "{what}: the tokens of a fresh encoding"
    );
    let mut at = 0;
    for r in app.encode.spans.iter() {
        assert_eq!(r.start, at, "{what}: places lie end to end");
        at = r.end;
    }
    assert_eq!(at, app.encode.text.len(), "{what}: places cover the text");
}

#[test]
fn a_long_text_edited_anywhere_keeps_the_tokens_of_a_fresh_encoding() {
    for (k, pretok) in Pretok::ALL.into_iter().enumerate() {
        let mut rng = Rng(k as u64 + 11);
        let mut app = app_with(pretok);
        // Longer than the box encodes in one go.
        update(&mut app, Action::Paste(text(&mut rng, 600_000)));
        update(&mut app, Action::StopEditing);
        let mut parts = 0;
        while app.encode.encoding() {
            parts += 1;
            // Now and then a step of training or an edit while it goes on.
            match parts % 5 {
                1 => update(&mut app, Action::Step),
                3 => {
                    let at = rng.below(app.encode.chars());
                    app.encode.set_cursor(at);
                    update(&mut app, Action::Type('a'));
                }
                _ => {}
            }
            update(&mut app, Action::EncodeMore);
            assert!(parts < 10_000);
        }
        check(&app, &format!("{pretok}: pasted"));
        for edit in 0..25 {
            let at = rng.below(app.encode.chars() + 1);
            app.encode.set_cursor(at);
            match rng.below(4) {
                0 => update(&mut app, Action::DeleteBack),
                1 => update(&mut app, Action::DeleteForward),
                2 => update(&mut app, Action::Paste(piece(&mut rng).to_string())),
                _ => update(
                    &mut app,
                    Action::Type(*rng.pick(&['a', 'b', ' ', '\n', '1'])),
                ),
            }
            if edit % 6 == 5 {
                update(&mut app, Action::Step);
            }
            while app.encode.encoding() {
                update(&mut app, Action::EncodeMore);
            }
            check(&app, &format!("{pretok}: edit {edit}"));
        }
    }
}
