//! What the screen says must be true and plain: stop reasons in words, said
//! when they happen; every training option shown; no numbers before there
//! is something to count; prompts that refuse what they cannot take.

mod common;
mod scratch;

use bpeek::bpe::{Digits, Mode};
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::action::Toggle;
use bpeek::tui::app::{Focus, InputMode};
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use common::{press, rows_of};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use scratch::Scratch;

fn app_with(options: TrainingOptions) -> App {
    App::from_options(&options, Theme::plain()).unwrap()
}

fn play_with_budget(merges: usize) -> App {
    app_with(TrainingOptions {
        corpus_name: Some("play".into()),
        mode: Mode::Char,
        merges: Some(merges),
        ..TrainingOptions::default()
    })
}

fn screen(app: &mut App, width: u16, height: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new([])).unwrap();
    rows_of(terminal.backend())
}

fn key(code: KeyCode) -> Event {
    Event::Key(crossterm::event::KeyEvent::from(code))
}

#[test]
fn the_last_merge_of_the_budget_says_so_at_once() {
    let mut app = play_with_budget(2);
    press(&mut app, [Event::char('n')]);
    assert!(app.notice.is_none());
    press(&mut app, [Event::char('n')]);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("merge 2 was the last"), "{notice}");
    assert!(notice.contains("merge budget reached"), "{notice}");
    let rows = screen(&mut app, 100, 30);
    assert!(
        rows[0].contains("stopped: merge budget reached"),
        "{}",
        rows[0]
    );
    // The footer no longer offers to train.
    app.notice = None;
    let rows = screen(&mut app, 100, 30);
    let footer = rows.last().unwrap();
    assert!(!footer.contains("n next"), "{footer}");
    assert!(footer.contains("p undo"), "{footer}");
    // Autoplay has nothing to play, and says so.
    press(&mut app, [Event::char('a')]);
    assert!(!app.autoplay.on);
    assert!(
        app.notice
            .as_deref()
            .is_some_and(|n| n.contains("nothing to play")),
        "{:?}",
        app.notice
    );
}

#[test]
fn stop_reasons_are_words_not_codes() {
    let mut app = app_with(TrainingOptions {
        corpus_name: Some("play".into()),
        min_count: 5,
        ..TrainingOptions::default()
    });
    update(&mut app, Action::Goto(1000));
    let rows = screen(&mut app, 120, 30);
    assert!(rows[0].contains("best count below minimum"), "{}", rows[0]);
    assert!(!rows[0].contains("min_count"), "{}", rows[0]);
}

#[test]
fn rates_have_the_right_plural() {
    let mut app = play_with_budget(50);
    press(&mut app, [Event::char('-')]);
    assert!(
        app.notice.as_deref().unwrap().contains("1 merge/s"),
        "{:?}",
        app.notice
    );
    press(&mut app, [Event::char('-')]);
    assert!(app.notice.as_deref().unwrap().contains("0.5 merges/s"));
}

#[test]
fn the_status_line_shows_every_option_that_is_not_the_default() {
    let mut app = app_with(TrainingOptions {
        digits: Digits::Single,
        min_count: 2,
        specials: vec!["<|eot|>".into(), "<|eot|>".into(), "<|pad|>".into()],
        ..TrainingOptions::default()
    });
    let rows = screen(&mut app, 160, 30);
    let status = &rows[0];
    assert!(status.contains("digits single"), "{status}");
    assert!(status.contains("min 2"), "{status}");
    // A repeated special counts once, in the vocabulary as in `bpeek train`.
    assert!(status.contains("+2 specials"), "{status}");
    assert!(status.contains("vocab 258"), "{status}");
}

#[test]
fn the_encode_box_shows_no_numbers_while_its_tokenizer_loads() {
    let mut app = common::play();
    press(&mut app, [Event::char('e')]);
    update(&mut app, Action::Paste("hello world".into()));
    press(&mut app, [key(KeyCode::Esc)]);
    while app.toks.selected_slot().label != "gpt2" {
        press(&mut app, [Event::char('t')]);
    }
    // gpt2 is asked for, but no load has come back.
    let rows = screen(&mut app, 100, 30);
    let text = rows.join("\n");
    assert!(text.contains("gpt2 is loading"), "{text}");
    assert!(!text.contains("0 tokens"), "{text}");
    assert!(!text.contains("B/token"), "{text}");
}

#[test]
fn the_go_to_prompt_refuses_what_is_not_a_number_and_waits_for_one() {
    let mut app = common::play();
    press(&mut app, [Event::char('g'), Event::char('x')]);
    assert!(
        app.notice
            .as_deref()
            .is_some_and(|n| n.contains("not a digit")),
        "{:?}",
        app.notice
    );
    // An empty Enter keeps the prompt open.
    press(&mut app, [key(KeyCode::Enter)]);
    assert_eq!(app.input, InputMode::Goto(String::new()));
    press(&mut app, [Event::char('3'), key(KeyCode::Enter)]);
    assert_eq!(app.input, InputMode::Normal);
    assert_eq!(app.trainer().merges().len(), 3);
}

