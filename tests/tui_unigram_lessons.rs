//! The explorer in Unigram mode over time: a go-to runs a step a slice
//! while the screen keeps drawing (Esc goes back), a lesson steps through
//! Unigram training and back to the same screens, and a recorded session
//! replays as a lesson.

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::lesson::Lesson;
use bpeek::tui::lesson::record::Recording;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, update};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;

mod common;
mod course;
mod scratch;
use common::{finish_job, press, rows_of};

/// The course's corpus in a file of `dir`, and a lesson on it that trains
/// Unigram in char mode to 10 pieces.
fn course_lesson(dir: &scratch::Scratch, steps: &str) -> Lesson {
    let corpus = dir.file("course.txt", course::text());
    let text = format!(
        "corpus {}\noptions --model unigram --mode char --vocab-size 10\n{steps}",
        corpus.display()
    );
    Lesson::parse("course.lesson", &text).unwrap()
}

fn lesson_app(lesson: &Lesson) -> App {
    let options = lesson.training_options(None).unwrap();
    let mut app = App::unigram(&options, Theme::plain()).unwrap();
    app.lesson = Some(lesson.clone());
    app
}

fn step_count(app: &App) -> usize {
    app.unigram.as_ref().unwrap().trainer.step_count()
}

fn screen(app: &mut App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend())
}

fn keys(text: &str) -> Vec<Event> {
    text.chars()
        .map(|c| match c {
            '\n' => Event::key(KeyCode::Enter),
            c => Event::char(c),
        })
        .collect()
}

/// Type the keys without running the job they start to its end.
fn type_keys(app: &mut App, text: &str) {
    for e in keys(text) {
        let Event::Key(key) = e else { continue };
        if let Some(action) = bpeek::tui::keymap::action_for(app, &key) {
            update(app, action);
        }
    }
}

#[test]
fn a_go_to_runs_a_step_a_slice_and_esc_goes_back() {
    let dir = scratch::Scratch::new("unigram-goto");
    let mut app = lesson_app(&course_lesson(&dir, "step 1"));
    app.lesson = None;
    app.jobs.slice = Duration::ZERO;
    press(&mut app, keys("nn"));
    let before = screen(&mut app);
    type_keys(&mut app, "g6\n");
    // One step made: the job is under way, the footer says how far.
    assert_eq!(step_count(&app), 3);
    assert!(app.jobs.current.is_some());
    let rows = screen(&mut app);
    assert!(
        rows[23].contains("going to step 6: 1 of 4 steps made"),
        "{}",
        rows[23]
    );
    // A training key waits; Esc takes training back to step 2.
    type_keys(&mut app, "n");
    assert!(app.notice.as_deref().unwrap_or("").contains("under way"));
    update(&mut app, Action::CancelJob);
    finish_job(&mut app);
    assert_eq!(step_count(&app), 2);
    assert_eq!(app.notice.as_deref(), Some("cancelled: back at step 2"));
    app.notice = None;
    assert_eq!(screen(&mut app), before);
    // Run to its end, the go-to lands where `n` pressed four times does.
    type_keys(&mut app, "g6\n");
    finish_job(&mut app);
    let by_goto = screen(&mut app);
    let mut stepped = lesson_app(&course_lesson(&dir, "step 1"));
    stepped.lesson = None;
    press(&mut stepped, keys("nnnnnn"));
    assert_eq!(by_goto, screen(&mut stepped));
}

#[test]
fn a_go_to_past_the_end_says_where_training_stops() {
    let dir = scratch::Scratch::new("unigram-goto-end");
    let mut app = lesson_app(&course_lesson(&dir, "step 1"));
    app.lesson = None;
    press(&mut app, keys("g999\n"));
    let at = step_count(&app);
    assert!(app.unigram.as_ref().unwrap().trainer.next_phase().is_err());
    let notice = app.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with(&format!("training stops at step {at}: ")),
        "{notice}"
    );
    press(&mut app, keys("r"));
    assert_eq!(step_count(&app), 0);
    press(&mut app, keys("r"));
    assert_eq!(
        app.notice.as_deref(),
        Some("already at step 0, the seeding")
    );
}

