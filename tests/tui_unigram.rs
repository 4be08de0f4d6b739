//! The explorer in Unigram mode, through the real event loop into a test
//! terminal at 80x24: every pane shows the trainer's own numbers, with
//! and without colour, in ASCII, on a non-Latin corpus; stepping on and
//! back comes back to the same screen; keys of BPE training answer.

use bpeek::bpe::formats::unigram_json;
use bpeek::bpe::train::unigram::{
    Gone, UnigramConfig, UnigramTrainer, UnigramVocabulary, WordMarks,
};
use bpeek::cli::args::TrainingOptions;
use bpeek::tui::app::Focus;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, update};
use crossterm::event::KeyCode;
use unicode_width::UnicodeWidthStr;

mod common;
mod course;
use common::press;

/// The course's corpus in char mode (no space marker), trained to 10
/// pieces: small enough to read every number off the screen.
fn course_app(theme: Theme) -> App {
    app_on(&course::text(), WordMarks::None, 10, theme)
}

fn app_on(text: &str, marks: WordMarks, vocab_size: usize, theme: Theme) -> App {
    let config = UnigramConfig {
        marks,
        vocab_size,
        ..Default::default()
    };
    let trainer = UnigramTrainer::new(text.as_bytes(), config).unwrap();
    let options = TrainingOptions::default();
    App::from_unigram(&options, "course".into(), trainer, theme)
}

/// Key presses: each character, `\t` as Tab and `\n` as Enter.
fn keys(text: &str) -> Vec<Event> {
    text.chars()
        .map(|c| match c {
            '\t' => Event::key(KeyCode::Tab),
            '\n' => Event::key(KeyCode::Enter),
            c => Event::char(c),
        })
        .collect()
}

fn scripted(text: &str) -> ScriptedEvents {
    ScriptedEvents::new(keys(text))
}

fn screen(app: &mut App, events: ScriptedEvents, width: u16, height: u16) -> Vec<String> {
    common::screen_after(app, events, width, height)
}

fn trainer(app: &App) -> &UnigramTrainer {
    &app.unigram.as_ref().unwrap().trainer
}

fn shows(rows: &[String], text: &str) -> bool {
    rows.iter().any(|r| r.contains(text))
}

