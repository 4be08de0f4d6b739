//! What the explorer draws, through the real event loop into a test
//! terminal: exact lines at 80x24, a large screen, a tiny one, and help.

use bpeek::cli::args::TrainingOptions;
use bpeek::tui::theme::Theme;
use bpeek::tui::{App, Event, ScriptedEvents, run_loop};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

mod common;
use common::{default_app, rows_of};

/// Run the loop over `events` on a `width`x`height` screen and return the
/// last frame as text, one string per row.
fn screen(app: &mut App, events: ScriptedEvents, width: u16, height: u16) -> Vec<String> {
    common::screen_after(app, events, width, height)
}

fn assert_screen(actual: &[String], expected: &[&str]) {
    let shown = actual.join("\n");
    assert_eq!(actual.len(), expected.len(), "screen:\n{shown}");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(a, e, "row {i} differs; screen:\n{shown}");
    }
}

#[test]
fn default_corpus_after_three_merges_at_80x24() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed("nnn"), 80, 24);
    assert_screen(&rows, EXPECT_80);
}

#[test]
fn large_screen_in_the_chosen_phase_with_text_to_encode() {
    let mut app = default_app();
    let events = ScriptedEvents::typed("nnnnn..")
        .then(Event::Paste("the baker is baking bread".into()))
        .then(Event::key(KeyCode::Esc));
    let rows = screen(&mut app, events, 120, 40);
    assert_screen(&rows, EXPECT_BIG);
}

#[test]
fn help_overlay_at_80x24() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed("nn?"), 80, 24);
    assert_screen(&rows, EXPECT_HELP);
}

#[test]
fn too_small_a_terminal_gets_a_short_message() {
    let mut app = default_app();
    let rows = screen(&mut app, ScriptedEvents::typed("nn"), 30, 10);
    assert_screen(&rows, EXPECT_SMALL);
}

#[test]
fn the_chosen_pair_is_in_reverse_video_where_it_occurs() {
    let mut app = default_app();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    // Five merges (he, ·t, ·a, ·the, in), then choose: in + g.
    let mut events = ScriptedEvents::typed("nnnnn..");
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    let rows = rows_of(terminal.backend());
    let y = rows
        .iter()
        .position(|r| r.contains("Every morning"))
        .expect("the line is on screen");
    let byte = rows[y].find("morning").unwrap();
    let x = rows[y][..byte].width() as u16;
    let buf = terminal.backend().buffer();
    let reversed = |dx: u16| {
        buf[(x + dx, y as u16)]
            .modifier
            .contains(Modifier::REVERSED)
    };
    assert!(!reversed(0) && !reversed(3), "m o r n are not the pair");
    assert!(reversed(4) && reversed(5) && reversed(6), "in + g is");
}

#[test]
fn neighbouring_tokens_differ_without_colour() {
    let mut app = default_app();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_loop(&mut terminal, &mut app, &mut ScriptedEvents::typed("n")).unwrap();
    let buf = terminal.backend().buffer();
    // "The Harbour Bakery": T, he, ·, H, ... alternate plain and underlined.
    let underlined = |x: u16| buf[(x, 2)].modifier.contains(Modifier::UNDERLINED);
    assert_eq!(buf[(1, 2)].symbol(), "T");
    assert!(!underlined(1));
    assert!(underlined(2) && underlined(3), "he is one token");
    assert!(!underlined(4), "the space after it is the next token");
    assert!(
        buf.content
            .iter()
            .all(|c| c.fg == Color::Reset && c.bg == Color::Reset)
    );
}

#[test]
fn resizing_redraws_for_the_new_size() {
    let mut app = default_app();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut events = ScriptedEvents::typed("nn").then(Event::Resize(60, 20));
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    let rows = rows_of(terminal.backend());
    assert_eq!((rows.len(), rows[0].width()), (20, 60));
    assert!(
        rows[10].starts_with("┌ Pairs 343 "),
        "compact: corpus over pairs\n{}",
        rows.join("\n")
    );
    assert!(!rows.iter().any(|r| r.contains("Encode")));

    let mut events = ScriptedEvents::new([Event::Resize(30, 8)]);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    let small = rows_of(terminal.backend());
    assert!(small.iter().any(|r| r.contains("bpeek needs 40x12")));

    let mut events = ScriptedEvents::new([Event::Resize(80, 24)]);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert_eq!(rows_of(terminal.backend())[1].width(), 80);
}

