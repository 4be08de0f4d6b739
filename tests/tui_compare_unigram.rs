//! A Unigram column beside BPE columns (`bpeek tui --compare ""
//! --compare "--model unigram"`): it holds exactly what `bpeek train
//! --model unigram --vocab-size N` trains, N being column A's vocabulary
//! as the status line counts it, wherever training goes; it draws at
//! 80x24 with and without colour; the chart puts both kinds of curve on
//! one size axis; keys that mean nothing for it say so; and a class trains
//! it once for everyone.

mod common;

use bpeek::bpe::formats::unigram_json;
use bpeek::bpe::train::unigram::{UnigramTrainer, UnigramVocabulary};
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::compare::UnigramColumn;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, update};
use common::{catch_up, press, rows_of};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

fn comparing_with(given: &[&str], theme: Theme) -> App {
    let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
    let mut app = bpeek::tui::comparing::app(&TrainingOptions::default(), &given, theme).unwrap();
    catch_up(&mut app);
    app
}

fn comparing(given: &[&str]) -> App {
    comparing_with(given, Theme::plain())
}

fn keys(app: &mut App, typed: &str) {
    for ch in typed.chars() {
        press(app, [Event::char(ch)]);
        catch_up(app);
    }
}

fn go_to(app: &mut App, merge: usize) {
    keys(app, &format!("g{merge}"));
    press(app, [Event::key(KeyCode::Enter)]);
    catch_up(app);
}

fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend())
}

fn unigram(app: &App, i: usize) -> &UnigramColumn {
    app.compare.as_ref().unwrap().columns[i]
        .unigram
        .as_ref()
        .expect("a Unigram column")
}

/// Column A's vocabulary as the status line says it (`vocab 296`).
fn status_vocab(app: &mut App) -> usize {
    let rows = screen(app, 120, 40);
    let at = rows[0]
        .find("vocab ")
        .expect("the status line says the vocabulary");
    rows[0][at + 6..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// What `bpeek train --model unigram --vocab-size N` (with `options`)
/// writes: its report's pieces and log-probabilities, and its
/// `tokenizer.json`, ids included.
fn trained_headless(options: &[&str], size: usize) -> (Vec<(String, f64)>, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!(
        "bpeek-compare-unigram-{}-{size}-{}",
        std::process::id(),
        options.join("_").replace(['-', ' '], "")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("tokenizer.json");
    let size = size.to_string();
    let mut args = vec![
        "train",
        "--model",
        "unigram",
        "--vocab-size",
        &size,
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(options);
    let report = common::json_of(&common::bpeek(&args));
    let pieces = report["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["piece"].as_str().unwrap().to_string(),
                p["logp"].as_f64().unwrap(),
            )
        })
        .collect();
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (pieces, file)
}

/// The column's run against the command's: the same pieces in the same
/// order (so the same ids) with the same log-probabilities, and the same
/// file. JSON numbers read back may differ from the written ones in
/// their last bit (the reader's float parsing), so the column's file is
/// written and read back the same way before the two are compared.
#[track_caller]
fn same_as_headless(t: &UnigramTrainer, options: &[&str], size: usize) {
    assert_eq!(t.config().vocab_size, size);
    let (pieces, file) = trained_headless(options, size);
    let mine = t.final_pieces();
    let texts = |p: &[(String, f64)]| p.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&mine), texts(&pieces), "pieces at size {size}");
    for ((text, a), (_, b)) in mine.iter().zip(&pieces) {
        assert!((a - b).abs() <= 1e-14 * a.abs(), "{text}: {a} against {b}");
    }
    let written = unigram_json::to_json(&UnigramVocabulary::of(t).unwrap());
    let read_back: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&written).unwrap()).unwrap();
    assert_eq!(read_back, file, "tokenizer.json at size {size}");
}