/// The screen's words in order, borders and wrapping left out: a
/// sentence wrapped over rows of a pane reads as one.
fn said(rows: &[String]) -> String {
    let all = rows.join(" ").replace(['│', '|'], " ");
    all.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[track_caller]
fn assert_shows(rows: &[String], text: &str) {
    assert!(
        shows(rows, text) || said(rows).contains(text),
        "{text:?} not on screen:\n{}",
        rows.join("\n")
    );
}

/// The status line says the step and every phase of a round as it comes.
#[test]
fn the_status_line_names_each_phase_of_a_round() {
    let mut app = course_app(Theme::plain());
    let em = trainer(&app).config().em_iterations;
    assert_eq!(em, 2);
    let want = [
        "round 0 seeded",
        "round 0 EM 1/2",
        "round 0 EM 2/2",
        "round 0 scored",
        "round 1 pruned",
        "round 1 EM 1/2",
    ];
    for (step, phase) in want.iter().enumerate() {
        let keys = "n".repeat(step);
        let mut app2 = course_app(Theme::plain());
        let rows = screen(&mut app2, scripted(&keys), 80, 24);
        assert!(rows[0].contains(&format!("step {step}")), "{}", rows[0]);
        assert!(rows[0].contains(phase), "step {step}: {}", rows[0]);
    }
    let rows = screen(&mut app, scripted("nnnn"), 80, 24);
    let loss = trainer(&app).last_step().loss.round() as u64;
    assert_shows(
        &rows,
        &format!("loss {}", bpeek::bpe::embedding::thousands(loss)),
    );
}

/// The corpus pane: every word's cut at the current vocabulary with its
/// count, and after the prune the words whose cut changed marked.
#[test]
fn the_corpus_pane_shows_each_words_cut_and_marks_the_ones_a_prune_changed() {
    let mut app = course_app(Theme::plain());
    let rows = screen(&mut app, scripted("nnnn"), 80, 24);
    let t = trainer(&app);
    let (_, changed) = t.cuts_changed_since_last_prune().unwrap();
    assert!(changed.iter().any(|&c| c), "the first prune changes a cut");
    assert_eq!(changed.len(), t.words().len());
    for (w, &moved) in changed.iter().enumerate() {
        let cut: Vec<&str> = t.cut(w).iter().map(|(_, p)| t.pieces().text(*p)).collect();
        let mark = if moved { "•" } else { " " };
        let want = format!("│{mark}{}", cut.join(" "));
        let row = rows
            .iter()
            .find(|r| r.starts_with(&want) && r.contains(&format!("×{}│", t.words().count(w))));
        assert!(
            row.is_some(),
            "{want:?} not on screen:\n{}",
            rows.join("\n")
        );
    }
}

/// The piece table lists the trainer's pieces with their probabilities
/// and scores; `l` sorts it by loss, the coming prune's pieces first.
#[test]
fn the_piece_table_shows_probabilities_and_losses_and_sorts() {
    let mut app = course_app(Theme::plain());
    let rows = screen(&mut app, scripted("nnn"), 80, 24);
    let table = trainer(&app).piece_table();
    let top = &table[0];
    assert_shows(&rows, &format!("Pieces {} by probability", table.len()));
    let header = rows.iter().position(|r| r.contains("│piece ")).unwrap();
    let row = &rows[header + 1];
    assert!(row.contains(&format!("│{} ", top.text)), "{row}");
    assert!(row.contains(&format!("{:.4}", top.logp.exp())), "{row}");
    let rows = screen(&mut app, scripted("l"), 80, 24);
    assert_shows(&rows, "by loss if removed");
    let edge = trainer(&app).prune_edge().unwrap();
    let first = edge.last_going.map(|_| {
        let mut scored: Vec<_> = table
            .iter()
            .filter(|r| r.loss_if_removed.is_some())
            .collect();
        scored.sort_by(|a, b| {
            a.loss_if_removed
                .unwrap()
                .total_cmp(&b.loss_if_removed.unwrap())
                .then(a.text.cmp(&b.text))
        });
        scored[0].text.clone()
    });
    if let Some(text) = first {
        let header = rows.iter().position(|r| r.contains("│piece ")).unwrap();
        assert!(
            rows[header + 1].contains(&format!("│{text} ")),
            "{}",
            rows[header + 1]
        );
        assert!(rows[header + 1].contains("goes"), "{}", rows[header + 1]);
    }
}

/// The removal list after a prune: newest first, each with its round and
/// score; the why sentence of the selected removal gives its numbers.
#[test]
fn the_removal_list_and_its_why_sentence_give_the_trainers_numbers() {
    let mut app = course_app(Theme::plain());
    let events = scripted("nnnn")
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::Tab));
    let rows = screen(&mut app, events, 80, 24);
    let t = trainer(&app);
    let gone: Vec<_> = t.gone().collect();
    assert_shows(&rows, &format!("Removed {}", gone.len()));
    let (round, Gone::Pruned(newest)) = gone[0] else {
        panic!("the newest piece gone is the prune's: {:?}", gone[0])
    };
    let text = t.pieces().text(newest.piece);
    let row = rows
        .iter()
        .find(|r| {
            r.contains(&format!(" {text} ")) && r.contains(&format!("{:.4}", newest.loss_increase))
        })
        .expect("the newest removal");
    assert!(row.contains(&format!("│{round:>6} ")), "{row}");
    assert_shows(
        &rows,
        &format!(
            "{text} went in round {round}: removing it cost {:.2}",
            newest.loss_increase
        ),
    );
}

