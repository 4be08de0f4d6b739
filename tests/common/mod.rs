//! What the explorer's tests share: the apps they start from, pressing keys
//! through the key table, and reading a test terminal back as text.
#![allow(dead_code)] // each test file uses its own part of this

use bpeek::bpe::Pretok;
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::keymap::action_for;
use bpeek::tui::theme::Theme;
use bpeek::tui::{App, Event, update};
use ratatui::backend::TestBackend;
use unicode_width::UnicodeWidthStr;

/// The explorer on the bundled default corpus, without colour.
pub fn default_app() -> App {
    App::from_options(&TrainingOptions::default(), Theme::plain()).unwrap()
}

/// The tutorial corpus "play", cut at spaces, ties to the pair met first.
pub fn play() -> App {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        pretok: Some(Pretok::Whitespace),
        ..TrainingOptions::default()
    };
    App::from_options(&options, Theme::plain()).expect("the bundled corpus trains")
}

/// Press keys the way a user would, through the key table.
pub fn press(app: &mut App, events: impl IntoIterator<Item = Event>) {
    for e in events {
        let Event::Key(key) = e else { continue };
        if let Some(action) = action_for(app, &key) {
            update(app, action);
        }
        finish_job(app);
    }
}

/// Let the long action a key started run to its end, a slice at a time
/// as the loop runs it between frames (work meant for another thread is
/// run here).
pub fn finish_job(app: &mut App) {
    while app.jobs.current.is_some() {
        for work in app.take_work() {
            work.run();
        }
        update(app, bpeek::tui::Action::JobMore);
    }
}

/// Let the columns not focused reach the others, a slice at a time as the
/// loop does between frames (a Unigram column's run, meant for another
/// thread, is run here).
#[track_caller]
pub fn catch_up(app: &mut App) {
    for _ in 0..10_000 {
        finish_job(app);
        for work in app.take_work() {
            work.run();
        }
        if !app.compare.as_ref().is_some_and(|c| c.behind) {
            return;
        }
        update(app, bpeek::tui::Action::CompareMore);
    }
    let c = app.compare.as_ref().unwrap();
    panic!("the columns never caught up (waiting: {})", c.waiting);
}

/// Run the real event loop over `events` into a test terminal of
/// `width` x `height` and return the last frame's rows.
pub fn screen_after(
    app: &mut App,
    mut events: impl bpeek::tui::EventSource,
    width: u16,
    height: u16,
) -> Vec<String> {
    let mut terminal =
        ratatui::Terminal::new(TestBackend::new(width, height)).expect("a test backend");
    bpeek::tui::run_loop(&mut terminal, app, &mut events).unwrap();
    redraw_whole(&mut terminal, app);
    rows_of(terminal.backend())
}

/// Draw the app once more on a cleared test terminal. A test terminal,
/// unlike a real one, keeps the old cell a wide character hides, so after
/// several frames only a whole redraw reads back as the screen shows.
pub fn redraw_whole(terminal: &mut ratatui::Terminal<TestBackend>, app: &mut App) {
    terminal.clear().unwrap();
    bpeek::tui::runner::draw(terminal, app).unwrap();
}

/// The screen as text, one string per row (a wide character once).
pub fn rows_of(backend: &TestBackend) -> Vec<String> {
    let buf = backend.buffer();
    (0..buf.area.height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < buf.area.width {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                x += (symbol.width() as u16).max(1);
            }
            row
        })
        .collect()
}

/// splitmix64: small, fast and the same everywhere, for the fuzzers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A finished load of `spec`, each tokenizer built once per test run.
pub fn loaded(spec: &str) -> bpeek::tui::fertility::tokenizers::LoadDone {
    use bpeek::tui::fertility::tokenizers::LoadDone;
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, LoadDone>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache
        .entry(spec.to_string())
        .or_insert_with(|| LoadDone {
            // A fixed time keeps the screen the same from run to run.
            took: std::time::Duration::ZERO,
            ..LoadDone::now(spec)
        })
        .clone()
}

/// Run the `bpeek` binary with `args`.
pub fn bpeek(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output of a run that succeeded, as one JSON document.
pub fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON document")
}

/// A class with room for a test's teacher and students and limits no
/// test reaches.
pub fn class() -> std::sync::Arc<bpeek::serve::class::Class> {
    use bpeek::serve::class::{Class, Limits, Startups};
    use std::time::Duration;
    Class::new(Limits {
        max_sessions: 8,
        per_address: 16,
        rate_per_address: 600,
        idle_timeout: Duration::from_secs(600),
        login_timeout: Duration::from_secs(20),
        stall_timeout: Duration::from_secs(60),
        max_session_time: None,
        startups: Startups::parse("10:30:100", 16).unwrap(),
        max_memory: None,
        student_memory: None,
    })
}

/// `app` seated in `class` as `role`, as the server seats a session; the
/// seat, kept in `seats`, lives as long as the caller holds it.
pub fn seated_in(
    class: &std::sync::Arc<bpeek::serve::class::Class>,
    role: bpeek::tui::class::Role,
    seats: &mut Vec<bpeek::serve::class::Seat>,
    mut app: App,
) -> App {
    let seat = class.join(std::net::Ipv4Addr::LOCALHOST.into()).unwrap();
    let (inbox, _rx) = bpeek::serve::incoming::Inbox::new();
    class.start_session(seat.id, role, inbox).unwrap();
    app.classroom = Some(bpeek::tui::class::Classroom::new(role, class.link(seat.id)));
    seats.push(seat);
    app
}

/// The explorer on the bundled default corpus read back from a Parquet
/// count file written to `path` (counted whole, in `mode`, gpt2).
pub fn app_on_count_file(path: &std::path::Path, mode: bpeek::bpe::Mode) -> App {
    use bpeek::bpe::pretokenize::pretok::Digits;
    use bpeek::bpe::train::chunk_counts::{ChunkCounts, ChunkOptions};
    use bpeek::bpe::train::corpus::Corpus;
    let options = ChunkOptions {
        mode,
        pretok: Pretok::Gpt2,
        digits: Digits::Keep,
        by_line: false,
    };
    let text = bpeek::corpora::default_corpus().text.as_bytes().to_vec();
    let corpus = Corpus::new(text, mode, options.chunker(), false, false).unwrap();
    let counts = ChunkCounts::from_corpus(options, &corpus, 0).unwrap();
    let mut bytes = Vec::new();
    bpeek::counts::count_file::write_parquet(&counts, &mut bytes).unwrap();
    std::fs::write(path, bytes).unwrap();
    let training = TrainingOptions {
        counts: vec![path.display().to_string()],
        ..TrainingOptions::default()
    };
    App::from_options(&training, Theme::plain()).unwrap()
}