#[test]
fn ascii_mode_draws_borders_and_marks_in_ascii() {
    let mut app = App::from_options(&TrainingOptions::default(), Theme::new(false, true)).unwrap();
    let rows = screen(&mut app, ScriptedEvents::typed("nn"), 80, 24);
    assert!(rows[1].starts_with("+ Corpus: bakery -"), "{}", rows[1]);
    for row in &rows {
        assert!(row.is_ascii(), "not ASCII: {row}");
    }
    assert!(
        rows.iter().any(|r| r.contains("_ + t -> _t")),
        "spaces as _ in the merge list (a . would read as a full stop; a literal _ is written \\_)"
    );
}

#[test]
fn wide_characters_never_push_a_border() {
    let text =
        "日本語のテキストは幅が二つ。🙂 emoji too, and ｆｕｌｌｗｉｄｔｈ letters\n".repeat(40);
    let trainer = bpeek::bpe::Trainer::new(text.into_bytes(), Default::default()).unwrap();
    let mut app = App::from_trainer("wide", trainer, Theme::plain());
    let events = ScriptedEvents::typed("nnnnw")
        .then(Event::Paste("日本語 🙂".into()))
        .then(Event::key(KeyCode::Esc));
    let rows = screen(&mut app, events, 80, 24);
    // The corpus pane is 44 columns wide at 80x24: its right border is at 43.
    for row in &rows[2..17] {
        assert_eq!(char_at(row, 0), Some('│'), "{row}");
        assert_eq!(char_at(row, 43), Some('│'), "{row}");
    }
    for (w, h) in [(80, 24), (73, 20), (41, 12)] {
        for row in screen(&mut app, ScriptedEvents::new([]), w, h) {
            assert_eq!(row.width(), w as usize, "{row}");
        }
    }
}

/// The character that starts at display column `col`.
fn char_at(row: &str, col: usize) -> Option<char> {
    let mut x = 0;
    for c in row.chars() {
        if x == col {
            return Some(c);
        }
        x += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
    }
    None
}

const EXPECT_80: &[&str] = &[
    " byte gpt2 tie first │ merge 3/∞ │ vocab 259 │ 2698 tok, 1.10 B/tok │ merged    ",
    "┌ Corpus: bakery ─────────────── line 1/55 ┐┌ Pairs 351 ─────── 10 new, 2 gone ┐",
    "│The Harbour Bakery                        ││   # left    right   count change │",
    "│                                          ││►  1 ·t      he         58        │",
    "│Every morning the baker opens the old     ││   2 i       n          57        │",
    "│bakery by the harbour at five. She        ││   3 n       g          47        │",
    "│lights the ovens, she weighs the flour,   ││   4 ·       b          43        │",
    "│and she mixes the dough while the         ││   5 r       e          42        │",
    "│town is still sleeping. The fishermen are ││   6 ·       s          39        │",
    "│already working on the boats, and         │└──────────────────────────────────┘",
    "│the gulls are calling over the water. By  │┌ Merges 3 ────────────────────────┐",
    "│six the first loaves are baking,          ││#  id  merge               cnt rep│",
    "│and the smell of warm bread is drifting   ││1 256  h + e → he          118 118│",
    "│down the street.                          ││2 257  · + t → ·t           83  83│",
    "│                                          ││3 258  · + a → ·a           59  59│",
    "└ ·a just made ────────────────────────────┘│                                  │",
    "│merge 3 made ·a: the corpus lost 59 tokens││                                  │",
    "│(2757 → 2698), vocabulary now 259, bytes  ││                                  │",
    "│per token 1.073 → 1.096 (+0.023)          ││                                  │",
    "└──────────────────────────────────────────┘└──────────────────────────────────┘",
    "┌ Encode ──────────────────────────────────────────────────────────────────────┐",
    "│press e, then type or paste text to see it cut by the merges so far           │",
    "└──────────────────────────────────────────────────────────────────────────────┘",
    " n next . phase f fertility q quit g go to Tab pane / find v chunks ? help      ",
];

