//! The explorer under random keys: every key of the key table, clicks and
//! the wheel anywhere, pastes in many scripts, resizes down to a tiny screen and autoplay ticks, in random
//! order, over every bundled corpus, both modes and several pre-tokenizers,
//! through the real event loop into a test terminal. Nothing may panic.
//!
//! `cargo test --release --test tui_fuzz` runs a bounded number of keys
//! (the seed is fixed, so a failure repeats). `BPEEK_TUI_FUZZ_KEYS=N` runs
//! N keys per configuration instead, and `BPEEK_TUI_FUZZ_SEED=S` others.

mod common;
mod scratch;

use bpeek::bpe::{Mode, Pretok};
use bpeek::cli::args::TrainingOptions;
use bpeek::corpora;
use bpeek::tui::keymap::{BINDINGS, Key};
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop};
use common::{Rng, loaded};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use scratch::Scratch;

const DEFAULT_KEYS: usize = 1_500;
const BATCH: usize = 50;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every key the table binds, but the ones that quit and the ones that
/// write a file into the current directory (`tests/tui_export.rs`,
/// `tui_svg.rs` and `tui_fertility_export.rs` test them in directories of
/// their own).
fn table_keys() -> Vec<KeyEvent> {
    let mut keys = Vec::new();
    for b in BINDINGS {
        if matches!(
            b.action,
            Action::Quit
                | Action::CancelJob
                | Action::SaveEncoded
                | Action::SaveScreen
                | Action::SaveFertility
        ) {
            continue;
        }
        for key in b.keys {
            let event = match *key {
                Key::Code(code) => KeyEvent::new(code, KeyModifiers::NONE),
                Key::Ctrl(c) => KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL),
                Key::CtrlCode(code) => KeyEvent::new(code, KeyModifiers::CONTROL),
                Key::AnyChar | Key::Click | Key::Wheel => continue,
            };
            if !keys.contains(&event) {
                keys.push(event);
            }
        }
    }
    keys
}

const PASTES: &[&str] = &[
    "hello world",
    "हमारे शहर का पुस्तकालय",
    "東京は日本の首都です",
    "مرحبا بالعالم 2024",
    "a\u{301}e\u{308} 👩‍👩‍👧 ＡＢＣ",
    "12345678901234567890 3.14159",
    "line one\nline two\r\n\tend",
    "",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

const SIZES: &[(u16, u16)] = &[(80, 24), (120, 40), (40, 12), (20, 6), (200, 60), (1, 1)];

/// A click or a turn of the wheel anywhere, off the screen too.
fn random_mouse(rng: &mut Rng) -> Event {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let kind = *rng.pick(&[
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Up(MouseButton::Left),
        MouseEventKind::Down(MouseButton::Right),
        MouseEventKind::ScrollUp,
        MouseEventKind::ScrollDown,
    ]);
    Event::Mouse(MouseEvent {
        kind,
        column: rng.below(210) as u16,
        row: rng.below(70) as u16,
        modifiers: KeyModifiers::NONE,
    })
}

fn random_events(rng: &mut Rng, keys: &[KeyEvent], n: usize) -> ScriptedEvents {
    let mut events = ScriptedEvents::new([]);
    for _ in 0..n {
        events = match rng.below(40) {
            0 => events.then(Event::Paste(rng.pick(PASTES).to_string())),
            1 => {
                let (w, h) = *rng.pick(SIZES);
                events.then(Event::Resize(w, h))
            }
            2 => events.then_tick(),
            // Text for the encode box and digits for the go-to prompt.
            3..=6 => events.then(Event::char(*rng.pick(&['a', 'é', '7', '0', ' ', 'क']))),
            7..=9 => events.then(random_mouse(rng)),
            _ => events.then(Event::Key(*rng.pick(keys))),
        };
    }
    events
}

fn configurations() -> Vec<TrainingOptions> {
    let mut out = Vec::new();
    for corpus in corpora::BUNDLED {
        for (mode, pretok) in [
            (Mode::Byte, Some(Pretok::Gpt2)),
            (Mode::Byte, Some(Pretok::None)),
            (Mode::Char, None),
            (Mode::Byte, Some(Pretok::Lines)),
        ] {
            out.push(TrainingOptions {
                corpus_name: Some(corpus.name.to_string()),
                mode,
                pretok,
                ..TrainingOptions::default()
            });
        }
    }
    out
}

#[test]
fn random_keys_over_every_view_mode_and_corpus_never_panic() {
    let per_configuration = env_number("BPEEK_TUI_FUZZ_KEYS", DEFAULT_KEYS as u64) as usize;
    let mut rng = Rng(env_number("BPEEK_TUI_FUZZ_SEED", 23));
    let keys = table_keys();
    assert!(keys.len() > 40, "the key table has {} keys", keys.len());
    for options in configurations() {
        let mut app = App::from_options(&options, Theme::plain()).unwrap();
        let (w, h) = *rng.pick(SIZES);
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        // In batches, so a key that quits (Esc on a cancelled opening, say)
        // does not end the run early: the explorer is simply kept going.
        for _ in 0..per_configuration.div_ceil(BATCH) {
            let mut events = random_events(&mut rng, &keys, BATCH).loading_with(loaded);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_loop(&mut terminal, &mut app, &mut events)
            }));
            match run {
                Ok(result) => result.unwrap(),
                Err(_) => panic!(
                    "the explorer panicked on {:?} / {} / {:?} (seed {})",
                    options.corpus_name,
                    options.mode,
                    options.pretok,
                    env_number("BPEEK_TUI_FUZZ_SEED", 23)
                ),
            }
            app.quit = false;
        }
    }
}