#[test]
fn a_seek_that_gets_there_leaves_nothing_to_say() {
    let mut app = common::play();
    update(&mut app, Action::OpenGoto);
    for c in "20".chars() {
        update(&mut app, Action::PromptType(c));
    }
    update(&mut app, Action::PromptSubmit);
    common::finish_job(&mut app);
    assert_eq!(app.notice, None);
    assert_eq!(app.trainer().merges().len(), 20);
    update(&mut app, Action::Reset);
    common::finish_job(&mut app);
    assert_eq!(app.notice, None);
    let _ = screen(&mut app, 100, 30);
    assert_eq!(app.trainer().merges().len(), 0);
}

/// The first row inside the help overlay.
fn first_help_row(rows: &[String]) -> &str {
    let title = rows.iter().position(|r| r.contains(" Keys ")).unwrap();
    &rows[title + 1]
}

#[test]
fn help_scrolls_by_page_and_lists_the_current_view_first() {
    let mut app = common::play();
    press(&mut app, [Event::char('?')]);
    let rows = screen(&mut app, 80, 14);
    assert!(rows.iter().any(|r| r.contains("PgDn: more")), "{rows:?}");
    press(&mut app, [key(KeyCode::End)]);
    let end = app.scroll.help;
    assert!(end > 0);
    press(&mut app, [key(KeyCode::PageDown)]);
    assert_eq!(app.scroll.help, end, "End is the end");
    press(&mut app, [key(KeyCode::PageUp)]);
    assert!(app.scroll.help < end);
    press(&mut app, [key(KeyCode::Home)]);
    assert_eq!(app.scroll.help, 0);
    press(&mut app, [Event::char('?')]);

    // In the fertility view its own keys come first.
    press(&mut app, [Event::char('f'), Event::char('?')]);
    let rows = screen(&mut app, 80, 30);
    assert!(first_help_row(&rows).contains("Fertility view"), "{rows:?}");
    press(&mut app, [key(KeyCode::Esc), Event::char('f')]);
    // With the encode box focused, the encode box's keys come first.
    app.focus = Focus::Encode;
    press(&mut app, [Event::char('?')]);
    let rows = screen(&mut app, 80, 30);
    assert!(first_help_row(&rows).contains("Encode box"), "{rows:?}");
}

#[test]
fn the_selected_merge_adds_to_the_rounds_marks() {
    let mut app = common::play();
    // Two merges, then the next round's pair chosen.
    let keys = "nn..".chars().map(Event::char);
    press(&mut app, keys);
    app.focus = Focus::Merges;
    let rows = screen(&mut app, 100, 30);
    let text = rows.join("\n");
    assert!(text.contains("chosen pair"), "{text}");
    assert!(text.contains("selected"), "{text}");
    assert!(
        rows.iter().any(|r| r.contains('►')),
        "the winner's row shows"
    );
}

#[test]
fn small_screens_and_long_paths_fit() {
    let mut app = common::play();
    let rows = screen(&mut app, 20, 5);
    assert!(rows.iter().any(|r| r.contains("need 40x12")), "{rows:?}");
    assert!(rows.iter().any(|r| r.contains("have 20x5")), "{rows:?}");

    let dir = Scratch::new("a-rather-long-directory-name");
    let path = dir.join("notes-for-the-class.txt");
    std::fs::write(&path, "some text for the class\n").unwrap();
    let mut app = app_with(TrainingOptions {
        corpus: Some(path.display().to_string()),
        ..TrainingOptions::default()
    });
    let rows = screen(&mut app, 80, 24);
    assert!(rows[1].contains("…"), "{}", rows[1]);
    assert!(rows[1].contains("the-class.txt"), "{}", rows[1]);
    assert!(rows[1].contains(" line 1/1 "), "{}", rows[1]);
}

#[test]
fn ascii_says_inf_and_draws_spaces_as_underscores() {
    let mut app = App::from_options(&TrainingOptions::default(), Theme::new(false, true)).unwrap();
    app.shown.set(Toggle::Whitespace, true);
    let rows = screen(&mut app, 100, 30);
    assert!(rows[0].contains("merge 0/inf"), "{}", rows[0]);
    let corpus = &rows[2];
    assert!(corpus.contains('_') && !corpus.contains('.'), "{corpus}");
}

#[test]
fn a_tab_takes_the_same_columns_wherever_it_falls() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    let trainer = Trainer::new(b"\tx\na\tx\nab\tx\n".to_vec(), TrainerConfig::default()).unwrap();
    let mut app = App::from_trainer("tabs", trainer, Theme::plain());
    let rows = screen(&mut app, 100, 30);
    // Each x sits four columns after the end of what comes before its tab.
    assert!(rows[2].starts_with("│    x"), "{}", rows[2]);
    assert!(rows[3].starts_with("│a    x"), "{}", rows[3]);
    assert!(rows[4].starts_with("│ab    x"), "{}", rows[4]);
}

