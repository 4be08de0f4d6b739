//! Every tokenizer's cut of one text at once (key `B`): a band each, the
//! cuts on the same columns, the stretches cut differently underlined and
//! the selected token's bytes highlighted in every band. What is expected
//! is worked out here from each tokenizer's own tokens (their byte
//! lengths, laid end to end), not from the view's code.

use bpeek::bpe::Tokenizer;
use bpeek::tui::fertility::cuts::{Cut, is_baseline};
use bpeek::tui::panes::rows::cell_width;
use bpeek::tui::theme::Glyphs;
use bpeek::tui::view::fertility::bands::{Unit, lay_out};
use bpeek::tui::{Action, App, Event, update};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use std::collections::BTreeSet;
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

mod common;
use common::{default_app, loaded, press, rows_of};

#[path = "hf/texts.rs"]
mod texts;

const MIXED: &str = "Hello नमस्ते 你好 😀 12345 world";

/// The explorer after some training, `text` typed into the encode box and
/// the bands shown, every tokenizer loaded, the box zoomed.
fn bands_app(text: &str) -> App {
    let mut app = default_app();
    press(
        &mut app,
        "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnn".chars().map(Event::char),
    );
    press(&mut app, [Event::char('e')]);
    update(&mut app, Action::Paste(text.to_string()));
    press(&mut app, [Event::key(KeyCode::Esc), Event::char('B')]);
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(loaded(&spec)));
    }
    press(&mut app, [Event::char('z')]);
    assert!(app.fert.cuts.on);
    app
}

fn render(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    common::redraw_whole(&mut terminal, app);
    terminal
}

/// The tokenizers that get a band, with their labels.
fn banded(app: &App) -> Vec<(String, std::sync::Arc<Tokenizer>)> {
    (0..app.toks.slots.len())
        .filter(|&i| !is_baseline(&app.toks.slots[i].spec))
        .map(|i| {
            let tok = app.toks.get(i).expect("loaded").clone();
            (app.toks.slots[i].label.clone(), tok)
        })
        .collect()
}

/// Where each token of `tok` ends, its bytes laid end to end: the cuts
/// inside the text.
fn cuts_of(tok: &Tokenizer, text: &str) -> BTreeSet<usize> {
    let mut at = 0;
    let mut out = BTreeSet::new();
    for id in tok.encode(text, false) {
        at += tok.describe(id).bytes.len();
        if at < text.len() {
            out.insert(at);
        }
    }
    assert_eq!(at, text.len(), "byte-level tokens tile the text");
    out
}

/// A band's text row: the one under its label.
fn band_row(rows: &[String], label: &str) -> usize {
    rows.iter()
        .position(|r| r.contains(&format!(" {label} · ")))
        .unwrap_or_else(|| panic!("no band {label}:\n{}", rows.join("\n")))
        + 1
}

/// What the band of `cuts` draws in each column, worked out from the
/// text alone: a gap column before every character where any band cuts
/// (`│` where this one cuts at it, `┊` inside it); a gap where this band
/// does not cut is drawn blank at the end of its token, before its next
/// cut, so that a token reads whole. Then the character. With the
/// character's bytes.
fn expected_row(
    text: &str,
    all: &[BTreeSet<usize>],
    cuts: &BTreeSet<usize>,
) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    let mut held = 0;
    for (s, g) in text.grapheme_indices(true) {
        let e = s + g.len();
        let cut_in = |c: &BTreeSet<usize>| c.range(s..e).next().is_some();
        if all.iter().any(cut_in) {
            let mark = if cuts.contains(&s) {
                "│"
            } else if cut_in(cuts) {
                "┊"
            } else {
                held += 1;
                continue_after_gap(&mut out, s, g);
                continue;
            };
            for _ in 0..std::mem::take(&mut held) {
                out.push((" ".to_string(), s..s));
            }
            out.push((mark.to_string(), s..s));
        }
        continue_after_gap(&mut out, s, g);
    }
    for _ in 0..held {
        out.push((" ".to_string(), text.len()..text.len()));
    }
    out
}

/// The character `g` at byte `s`, as a band draws it.
fn continue_after_gap(out: &mut Vec<(String, Range<usize>)>, s: usize, g: &str) {
    let e = s + g.len();
    let shown = if g == " " { "·" } else { g };
    out.push((shown.to_string(), s..e));
    for _ in 1..cell_width(shown) {
        out.push((String::new(), s..e));
    }
}

fn cell_at(buf: &Buffer, x: usize, y: usize) -> &ratatui::buffer::Cell {
    &buf[(x as u16, y as u16)]
}

