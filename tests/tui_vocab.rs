//! The vocabulary, searchable (`s`): every token of the encode box's
//! tokenizer with its id, bytes and the merge that made it, filtered as
//! one types; Enter opens the merge tree and Esc comes back to the list.

mod common;

use bpeek::tui::app::InputMode;
use bpeek::tui::fertility::tokenizers::LoadDone;
use bpeek::tui::{Action, App, Event, update};
use common::{default_app, finish_job, press, rows_of};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn screen(app: &mut App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    rows_of(terminal.backend())
}

fn typed(app: &mut App, text: &str) {
    press(app, text.chars().map(Event::char));
}

/// The ids whose bytes hold `needle`, found the plain way.
fn naive(tok: &bpeek::bpe::Tokenizer, needle: &[u8]) -> Vec<u32> {
    (0..tok.id_limit() as u32)
        .filter(|&id| tok.contains(id))
        .filter(|&id| {
            let b = tok.bytes_of(id);
            b.len() >= needle.len()
                && (0..=b.len() - needle.len()).any(|i| &b[i..i + needle.len()] == needle)
        })
        .collect()
}

#[test]
fn typing_ing_lists_every_token_holding_it_with_the_merge_that_made_it() {
    let mut app = default_app();
    update(&mut app, Action::Goto(300));
    finish_job(&mut app);
    typed(&mut app, "s");
    assert_eq!(app.input, InputMode::Vocab);
    let all = app.vocab.as_ref().unwrap().matches.len();
    assert_eq!(all, 256 + 300, "every token of the merges so far");
    typed(&mut app, "ing");
    let tok = app.toks.get(0).unwrap().clone();
    assert_eq!(app.vocab.as_ref().unwrap().matches, naive(&tok, b"ing"));
    let rows = screen(&mut app);
    let shown = rows.join("\n");
    assert!(shown.contains("search: ing"), "{shown}");
    assert!(shown.contains("merge 6: in + g"), "{shown}");
    assert!(
        shown.contains(&format!("{} of 556 tokens", naive(&tok, b"ing").len())),
        "{shown}"
    );
    // `·` stands for the space the screen draws it as.
    press(&mut app, (0..3).map(|_| Event::key(KeyCode::Backspace)));
    typed(&mut app, "·the");
    assert_eq!(app.vocab.as_ref().unwrap().matches, naive(&tok, b" the"));
}

#[test]
fn enter_opens_the_tree_of_the_selected_token_and_esc_comes_back_to_the_list() {
    let mut app = default_app();
    update(&mut app, Action::Goto(300));
    finish_job(&mut app);
    typed(&mut app, "sing");
    press(
        &mut app,
        [Event::key(KeyCode::Down), Event::key(KeyCode::Down)],
    );
    let id = app.vocab.as_ref().unwrap().selected().unwrap();
    press(&mut app, [Event::key(KeyCode::Enter)]);
    let tree = app.tree.as_ref().expect("the merge tree is open");
    let label = bpeek::tui::panes::rows::label(app.trainer().token_bytes(id), &app.theme);
    assert!(tree.title.starts_with(&label), "{} for {label}", tree.title);
    press(&mut app, [Event::key(KeyCode::Esc)]);
    assert!(app.tree.is_none());
    assert_eq!(app.input, InputMode::Vocab, "back to the list");
    assert_eq!(app.vocab.as_ref().unwrap().query, "ing");
    press(&mut app, [Event::key(KeyCode::Esc)]);
    assert_eq!(app.input, InputMode::Normal);
    assert!(app.vocab.is_none());
    let shown = screen(&mut app).join("\n");
    assert!(!shown.contains("Vocabulary"), "{shown}");
}

#[test]
fn a_real_tokenizers_vocabulary_is_searched_whole_and_a_number_finds_its_id() {
    let mut app = default_app();
    update(&mut app, Action::Loaded(LoadDone::now("o200k")));
    app.toks.selected = app
        .toks
        .slots
        .iter()
        .position(|s| s.spec == "o200k")
        .unwrap();
    typed(&mut app, "s");
    let tok = app.toks.get(app.toks.selected).unwrap().clone();
    assert_eq!(app.vocab.as_ref().unwrap().total, naive(&tok, b"").len());
    typed(&mut app, "पुस्त");
    assert_eq!(
        app.vocab.as_ref().unwrap().matches,
        naive(&tok, "पुस्त".as_bytes())
    );
    press(&mut app, (0..5).map(|_| Event::key(KeyCode::Backspace)));
    typed(&mut app, "976");
    let matches = &app.vocab.as_ref().unwrap().matches;
    assert_eq!(matches[0], 976, "the id itself first");
    assert_eq!(&matches[1..], &naive(&tok, b"976")[..]);
    let shown = screen(&mut app).join("\n");
    assert!(shown.contains("Vocabulary of o200k"), "{shown}");
}