/// The why sentence of a scored piece: `X goes: removing it costs S of
/// L` with the other side of the prune's edge, from the trainer.
#[test]
fn the_why_sentence_says_why_a_scored_piece_goes_or_stays() {
    let mut app = course_app(Theme::plain());
    let rows = screen(
        &mut app,
        scripted("nnnl").then(Event::key(KeyCode::Tab)),
        80,
        24,
    );
    let t = trainer(&app);
    let edge = t.prune_edge().unwrap();
    let going = edge
        .last_going
        .expect("the course's first prune removes pieces");
    let loss = bpeek::bpe::embedding::thousands(t.last_step().loss.round() as u64);
    let said = said(&rows);
    let first_row =
        bpeek::tui::panes::piece_table::rows(t, bpeek::tui::app::unigram::PieceSort::Loss);
    let selected = &first_row[0];
    let score = selected.loss_if_removed.unwrap();
    let verb = if score <= going.loss_increase {
        "goes: removing it costs"
    } else {
        "stays"
    };
    assert!(
        said.contains(&format!("{} {verb} {score:.2} of {loss}", selected.text)),
        "{said}"
    );
}

/// Enter draws the selected word's lattice: its best cut first, and its
/// log-probability piece by piece.
#[test]
fn enter_draws_the_lattice_of_the_selected_word() {
    let mut app = course_app(Theme::plain());
    let events = scripted("nnnn")
        .then(Event::key(KeyCode::Down))
        .then(Event::key(KeyCode::Enter));
    let rows = screen(&mut app, events, 80, 24);
    let t = trainer(&app);
    let word = 1;
    let l = t.lattice(word);
    assert_shows(
        &rows,
        &format!(
            "Lattice of {} ×{}",
            t.words().word(word),
            t.words().count(word)
        ),
    );
    let sum: Vec<String> = l
        .best
        .iter()
        .map(|&e| {
            format!(
                "{} {:.2}",
                t.pieces().text(l.edges[e].piece),
                l.edges[e].logp
            )
        })
        .collect();
    assert_shows(&rows, &format!("{} = {:.2}", sum.join(" + "), l.best_logp));
    assert_shows(
        &rows,
        &format!("{} pieces stand in the word", l.edges.len()),
    );
    // Esc closes it, and nothing else happens.
    let steps = t.step_count();
    let rows = screen(
        &mut app,
        ScriptedEvents::new([Event::key(KeyCode::Esc)]),
        80,
        24,
    );
    assert!(!shows(&rows, "Lattice of"));
    assert_eq!(trainer(&app).step_count(), steps);
}

/// The curve, where the screen has room for it: corpus tokens by step,
/// rising as pieces go.
#[test]
fn the_curve_counts_the_tokens_as_pieces_go() {
    let mut app = course_app(Theme::plain());
    let rows = screen(&mut app, scripted("nnnnnnnn"), 120, 40);
    let t = trainer(&app);
    let tokens = t.tokens_by_step();
    assert!(
        tokens.last() > tokens.first(),
        "fewer pieces, more tokens: {tokens:?}"
    );
    assert_shows(&rows, "Corpus tokens by step");
    assert_shows(
        &rows,
        &format!(
            "step {}, round {}: {} tokens",
            t.step_count(),
            t.last_step().round,
            tokens[t.step_count()]
        ),
    );
}

/// Colour adds to the screen but says nothing the plain one does not: the
/// text is the same.
#[test]
fn the_screen_reads_the_same_with_and_without_colour() {
    for keys in ["", "nnn", "nnnn\tl", "nnnnn\t\t"] {
        let plain = screen(&mut course_app(Theme::plain()), scripted(keys), 80, 24);
        let coloured = screen(
            &mut course_app(Theme::new(true, false)),
            scripted(keys),
            80,
            24,
        );
        assert_eq!(plain, coloured, "after {keys:?}");
    }
}

/// In ASCII every cell of the screen is ASCII, the space marker a dot.
#[test]
fn ascii_glyphs_draw_every_pane_in_ascii() {
    let mut app = app_on(
        &course::text(),
        WordMarks::Space,
        12,
        Theme::new(false, true),
    );
    for keys in ["nnnn", "\t", "\t", "\n"] {
        let rows = screen(&mut app, scripted(keys), 80, 24);
        for r in &rows {
            assert!(
                r.is_ascii(),
                "not ASCII after {keys:?}: {r}\n{}",
                rows.join("\n")
            );
        }
    }
}