#[test]
fn every_band_counts_the_tokens_the_library_gives() {
    let mut app = bands_app(MIXED);
    let terminal = render(&mut app, 100, 40);
    let rows = rows_of(terminal.backend());
    let bands = banded(&app);
    assert_eq!(bands.len(), 4, "trained, gpt2, cl100k, o200k");
    for (label, tok) in &bands {
        let n = tok.encode(MIXED, false).len();
        let want = format!(" {label} · {n} tokens");
        assert!(
            rows.iter().any(|r| r.contains(&want)),
            "{want:?}:\n{}",
            rows.join("\n")
        );
    }
    // No band for the byte baseline.
    assert!(
        !rows
            .iter()
            .any(|r| r.contains("│  bytes · ") || r.contains("│► bytes · "))
    );
}

#[test]
fn cuts_line_up_in_columns_across_bands_on_mixed_scripts() {
    let mut app = bands_app(MIXED);
    let terminal = render(&mut app, 100, 40);
    let buf = terminal.backend().buffer().clone();
    let rows = rows_of(terminal.backend());
    let bands = banded(&app);
    let all: Vec<BTreeSet<usize>> = bands.iter().map(|(_, t)| cuts_of(t, MIXED)).collect();
    // Not all alike, or the test would show nothing.
    assert!(all.windows(2).any(|w| w[0] != w[1]));
    for ((label, _), cuts) in bands.iter().zip(&all) {
        let y = band_row(&rows, label);
        let want = expected_row(MIXED, &all, cuts);
        for (col, (symbol, _)) in want.iter().enumerate() {
            if symbol.is_empty() {
                continue;
            }
            // The box's border is column 0.
            let got = cell_at(&buf, col + 1, y).symbol();
            assert_eq!(got, symbol, "{label}, column {col}:\n{}", rows.join("\n"));
        }
    }
}

#[test]
fn a_stretch_cut_differently_is_underlined_in_every_band() {
    let mut app = bands_app(MIXED);
    let terminal = render(&mut app, 100, 40);
    let buf = terminal.backend().buffer().clone();
    let rows = rows_of(terminal.backend());
    let bands = banded(&app);
    let all: Vec<BTreeSet<usize>> = bands.iter().map(|(_, t)| cuts_of(t, MIXED)).collect();
    let every: BTreeSet<usize> = all.iter().flatten().copied().collect();
    let common: Vec<usize> = std::iter::once(0)
        .chain(
            every
                .iter()
                .copied()
                .filter(|b| all.iter().all(|c| c.contains(b))),
        )
        .chain(std::iter::once(MIXED.len()))
        .collect();
    // From one cut all bands make to the next, where some band cuts between.
    let differing: Vec<Range<usize>> = common
        .windows(2)
        .filter(|w| every.range(w[0] + 1..w[1]).next().is_some())
        .map(|w| w[0]..w[1])
        .collect();
    assert!(!differing.is_empty());
    let (mut marked, mut plain) = (0, 0);
    for ((label, _), cuts) in bands.iter().zip(&all) {
        let y = band_row(&rows, label);
        for (col, (symbol, bytes)) in expected_row(MIXED, &all, cuts).iter().enumerate() {
            if symbol.is_empty() || bytes.is_empty() {
                continue;
            }
            let differs = differing
                .iter()
                .any(|d| d.start < bytes.end && bytes.start < d.end);
            let cell = cell_at(&buf, col + 1, y);
            let underlined = cell.modifier.contains(Modifier::UNDERLINED);
            assert_eq!(
                underlined,
                differs,
                "{label}: {symbol:?} at {bytes:?}\n{}",
                rows.join("\n")
            );
            if differs { marked += 1 } else { plain += 1 }
        }
    }
    assert!(marked > 0 && plain > 0, "{marked} marked, {plain} not");
    let title = rows
        .iter()
        .find(|r| r.contains("Encode: every tokenizer"))
        .unwrap();
    assert!(
        title.contains(&format!("{} stretch", differing.len())),
        "{title}"
    );
}

