//! Long actions in the explorer: a go-to, a reset or the opening of a big
//! corpus runs a slice at a time between frames (or on another thread),
//! shows how far it has got, and Esc takes training back to exactly where
//! it stood.
//!
//! Slices here are one step each (`app.jobs.slice` is zero), so a job of a few
//! hundred merges takes a few hundred slices on any machine.

mod scratch;

use bpeek::bpe::train::trainer::{PairRow, SeekPlan};
use bpeek::bpe::{Phase, Trainer, TrainerConfig};
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use scratch::Scratch;
use std::time::Duration;

mod common;
use common::{finish_job, rows_of};

/// Words made of a few letters, picked by a fixed pseudo-random sequence:
/// many distinct pairs, and nothing a test has to spell out.
fn generated_text(bytes: usize) -> Vec<u8> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let letters = b"etaoinshrdlucmfw";
    let mut text = Vec::with_capacity(bytes + 16);
    while text.len() < bytes {
        let len = 1 + next() % 7;
        for _ in 0..len {
            text.push(letters[(next() % letters.len() as u64) as usize]);
        }
        text.push(if next() % 9 == 0 { b'\n' } else { b' ' });
    }
    text
}

fn trainer() -> Trainer {
    Trainer::new(generated_text(200_000), TrainerConfig::default()).unwrap()
}

/// The explorer on the generated corpus, one step per slice.
fn app() -> App {
    let mut app = App::from_trainer("generated", trainer(), Theme::plain());
    app.jobs.slice = Duration::ZERO;
    app
}

fn key(code: KeyCode) -> Event {
    Event::key(code)
}

/// Press keys through the key table, leaving any job they start to run
/// on (the loop would give it a slice per frame).
fn press(app: &mut App, events: impl IntoIterator<Item = Event>) {
    for e in events {
        let Event::Key(k) = e else { continue };
        if let Some(action) = bpeek::tui::keymap::action_for(app, &k) {
            update(app, action);
        }
    }
}

/// Type `g`, the number and Enter.
fn go_to(app: &mut App, n: usize) {
    let mut keys = vec![Event::char('g')];
    keys.extend(n.to_string().chars().map(Event::char));
    keys.push(key(KeyCode::Enter));
    press(app, keys);
}

type Pairs = Vec<(u32, u32)>;
type Counts = Vec<((u32, u32), u64)>;

/// Everything the screen shows of training: merges, phase, pair table,
/// token count.
fn state(t: &Trainer) -> (Pairs, Phase, Vec<PairRow>, u64) {
    (
        t.merges().iter().map(|m| m.pair).collect(),
        t.phase().clone(),
        t.top_pairs(200),
        t.corpus_tokens(),
    )
}

/// The same, without which counts moved last (taking a merge back and
/// making it again leave the same counts, marked differently).
fn counts(t: &Trainer) -> (Pairs, Phase, Counts, u64) {
    (
        t.merges().iter().map(|m| m.pair).collect(),
        t.phase().clone(),
        t.pairs().iter().take(200).collect(),
        t.corpus_tokens(),
    )
}

fn screen(app: &mut App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    update(app, Action::Resize(100, 30));
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    rows_of(terminal.backend())
}

fn footer(app: &mut App) -> String {
    screen(app).last().unwrap().clone()
}

#[test]
fn a_go_to_goes_a_slice_at_a_time_saying_how_far_it_has_got() {
    let mut app = app();
    go_to(&mut app, 300);
    // The first slice runs at once: one merge.
    assert!(app.jobs.current.is_some());
    assert_eq!(app.trainer().merges().len(), 1);
    let line = footer(&mut app);
    assert!(
        line.contains("going to merge 300: 1 of 300 merges made…"),
        "{line}"
    );
    assert!(line.contains("Esc cancel"), "{line}");
    for _ in 0..99 {
        update(&mut app, Action::JobMore);
    }
    assert_eq!(app.trainer().merges().len(), 100);
    assert!(footer(&mut app).contains("100 of 300 merges made"));
    finish_job(&mut app);

    let mut direct = trainer();
    direct.seek(300);
    assert_eq!(state(app.trainer()), state(&direct));
    assert_eq!(app.notice, None);
    assert!(!footer(&mut app).contains("Esc cancel"));
}