#[test]
fn the_unigram_column_holds_what_train_makes_at_column_as_vocabulary_size() {
    let mut app = comparing(&["", "--model unigram"]);
    // At merge 0, A's vocabulary is its 256 bytes.
    assert_eq!(unigram(&app, 1).shown.config().vocab_size, 256);
    for merge in [40, 25, 60] {
        go_to(&mut app, merge);
        let size = status_vocab(&mut app);
        assert_eq!(size, 256 + merge);
        let u = unigram(&app, 1);
        assert!(u.ready(), "trained to {size} after going to {merge}");
        same_as_headless(&u.shown, &[], size);
    }
    // Char mode: words unmarked, as `train --mode char` cuts them.
    let mut app = comparing(&["", "--model unigram --mode char --em-iterations 1"]);
    go_to(&mut app, 30);
    let size = status_vocab(&mut app);
    same_as_headless(
        &unigram(&app, 1).shown,
        &["--mode", "char", "--em-iterations", "1"],
        size,
    );
}

#[test]
fn a_column_given_a_vocabulary_size_keeps_it() {
    let mut app = comparing(&["", "--pretok none", "--model unigram --vocab-size 300"]);
    go_to(&mut app, 12);
    let u = unigram(&app, 2);
    assert_eq!((u.pinned, u.shown.config().vocab_size), (Some(300), 300));
    same_as_headless(&u.shown, &[], 300);
    let rows = screen(&mut app, 80, 24).join("\n");
    assert!(rows.contains("300 pieces (fixed)"), "{rows}");
}

#[test]
fn the_column_says_it_is_training_until_its_run_comes_back() {
    let mut app = comparing(&["", "--model unigram"]);
    // A step moves A's vocabulary to 257: the run goes to another thread
    // (here: waits in the app's work until the loop would spawn it).
    update(&mut app, Action::Step);
    let rows = screen(&mut app, 80, 24).join("\n");
    assert!(rows.contains("training to 257 pieces"), "{rows}");
    assert!(
        rows.contains("256 pieces = A's vocab"),
        "the last run stays: {rows}"
    );
    catch_up(&mut app);
    let rows = screen(&mut app, 80, 24).join("\n");
    assert!(!rows.contains("training to"), "{rows}");
    assert!(rows.contains("257 pieces = A's vocab"), "{rows}");
}

#[test]
fn a_size_asked_for_while_a_run_is_away_starts_from_where_that_run_stopped() {
    let mut app = comparing(&["", "--model unigram"]);
    go_to(&mut app, 10);
    update(&mut app, Action::Step);
    // The run to 267 is taken (a thread started it), then A moves on.
    let away = app.take_work();
    assert_eq!(away.len(), 1);
    update(&mut app, Action::Step);
    for w in away {
        w.run();
    }
    catch_up(&mut app);
    let size = status_vocab(&mut app);
    assert_eq!(size, 268);
    same_as_headless(&unigram(&app, 1).shown, &[], size);
}

#[test]
fn the_columns_draw_at_80_by_24_the_same_with_and_without_colour() {
    let mut plain = comparing(&["", "--pretok none", "--model unigram"]);
    let mut coloured = comparing_with(
        &["", "--pretok none", "--model unigram"],
        Theme::new(true, false),
    );
    for app in [&mut plain, &mut coloured] {
        go_to(app, 20);
    }
    let rows = screen(&mut plain, 80, 24);
    assert_eq!(rows, screen(&mut coloured, 80, 24));
    let text = rows.join("\n");
    assert!(
        rows.iter()
            .all(|r| unicode_width::UnicodeWidthStr::width(r.as_str()) <= 80)
    );
    assert!(text.contains(" C model unigram "), "{text}");
    let t = Arc::clone(&unigram(&plain, 2).shown);
    assert!(text.contains("276 pieces = A's vocab"), "{text}");
    let tokens = t.last_step().tokens;
    let bytes = plain.trainer().corpus().source_len();
    let figure = format!("{tokens} tok, {:.2} B/tok", bytes as f64 / tokens as f64);
    assert!(text.contains(&figure), "{figure} in\n{text}");
    // The most probable piece heads the list.
    let (best, logp) = t.final_pieces()[0].clone();
    let row = format!("{logp:>7.2} {best}");
    assert!(text.contains(&row), "{row} in\n{text}");
    // The merge lists of A and B still part where they part.
    assert!(text.contains("> from merge"), "{text}");

    // z: one chart, tokens against vocabulary size, every column's now.
    keys(&mut plain, "z");
    let rows = screen(&mut plain, 80, 24);
    let title = rows
        .iter()
        .find(|r| r.contains("Corpus tokens by vocabulary size"))
        .unwrap_or_else(|| panic!("one chart:\n{}", rows.join("\n")));
    let a = plain.trainer().corpus_tokens();
    assert!(title.contains(&format!("A {a} ")), "{title}");
    assert!(title.contains(&format!("C {tokens} ")), "{title}");
    let chart = rows.join("\n");
    assert!(chart.contains("(log)"), "{chart}");
    // The Unigram run's largest size (its seeds) ends the axis.
    let seeds = t.steps()[0].pieces + t.config().reserved();
    assert!(chart.contains(&format!("vocab {seeds}")), "{chart}");
    let plotted = rows[2..9].iter().filter(|r| r.contains('C')).count();
    assert!(plotted > 0, "the Unigram points are drawn:\n{chart}");
}

