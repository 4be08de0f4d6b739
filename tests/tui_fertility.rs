//! The fertility view (key `f`): what text costs in tokens under the
//! tokenizer being trained, the byte baseline and real tokenizers. Loads are
//! answered on the test's own thread (or injected as events), so nothing
//! here races a loading thread.

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::app::InputMode;
use bpeek::tui::fertility::tokenizers::LoadDone;
use bpeek::tui::fertility::{Panel, TextSource};
use bpeek::tui::keymap::action_for;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use unicode_width::UnicodeWidthStr;

mod common;
use common::{default_app, loaded, rows_of};

/// Press keys the way a user would, through the key table.
fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let Event::Key(key) = Event::char(c) else {
            unreachable!()
        };
        if let Some(action) = action_for(app, &key) {
            update(app, action);
        }
    }
}

fn press_key(app: &mut App, code: KeyCode) {
    let Event::Key(key) = Event::key(code) else {
        unreachable!()
    };
    if let Some(action) = action_for(app, &key) {
        update(app, action);
    }
}

/// Answer every load the app has asked for, as the event loop would.
fn finish_loads(app: &mut App) {
    for spec in app.toks.take_requests() {
        update(app, Action::Loaded(loaded(&spec)));
    }
}

/// Run the real loop over `events` (loads answered at once) and return the
/// last frame.
fn screen(app: &mut App, events: ScriptedEvents, width: u16, height: u16) -> Vec<String> {
    common::screen_after(app, events.loading_with(loaded), width, height)
}

fn has(rows: &[String], what: &str) -> bool {
    rows.iter().any(|r| r.contains(what))
}

fn row_with<'a>(rows: &'a [String], what: &str) -> &'a str {
    rows.iter()
        .find(|r| r.contains(what))
        .unwrap_or_else(|| panic!("no row has {what:?}; screen:\n{}", rows.join("\n")))
}

#[test]
fn f_opens_the_view_and_asks_for_the_real_tokenizers() {
    let mut app = default_app();
    press(&mut app, "f");
    assert!(app.fert.open);
    assert_eq!(app.fert.panel, Panel::Cost);
    assert_eq!(
        app.fert.source,
        TextSource::Samples,
        "nothing pasted: the samples"
    );
    assert_eq!(app.toks.pending_requests(), ["gpt2", "cl100k", "o200k"]);
    assert!(app.toks.slots[2..].iter().all(|s| s.is_loading()));
    // Esc closes it, and f opens it again without asking twice.
    press_key(&mut app, KeyCode::Esc);
    assert!(!app.fert.open);
    press(&mut app, "f");
    assert_eq!(app.toks.take_requests().len(), 3);
    press(&mut app, "f");
    assert!(!app.fert.open && app.toks.take_requests().is_empty());
}

#[test]
fn finding_the_highlight_moved_to_slash() {
    let mut app = default_app();
    press(&mut app, "./");
    assert!(!app.fert.open);
    // The chosen pair h + e, found first in the top line's "The".
    assert_eq!(app.scroll.corpus.line, 0);
    assert!(
        app.notice
            .as_deref()
            .unwrap_or_default()
            .contains(": 1 of "),
        "{:?}",
        app.notice
    );
}

#[test]
fn a_finished_load_arrives_as_an_event_and_fills_the_column() {
    let mut app = default_app();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // The source records the loads and, like a slow disk, never answers.
    let mut events = ScriptedEvents::typed("f");
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert_eq!(events.requested, ["gpt2", "cl100k", "o200k"]);
    let rows = rows_of(terminal.backend());
    assert!(has(&rows, "loading 3…"), "{}", rows.join("\n"));
    assert!(has(&rows, " gpt2         loading…"), "{}", rows.join("\n"));

    let mut events = ScriptedEvents::new([Event::Loaded(loaded("gpt2"))]);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    let rows = rows_of(terminal.backend());
    assert!(has(&rows, "loading 2…"));
    assert!(
        has(&rows, " gpt2           89   4.99   4.99     1.14    1.00"),
        "{}",
        rows.join("\n")
    );
    assert!(has(&rows, " cl100k       loading…"));
}

