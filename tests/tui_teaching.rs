//! The screen explains the round on its own: why a pair wins (ties under
//! both rules, the overlap case), what a merge did, which pairs it changed
//! (the vanished ones too), a zoomed pane, and a corpus view that follows
//! the round.

mod common;
mod scratch;

use bpeek::bpe::{Mode, TieRule, Trainer, TrainerConfig};
use bpeek::tui::action::Toggle;
use bpeek::tui::app::Focus;
use bpeek::tui::layout;
use bpeek::tui::panes::changed;
use bpeek::tui::panes::why;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use common::{press, rows_of};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use scratch::Scratch;
use std::collections::BTreeMap;

fn app_on(text: &str, mode: Mode, tie: TieRule) -> App {
    let config = TrainerConfig {
        mode,
        tie,
        ..TrainerConfig::default()
    };
    let trainer = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
    App::from_trainer("sample", trainer, Theme::plain())
}

/// The tutorial line of play, player, played, ... in char mode.
fn play(tie: TieRule) -> App {
    let text = std::fs::read_to_string("corpora/tutorial-play.txt").unwrap();
    app_on(&text, Mode::Char, tie)
}

fn screen(app: &mut App, width: u16, height: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new([])).unwrap();
    rows_of(terminal.backend())
}

/// The cells inside the borders of `r`, row by row, trimmed.
fn inside(rows: &[String], r: Rect) -> Vec<String> {
    (r.y..r.y + r.height)
        .map(|y| {
            rows[y as usize]
                .chars()
                .skip(r.x as usize + 1)
                .take(r.width.saturating_sub(2) as usize)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The sentence under the focused pane, its rows joined again.
fn why_on_screen(app: &mut App, width: u16, height: u16) -> String {
    let rows = screen(app, width, height);
    let r = layout::for_app(app).why.expect("the focused pane says why");
    // The last row of the rectangle is the pane's bottom border.
    let text = inside(
        &rows,
        Rect {
            height: r.height - 1,
            ..r
        },
    );
    text.join(" ").trim().to_string()
}

#[test]
fn a_tie_under_rule_first_names_the_rivals_and_where_the_winner_was_met() {
    let mut app = play(TieRule::First);
    update(&mut app, Action::Advance);
    let expected = "p + l wins: count 10, tied with 2 others (l + a, a + y); \
                    tie rule \"first\": met first, in \"player\" (line 1)";
    assert_eq!(why::line(&app).as_deref(), Some(expected));
    for (w, h) in [(80, 24), (120, 40)] {
        assert_eq!(why_on_screen(&mut app, w, h), expected, "at {w}x{h}");
    }
}

#[test]
fn a_tie_under_rule_lex_says_smallest_pair() {
    let mut app = play(TieRule::Lex);
    update(&mut app, Action::Advance);
    let line = why::line(&app).unwrap();
    // Ids follow first appearance (t h e p l a y ...): a y is the smallest.
    assert!(
        line.starts_with("a + y wins: count 10, tied with 2 others ("),
        "{line}"
    );
    assert!(
        line.ends_with("; tie rule \"lex\": smallest pair"),
        "{line}"
    );
    for (w, h) in [(80, 24), (120, 40)] {
        assert_eq!(why_on_screen(&mut app, w, h), line, "at {w}x{h}");
    }
}

#[test]
fn no_tie_gives_the_next_best_count() {
    let mut app = app_on("abc abc abc ab\n", Mode::Byte, TieRule::First);
    update(&mut app, Action::Advance);
    assert_eq!(
        why::line(&app).as_deref(),
        Some("a + b wins: count 4, next best 3")
    );
}

#[test]
fn the_overlap_case_says_fewer_replacements_than_the_count() {
    let mut app = app_on("aaaa\n", Mode::Char, TieRule::First);
    update(&mut app, Action::Advance);
    let expected = "a + a wins: count 3 but 2 replacements: \"aaaa\" holds 3 \
                    overlapping pairs, merging left to right replaces 2, next best 1";
    assert_eq!(why::line(&app).as_deref(), Some(expected));
    assert_eq!(why_on_screen(&mut app, 80, 24), expected);
    // What the merge then does agrees with what was said.
    update(&mut app, Action::Advance);
    let merge = &app.trainer().merges()[0];
    assert_eq!((merge.count, merge.replacements), (3, 2));
    // Selected in the merge list later, it still says so.
    app.focus = Focus::Merges;
    let line = why::line(&app).unwrap();
    assert!(
        line.starts_with("merge 1: a + a wins: count 3 but 2 replacements"),
        "{line}"
    );
}

#[test]
fn a_selected_merge_says_why_it_won_long_after() {
    let mut app = play(TieRule::First);
    update(&mut app, Action::Goto(5));
    app.focus = Focus::Merges;
    update(&mut app, Action::Scroll(bpeek::tui::action::Scroll::Top));
    let line = why::line(&app).unwrap();
    assert_eq!(
        line,
        "merge 1: p + l wins: count 10, tied with 2 others (l + a, a + y); \
         tie rule \"first\": met first, in \"player\" (line 1)"
    );
    // Undone and made again, the record is the same.
    update(&mut app, Action::Goto(0));
    update(&mut app, Action::Goto(5));
    app.scroll.merge_cursor = Some(0);
    assert_eq!(why::line(&app).unwrap(), line);
}

#[test]
fn the_merged_phase_says_what_the_merge_did_in_the_trainers_numbers() {
    let mut app = common::default_app();
    update(&mut app, Action::Goto(3));
    let before = app.trainer().corpus_tokens();
    let vocab_before = app.trainer().vocab().len();
    update(&mut app, Action::Step);
    let t = app.trainer();
    let after = t.corpus_tokens();
    let bytes = t.corpus().text().len() as f64;
    let (old, new) = (bytes / before as f64, bytes / after as f64);
    let expected = format!(
        "merge 4 made {}: the corpus lost {} tokens ({before} → {after}), vocabulary now {}, \
         bytes per token {old:.3} → {new:.3} ({:+.3})",
        bpeek::tui::panes::rows::label(t.vocab().token_bytes(t.merges()[3].id), &app.theme),
        before - after,
        vocab_before + 1,
        new - old
    );
    assert_eq!(why::line(&app), Some(expected.clone()));
    assert_eq!(why_on_screen(&mut app, 120, 40), expected);
}

/// A corpus read from count files holds each distinct chunk once, not the
/// text: bytes per token are the source's bytes over the tokens, as the
/// status line says them, not the distinct chunks' bytes.
#[test]
fn the_merged_phase_of_a_corpus_from_count_files_counts_the_sources_bytes() {
    let dir = Scratch::new("why-counts");
    let mut app = common::app_on_count_file(&dir.join("counts.parquet"), Mode::Byte);
    let source = bpeek::corpora::default_corpus().text.len() as f64;
    update(&mut app, Action::Step);
    let (after, replaced) = (
        app.trainer().corpus_tokens(),
        app.trainer().merges()[0].replacements,
    );
    let per = |tokens: u64| format!("{:.3}", source / tokens as f64);
    let line = why::line(&app).unwrap();
    assert!(
        line.contains(&format!(
            "bytes per token {} → {}",
            per(after + replaced),
            per(after)
        )),
        "{line}"
    );
}

/// Every pair count, by a fresh walk over the chunks' current tokens.
fn fresh_counts(t: &Trainer) -> BTreeMap<(u32, u32), u64> {
    let mut counts = BTreeMap::new();
    for (c, chunk) in t.corpus().chunks().iter().enumerate() {
        for w in t.chunk_symbols(c).windows(2) {
            *counts.entry((w[0], w[1])).or_default() += chunk.freq;
        }
    }
    counts
}

#[test]
fn changed_only_rows_are_the_pairs_a_fresh_count_sees_change() {
    let mut app = common::default_app();
    update(&mut app, Action::Goto(4));
    let before = fresh_counts(app.trainer());
    update(&mut app, Action::Step);
    let after = fresh_counts(app.trainer());
    let mut want: Vec<((u32, u32), u64, u64)> = before
        .keys()
        .chain(after.keys())
        .map(|p| {
            let (b, a) = (
                before.get(p).copied().unwrap_or(0),
                after.get(p).copied().unwrap_or(0),
            );
            (*p, b, a)
        })
        .filter(|(_, b, a)| b != a)
        .collect();
    want.sort();
    want.dedup();
    let rows = changed::rows(app.trainer());
    let mut got: Vec<((u32, u32), u64, u64)> = rows
        .iter()
        .map(|r| (r.pair, r.change.before, r.change.after))
        .collect();
    got.sort();
    assert_eq!(got, want);
    // Counted pairs first, by rank; the vanished ones after, with the count
    // they had.
    let order: Vec<(u32, u32)> = app.trainer().pairs().iter().map(|(p, _)| p).collect();
    let live: Vec<&changed::ChangedRow> = rows.iter().filter(|r| !r.gone()).collect();
    for r in &live {
        assert_eq!(order[r.rank.unwrap()], r.pair);
        assert_eq!(r.count, after[&r.pair]);
    }
    assert!(live.windows(2).all(|w| w[0].rank < w[1].rank));
    let gone: Vec<&changed::ChangedRow> = rows.iter().filter(|r| r.gone()).collect();
    assert!(!gone.is_empty());
    assert!(rows.iter().skip(live.len()).all(|r| r.gone()));
    for r in &gone {
        assert_eq!(r.count, before[&r.pair]);
        assert!(!after.contains_key(&r.pair));
    }
    let fresh = want.iter().filter(|(_, b, _)| *b == 0).count();

    // On screen, at both sizes: the title keeps the note, gone rows say so.
    press(&mut app, [Event::char('d')]);
    assert!(app.shows(Toggle::ChangedOnly));
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = screen(&mut app, w, h);
        let pane = layout::for_app(&app).pairs.unwrap();
        let title = &screen[pane.y as usize];
        // What does not fit goes as whole items ("of N", then "M gone"),
        // never cut into another number.
        let (new, all) = (
            format!("{fresh} new"),
            format!("{fresh} new, {} gone", gone.len()),
        );
        assert!(
            title.contains(&all) || (w == 80 && title.contains(&format!("{new} ┐"))),
            "{title}"
        );
        assert!(
            title.contains(&format!("Pairs changed {} ", rows.len())),
            "{title}"
        );
        let body = inside(
            &screen,
            Rect {
                y: pane.y + 1,
                height: pane.height - 2,
                ..pane
            },
        );
        let gone_rows = body.iter().filter(|r| r.ends_with("gone")).count();
        // Under the heading row.
        let shown = (body.len() - 1).min(rows.len());
        let expected_gone = rows.iter().take(shown).filter(|r| r.gone()).count();
        assert_eq!(gone_rows, expected_gone, "{}", body.join("\n"));
    }
    press(&mut app, [Event::char('d')]);
    assert!(!app.shows(Toggle::ChangedOnly));
}

#[test]
fn zoom_gives_the_focused_pane_the_screen_and_gives_it_back() {
    let mut app = common::default_app();
    update(&mut app, Action::Goto(3));
    app.focus = Focus::Pairs;
    press(&mut app, [Event::char('z')]);
    assert!(app.shows(Toggle::Zoom));
    let rows = screen(&mut app, 80, 24);
    let panes = layout::for_app(&app);
    assert!(panes.merges.is_none() && panes.encode.is_none());
    let pairs = panes.pairs.unwrap();
    assert_eq!((pairs.x, pairs.y, pairs.width), (0, 1, 80));
    // Status line and footer stay; the pane and its sentence fill the rest.
    assert!(rows[0].contains("merge 3/"), "{}", rows[0]);
    assert!(
        rows[23].contains("z zoom") || rows[23].contains("zoomed"),
        "{}",
        rows[23]
    );
    assert!(rows[1].starts_with("┌ Pairs 351"), "{}", rows[1]);
    let why = panes.why.unwrap();
    assert_eq!(why.y + why.height, 23);
    assert!(!rows.iter().any(|r| r.contains("Corpus")));
    // Fifteen ranks or more, readable from the back of the room.
    let ranks = (pairs.height - 3) as usize;
    assert!(ranks >= 15, "{ranks}");
    let last = &rows[pairs.y as usize + 1 + ranks];
    assert!(last.contains(&format!(" {ranks} ")), "{last}");
    // At 120x40 too, the pane spans the whole width.
    let rows = screen(&mut app, 120, 40);
    let pairs = layout::for_app(&app).pairs.unwrap();
    assert_eq!((pairs.x, pairs.y, pairs.width), (0, 1, 120));
    assert!(rows[1].starts_with("┌ Pairs 351"), "{}", rows[1]);
    assert!(
        !rows
            .iter()
            .any(|r| r.contains("Corpus") || r.contains("Merges"))
    );
    press(&mut app, [Event::char('z')]);
    assert!(!app.shows(Toggle::Zoom));
    let rows = screen(&mut app, 80, 24);
    assert!(rows.iter().any(|r| r.contains("Corpus: bakery")));
}

#[test]
fn the_corpus_follows_the_round_unless_the_user_scrolled() {
    // The pair a b first occurs on line 30; x y fills the lines before.
    let mut text = String::new();
    for _ in 0..29 {
        text.push_str("xy xy xy xy\n");
    }
    text.push_str("ab\n");
    let mut app = app_on(&text, Mode::Byte, TieRule::First);
    update(&mut app, Action::Resize(80, 24));
    // Merges: x y first (count 116), then a b, ... find the round of a b.
    update(&mut app, Action::Step);
    assert_eq!(app.scroll.corpus.line, 0, "x y is on the first line");
    // Undo to merge 0, scroll by hand, then step: the view stays.
    update(&mut app, Action::Undo);
    app.focus = Focus::Corpus;
    update(&mut app, Action::Scroll(bpeek::tui::action::Scroll::Down));
    let moved = app.scroll.corpus;
    update(&mut app, Action::Step);
    assert_eq!(app.scroll.corpus, moved);
    // The next steps follow again: find the one that makes a b.
    while app.trainer().merges().last().map(|m| m.pair) != Some((u32::from(b'a'), u32::from(b'b')))
    {
        update(&mut app, Action::Step);
    }
    assert_eq!(app.scroll.corpus.line, 29);
}

#[test]
fn find_says_which_place_of_how_many() {
    let mut app = play(TieRule::First);
    update(&mut app, Action::Advance);
    // p l is in player, played, players, play, replay, play, displayed,
    // plays, played, replay: 10 words on one line, found one by one.
    for k in 1..=10 {
        press(&mut app, [Event::char('/')]);
        assert_eq!(
            app.notice.as_deref(),
            Some(format!("the chosen pair: {k} of 10").as_str())
        );
    }
    press(&mut app, [Event::char('/')]);
    assert_eq!(
        app.notice.as_deref(),
        Some("the chosen pair: 1 of 10 (wrapped to the start)")
    );
}

/// The buffer of one frame at `width`x`height`.
fn frame(app: &mut App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new([])).unwrap();
    terminal.backend().buffer().clone()
}

#[test]
fn token_colours_differ_between_neighbours_in_both_palettes_and_vanish_without_colour() {
    use bpeek::tui::theme::{Mark, Palette};
    use ratatui::style::Color;
    for palette in [Palette::Wide, Palette::Basic] {
        let t = Theme::new(true, false).with_palette(palette);
        let colours: Vec<Color> = (0..12)
            .map(|i| t.token_at(i, Mark::None).fg.unwrap())
            .collect();
        let distinct: std::collections::BTreeSet<String> =
            colours.iter().map(|c| format!("{c:?}")).collect();
        assert!(distinct.len() >= 6, "{palette:?}: {distinct:?}");
        assert!(colours.windows(2).all(|w| w[0] != w[1]));
        for c in &colours {
            // No grey, no black or white: readable on dark and light.
            assert!(
                !matches!(
                    c,
                    Color::Black | Color::White | Color::Gray | Color::DarkGray | Color::Reset
                ),
                "{c:?}"
            );
            if palette == Palette::Basic {
                assert!(!matches!(c, Color::Indexed(_) | Color::Rgb(..)), "{c:?}");
            }
        }
        // Marks keep their own look over the palette.
        assert_eq!(t.token_at(4, Mark::Chosen), t.token(false, Mark::Chosen));
    }
    let plain = Theme::new(false, false);
    for i in 0..12 {
        assert_eq!(plain.token_at(i, Mark::None).fg, None);
        assert_eq!(plain.token_colour(i), None);
    }
}

#[test]
fn ids_sit_under_their_tokens_in_their_colours() {
    let trainer = Trainer::new(
        b"the baker bakes the bread\n".repeat(10),
        TrainerConfig::default(),
    )
    .unwrap();
    let mut app = App::from_trainer("sample", trainer, Theme::new(true, false));
    update(&mut app, Action::Goto(6));
    update(&mut app, Action::Paste("the baker bakes bread".into()));
    update(&mut app, Action::StopEditing);
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = frame(&mut app, w, h);
        let pane = layout::for_app(&app).encode.unwrap();
        let (text_y, ids_y) = (pane.y + 1, pane.y + 2);
        let encoded = app.encode.encoded();
        // Walk the ids row: each id starts where its token starts above it,
        // in the same colour.
        let mut x = pane.x + 1;
        let mut seen = 0;
        while x < pane.x + pane.width - 1 {
            let cell = &buf[(x, ids_y)];
            if cell.symbol().trim().is_empty() {
                x += 1;
                continue;
            }
            let mut id = String::new();
            let start = x;
            while buf[(x, ids_y)].symbol().chars().all(|c| c.is_ascii_digit())
                && !buf[(x, ids_y)].symbol().trim().is_empty()
            {
                id.push_str(buf[(x, ids_y)].symbol());
                x += 1;
            }
            let token = &encoded[seen];
            assert_eq!(id, token.id.to_string(), "at {w}x{h}");
            let above = &buf[(start, text_y)];
            // Under ids a space is drawn as its glyph.
            let text = String::from_utf8_lossy(&token.bytes).replace(' ', "·");
            assert!(
                text.starts_with(above.symbol()),
                "token {text:?} at column {start}: {:?}",
                above.symbol()
            );
            // A leading space's glyph has the glyph colour; the token's own
            // colour is on its first letter.
            let letter = if text.starts_with('·') && text.len() > '·'.len_utf8() {
                &buf[(start + 1, text_y)]
            } else {
                above
            };
            assert_eq!(cell.fg, letter.fg, "{text:?}");
            assert!(matches!(cell.fg, ratatui::style::Color::Indexed(_)));
            seen += 1;
        }
        assert_eq!(seen, encoded.len(), "every id shown at {w}x{h}");
    }
}

