//! The corpus pane on texts longer than a screen: each round brings the
//! first place of what it highlights into view, and a long line is drawn
//! from only the rows the pane shows, exactly as the whole line would be.

use bpeek::bpe::{Mode, Phase, Pretok, Trainer, TrainerConfig};
use bpeek::tui::action::{Scroll, Toggle};
use bpeek::tui::layout::{for_app, inner};
use bpeek::tui::panes::corpus_text::CorpusLook;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, update};

mod common;

/// Lines of pseudo-random words from a small alphabet, each shorter than
/// the pane is wide, with `long` extra lines of thousands of bytes.
fn text(seed: u64, lines: usize, long: usize) -> Vec<u8> {
    let mut state = seed | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let word = |next: &mut dyn FnMut(u64) -> u64| -> String {
        let len = 1 + next(6) as usize;
        (0..len)
            .map(|_| ['a', 'b', 'c', 'd', 'e', 'é', 'x', 'y'][next(8) as usize])
            .collect()
    };
    let mut out = String::new();
    for i in 0..lines + long {
        let budget = if i % 7 == 6 && i / 7 < long { 3000 } else { 60 };
        let mut line = String::new();
        while line.len() < budget {
            line.push_str(&word(&mut next));
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.into_bytes()
}

fn app_on(text: Vec<u8>, pretok: Pretok) -> App {
    let config = TrainerConfig {
        pretok,
        ..Default::default()
    };
    let mut app = App::from_trainer("test", Trainer::new(text, config).unwrap(), Theme::plain());
    update(&mut app, Action::Resize(80, 24));
    app
}

/// Where the round's highlight first appears, found the slow way.
fn first_place(app: &App) -> Option<usize> {
    all_places(app).first().copied()
}

#[test]
fn every_round_brings_its_first_place_into_view() {
    for seed in 1..4 {
        // Every line is one row, so the pane shows exactly `rows` lines.
        let mut app = app_on(text(seed, 400, 0), Pretok::Whitespace);
        let rows = inner(for_app(&app).corpus).height as usize;
        for round in 0..120 {
            update(&mut app, Action::Advance);
            let Some(place) = first_place(&app) else {
                continue;
            };
            let line = app.lines().line_of(place);
            let top = app.scroll.corpus.line;
            assert!(
                top <= line && line < top + rows,
                "seed {seed}, round {round}: the first place is on line {line}, the view shows {top}..{}",
                top + rows
            );
        }
    }
}

#[test]
fn the_first_rows_of_a_long_line_are_those_of_the_whole_line() {
    let mut app = app_on(text(7, 30, 4), Pretok::Gpt2);
    for _ in 0..40 {
        update(&mut app, Action::Step);
    }
    let look = CorpusLook::of(&app);
    let mut long_lines = 0;
    for line in 0..look.lines.count() {
        for width in [1, 7, 40, 78] {
            let whole = look.line_rows(line, width);
            long_lines += usize::from(whole.len() > 30);
            for most in [0, 1, 2, 5, 24, whole.len(), whole.len() + 3] {
                let first = look.first_rows(line, width, most);
                let want = &whole[..most.min(whole.len())];
                assert_eq!(first, want, "line {line}, width {width}, {most} rows");
                assert_eq!(
                    look.line_height_upto(line, width, most),
                    most.min(whole.len())
                );
            }
        }
    }
    assert!(long_lines > 4, "the text has lines of many rows");
}

#[test]
fn scrolling_down_visits_every_row_of_every_line_in_turn() {
    let mut app = app_on(text(3, 20, 2), Pretok::Gpt2);
    let width = inner(for_app(&app).corpus).width as usize;
    let heights: Vec<usize> = {
        let look = CorpusLook::of(&app);
        (0..look.lines.count())
            .map(|l| look.line_height(l, width))
            .collect()
    };
    let mut expected = heights
        .iter()
        .enumerate()
        .flat_map(|(line, &h)| (0..h).map(move |row| (line, row)));
    assert_eq!(expected.next(), Some((0, 0)));
    for want in expected {
        update(&mut app, Action::Scroll(Scroll::Down));
        let at = app.scroll.corpus;
        assert_eq!((at.line, at.row), want);
    }
    // Up from the bottom walks the same rows back.
    let mut back: Vec<(usize, usize)> = Vec::new();
    while app.scroll.corpus.line + app.scroll.corpus.row > 0 {
        update(&mut app, Action::Scroll(Scroll::Up));
        back.push((app.scroll.corpus.line, app.scroll.corpus.row));
    }
    let rows: usize = heights.iter().sum();
    assert_eq!(back.len(), rows - 1);
}

#[test]
fn a_token_too_long_for_any_pane_is_labelled_by_its_start_and_length() {
    use bpeek::tui::panes::rows::{LABEL_HEAD_BYTES, LABEL_MOST_BYTES, label};
    let theme = Theme::plain();
    let whole = "x".repeat(LABEL_MOST_BYTES);
    assert_eq!(label(whole.as_bytes(), &theme), whole);

    let long = "é".repeat(100);
    let shown = label(long.as_bytes(), &theme);
    // Cut between characters, never inside one.
    let head = "é".repeat(LABEL_HEAD_BYTES / 2);
    assert_eq!(
        shown,
        format!("{head}{} (200 bytes)", theme.glyphs.ellipsis)
    );
}

#[test]
fn a_run_of_one_letter_trains_to_its_end_with_the_screen_drawn_each_step() {
    // With no pre-tokenizer the run is one chunk and each merge doubles
    // the longest token: by the end one token is 2^16 bytes.
    let mut app = app_on(vec![b'a'; 1 << 16], Pretok::None);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    let mut screen = String::new();
    for _ in 0..16 {
        update(&mut app, Action::Step);
        bpeek::tui::runner::draw(&mut terminal, &mut app).unwrap();
        screen = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
    }
    assert_eq!(app.trainer().merges().len(), 16);
    assert!(screen.contains("made aaaa"), "{screen}");
    assert!(screen.contains("(65536 bytes)"), "{screen}");
    update(&mut app, Action::Step);
    assert!(app.trainer().stop_reason().is_some());
}

#[test]
fn with_the_whole_text_one_chunk_each_round_still_shows_its_first_place() {
    // `none` makes the text one chunk: its first place in the text is the
    // place inside that chunk, not the chunk's start.
    for seed in 1..3 {
        let mut app = app_on(text(seed, 400, 0), Pretok::None);
        let rows = inner(for_app(&app).corpus).height as usize;
        let mut moved = 0;
        for round in 0..120 {
            update(&mut app, Action::Advance);
            let Some(place) = first_place(&app) else {
                continue;
            };
            assert_eq!(app.trainer().first_place(), Some(place), "round {round}");
            let line = app.lines().line_of(place);
            let top = app.scroll.corpus.line;
            moved += usize::from(top > 0);
            assert!(
                top <= line && line < top + rows,
                "seed {seed}, round {round}: the first place is on line {line}, the view shows {top}..{}",
                top + rows
            );
        }
        assert!(
            moved > 0,
            "some round's first place is below the first screen"
        );
    }
}

/// Every place of the round's highlight in the text, found the slow way:
/// each adjacent pair in one chunk, or each token the merge made.
fn all_places(app: &App) -> Vec<usize> {
    let trainer = app.trainer();
    let all = trainer.segments(0..trainer.corpus().text().len());
    match trainer.phase() {
        Phase::Chosen(choice) => {
            let (a, b) = choice.pair;
            all.windows(2)
                .filter(|w| w[0].id == a && w[1].id == b && !w[1].chunk_start)
                .map(|w| w[0].start)
                .collect()
        }
        Phase::Merged => {
            let id = trainer.merges().last().unwrap().id;
            all.iter().filter(|s| s.id == id).map(|s| s.start).collect()
        }
        Phase::Counted => Vec::new(),
    }
}

#[test]
fn find_walks_every_place_in_text_order() {
    for pretok in [Pretok::None, Pretok::Gpt2, Pretok::Lines] {
        let mut app = app_on(text(5, 120, 0), pretok);
        for _ in 0..12 {
            update(&mut app, Action::Step);
        }
        // The merged phase of merge 11, then the chosen phase of merge 12.
        for phase in 0..2 {
            if phase == 1 {
                update(&mut app, Action::Advance);
                update(&mut app, Action::Advance);
            }
            let places = all_places(&app);
            assert!(places.len() > 3, "{pretok}: the highlight has places");
            let from = app.lines().range(app.scroll.corpus.line).start;
            let mut want = places
                .iter()
                .copied()
                .filter(|&p| p >= from)
                .chain(places.iter().copied());
            for press in 0..places.len() + 2 {
                update(&mut app, Action::FindNext);
                let at = want.next().unwrap();
                let k = places.iter().position(|&p| p == at).unwrap() + 1;
                assert_eq!(
                    app.scroll.found_at,
                    Some(at),
                    "{pretok}, phase {phase}, press {press}"
                );
                let notice = app.notice.clone().unwrap_or_default();
                assert!(
                    notice.contains(&format!(": {k} of {}", places.len())),
                    "{pretok}: {notice}"
                );
                assert_eq!(app.scroll.corpus.line, app.lines().line_of(at));
            }
        }
    }
}

#[test]
fn find_on_a_long_line_scrolled_by_rows_starts_at_the_top_row() {
    for pretok in [Pretok::None, Pretok::Gpt2] {
        // Two long lines first, so the top line is one of thousands of bytes.
        let mut app = app_on(text(9, 40, 2), pretok);
        for _ in 0..6 {
            update(&mut app, Action::Step);
        }
        let line = (0..app.lines().count())
            .find(|&l| app.lines().range(l).len() > 700)
            .expect("a long line");
        let width = inner(for_app(&app).corpus).width as usize;
        let places = all_places(&app);
        let start = app.lines().range(line).start;
        // The first place whose token starts on the top row or below.
        let wants: Vec<(usize, usize)> = [1, 5, 12]
            .into_iter()
            .map(|row| {
                let look = CorpusLook::of(&app);
                let want = places
                    .iter()
                    .copied()
                    .find(|&p| p >= start && look.row_of(line, width, p) >= row)
                    .expect("a place below the top row");
                (row, want)
            })
            .collect();
        for (row, want) in wants {
            app.scroll.corpus = bpeek::tui::app::CorpusScroll { line, row };
            app.scroll.found_at = None;
            update(&mut app, Action::FindNext);
            assert_eq!(app.scroll.found_at, Some(want), "{pretok}, top row {row}");
        }
    }
}

#[test]
fn row_of_says_which_row_of_a_long_line_a_byte_is_drawn_on() {
    // One line of letters with no spaces, no merges yet: one column per
    // byte, cut at the pane's edge.
    let line: String = (0..1000).map(|i| (b'a' + (i % 26) as u8) as char).collect();
    let app = app_on(format!("{line}\n").into_bytes(), Pretok::None);
    let look = CorpusLook::of(&app);
    for width in [7, 40, 78] {
        for at in [0, 1, 6, 7, 100, 999] {
            assert_eq!(
                look.row_of(0, width, at),
                at / width,
                "byte {at} at width {width}"
            );
        }
    }
}

#[test]
fn in_long_lines_each_round_brings_its_first_place_onto_the_screen() {
    for seed in 1..3 {
        // Lines of about 1000 bytes (a display line at most), a score of
        // rows each; the first has only `a` and `b` for 880 bytes, then
        // only `x`, `y` and `z`, so the pairs of those first stand below
        // its first screen.
        let mut state: u64 = seed;
        let mut pick = |from: &[u8]| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            from[(state >> 33) as usize % from.len()]
        };
        let mut corpus: Vec<u8> = (0..880).map(|_| pick(b"ab")).collect();
        corpus.extend((0..140).map(|_| pick(b"xyz")));
        corpus.push(b'\n');
        corpus.extend(text(seed, 12, 12));
        let mut app = app_on(corpus, Pretok::None);
        let width = inner(for_app(&app).corpus).width as usize;
        let rows = inner(for_app(&app).corpus).height as usize;
        let mut below_first_row = 0;
        for round in 0..90 {
            update(&mut app, Action::Advance);
            let Some(place) = first_place(&app) else {
                continue;
            };
            let look = CorpusLook::of(&app);
            let line = look.lines.line_of(place);
            let row = look.row_of(line, width, place);
            below_first_row += usize::from(row > 0);
            // Rows from the top of the pane to the place, line by line.
            let top = app.scroll.corpus;
            let mut down = -(top.row as isize);
            for l in top.line..line {
                down += look.line_rows(l, width).len() as isize;
            }
            down += row as isize;
            assert!(
                (0..rows as isize).contains(&down),
                "seed {seed}, round {round}: the place is {down} rows below the top of the pane"
            );
        }
        assert!(below_first_row > 5, "some places are deep in a line");
    }
}

#[test]
fn in_char_mode_every_word_is_drawn_with_its_end_mark_the_text_s_last_too() {
    for (text, words) in [
        ("ab ab ab", 3),
        ("ab ab ab\n", 3),
        ("the player\nplayed the replay", 5),
        ("played the replay", 3),
    ] {
        let config = TrainerConfig {
            mode: Mode::Char,
            ..Default::default()
        };
        let mut app = App::from_trainer(
            "test",
            Trainer::new(text.into(), config).unwrap(),
            Theme::plain(),
        );
        update(&mut app, Action::Resize(80, 24));
        for merges in 0..4 {
            let look = CorpusLook::of(&app);
            let drawn: String = (0..text.lines().count())
                .flat_map(|i| look.line_rows(i, 60))
                .flat_map(|row| row.spans.into_iter().map(|s| s.content.into_owned()))
                .collect();
            assert_eq!(
                drawn.matches('⌟').count(),
                words,
                "{text:?} after {merges} merges: {drawn:?}"
            );
            update(&mut app, Action::Step);
        }
    }
}

#[test]
fn in_char_mode_hex_keeps_the_separator_before_a_lone_end_mark() {
    let config = TrainerConfig {
        mode: Mode::Char,
        ..Default::default()
    };
    let text = "the player played and the players play again";
    let mut app = App::from_trainer(
        "test",
        Trainer::new(text.into(), config).unwrap(),
        Theme::plain(),
    );
    update(&mut app, Action::Resize(80, 24));
    update(&mut app, Action::Goto(8));
    update(&mut app, Action::Toggle(Toggle::Separators));
    let drawn = |app: &App| -> String {
        let look = CorpusLook::of(app);
        look.line_rows(0, 200)
            .into_iter()
            .flat_map(|row| row.spans.into_iter().map(|s| s.content.into_owned()))
            .collect()
    };
    let plain = drawn(&app);
    update(&mut app, Action::Toggle(Toggle::Hex));
    let hex = drawn(&app);
    // The text is ASCII: hex changes nothing, separators and marks included.
    assert_eq!(hex, plain);
    assert!(plain.contains("│⌟"), "{plain}");
}

/// Char-mode text as the corpus pane lays it out: words of random tokens,
/// the last of each word carrying `</w>`, words parted by spaces that
/// belong to no token.
#[test]
fn a_token_narrower_than_a_row_is_never_cut_across_rows() {
    use bpeek::tui::panes::rows::{Piece, Rows, TextLook, lay_out};
    use ratatui::style::Style;
    let theme = Theme::plain();
    let mut rng = common::Rng(7);
    let mut cut = 0;
    for round in 0..400 {
        let mut text: Vec<(Vec<u8>, bool, bool)> = Vec::new(); // bytes, end of word, gap
        for _ in 0..1 + rng.below(30) {
            let tokens = 1 + rng.below(4);
            for t in 0..tokens {
                let len = 1 + rng.below(6);
                let bytes = (0..len).map(|_| b'a' + rng.below(5) as u8).collect();
                text.push((bytes, t + 1 == tokens, false));
            }
            text.push((b" ".to_vec(), false, true));
        }
        let byte_mode = round % 4 == 3;
        if byte_mode {
            // Byte mode: the space starts the next token, as in "·the".
            text.retain(|(_, _, gap)| !gap);
            for (i, (bytes, end, _)) in text.iter_mut().enumerate() {
                *end = false;
                if i % 2 == 1 {
                    bytes.insert(0, b' ');
                }
            }
        }
        let pieces: Vec<Piece> = text
            .iter()
            .enumerate()
            .map(|(i, (bytes, end, gap))| {
                if *gap {
                    Piece::gap(bytes)
                } else {
                    Piece {
                        end_of_word: *end,
                        tag: Some(i),
                        ..Piece::token(bytes, Style::new())
                    }
                }
            })
            .collect();
        let width = 8 + rng.below(40);
        let look = TextLook {
            theme: &theme,
            whitespace: rng.below(2) == 0 || byte_mode,
            hex: rng.below(2) == 0,
            separators: rng.below(2) == 0,
            line_breaks: true,
        };
        let mut rows = Rows::new(width);
        lay_out(&mut rows, &pieces, &look);
        let (lines, _, placed) = rows.finish_placed();
        let shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for p in placed {
            let (bytes, end, _) = &text[p.tag];
            let cells = bytes.len() + usize::from(*end);
            if cells <= width {
                assert!(
                    p.column + cells <= width,
                    "round {round}, width {width}, {look:?}: token {:?} starts at column {} of row {} and is cut:\n{}",
                    String::from_utf8_lossy(bytes),
                    p.column,
                    p.row,
                    shown.join("\n")
                );
            } else {
                cut += 1;
            }
        }
    }
    assert!(cut < 400, "most tokens fit a row");
}
