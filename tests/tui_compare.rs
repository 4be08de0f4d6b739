//! Configurations side by side (`bpeek tui --compare ... --compare ...`,
//! or `o` in the explorer): the columns step together with every training
//! key, the first rank where the merge lists part is marked and said, a
//! merge no other list holds is starred, and a column that stops early
//! says so while the others go on. What is expected is worked out from
//! each column's own trainer and from `bpeek train`, not from the view.

mod common;

use bpeek::bpe::Trainer;
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::compare::{self, Comparison, trainer_of};
use bpeek::tui::theme::Theme;
use bpeek::tui::view::compare::{ONLY_MARK, PART_MARK};
use bpeek::tui::{Action, App, Event, update};
use common::{catch_up, press, rows_of};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The explorer on the bundled default corpus, one column per
/// configuration.
fn comparing(given: &[&str]) -> App {
    let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
    let mut app =
        bpeek::tui::comparing::app(&TrainingOptions::default(), &given, Theme::plain()).unwrap();
    catch_up(&mut app);
    app
}

fn keys(app: &mut App, typed: &str) {
    for ch in typed.chars() {
        press(app, [Event::char(ch)]);
        catch_up(app);
    }
}

/// `g`, the merge, Enter: every column goes there.
fn go_to(app: &mut App, merge: usize) {
    keys(app, &format!("g{merge}"));
    press(app, [Event::key(KeyCode::Enter)]);
    catch_up(app);
}

fn columns(app: &App) -> usize {
    app.compare.as_ref().map_or(0, |c| c.columns.len())
}

fn trainers(app: &App) -> Vec<&Trainer> {
    (0..columns(app))
        .map(|i| trainer_of(app, i).expect("every column has its trainer"))
        .collect()
}

/// Each column's merges as the bytes of their two sides.
fn merge_lists(app: &App) -> Vec<Vec<(Vec<u8>, Vec<u8>)>> {
    trainers(app)
        .into_iter()
        .map(|t| {
            let v = t.vocab();
            t.merges()
                .iter()
                .map(|m| {
                    (
                        v.token_bytes(m.pair.0).to_vec(),
                        v.token_bytes(m.pair.1).to_vec(),
                    )
                })
                .collect()
        })
        .collect()
}

fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend())
}