#[test]
fn the_selected_tokens_bytes_are_highlighted_in_every_band() {
    let mut app = bands_app(MIXED);
    // Focus gpt2, then select its tokens up to the first one of Hindi.
    while app.toks.selected_slot().label != "gpt2" {
        press(&mut app, [Event::char('t')]);
    }
    let bands = banded(&app);
    let gpt2 = &bands.iter().find(|(l, _)| l == "gpt2").unwrap().1;
    let hindi = MIXED.find('न').unwrap();
    let mut at = 0;
    let mut which = None;
    for (i, id) in gpt2.encode(MIXED, false).into_iter().enumerate() {
        let len = gpt2.describe(id).bytes.len();
        if at + len > hindi + 3 {
            which = Some((i, at..at + len));
            break;
        }
        at += len;
    }
    let (index, bytes) = which.unwrap();
    for _ in 0..=index {
        press(&mut app, [Event::char(']')]);
    }
    assert_eq!(app.encode.selected, Some(index));
    let terminal = render(&mut app, 100, 40);
    let buf = terminal.backend().buffer().clone();
    let rows = rows_of(terminal.backend());
    let all: Vec<BTreeSet<usize>> = bands.iter().map(|(_, t)| cuts_of(t, MIXED)).collect();
    for ((label, _), cuts) in bands.iter().zip(&all) {
        let y = band_row(&rows, label);
        let mut lit = 0;
        for (col, (symbol, cell_bytes)) in expected_row(MIXED, &all, cuts).iter().enumerate() {
            if symbol.is_empty() || cell_bytes.is_empty() {
                continue;
            }
            let covered = cell_bytes.start < bytes.end && bytes.start < cell_bytes.end;
            let cell = cell_at(&buf, col + 1, y);
            assert_eq!(
                cell.modifier.contains(Modifier::REVERSED),
                covered,
                "{label}: {symbol:?} at {cell_bytes:?}, selected {bytes:?}\n{}",
                rows.join("\n")
            );
            lit += usize::from(covered);
        }
        assert!(lit > 0, "{label} highlights the selected bytes");
    }
    // Focusing another band keeps the same bytes selected there.
    press(&mut app, [Event::char('t')]);
    let o = app.toks.selected_slot().label.clone();
    let sel = app.encode.selected.expect("still a token selected");
    let span = app.encode.spans.range(sel);
    assert!(
        span.start <= bytes.start && bytes.start < span.end,
        "{o}: {span:?} holds {bytes:?}"
    );
}

#[test]
fn the_box_fits_80_by_24_and_the_fertility_view_shows_the_bands_too() {
    let mut app = bands_app(MIXED);
    // Back from zoom: the box is short, the bands still line up.
    press(&mut app, [Event::char('z')]);
    let terminal = render(&mut app, 80, 24);
    let rows = rows_of(terminal.backend());
    let shown: Vec<&String> = rows.iter().filter(|r| r.contains("स्ते│·│你│好")).collect();
    assert!(shown.len() >= 2, "{}", rows.join("\n"));
    assert!(
        rows.iter().any(|r| r.contains("of 4 (t/T; z zooms)")),
        "{}",
        rows.join("\n")
    );
    press(&mut app, [Event::char('f')]);
    let terminal = render(&mut app, 80, 24);
    let rows = rows_of(terminal.backend());
    assert!(
        rows.iter()
            .any(|r| r.contains("every tokenizer on your text")),
        "{}",
        rows.join("\n")
    );
    for (label, tok) in banded(&app) {
        let n = tok.encode(MIXED, false).len();
        assert!(
            rows.iter()
                .any(|r| r.contains(&format!(" {label} · {n} tokens"))),
            "{label} {n}:\n{}",
            rows.join("\n")
        );
    }
    // B again: one tokenizer's tokens as before.
    press(&mut app, [Event::char('B')]);
    let terminal = render(&mut app, 80, 24);
    let rows = rows_of(terminal.backend());
    assert!(!rows.iter().any(|r| r.contains("every tokenizer on")));
}

#[test]
fn a_tokenizer_still_loading_says_so_in_its_band() {
    let mut app = default_app();
    press(&mut app, [Event::char('e')]);
    update(&mut app, Action::Paste(MIXED.into()));
    press(&mut app, [Event::key(KeyCode::Esc), Event::char('B')]);
    let requests = app.toks.take_requests();
    assert_eq!(requests, ["gpt2", "cl100k", "o200k"]);
    update(&mut app, Action::Loaded(loaded("gpt2")));
    press(&mut app, [Event::char('z')]);
    let terminal = render(&mut app, 100, 30);
    let rows = rows_of(terminal.backend());
    assert!(
        rows.iter().any(|r| r.contains("cl100k loading…")),
        "{}",
        rows.join("\n")
    );
    assert!(
        rows.iter().any(|r| r.contains(" gpt2 · ")),
        "{}",
        rows.join("\n")
    );
}

/// Byte-level tokenizers for the random texts.
fn random_text_tokenizers() -> Vec<std::sync::Arc<Tokenizer>> {
    ["gpt2", "cl100k", "o200k"]
        .iter()
        .map(|s| loaded(s).outcome.expect("built in"))
        .chain(std::iter::once(
            std::sync::Arc::new(Tokenizer::bytes_only()),
        ))
        .collect()
}