#[test]
fn the_encode_box_says_when_rows_are_hidden() {
    let mut app = common::default_app();
    let lines: Vec<String> = (0..12).map(|i| format!("line {i}")).collect();
    update(&mut app, Action::Paste(lines.join("\n")));
    update(&mut app, Action::StopEditing);
    let rows = screen(&mut app, 80, 24);
    let pane = layout::for_app(&app).encode.unwrap();
    let bottom = &rows[(pane.y + pane.height - 1) as usize];
    // Eight lines of 7 bytes were never laid out; three rows were, and do
    // not fit. Every hidden part is counted.
    assert!(
        bottom.contains("3 rows and 56 bytes hidden above"),
        "{bottom}"
    );
    // Scrolled to the top, the rest is below.
    update(&mut app, Action::Scroll(bpeek::tui::action::Scroll::Top));
    let rows = screen(&mut app, 80, 24);
    let bottom = &rows[(pane.y + pane.height - 1) as usize];
    assert!(
        bottom.contains("3 rows and 57 bytes hidden below"),
        "{bottom}"
    );
}

#[test]
fn counts_and_notes_are_never_dim_grey_only() {
    use ratatui::style::Modifier;
    let mut app = common::default_app();
    app.theme = Theme::new(true, false);
    update(&mut app, Action::Goto(3));
    update(&mut app, Action::Paste("the baker".into()));
    update(&mut app, Action::StopEditing);
    let buf = frame(&mut app, 120, 40);
    let panes = layout::for_app(&app);
    for (rect, what) in [
        (panes.pairs.unwrap(), "new"),
        (panes.encode.unwrap(), "tokens"),
    ] {
        let y = rect.y;
        let row: String = (rect.x..rect.x + rect.width)
            .map(|x| buf[(x, y)].symbol())
            .collect();
        let at = row.find(what).unwrap_or_else(|| panic!("{what} in {row}"));
        let x = rect.x + row[..at].chars().count() as u16;
        let cell = &buf[(x, y)];
        assert!(!cell.modifier.contains(Modifier::DIM), "{what}: {row}");
        assert_ne!(cell.fg, ratatui::style::Color::DarkGray, "{what}: {row}");
    }
}