#[test]
fn the_text_source_follows_the_encode_box() {
    let mut app = default_app();
    press(&mut app, "f");
    press(&mut app, "s");
    assert_eq!(
        app.fert.effective_source(&app.encode.text),
        TextSource::Samples
    );
    assert!(
        app.notice
            .as_deref()
            .unwrap_or_default()
            .starts_with("no text of yours yet")
    );
    update(&mut app, Action::Paste("नमस्ते 你好 123".into()));
    update(&mut app, Action::StopEditing);
    assert_eq!(app.fert.source, TextSource::Pasted, "a paste is measured");
    press(&mut app, "s");
    assert_eq!(app.fert.source, TextSource::Samples);
    press(&mut app, "s");
    assert_eq!(app.fert.source, TextSource::Pasted);
    // Opening the view on pasted text measures it.
    press(&mut app, "fsf");
    assert_eq!(app.fert.source, TextSource::Pasted);
}

#[test]
fn the_trained_column_follows_training_from_inside_the_view() {
    let mut app = default_app();
    press(&mut app, "f");
    let english = |app: &App| app.fert.columns[0].samples.as_ref().unwrap().1[0].tokens;
    let at_zero = english(&app);
    assert_eq!(at_zero, 444, "merge 0: one token per byte");
    press(&mut app, "nnn");
    assert!(app.fert.open, "n steps without leaving the view");
    let at_three = english(&app);
    assert!(at_three < at_zero);
    press(&mut app, "p");
    assert!(english(&app) > at_three);
}

#[test]
fn selecting_a_token_shows_the_merge_that_made_it() {
    let mut app = default_app();
    // Merge 0 of the bakery corpus is h + e.
    press(&mut app, "n");
    update(&mut app, Action::Paste("the".into()));
    update(&mut app, Action::StopEditing);
    press(&mut app, "f");
    let shown: Vec<&[u8]> = app.fert.strip.iter().map(|t| &t.bytes[..]).collect();
    assert_eq!(shown, [&b"t"[..], b"he"]);
    press(&mut app, "]");
    let token = app.fert.selected_token().unwrap().clone();
    assert_eq!(token.id, 256);
    let made = app.toks.get(0).unwrap().made_by(token.id).unwrap();
    assert_eq!(
        (made.rank, made.left, made.right),
        (0, 'h' as u32, 'e' as u32)
    );
    let rows = screen(&mut app, ScriptedEvents::new([]), 80, 24);
    assert!(
        has(
            &rows,
            "id 256 · \"he\" · 2 bytes 68 65 · made by merge 1: h + e"
        ),
        "{}",
        rows.join("\n")
    );
}

#[test]
fn a_real_tokenizer_token_names_its_merge_recovered_from_ranks() {
    let mut app = default_app();
    press(&mut app, "f");
    finish_loads(&mut app);
    press(&mut app, "ttt");
    assert_eq!(app.toks.selected_slot().label, "cl100k");
    // The English sample starts "The library"; cl100k takes "The" whole.
    let token = app.fert.selected_token().unwrap().clone();
    assert_eq!(token.bytes, b"The");
    let rows = screen(&mut app, ScriptedEvents::new([]), 80, 24);
    let detail = row_with(&rows, "id 791");
    assert!(detail.contains("made by rank 791: T + he"), "{detail}");
}

#[test]
fn a_load_error_is_one_line_in_the_view_not_a_panic() {
    let mut app = default_app();
    app.add_tokenizer("no/such/tokenizer.json");
    assert_eq!(app.toks.take_requests(), ["no/such/tokenizer.json"]);
    update(
        &mut app,
        Action::Loaded(LoadDone::now("no/such/tokenizer.json")),
    );
    assert!(
        app.notice
            .as_deref()
            .unwrap_or_default()
            .starts_with("cannot load tokenizer.json:")
    );
    press(&mut app, "f");
    finish_loads(&mut app);
    let rows = screen(&mut app, ScriptedEvents::new([]), 80, 24);
    let line = row_with(&rows, "cannot load tokenizer.json");
    assert_eq!(line.width(), 80);
    assert!(has(&rows, "error"), "its cells say so");
}

