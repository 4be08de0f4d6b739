//! Every script is drawn as it is written. The corpus pane and the encode
//! box are read back from the screen buffer, glyphs and separators taken
//! out, and must give back the source text exactly, at several merges, for
//! every bundled sample and for pasted text with combining marks, joined
//! emoji, CJK, right-to-left scripts and tabs.

mod common;

use bpeek::bpe::{Mode, Trainer, TrainerConfig};
use bpeek::tui::action::Toggle;
use bpeek::tui::layout::{self, inner};
use bpeek::tui::terminal::term_widths::TermWidths;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, ScriptedEvents, run_loop, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use unicode_width::UnicodeWidthStr;

const WIDTH: u16 = 220;
const HEIGHT: u16 = 80;

/// Pasted text that has broken explorers before.
const PASTED: &[&str] = &[
    "cafe\u{301} nai\u{308}ve re\u{301}sume\u{301} cafe\u{301}",
    "👨\u{200d}👩\u{200d}👧 family 👍🏽 ok 🇫🇷🇩🇪 ❤\u{fe0f}",
    "日本語のテキスト 中文字符 한국어",
    "שָׁלוֹם עוֹלָם مرحبا بالعالم",
    "a\tb\t\tc\td",
    "नमस्ते दुनिया हमारे शहर का पुस्तकालय",
    "ที่นี่ ภาษาไทย தமிழ் மொழி",
];

fn samples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("corpora/samples").unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        out.push((path.display().to_string(), text));
    }
    out.sort();
    out
}

fn app_on(text: &str, mode: Mode) -> App {
    let config = TrainerConfig {
        mode,
        ..TrainerConfig::default()
    };
    let trainer = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
    let mut app = App::from_trainer("sample", trainer, Theme::plain());
    app.shown.set(Toggle::Whitespace, true);
    app
}

fn draw(app: &mut App) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new([])).unwrap();
    terminal
}

/// The cells of `area`, row by row, as a terminal with tmux's widths
/// shows them, each row's padding taken off (with whitespace glyphs on, a
/// real space is `·`, so blanks are padding). A cluster such a terminal
/// draws wider than ratatui counts it covers the cells after it, which
/// must be blank: the room the explorer leaves for it.
fn read(buf: &Buffer, area: Rect) -> Vec<String> {
    let terminal = TermWidths::default();
    (area.y..area.y + area.height)
        .map(|y| {
            let mut row = String::new();
            let mut x = area.x;
            while x < area.x + area.width {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                let counted = symbol.width();
                let drawn = if counted == 0 {
                    0
                } else {
                    terminal.cells(symbol)
                };
                x += counted.max(1) as u16;
                for _ in counted..drawn {
                    let covered = buf.cell((x, y)).map_or(" ", |c| c.symbol());
                    assert_eq!(covered, " ", "{symbol:?} covers a cell holding {covered:?}");
                    x += 1;
                }
            }
            row.trim_end_matches(' ').to_string()
        })
        .collect()
}

/// The text the rows stand for: separators, fragment marks, end-of-word
/// marks and dotted circles out, whitespace glyphs back to whitespace.
fn text_of(rows: &[String]) -> String {
    rows.concat()
        .replace("→   ", "\t")
        .replace(['│', '┊', '⌟', '◌'], "")
        .replace('·', " ")
        .replace('↵', "\n")
        .replace('␍', "\r")
}

fn corpus_text(app: &mut App) -> String {
    let terminal = draw(app);
    let area = inner(layout::for_app(app).corpus);
    text_of(&read(terminal.backend().buffer(), area))
}

/// The encode box's rows of text (its last row is the ids line).
fn encode_text(app: &mut App) -> String {
    let terminal = draw(app);
    let area = inner(layout::for_app(app).encode.unwrap());
    let mut rows = read(terminal.backend().buffer(), area);
    let ids = rows.iter().rposition(|r| r.starts_with("ids ")).unwrap();
    rows.truncate(ids);
    text_of(&rows)
}

#[test]
fn every_sample_reads_back_from_the_corpus_pane_at_every_stage() {
    for (name, text) in samples() {
        let mut app = app_on(&text, Mode::Byte);
        for merges in [0, 7, 60, 300] {
            update(&mut app, Action::Goto(merges));
            for separators in [false, true] {
                if separators {
                    update(&mut app, Action::Toggle(Toggle::Separators));
                }
                assert_eq!(
                    corpus_text(&mut app),
                    text,
                    "{name} at merge {merges}, separators {separators}"
                );
                if separators {
                    update(&mut app, Action::Toggle(Toggle::Separators));
                }
            }
        }
    }
}