#[test]
fn the_chunk_table_lists_each_word_by_a_fresh_count_with_its_tokens() {
    let text = "low low low lower lowest newer newest\n";
    let mut app = app_on(text, Mode::Char, TieRule::First);
    press(&mut app, [Event::char('v')]);
    assert!(app.shows(Toggle::ChunkTable));
    // A fresh count of the words.
    let mut words: BTreeMap<&str, u64> = BTreeMap::new();
    for w in text.split_whitespace() {
        *words.entry(w).or_default() += 1;
    }
    let check = |app: &mut App, w: u16, h: u16| {
        let rows = screen(app, w, h);
        let pane = layout::for_app(app).corpus;
        let body = inside(
            &rows,
            Rect {
                y: pane.y + 1,
                height: pane.height - 2,
                ..pane
            },
        );
        let listed: Vec<&String> = body.iter().filter(|r| !r.trim().is_empty()).collect();
        assert_eq!(listed.len(), words.len(), "{}", body.join("\n"));
        let mut last = u64::MAX;
        for row in listed {
            let (tokens, count) = row.rsplit_once('×').unwrap();
            let count: u64 = count.trim().parse().unwrap();
            let spelled: String = tokens
                .chars()
                .skip(2)
                .collect::<String>()
                .split_whitespace()
                .collect::<String>()
                .replace('⌟', "");
            assert_eq!(words.get(spelled.as_str()), Some(&count), "{row}");
            assert!(count <= last, "most frequent first");
            last = count;
        }
        rows
    };
    let rows = check(&mut app, 80, 24);
    assert!(
        rows.iter()
            .any(|r| r.contains("l o w ⌟") && r.contains("×3"))
    );
    // After merges the rows show the new tokens, the changed ones marked.
    update(&mut app, Action::Goto(2));
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = check(&mut app, w, h);
        assert!(
            rows.iter()
                .any(|r| r.contains("► low ⌟") && r.contains("×3")),
            "{}",
            rows.join("\n")
        );
        assert!(rows.iter().any(|r| r.contains("  n e w e r ⌟")));
    }
    // The chosen pair is marked in every row that holds it.
    update(&mut app, Action::Advance);
    update(&mut app, Action::Advance);
    let chunks = bpeek::tui::panes::chunk_table::rows(app.trainer(), 0, 10);
    let (a, b) = match app.trainer().phase() {
        bpeek::bpe::Phase::Chosen(c) => c.pair,
        _ => panic!("chosen"),
    };
    for r in &chunks {
        let holds = r.tokens.windows(2).any(|w| w == [a, b]);
        assert_eq!(r.holds_chosen, holds);
    }
    press(&mut app, [Event::char('v')]);
    assert!(!app.shows(Toggle::ChunkTable));
}