#[test]
fn esc_takes_a_go_to_back_to_the_merge_and_phase_before() {
    let mut app = app();
    go_to(&mut app, 40);
    finish_job(&mut app);
    // Mid-round: the winner of round 41 chosen, not yet merged.
    press(&mut app, [Event::char('.'), Event::char('.')]);
    assert!(matches!(app.trainer().phase(), Phase::Chosen(_)));
    let before = counts(app.trainer());

    go_to(&mut app, 300);
    for _ in 0..50 {
        update(&mut app, Action::JobMore);
    }
    assert!(app.trainer().merges().len() > 40);
    press(&mut app, [key(KeyCode::Esc)]);
    // Going back is a job of its own; Esc cannot cancel that.
    if app.jobs.current.is_some() {
        let line = footer(&mut app);
        assert!(line.contains("going back to merge 40"), "{line}");
        assert!(!line.contains("Esc cancel"), "{line}");
        press(&mut app, [key(KeyCode::Esc)]);
        assert!(app.jobs.current.is_some());
    }
    finish_job(&mut app);
    assert_eq!(counts(app.trainer()), before);
    assert_eq!(app.notice.as_deref(), Some("cancelled: back at merge 40"));
}

#[test]
fn esc_takes_undoing_back_to_the_merge_it_left() {
    let mut app = app();
    go_to(&mut app, 300);
    finish_job(&mut app);
    let before = counts(app.trainer());
    assert_eq!(app.trainer().seek_plan(250), SeekPlan::Undo);

    go_to(&mut app, 250);
    for _ in 0..20 {
        update(&mut app, Action::JobMore);
    }
    assert_eq!(app.trainer().merges().len(), 279);
    assert!(footer(&mut app).contains("going to merge 250: 21 of 50 merges undone"));
    press(&mut app, [key(KeyCode::Esc)]);
    finish_job(&mut app);
    assert_eq!(counts(app.trainer()), before);

    // Let through, it ends as the steps forward left merge 250: merged,
    // with that merge's changes, not the undo's.
    go_to(&mut app, 250);
    finish_job(&mut app);
    let mut direct = trainer();
    direct.seek(250);
    assert_eq!(state(app.trainer()), state(&direct));
}

#[test]
fn a_reset_that_replays_runs_away_from_the_screen_and_cancels_at_once() {
    let mut app = app();
    go_to(&mut app, 300);
    finish_job(&mut app);
    let before = state(app.trainer());
    assert_eq!(app.trainer().seek_plan(0), SeekPlan::Replay);

    press(&mut app, [Event::char('r')]);
    // The count from merge 0 is another thread's: the screen keeps merge 300.
    assert!(app.jobs.current.as_ref().is_some_and(|j| j.is_away()));
    assert_eq!(app.jobs.work.len(), 1);
    assert_eq!(state(app.trainer()), before);
    let line = footer(&mut app);
    assert!(
        line.contains("back to merge 0: counting pairs afresh at merge 0"),
        "{line}"
    );
    press(&mut app, [key(KeyCode::Esc)]);
    assert!(app.jobs.current.is_none());
    assert_eq!(state(app.trainer()), before);
    assert_eq!(app.notice.as_deref(), Some("cancelled: still at merge 300"));

    press(&mut app, [Event::char('r')]);
    for work in app.take_work() {
        work.run();
    }
    update(&mut app, Action::JobMore);
    assert!(app.jobs.current.is_none());
    assert_eq!(state(app.trainer()), state(&trainer()));
}

#[test]
fn a_replay_down_to_a_merge_ends_as_the_trainer_s_seek_does() {
    let mut app = app();
    go_to(&mut app, 300);
    finish_job(&mut app);
    assert_eq!(app.trainer().seek_plan(5), SeekPlan::Replay);
    go_to(&mut app, 5);
    finish_job(&mut app);
    let mut direct = trainer();
    direct.seek(300);
    direct.seek(5);
    assert_eq!(state(app.trainer()), state(&direct));
}

#[test]
fn training_keys_wait_for_a_job_and_quitting_does_not() {
    let mut app = app();
    go_to(&mut app, 300);
    let made = app.trainer().merges().len();
    press(&mut app, [Event::char('n')]);
    assert_eq!(app.trainer().merges().len(), made);
    assert_eq!(
        app.notice.as_deref(),
        Some("going to merge 300 is under way: wait, or Esc cancels it")
    );
    // Looking around still works.
    press(&mut app, [key(KeyCode::Tab)]);
    assert_eq!(app.focus, bpeek::tui::app::Focus::Pairs);
    press(&mut app, [Event::char('q')]);
    assert!(app.quit);
}