/// Each column's cut of the encode box's text (`e`, typed), as its own
/// tokenizer cuts it: column A's trainer's, and the Unigram run's
/// vocabulary as `train --out` writes it.
#[test]
fn each_column_shows_its_cut_of_the_encode_text() {
    let mut app = comparing(&["", "--model unigram"]);
    go_to(&mut app, 30);
    let typed = "the baker bakes bread at five";
    press(&mut app, [Event::char('e')]);
    press(&mut app, typed.chars().map(Event::char));
    press(&mut app, [Event::key(KeyCode::Esc)]);
    catch_up(&mut app);
    let theme = Theme::plain();
    let words = |tok: &bpeek::bpe::Tokenizer| {
        let ids = tok.encode(typed, false);
        let labels: Vec<String> = ids
            .iter()
            .map(|&id| bpeek::tui::panes::rows::word_label(tok.bytes_of(id), &theme, false))
            .collect();
        format!("{} tok: {}", ids.len(), labels.join(theme.glyphs.separator))
    };
    let bpe = words(&app.trainer().tokenizer());
    let v = UnigramVocabulary::of(&unigram(&app, 1).shown).unwrap();
    let uni = words(&unigram_json::tokenizer(&v, "unigram").unwrap());
    let rows = screen(&mut app, 120, 40).join("\n");
    assert!(rows.contains(&bpe), "{bpe} in\n{rows}");
    assert!(rows.contains(&uni), "{uni} in\n{rows}");
    // A step moves A's cut and, once its run is back, the Unigram one.
    keys(&mut app, "n");
    let bpe = words(&app.trainer().tokenizer());
    let rows = screen(&mut app, 120, 40).join("\n");
    assert!(rows.contains(&bpe), "{bpe} in\n{rows}");
    let v = UnigramVocabulary::of(&unigram(&app, 1).shown).unwrap();
    assert_eq!(v.len(), 287);
    let uni = words(&unigram_json::tokenizer(&v, "unigram").unwrap());
    assert!(rows.contains(&uni), "{uni} in\n{rows}");
}

#[test]
fn keys_that_mean_nothing_for_a_unigram_column_say_so() {
    let mut app = comparing(&["", "--model unigram"]);
    keys(&mut app, ">");
    let c = app.compare.as_ref().unwrap();
    assert_eq!(c.focused, 0);
    assert!(
        app.notice.as_deref().unwrap().contains("Unigram column"),
        "{:?}",
        app.notice
    );
    keys(&mut app, "O");
    assert_eq!(app.compare.as_ref().unwrap().columns.len(), 2);
    assert!(
        app.notice.as_deref().unwrap().contains("last BPE column"),
        "{:?}",
        app.notice
    );
    // With another BPE column, > skips the Unigram one.
    let mut app = comparing(&["", "--model unigram", "--pretok none"]);
    keys(&mut app, ">");
    assert_eq!(app.compare.as_ref().unwrap().focused, 2);
    keys(&mut app, ">");
    assert_eq!(app.compare.as_ref().unwrap().focused, 0);
    // Dropping A focuses C; B still follows (now C's vocabulary).
    keys(&mut app, "O");
    let c = app.compare.as_ref().unwrap();
    assert_eq!(c.columns.len(), 2);
    assert!(c.columns[0].is_unigram());
    assert_eq!(c.focused, 1);
    go_to(&mut app, 15);
    let size = status_vocab(&mut app);
    assert_eq!(unigram(&app, 0).shown.config().vocab_size, size);
    // Autoplay ticks move the Unigram column too.
    keys(&mut app, "a");
    for _ in 0..5 {
        update(&mut app, Action::Tick);
        catch_up(&mut app);
    }
    keys(&mut app, "a");
    let size = status_vocab(&mut app);
    assert!(size > 256 + 15);
    assert_eq!(unigram(&app, 0).shown.config().vocab_size, size);
}