#[test]
fn the_merge_tree_of_a_token_built_by_three_merges() {
    // "abcd" merged as a b, c d (the smaller pair of the tie), ab cd.
    let mut app = app_on("abcd abcd abcd\n", Mode::Byte, TieRule::Lex);
    update(&mut app, Action::Goto(3));
    let names: Vec<String> = app
        .trainer()
        .merges()
        .iter()
        .map(|m| {
            bpeek::tui::panes::rows::label(app.trainer().vocab().token_bytes(m.id), &app.theme)
        })
        .collect();
    let abcd = names
        .iter()
        .position(|n| n == "abcd")
        .expect("abcd is made");
    app.focus = Focus::Merges;
    app.scroll.merge_cursor = Some(abcd);
    press(&mut app, [Event::key(crossterm::event::KeyCode::Enter)]);
    let tree = app.tree.clone().expect("Enter opens the tree");
    let rank = |n: &str| names.iter().position(|x| x == n).unwrap();
    assert_eq!(
        tree.title,
        format!("abcd, merge {} of the merges so far", abcd + 1)
    );
    assert_eq!(
        tree.lines,
        vec![
            (
                0,
                // Merges counted from 1, as the status line counts them.
                format!("abcd = ab ({}) + cd ({})", rank("ab") + 1, rank("cd") + 1)
            ),
            (1, "ab = a + b".to_string()),
            (1, "cd = c + d".to_string()),
        ]
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen(&mut app, w, h);
        let text = rows.join("\n");
        assert!(text.contains("abcd = ab ("), "{text}");
        assert!(text.contains("  ab = a + b"), "{text}");
        assert!(text.contains("Esc closes"), "{text}");
    }
    press(&mut app, [Event::key(crossterm::event::KeyCode::Esc)]);
    assert!(app.tree.is_none());

    // In the encode box: select the token with ] and press Enter.
    update(&mut app, Action::Paste("abcd".into()));
    update(&mut app, Action::StopEditing);
    press(
        &mut app,
        [
            Event::char(']'),
            Event::key(crossterm::event::KeyCode::Enter),
        ],
    );
    let tree = app.tree.clone().expect("the encode box's token has a tree");
    assert_eq!(tree.lines.len(), 3);
    assert!(tree.lines[0].1.starts_with("abcd = ab"), "{:?}", tree.lines);
}