#[test]
fn the_encode_box_switches_tokenizer_and_waits_for_its_load() {
    let mut app = default_app();
    update(&mut app, Action::Paste("hello world".into()));
    update(&mut app, Action::StopEditing);
    press(&mut app, "tt");
    assert_eq!(app.notice.as_deref(), Some("encoding with gpt2 (loading)"));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // A source that never answers: the box says it is waiting.
    let mut events = ScriptedEvents::new([]);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert_eq!(events.requested, ["gpt2"]);
    let rows = rows_of(terminal.backend());
    assert!(has(&rows, "┌ Encode with gpt2 "), "{}", rows.join("\n"));
    assert!(has(&rows, "│gpt2 is loading…"), "{}", rows.join("\n"));

    update(&mut app, Action::Loaded(loaded("gpt2")));
    let ids: Vec<u32> = app.encode.encoded().iter().map(|t| t.id).collect();
    assert_eq!(ids, [31373, 995], "GPT-2's ids for hello world");
    press(&mut app, "TT");
    assert!(app.toks.is_trained(app.toks.selected));
    assert_eq!(app.encode.tokens(), 11, "merge 0: one token per byte");
}

#[test]
fn the_merges_panel_lists_a_rank_file_by_rank_and_goes_to_a_rank() {
    let mut app = default_app();
    app.add_tokenizer("gpt2");
    finish_loads(&mut app);
    press(&mut app, "f");
    press(&mut app, "tt");
    for _ in 0..3 {
        press_key(&mut app, KeyCode::Tab);
    }
    assert_eq!(app.fert.panel, Panel::Merges);
    let rows = screen(&mut app, ScriptedEvents::new([]), 80, 24);
    assert!(
        has(&rows, "gpt2: 50256 tokens by rank"),
        "{}",
        rows.join("\n")
    );
    assert!(
        row_with(&rows, "►  256").contains("· + t → ·t"),
        "{}",
        rows.join("\n")
    );
    press(&mut app, "g300");
    assert_eq!(app.input, InputMode::Goto("300".into()));
    press_key(&mut app, KeyCode::Enter);
    assert_eq!(app.fert.merge_row, Some(300));
    assert!(app.trainer().merges().is_empty(), "training did not move");
    // Enter opens the tree of the merge selected there, not the token
    // line's token.
    press_key(&mut app, KeyCode::Enter);
    let tok = app.toks.get(app.toks.selected).unwrap();
    let merge = bpeek::tui::fertility::merge_row(tok, 300).unwrap();
    let (left, right) = merge.pair.unwrap();
    let tree = app.tree.as_ref().expect("a merge tree is open");
    let name = |id| bpeek::tui::panes::rows::label(&tok.describe(id).bytes, &app.theme);
    assert!(tree.title.starts_with(&name(merge.id)), "{}", tree.title);
    assert!(
        tree.lines[0]
            .1
            .starts_with(&format!("{} = {}", name(merge.id), name(left)))
            && tree.lines[0].1.contains(&format!("+ {}", name(right))),
        "{:?}",
        tree.lines
    );
}

const EXPECT_COST_80: &[&str] = &[
    " byte gpt2 tie first │ merge 3/∞ │ vocab 259 │ 2698 tok, 1.10 B/tok │ merged    ",
    " Fertility [Cost]  Scripts   Digits   Merges                   text: 18 samples ",
    " text         trained   bytes    gpt2  cl100k   o200k  premium: trained         ",
    "►English         1.00    1.00    1.00    1.00    1.00  █▌                       ",
    " French          1.29    1.21    2.11    1.54    1.24  █▉                       ",
];

