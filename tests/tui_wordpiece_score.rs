//! The explorer trained with WordPiece's score (`bpeek tui --score
//! wordpiece`): the pair table shows each pair's score and goes by it, so
//! its first row is always the pair that merges next, and the why sentence
//! gives the winner's score beside the most frequent pair's. Held to the
//! Hugging Face course's worked example and to a naive ranking of every
//! pair on random corpora.

mod common;
mod scratch;

use bpeek::bpe::train::trainer::PairScore;
use bpeek::bpe::{Pretok, Score, Trainer, TrainerConfig};
use bpeek::tui::theme::Theme;
use bpeek::tui::{App, Event};
use common::{Rng, press, rows_of};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use scratch::Scratch;
use std::cmp::Ordering;

/// The course's words: hug 10, pug 5, pun 12, bun 4, hugs 5.
fn course_text() -> String {
    let mut words = Vec::new();
    for (word, n) in [
        ("hug", 10),
        ("pug", 5),
        ("pun", 12),
        ("bun", 4),
        ("hugs", 5),
    ] {
        words.extend(std::iter::repeat_n(word, n));
    }
    words.join(" ")
}

fn scored(text: &str, min_count: u64) -> Trainer {
    let config = TrainerConfig {
        pretok: Pretok::Whitespace,
        score: Score::WordPiece,
        min_count,
        ..Default::default()
    };
    Trainer::new(text.as_bytes().to_vec(), config).unwrap()
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend()).join("\n")
}

#[test]
fn the_course_example_ranks_g_s_first_and_says_why() {
    let mut app = App::from_trainer("course", scored(&course_text(), 1), Theme::plain());
    press(&mut app, [Event::char('.')]);
    let shown = screen(&mut app, 80, 24);
    let rows: Vec<&str> = shown.lines().collect();
    let first = rows
        .iter()
        .find(|r| r.contains(" 1 g "))
        .unwrap_or_else(|| panic!("g s is the first pair row:\n{shown}"));
    assert!(first.contains("0.0500"), "{first}");
    // The sentence wraps under the corpus pane: read it as one line.
    let words: String = rows
        .iter()
        .map(|r| r.split('│').nth(1).unwrap_or("").trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("g + s wins: score 0.0500 = 5 / (20 x 5)"),
        "{shown}"
    );
    assert!(
        words.contains("the most frequent pair u + g scores only 0.0278 = 20 / (36 x 20)"),
        "{shown}"
    );
    // BPE by count would merge u + g first (20 times); by score it ranks
    // below g + s, and below the pairs with the rarer space.
    let t = app.trainer();
    let rows = t.top_pairs(3);
    assert_eq!(t.vocab().token_bytes(rows[0].pair.0), b"g");
    assert_eq!(t.vocab().token_bytes(rows[0].pair.1), b"s");
    assert_eq!(t.pairs().iter().next().map(|(_, count)| count), Some(20));
}

/// Every pair of the table with its score, in the order the score picks
/// winners in, worked out here from the counts alone: eligible pairs
/// (count at least the minimum) first, then the higher score (compared as
/// fractions), then the table's own order.
fn naive_order(t: &Trainer) -> Vec<(bpeek::bpe::Pair, PairScore)> {
    let min = t.config().min_count;
    let mut all: Vec<(usize, bpeek::bpe::Pair, PairScore, bool)> = t
        .pairs()
        .iter()
        .enumerate()
        .map(|(i, (pair, count))| {
            let s = PairScore {
                count,
                left: t.symbol_count(pair.0),
                right: t.symbol_count(pair.1),
            };
            (i, pair, s, count >= min)
        })
        .collect();
    all.sort_by(|a, b| {
        b.3.cmp(&a.3)
            .then_with(|| {
                let x = a.2.count as u128 * b.2.left as u128 * b.2.right as u128;
                let y = b.2.count as u128 * a.2.left as u128 * a.2.right as u128;
                y.cmp(&x)
            })
            .then(a.0.cmp(&b.0))
    });
    all.into_iter().map(|(_, p, s, _)| (p, s)).collect()
}