#[test]
fn the_curve_follows_the_trainers_token_counts() {
    let mut app = common::default_app();
    update(&mut app, Action::Goto(30));
    let points = bpeek::tui::panes::curve::tokens_by_merge(app.trainer());
    assert_eq!(points.len(), 31);
    // Against the trainer itself, merge by merge.
    let mut fresh = common::default_app();
    for (k, &p) in points.iter().enumerate() {
        update(&mut fresh, Action::Goto(k));
        assert_eq!(fresh.trainer().corpus_tokens(), p, "after {k} merges");
    }
    // At 120x40 it sits under the merge list; not at 80x24 unless zoomed.
    let rows = screen(&mut app, 120, 40);
    let curve = layout::for_app(&app).curve.expect("room for the curve");
    let title = &rows[curve.y as usize];
    assert!(
        title.contains(&format!("{} → {} tokens", points[0], points[30])),
        "{title}"
    );
    // The merge marked is said in the bottom border.
    let border = &rows[(curve.y + curve.height - 1) as usize];
    assert!(
        border.contains(&format!("30 merges: {} tokens", points[30])),
        "{border}"
    );
    screen(&mut app, 80, 24);
    assert!(layout::for_app(&app).curve.is_none());
    app.focus = Focus::Merges;
    press(&mut app, [Event::char('z')]);
    screen(&mut app, 80, 24);
    assert!(layout::for_app(&app).curve.is_some());
    // It shrinks on undo.
    update(&mut app, Action::Undo);
    assert_eq!(
        bpeek::tui::panes::curve::tokens_by_merge(app.trainer()).len(),
        30
    );
}