#[test]
fn samples_table_and_bars_at_80x24() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed("nnnf"), 80, 24);
    let shown = rows.join("\n");
    for (i, want) in EXPECT_COST_80.iter().enumerate() {
        assert_eq!(rows[i], *want, "row {i}; screen:\n{shown}");
    }
    for row in &rows {
        assert_eq!(row.width(), 80, "{row}");
    }
    // The Tamil row: GPT-2 costs almost 17 times English, o200k under 2.
    assert!(row_with(&rows, "Tamil").contains("3.64    3.38   16.88    8.46    1.86"));
    assert!(has(
        &rows,
        "── English: 444 bytes · 444 chars · 78 words ──"
    ));
    assert!(has(
        &rows,
        " tokenizer  tokens  B/tok ch/tok tok/word premium  bytes per token"
    ));
    assert!(row_with(&rows, " o200k          87").contains("5.10   5.10     1.12    1.00  ███"));
    assert!(has(&rows, "── trained on English: token 1/413"));
    assert_eq!(
        rows[23],
        " f close  Tab panel  t tokenizer  ] token  s text  m metric  n next  ? help     "
    );
}

#[test]
fn a_larger_screen_shows_every_language_and_more_cuts() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed("fttt"), 120, 40);
    let shown = rows.join("\n");
    for language in ["English", "Tamil", "Vietnamese", "emoji-heavy…", "digits"] {
        assert!(has(&rows, language), "{language}:\n{shown}");
    }
    // m: bytes per token instead of the premium.
    let rows = screen(&mut app, ScriptedEvents::typed("m"), 120, 40);
    assert!(has(&rows, "B/token: cl100k"), "{}", rows.join("\n"));
    assert!(row_with(&rows, "►English").contains("1.00    1.00    4.99    5.10    5.10"));
    // The digits panel: counts for all, and cuts for cl100k and the next ones.
    let rows = screen(
        &mut app,
        ScriptedEvents::new([Event::key(KeyCode::Tab), Event::key(KeyCode::Tab)]),
        120,
        40,
    );
    let shown = rows.join("\n");
    assert!(has(&rows, "cut by cl100k"), "{shown}");
    assert!(has(&rows, "cut by o200k"), "{shown}");
    let twenty = row_with(&rows, "123│456│789│012│345│678│90");
    assert!(
        twenty.contains("      20      20"),
        "bytes and trained: 20 tokens\n{shown}"
    );
}

#[test]
fn pasted_mixed_text_is_broken_down_by_script() {
    let mut app = default_app();
    let events = ScriptedEvents::new([
        Event::Paste("नमस्ते दुनिया, 你好世界！ The price is 1234567 🎉👍🏽 こんにちは".into()),
        Event::key(KeyCode::Esc),
        Event::char('f'),
        Event::key(KeyCode::Tab),
    ]);
    let rows = screen(&mut app, events, 80, 24);
    let shown = rows.join("\n");
    assert!(
        has(&rows, "bytes per token by script, in your text"),
        "{shown}"
    );
    // The space before दुनिया is inside o200k's token, and counts with it.
    let devanagari = row_with(&rows, "Devanagari");
    assert!(
        devanagari.contains("   36    1.00    1.00    1.61    2.85    7.40"),
        "{shown}"
    );
    for script in [
        "Han",
        "Latin",
        "digits",
        "emoji and symbols",
        "Hiragana/Katakana",
    ] {
        assert!(has(&rows, script), "{script}:\n{shown}");
    }
    assert!(has(&rows, "each Han character and each run of kana"));
    assert!(
        has(&rows, "A token counts for the script of most of its bytes"),
        "the panel says how tokens are given to scripts"
    );
    assert!(
        has(&rows, "Thai"),
        "the note says how Thai words are counted"
    );
    for row in &rows {
        assert_eq!(row.width(), 80, "{row}");
    }
}