#[test]
fn every_sample_and_pasted_text_reads_back_from_the_encode_box() {
    let corpus = samples().into_iter().map(|(_, t)| t).collect::<String>();
    let mut app = app_on(&corpus, Mode::Byte);
    // The box shows seven rows: the first lines of each sample fit.
    let mut texts: Vec<String> = samples()
        .into_iter()
        .map(|(_, t)| t.split_inclusive('\n').take(5).collect())
        .collect();
    texts.extend(PASTED.iter().map(|s| s.to_string()));
    for merges in [0, 40, 400] {
        update(&mut app, Action::Goto(merges));
        // On to the counted phase: no sentence about the merge takes rows
        // from the box.
        if merges > 0 {
            update(&mut app, Action::Advance);
        }
        for text in &texts {
            update(&mut app, Action::ClearEncode);
            // Read while editing: the text as typed, the ids on one line
            // (out of editing each token is padded to its id's width).
            update(&mut app, Action::Paste(text.clone()));
            assert_eq!(encode_text(&mut app), *text, "at merge {merges}");
            update(&mut app, Action::Toggle(Toggle::Separators));
            assert_eq!(
                encode_text(&mut app),
                *text,
                "at merge {merges}, separators"
            );
            update(&mut app, Action::Toggle(Toggle::Separators));
        }
    }
}

#[test]
fn pasted_text_reads_back_from_the_corpus_pane() {
    for text in PASTED {
        let text = format!("{text}\n{text}\n");
        let mut app = app_on(&text, Mode::Byte);
        for merges in [0, 3, 20] {
            update(&mut app, Action::Goto(merges));
            assert_eq!(corpus_text(&mut app), text, "at merge {merges}");
        }
    }
}

#[test]
fn a_token_that_is_only_a_combining_mark_is_drawn() {
    // Decomposed é: the first merge makes the accent's two bytes a token
    // of its own, apart from the e.
    let mut app = app_on("cafe\u{301} re\u{301}sume\u{301} o\u{301}\n", Mode::Byte);
    update(&mut app, Action::Goto(1));
    update(&mut app, Action::Toggle(Toggle::Separators));
    let terminal = draw(&mut app);
    let area = inner(layout::for_app(&app).corpus);
    let rows = read(terminal.backend().buffer(), area);
    assert!(
        rows[0].contains("e│◌\u{301}"),
        "the lone accent stands on a dotted circle: {}",
        rows[0]
    );
    // Without separators it sits on its base letter.
    update(&mut app, Action::Toggle(Toggle::Separators));
    let terminal = draw(&mut app);
    let rows = read(terminal.backend().buffer(), area);
    assert!(rows[0].starts_with("cafe\u{301}"), "{}", rows[0]);
}

#[test]
fn a_character_split_across_tokens_is_drawn_once_and_hex_is_a_toggle() {
    let mut app = app_on("日本 日本\n", Mode::Byte);
    let terminal = draw(&mut app);
    let area = inner(layout::for_app(&app).corpus);
    let buf = terminal.backend().buffer();
    let rows = read(buf, area);
    assert!(rows[0].starts_with("日本·日本"), "{}", rows[0]);
    // Its three byte tokens share it: it is marked as split.
    assert!(
        buf[(area.x, area.y)].modifier.contains(Modifier::ITALIC),
        "a split character has the fragment style"
    );
    update(&mut app, Action::Toggle(Toggle::Hex));
    let terminal = draw(&mut app);
    let rows = read(terminal.backend().buffer(), area);
    assert!(
        rows[0].starts_with("<E6><97><A5><E6><9C><AC>·"),
        "{}",
        rows[0]
    );
}

#[test]
fn a_hex_escape_is_never_cut_across_rows() {
    let text = "日".repeat(200);
    let mut app = app_on(&text, Mode::Byte);
    update(&mut app, Action::Toggle(Toggle::Hex));
    let terminal = draw(&mut app);
    let area = inner(layout::for_app(&app).corpus);
    for row in read(terminal.backend().buffer(), area) {
        let row = row.trim_end();
        if row.is_empty() {
            continue;
        }
        assert!(row.starts_with('<') && row.ends_with('>'), "{row}");
        assert_eq!(row.matches('<').count(), row.matches('>').count());
    }
}

