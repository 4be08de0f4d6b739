//! The explorer's model, driven by actions: what the screen will show after
//! a teacher presses a few keys.

use bpeek::bpe::Mode;
use bpeek::bpe::Phase;
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::app::{Focus, InputMode};
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, update};

mod common;
use common::{play, press};

/// Each action, then what it left for the loop to run (the rest of a
/// long action, a slice per frame).
fn run(app: &mut App, actions: impl IntoIterator<Item = Action>) {
    for a in actions {
        update(app, a);
        common::finish_job(app);
    }
}

fn made(app: &App) -> Vec<String> {
    let t = app.trainer();
    t.merges()
        .iter()
        .map(|m| String::from_utf8_lossy(t.vocab().token_bytes(m.id)).into_owned())
        .collect()
}

#[test]
fn next_and_undo_make_and_take_back_merges() {
    let mut app = play();
    run(&mut app, [Action::Step, Action::Step]);
    assert_eq!(made(&app), ["pl", "pla"]);
    assert_eq!(app.trainer().phase(), &Phase::Merged);
    run(&mut app, [Action::Undo]);
    assert_eq!(made(&app), ["pl"]);
    assert_eq!(app.trainer().phase(), &Phase::Counted);
}

#[test]
fn undo_at_merge_zero_says_so() {
    let mut app = play();
    run(&mut app, [Action::Undo]);
    assert!(app.trainer().merges().is_empty());
    assert_eq!(app.notice.as_deref(), Some("at merge 0: nothing to undo"));
}

#[test]
fn the_phase_key_walks_through_a_round() {
    let mut app = play();
    run(&mut app, [Action::Advance]);
    let Phase::Chosen(choice) = app.trainer().phase() else {
        panic!("expected the chosen phase, got {:?}", app.trainer().phase());
    };
    assert_eq!(choice.pair, (b'p' as u32, b'l' as u32));
    assert!(
        app.trainer().merges().is_empty(),
        "chosen is not yet merged"
    );
    run(&mut app, [Action::Advance]);
    assert_eq!(app.trainer().phase(), &Phase::Merged);
    assert_eq!(made(&app), ["pl"]);
    run(&mut app, [Action::Advance]);
    assert_eq!(app.trainer().phase(), &Phase::Counted);
    // Undo in the chosen phase only takes the choice back.
    run(&mut app, [Action::Advance, Action::Undo]);
    assert_eq!(made(&app), ["pl"]);
    assert_eq!(app.trainer().phase(), &Phase::Counted);
}

#[test]
fn go_to_takes_digits_and_seeks() {
    let mut app = play();
    press(
        &mut app,
        [
            Event::char('g'),
            Event::char('1'),
            Event::char('x'),
            Event::char('2'),
        ],
    );
    assert_eq!(app.input, InputMode::Goto("12".into()));
    press(&mut app, [Event::key(crossterm::event::KeyCode::Enter)]);
    assert_eq!(app.input, InputMode::Normal);
    assert_eq!(app.trainer().merges().len(), 12);
    run(&mut app, [Action::Goto(3)]);
    assert_eq!(made(&app), ["pl", "pla", "play"]);
    run(&mut app, [Action::Reset]);
    assert!(app.trainer().merges().is_empty());
}

#[test]
fn going_past_the_end_stops_where_training_stops() {
    let mut app = play();
    run(&mut app, [Action::Goto(100_000)]);
    let reached = app.trainer().merges().len();
    assert!(reached < 100_000);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with(&format!("training stops at merge {reached}")),
        "{notice}"
    );
    run(&mut app, [Action::Step]);
    assert_eq!(app.trainer().merges().len(), reached);
    assert!(
        app.notice
            .as_deref()
            .unwrap_or_default()
            .starts_with("training stopped")
    );
}

#[test]
fn tab_cycles_the_focus_both_ways() {
    let mut app = play();
    assert_eq!(app.focus, Focus::Corpus);
    let mut seen = Vec::new();
    for _ in 0..4 {
        run(&mut app, [Action::FocusNext]);
        seen.push(app.focus);
    }
    assert_eq!(
        seen,
        [Focus::Pairs, Focus::Merges, Focus::Encode, Focus::Corpus]
    );
    run(&mut app, [Action::FocusPrev]);
    assert_eq!(app.focus, Focus::Encode);
}