#[test]
fn a_one_word_text_is_counted_as_one_word() {
    let mut app = default_app();
    let events = ScriptedEvents::new([
        Event::Paste("hi".into()),
        Event::key(KeyCode::Esc),
        Event::char('f'),
    ]);
    let rows = screen(&mut app, events, 100, 30);
    let shown = rows.join("\n");
    let title = row_with(&rows, "your text:");
    assert!(title.contains("2 bytes"), "{shown}");
    assert!(title.contains("1 word "), "{shown}");
    assert!(!title.contains("1 words"), "{shown}");
}

#[test]
fn the_digits_panel_marks_boundaries_without_colour() {
    let mut app = default_app();
    let events = ScriptedEvents::typed("fttt")
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::Tab));
    let rows = screen(&mut app, events, 80, 24);
    let shown = rows.join("\n");
    assert!(has(&rows, "cut by cl100k"), "{shown}");
    assert!(row_with(&rows, "►").contains("1       1       1       1       1  1"));
    assert!(has(&rows, "123│456│789│012│345│6"), "{shown}");
    // Neighbouring tokens also alternate plain and underlined.
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_loop(&mut terminal, &mut app, &mut ScriptedEvents::new([])).unwrap();
    let rows = rows_of(terminal.backend());
    let y = rows.iter().position(|r| r.contains("123│4 ")).unwrap();
    let x = rows[y].find("123│4").unwrap() as u16; // all ASCII before it
    let buf = terminal.backend().buffer();
    let underlined = |x: u16| {
        buf[(x, y as u16)]
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED)
    };
    assert_eq!(buf[(x, y as u16)].symbol(), "1");
    assert!(
        !underlined(x) && underlined(x + 4),
        "123 plain, 4 underlined"
    );
}

#[test]
fn ascii_and_no_colour_draw_the_view_in_ascii() {
    let mut app = App::from_options(&TrainingOptions::default(), Theme::new(false, true)).unwrap();
    let rows = screen(&mut app, ScriptedEvents::typed("nnf"), 80, 24);
    let shown = rows.join("\n");
    let english = row_with(&rows, ">English");
    assert!(
        english.is_ascii() && english.ends_with(' ') && english.contains("  #"),
        "{shown}"
    );
    assert!(
        has(&rows, "-- English: 444 bytes | 444 chars | 78 words ---"),
        "{shown}"
    );
    assert!(!shown.contains('█') && !shown.contains('─'), "{shown}");
}

#[test]
fn every_digits_row_says_what_number_it_is() {
    let mut app = default_app();
    let events = ScriptedEvents::typed("f")
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::Tab))
        .then(Event::key(KeyCode::End));
    let rows = screen(&mut app, events, 100, 30);
    let shown = rows.join("\n");
    assert!(has(&rows, " number "), "{shown}");
    for label in ["digits", "decimal", "thousands", "year", "phone", "zeros"] {
        assert!(has(&rows, label), "{label}:\n{shown}");
    }
    let phone = row_with(&rows, "phone");
    assert!(phone.contains("+│1"), "the row shows its cut: {phone}");
}

#[test]
fn pasted_text_has_a_premium_only_against_its_declared_english_version() {
    // Without `--english`, pasted text has bytes per token and tokens per
    // word, and no premium: nothing says what it is a translation of.
    let mut app = default_app();
    let english = bpeek::corpora::SAMPLES[0].text;
    let events = ScriptedEvents::new([Event::Paste(english.to_string()), Event::key(KeyCode::Esc)])
        .then(Event::char('f'));
    let rows = screen(&mut app, events, 100, 30);
    let shown = rows.join("\n");
    assert!(has(&rows, "no premium without --english FILE"), "{shown}");
    let table_row = |rows: &[String], name: &str| {
        rows.iter()
            .find(|r| r.starts_with(&format!(" {name} ")))
            .cloned()
            .unwrap_or_else(|| panic!("no {name} row:\n{}", rows.join("\n")))
    };
    let gpt2 = table_row(&rows, "gpt2");
    let cells: Vec<&str> = gpt2.split_whitespace().collect();
    assert!(cells.contains(&"-"), "no premium: {gpt2}");

    // Against the English version, as `--english FILE` gives it; the
    // English sample against itself has a premium of exactly 1.
    let mut app = default_app();
    app.fert.english = Some(("english.txt".into(), english.to_string()));
    let events = ScriptedEvents::new([Event::Paste(english.to_string()), Event::key(KeyCode::Esc)])
        .then(Event::char('f'));
    let rows = screen(&mut app, events, 100, 30);
    assert!(
        has(&rows, "premium vs english.txt (its English version)"),
        "{}",
        rows.join("\n")
    );
    let gpt2 = table_row(&rows, "gpt2");
    assert!(gpt2.contains(" 1.00 "), "{gpt2}");
}

