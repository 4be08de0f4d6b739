//! One word and one look for one thing on every pane: the ASCII space
//! glyph that no full stop can pass for, one end-of-word glyph, merges
//! counted from 1 wherever they are named, a status line that keeps the
//! configuration at 80 columns, sentences that are never cut, and marks
//! that differ without colour.

mod common;

use bpeek::bpe::{Mode, Score, TieRule, Trainer, TrainerConfig};
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::action::Toggle;
use bpeek::tui::app::Focus;
use bpeek::tui::panes::rows::label;
use bpeek::tui::panes::why;
use bpeek::tui::theme::{Mark, Theme};
use bpeek::tui::{Action, App, ScriptedEvents, run_loop, update};
use common::{catch_up, rows_of};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;

fn screen(app: &mut App, width: u16, height: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new([])).unwrap();
    rows_of(terminal.backend())
}

fn app_on(text: &str, config: TrainerConfig, theme: Theme) -> App {
    let trainer = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
    App::from_trainer("sample", trainer, theme)
}

/// Configurations side by side, each counted.
fn comparing(options: &TrainingOptions, given: &[&str]) -> App {
    let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
    let mut app = bpeek::tui::comparing::app(options, &given, Theme::plain()).unwrap();
    catch_up(&mut app);
    app
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        update(app, Action::Step);
    }
}

#[test]
fn in_ascii_a_full_stop_and_a_space_read_apart() {
    let ascii = Theme::new(false, true);
    // "five. She": the space is `_`, the full stop stays a full stop.
    assert_eq!(label(b"five. She", &ascii), "five._She");
    // The glyph's own character in a text is escaped, so that it never
    // reads as a space either.
    assert_eq!(label(b"snake_case x", &ascii), "snake\\_case_x");
    // Unicode has a glyph no text holds by chance; its literal is escaped too.
    assert_eq!(
        label("a\u{b7}b c".as_bytes(), &Theme::plain()),
        "a\\\u{b7}b\u{b7}c"
    );
    // In running text the glyph is dim and a literal `_` is not.
    let mut app = app_on("five. She_x", TrainerConfig::default(), ascii);
    app.shown.set(Toggle::Whitespace, true);
    let rows = screen(&mut app, 80, 24);
    assert!(rows[2].contains("five._She_x"), "{}", rows[2]);
    assert!(ascii.glyph().add_modifier.contains(Modifier::DIM));
}

#[test]
fn char_modes_end_of_word_is_one_glyph_on_every_pane() {
    let config = TrainerConfig {
        mode: Mode::Char,
        ..TrainerConfig::default()
    };
    let mut app = app_on("low lower lowest low low", config, Theme::plain());
    steps(&mut app, 4);
    let rows = screen(&mut app, 120, 40);
    let all = rows.join("\n");
    assert!(!all.contains("</w>"), "{all}");
    // The merge list names the merges with the glyph: `w + ⌟ → w⌟`.
    assert!(all.contains("w⌟"), "{all}");
}

#[test]
fn compare_columns_draw_the_end_of_word_as_the_corpus_does() {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        mode: Mode::Char,
        ..TrainingOptions::default()
    };
    let mut app = comparing(&options, &["", "--tie lex"]);
    for _ in 0..3 {
        update(&mut app, Action::Step);
        catch_up(&mut app);
    }
    let rows = screen(&mut app, 120, 40);
    let all = rows.join("\n");
    assert!(!all.contains("</w>"), "{all}");
    // Merges in the columns are counted from 1, as the status line counts.
    assert!(rows[0].contains("merge 3/"), "{}", rows[0]);
    assert!(all.contains(">1") || all.contains(" 1 "), "{all}");
    assert!(all.contains(" 3"), "{all}");
}

#[test]
fn the_first_merge_is_merge_1_in_the_status_line_the_list_and_the_why() {
    let mut app = app_on("he he he hello", TrainerConfig::default(), Theme::plain());
    steps(&mut app, 1); // one merge made
    assert_eq!(app.trainer().merges().len(), 1);
    let said = why::line(&app).unwrap();
    assert!(said.starts_with("merge 1 made "), "{said}");
    let rows = screen(&mut app, 120, 40);
    assert!(rows[0].contains("merge 1/"), "{}", rows[0]);
    // The list's first row is numbered 1, and no row 0.
    let list: Vec<&String> = rows.iter().filter(|r| r.contains(" → ")).collect();
    assert!(
        list.iter().any(|r| r.contains("│1 ") || r.contains("│ 1 ")),
        "{list:?}"
    );
    // The selected merge says the same number.
    app.focus = Focus::Merges;
    app.scroll.merge_cursor = Some(0);
    let said = why::line(&app).unwrap();
    assert!(said.starts_with("merge 1: "), "{said}");
}

#[test]
fn a_rank_file_names_a_rank_and_a_merge_list_a_merge() {
    use bpeek::tui::panes::merge_number::Numbering;
    assert_eq!(Numbering::List.name(418), "merge 419");
    assert_eq!(Numbering::Ranks.name(674), "rank 674");
    assert_eq!(Numbering::List.place(419), 418);
    assert_eq!(Numbering::Ranks.place(674), 674);
}

#[test]
fn at_80_columns_the_status_line_keeps_the_whole_configuration() {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        mode: Mode::Char,
        score: Score::WordPiece,
        tie: TieRule::Lex,
        ..TrainingOptions::default()
    };
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    steps(&mut app, 1);
    let rows = screen(&mut app, 80, 24);
    let status = &rows[0];
    for word in ["char", "words", "lex", "wordpiece", "merge 1/"] {
        assert!(status.contains(word), "{word}: {status}");
    }
}

