//! Tokenizer names in the fertility view: tables take the width there is,
//! a long name is cut in its middle so that no two names look alike, and
//! `--tokenizer LABEL=FILE` shows LABEL in place of the file's name. The
//! number rows of the digits panel show a whole cut or say it is cut.

use bpeek::bpe::formats::tokenizer_file;
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::options::input::build_trainer;
use bpeek::tui::view::short_names::distinct_short_names;
use bpeek::tui::{App, Event, ScriptedEvents};
use crossterm::event::KeyCode;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use unicode_width::UnicodeWidthStr;

mod common;
mod scratch;
use common::{default_app, loaded};
use scratch::Scratch;

fn screen(app: &mut App, events: ScriptedEvents, width: u16, height: u16) -> Vec<String> {
    common::screen_after(app, events.loading_with(loaded), width, height)
}

/// A tokenizer of `merges` merges of the bundled corpus, written as
/// bpeek's tokenizer JSON to `dir/name`.
fn tokenizer_file(dir: &Path, name: &str, merges: usize) -> PathBuf {
    let (_, mut trainer) = build_trainer(&TrainingOptions::default()).unwrap();
    for _ in 0..merges {
        trainer.step().unwrap();
    }
    let path = dir.join(name);
    let json = tokenizer_file::to_json(&trainer.tokenizer());
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

/// The explorer with the files of two Hugging Face-like names added.
fn app_with_long_names(dir: &Scratch) -> App {
    let mut app = default_app();
    for (name, merges) in [("hf-wordpiece.json", 40), ("hf-wordlevel.json", 60)] {
        let path = tokenizer_file(dir, name, merges);
        app.add_tokenizer(path.to_str().unwrap());
    }
    app
}

/// The rows of the full table (`tokenizer  tokens  B/tok ...`), each
/// tokenizer's name as the row shows it.
fn table_names(rows: &[String]) -> Vec<String> {
    let head = rows
        .iter()
        .position(|r| r.trim_start().starts_with("tokenizer ") && r.contains("B/tok"))
        .unwrap_or_else(|| panic!("no table:\n{}", rows.join("\n")));
    rows[head + 1..]
        .iter()
        .take_while(|r| !r.starts_with("──") && !r.trim().is_empty())
        .map(|r| {
            let name: String = r.chars().skip(1).collect();
            name.split("  ").next().unwrap().trim().to_string()
        })
        .collect()
}

#[test]
fn two_long_names_keep_what_tells_them_apart_at_80x24_and_120x40() {
    let dir = Scratch::new("long-names");
    for (w, h) in [(80, 24), (120, 40), (200, 50)] {
        let mut app = app_with_long_names(&dir);
        let rows = screen(&mut app, ScriptedEvents::typed("f"), w, h);
        let shown = rows.join("\n");
        // The full table has room for both names, whole.
        let names = table_names(&rows);
        assert!(
            names.contains(&"hf-wordpiece.json".to_string())
                && names.contains(&"hf-wordlevel.json".to_string()),
            "{w}x{h}: {names:?}\n{shown}"
        );
        // The language table's heading: a column per tokenizer shown, no
        // two names alike, each a head and a tail of its tokenizer's name.
        let head = rows
            .iter()
            .find(|r| r.trim_start().starts_with("text "))
            .unwrap_or_else(|| panic!("{shown}"));
        // Up to the bar's heading, `premium: trained`.
        let cells: Vec<&str> = head
            .split_whitespace()
            .skip(1)
            .take_while(|c| !c.contains(':'))
            .collect();
        let mut distinct = cells.to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), cells.len(), "{w}x{h}: {head}");
        let hf: Vec<&&str> = cells.iter().filter(|c| c.ends_with(".json")).collect();
        assert_eq!(hf.len(), 2, "{w}x{h}: {head}");
        if w >= 120 {
            assert!(
                head.contains(" hf-wordpiece.json ") && head.contains(" hf-wordlevel.json "),
                "{w}x{h}: {head}"
            );
        }
        for row in &rows {
            assert_eq!(row.width(), w as usize);
        }
    }
}