#[test]
fn the_loop_answers_esc_between_slices() {
    let mut app = app();
    let mut events = ScriptedEvents::typed("g300");
    events = events.then(key(KeyCode::Enter));
    // Each wait with nothing typed is a slice.
    for _ in 0..5 {
        events = events.then_tick();
    }
    events = events.then(key(KeyCode::Esc));
    for _ in 0..20 {
        events = events.then_tick();
    }
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert!(app.jobs.current.is_none());
    assert_eq!(app.trainer().merges().len(), 0);
    assert_eq!(app.notice.as_deref(), Some("cancelled: back at merge 0"));
    let rows = rows_of(terminal.backend());
    assert!(rows.last().unwrap().contains("cancelled: back at merge 0"));
}

/// A corpus file big enough to be opened on another thread.
fn big_file(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let size = bpeek::tui::app::OPEN_AWAY_FROM as usize + 1000;
    std::fs::write(&path, generated_text(size)).unwrap();
    path
}

fn options(path: &std::path::Path) -> TrainingOptions {
    TrainingOptions {
        corpus: Some(path.to_string_lossy().into_owned()),
        ..TrainingOptions::default()
    }
}

#[test]
fn a_big_corpus_opens_behind_a_screen_that_says_how_far_it_has_got() {
    let dir = Scratch::new("long-open");
    let path = big_file(&dir, "open.txt");
    let mut app = App::opening(&options(&path), Theme::plain()).unwrap();
    assert!(app.opening_job());
    let rows = screen(&mut app);
    let text = rows.join("\n");
    assert!(text.contains("opening "), "{text}");
    assert!(text.contains("read 0.0 of 4.2 MB"), "{text}");
    assert!(text.contains("Esc q quit"), "{text}");
    // Training keys wait for the corpus.
    press(&mut app, [Event::char('n')]);
    assert!(app.opening_job());

    finish_job(&mut app);
    let (_, direct) = bpeek::cli::input::build_trainer(&options(&path)).unwrap();
    assert_eq!(state(app.trainer()), state(&direct));
    assert_eq!(app.trainer().corpus().text(), direct.corpus().text());
    assert!(screen(&mut app).join("\n").contains("merge 0/"));
}

#[test]
fn esc_while_opening_quits() {
    let dir = Scratch::new("long-quit");
    let path = big_file(&dir, "quit.txt");
    let mut app = App::opening(&options(&path), Theme::plain()).unwrap();
    press(&mut app, [key(KeyCode::Esc)]);
    assert!(app.quit);
}

#[test]
fn the_loop_opens_a_big_corpus_and_reports_a_failure_after_the_count() {
    let dir = Scratch::new("long-loop");
    let path = big_file(&dir, "loop.txt");
    let mut app = App::opening(&options(&path), Theme::plain()).unwrap();
    let mut events = ScriptedEvents::new([Event::char('n')]);
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert!(!app.opening_job());
    assert_eq!(app.trainer().merges().len(), 1);

    // A budget known to be too small only once the corpus is counted.
    let small = TrainingOptions {
        vocab_size: Some(10),
        ..options(&path)
    };
    let mut app = App::opening(&small, Theme::plain()).unwrap();
    let mut events = ScriptedEvents::new(Vec::new());
    let err = run_loop(&mut terminal, &mut app, &mut events).unwrap_err();
    assert!(err.to_string().contains("smaller than the base vocabulary"));
    assert_eq!(err.exit_code(), 2);
}

#[test]
fn a_served_explorer_is_woken_when_work_on_another_thread_returns() {
    use bpeek::serve::class::{Class, Limits, Startups};
    use bpeek::serve::incoming::Inbox;
    use bpeek::serve::session::ChannelEvents;
    use bpeek::serve::shared::SharedTokenizers;
    use bpeek::tui::EventSource;
    use bpeek::tui::job::Work;
    let (inbox, rx) = Inbox::new();
    let class = Class::new(Limits {
        max_sessions: 4,
        per_address: 4,
        rate_per_address: 60,
        idle_timeout: Duration::from_secs(600),
        login_timeout: Duration::from_secs(20),
        stall_timeout: Duration::from_secs(60),
        max_session_time: None,
        startups: Startups::parse("10:30:100", 8).unwrap(),
        max_memory: None,
        student_memory: None,
    });
    let shared = std::sync::Arc::new(SharedTokenizers::new(&[]));
    let mut events = ChannelEvents::new(rx, inbox, class, shared);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    events.spawn(Work::new(move || done_tx.send(42).unwrap()));
    // Waiting without a timeout: only the work's return ends the wait.
    assert_eq!(events.next(None).unwrap(), Some(Event::JobDone));
    assert_eq!(done_rx.recv().unwrap(), 42);
}

