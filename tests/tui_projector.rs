//! The explorer on a projector's 80x24: a focused list keeps six rows, the
//! why sentence is whole, and an empty encode box gives its rows back.

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::theme::Theme;
use bpeek::tui::{App, Event, ScriptedEvents};
use crossterm::event::KeyCode;

mod common;

fn screen(app: &mut App, events: ScriptedEvents) -> Vec<String> {
    common::screen_after(app, events, 80, 24)
}

/// The tutorial corpus "play" as the explorer opens it by default: its
/// first round is a three-way tie.
fn play() -> App {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        ..TrainingOptions::default()
    };
    App::from_options(&options, Theme::plain()).unwrap()
}

/// The right-hand column's rows (pair table or merge list), as text.
fn right_column(rows: &[String]) -> Vec<String> {
    rows.iter()
        .filter_map(|r| r.split_once("││").map(|(_, right)| right.to_string()))
        .collect()
}

/// Rows of a list: a mark or a space, then a rank.
fn list_rows(rows: &[String]) -> usize {
    right_column(rows)
        .iter()
        .filter(|r| {
            let mut words = r.split_whitespace();
            let first = words.next().unwrap_or("");
            let first = if matches!(first, "►" | "=") {
                words.next().unwrap_or("")
            } else {
                first
            };
            !first.is_empty() && first.chars().all(|c| c.is_ascii_digit())
        })
        .count()
}

#[test]
fn a_focused_pair_table_shows_a_ties_rivals_and_the_whole_why_sentence() {
    let mut app = play();
    let rows = screen(
        &mut app,
        ScriptedEvents::typed(".").then(Event::key(KeyCode::Tab)),
    );
    let shown = rows.join("\n");
    assert!(list_rows(&rows) >= 7, "six pairs and the merge:\n{shown}");
    assert!(
        shown.contains("=  3 a"),
        "the third tied pair is shown:\n{shown}"
    );
    assert!(
        shown.contains("(line 1)"),
        "the why sentence ends whole:\n{shown}"
    );
}

#[test]
fn a_focused_merge_list_keeps_six_rows_under_its_why_sentence() {
    let mut app = play();
    let events = ScriptedEvents::typed("nnnnnnnnnn.")
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::Tab));
    let rows = screen(&mut app, events);
    let shown = rows.join("\n");
    let merges = right_column(&rows)
        .iter()
        .filter(|r| r.contains('→'))
        .count();
    assert!(merges >= 6, "six merges shown:\n{shown}");
    assert!(
        shown.contains("(line 1)"),
        "the why sentence ends whole:\n{shown}"
    );
}

#[test]
fn an_empty_encode_box_takes_one_row_and_grows_when_typed_in() {
    let mut app = play();
    let rows = screen(&mut app, ScriptedEvents::typed(""));
    let top = rows.iter().position(|r| r.contains("Encode")).unwrap();
    assert_eq!(
        top,
        20,
        "border, one row, border, footer:\n{}",
        rows.join("\n")
    );
    let rows = screen(&mut app, ScriptedEvents::typed("eplay"));
    let top = rows.iter().position(|r| r.contains("Encode")).unwrap();
    assert_eq!(
        top,
        18,
        "the box grows while typed in:\n{}",
        rows.join("\n")
    );
}

#[test]
fn the_80_column_footer_offers_the_keys_that_matter_in_each_pane() {
    let mut app = play();
    let footer = |app: &mut App| {
        screen(app, ScriptedEvents::typed(""))
            .last()
            .unwrap()
            .clone()
    };
    let line = footer(&mut app);
    for key in [
        " n next",
        " . phase",
        " g go to",
        " Tab pane",
        " / find",
        " v chunks",
        " q quit",
        " ? help",
    ] {
        assert!(line.contains(key), "corpus focused, {key:?} in: {line}");
    }
    let line = screen(&mut app, ScriptedEvents::new([Event::key(KeyCode::Tab)]))
        .last()
        .unwrap()
        .clone();
    for key in [" g go to", " Tab pane", " d changed", " ? help"] {
        assert!(line.contains(key), "pairs focused, {key:?} in: {line}");
    }
    let line = screen(&mut app, ScriptedEvents::new([Event::key(KeyCode::Tab)]))
        .last()
        .unwrap()
        .clone();
    for key in [" g go to", " Tab pane", " Enter tree", " ? help"] {
        assert!(line.contains(key), "merges focused, {key:?} in: {line}");
    }
}