#[test]
fn a_label_given_with_the_file_names_it_everywhere() {
    let dir = Scratch::new("labelled");
    let path = tokenizer_file(&dir, "hf-wordpiece.json", 40);
    // A file whose own name has `=` in it is a file, not a label.
    let odd = tokenizer_file(&dir, "a=b.json", 20);
    let mut app = default_app();
    app.add_tokenizer(&format!("small vocab={}", path.display()));
    app.add_tokenizer(odd.to_str().unwrap());
    let rows = screen(&mut app, ScriptedEvents::typed("f"), 120, 40);
    let shown = rows.join("\n");
    let names = table_names(&rows);
    assert!(
        names.contains(&"small vocab".to_string()),
        "{names:?}\n{shown}"
    );
    assert!(
        names.contains(&"a=b.json".to_string()),
        "{names:?}\n{shown}"
    );
    assert!(!shown.contains("hf-wordpiece"), "{shown}");
}

#[test]
fn every_number_row_shows_its_whole_cut_or_ends_in_an_ellipsis() {
    let numbers = bpeek::tui::fertility::numbers();
    for (w, h) in [(80, 24), (100, 30), (120, 40), (200, 50)] {
        for ascii in [false, true] {
            let theme = bpeek::tui::theme::Theme::new(false, ascii);
            let options = bpeek::cli::args::TrainingOptions::default();
            let mut app = App::from_options(&options, theme).unwrap();
            // The byte baseline first: one token per character, the
            // longest cuts there are.
            let events = ScriptedEvents::typed("ft")
                .then(Event::key(KeyCode::Tab))
                .then(Event::key(KeyCode::Tab))
                .then(Event::key(KeyCode::End));
            let rows = screen(&mut app, events, w, h);
            let shown = rows.join("\n");
            let sep = if ascii { "|" } else { "│" };
            let ellipsis = app.theme.glyphs.ellipsis;
            let labels = bpeek::tui::fertility::number_labels();
            // The selected tokenizer's cut: from the first `cut by` to the
            // next one or the end of the row.
            let head: Vec<char> = rows
                .iter()
                .find(|r| r.contains("cut by "))
                .unwrap_or_else(|| panic!("{shown}"))
                .chars()
                .collect();
            let starts: Vec<usize> = (0..head.len())
                .filter(|&i| head[i..].starts_with(&['c', 'u', 't', ' ', 'b', 'y']))
                .collect();
            let end = starts.get(1).copied().unwrap_or(head.len());
            let mut seen = Vec::new();
            for (label, number) in labels.iter().zip(numbers) {
                let Some(row) = rows.iter().find(|r| {
                    r.chars()
                        .skip(1)
                        .collect::<String>()
                        .starts_with(&format!("{label} "))
                }) else {
                    continue;
                };
                seen.push(label);
                let cut: String = row.chars().skip(starts[0]).take(end - starts[0]).collect();
                let cut = cut.trim_end();
                let whole: String = number
                    .chars()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(sep);
                let kept = cut.trim_end_matches(ellipsis);
                assert!(
                    cut == whole || (cut.ends_with(ellipsis) && whole.starts_with(kept)),
                    "{w}x{h} {label}: {cut:?}, whole {whole:?}\n{shown}"
                );
            }
            assert!(seen.len() >= 8, "{w}x{h}: {seen:?}\n{shown}");
            let mut distinct = seen.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), seen.len(), "labels of their own: {seen:?}");
        }
    }
}

/// Whether `short` is `name` itself, or a head of `name`, `ellipsis` and
/// a tail of it that do not overlap.
fn is_head_and_tail(short: &str, name: &str, ellipsis: &str) -> bool {
    short == name
        || short.match_indices(ellipsis).any(|(at, _)| {
            let (head, tail) = (&short[..at], &short[at + ellipsis.len()..]);
            name.starts_with(head) && name.ends_with(tail) && head.len() + tail.len() < name.len()
        })
}

fn name_sets() -> impl Strategy<Value = Vec<String>> {
    // Few letters, so names share heads and tails often.
    let name = "[ab][ab-]{0,5}(piece|level|lev|pie)?[ab]{0,4}(\\.json|\\.txt)?";
    proptest::collection::btree_set(name, 2..7).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #[test]
    fn cut_names_stay_apart_fit_and_keep_a_head_and_a_tail(
        names in name_sets(),
        max in 8usize..24,
        ascii in any::<bool>(),
    ) {
        let ellipsis = if ascii { "~" } else { "…" };
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let out = distinct_short_names(&refs, max, ellipsis);
        for (short, name) in out.iter().zip(&names) {
            prop_assert!(short.width() <= max, "{short:?} is wider than {max}");
            prop_assert!(is_head_and_tail(short, name, ellipsis), "{short:?} of {name:?}");
        }
        let mut distinct = out.clone();
        distinct.sort();
        distinct.dedup();
        prop_assert_eq!(distinct.len(), out.len(), "{:?} -> {:?}", names, out);
    }
}