use bpeek::tui::lesson::{Command, Lesson};

fn lesson_app(lesson: &Lesson) -> App {
    let options = lesson.training_options(None).unwrap();
    let mut app = App::from_options(&options, Theme::plain()).unwrap();
    app.lesson = Some(lesson.clone());
    app
}

fn bundled(name: &str) -> Lesson {
    let l = bpeek::corpora::find_lesson(name).unwrap();
    Lesson::parse(l.name, l.text).unwrap()
}

#[test]
fn a_bad_lesson_is_an_error_naming_its_line() {
    let cases = [
        (
            "corpus play\nstep one\n",
            "line 2: step takes a merge number",
        ),
        (
            "corpus play\n\n# a comment\njump 3\n",
            "line 4: unknown command \"jump\"",
        ),
        (
            "corpus play\nstep 1 \"no end\n",
            "line 2: the caption has no closing quote",
        ),
        ("say\n", "line 1: say takes a quoted caption"),
        (
            "corpus play\noptions --mode words\nstep 1\n",
            "line 2: unknown mode",
        ),
        ("corpus play\noptions --merges x\nstep 1\n", "line 2:"),
        (
            "corpus play\nphase done\n",
            "line 2: phase takes counted, chosen or merged",
        ),
        (
            "corpus play\nstep 1 \"a\" b\n",
            "line 2: a caption ends the line",
        ),
        (
            "step 1\ncorpus play\n",
            "line 2: corpus comes before the first step",
        ),
        ("corpus play\n", "the lesson has no steps"),
    ];
    for (text, want) in cases {
        let e = Lesson::parse("demo.lesson", text).unwrap_err().to_string();
        assert!(e.starts_with("demo.lesson: "), "{e}");
        assert!(e.contains(want), "{text:?}: {e}");
    }
    let l = Lesson::parse(
        "ok",
        "corpus play \"intro\"\nstep 2 \"two \\\"quoted\\\"\"\nphase chosen\nsay \"hi\"\n",
    )
    .unwrap();
    assert_eq!(l.intro.as_deref(), Some("intro"));
    assert_eq!(l.steps[0].command, Command::Step(2));
    assert_eq!(l.steps[0].caption.as_deref(), Some("two \"quoted\""));
    assert_eq!(l.steps[1].caption, None);
    assert_eq!(l.steps[2].command, Command::Say);
}

/// The keys a user would type for a lesson step, from where training is.
fn typed_for(app: &App, command: &Command) -> Vec<Event> {
    use bpeek::tui::lesson::PhaseName;
    match command {
        Command::Step(n) => {
            let mut keys = vec![Event::char('g')];
            keys.extend(n.to_string().chars().map(Event::char));
            keys.push(Event::key(crossterm::event::KeyCode::Enter));
            keys
        }
        Command::Phase(want) => {
            let now = app.trainer().phase().name();
            match (now, want) {
                (n, w) if n == w.name() => vec![],
                ("chosen", PhaseName::Counted) => vec![Event::char('p')],
                ("merged", PhaseName::Chosen) => vec![Event::char('.'), Event::char('.')],
                _ => vec![Event::char('.')],
            }
        }
        Command::StepTo(..) => panic!("the bundled lessons give a step's phase a line of its own"),
        Command::Say => vec![],
    }
}

#[test]
fn replaying_a_lesson_shows_what_typing_the_same_actions_shows() {
    for name in ["classic", "bytes"] {
        let lesson = bundled(name);
        let mut played = lesson_app(&lesson);
        let mut typed = lesson_app(&lesson);
        for (i, step) in lesson.steps.iter().enumerate() {
            press(&mut played, [Event::char(' ')]);
            let keys = typed_for(&typed, &step.command);
            press(&mut typed, keys);
            // Same caption bar on both, so the panes have the same room.
            typed.lesson.as_mut().unwrap().at = Some(i);
            for (w, h) in [(80, 24), (120, 40)] {
                let a = screen(&mut played, w, h);
                let b = screen(&mut typed, w, h);
                // The footer may hold a notice on one of them.
                assert_eq!(a[..a.len() - 1], b[..b.len() - 1], "{name}, step {}", i + 1);
            }
        }
        // Left goes back to the screen of the step before.
        press(&mut played, [Event::key(crossterm::event::KeyCode::Left)]);
        let mut again = lesson_app(&lesson);
        for _ in 0..lesson.steps.len() - 1 {
            press(&mut again, [Event::char(' ')]);
        }
        let (a, b) = (screen(&mut played, 80, 24), screen(&mut again, 80, 24));
        assert_eq!(a[..23], b[..23], "{name}: back one step");
    }
}