/// Draw the app at the size it has, without telling it anything.
fn draw_as_is(app: &mut App) -> String {
    let (w, h) = app.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    rows_of(terminal.backend()).join("\n")
}

#[test]
fn a_big_pasted_text_is_measured_a_tokenizer_at_a_time() {
    let mut app = app();
    update(&mut app, Action::Resize(100, 30));
    let text = String::from_utf8(generated_text(300_000)).unwrap();
    let bytes = text.len();
    update(&mut app, Action::Paste(text));
    update(&mut app, Action::StopEditing);
    while app.encode.encoding() {
        update(&mut app, Action::EncodeMore);
    }
    update(&mut app, Action::ToggleFertility);
    // The trained tokenizer is measured at once, the byte baseline next.
    assert!(app.fert.behind);
    let screen = draw_as_is(&mut app);
    let bytes_row = |screen: &str| {
        screen
            .lines()
            .find(|l| l.trim_start().starts_with("bytes "))
            .unwrap()
            .to_string()
    };
    assert!(bytes_row(&screen).contains("measuring…"), "{screen}");
    let mut looks = 0;
    while app.fert.behind {
        update(&mut app, Action::MeasureMore);
        looks += 1;
        assert!(looks < 1000);
    }
    let screen = draw_as_is(&mut app);
    assert!(bytes_row(&screen).contains(&bytes.to_string()), "{screen}");
}

/// A class with a teacher whose state the test sets.
struct Teacher(std::sync::Arc<std::sync::Mutex<Option<bpeek::tui::class::TrainingState>>>);

impl bpeek::tui::class::ClassLink for Teacher {
    fn publish(
        &self,
        _: bpeek::tui::class::TrainingState,
        _: Option<bpeek::tui::class::SharedTrainer>,
    ) {
    }
    fn teacher(&self) -> Option<bpeek::tui::class::TrainingState> {
        *self.0.lock().unwrap()
    }
    fn set_following(&self, _: bool) {}
    fn counts(&self) -> bpeek::tui::class::ClassCounts {
        bpeek::tui::class::ClassCounts::default()
    }
}

#[test]
fn a_follower_goes_to_the_teacher_s_merge_a_slice_at_a_time() {
    use bpeek::tui::class::{Classroom, Role, TrainingState};
    use bpeek::tui::mark::PhaseName;
    let teacher = std::sync::Arc::new(std::sync::Mutex::new(None));
    let mut app = app();
    app.classroom = Some(Classroom::new(
        Role::Student,
        Box::new(Teacher(teacher.clone())),
    ));
    let moves_to = |app: &mut App, merges, phase| {
        *teacher.lock().unwrap() = Some(TrainingState {
            corpus: 0,
            merges,
            phase,
            autoplay: false,
        });
        update(app, Action::ClassChanged);
    };

    moves_to(&mut app, 300, PhaseName::Counted);
    assert_eq!(app.trainer().merges().len(), 1);
    let line = footer(&mut app);
    assert!(
        line.contains("following the teacher to merge 300: 1 of 300 merges made"),
        "{line}"
    );
    // Following is not the follower's own move: Esc does not undo it.
    press(&mut app, [key(KeyCode::Esc)]);
    assert!(app.jobs.current.is_some());
    finish_job(&mut app);
    let mut direct = trainer();
    direct.seek(300);
    direct.advance().unwrap();
    assert_eq!(counts(app.trainer()), counts(&direct));

    // A later move of the teacher's, merged at 100: the step to 100 just made.
    moves_to(&mut app, 100, PhaseName::Merged);
    finish_job(&mut app);
    let mut direct = trainer();
    direct.seek(99);
    direct.step().unwrap();
    assert_eq!(state(app.trainer()), state(&direct));
    assert_eq!(app.notice, None);
}

#[test]
fn a_lesson_step_that_goes_far_is_a_job_esc_takes_back_with_the_lesson() {
    let text = "corpus play\nstep 5 \"five\"\nphase chosen \"chosen\"\nstep 200 \"far\"\n";
    let mut app = app();
    app.lesson = Some(bpeek::tui::lesson::Lesson::parse("demo", text).unwrap());
    let space = || Event::char(' ');
    press(&mut app, [space()]);
    finish_job(&mut app);
    press(&mut app, [space()]);
    assert_eq!(app.lesson.as_ref().unwrap().at, Some(1));
    assert!(matches!(app.trainer().phase(), Phase::Chosen(_)));
    let before = counts(app.trainer());

    press(&mut app, [space()]);
    assert!(app.jobs.current.is_some());
    assert!(footer(&mut app).contains("lesson step 3: 1 of 195 merges made"));
    for _ in 0..30 {
        update(&mut app, Action::JobMore);
    }
    press(&mut app, [key(KeyCode::Esc)]);
    finish_job(&mut app);
    assert_eq!(app.lesson.as_ref().unwrap().at, Some(1));
    assert_eq!(counts(app.trainer()), before);

    // Back a step: from merge 0 again, the steps up to the first.
    press(&mut app, [key(KeyCode::Left)]);
    finish_job(&mut app);
    assert_eq!(app.lesson.as_ref().unwrap().at, Some(0));
    let mut direct = trainer();
    direct.seek(5);
    assert_eq!(state(app.trainer()), state(&direct));
}