#[test]
fn in_a_comparison_the_status_line_names_the_focused_column() {
    let options = TrainingOptions {
        corpus_name: Some("play".into()),
        ..TrainingOptions::default()
    };
    let mut app = comparing(&options, &["", "--tie lex --pretok none"]);
    update(&mut app, Action::FocusColumn(true));
    catch_up(&mut app);
    let rows = screen(&mut app, 80, 24);
    assert!(
        rows[0].contains("B: byte none lex") || rows[0].contains("B: byte none tie lex"),
        "{}",
        rows[0]
    );
}

#[test]
fn no_sentence_is_cut_at_80x24() {
    let options = TrainingOptions {
        corpus_name: Some("bakery".into()),
        mode: Mode::Char,
        score: Score::WordPiece,
        ..TrainingOptions::default()
    };
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    steps(&mut app, 7);
    for focus in [Focus::Pairs, Focus::Merges, Focus::Corpus] {
        app.focus = focus;
        if focus == Focus::Merges {
            app.scroll.merge_cursor = Some(1);
        }
        let rows = screen(&mut app, 80, 24);
        for row in &rows[1..rows.len() - 1] {
            assert!(
                !row.trim_end_matches('│').trim_end().ends_with('…'),
                "{focus:?}: {row}\n{}",
                rows.join("\n")
            );
        }
    }
}

#[test]
fn a_pair_in_the_why_sentence_stays_on_one_row() {
    let mut app = app_on(
        "ab ab cd cd ef ef gh gh",
        TrainerConfig::default(),
        Theme::plain(),
    );
    // The chosen phase of the second round: a tie, its rivals listed.
    steps(&mut app, 1);
    update(&mut app, Action::Advance);
    update(&mut app, Action::Advance);
    let line = why::line(&app).unwrap();
    assert!(line.contains(" + ") && line.contains("tied with"), "{line}");
    for cols in 12..60 {
        let rows = why::rows(&app, cols, 100).unwrap();
        for r in &rows {
            assert!(
                !r.ends_with(" +") && !r.starts_with("+ "),
                "{cols}: {rows:?}"
            );
            assert!(!r.ends_with('+') && !r.starts_with('+'), "{cols}: {rows:?}");
        }
        assert_eq!(rows.join(" "), line, "{cols}");
    }
}

#[test]
fn help_rows_wrap_instead_of_being_cut() {
    let mut app = common::default_app();
    update(&mut app, Action::ToggleHelp);
    for _ in 0..8 {
        let rows = screen(&mut app, 80, 24);
        for row in &rows[1..rows.len() - 1] {
            assert!(!row.contains("…│") && !row.contains("… "), "{row}");
        }
        update(
            &mut app,
            Action::Scroll(bpeek::tui::action::Scroll::PageDown),
        );
    }
}

#[test]
fn counts_of_one_are_said_in_the_singular() {
    let mut app = common::default_app();
    update(&mut app, Action::Paste("a".into()));
    common::finish_job(&mut app);
    let rows = screen(&mut app, 120, 40);
    let all = rows.join("\n");
    assert!(
        all.contains("1 byte ") && all.contains("1 char ") && all.contains("1 token "),
        "{all}"
    );
    assert!(
        !all.contains("1 bytes") && !all.contains("1 tokens"),
        "{all}"
    );
}

#[test]
fn without_colour_just_made_and_selected_differ_by_more_than_italic() {
    for ascii in [false, true] {
        let t = Theme::new(false, ascii);
        let plain = |s: ratatui::style::Style| s.add_modifier - Modifier::ITALIC;
        let made = plain(t.token(false, Mark::Applied));
        let made_odd = plain(t.token(true, Mark::Applied));
        let selected = plain(t.token(false, Mark::Selected));
        let selected_odd = plain(t.token(true, Mark::Selected));
        let inside = plain(t.token(true, Mark::Inside));
        // Reverse video is the token just made's, never the selected one's.
        assert!(made.contains(Modifier::REVERSED) && made_odd.contains(Modifier::REVERSED));
        assert!(!selected.contains(Modifier::REVERSED));
        // Every token of the selected merge looks the same: the alternating
        // underline cannot make a later token look selected.
        assert_eq!(selected, selected_odd);
        assert_ne!(inside, selected);
        let unmarked_odd = plain(t.token(true, Mark::None));
        assert_ne!(unmarked_odd, selected);
    }
}

/// A byte pair across two characters (the last byte of 美 and the first
/// of 味) marks both characters in the corpus, not the second alone.
#[test]
fn a_pair_across_two_characters_marks_both() {
    use bpeek::bpe::Pretok;
    let config = TrainerConfig {
        pretok: Pretok::None,
        // Every pair of 美味美味... is met four times but the last; the
        // smallest, 8E E5 (美's last byte, 味's first), wins the tie.
        tie: TieRule::Lex,
        ..TrainerConfig::default()
    };
    let mut app = app_on("美味美味美味美味", config, Theme::plain());
    update(&mut app, Action::Advance); // chosen
    let pair = app.trainer().peek_choice().unwrap().pair;
    assert_eq!(pair, (0x8E, 0xE5), "the pair across 美 and 味");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    common::redraw_whole(&mut terminal, &mut app);
    let buf = terminal.backend().buffer().clone();
    let marked = |ch: &str| {
        let cells: Vec<_> = (0..80u16)
            .map(|x| &buf[(x, 2)])
            .filter(|c| c.symbol() == ch)
            .collect();
        assert!(!cells.is_empty(), "{ch} on the corpus's first row");
        cells
            .iter()
            .filter(|c| c.modifier.contains(Modifier::REVERSED))
            .count()
    };
    // Each of the four 美 ends an occurrence of the pair, and each 味
    // begins one: every one of them is in reverse video.
    assert_eq!(marked("美"), 4);
    assert_eq!(marked("味"), 4);
}