#[test]
fn a_unigram_lesson_steps_on_and_back_to_the_screens_it_showed() {
    let dir = scratch::Scratch::new("unigram-lesson");
    let lesson = course_lesson(
        &dir,
        "step 1 \"EM: expected counts from every word's lattice\"\n\
         step 3 \"the first prune\"\n\
         say \"look at the removal list\"\n\
         step 2 \"back before the prune\"\n\
         step 7\n",
    );
    let mut app = lesson_app(&lesson);
    let mut seen = Vec::new();
    for (i, want) in [1, 3, 3, 2, 7].into_iter().enumerate() {
        press(&mut app, [Event::char(' ')]);
        assert_eq!(step_count(&app), want, "lesson step {}", i + 1);
        seen.push(screen(&mut app));
    }
    assert!(seen[1].iter().any(|r| r.contains("the first prune")));
    for i in (0..4).rev() {
        press(&mut app, [Event::key(KeyCode::Left)]);
        assert_eq!(screen(&mut app), seen[i], "back to lesson step {}", i + 1);
    }
    press(&mut app, [Event::key(KeyCode::Left)]);
    assert_eq!(step_count(&app), 0);
}

#[test]
fn a_unigram_lesson_names_no_phase() {
    for (line, said) in [
        (
            "phase chosen",
            "line 3: phase: a Unigram step is one phase already",
        ),
        (
            "step 2 merged",
            "line 3: step N PHASE: a Unigram step is one phase already",
        ),
    ] {
        let text = format!("corpus play\noptions --model unigram\n{line}\n");
        let e = Lesson::parse("u.lesson", &text).unwrap_err().to_string();
        assert!(e.contains(said), "{e}");
    }
}

#[test]
fn a_recorded_unigram_session_replays_as_a_lesson() {
    let dir = scratch::Scratch::new("unigram-record");
    let mut app = lesson_app(&course_lesson(&dir, "step 1"));
    app.lesson = None;
    app.recording = Some(Recording::new(app.current));
    press(&mut app, keys("nnnpg6\nnpp"));
    let text = app
        .recording
        .as_ref()
        .unwrap()
        .text("course.txt", &app.options);
    let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("step")).collect();
    assert_eq!(
        steps,
        [
            "step 1", "step 2", "step 3", "step 2", "step 6", "step 7", "step 6", "step 5"
        ]
    );
    assert!(
        text.contains("options --mode char --vocab-size 10 --model unigram\n"),
        "{text}"
    );
    // Replayed from the file, the lesson ends where the session ended.
    let corpus = dir.file("course.txt", course::text());
    let text = text.replace("corpus course.txt", &format!("corpus {}", corpus.display()));
    let lesson = Lesson::parse("recorded", &text).unwrap();
    let mut replay = lesson_app(&lesson);
    press(&mut replay, vec![Event::char(' '); lesson.steps.len()]);
    replay.lesson = None;
    assert_eq!(step_count(&replay), 5);
    assert_eq!(screen(&mut replay)[..23], screen(&mut app)[..23]);
}

#[test]
fn unigram_options_on_the_options_line_reach_the_trainer() {
    let options = TrainingOptions::default();
    let mut with = options.clone();
    with.unigram.model = bpeek::tui::options::unigram::ModelKind::Unigram;
    with.unigram.em_iterations = Some(3);
    with.unigram.shrinking_factor = Some(0.6);
    let rec = Recording::new(0);
    let text = rec.text("play", &with);
    assert!(
        text.contains("options --model unigram --shrinking-factor 0.6 --em-iterations 3\n"),
        "{text}"
    );
    let lesson = Lesson::parse("r", &format!("{text}step 1\n")).unwrap();
    let back = lesson.training_options(None).unwrap();
    assert_eq!(back.unigram, with.unigram);
}
