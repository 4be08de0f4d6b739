//! The encode box's ids and tokens leave the explorer (`y` to the
//! terminal's clipboard, `Y` to a file) as exactly what `bpeek encode`
//! prints for the same text and tokenizer.

mod common;
mod scratch;

use base64::Engine;
use bpeek::tui::app::Focus;
use bpeek::tui::fertility::tokenizers::LoadDone;
use bpeek::tui::terminal::cell_writer::CompactBackend;
use bpeek::tui::update::export;
use bpeek::tui::{Action, App, Event, update};
use common::{default_app, press};
use scratch::Scratch;
use std::process::Command;

fn bpeek_encode(tokenizer: &str, text: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["encode", "--tokenizer", tokenizer, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn with_text(app: &mut App, text: &str) {
    update(app, Action::ClearEncode);
    update(app, Action::Paste(text.to_string()));
    update(app, Action::StopEditing);
}

fn select(app: &mut App, spec: &str) {
    update(app, Action::Loaded(LoadDone::now(spec)));
    app.toks.selected = app.toks.slots.iter().position(|s| s.spec == spec).unwrap();
    // Drawing refreshes the box's encoding.
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
}

#[test]
fn the_export_is_what_bpeek_encode_prints_in_every_script() {
    let mut app = default_app();
    for spec in ["gpt2", "o200k", "bytes"] {
        select(&mut app, spec);
        for sample in bpeek::corpora::SAMPLES {
            with_text(&mut app, sample.text);
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
            bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
            let report = export::report(&app).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&report),
                String::from_utf8_lossy(&bpeek_encode(spec, sample.text)),
                "{spec} on {}",
                sample.code
            );
        }
    }
}

#[test]
fn the_trained_tokenizer_exports_what_its_saved_file_encodes() {
    let dir = Scratch::new("export");
    let saved = dir.join("trained.json");
    let status = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["train", "--merges", "200", "--quiet", "--out"])
        .arg(&saved)
        .status()
        .unwrap();
    assert!(status.success());
    let mut app = default_app();
    update(&mut app, Action::Goto(200));
    common::finish_job(&mut app);
    let text = "The baker's 12 loaves: हमारे शहर, 東京・大阪 👋";
    with_text(&mut app, text);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&export::report(&app).unwrap()),
        String::from_utf8_lossy(&bpeek_encode(saved.to_str().unwrap(), text))
    );
}

#[test]
fn y_sends_the_report_to_the_clipboard_after_the_next_frame() {
    let mut app = default_app();
    app.focus = Focus::Encode;
    with_text(&mut app, "low lower lowest");
    let mut out = Vec::new();
    {
        let mut terminal = ratatui::Terminal::new(CompactBackend::new(&mut out)).unwrap();
        bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
        press(&mut app, [Event::char('y')]);
        bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
    }
    let start = out
        .windows(7)
        .position(|w| w == b"\x1b]52;c;")
        .expect("the clipboard's escape sequence was sent");
    let end = start + out[start..].iter().position(|&b| b == 0x07).unwrap();
    let sent = base64::engine::general_purpose::STANDARD
        .decode(&out[start + 7..end])
        .unwrap();
    assert_eq!(sent, export::report(&app).unwrap());
    assert!(app.notice.as_deref().unwrap().contains("on the clipboard"));
    assert!(app.outgoing.is_empty(), "sent once");
}

#[test]
fn capital_y_writes_the_report_to_a_file_and_an_empty_box_says_how_to_fill_it() {
    let dir = Scratch::new("export-y");
    let mut app = default_app();
    export::save_in(&mut app, &dir);
    assert!(
        app.notice
            .as_deref()
            .unwrap()
            .contains("the encode box is empty")
    );
    press(&mut app, [Event::char('y')]);
    assert!(app.outgoing.is_empty(), "nothing to copy");

    with_text(&mut app, "low lower lowest");
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
    export::save_in(&mut app, &dir);
    let written = std::fs::read(dir.join(export::file_name(&app))).unwrap();
    assert_eq!(written, export::report(&app).unwrap());
    assert!(
        app.notice
            .as_deref()
            .unwrap()
            .starts_with("wrote bpeek-encode-")
    );
}