#[test]
fn editing_in_the_fertility_view_shows_the_text_and_its_cursor() {
    let mut app = default_app();
    let events = ScriptedEvents::typed("fehello")
        .then(Event::key(KeyCode::Left))
        .then(Event::key(KeyCode::Left));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut events = events.loading_with(loaded);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    common::redraw_whole(&mut terminal, &mut app);
    let rows = rows_of(terminal.backend());
    let shown = rows.join("\n");
    assert!(has(&rows, "editing your text"), "{shown}");
    let y = rows
        .iter()
        .position(|r| r.starts_with(" hello"))
        .expect(&shown);
    // The cursor is the reversed cell on the second l.
    let buf = terminal.backend().buffer();
    let reversed: Vec<u16> = (0..80)
        .filter(|&x| {
            buf[(x, y as u16)]
                .modifier
                .contains(ratatui::style::Modifier::REVERSED)
        })
        .collect();
    assert_eq!(reversed, [4], "{shown}");
}

#[test]
fn unknown_characters_of_a_char_mode_tokenizer_are_counted_and_named() {
    use bpeek::bpe::{Mode, Trainer, TrainerConfig};
    let config = TrainerConfig {
        mode: Mode::Char,
        ..Default::default()
    };
    let trainer = Trainer::new(b"the cat sat on the mat".to_vec(), config).unwrap();
    let mut app = App::from_trainer("cats", trainer, Theme::new(true, false));
    press(&mut app, "nn");
    // T and C were never seen (only lower case was), nor any Arabic.
    update(&mut app, Action::Paste("The Cat مرحبا".into()));
    update(&mut app, Action::StopEditing);
    press(&mut app, "f");
    finish_loads(&mut app);
    let rows = screen(&mut app, ScriptedEvents::new([]), 100, 30);
    let trained = row_with(&rows, "are unknown");
    assert!(
        trained.contains("*7 of"),
        "7 unknown: T, C and five Arabic letters\n{}",
        rows.join("\n")
    );
    // The first token is the unknown T: the detail names the text it
    // stands for, one byte, not the five bytes of `[UNK]`.
    assert!(
        has(
            &rows,
            "[UNK] for \"T\" · 1 byte 54 · a character never seen in training"
        ),
        "{}",
        rows.join("\n")
    );
}