#[test]
fn the_bundled_lessons_say_what_the_trainer_does() {
    let lesson = bundled("classic");
    let mut app = lesson_app(&lesson);
    press(&mut app, [Event::char(' '), Event::char(' ')]);
    // "Every l o is now lo: 38 tokens became 33."
    assert_eq!(app.trainer().merges()[0].count, 5);
    assert_eq!(app.trainer().corpus_tokens(), 33);
    let mut rest = vec![Event::char(' '); lesson.steps.len() - 2];
    rest.push(Event::char(' '));
    press(&mut app, rest);
    // "Ten merges: 38 tokens down to 11."
    assert_eq!(app.trainer().merges().len(), 10);
    assert_eq!(app.trainer().corpus_tokens(), 11);
    assert_eq!(
        app.notice.as_deref(),
        Some("end of the lesson (Left goes back)")
    );

    let lesson = bundled("bytes");
    let mut app = lesson_app(&lesson);
    press(&mut app, [Event::char(' ')]);
    let line = why::line(&app).unwrap();
    assert!(
        line.starts_with("a + a wins: count 10 but 6 replacements"),
        "{line}"
    );
    assert!(
        line.contains("holds 2 overlapping pairs") || line.contains("holds 3 overlapping pairs"),
        "{line}"
    );
    press(&mut app, [Event::char(' ')]);
    assert_eq!(app.trainer().corpus_tokens(), 58);
    press(&mut app, vec![Event::char(' '); 3]);
    assert_eq!(
        app.trainer().corpus_tokens(),
        64 - 6 - 6 - 5 - 4 - 3 - 2 - 2 - 2
    );
    assert_eq!(app.trainer().corpus_tokens(), 34);
}

#[test]
fn a_recorded_session_replays_as_a_lesson() {
    use bpeek::tui::lesson::record::Recording;
    let mut app = play(TieRule::First);
    app.recording = Some(Recording::new(app.current));
    let mut keys: Vec<Event> = "nn..p.".chars().map(Event::char).collect();
    keys.extend("g5".chars().map(Event::char));
    keys.push(Event::key(crossterm::event::KeyCode::Enter));
    keys.extend("pp..".chars().map(Event::char));
    press(&mut app, keys);
    let text = app.recording.as_ref().unwrap().text("play", &app.options);
    let lesson = Lesson::parse("recorded", &text).unwrap();
    assert!(lesson.steps.iter().all(|s| s.caption.is_none()));
    // Replayed on a fresh app, the lesson ends where the session ended.
    let mut replay = play(TieRule::First);
    replay.lesson = Some(lesson.clone());
    press(&mut replay, vec![Event::char(' '); lesson.steps.len()]);
    assert_eq!(replay.trainer().merges(), app.trainer().merges());
    assert_eq!(replay.trainer().phase(), app.trainer().phase());
    replay.lesson = None;
    let (a, b) = (screen(&mut replay, 80, 24), screen(&mut app, 80, 24));
    assert_eq!(a[..23], b[..23]);
    // Every state the session passed through is a step of the lesson.
    assert_eq!(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        [
            "corpus play",
            "step 1",
            "step 2",
            "phase counted",
            "phase chosen",
            "phase counted",
            "phase chosen",
            "step 5",
            "step 4 counted",
            "step 3 counted",
            "phase chosen",
            "step 4",
        ]
    );
}

/// What a lesson step shows of training: where it stands and the pair
/// table's head with its changes.
fn shown(
    app: &App,
) -> (
    usize,
    &'static str,
    Vec<bpeek::bpe::train::trainer::PairRow>,
) {
    let t = app.trainer();
    (t.merges().len(), t.phase().name(), t.top_pairs(12))
}

#[test]
fn every_recorded_line_replays_to_the_state_the_session_showed_then() {
    use bpeek::tui::lesson::record::Recording;
    for keys in ["..nnpp.n", "nnnn.pppp..", "n.p.p.nn"] {
        let mut app = play(TieRule::First);
        app.recording = Some(Recording::new(app.current));
        let mut seen = Vec::new();
        let mut events: Vec<Vec<Event>> = keys.chars().map(|c| vec![Event::char(c)]).collect();
        events.push(
            "g7".chars()
                .map(Event::char)
                .chain([Event::key(crossterm::event::KeyCode::Enter)])
                .collect(),
        );
        events.push(vec![Event::char('p')]);
        events.push(vec![Event::char('.')]);
        for event in events {
            let lines = app.recording.as_ref().unwrap().lines.len();
            press(&mut app, event);
            if app.recording.as_ref().unwrap().lines.len() > lines {
                seen.push(shown(&app));
            }
        }
        let text = app.recording.as_ref().unwrap().text("play", &app.options);
        let lesson = Lesson::parse("recorded", &text).unwrap();
        assert_eq!(lesson.steps.len(), seen.len(), "{text}");
        let mut replay = play(TieRule::First);
        replay.lesson = Some(lesson);
        let mut before = shown(&replay);
        for (i, want) in seen.iter().enumerate() {
            press(&mut replay, [Event::char(' ')]);
            let now = shown(&replay);
            assert_ne!(
                now,
                before,
                "{keys}: lesson step {} changes nothing\n{text}",
                i + 1
            );
            assert_eq!(&now, want, "{keys}: lesson step {}\n{text}", i + 1);
            before = now;
        }
    }
}