#[test]
fn while_editing_letters_are_text_and_esc_leaves() {
    let mut app = play();
    press(&mut app, [Event::char('e')]);
    assert_eq!(app.input, InputMode::Editing);
    assert_eq!(app.focus, Focus::Encode);
    press(
        &mut app,
        [Event::char('q'), Event::char('n'), Event::char(' ')],
    );
    assert_eq!(app.encode.text, "qn ");
    assert!(!app.quit, "q typed into the box does not quit");
    assert!(
        app.trainer().merges().is_empty(),
        "n typed into the box does not step"
    );
    press(&mut app, [Event::key(crossterm::event::KeyCode::Backspace)]);
    assert_eq!(app.encode.text, "qn");
    press(&mut app, [Event::key(crossterm::event::KeyCode::Esc)]);
    assert_eq!(app.input, InputMode::Normal);
    press(&mut app, [Event::char('q')]);
    assert!(app.quit);
}

#[test]
fn ctrl_c_quits_from_anywhere() {
    for setup in [
        vec![],
        vec![Event::char('e')],
        vec![Event::char('?')],
        vec![Event::char('g')],
    ] {
        let mut app = play();
        press(&mut app, setup);
        press(&mut app, [Event::ctrl('c')]);
        assert!(app.quit, "{:?}", app.input);
    }
}

#[test]
fn pasted_text_goes_to_the_encode_box_and_follows_training() {
    let mut app = play();
    run(&mut app, [Action::Paste("play\r\nplayed".into())]);
    assert_eq!(app.input, InputMode::Editing);
    assert_eq!(app.encode.text, "play\nplayed");
    assert_eq!(
        app.encode.tokens(),
        11,
        "one token per byte before any merge"
    );
    run(&mut app, [Action::StopEditing, Action::Goto(3)]);
    assert_eq!(app.encode.tokens(), 5, "play \\n play e d");
    run(&mut app, [Action::ClearEncode]);
    assert_eq!(app.encode.tokens(), 0);
}

#[test]
fn autoplay_steps_on_each_tick_only_while_on() {
    let mut app = play();
    run(&mut app, [Action::Tick]);
    assert!(app.trainer().merges().is_empty());
    run(
        &mut app,
        [Action::ToggleAutoplay, Action::Tick, Action::Tick],
    );
    assert_eq!(app.trainer().merges().len(), 2);
    let speed = app.autoplay.per_second();
    run(&mut app, [Action::Faster]);
    assert!(app.autoplay.per_second() > speed);
    run(&mut app, [Action::Slower, Action::Slower]);
    assert!(app.autoplay.per_second() < speed);
    run(&mut app, [Action::ToggleAutoplay, Action::Tick]);
    assert_eq!(app.trainer().merges().len(), 2);
}

#[test]
fn autoplay_by_phase_shows_each_phase_of_a_round_in_turn() {
    let mut app = play();
    assert_eq!(*app.trainer().phase(), Phase::Counted);
    run(&mut app, [Action::ToggleAutoplayPhases]);
    assert!(app.autoplay.on && app.autoplay.by_phase);
    assert!(
        app.notice
            .as_deref()
            .is_some_and(|n| n.contains("phases/s")),
        "{:?}",
        app.notice
    );
    run(&mut app, [Action::Tick]);
    assert!(matches!(app.trainer().phase(), Phase::Chosen(_)));
    assert!(app.trainer().merges().is_empty(), "chosen, not yet merged");
    run(&mut app, [Action::Tick]);
    assert_eq!(*app.trainer().phase(), Phase::Merged);
    assert_eq!(app.trainer().merges().len(), 1);
    run(&mut app, [Action::Tick]);
    assert_eq!(*app.trainer().phase(), Phase::Counted);
    // `a` while playing by phase plays by merge instead; `a` again stops.
    run(&mut app, [Action::ToggleAutoplay, Action::Tick]);
    assert!(app.autoplay.on && !app.autoplay.by_phase);
    assert_eq!(app.trainer().merges().len(), 2);
    run(&mut app, [Action::ToggleAutoplay, Action::Tick]);
    assert!(!app.autoplay.on);
    assert_eq!(app.trainer().merges().len(), 2);
}

#[test]
fn autoplay_by_phase_turns_itself_off_when_training_stops() {
    let mut app = play();
    run(&mut app, [Action::ToggleAutoplayPhases]);
    for _ in 0..30_000 {
        if !app.autoplay.on {
            break;
        }
        update(&mut app, Action::Tick);
    }
    assert!(!app.autoplay.on);
    assert!(app.training_end().is_some());
}