/// The pairs `bpeek train` merges with these options, by id.
fn trained_headless(options: &str, merges: usize) -> Vec<(u64, u64)> {
    let budget = merges.to_string();
    let mut args = vec!["train", "--merges", &budget, "--format", "json"];
    args.extend(options.split_whitespace());
    let doc = common::json_of(&common::bpeek(&args));
    doc["merges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["pair"][0].as_u64().unwrap(),
                m["pair"][1].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_training_key_moves_all_columns_together() {
    let mut app = comparing(&["", "--pretok none", "--tie lex"]);
    assert_eq!(columns(&app), 3);
    let at = |app: &App| -> Vec<usize> { trainers(app).iter().map(|t| t.merges().len()).collect() };

    keys(&mut app, "nnnnnnnnnn");
    assert_eq!(at(&app), [10, 10, 10]);
    keys(&mut app, "p");
    assert_eq!(at(&app), [9, 9, 9]);
    // One phase on: every column shows the pair it chose.
    keys(&mut app, ".");
    for t in trainers(&app) {
        assert!(
            matches!(t.phase(), bpeek::bpe::Phase::Chosen(_)),
            "{:?}",
            t.phase()
        );
    }
    go_to(&mut app, 40);
    assert_eq!(at(&app), [40, 40, 40]);
    keys(&mut app, "r");
    assert_eq!(at(&app), [0, 0, 0]);
    // Autoplay steps every column on each tick.
    keys(&mut app, "a");
    update(&mut app, Action::Tick);
    update(&mut app, Action::Tick);
    catch_up(&mut app);
    keys(&mut app, "a");
    let after = at(&app);
    assert!(after[0] > 0, "autoplay stepped");
    assert!(after.iter().all(|&n| n == after[0]), "{after:?}");
}

#[test]
fn each_column_merges_what_bpeek_train_merges_with_its_options() {
    let given = [
        "--pretok gpt2",
        "--pretok none",
        "--digits groups3",
        "--tie lex",
    ];
    let mut app = comparing(&given);
    go_to(&mut app, 60);
    for (i, options) in given.iter().enumerate() {
        let headless = trained_headless(options, 60);
        let shown: Vec<(u64, u64)> = trainers(&app)[i]
            .merges()
            .iter()
            .map(|m| (m.pair.0 as u64, m.pair.1 as u64))
            .collect();
        assert_eq!(shown, headless, "column {i}: {options}");
    }
}

#[test]
fn the_first_rank_where_the_lists_part_is_marked_and_said() {
    let mut app = comparing(&["", "--pretok none"]);
    go_to(&mut app, 30);
    let lists = merge_lists(&app);
    let first = (0..30)
        .find(|&r| lists[0][r] != lists[1][r])
        .expect("gpt2 and none part");
    assert_eq!(app.compare.as_ref().unwrap().first, Some(first));

    // Select that rank in the merge lists: every column shows it.
    press(&mut app, [Event::key(KeyCode::Tab)]);
    while app.focus != bpeek::tui::app::Focus::Merges {
        press(&mut app, [Event::key(KeyCode::Tab)]);
    }
    app.scroll.merge_cursor = Some(first);
    let rows = screen(&mut app, 100, 30);
    // Merges are counted from 1 on screen, as the status line counts them.
    let number = first + 1;
    let said = format!("{PART_MARK} from merge {number} on: A merges ");
    let sentence = rows
        .iter()
        .find(|r| r.contains(&said))
        .unwrap_or_else(|| panic!("no sentence {said:?} in\n{}", rows.join("\n")));
    assert!(sentence.contains(", B merges "), "{sentence}");
    let marked = format!("{PART_MARK}{number:>2}");
    let marks = rows
        .iter()
        .map(|r| r.matches(&marked).count())
        .sum::<usize>();
    assert_eq!(
        marks,
        2,
        "both columns mark rank {first}:\n{}",
        rows.join("\n")
    );
}

#[test]
fn a_merge_that_no_other_list_holds_is_starred() {
    let mut app = comparing(&["", "--pretok none"]);
    go_to(&mut app, 12);
    let lists = merge_lists(&app);
    let c = app.compare.as_ref().unwrap();
    for i in 0..2 {
        let other = &lists[1 - i];
        let alone: Vec<bool> = lists[i].iter().map(|m| !other.contains(m)).collect();
        let shown: Vec<bool> = (0..lists[i].len()).map(|r| c.alone(i, r)).collect();
        assert_eq!(shown, alone, "column {}", Comparison::name(i));
    }
    let starred: usize = (0..2)
        .map(|i| (0..lists[i].len()).filter(|&r| c.alone(i, r)).count())
        .sum();
    assert!(starred > 0, "gpt2 and none differ in the first 12 merges");
    // Twelve merges fit in both columns at 100x40: one star per merge alone.
    let rows = screen(&mut app, 100, 40);
    let stars: usize = rows
        .iter()
        .map(|r| {
            // A star right after a rank: `12*h+e`.
            r.match_indices(ONLY_MARK)
                .filter(|(at, _)| r[..*at].ends_with(|ch: char| ch.is_ascii_digit()))
                .count()
        })
        .sum();
    assert_eq!(stars, starred, "{}", rows.join("\n"));
}

#[test]
fn a_column_that_stops_early_says_so_while_the_others_go_on() {
    let mut app = comparing(&["--merges 5", ""]);
    keys(&mut app, "nnnnnnnn");
    let at: Vec<usize> = trainers(&app).iter().map(|t| t.merges().len()).collect();
    assert_eq!(at, [5, 8], "the budget stops A; B goes on");
    let rows = screen(&mut app, 100, 30).join("\n");
    assert!(rows.contains("stopped at 5"), "{rows}");
    assert!(rows.contains("stopped at 5, others go on"), "{rows}");
    // Back again: B steps back first, then both.
    keys(&mut app, "pppp");
    let at: Vec<usize> = trainers(&app).iter().map(|t| t.merges().len()).collect();
    assert_eq!(at, [4, 4]);
}

#[test]
fn o_adds_the_focused_configuration_with_one_option_changed() {
    let mut app = common::default_app();
    keys(&mut app, "nnnnn");
    keys(&mut app, "op");
    assert_eq!(columns(&app), 2);
    let c = app.compare.as_ref().unwrap();
    assert_ne!(c.columns[0].options.pretok, c.columns[1].options.pretok);
    assert_eq!(
        trainers(&app)[1].merges().len(),
        5,
        "the new column stands where A does"
    );
    keys(&mut app, "ot");
    keys(&mut app, "od");
    assert_eq!(columns(&app), 4);
    keys(&mut app, "om");
    assert_eq!(columns(&app), 4, "four at most");
    assert!(
        app.notice.as_deref().unwrap().contains("at most"),
        "{:?}",
        app.notice
    );

    // Focus moves the app's own trainer to the column: its options are the
    // app's now, and stepping still moves all four.
    keys(&mut app, ">");
    assert_eq!(app.compare.as_ref().unwrap().focused, 1);
    assert_eq!(
        app.options.pretok,
        app.compare.as_ref().unwrap().columns[1].options.pretok
    );
    keys(&mut app, "n");
    let at: Vec<usize> = trainers(&app).iter().map(|t| t.merges().len()).collect();
    assert_eq!(at, [6, 6, 6, 6]);
    keys(&mut app, "<<");
    assert_eq!(
        app.compare.as_ref().unwrap().focused,
        3,
        "focus wraps around"
    );

    // Dropping a column: the stars and the first difference are those of
    // the columns left.
    keys(&mut app, "O");
    assert_eq!(columns(&app), 3);
    let lists = merge_lists(&app);
    let c = app.compare.as_ref().unwrap();
    for (i, list) in lists.iter().enumerate() {
        for (r, m) in list.iter().enumerate() {
            let elsewhere = lists
                .iter()
                .enumerate()
                .any(|(j, l)| j != i && l.contains(m));
            assert_eq!(c.alone(i, r), !elsewhere, "column {i} rank {r}");
        }
    }
    let first = (0..6).find(|&r| lists.iter().any(|l| l[r] != lists[0][r]));
    assert_eq!(c.first, first);

    // Dropping down to one column ends the comparison.
    keys(&mut app, "OO");
    assert!(app.compare.is_none());
    assert_eq!(app.trainer().merges().len(), 6);
    let rows = screen(&mut app, 80, 24).join("\n");
    assert!(rows.contains("Merges 6"), "{rows}");
}

#[test]
fn the_columns_fit_an_80_by_24_screen_and_the_curves_share_one_chart() {
    let mut app = comparing(&["", "--pretok none", "--tie lex", "--digits groups3"]);
    go_to(&mut app, 50);
    let rows = screen(&mut app, 80, 24);
    for letter in ['A', 'B', 'C', 'D'] {
        assert!(
            rows.iter().any(|r| r.contains(&format!(" {letter} "))),
            "column {letter} titled:\n{}",
            rows.join("\n")
        );
    }
    assert!(
        rows.iter().any(|r| r.contains("pretok none")),
        "{}",
        rows.join("\n")
    );
    assert!(
        rows.iter()
            .all(|r| unicode_width::UnicodeWidthStr::width(r.as_str()) <= 80)
    );
    // z: the corpus pane's place holds every column's curve.
    keys(&mut app, "z");
    let rows = screen(&mut app, 80, 24);
    let title = rows
        .iter()
        .find(|r| r.contains("Corpus tokens by merge"))
        .unwrap_or_else(|| panic!("one chart:\n{}", rows.join("\n")));
    let legend: Vec<String> = trainers(&app)
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} {}", Comparison::name(i), t.corpus_tokens()))
        .collect();
    assert!(title.contains(&legend.join(" ")), "{title} vs {legend:?}");
    // Every column's curve ends in the chart's last column, on its row.
    let plotted: String = rows[2..12]
        .iter()
        .map(|r| r.chars().rev().nth(1).unwrap())
        .collect();
    assert!(
        plotted.chars().any(|ch| "ABCD&".contains(ch)),
        "{}",
        rows.join("\n")
    );
}

#[test]
fn a_class_follows_the_teachers_comparison_each_student_on_its_own_column() {
    use bpeek::tui::class::Role;
    use bpeek::tui::class::follow;
    let class = common::class();
    let mut seats = Vec::new();
    let mut seated =
        |role| common::seated_in(&class, role, &mut seats, comparing(&["", "--pretok none"]));
    let mut teacher = seated(Role::Teacher);
    let mut first = seated(Role::Student);
    let mut second = seated(Role::Student);
    // The second student looks at column B; following does not move focus.
    keys(&mut second, ">");
    update(&mut second, Action::Publish);

    go_to(&mut teacher, 25);
    update(&mut teacher, Action::Publish);
    for s in [&mut first, &mut second] {
        update(s, Action::ClassChanged);
        catch_up(s);
    }
    let teachers = merge_lists(&teacher);
    for (name, s) in [("first", &first), ("second", &second)] {
        let lens = |l: &Vec<Vec<_>>| l.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(
            lens(&merge_lists(s)),
            lens(&teachers),
            "{name} student's columns"
        );
        assert_eq!(merge_lists(s), teachers, "{name} student's columns");
    }
    assert_eq!(second.compare.as_ref().unwrap().focused, 1);
    assert_eq!(first.compare.as_ref().unwrap().focused, 0);
    // The student on column A takes the teacher's own trainer; the one on
    // B trains B (the teacher shares only its focused column).
    assert!(std::sync::Arc::ptr_eq(
        &first.loaded().trainer,
        &teacher.loaded().trainer
    ));

    // One step of the teacher's moves both students' columns one on.
    keys(&mut teacher, "n");
    update(&mut teacher, Action::Publish);
    for s in [&mut first, &mut second] {
        update(s, Action::ClassChanged);
        catch_up(s);
        let at: Vec<usize> = trainers(s).iter().map(|t| t.merges().len()).collect();
        assert_eq!(at, [26, 26]);
    }

    // A student adds a column of its own and still follows: a column is
    // what this explorer shows, not where training stands.
    let asking = follow::guard(&second, Action::OpenAddColumn);
    assert!(asking.is_some(), "o does not ask to leave the class");
    update(&mut second, Action::OpenAddColumn);
    let add = follow::guard(&second, Action::AddColumn(compare::Change::Tie));
    update(&mut second, add.expect("t does not ask either"));
    catch_up(&mut second);
    assert!(second.classroom.as_ref().unwrap().following);
    keys(&mut teacher, "n");
    update(&mut teacher, Action::Publish);
    update(&mut second, Action::ClassChanged);
    catch_up(&mut second);
    let at: Vec<usize> = trainers(&second).iter().map(|t| t.merges().len()).collect();
    assert_eq!(at, [27, 27, 27]);
}

/// The marks against a naive reading of the lists: a merge is alone when
/// no other list holds it; the lists part at the first rank where any
/// differs from the first list.
fn check_marks(app: &App) {
    let Some(c) = app.compare.as_ref() else {
        return;
    };
    let lists = merge_lists(app);
    assert_eq!(c.lists, lists, "the kept lists are the trainers' merges");
    for (i, list) in lists.iter().enumerate() {
        for (r, m) in list.iter().enumerate() {
            let elsewhere = lists
                .iter()
                .enumerate()
                .any(|(j, l)| j != i && l.contains(m));
            assert_eq!(c.alone(i, r), !elsewhere, "column {i} rank {r}");
        }
    }
    let shortest = lists.iter().map(Vec::len).min().unwrap_or(0);
    let first = (0..shortest).find(|&r| lists.iter().any(|l| l[r] != lists[0][r]));
    assert_eq!(c.first, first);
}

#[test]
fn random_keys_keep_the_marks_true_to_the_lists() {
    for seed in 1..=4 {
        let mut rng = common::Rng(seed);
        let mut app = comparing(&["", "--pretok none"]);
        let moves = [
            "n", "n", "n", "p", ".", "g30\n", "g3\n", "r", "op", "ot", "od", "O", ">", "<",
        ];
        for _ in 0..60 {
            let m = *rng.pick(&moves);
            for ch in m.chars() {
                let event = if ch == '\n' {
                    Event::key(KeyCode::Enter)
                } else {
                    Event::char(ch)
                };
                press(&mut app, [event]);
                catch_up(&mut app);
            }
            check_marks(&app);
            if let Some(c) = app.compare.as_ref() {
                let target = c.target.merges;
                for t in trainers(&app) {
                    let n = t.merges().len();
                    assert!(
                        n == target || (n < target && t.stop_reason().is_some()),
                        "seed {seed}: {n} vs {target}"
                    );
                }
            }
        }
    }
}

/// A full comparison refuses a fifth column at the first key, and the
/// footer offers no key a comparison refuses (training on typed text).
#[test]
fn a_full_comparison_says_so_at_once_and_the_footer_offers_only_what_works() {
    let mut app = comparing(&["", "--tie lex", "--pretok none", "--digits single"]);
    assert_eq!(columns(&app), 4);
    update(&mut app, Action::OpenAddColumn);
    assert_eq!(app.input, bpeek::tui::app::InputMode::Normal);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("4 configurations at most"), "{notice}");
    // Text in the encode box would offer `u train on it` outside a comparison.
    update(&mut app, Action::StartEditing);
    for ch in "the baker".chars() {
        update(&mut app, Action::Type(ch));
    }
    update(&mut app, Action::StopEditing);
    app.notice = None;
    let footer = screen(&mut app, 200, 40)
        .last()
        .cloned()
        .unwrap_or_default();
    assert!(!footer.contains("train on it"), "{footer}");
    update(&mut app, Action::TrainOnTyped);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("bpeek tui FILE"), "{notice}");
    assert!(!notice.contains("--corpus "), "{notice}");
}
