//! The token charts as they are drawn: the compression curve under the
//! merge list and the compared configurations' curves, each with a y axis
//! of tokens (from 0, or marked as cut) and the merge numbers under it; and
//! with `--d-model`, what the vocabulary at the merge shown costs a model.
//! The numbers are checked against training run apart from the screen.

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::comparing;
use bpeek::tui::options::compare::configurations;
use bpeek::tui::theme::Theme;
use bpeek::tui::{App, Event, ScriptedEvents};
use crossterm::event::KeyCode;

mod common;
use common::{catch_up, default_app};

fn screen(app: &mut App, events: ScriptedEvents, width: u16, height: u16) -> Vec<String> {
    common::screen_after(app, events, width, height)
}

/// The tokens of the corpus the options name before any merge and after
/// `merges`, by a trainer of its own.
fn tokens_after(training: &TrainingOptions, merges: usize) -> (u64, u64) {
    let (_, mut t) = bpeek::tui::options::input::build_trainer(training).unwrap();
    let before = t.corpus_tokens();
    for _ in 0..merges {
        t.step().unwrap();
    }
    (before, t.corpus_tokens())
}

fn tokens_of_default_corpus(merges: usize) -> (u64, u64) {
    tokens_after(&TrainingOptions::default(), merges)
}

/// The rows inside the pane whose top border holds `title` (the last
/// such pane on the screen), without its borders.
fn pane(rows: &[String], title: &str) -> Vec<String> {
    let top = rows
        .iter()
        .rposition(|r| r.contains(title))
        .unwrap_or_else(|| panic!("no {title}:\n{}", rows.join("\n")));
    let border: Vec<char> = rows[top].chars().collect();
    let at = rows[top][..rows[top].find(title).unwrap()].chars().count();
    let corner = border[at..].iter().position(|c| *c == '┐' || *c == '+');
    let (left, right) = (at - 2, at + corner.unwrap());
    rows[top + 1..]
        .iter()
        .map(|r| r.chars().collect::<Vec<char>>())
        .take_while(|r| r[left] == '│' || r[left] == '|')
        .map(|r| r[left + 1..right].iter().collect())
        .collect()
}

fn bottom_border(rows: &[String], title: &str) -> String {
    let top = rows.iter().rposition(|r| r.contains(title)).unwrap();
    let n = pane(rows, title).len();
    rows[top + n + 1].clone()
}

#[test]
fn the_curve_starts_at_zero_tokens_and_names_its_merges_at_120x40() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed(&"n".repeat(30)), 120, 40);
    let shown = rows.join("\n");
    let (before, after) = tokens_of_default_corpus(30);
    let curve = pane(&rows, "Corpus tokens by merge");
    assert_eq!(curve.len(), 5, "{shown}");
    let top = format!("{before}┤");
    assert!(curve[0].starts_with(&top), "{shown}");
    assert!(
        curve[3].starts_with("   0┤"),
        "the axis starts at 0:\n{shown}"
    );
    assert!(curve[4].starts_with("     0 "), "{shown}");
    assert!(curve[4].trim_end().ends_with("merge 30"), "{shown}");
    assert!(
        bottom_border(&rows, "Corpus tokens by merge")
            .contains(&format!("▲ 30 merges: {after} tokens")),
        "{shown}"
    );
    // The last column stands `after` tokens tall out of `before` on an
    // axis from 0: in eighths of the four rows, not a sliver at the bottom
    // as a chart scaled between its lowest and highest points draws it.
    let eighths = (after as f64 / before as f64 * 32.0).round() as usize;
    let last_col = 5 + 30;
    let column: Vec<char> = curve[..4]
        .iter()
        .map(|r| r.chars().nth(last_col).unwrap())
        .collect();
    let levels = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let expected: Vec<char> = (0..4)
        .map(|row| levels[eighths.saturating_sub((3 - row) * 8).min(8)])
        .collect();
    assert_eq!(column, expected, "{eighths} eighths:\n{shown}");
    assert!(!shown.contains("params"), "no --d-model, no cost:\n{shown}");
}