#[test]
fn a_long_paste_measured_a_part_at_a_time_counts_what_measuring_it_whole_does() {
    measured_in_parts_as_whole(app());
}

/// The same with the trained tokenizer merging the whole text as one chunk
/// (no pre-tokenizer), and cutting at spaces.
#[test]
fn a_long_paste_measured_in_parts_with_no_pretokenizer_or_spaces_counts_the_same() {
    for pretok in [bpeek::bpe::Pretok::None, bpeek::bpe::Pretok::Spaces] {
        // Trained on text like the pasted one: after 300 merges its tokens
        // are long and a part's end falls inside one; after 30 they are
        // short, and a token starts inside many a word, where a part must
        // not end (the word would count twice).
        for merges in [30, 300] {
            let config = TrainerConfig {
                pretok,
                ..TrainerConfig::default()
            };
            let mut trainer = Trainer::new(pasted_text(50_000).into_bytes(), config).unwrap();
            trainer.seek(merges);
            let mut app = App::from_trainer("generated", trainer, Theme::plain());
            app.jobs.slice = Duration::ZERO;
            measured_in_parts_as_whole(app);
        }
    }
}

/// Scripts, digits, runs of spaces and lines that start with a space, a
/// digit or a letter: every kind of place a part could be cut.
fn pasted_text(bytes: usize) -> String {
    let lines = [
        "The baker's 12 loaves  \n",
        "  indented, with trailing spaces   \n",
        "Сегодня свежий хлеб.\n",
        "मेरा नाम राम है\n",
        "3.14159 and 2026-12-02\n",
        "\n",
        "日本語のテキスト 🍞🥐\n",
        "\tend\r\n",
    ];
    let mut text = String::new();
    let mut i = 0usize;
    while text.len() < bytes {
        text.push_str(lines[(i * 7 + i / 3) % lines.len()]);
        i += 1;
    }
    text
}

fn measured_in_parts_as_whole(mut app: App) {
    use bpeek::bpe::fertility;
    use bpeek::tui::fertility::Panel;
    update(&mut app, Action::Resize(100, 30));
    for spec in ["gpt2", "cl100k", "o200k"] {
        update(
            &mut app,
            Action::Loaded(bpeek::tui::fertility::tokenizers::LoadDone::now(spec)),
        );
    }
    assert!(app.toks.slots.len() >= 5);
    let text = pasted_text(700_000);
    update(&mut app, Action::Paste(text));
    update(&mut app, Action::StopEditing);
    while app.encode.encoding() {
        update(&mut app, Action::EncodeMore);
    }
    // The box keeps one kind of line break.
    let text = app.encode.text.clone();
    // No time at all between frames: one part per look.
    app.jobs.slice = Duration::ZERO;
    for panel in [Panel::Cost, Panel::Scripts] {
        app.fert.panel = panel;
        update(&mut app, Action::ToggleFertility);
        let mut looks = 0;
        while app.fert.behind || looks == 0 {
            update(&mut app, Action::MeasureMore);
            looks += 1;
            assert!(looks < 10_000);
        }
        assert!(looks > 5, "measured in parts ({looks} looks)");
        for (i, col) in app.fert.columns.iter().enumerate() {
            let tok = app.toks.get(i).unwrap();
            match panel {
                Panel::Cost => {
                    let row = &col.pasted.as_ref().unwrap().2;
                    let whole = fertility::measure(tok, "pasted", &text);
                    assert_eq!(
                        (row.tokens, row.bytes, row.chars, row.words),
                        (whole.tokens, whole.bytes, whole.chars, whole.words),
                        "{}",
                        tok.name()
                    );
                }
                _ => {
                    let shares = &col.scripts.as_ref().unwrap().2;
                    assert_eq!(
                        shares,
                        &fertility::script_shares(tok, &text),
                        "{}",
                        tok.name()
                    );
                }
            }
        }
        update(&mut app, Action::ToggleFertility);
    }
}
