//! Every id of the encode box is on screen, in order, under its token: in
//! every script of the bundled samples, at every width, for the tokenizer
//! being trained and for a real one, byte-level fragments of a character
//! included (a Devanagari letter at merge 0 is three tokens), with and
//! without separators and hex; and the padding that lines ids up never
//! reads as a space.

mod common;

use bpeek::tui::action::Toggle;
use bpeek::tui::app::Focus;
use bpeek::tui::fertility::tokenizers::LoadDone;
use bpeek::tui::{Action, App, update};
use common::{default_app, rows_of};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The ids the encode box shows, read back from the screen: the box
/// alternates a row of text and a row of the ids under it.
fn ids_on_screen(app: &mut App, width: u16, height: u16) -> Vec<u32> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    let rows = rows_of(terminal.backend());
    let top = rows.iter().position(|r| r.starts_with("┌ Encode")).unwrap();
    let inside: Vec<&String> = rows[top + 1..]
        .iter()
        .take_while(|r| !r.starts_with('└'))
        .collect();
    let mut ids = Vec::new();
    for row in inside.iter().skip(1).step_by(2) {
        let row = row.trim_matches('│');
        assert!(
            !row.contains('…'),
            "no id is cut off: {row}\n{}",
            rows.join("\n")
        );
        ids.extend(row.split_whitespace().map(|n| n.parse::<u32>().unwrap()));
    }
    ids
}

fn check(app: &mut App, what: &str) {
    for sample in bpeek::corpora::SAMPLES {
        update(app, Action::ClearEncode);
        update(app, Action::Paste(sample.text.to_string()));
        update(app, Action::StopEditing);
        let tok = app.toks.get(app.toks.selected).unwrap().clone();
        let want = tok.encode(&app.encode.text, false);
        for (separators, hex) in [(false, false), (true, false), (false, true), (true, true)] {
            if app.shows(Toggle::Separators) != separators {
                update(app, Action::Toggle(Toggle::Separators));
            }
            if app.shows(Toggle::Hex) != hex {
                update(app, Action::Toggle(Toggle::Hex));
            }
            for width in [80, 120, 200] {
                // Zoomed and tall enough for every row of the box.
                let got = ids_on_screen(app, width, 400);
                assert_eq!(
                    got, want,
                    "{what}, {} at {width} columns, separators {separators}, hex {hex}",
                    sample.code
                );
            }
        }
    }
}

#[test]
fn every_id_is_shown_under_its_token_in_every_script_and_width() {
    let mut app = default_app();
    update(&mut app, Action::Resize(80, 24));
    app.focus = Focus::Encode;
    update(&mut app, Action::Toggle(Toggle::Zoom));
    check(&mut app, "merge 0");
    update(&mut app, Action::Goto(300));
    check(&mut app, "merge 300");
    update(&mut app, Action::Loaded(LoadDone::now("o200k")));
    let o200k = app
        .toks
        .slots
        .iter()
        .position(|s| s.spec == "o200k")
        .unwrap();
    app.toks.selected = o200k;
    check(&mut app, "o200k");
}

/// The text rows of the zoomed encode box, inside its border.
fn text_rows(app: &mut App, width: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, 200)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    let rows = rows_of(terminal.backend());
    let top = rows.iter().position(|r| r.starts_with("┌ Encode")).unwrap();
    rows[top + 1..]
        .iter()
        .take_while(|r| !r.starts_with('└'))
        .step_by(2)
        .map(|r| r.trim_start_matches('│').trim_end_matches('│').to_string())
        .collect()
}

