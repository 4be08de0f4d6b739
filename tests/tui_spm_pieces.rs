//! A SentencePiece piece explains itself in the explorer, as its model
//! gives it: a BPE piece by the merges by score that build it from its own
//! text (or where that merging stops, for a piece it never reaches), a
//! Unigram piece by its score beside the next best cut of its text. Both
//! show on the fertility view's token line and in the pane `Enter` opens,
//! from the fertility view, the encode box and the vocabulary search.
//!
//! The `.model` files are written here field by field, so the scores and
//! so the stories are known by construction.

mod common;

use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, update};
use common::{press, rows_of};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn varint(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn field(number: u64, bytes: &[u8], out: &mut Vec<u8>) {
    varint(number << 3 | 2, out);
    varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

fn number(number: u64, value: u64, out: &mut Vec<u8>) {
    varint(number << 3, out);
    varint(value, out);
}

const NORMAL: u64 = 1;
const UNKNOWN: u64 = 2;
const CONTROL: u64 = 3;
const USER: u64 = 4;
const UNUSED: u64 = 5;
const BYTE: u64 = 6;
const BPE: u64 = 2;
const UNIGRAM: u64 = 1;

/// A `.model` file of these pieces (text, score, type), with the
/// `identity` normalizer: a space becomes `▁` and nothing else changes.
/// Byte pieces turn byte fallback on.
fn model_file(model_type: u64, pieces: &[(&str, f32, u64)]) -> Vec<u8> {
    let mut file = Vec::new();
    for &(text, score, kind) in pieces {
        let mut p = Vec::new();
        field(1, text.as_bytes(), &mut p);
        p.push(2 << 3 | 5);
        p.extend_from_slice(&score.to_le_bytes());
        number(3, kind, &mut p);
        field(1, &p, &mut file);
    }
    let mut trainer = Vec::new();
    number(3, model_type, &mut trainer);
    if pieces.iter().any(|&(_, _, kind)| kind == BYTE) {
        number(35, 1, &mut trainer);
    }
    field(2, &trainer, &mut file);
    let mut normalizer = Vec::new();
    field(1, b"identity", &mut normalizer);
    field(3, &normalizer, &mut file);
    file
}

/// BPE: `he` merges first (-1), then `▁t` (-2), then `▁the` (-3). In
/// `abcd`, `bc` (-1.5) merges before `ab` and `cd` (-5), and neither `abc`
/// nor `bcd` is a piece: `abcd` is never made from its own text.
fn bpe_model() -> Vec<u8> {
    model_file(
        BPE,
        &[
            ("<unk>", 0.0, UNKNOWN),
            ("<s>", 0.0, CONTROL),
            ("he", -1.0, NORMAL),
            ("\u{2581}t", -2.0, NORMAL),
            ("\u{2581}the", -3.0, NORMAL),
            ("bc", -1.5, NORMAL),
            ("abcd", -4.0, NORMAL),
            ("ab", -5.0, NORMAL),
            ("cd", -5.0, NORMAL),
            ("\u{2581}", -10.0, NORMAL),
            ("t", -11.0, NORMAL),
            ("h", -12.0, NORMAL),
            ("e", -13.0, NORMAL),
            ("a", -14.0, NORMAL),
            ("b", -15.0, NORMAL),
            ("c", -16.0, NORMAL),
            ("d", -17.0, NORMAL),
        ],
    )
}

/// Unigram: `▁hello` alone (-8.25) beats `▁hel` + `lo` (-7 - 8 = -15) and
/// every other cut.
fn unigram_model() -> Vec<u8> {
    model_file(
        UNIGRAM,
        &[
            ("<unk>", 0.0, UNKNOWN),
            ("<s>", 0.0, CONTROL),
            ("\u{2581}hello", -8.25, NORMAL),
            ("\u{2581}hel", -7.0, NORMAL),
            ("lo", -8.0, NORMAL),
            ("\u{2581}", -5.0, NORMAL),
            ("h", -6.0, NORMAL),
            ("e", -6.0, NORMAL),
            ("l", -6.0, NORMAL),
            ("o", -6.0, NORMAL),
        ],
    )
}

/// A folder for one test's model files, removed when dropped.
struct Dir(std::path::PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("bpeek-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The explorer with the model at `path` selected in the fertility view,
/// measuring `text`.
fn fertility_on(path: &str, text: &str, theme: Theme) -> App {
    let mut app = App::from_options(&Default::default(), theme).unwrap();
    app.add_tokenizer(path);
    update(&mut app, Action::Paste(text.into()));
    update(&mut app, Action::StopEditing);
    press(&mut app, [Event::char('f')]);
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(common::loaded(&spec)));
    }
    let name = path.rsplit('/').next().unwrap();
    while app.toks.selected_slot().label != name {
        press(&mut app, [Event::char('t')]);
    }
    app
}

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    common::redraw_whole(&mut terminal, app);
    rows_of(terminal.backend()).join("\n")
}

/// The token line of the fertility view: the selected token's id.
fn token_line(screen: &str, id: u32) -> &str {
    let start = format!(" id {id} ");
    screen
        .lines()
        .find(|r| r.starts_with(&start))
        .map(str::trim_end)
        .unwrap_or_else(|| panic!("no token line for id {id}:\n{screen}"))
}

/// The pane `Enter` opened: its title, then its rows without borders.
/// `corner` and `side` are the border's characters (`┌` and `│`, or `+`
/// and `|` in ASCII).
fn pane(screen: &str, corner: char, side: char) -> Vec<String> {
    let rows: Vec<Vec<char>> = screen.lines().map(|r| r.chars().collect()).collect();
    let (top, left) = rows
        .iter()
        .enumerate()
        .find_map(|(y, r)| {
            let line: String = r.iter().collect();
            let x = r.iter().position(|&c| c == corner)?;
            line.contains(".model)").then_some((y, x))
        })
        .unwrap_or_else(|| panic!("no pane:\n{screen}"));
    let text = |y: usize| -> String { rows[y][left + 1..].iter().collect() };
    // The title ends with the tokenizer's name in brackets.
    let title = text(top);
    let title = title.trim_start();
    let mut out = vec![title[..=title.rfind(')').unwrap()].to_string()];
    for (y, row) in rows.iter().enumerate().skip(top + 1) {
        if row.get(left) != Some(&side) {
            break;
        }
        let row = text(y);
        let end = row.find(side).unwrap_or(row.len());
        out.push(row[..end].trim_end().to_string());
    }
    out
}

#[test]
fn a_bpe_piece_shows_the_merges_by_score_that_build_it() {
    let dir = Dir::new("spm-story-bpe");
    let path = dir.write("story.model", &bpe_model());
    let mut app = fertility_on(&path, "the", Theme::plain());
    // "the" is `▁the`, one piece (id 4).
    press(&mut app, [Event::char(']')]);
    let shown = screen(&mut app, 140, 30);
    assert!(
        token_line(&shown, 4).ends_with(
            "made by merging ·t + he (score -3; pairs whose piece scores higher merge first)"
        ),
        "{shown}"
    );

    // Enter: the whole tree, outermost merge first, each part's score.
    press(&mut app, [Event::key(KeyCode::Enter)]);
    assert_eq!(
        pane(&screen(&mut app, 100, 30), '┌', '│'),
        [
            "·the: sentencepiece bpe piece, score -3 (story.model)",
            " ·the = ·t (score -2) + he (score -1)",
            "   ·t = · (score -10) + t (score -11)",
            "   he = h (score -12) + e (score -13)",
        ]
    );
}

#[test]
fn a_bpe_piece_its_merging_never_reaches_says_where_it_stops() {
    let dir = Dir::new("spm-story-unreached");
    let path = dir.write("story.model", &bpe_model());
    let mut app = fertility_on(&path, "abcd", Theme::plain());
    // The model cuts "abcd" as `▁ a bc d`; its piece `abcd` is found in
    // the vocabulary.
    press(&mut app, [Event::key(KeyCode::Esc), Event::char('s')]);
    press(&mut app, "abcd".chars().map(Event::char));
    press(&mut app, [Event::key(KeyCode::Enter)]);
    assert_eq!(
        pane(&screen(&mut app, 100, 30), '┌', '│'),
        [
            "abcd: sentencepiece bpe piece, score -4 (story.model)",
            " merging its text by score stops at a + bc + d",
            "   bc = b (score -15) + c (score -16)",
        ]
    );
}

#[test]
fn a_unigram_piece_shows_its_score_beside_the_next_best_cut() {
    let dir = Dir::new("spm-story-unigram");
    let path = dir.write("story.model", &unigram_model());
    let mut app = fertility_on(&path, "hello", Theme::plain());
    press(&mut app, [Event::char(']')]);
    let shown = screen(&mut app, 140, 30);
    assert!(
        token_line(&shown, 2)
            .ends_with("score -8.25; as one piece -8.25, the next best cut ·hel + lo totals -15"),
        "{shown}"
    );
    press(&mut app, [Event::key(KeyCode::Enter)]);
    assert_eq!(
        pane(&screen(&mut app, 100, 30), '┌', '│'),
        [
            "·hello: sentencepiece unigram piece, score -8.25 (story.model)",
            " as one piece: ·hello = -8.25",
            " next best cut: ·hel + lo = -15",
            "   ·hel (score -7)",
            "   lo (score -8)",
            " the cut with the highest total wins",
        ]
    );
}

#[test]
fn a_single_character_has_no_other_cut_even_in_the_encode_box_in_ascii() {
    let dir = Dir::new("spm-story-char");
    let path = dir.write("story.model", &unigram_model());
    let mut app = fertility_on(&path, "he", Theme::new(false, true));
    // Leave the view: the encode box encodes with the same tokenizer.
    press(&mut app, [Event::key(KeyCode::Esc)]);
    while app.focus != bpeek::tui::app::Focus::Encode {
        press(&mut app, [Event::key(KeyCode::Tab)]);
    }
    // "he" is `▁`, `h`, `e`: the third token is `e` alone.
    press(&mut app, [']', ']', ']'].map(Event::char));
    press(&mut app, [Event::key(KeyCode::Enter)]);
    let shown = screen(&mut app, 80, 24);
    assert!(!shown.contains('┌') && !shown.contains('…'), "{shown}");
    assert_eq!(
        pane(&shown, '+', '|'),
        [
            "e: sentencepiece unigram piece, score -6 (story.model)",
            " as one piece: e = -6",
            " one character: no other cut",
        ]
    );
}

/// Every kind of piece, in both kinds of model, and ids past the last
/// piece: each piece has a story (a short one for pieces no text makes),
/// an added token none, and nothing panics.
#[test]
fn every_kind_of_piece_has_a_story_and_an_added_token_none() {
    use bpeek::bpe::formats::sentencepiece;
    use bpeek::bpe::models::spm::SpmModel;
    use bpeek::tui::panes::piece_story::story;

    let mut pieces: Vec<(String, f32, u64)> = vec![
        ("<unk>".into(), 0.0, UNKNOWN),
        ("<s>".into(), 0.0, CONTROL),
        ("<sep>".into(), 0.0, USER),
        ("ab".into(), -1.0, UNUSED),
        ("\u{2581}ab".into(), -2.0, NORMAL),
        ("\u{2581}".into(), -3.0, NORMAL),
        ("a".into(), -4.0, NORMAL),
        ("b".into(), -5.0, NORMAL),
        ("é".into(), -6.0, NORMAL),
    ];
    for b in 0..=255u8 {
        pieces.push((format!("<0x{b:02X}>"), 0.0, BYTE));
    }
    let listed: Vec<(&str, f32, u64)> = pieces.iter().map(|(t, s, k)| (&t[..], *s, *k)).collect();
    for model_type in [BPE, UNIGRAM] {
        let file = model_file(model_type, &listed);
        let model = SpmModel::new(sentencepiece::read(&file).unwrap()).unwrap();
        let label = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let told = |id: u32| story(&model, id, "spm", &label, "...");
        for id in 0..pieces.len() as u32 {
            let s = told(id).unwrap();
            assert!(!s.summary.is_empty() && !s.title.is_empty());
        }
        assert_eq!(told(pieces.len() as u32), None);
        assert_eq!(told(u32::MAX), None);
        assert!(told(0).unwrap().summary.contains("unknown piece"));
        assert!(told(2).unwrap().summary.contains("user-defined"));
        assert!(told(9).unwrap().summary.contains("byte fallback"));
        let unused = told(3).unwrap().summary;
        assert!(unused.starts_with("unused"), "{unused}");
    }
}