/// A corpus in another script is cut into its own characters' pieces;
/// every row keeps the screen's width, wide characters included.
#[test]
fn a_corpus_in_a_non_latin_script_fills_each_row_to_the_width() {
    let text = "東京 東京 東京都 京都 京都 大阪 大阪府 東京 ελληνικά ελληνικά λέξη λέξεις";
    let mut app = app_on(text, WordMarks::Space, 12, Theme::plain());
    for keys in ["", "nnnn", "\t", "\t", "\n"] {
        let rows = screen(&mut app, scripted(keys), 80, 24);
        for r in &rows {
            assert_eq!(r.width(), 80, "after {keys:?}: {r}");
        }
        if keys == "nnnn" {
            let t = trainer(&app);
            let w = t.words().find("▁東京").unwrap();
            let cut: Vec<String> = t
                .cut(w)
                .iter()
                .map(|(_, p)| t.pieces().text(*p).replace('▁', "·"))
                .collect();
            assert_shows(&rows, &cut.join(" "));
        }
    }
}

/// Steps on and the same number back: the screen is the one before.
#[test]
fn stepping_forward_n_and_back_n_returns_the_same_screen() {
    for n in [1, 3, 4, 7] {
        let mut app = course_app(Theme::plain());
        let before = screen(&mut app, scripted("n"), 80, 24);
        screen(&mut app, scripted(&"n".repeat(n)), 80, 24);
        let after = screen(&mut app, scripted(&"p".repeat(n)), 80, 24);
        assert_eq!(before, after, "{n} steps on and back");
    }
}

/// Go-to, reset and autoplay move the Unigram trainer.
#[test]
fn go_to_reset_and_autoplay_move_the_unigram_trainer() {
    let mut app = course_app(Theme::plain());
    let rows = screen(&mut app, scripted("g5"), 80, 24);
    assert!(rows[23].starts_with(" go to step: 5"), "{}", rows[23]);
    press(&mut app, [Event::key(KeyCode::Esc)]);
    press(&mut app, keys("g5\n"));
    assert_eq!(trainer(&app).step_count(), 5);
    press(&mut app, keys("r"));
    assert_eq!(trainer(&app).step_count(), 0);
    press(&mut app, keys("a"));
    assert!(app.autoplay.on);
    update(&mut app, Action::Tick);
    update(&mut app, Action::Tick);
    assert_eq!(trainer(&app).step_count(), 2);
    press(&mut app, keys("g999\n"));
    let t = trainer(&app);
    assert!(t.next_phase().is_err());
    let notice = app.notice.clone().unwrap_or_default();
    assert!(
        notice.contains(&format!("training stops at step {}", t.step_count())),
        "{notice}"
    );
}

/// The encode box cuts by the pieces so far: the ids are those of the
/// vocabulary's tokenizer.json at this step.
#[test]
fn the_encode_box_cuts_by_the_current_unigram_pieces() {
    let mut app = course_app(Theme::plain());
    let text = "hugs pun bugs";
    let events = scripted("nnnne")
        .then(Event::Paste(text.into()))
        .then(Event::key(KeyCode::Esc));
    screen(&mut app, events, 80, 24);
    let v = UnigramVocabulary::of(trainer(&app)).unwrap();
    let tok = unigram_json::tokenizer(&v, "trained").unwrap();
    assert_eq!(app.encode.ids, tok.encode(text, false));
    assert!(!app.encode.ids.is_empty());
}