#[test]
fn blanks_under_ids_are_padding_and_never_read_as_spaces() {
    let mut app = default_app();
    update(&mut app, Action::Resize(80, 24));
    app.focus = Focus::Encode;
    update(&mut app, Action::Toggle(Toggle::Zoom));
    update(&mut app, Action::Goto(300));
    let typed = "The  baker baked\n12345 loaves, then   rested.";
    update(&mut app, Action::Paste(typed.to_string()));
    update(&mut app, Action::StopEditing);
    for separators in [false, true] {
        if app.shows(Toggle::Separators) != separators {
            update(&mut app, Action::Toggle(Toggle::Separators));
        }
        let rows = text_rows(&mut app, 60);
        // Blanks are padding: without them, and with the space and line
        // break glyphs read back, the rows are the text as typed.
        let read: String = rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c != ' ' && c != '│')
            .map(|c| match c {
                '·' => ' ',
                '↵' => '\n',
                c => c,
            })
            .collect();
        assert_eq!(read, typed, "separators {separators}:\n{}", rows.join("\n"));
        if separators {
            // A token's padding is its own: it comes before the separator,
            // so no token starts with a blank.
            for row in &rows {
                assert!(
                    !row.contains("│ "),
                    "padding after a separator:\n{}",
                    rows.join("\n")
                );
            }
        }
    }
}

/// The ids read back from the zoomed encode box at its real size, page by
/// page (Home, then PageDown until nothing is hidden below): each page's
/// rows placed by the count of rows its border says are hidden above.
fn ids_paged(app: &mut App, width: u16, height: u16) -> Vec<u32> {
    use crossterm::event::KeyCode;
    update(app, Action::Resize(width, height));
    common::press(app, [bpeek::tui::Event::key(KeyCode::Home)]);
    let mut by_row: std::collections::BTreeMap<usize, Vec<u32>> = Default::default();
    for _ in 0..10_000 {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        bpeek::tui::runner::draw(&mut terminal, app).unwrap();
        let rows = rows_of(terminal.backend());
        let top = rows.iter().position(|r| r.starts_with("┌ Encode")).unwrap();
        let inside: Vec<&String> = rows[top + 1..]
            .iter()
            .take_while(|r| !r.starts_with('└'))
            .collect();
        let bottom = &rows[top + 1 + inside.len()];
        let number_before = |what: &str| -> usize {
            bottom.find(what).map_or(0, |at| {
                let head = bottom[..at]
                    .trim_end_matches(" rows")
                    .trim_end_matches(" row");
                let digits: String = head
                    .chars()
                    .rev()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.chars().rev().collect::<String>().parse().unwrap()
            })
        };
        assert!(
            !bottom.contains("bytes"),
            "short samples are laid out whole: {bottom}"
        );
        let above = if bottom.contains("hidden above") {
            number_before(" hidden above")
        } else {
            number_before(" above")
        };
        for (k, row) in inside.iter().skip(1).step_by(2).enumerate() {
            let row = row.trim_matches('│');
            assert!(!row.contains('…'), "no id is cut off: {row}");
            let ids: Vec<u32> = row.split_whitespace().map(|n| n.parse().unwrap()).collect();
            if !ids.is_empty() {
                by_row.insert(above + k, ids);
            }
        }
        if !bottom.contains("below") {
            break;
        }
        common::press(app, [bpeek::tui::Event::key(KeyCode::PageDown)]);
    }
    by_row.into_values().flatten().collect()
}

#[test]
fn every_id_reads_back_page_by_page_at_80x24_120x40_and_200x60() {
    let mut app = default_app();
    app.focus = Focus::Encode;
    update(&mut app, Action::Toggle(Toggle::Zoom));
    update(&mut app, Action::Goto(300));
    common::finish_job(&mut app);
    for spec in [None, Some("o200k")] {
        if let Some(spec) = spec {
            update(&mut app, Action::Loaded(LoadDone::now(spec)));
            app.toks.selected = app.toks.slots.iter().position(|s| s.spec == spec).unwrap();
        }
        for sample in bpeek::corpora::SAMPLES {
            update(&mut app, Action::ClearEncode);
            update(&mut app, Action::Paste(sample.text.to_string()));
            update(&mut app, Action::StopEditing);
            let tok = app.toks.get(app.toks.selected).unwrap().clone();
            let want = tok.encode(&app.encode.text, false);
            for (w, h) in [(80, 24), (120, 40), (200, 60)] {
                assert_eq!(
                    ids_paged(&mut app, w, h),
                    want,
                    "{:?}, {} at {w}x{h}",
                    spec.unwrap_or("trained"),
                    sample.code
                );
            }
        }
    }
}
