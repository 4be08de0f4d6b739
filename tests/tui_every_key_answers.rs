//! Every key answers: walked through every row of the key table in
//! several states, each press either changes what is on screen (or the
//! state behind it) or says in the notice line why it does nothing.

mod common;

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::keymap::{BINDINGS, Key, action_of_key};
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, update};
use common::rows_of;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The states walked: a fresh start, after some merges, the encode box
/// focused with text, the fertility view, and configurations side by side.
const STATES: &[&str] = &["start", "merged", "encode", "fertility", "compare"];

fn app_in(state: &str) -> App {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        ..TrainingOptions::default()
    };
    let mut app = if state == "compare" {
        let given = vec![String::new(), "--tie lex".to_string()];
        bpeek::tui::comparing::app(&options, &given, Theme::plain()).unwrap()
    } else {
        App::from_options(&options, Theme::plain()).unwrap()
    };
    common::finish_job(&mut app);
    match state {
        "merged" | "compare" => {
            update(&mut app, Action::Step);
            update(&mut app, Action::Step);
        }
        "encode" => {
            update(&mut app, Action::Paste("the player played".into()));
            update(&mut app, Action::StopEditing);
            app.focus = bpeek::tui::app::Focus::Encode;
        }
        "fertility" => update(&mut app, Action::ToggleFertility),
        _ => {}
    }
    common::finish_job(&mut app);
    app.notice = None;
    app
}

fn screen(app: &mut App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend())
}

fn event_of(key: Key) -> Option<KeyEvent> {
    Some(match key {
        Key::Code(code) => KeyEvent::new(code, KeyModifiers::NONE),
        Key::Ctrl(ch) => KeyEvent::new(KeyCode::Char(ch), KeyModifiers::CONTROL),
        Key::CtrlCode(code) => KeyEvent::new(code, KeyModifiers::CONTROL),
        // Text entry, and the mouse's row (its clicks: tests/tui_mouse.rs).
        Key::AnyChar | Key::Click | Key::Wheel => return None,
    })
}

/// Keys that rightly leave the screen as it was and say nothing: ^L
/// redraws the same cells, and a move at the end of what it moves through
/// (Up on the first row) is answered by the cursor staying put, as
/// everywhere else.
fn silent_by_design(key: Key, action: &Action) -> bool {
    key == Key::Ctrl('l')
        || matches!(
            action,
            Action::Scroll(_)
                | Action::MoveCursor(_)
                | Action::BallotMove(_)
                | Action::PickMove(_)
                | Action::PrevToken
                | Action::NextToken
        )
}

/// What a key may change besides the cells: toggles, focus, the mode of
/// input, the merges made.
fn state(app: &App) -> String {
    format!(
        "{:?} {:?} {:?} {} {}",
        app.shown,
        app.focus,
        app.input,
        app.trainer().merges().len(),
        app.encode.text.len()
    )
}

#[test]
fn every_key_of_the_table_acts_or_says_why_not() {
    let mut quiet: Vec<String> = Vec::new();
    for name in STATES {
        let mut base = app_in(name);
        let before = screen(&mut base);
        for b in BINDINGS {
            for &key in b.keys {
                let Some(event) = event_of(key) else { continue };
                let mut app = app_in(name);
                let Some(action) = action_of_key(&app, &event) else {
                    // A key the table binds somewhere but that no state here
                    // takes: it must still answer when a letter.
                    if matches!(event.code, KeyCode::Char(_)) {
                        quiet.push(format!("{name}: {} has no action", key.label()));
                    }
                    continue;
                };
                // Y, S and W write files where the explorer runs (their
                // own tests write to scratch folders instead).
                let writes_a_file = matches!(
                    action,
                    Action::SaveEncoded | Action::SaveScreen | Action::SaveFertility
                );
                if silent_by_design(key, &action) || writes_a_file {
                    continue;
                }
                let said = format!("{name}: {} ({action:?})", key.label());
                let was = state(&app);
                update(&mut app, action);
                common::finish_job(&mut app);
                let answered = app.quit
                    || app.notice.is_some()
                    || state(&app) != was
                    || screen(&mut app) != before;
                if !answered && !quiet.contains(&said) {
                    quiet.push(said);
                }
            }
        }
    }
    assert!(
        quiet.is_empty(),
        "keys that did nothing and said nothing:\n{}",
        quiet.join("\n")
    );
}

/// `Q` with no class lets a teacher rehearse the question alone: the
/// pair table becomes the ballot, `Q` again shows the (empty) tally, and
/// moving on reveals the answer and ends the rehearsal.
#[test]
fn q_without_a_class_rehearses_the_question() {
    let mut app = app_in("merged");
    update(&mut app, Action::Advance); // counted
    let winner = app.trainer().peek_choice().unwrap().pair;
    let q = KeyEvent::new(KeyCode::Char('Q'), KeyModifiers::NONE);
    let ask = action_of_key(&app, &q).expect("Q acts outside a class");
    update(&mut app, ask);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("rehearsal") && notice.contains("which pair wins?"),
        "{notice}"
    );
    let rows = screen(&mut app);
    assert!(
        rows.iter().any(|r| r.contains("Which pair wins?")),
        "{}",
        rows.join("\n")
    );
    assert!(rows.iter().all(|r| !r.contains('…')), "{}", rows.join("\n"));
    let again = action_of_key(&app, &q).unwrap();
    update(&mut app, again.clone());
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("tally"), "{again:?}: {notice}");
    update(&mut app, Action::Advance); // chosen: the answer
    update(&mut app, Action::Publish); // as the loop does after every event
    let said = app.notice.clone().unwrap_or_default();
    let label = bpeek::tui::class::question::pair_label(&app, winner);
    assert_eq!(said, format!("{label} wins (a rehearsal: nobody voted)"));
    assert!(
        app.classroom.is_none(),
        "the rehearsal ends with its question"
    );
}