/// The sequence the hostile probe found (`d n p`) drew the changed pairs
/// of an undo, naming the token it took away; after a step back the view
/// shows what the steps forward showed there: at merge 0 nothing changed,
/// at merge 1 what the first merge changed, the pairs it ended included.
#[test]
fn the_changed_pairs_after_an_undo_name_the_undone_token() {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        ..TrainingOptions::default()
    };
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let mut screen = |keys: &str| -> String {
        let mut events = ScriptedEvents::typed(keys);
        run_loop(&mut terminal, &mut app, &mut events).unwrap();
        app.quit = false;
        terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect()
    };
    let at_0 = screen("dnp");
    assert!(at_0.contains("Pairs changed 0"), "{at_0}");
    let at_1 = screen("nnp");
    assert!(at_1.contains("Pairs changed"), "{at_1}");
    assert!(at_1.contains("gone"), "{at_1}");
}

/// A corpus read from count files has its chunks but no text: every view
/// that shows text must say so, not fail.
#[test]
fn random_keys_over_a_corpus_read_from_counts_never_panic() {
    let mut rng = Rng(env_number("BPEEK_TUI_FUZZ_SEED", 29));
    let keys = table_keys();
    let dir = Scratch::new("fuzz-counts");
    for mode in [Mode::Byte, Mode::Char] {
        let mut app = common::app_on_count_file(&dir.join(format!("{mode}.parquet")), mode);
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        for _ in 0..(DEFAULT_KEYS / BATCH) {
            let mut events = random_events(&mut rng, &keys, BATCH).loading_with(loaded);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_loop(&mut terminal, &mut app, &mut events)
            }));
            assert!(
                run.is_ok(),
                "the explorer panicked on counts in {mode} mode"
            );
            run.unwrap().unwrap();
            app.quit = false;
        }
    }
}