#[test]
fn corpora_lists_the_lessons_and_a_bad_lesson_stops_before_the_screen() {
    let bin = env!("CARGO_BIN_EXE_bpeek");
    let out = std::process::Command::new(bin)
        .arg("corpora")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("classic ") && l.contains("lesson")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("bytes ") && l.contains("lesson")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("echo ")), "{text}");

    let dir = Scratch::new("lesson");
    let file = dir.join("bad.lesson");
    std::fs::write(&file, "corpus play\nstep 1\nstep x\n").unwrap();
    let out = std::process::Command::new(bin)
        .args(["tui", "--lesson"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.lesson: line 3: step takes a merge number"),
        "{err}"
    );
    let out = std::process::Command::new(bin)
        .args(["tui", "--lesson", "classic", "--mode", "char"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = std::process::Command::new(bin)
        .args(["tui", "--lesson", "nosuch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bundled: classic, bytes"));
}

/// The explorer taken to `merges` and `phase` by steps forward only, as a
/// class first sees that state.
fn forward_to(tie: TieRule, merges: usize, phase: &str) -> App {
    let mut app = play(tie);
    press(&mut app, vec![Event::char('n'); merges]);
    let dots = match (merges, phase) {
        (_, "merged") | (0, "counted") => 0,
        (0, _) | (_, "counted") => 1,
        _ => 2,
    };
    press(&mut app, vec![Event::char('.'); dots]);
    app
}

#[test]
fn after_a_step_back_or_a_go_to_the_screen_is_the_one_the_steps_forward_showed() {
    let mut rng = common::Rng(5);
    for walk in 0..6 {
        let mut app = play(TieRule::First);
        for _ in 0..25 {
            let keys: Vec<Event> = match rng.below(6) {
                0 | 1 => vec![Event::char('p')],
                2 => vec![Event::char('n')],
                3 => vec![Event::char('.')],
                _ => {
                    let to = rng.below(12).to_string();
                    std::iter::once('g')
                        .chain(to.chars())
                        .map(Event::char)
                        .chain([Event::key(crossterm::event::KeyCode::Enter)])
                        .collect()
                }
            };
            press(&mut app, keys);
            let (merges, phase) = (app.trainer().merges().len(), app.trainer().phase().name());
            let mut fresh = forward_to(TieRule::First, merges, phase);
            // The footer says what the last key did; the rest is the state.
            let (a, b) = (screen(&mut app, 100, 30), screen(&mut fresh, 100, 30));
            assert_eq!(
                a[..29],
                b[..29],
                "walk {walk}: at merge {merges}, {phase}, after {:?}",
                app.trainer().merges().len()
            );
        }
    }
}

#[test]
fn keys_pressed_while_a_lesson_step_runs_wait_their_turn() {
    let lesson = bundled("classic");
    let keys = |s: &str| -> Vec<Event> {
        s.chars()
            .map(|c| match c {
                '<' => Event::key(crossterm::event::KeyCode::Left),
                '>' => Event::key(crossterm::event::KeyCode::Right),
                c => Event::char(c),
            })
            .collect()
    };
    for (before, quick) in [
        ("    <<<", "< "),
        ("    ", "<p"),
        ("   ", "<<  "),
        ("  ", " < n"),
    ] {
        // Each key of `quick` pressed while the step before it still runs.
        let mut hurried = lesson_app(&lesson);
        hurried.jobs.slice = std::time::Duration::ZERO;
        press(&mut hurried, keys(before));
        for event in keys(quick) {
            let Event::Key(key) = event else { continue };
            if let Some(action) = bpeek::tui::keymap::action_for(&hurried, &key) {
                update(&mut hurried, action);
            }
        }
        common::finish_job(&mut hurried);
        // The same keys, each after the one before has finished.
        let mut patient = lesson_app(&lesson);
        press(&mut patient, keys(before));
        press(&mut patient, keys(quick));
        let at = |a: &App| (a.lesson.as_ref().unwrap().at, shown(a));
        assert_eq!(at(&hurried), at(&patient), "{before:?} then {quick:?}");
    }
}

/// Every line of the help overlay, read through all of it.
fn help_text(app: &mut App) -> String {
    update(app, Action::ToggleHelp);
    let mut text = String::new();
    for _ in 0..40 {
        text += &screen(app, 100, 30).join("\n");
        update(app, Action::Scroll(bpeek::tui::action::Scroll::PageDown));
    }
    update(app, Action::ToggleHelp);
    text
}

#[test]
fn help_ends_with_a_glossary_and_lists_lesson_keys_only_in_a_lesson() {
    let mut app = common::default_app();
    let text = help_text(&mut app);
    for term in [
        "What the screen shows",
        "counted",
        "phase: the pair to merge",
        "premium",
        "[UNK]",
    ] {
        assert!(text.contains(term), "{term}:\n{text}");
    }
    // Glyphs as the screen draws them: ASCII on an ASCII screen.
    let beside = |text: &str, term: &str, meaning: &str| {
        text.lines()
            .any(|l| l.contains(&format!(" {term} ")) && l.contains(meaning))
    };
    assert!(beside(&text, "⌟", "char mode: the end of a word"), "{text}");
    assert!(!text.contains("lesson: next step"), "{text}");
    let mut ascii = common::default_app();
    ascii.theme = Theme::new(false, true);
    let text = help_text(&mut ascii);
    assert!(beside(&text, "]", "char mode: the end of a word"), "{text}");
    assert!(
        text.contains("reverse"),
        "without colour, marks by their look: {text}"
    );

    let mut lesson = lesson_app(&bundled("classic"));
    let text = help_text(&mut lesson);
    assert!(text.contains("lesson: next step"), "{text}");
}

#[test]
fn an_empty_merge_list_says_how_to_fill_it() {
    let mut app = common::default_app();
    let rows = screen(&mut app, 80, 24);
    let text = rows.join("\n");
    assert!(text.contains("no merges yet: . picks the pair"), "{text}");
    assert!(
        text.contains("? lists every key"),
        "the hint is whole: {text}"
    );
    update(&mut app, Action::Step);
    let text = screen(&mut app, 80, 24).join("\n");
    assert!(!text.contains("no merges yet"), "{text}");
}