fn random_text(rng: &mut Rng) -> String {
    let letters = ["a", "b", "c", "d", "e", "é", "ж"];
    (0..300)
        .map(|_| {
            let n = 1 + rng.below(6);
            (0..n).map(|_| *rng.pick(&letters)).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_table_is_the_naive_ranking_by_score_and_its_first_row_merges_next() {
    for seed in 1..=8 {
        let mut rng = Rng(seed);
        let text = random_text(&mut rng);
        let min = [1, 1, 2, 3][seed as usize % 4];
        let mut t = scored(&text, min);
        for step in 0..25 {
            let Ok(choice) = t.peek_choice() else {
                break;
            };
            let naive = naive_order(&t);
            let rows = t.top_pairs(12);
            let shown: Vec<_> = rows.iter().map(|r| (r.pair, r.score.unwrap())).collect();
            assert_eq!(shown, naive[..rows.len()], "seed {seed}, step {step}");
            assert_eq!(rows[0].pair, choice.pair, "seed {seed}, step {step}");
            for w in rows.windows(2) {
                let (a, b) = (w[0].score.unwrap(), w[1].score.unwrap());
                let eligible = |r: &bpeek::bpe::train::trainer::PairRow| r.count >= min;
                if eligible(&w[0]) == eligible(&w[1]) {
                    assert_ne!(a.cmp_exact(&b), Ordering::Less, "seed {seed}, step {step}");
                }
            }
            // Where each asked pair stands equals its place in the naive order.
            let asked: Vec<_> = naive.iter().rev().take(3).map(|(p, _)| *p).collect();
            let places = t.ranks_of(&asked);
            for (p, at) in asked.iter().zip(places) {
                assert_eq!(at, naive.iter().position(|(q, _)| q == p), "seed {seed}");
            }
            t.step().unwrap();
        }
    }
}

#[test]
fn columns_side_by_side_rank_each_by_its_own_score() {
    let dir = Scratch::new("wp");
    let file = dir.join("course.txt");
    std::fs::write(&file, course_text()).unwrap();
    let base = bpeek::cli::args::TrainingOptions {
        corpus: Some(file.display().to_string()),
        pretok: Some(Pretok::Whitespace),
        ..Default::default()
    };
    let given = vec!["--score wordpiece".to_string(), "--score count".to_string()];
    let mut app = bpeek::tui::comparing::app(&base, &given, Theme::plain()).unwrap();
    press(&mut app, [Event::char('n')]);
    let shown = screen(&mut app, 100, 30);
    let merged: Vec<Vec<u8>> = (0..2)
        .map(|i| {
            let t = bpeek::tui::compare::trainer_of(&app, i).unwrap();
            t.vocab().token_bytes(t.merges()[0].id).to_vec()
        })
        .collect();
    assert_eq!(merged, [b"gs".to_vec(), b"ug".to_vec()], "{shown}");
    assert!(
        shown.contains("from merge 1 on: A merges g+s, B merges u+g"),
        "{shown}"
    );
}

/// The course's own layout, char mode with `##`: the sentence the course
/// would say, and the merge about to be made written as WordPiece writes
/// it.
#[test]
fn char_mode_says_the_courses_sentence_with_its_symbols() {
    let config = TrainerConfig {
        mode: bpeek::bpe::Mode::Char,
        score: Score::WordPiece,
        ..Default::default()
    };
    let trainer = Trainer::new(course_text().into_bytes(), config).unwrap();
    let mut app = App::from_trainer("course", trainer, Theme::plain());
    press(&mut app, [Event::char('.')]);
    let shown = screen(&mut app, 100, 30);
    let words: String = shown
        .lines()
        .map(|r| r.split('│').nth(1).unwrap_or("").trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains(
            "##g + ##s wins: score 0.0500 = 5 / (20 x 5); the most frequent pair ##u + ##g scores only 0.0278 = 20 / (36 x 20)"
        ),
        "{shown}"
    );
    assert!(shown.contains("##g + ##s → ##gs"), "{shown}");
    // Made, the token is `##gs`; the encode box cuts a word by the merges.
    press(&mut app, [Event::char('.')]);
    let t = app.trainer();
    assert_eq!(t.vocab().token_bytes(t.merges()[0].id), b"##gs");
    let tok = t.tokenizer();
    let ids = tok.encode("hugs", false);
    let parts: Vec<String> = ids
        .iter()
        .map(|&id| String::from_utf8_lossy(t.vocab().token_bytes(id)).into_owned())
        .collect();
    assert_eq!(parts, ["h", "##u", "##gs"]);
}