#[test]
fn with_a_model_width_the_curve_prices_the_vocabulary_at_the_merge_shown() {
    // Zoomed, the merge list and its curve fit 80x24, in ASCII.
    let mut app = App::from_options(&TrainingOptions::default(), Theme::new(false, true)).unwrap();
    app.d_model = Some(4096);
    let events = ScriptedEvents::typed(&"n".repeat(30))
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::Tab))
        .then(Event::char('z'));
    let rows = screen(&mut app, events, 80, 24);
    let shown = rows.join("\n");
    assert!(rows.iter().all(|r| r.is_ascii()), "{shown}");
    // 256 bytes and 30 merges: 2 x 286 x 4096 = 2,342,912.
    assert!(
        shown.contains("vocab 286 x d 4,096 x 2 = 2.3M params"),
        "{shown}"
    );
    let curve = pane(&rows, "Corpus tokens by merge");
    assert!(curve.iter().any(|r| r.starts_with("   0+")), "{shown}");
    assert!(
        curve.iter().any(|r| r.trim_end().ends_with("merge 30")),
        "{shown}"
    );
    // The selected merge moves the price with it: ten merges up, 276 tokens.
    let events = ScriptedEvents::new((0..10).map(|_| Event::key(KeyCode::Up)));
    let rows = screen(&mut app, events, 80, 24);
    let shown = rows.join("\n");
    let rank = app.selected_merge().unwrap();
    let vocab = 256 + rank + 1;
    let params = 2 * vocab * 4096;
    let short = format!("{:.1}M", params as f64 / 1e6);
    assert!(
        shown.contains(&format!("vocab {vocab} x d 4,096 x 2 = {short} params")),
        "rank {rank}:\n{shown}"
    );
    // Merges are counted from 1: rank 19 is merge 20.
    assert!(
        shown.contains(&format!("after merge {}:", rank + 1)),
        "{shown}"
    );
}

#[test]
fn a_narrow_pane_keeps_the_axis_labels() {
    // The curve in a zoomed merge list at the smallest screens it is
    // drawn on, colour off.
    for (w, h) in [(80, 24), (60, 20), (41, 16)] {
        let mut app = default_app();
        app.d_model = Some(768);
        let events = ScriptedEvents::typed(&"n".repeat(12))
            .then(Event::key(KeyCode::Tab))
            .then(Event::key(KeyCode::Tab))
            .then(Event::char('z'));
        let rows = screen(&mut app, events, w, h);
        let shown = rows.join("\n");
        let curve = pane(&rows, "Corpus tokens by merge");
        assert!(curve.iter().any(|r| r.contains("0┤")), "{w}x{h}:\n{shown}");
        let x_axis = curve
            .iter()
            .find(|r| r.trim_start().starts_with("0 "))
            .unwrap_or_else(|| panic!("{w}x{h}:\n{shown}"));
        assert!(x_axis.trim_end().ends_with("12"), "{w}x{h}:\n{shown}");
        assert!(
            curve.iter().any(|r| r.contains("params")),
            "{w}x{h}:\n{shown}"
        );
    }
}

#[test]
fn compared_curves_share_a_labelled_axis_marked_where_it_is_cut() {
    let given = ["", "--pretok none"];
    for (w, h) in [(80, 24), (120, 40)] {
        let training = TrainingOptions::default();
        let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
        let mut app = comparing::app(&training, &given, Theme::plain()).unwrap();
        for _ in 0..40 {
            common::press(&mut app, [Event::char('n')]);
            catch_up(&mut app);
        }
        common::press(&mut app, [Event::char('z')]);
        let rows = screen(&mut app, ScriptedEvents::new([]), w, h);
        let shown = rows.join("\n");
        let (before, _) = tokens_of_default_corpus(0);
        let least = configurations(&training, &given)
            .unwrap()
            .iter()
            .map(|c| tokens_after(c, 40).1)
            .min()
            .unwrap();
        let chart = pane(&rows, "Corpus tokens by merge");
        assert!(chart[0].starts_with(&format!("{before}┤")), "{shown}");
        let x_axis = chart.last().unwrap();
        assert!(x_axis.trim_start().starts_with("0 "), "{shown}");
        assert!(x_axis.trim_end().ends_with("merge 40"), "{shown}");
        // The curves keep to the top of an axis from 0: it is cut below
        // the lowest, and says so on the axis and under it.
        let bottom = &chart[chart.len() - 2];
        let low: u64 = bottom
            .trim_start()
            .trim_end_matches(|c| c != '┤')
            .trim_end_matches('┤')
            .parse()
            .unwrap_or_else(|_| panic!("{bottom}\n{shown}"));
        assert!(0 < low && low <= least, "{low} vs {least}:\n{shown}");
        assert!(
            chart.iter().any(|r| r.trim_start().starts_with('≈')),
            "{shown}"
        );
        assert!(
            bottom_border(&rows, "Corpus tokens by merge").contains(&format!(
                "≈ the token axis is cut: it starts at {low}, not 0"
            )),
            "{shown}"
        );
    }
}