#[test]
fn the_curve_pane_says_whole_sentences_and_counts_one_merge_as_one() {
    let mut app = common::default_app();
    let rows = screen(&mut app, 120, 40);
    assert!(
        rows.iter()
            .any(|r| r.contains("no merges yet: the curve starts with the first merge")),
        "{}",
        rows.join("\n")
    );
    update(&mut app, Action::Step);
    let rows = screen(&mut app, 120, 40);
    assert!(
        rows.iter().any(|r| r.contains("1 merge: ")),
        "{}",
        rows.join("\n")
    );
    assert!(!rows.iter().any(|r| r.contains("1 merges")));
}

/// The titles on the top border of `pane`: the left one and the right one.
fn titles_of(rows: &[String], pane: ratatui::layout::Rect) -> (String, String) {
    let top: String = rows[pane.y as usize]
        .chars()
        .skip(pane.x as usize + 1)
        .take(pane.width.saturating_sub(2) as usize)
        .collect();
    let mut parts = top.split('─').map(str::trim).filter(|s| !s.is_empty());
    let left = parts.next().unwrap_or("").to_string();
    let right = parts.next_back().unwrap_or("").to_string();
    (left, right)
}

#[test]
fn at_80_columns_titles_drop_whole_items_and_merges_keep_their_new_token() {
    for corpus in ["play", "bakery", "low"] {
        let mut app = app_with(TrainingOptions {
            corpus_name: Some(corpus.into()),
            ..TrainingOptions::default()
        });
        press(&mut app, "nnnnnnnd".chars().map(Event::char));
        for (w, h) in [(80, 24), (100, 30), (60, 20)] {
            let rows = screen(&mut app, w, h);
            let panes = bpeek::tui::layout::for_app(&app);
            let trainer = app.trainer();
            let changed = trainer.last_changes().count();
            let pairs = trainer.pairs().len();
            if let Some(pane) = panes.pairs {
                let (left, right) = titles_of(&rows, pane);
                // Either the whole title or the count alone, never "11 o".
                let whole = format!("Pairs changed {changed} of {pairs}");
                let short = format!("Pairs changed {changed}");
                assert!(left == whole || left == short, "{corpus} {w}x{h}: {left:?}");
                assert!(
                    right.is_empty() || right.ends_with(" new") || right.ends_with(" gone"),
                    "{corpus} {w}x{h}: {right:?}"
                );
            }
            if let Some(pane) = panes.merges {
                // Each merge row shows the token it made, whole.
                let body = &rows[pane.y as usize + 2..(pane.y + pane.height) as usize - 1];
                for m in trainer.merges() {
                    let made =
                        bpeek::tui::panes::rows::label(trainer.token_bytes(m.id), &app.theme);
                    let row = body.iter().find(|r| r.contains(&format!(" {} ", m.id)));
                    if let Some(row) = row {
                        assert!(
                            row.contains(&format!("→ {made}")),
                            "{corpus} {w}x{h}: {row:?}"
                        );
                    }
                }
            }
        }
    }
}

/// A letter the key table binds only in another state says what it does
/// and where, instead of doing nothing: every key acts or says why not.
#[test]
fn a_key_bound_elsewhere_says_where_it_works() {
    let said = |keys: &str| {
        let mut app = play_with_budget(5);
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        let events: Vec<Event> = keys.chars().map(Event::char).collect();
        run_loop(&mut terminal, &mut app, &mut ScriptedEvents::new(events)).unwrap();
        let footer = rows_of(terminal.backend())
            .last()
            .cloned()
            .unwrap_or_default();
        (app.notice.clone().unwrap_or_default(), footer)
    };
    let (notice, footer) = said("B");
    assert!(notice.starts_with("B: every tokenizer's cut"), "{notice}");
    assert!(notice.contains("in the fertility view (f)"), "{notice}");
    assert!(
        notice.contains("with the encode box focused (e)"),
        "{notice}"
    );
    assert!(footer.contains("B: every tokenizer's cut"), "{footer}");
    // With no class, Q rehearses the class's question alone.
    let (notice, _) = said("Q");
    assert!(notice.contains("rehearsal, no class"), "{notice}");
    // A letter bound nowhere says nothing; one bound here acts.
    assert_eq!(said("X").0, "");
    assert!(!said("n").0.starts_with("n:"));
}

/// The status line names the score when it is WordPiece's, beside the
/// mode, pre-tokenizer and tie rule: the configuration on screen is the
/// one that trains.
#[test]
fn the_status_line_says_when_wordpiece_scores_the_pairs() {
    let mut app = app_with(TrainingOptions {
        score: bpeek::bpe::Score::WordPiece,
        ..TrainingOptions::default()
    });
    let rows = screen(&mut app, 120, 30);
    assert!(rows[0].contains("score wordpiece"), "{}", rows[0]);
    let mut plain = app_with(TrainingOptions::default());
    let rows = screen(&mut plain, 120, 30);
    assert!(!rows[0].contains("score"), "{}", rows[0]);
}