const EXPECT_BIG: &[&str] = &[
    " byte gpt2 tie first │ merge 5/∞ │ vocab 261 │ 2583 tok, 1.15 B/tok │ chosen                                            ",
    "┌ Corpus: bakery ───────────────────────────────────── line 1/55 ┐┌ Pairs 364 ───────────────────────── 20 new, 7 gone ┐",
    "│The Harbour Bakery                                              ││   # left           right          count change     │",
    "│                                                                ││►  1 in             g                 44 new        │",
    "│Every morning the baker opens the old bakery by the harbour at  ││   2 ·              b                 43            │",
    "│five. She                                                       ││   3 r              e                 42            │",
    "│lights the ovens, she weighs the flour, and she mixes the dough ││   4 ·              s                 39            │",
    "│while the                                                       ││   5 e              r                 34            │",
    "│town is still sleeping. The fishermen are already working on    ││   6 ·              o                 31            │",
    "│the boats, and                                                  ││   7 ·              w                 30            │",
    "│the gulls are calling over the water. By six the first loaves   ││   8 k              e                 27            │",
    "│are baking,                                                     ││   9 n              d                 27            │",
    "│and the smell of warm bread is drifting down the street.        ││  10 a              k                 25            │",
    "│                                                                ││  11 e              a                 25            │",
    "│The baker has baked bread in this town for 23 years. Her mother │└────────────────────────────────────────────────────┘",
    "│baked                                                           │┌ Merges 5 ──────────────────────────────────────────┐",
    "│bread here before her, and her grandmother baked bread here     ││#  id  merge                             count  repl│",
    "│before that.                                                    ││3 258  · + a → ·a                           59    59│",
    "│The ovens are older than the houses on the hill. The recipes    ││4 259  ·t + he → ·the                       58    58│",
    "│are written in                                                  ││5 260  i + n → in                           57    57│",
    "│a small notebook that is kept on the shelf above the sink, and  ││6   ?  in + g → ing                         44     ?│",
    "│the pages are                                                   │└────────────────────────────────────────────────────┘",
    "│stained with butter, sugar and flour.                           │┌ Corpus tokens by merge ──────── 2958 → 2583 tokens ┐",
    "│                                                                ││2958┤█▇▆▅▅▄                                         │",
    "│On Mondays she bakes rye loaves and seeded rolls. On Tuesdays   ││    │██████                                         │",
    "│she bakes the                                                   ││    │██████                                         │",
    "│sweet buns that the children like. On Wednesdays she bakes for  ││   0┤██████                                         │",
    "│the market,                                                     ││     0    5                                         │",
    "└ ing chosen pair ───────────────────────────────────────────────┘└ ▲ 5 merges: 2583 tokens ───────────────────────────┘",
    "┌ Encode ────────────────────────────────────────────────────────────── 25 bytes · 25 chars · 23 tokens · 1.09 B/token ┐",
    "│t   he  ·  b  a  k   e   r   ·  i   s   ·  b  a  k   in  g   ·  b  r   e   a  d                                       │",
    "│116 256 32 98 97 107 101 114 32 105 115 32 98 97 107 260 103 32 98 114 101 97 100                                     │",
    "│                                                                                                                      │",
    "│                                                                                                                      │",
    "│                                                                                                                      │",
    "│                                                                                                                      │",
    "└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘",
    "│in + g wins: count 44, next best 43                                                                                   │",
    "└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘",
    " n next  p undo  . phase  a play  f fertility  q quit  e encode  g go to  Tab pane  t tokenizer  ] token  ? help        ",
];

const EXPECT_HELP: &[&str] = &[
    "┌ Keys ────────────────────────────────────────────────────────────────────────┐",
    "│ Training                               Configurations side by side           │",
    "│ n Right Space  next merge              o              add a column: this     │",
    "│ p Left Bksp    undo the last merge                    configuration, one     │",
    "│ .              one phase of a round                   option changed         │",
    "│ a              autoplay on/off         > <            focus the next/previous│",
    "│ A              autoplay by phase                      column                 │",
    "│ g              go to merge N           O              drop the focused column│",
    "│ r              back to merge 0         p              new column: next       │",
    "│ + = -          autoplay faster/slower                 pre-tokenizer          │",
    "│ c C            next/previous corpus    t              new column: next tie   │",
    "│ u              train on the typed text                rule                   │",
    "│ Q              rehearse the question   d              new column: next digit │",
    "│ Moving around                                         rule                   │",
    "│ PgUp PgDn      scroll a page           m              new column: byte/char  │",
    "│ Home End       to the start/end                       mode                   │",
    "│ Tab S-Tab      next/previous pane      s              new column:            │",
    "│ Up k Down j    scroll, select a merge                 count/WordPiece score  │",
    "│ /              find the highlight      Esc            new column: cancel     │",
    "│ click wheel    select; scroll a pane   What the screen shows                 │",
    "│ Showing                                counted        phase: every pair of   │",
    "│ ^C q           quit                                   neighbouring tokens is │",
    "│ Esc Enter      close the merge tree                   counted                │",
    "└─────────────────────────────────────────── Down PgDn: more · ? or Esc closes ┘",
];

const EXPECT_SMALL: &[&str] = &[
    "                              ",
    "                              ",
    "                              ",
    "      bpeek needs 40x12       ",
    "    this terminal is 30x10    ",
    "    enlarge it, or press q    ",
    "                              ",
    "                              ",
    "                              ",
    "                              ",
];