/// The cells of a frame, each symbol as the terminal gets it.
fn cell_symbols(app: &mut App, width: u16, height: u16) -> Vec<Vec<String>> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let mut events = ScriptedEvents::new([]).loading_with(loaded);
    run_loop(&mut terminal, app, &mut events).unwrap();
    common::redraw_whole(&mut terminal, app);
    let buf = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_token_strip_at_50_columns_says_more_follows_and_never_draws_a_bare_joiner() {
    let mut app = default_app();
    press(&mut app, "f");
    finish_loads(&mut app);
    // The emoji sample, cut by gpt2: families of people are joined by
    // U+200D, which gpt2 cuts into byte fragments and lone joiners.
    let emoji = bpeek::corpora::SAMPLES
        .iter()
        .position(|s| s.language.starts_with("emoji"))
        .unwrap();
    for _ in 0..emoji {
        press(&mut app, "j");
    }
    while app.toks.selected_slot().label != "gpt2" {
        press(&mut app, "t");
        finish_loads(&mut app);
    }
    let tokens = app.fert.strip.len();
    assert!(tokens > 100, "the emoji sample has {tokens} gpt2 tokens");
    let mut spelt = 0;
    for i in 0..tokens {
        let cells = cell_symbols(&mut app, 50, 15);
        let rows: Vec<String> = cells.iter().map(|r| r.concat()).collect();
        let shown = rows.join("\n");
        for (y, row) in cells.iter().enumerate() {
            for symbol in row {
                assert!(
                    !symbol.ends_with('\u{200D}'),
                    "token {i}: a cell of row {y} ends in a bare joiner:\n{shown}"
                );
            }
        }
        // The strip is the two rows above the detail line and footer.
        let strip_end = rows[rows.len() - 3].trim_end();
        if i + 20 < tokens {
            assert!(
                strip_end.ends_with('…'),
                "token {i}: more follows and the strip says so:\n{shown}"
            );
        }
        if i == tokens - 1 {
            assert!(
                !strip_end.ends_with('…'),
                "the last token ends the strip:\n{shown}"
            );
        }
        spelt += rows.iter().filter(|r| r.contains("<U+200D>")).count();
        press(&mut app, "]");
    }
    assert!(spelt > 0, "a lone joiner is spelt out somewhere on the way");
}

/// A number's cut that does not fit ends with an ellipsis, at 80 columns
/// as wide ones: a 15-digit row never looks like a 14-digit one.
#[test]
fn a_cut_too_long_for_its_column_ends_with_an_ellipsis() {
    for (width, height) in [(80, 24), (100, 30)] {
        let mut app = default_app();
        let events = ScriptedEvents::typed("f")
            .then(Event::key(KeyCode::Tab))
            .then(Event::key(KeyCode::Tab));
        let rows = screen(&mut app, events, width, height);
        let fourteen = row_with(&rows, "14 digits");
        let fifteen = row_with(&rows, "15 digits");
        let shown = |row: &str| row.trim_end().to_string();
        assert!(
            shown(fifteen).ends_with('…') || fifteen.contains("1│2│3│4│5│6│7│8│9│0│1│2│3│4│5"),
            "{width}: {fifteen}"
        );
        assert_ne!(
            shown(fourteen).rsplit("  ").next(),
            shown(fifteen).rsplit("  ").next(),
            "{width}: the two cuts look alike"
        );
    }
}

/// A byte-level file with tokens for a few bytes only drops the others, as
/// the library does: the view says how many bytes of the text no token
/// stands for instead of drawing a bar that makes the text look cheap,
/// and marks each sample it dropped bytes of.
#[test]
fn bytes_a_byte_level_file_has_no_token_for_are_said_dropped() {
    let dir = std::env::temp_dir().join(format!("bpeek-fert-dropped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("few-bytes.json");
    // Byte-level spellings: `Ġ` is the space; only `T`, `h`, `e` and the
    // space have tokens.
    let doc = serde_json::json!({
        "version": "1.0",
        "added_tokens": [],
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "post_processor": null,
        "decoder": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
                  "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false,
                  "vocab": {"T": 0, "h": 1, "e": 2, "Ġ": 3}, "merges": []}
    });
    std::fs::write(&file, doc.to_string()).unwrap();
    let mut app = default_app();
    app.add_tokenizer(file.to_str().unwrap());
    press(&mut app, "f");
    finish_loads(&mut app);
    let rows = screen(&mut app, ScriptedEvents::new([]), 100, 30);
    let _ = std::fs::remove_dir_all(&dir);
    let row = row_with(&rows, "bytes dropped");
    assert!(row.trim_start().starts_with("few-bytes.json"), "{row}");
    let english = bpeek::corpora::SAMPLES[0].text;
    let kept = english.bytes().filter(|b| b" The".contains(b)).count();
    assert!(
        row.contains(&format!(
            "*{} of {} bytes dropped (no token for them)",
            english.len() - kept,
            english.len()
        )),
        "{}",
        rows.join("\n")
    );
    assert!(
        row_with(&rows, "English").contains('*'),
        "{}",
        rows.join("\n")
    );
}