/// Every key of the table answers in Unigram mode: the keys of BPE
/// training that mean nothing here say so, and nothing panics.
#[test]
fn keys_of_bpe_training_say_they_mean_nothing_here() {
    for key in ["c", "C", "u", "/", "v", "d", "x", "s", "o", "Q"] {
        let mut app = course_app(Theme::plain());
        press(&mut app, keys(key));
        let notice = app.notice.clone().unwrap_or_default();
        assert!(notice.contains("not in Unigram mode"), "{key}: {notice:?}");
    }
    let mut app = course_app(Theme::plain());
    let every: String = (' '..='~').collect();
    for round in 0..3 {
        for c in every.chars() {
            press(&mut app, keys(&c.to_string()));
            for code in [
                KeyCode::Esc,
                KeyCode::Enter,
                KeyCode::Tab,
                KeyCode::Down,
                KeyCode::End,
            ] {
                press(&mut app, [Event::key(code)]);
            }
            screen(&mut app, ScriptedEvents::new([]), 80, 24);
        }
        // `q` may have quit: the app answers on.
        app.quit = false;
        assert!(trainer(&app).step_count() > 0, "round {round}: n stepped");
    }
}

/// The fertility view measures the Unigram vocabulary being trained as its
/// first tokenizer.
#[test]
fn the_fertility_view_opens_on_the_unigram_vocabulary() {
    let mut app = course_app(Theme::plain());
    let rows = screen(&mut app, scripted("nnnnf"), 80, 24);
    assert!(app.fert.open);
    let v = UnigramVocabulary::of(trainer(&app)).unwrap();
    let trained = app.toks.get(0).expect("the trained tokenizer is built");
    let want = unigram_json::tokenizer(&v, "trained").unwrap();
    assert_eq!(
        trained.encode("hugs pun", false),
        want.encode("hugs pun", false)
    );
    assert_shows(&rows, "trained");
}

/// Pieces an EM iteration drops (expected below one half) are in the
/// removal list with their expected count, and the why sentence says so.
#[test]
fn pieces_dropped_after_an_em_iteration_are_listed_with_their_expected_count() {
    // The bundled corpus: its many rare substrings are dropped at once.
    let bakery = bpeek::bpe::corpora::default_corpus().text;
    let mut app = app_on(bakery, WordMarks::Space, 200, Theme::plain());
    app.focus = Focus::Merges;
    let mut rows = Vec::new();
    let mut dropped = None;
    for _ in 0..12 {
        rows = screen(&mut app, scripted("n"), 80, 24);
        let t = trainer(&app);
        if let Some((round, Gone::Dropped(d))) = t.gone().next() {
            dropped = Some((round, *d, t.pieces().text(d.piece).to_string()));
            break;
        }
    }
    let (round, d, text) = dropped.expect("a step whose newest piece gone was dropped");
    assert!(d.expected < 0.5, "{d:?}");
    let shown = format!("{:.2}", (d.expected * 100.0).floor() / 100.0);
    assert!(
        rows.iter()
            .any(|r| r.contains(&format!(" {text} ")) && r.contains(&format!("exp {shown}"))),
        "{rows:#?}"
    );
    // The sentence wraps in its pane: its start and its number.
    assert_shows(&rows, &format!("{text} went in round {round}: an EM"));
    assert_shows(&rows, &format!("expected it {shown} times"));
}

/// Help and the footer speak of steps and the lattice in Unigram mode,
/// and leave out the keys that mean nothing there.
#[test]
fn help_and_footer_speak_of_steps_and_the_lattice() {
    let mut app = course_app(Theme::plain());
    let help: Vec<&str> = bpeek::tui::keymap::help_rows_for(&app)
        .into_iter()
        .map(|(_, help, _)| help)
        .collect();
    for said in [
        "go to step N",
        "back to step 0, the seeding",
        "undo the last step",
    ] {
        assert!(help.contains(&said), "{said}: {help:?}");
    }
    for unsaid in [
        "go to merge N",
        "next/previous corpus",
        "undo the last merge",
    ] {
        assert!(!help.contains(&unsaid), "{unsaid}");
    }
    let rows = screen(&mut app, scripted("n\n"), 80, 24);
    assert!(app.unigram.as_ref().unwrap().lattice);
    assert!(rows[23].contains("Esc close lattice"), "{}", rows[23]);
    let rows = screen(&mut app, scripted("?"), 80, 24);
    assert_shows(&rows, "go to step N");
}