#[test]
fn autoplay_turns_itself_off_when_training_stops() {
    let mut app = play();
    run(&mut app, [Action::ToggleAutoplay]);
    for _ in 0..10_000 {
        if !app.autoplay.on {
            break;
        }
        update(&mut app, Action::Tick);
    }
    assert!(!app.autoplay.on);
    // It stops at the last merge, without a step that fails.
    assert!(app.training_end().is_some());
}

#[test]
fn each_corpus_keeps_its_place() {
    let mut app = play();
    run(&mut app, [Action::Step, Action::Step, Action::NextCorpus]);
    assert_eq!(app.corpus_name(), "tokens");
    assert!(app.trainer().merges().is_empty());
    run(&mut app, [Action::PrevCorpus]);
    assert_eq!(app.corpus_name(), "play");
    assert_eq!(made(&app), ["pl", "pla"]);
}

#[test]
fn the_merge_list_selects_a_merge_and_follows_new_ones() {
    let mut app = play();
    run(&mut app, [Action::Goto(4)]);
    assert_eq!(app.selected_merge(), None, "no selection without focus");
    run(&mut app, [Action::FocusNext, Action::FocusNext]);
    assert_eq!(app.focus, Focus::Merges);
    assert_eq!(app.selected_merge(), Some(3), "follows the newest");
    run(&mut app, [Action::Scroll(bpeek::tui::action::Scroll::Up)]);
    assert_eq!(app.selected_merge(), Some(2));
    run(&mut app, [Action::Step]);
    assert_eq!(app.selected_merge(), Some(2), "a chosen row stays chosen");
    run(
        &mut app,
        [Action::Scroll(bpeek::tui::action::Scroll::Bottom)],
    );
    run(&mut app, [Action::Step]);
    assert_eq!(app.selected_merge(), Some(5), "back at the end it follows");
}

#[test]
fn find_scrolls_the_corpus_to_the_chosen_pair() {
    let options = TrainingOptions::default();
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    run(&mut app, [Action::FindNext]);
    assert!(
        app.notice
            .as_deref()
            .unwrap_or_default()
            .starts_with("nothing highlighted")
    );
    // Round 0 chooses h + e. The search starts at the top line, so the
    // first place of all comes first: the "he" of "The Harbour Bakery".
    run(&mut app, [Action::Advance, Action::FindNext]);
    assert_eq!(app.scroll.corpus.line, 0);
    let first = app.notice.clone().unwrap_or_default();
    assert!(first.contains(": 1 of "), "{first}");
    // On to the next line that has one.
    while app.scroll.corpus.line == 0 {
        run(&mut app, [Action::FindNext]);
    }
    assert_eq!(app.scroll.corpus.line, 2);
    let first = app.notice.clone().unwrap_or_default();
    // Each press goes on to the next place, counting them, and on to the
    // next line once this one's places are passed.
    let count = |notice: &str| -> (usize, usize) {
        let (k, n) = notice
            .rsplit_once(": ")
            .unwrap()
            .1
            .split_once(" of ")
            .unwrap();
        (
            k.parse().unwrap(),
            n.split(' ').next().unwrap().parse().unwrap(),
        )
    };
    let (k, n) = count(&first);
    let mut presses = 0;
    while app.scroll.corpus.line == 2 {
        run(&mut app, [Action::FindNext]);
        presses += 1;
        let (k2, n2) = count(app.notice.as_deref().unwrap());
        assert_eq!((k2, n2), (k + presses, n));
    }
    assert!(app.scroll.corpus.line > 2);
}

#[test]
fn char_mode_shows_unseen_characters_as_unk() {
    let options = TrainingOptions {
        corpus_name: Some("low".into()),
        mode: Mode::Char,
        ..TrainingOptions::default()
    };
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    run(&mut app, [Action::Paste("lowz".into())]);
    let shown: Vec<String> = app
        .encode
        .encoded()
        .iter()
        .map(|t| String::from_utf8_lossy(&t.bytes).into_owned())
        .collect();
    assert_eq!(shown, ["l", "o", "w", "[UNK]", "</w>"]);
}

#[test]
fn the_help_key_opens_and_closes_the_overlay() {
    let mut app = play();
    press(&mut app, [Event::char('?')]);
    assert_eq!(app.input, InputMode::Help);
    press(&mut app, [Event::char('n')]);
    assert!(
        app.trainer().merges().is_empty(),
        "keys do not reach training under help"
    );
    press(&mut app, [Event::key(crossterm::event::KeyCode::Esc)]);
    assert_eq!(app.input, InputMode::Normal);
}