#[test]
fn char_mode_draws_the_end_of_word_symbol_with_its_token() {
    let text = "low lower newest widest\n";
    let mut app = app_on(text, Mode::Char);
    let terminal = draw(&mut app);
    let area = inner(layout::for_app(&app).corpus);
    let rows = read(terminal.backend().buffer(), area);
    assert!(
        rows[0].starts_with("low⌟·lower⌟·newest⌟·widest⌟"),
        "{}",
        rows[0]
    );
    // One mark per word, so the status line's token count adds up by eye:
    // every character plus every </w>.
    let marks = rows[0].matches('⌟').count();
    assert_eq!(marks, 4);
    assert_eq!(
        app.trainer().corpus_tokens(),
        (text.trim().replace(' ', "").chars().count() + marks) as u64
    );
    // Merged into its word's last token, it still shows.
    update(&mut app, Action::Goto(8));
    let terminal = draw(&mut app);
    // The pane gives rows to the sentence saying what the merge did.
    let area = inner(layout::for_app(&app).corpus);
    let rows = read(terminal.backend().buffer(), area);
    assert_eq!(rows[0].matches('⌟').count(), 4, "{}", rows[0]);
    assert_eq!(text_of(&rows), text);
    // In ASCII it is a bracket.
    app.theme = Theme::new(false, true);
    let terminal = draw(&mut app);
    let rows = read(terminal.backend().buffer(), area);
    assert_eq!(rows[0].matches(']').count(), 4, "{}", rows[0]);
}

#[test]
fn boundaries_and_marks_survive_every_colour_and_glyph_setting() {
    use bpeek::tui::theme::Mark;
    for colour in [false, true] {
        for ascii in [false, true] {
            let t = Theme::new(colour, ascii);
            let kinds = [
                t.token(false, Mark::None),
                t.token(true, Mark::None),
                t.token(false, Mark::Chosen),
                t.token(true, Mark::Chosen),
                t.token(false, Mark::Applied),
                t.token(true, Mark::Applied),
                t.token(false, Mark::Selected),
                t.token(false, Mark::Inside),
            ];
            // Told apart by modifiers alone: a terminal that shows no
            // colour still shows them.
            let modifiers: Vec<Modifier> = kinds.iter().map(|s| s.add_modifier).collect();
            for i in 0..modifiers.len() {
                for j in i + 1..modifiers.len() {
                    assert_ne!(
                        modifiers[i], modifiers[j],
                        "colour {colour}, ascii {ascii}: styles {i} and {j}"
                    );
                }
            }
        }
    }
}

#[test]
fn right_to_left_text_is_said_to_be_shown_in_logical_order() {
    let screen = |app: &mut App| {
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        bpeek::tui::runner::draw(&mut terminal, app).unwrap();
        common::rows_of(terminal.backend()).join("\n")
    };
    let mut app = common::play();
    update(&mut app, Action::Resize(100, 30));
    update(&mut app, Action::Paste("the bakery opens at five".into()));
    common::finish_job(&mut app);
    let latin = screen(&mut app);
    assert!(!latin.contains("logical order"), "{latin}");

    update(&mut app, Action::ClearEncode);
    update(&mut app, Action::Paste("שָׁלוֹם עוֹלָם مرحبا بالعالم".into()));
    common::finish_job(&mut app);
    let hebrew_and_arabic = screen(&mut app);
    assert!(
        hebrew_and_arabic.contains("right-to-left text in logical order"),
        "{hebrew_and_arabic}"
    );

    // A corpus of right-to-left text says so under the corpus pane.
    let trainer = Trainer::new(
        "مرحبا بالعالم مرحبا".as_bytes().to_vec(),
        TrainerConfig::default(),
    )
    .unwrap();
    let mut arabic = App::from_trainer("arabic", trainer, Theme::new(true, false));
    update(&mut arabic, Action::Resize(100, 30));
    let shown = screen(&mut arabic);
    let corpus_bottom = shown
        .lines()
        .find(|l| l.contains("logical order"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(corpus_bottom.starts_with('└'), "{shown}");
}