#[test]
fn a_class_trains_a_unigram_column_once_and_a_student_left_waiting_trains_it_itself() {
    use bpeek::tui::class::Role;
    let class = common::class();
    let mut seats = Vec::new();
    let mut seated = |role| {
        common::seated_in(
            &class,
            role,
            &mut seats,
            comparing(&["", "--model unigram"]),
        )
    };
    let mut teacher = seated(Role::Teacher);
    let mut first = seated(Role::Student);
    let mut second = seated(Role::Student);
    // A follower goes where the teacher stands; the Unigram run it would
    // start stays in its work, as the loop would hand it to a thread.
    let follow = |s: &mut App| {
        update(s, Action::ClassChanged);
        while s.jobs.current.is_some() {
            update(s, Action::JobMore);
        }
    };

    // The teacher trains the column to 276 at merge 20 and keeps it for
    // the class; the students take it, not train it.
    go_to(&mut teacher, 20);
    update(&mut teacher, Action::Publish);
    let trained = Arc::clone(&unigram(&teacher, 1).shown);
    assert_eq!(trained.config().vocab_size, 276);
    for s in [&mut first, &mut second] {
        follow(s);
        assert!(!unigram(s, 1).training(), "nobody trains it twice");
        assert!(
            Arc::ptr_eq(&unigram(s, 1).shown, &trained),
            "taken, not trained"
        );
    }

    // One step on: the teacher's run to 277 is away on its claim; the
    // students wait for it without blocking, then take it.
    update(&mut teacher, Action::Step);
    update(&mut teacher, Action::Publish);
    assert!(
        unigram(&teacher, 1).training(),
        "a run, on the teacher's claim"
    );
    let away = teacher.take_work();
    for s in [&mut first, &mut second] {
        follow(s);
        assert!(!unigram(s, 1).training(), "nobody trains it twice");
        let c = s.compare.as_ref().unwrap();
        assert!(c.behind && c.waiting);
        assert!(
            screen(s, 80, 24)
                .join("\n")
                .contains("training to 277 pieces")
        );
    }
    for w in away {
        w.run();
    }
    catch_up(&mut teacher);
    let trained = Arc::clone(&unigram(&teacher, 1).shown);
    assert_eq!(trained.config().vocab_size, 277);
    for s in [&mut first, &mut second] {
        update(s, Action::CompareMore);
        catch_up(s);
        assert!(
            Arc::ptr_eq(&unigram(s, 1).shown, &trained),
            "taken, not trained"
        );
    }

    // Next the teacher and then the first student claim the next size and
    // leave before their runs come back: the second, waiting on them,
    // then trains it itself.
    update(&mut teacher, Action::Step);
    update(&mut teacher, Action::Publish);
    assert!(unigram(&teacher, 1).training());
    let teachers_run = teacher.take_work();
    drop(teacher);
    drop(teachers_run);
    follow(&mut first);
    assert!(
        unigram(&first, 1).training(),
        "the teacher's claim went with it"
    );
    let firsts_run = first.take_work();
    follow(&mut second);
    assert!(!unigram(&second, 1).training(), "it waits for the first");
    drop(first);
    drop(firsts_run);
    update(&mut second, Action::CompareMore);
    catch_up(&mut second);
    let size = status_vocab(&mut second);
    assert_eq!(size, 278);
    same_as_headless(&unigram(&second, 1).shown, &[], size);
}
