//! `W` in the fertility view writes its cost table as CSV and JSON files,
//! exactly what `bpeek fertility --format csv` and `--format json` print
//! for the same texts and tokenizers, under a new name each time.

mod common;
mod scratch;

use bpeek::tui::update::save_fertility;
use bpeek::tui::{Action, App, Event, update};
use common::{default_app, loaded, press};
use scratch::Scratch;
use serde_json::Value;

/// The explorer with the fertility view open and its tokenizers loaded.
fn fertility_open() -> App {
    fertility_open_on(default_app())
}

/// `app` with the fertility view open and its tokenizers loaded.
fn fertility_open_on(mut app: App) -> App {
    press(&mut app, [Event::char('f')]);
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(loaded(&spec)));
    }
    app
}

/// The built-in tokenizers the view has, as `--tokenizer` options (the
/// one being trained has no name the command line knows).
fn built_in_options(app: &App) -> Vec<String> {
    app.toks
        .slots
        .iter()
        .enumerate()
        .filter(|(i, _)| !app.toks.is_trained(*i))
        .flat_map(|(_, s)| ["--tokenizer".to_string(), s.spec.clone()])
        .collect()
}

fn bpeek_fertility(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::bpeek(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `csv` without the rows of the trained tokenizer.
fn csv_without_trained(csv: &str) -> String {
    csv.lines()
        .filter(|l| !l.starts_with("trained,"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `json` without the trained tokenizer and its rows.
fn json_without_trained(json: &str) -> Value {
    let mut v: Value = serde_json::from_str(json).unwrap();
    let keep = |key: &str, item: &Value| item[key] != "trained";
    v["tokenizers"]
        .as_array_mut()
        .unwrap()
        .retain(|t| keep("name", t));
    v["rows"]
        .as_array_mut()
        .unwrap()
        .retain(|r| keep("tokenizer", r));
    v
}

/// What `W` wrote into `dir`, as (csv, json).
fn saved(dir: &Scratch, n: usize) -> (String, String) {
    let read = |ext: &str| std::fs::read_to_string(dir.join(format!("bpeek-fertility-{n}.{ext}")));
    (read("csv").unwrap(), read("json").unwrap())
}

fn check_against_the_command(dir: &Scratch, n: usize, args: Vec<String>) {
    let (csv, json) = saved(dir, n);
    let mut csv_args = args.clone();
    csv_args.extend(["--format".into(), "csv".into()]);
    assert_eq!(csv_without_trained(&csv), bpeek_fertility(&csv_args));
    let mut json_args = args;
    json_args.extend(["--format".into(), "json".into()]);
    let printed: Value = serde_json::from_str(&bpeek_fertility(&json_args)).unwrap();
    assert_eq!(json_without_trained(&json), printed);
    // The trained tokenizer is in the files too, a row for each text.
    let texts =
        printed["rows"].as_array().unwrap().len() / printed["tokenizers"].as_array().unwrap().len();
    assert_eq!(
        csv.lines().filter(|l| l.starts_with("trained,")).count(),
        texts
    );
}

#[test]
fn the_samples_table_is_what_bpeek_fertility_prints() {
    let dir = Scratch::new("fertility-samples");
    let mut app = fertility_open();
    save_fertility::save_in(&mut app, &dir);
    assert_eq!(
        app.notice.as_deref(),
        Some(
            "wrote bpeek-fertility-1.csv and bpeek-fertility-1.json: bpeek fertility's csv and json"
        )
    );
    let mut args = vec!["fertility".to_string(), "--samples".to_string()];
    args.extend(built_in_options(&app));
    check_against_the_command(&dir, 1, args);
}

#[test]
fn pasted_text_is_measured_as_bpeek_fertility_text() {
    let dir = Scratch::new("fertility-pasted");
    // Punctuation, quotes and several scripts, pasted before the view
    // opens, which then measures it.
    let text = "Grüße, \"world\" — 東京 2024";
    let mut app = default_app();
    update(&mut app, Action::Paste(text.into()));
    update(&mut app, Action::StopEditing);
    let mut app = fertility_open_on(app);
    assert_eq!(
        app.fert.effective_source(&app.encode.text),
        bpeek::tui::fertility::TextSource::Pasted
    );
    save_fertility::save_in(&mut app, &dir);
    let mut args = vec!["fertility".to_string(), text.to_string()];
    args.extend(built_in_options(&app));
    check_against_the_command(&dir, 1, args);
}

#[test]
fn a_second_save_takes_the_next_name_and_nothing_is_written_over() {
    let dir = Scratch::new("fertility-again");
    std::fs::write(dir.join("bpeek-fertility-1.json"), "mine").unwrap();
    let mut app = fertility_open();
    save_fertility::save_in(&mut app, &dir);
    save_fertility::save_in(&mut app, &dir);
    assert_eq!(
        std::fs::read_to_string(dir.join("bpeek-fertility-1.json")).unwrap(),
        "mine"
    );
    assert!(
        !dir.join("bpeek-fertility-1.csv").exists(),
        "a pair shares its number"
    );
    for n in [2, 3] {
        let (csv, json) = saved(&dir, n);
        assert!(csv.starts_with("tokenizer,text,bytes,"), "{csv}");
        assert!(json.starts_with("{"), "{json}");
    }
}

#[test]
fn a_tokenizer_still_loading_is_waited_for() {
    let dir = Scratch::new("fertility-loading");
    let mut app = default_app();
    press(&mut app, [Event::char('f')]);
    save_fertility::save_in(&mut app, &dir);
    let notice = app.notice.unwrap();
    assert!(notice.contains("is still loading"), "{notice}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn w_is_the_fertility_view_s_key() {
    let app = fertility_open();
    let key = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('W'));
    assert_eq!(
        bpeek::tui::keymap::action_for(&app, &key),
        Some(Action::SaveFertility)
    );
}