#[test]
fn random_texts_lay_out_without_panics_and_marks_follow_token_lengths() {
    let toks = random_text_tokenizers();
    let glyphs: Glyphs = bpeek::tui::theme::Theme::plain().glyphs;
    let mut rng = texts::Rng(0xb0a7_5eed);
    for text in texts::random_texts(60) {
        let len = text.len();
        let offsets: Vec<BTreeSet<usize>> = toks.iter().map(|t| cuts_of(t, &text)).collect();
        let cuts: Vec<Cut> = offsets
            .iter()
            .map(|o| {
                let mut at = 0;
                let mut spans = Vec::new();
                for &b in o.iter().chain(std::iter::once(&len)) {
                    spans.push(at..b);
                    at = b;
                }
                Cut::new(spans, &(0..len))
            })
            .collect();
        let refs: Vec<&Cut> = cuts.iter().collect();
        for width in [1, 2, 7, 40, 200] {
            // From the start, every row: all of the text is laid out.
            let layout = lay_out(&text, 0..len, &refs, 0, width, len + 4, &glyphs);
            let mut at = 0;
            for c in &layout.cells {
                assert_eq!(c.bytes.start, at, "cells tile {text:?}");
                at = c.bytes.end;
            }
            assert_eq!(at, len, "{text:?}");
            for row in &layout.rows {
                let w: usize = row
                    .iter()
                    .map(|u| match u {
                        Unit::Gap(_) => 1,
                        Unit::Cell(i) => layout.cells[*i].width,
                    })
                    .sum();
                let cells = row.iter().filter(|u| matches!(u, Unit::Cell(_))).count();
                assert!(w <= width || cells == 1, "row of {w} in {width}: {text:?}");
            }
            for (cut, offs) in cuts.iter().zip(&offsets) {
                let mut want = BTreeSet::new();
                for &k in offs {
                    let i = layout.cells.partition_point(|c| c.bytes.end <= k);
                    let cell = &layout.cells[i];
                    want.insert((i, k != cell.bytes.start));
                }
                // A cut at a character's start hides one inside it.
                let want: BTreeSet<(usize, bool)> = want
                    .iter()
                    .copied()
                    .filter(|&(i, inside)| !inside || !want.contains(&(i, false)))
                    .collect();
                let got: BTreeSet<(usize, bool)> = layout
                    .marks(cut)
                    .into_iter()
                    .map(|(_, _, i, inside)| (i, inside))
                    .collect();
                assert_eq!(got, want, "width {width}: {text:?}");
                // The marks are where the layout puts the gap before each cell.
                for (r, col, i, _) in layout.marks(cut) {
                    let mut c = 0;
                    for u in &layout.rows[r] {
                        if *u == Unit::Gap(i) {
                            break;
                        }
                        c += match u {
                            Unit::Gap(_) => 1,
                            Unit::Cell(j) => layout.cells[*j].width,
                        };
                    }
                    assert_eq!(c, col);
                }
            }
            // And around a focus somewhere inside, for a short screen.
            let mut focus = rng.below(len + 1);
            while !text.is_char_boundary(focus) {
                focus -= 1;
            }
            let part = lay_out(&text, 0..len, &refs, focus, width, 3, &glyphs);
            assert!(part.focus_row < part.rows.len());
        }
    }
    // Through the whole screen as well, in a short box and zoomed.
    for text in texts::random_texts_from(12, 7, true) {
        let mut app = default_app();
        press(&mut app, [Event::char('e')]);
        update(&mut app, Action::Paste(text));
        press(&mut app, [Event::key(KeyCode::Esc), Event::char('B')]);
        for spec in app.toks.take_requests() {
            update(&mut app, Action::Loaded(loaded(&spec)));
        }
        for keys in ["]]]", "t", "]", "z", "f", "s", "t["] {
            press(&mut app, keys.chars().map(Event::char));
            let _ = render(&mut app, 80, 24);
            let _ = render(&mut app, 33, 11);
        }
    }
}

#[test]
fn a_long_text_is_cut_a_stretch_at_a_time() {
    let line = "Hello नमस्ते 你好 12345 world\n";
    let text = line.repeat(20_000);
    let mut app = bands_app(&text);
    let bands = &app.fert.cuts.main;
    assert!(!bands.whole);
    assert!(bands.range.len() < 64 * 1024, "{:?}", bands.range);
    let terminal = render(&mut app, 80, 24);
    let rows = rows_of(terminal.backend());
    let lines = rows.iter().filter(|r| r.contains("स्ते│·│你│好")).count();
    assert!(lines > 4, "{}", rows.join("\n"));
    // The cursor is at the end: the stretch holds it.
    assert_eq!(app.fert.cuts.main.range.end, text.len());
}