/// Tokenizers of every kind a file brings, run as their own steps, in the
/// fertility view and the encode box under random keys and pastes: BPE on
/// characters behind a long pipeline with `##` and `</w>`, T5's Unigram
/// pipeline, WordLevel behind Digits, and a byte-level file with Falcon's
/// steps. Nothing may panic.
#[test]
fn random_keys_with_tokenizers_run_as_their_own_steps_never_panic() {
    use serde_json::json;
    let mut rng = Rng(env_number("BPEEK_TUI_FUZZ_SEED", 31));
    let keys = table_keys();
    let dir = Scratch::new("fuzz-steps");
    let metaspace = json!({"type": "Metaspace", "replacement": "\u{2581}",
                           "prepend_scheme": "first", "split": true});
    let files = [
        (
            "char-bpe.json",
            json!({
                "added_tokens": [{"id": 0, "content": "<unk>", "special": true, "normalized": false}],
                "normalizer": {"type": "Sequence", "normalizers": [
                    {"type": "NFKC"}, {"type": "StripAccents"},
                    {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "}]},
                "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                    {"type": "Digits", "individual_digits": true}, {"type": "UnicodeScripts"},
                    {"type": "Punctuation", "behavior": "Isolated"}, metaspace]},
                "decoder": {"type": "Sequence", "decoders": [
                    {"type": "ByteFallback"}, {"type": "Metaspace", "replacement": "\u{2581}",
                     "prepend_scheme": "first", "split": true}]},
                "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": true,
                          "continuing_subword_prefix": "##", "end_of_word_suffix": "</w>",
                          "vocab": {"<unk>": 0, "\u{2581}": 1, "t": 2, "##h": 3, "th": 4,
                                    "##e</w>": 5, "the</w>": 6, "<0xC3>": 7, "<0xA9>": 8},
                          "merges": ["t ##h", "th ##e</w>"]},
            }),
        ),
        (
            "unigram.json",
            json!({
                "normalizer": {"type": "Sequence", "normalizers": [
                    {"type": "NFKC"}, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
                "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                    {"type": "WhitespaceSplit"}, metaspace]},
                "decoder": metaspace,
                "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": false,
                          "vocab": [["<unk>", 0.0], ["\u{2581}", -1.0], ["t", -2.0], ["he", -2.5],
                                    ["\u{2581}the", -1.5]]},
            }),
        ),
        (
            "wordlevel.json",
            json!({
                "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                    {"type": "Whitespace"}, {"type": "Digits", "individual_digits": false}]},
                "model": {"type": "WordLevel", "unk_token": "<unk>",
                          "vocab": {"<unk>": 0, "the": 1, "a": 2, "12": 3}},
            }),
        ),
        (
            "falcon.json",
            json!({
                "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                    {"type": "Punctuation", "behavior": "Contiguous"},
                    {"type": "ByteLevel", "add_prefix_space": true, "use_regex": true},
                    {"type": "Digits", "individual_digits": false}]},
                "model": {"type": "BPE",
                          "vocab": (0..=255u8).map(|b| {
                              let c = bpeek::bpe::formats::byte_unicode::byte_chars()[b as usize];
                              (c.to_string(), json!(b))
                          }).collect::<serde_json::Map<String, serde_json::Value>>(),
                          "merges": []},
            }),
        ),
    ];
    for (name, doc) in files {
        let path = dir.join(name);
        std::fs::write(&path, doc.to_string()).unwrap();
        let spec = path.display().to_string();
        assert!(
            bpeek::bpe::formats::load::load(&spec).is_ok(),
            "{name} does not load"
        );
        let mut app = App::from_options(&TrainingOptions::default(), Theme::plain()).unwrap();
        app.add_tokenizer(&spec);
        let (w, h) = *rng.pick(SIZES);
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        for _ in 0..(DEFAULT_KEYS / BATCH) {
            let mut events = random_events(&mut rng, &keys, BATCH).loading_with(loaded);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_loop(&mut terminal, &mut app, &mut events)
            }));
            assert!(run.is_ok(), "the explorer panicked with {name}");
            run.unwrap().unwrap();
            app.quit = false;
        }
    }
}
