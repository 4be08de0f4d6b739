//! The encode box as an editor: keys pressed through the key table, and the
//! text and cursor (in characters) they leave; then what the screen shows.

use bpeek::tui::action::Toggle;
use bpeek::tui::app::InputMode;
use bpeek::tui::theme::Theme;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;
use unicode_width::UnicodeWidthStr;

mod common;
use common::{play, press};

fn key(code: KeyCode) -> Event {
    Event::key(code)
}

fn ctrl(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::CONTROL))
}

fn times(n: usize, code: KeyCode) -> Vec<Event> {
    vec![key(code); n]
}

fn typed(text: &str) -> Vec<Event> {
    text.chars()
        .map(|c| match c {
            '\n' => key(KeyCode::Enter),
            c => Event::char(c),
        })
        .collect()
}

/// An app editing the encode box, with `text` typed into it.
fn editing(text: &str) -> App {
    let mut app = play();
    press(&mut app, [Event::char('e')]);
    press(&mut app, typed(text));
    assert_eq!(app.input, InputMode::Editing);
    app
}

fn state(app: &App) -> (&str, usize) {
    (app.encode.text.as_str(), app.encode.cursor())
}

#[test]
fn typing_in_the_middle_inserts_at_the_cursor() {
    let mut app = editing("helo");
    assert_eq!(state(&app), ("helo", 4));
    press(&mut app, [key(KeyCode::Left)]);
    press(&mut app, typed("l"));
    assert_eq!(state(&app), ("hello", 4));
    press(&mut app, [key(KeyCode::Home)]);
    press(&mut app, typed("oh, "));
    assert_eq!(state(&app), ("oh, hello", 4));
    press(&mut app, [key(KeyCode::End)]);
    press(&mut app, typed("!"));
    assert_eq!(state(&app), ("oh, hello!", 10));
}

#[test]
fn backspace_and_delete_at_both_ends() {
    let mut app = editing("abc");
    press(&mut app, [key(KeyCode::Delete)]);
    assert_eq!(state(&app), ("abc", 3), "nothing after the end");
    press(&mut app, [key(KeyCode::Backspace)]);
    assert_eq!(state(&app), ("ab", 2));
    press(&mut app, [key(KeyCode::Home), key(KeyCode::Backspace)]);
    assert_eq!(state(&app), ("ab", 0), "nothing before the start");
    press(&mut app, [key(KeyCode::Delete)]);
    assert_eq!(state(&app), ("b", 0));
    press(&mut app, [key(KeyCode::Right), key(KeyCode::Right)]);
    assert_eq!(state(&app), ("b", 1), "Right stops at the end");
    press(&mut app, [key(KeyCode::Left), key(KeyCode::Left)]);
    assert_eq!(state(&app), ("b", 0), "Left stops at the start");
}

#[test]
fn home_and_end_keep_to_the_line() {
    let mut app = editing("first\nsecond\nthird");
    press(&mut app, [key(KeyCode::Up), key(KeyCode::Home)]);
    assert_eq!(app.encode.cursor(), 6, "start of `second`");
    press(&mut app, [key(KeyCode::End)]);
    assert_eq!(app.encode.cursor(), 12, "before the line break");
    press(&mut app, [key(KeyCode::Home), key(KeyCode::Left)]);
    assert_eq!(app.encode.cursor(), 5, "Left crosses the line break");
    press(&mut app, [key(KeyCode::Home)]);
    assert_eq!(app.encode.cursor(), 0);
}

#[test]
fn up_and_down_keep_the_column_across_short_lines() {
    // Lines of 9, 2 and 12 characters.
    let mut app = editing("long line\nab\nanother long");
    press(&mut app, [key(KeyCode::Home)]);
    press(&mut app, times(7, KeyCode::Right));
    assert_eq!(app.encode.cursor(), 13 + 7, "column 7 of the last line");
    press(&mut app, [key(KeyCode::Up)]);
    assert_eq!(app.encode.cursor(), 12, "the short line ends at column 2");
    press(&mut app, [key(KeyCode::Up)]);
    assert_eq!(app.encode.cursor(), 7, "back at column 7 on the first line");
    press(&mut app, [key(KeyCode::Up)]);
    assert_eq!(app.encode.cursor(), 0, "Up on the first line: its start");
    press(&mut app, [key(KeyCode::Right), key(KeyCode::Down)]);
    assert_eq!(app.encode.cursor(), 11, "column 1 of `ab`");
    press(&mut app, [key(KeyCode::Down)]);
    assert_eq!(app.encode.cursor(), 14, "column 1 of the last line");
    press(&mut app, [key(KeyCode::Down)]);
    assert_eq!(app.encode.cursor(), 25, "Down on the last line: its end");
    assert_eq!(app.encode.text, "long line\nab\nanother long");
}

#[test]
fn up_and_down_count_columns_by_display_width() {
    // 日本語 is six columns wide; abcdefgh is eight.
    let mut app = editing("日本語\nabcdefgh");
    press(&mut app, [key(KeyCode::Up), key(KeyCode::Home)]);
    press(&mut app, [key(KeyCode::Right), key(KeyCode::Right)]);
    assert_eq!(app.encode.cursor(), 2, "after 日本, column 4");
    press(&mut app, [key(KeyCode::Down)]);
    assert_eq!(app.encode.cursor(), 4 + 4, "column 4: after abcd");
    press(&mut app, [key(KeyCode::Left), key(KeyCode::Up)]);
    assert_eq!(
        app.encode.cursor(),
        1,
        "column 3 is inside 本: the cursor stays before it"
    );
}

#[test]
fn pasted_text_goes_in_at_the_cursor() {
    let mut app = editing("ac");
    press(&mut app, [key(KeyCode::Left)]);
    update(&mut app, Action::Paste("b\r\nx".into()));
    assert_eq!(state(&app), ("ab\nxc", 4));
    // A paste outside editing starts editing where the cursor was left.
    press(&mut app, [key(KeyCode::Esc)]);
    update(&mut app, Action::Paste("y".into()));
    assert_eq!(app.input, InputMode::Editing);
    assert_eq!(state(&app), ("ab\nxyc", 5));
}

#[test]
fn multi_byte_characters_move_and_delete_whole() {
    let mut app = editing("é日👍🏽e\u{301}!");
    assert_eq!(app.encode.cursor(), 7, "in chars: é 日 👍 🏽 e ◌́ !");
    let mut seen = vec![app.encode.cursor()];
    for _ in 0..6 {
        press(&mut app, [key(KeyCode::Left)]);
        seen.push(app.encode.cursor());
    }
    assert_eq!(seen, [7, 6, 4, 2, 1, 0, 0], "skin tone and accent go along");
    press(&mut app, times(3, KeyCode::Right));
    assert_eq!(app.encode.cursor(), 4, "after 👍🏽");
    press(&mut app, [key(KeyCode::Backspace)]);
    assert_eq!(state(&app), ("é日e\u{301}!", 2));
    press(&mut app, [key(KeyCode::Delete)]);
    assert_eq!(state(&app), ("é日!", 2));
    press(&mut app, typed("\u{301}"));
    assert_eq!(state(&app), ("é日\u{301}!", 3), "a mark typed after 日");
    press(&mut app, [key(KeyCode::Left)]);
    assert_eq!(app.encode.cursor(), 1, "日 with its mark is one character");
    press(&mut app, [key(KeyCode::Backspace)]);
    assert_eq!(state(&app), ("日\u{301}!", 0));
    assert_eq!(app.encode.bytes(), "日\u{301}!".len());
}

#[test]
fn ctrl_arrows_move_by_word() {
    let mut app = editing("one two, three");
    press(&mut app, [ctrl(KeyCode::Left)]);
    assert_eq!(app.encode.cursor(), 9, "start of `three`");
    press(&mut app, [ctrl(KeyCode::Left)]);
    assert_eq!(app.encode.cursor(), 4, "over `, ` to the start of `two`");
    press(&mut app, [ctrl(KeyCode::Left), ctrl(KeyCode::Left)]);
    assert_eq!(app.encode.cursor(), 0);
    press(&mut app, [ctrl(KeyCode::Right)]);
    assert_eq!(app.encode.cursor(), 3, "end of `one`");
    press(&mut app, [ctrl(KeyCode::Right)]);
    assert_eq!(app.encode.cursor(), 7, "end of `two`");
    assert_eq!(app.encode.text, "one two, three");
}

#[test]
fn enter_breaks_the_line_at_the_cursor_and_ctrl_u_clears() {
    let mut app = editing("playplay");
    press(&mut app, times(4, KeyCode::Left));
    press(&mut app, [key(KeyCode::Enter)]);
    assert_eq!(state(&app), ("play\nplay", 5));
    press(&mut app, [Event::ctrl('u')]);
    assert_eq!(state(&app), ("", 0));
    assert_eq!(app.input, InputMode::Editing);
}

#[test]
fn the_encoding_follows_every_edit() {
    let mut app = play();
    update(&mut app, Action::Goto(3));
    press(&mut app, [Event::char('e')]);
    press(&mut app, typed("pay"));
    assert_eq!(app.encode.tokens(), 3, "p a y");
    press(&mut app, times(2, KeyCode::Left));
    press(&mut app, typed("l"));
    assert_eq!(app.encode.text, "play");
    assert_eq!(app.encode.tokens(), 1, "play is merge 2");
    press(&mut app, [key(KeyCode::Delete)]);
    assert_eq!(app.encode.text, "ply");
    assert_eq!(app.encode.tokens(), 2, "pl y");
}

#[test]
fn editing_keys_only_edit_while_editing() {
    let mut app = play();
    press(&mut app, [key(KeyCode::Right), key(KeyCode::Right)]);
    assert_eq!(app.trainer().merges().len(), 2, "Right steps training");
    press(&mut app, [Event::char('e')]);
    press(&mut app, typed("ab"));
    press(&mut app, [key(KeyCode::Left), key(KeyCode::Home)]);
    press(&mut app, [key(KeyCode::Delete), key(KeyCode::Up)]);
    assert_eq!(
        app.trainer().merges().len(),
        2,
        "editing keys leave training"
    );
    assert_eq!(state(&app), ("b", 0));
    press(&mut app, [key(KeyCode::Esc), key(KeyCode::Left)]);
    assert_eq!(app.trainer().merges().len(), 1, "Left undoes again");
    assert_eq!(state(&app), ("b", 0), "and leaves the box alone");
}

/// Run the loop over `events` at 80x24 and return the terminal.
fn draw(app: &mut App, events: Vec<Event>) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new(events)).unwrap();
    terminal
}

/// The characters of row `y` inside the encode box, as (column from the
/// box's inside, symbol, reversed); a wide character's hidden cell is left
/// out.
fn box_row(terminal: &Terminal<TestBackend>, y: u16) -> Vec<(u16, String, bool)> {
    let buf = terminal.backend().buffer();
    let mut out = Vec::new();
    let mut x = 1;
    while x < 79 {
        let cell = &buf[(x, y)];
        out.push((
            x - 1,
            cell.symbol().to_string(),
            cell.modifier.contains(Modifier::REVERSED),
        ));
        x += (cell.symbol().width() as u16).max(1);
    }
    out
}

fn reversed(row: &[(u16, String, bool)]) -> Vec<(u16, &str)> {
    row.iter()
        .filter(|(_, _, r)| *r)
        .map(|(x, s, _)| (*x, s.as_str()))
        .collect()
}

fn text_of(row: &[(u16, String, bool)]) -> String {
    row.iter().map(|(_, s, _)| s.as_str()).collect()
}

#[test]
fn the_cursor_is_a_reverse_video_cell_kept_in_view() {
    let mut app = play();
    // The box at 80x24 is rows 18 to 22: two rows of text, then the ids.
    let mut events = vec![Event::char('e')];
    events.extend(typed("play 日本 day"));
    events.extend(times(6, KeyCode::Left));
    let terminal = draw(&mut app, events);
    let row = box_row(&terminal, 19);
    // No merge has made 日 yet: its three bytes are three tokens, drawn as
    // one character under the cursor.
    assert!(
        text_of(&row).starts_with("play 日本 day"),
        "{}",
        text_of(&row)
    );
    assert_eq!(reversed(&row), [(5, "日")]);
    assert!(
        terminal.backend().buffer()[(0, 18)].symbol() == "┌",
        "the box starts at row 18"
    );

    // With `x` the bytes of a split character are hex, token by token, and
    // the cursor covers all three.
    update(&mut app, Action::Toggle(Toggle::Hex));
    let terminal = draw(&mut app, vec![]);
    let row = box_row(&terminal, 19);
    assert!(
        text_of(&row).starts_with("play <E6><97><A5><E6><9C><AC> day"),
        "{}",
        text_of(&row)
    );
    let under: String = reversed(&row).iter().map(|(_, s)| *s).collect();
    assert_eq!(under, "<E6><97><A5>");
    assert_eq!(reversed(&row)[0].0, 5);
    update(&mut app, Action::Toggle(Toggle::Hex));

    // At the end of the text the cursor is a blank cell after it.
    let terminal = draw(&mut app, vec![key(KeyCode::End)]);
    let row = box_row(&terminal, 19);
    assert_eq!(reversed(&row), [(13, " ")]);

    // On a line break it is a blank cell at the end of the line; ten lines
    // scroll so the cursor's line shows.
    let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
    let mut events = vec![Event::ctrl('u'), Event::Paste(lines.join("\n"))];
    events.extend(times(9, KeyCode::Up));
    events.push(key(KeyCode::End));
    let terminal = draw(&mut app, events);
    let top = box_row(&terminal, 19);
    assert!(text_of(&top).starts_with("line 0 "), "{}", text_of(&top));
    assert_eq!(reversed(&top), [(6, " ")]);
    assert!(text_of(&box_row(&terminal, 20)).starts_with("line 1"));

    let terminal = draw(&mut app, times(5, KeyCode::Down));
    let rows = [box_row(&terminal, 19), box_row(&terminal, 20)];
    assert!(text_of(&rows[1]).starts_with("line 5"), "{:?}", rows[1]);
    assert_eq!(reversed(&rows[1]), [(6, " ")], "at the end of line 5");
    assert!(reversed(&rows[0]).is_empty());

    // Outside editing there is no cursor.
    let terminal = draw(&mut app, vec![key(KeyCode::Esc)]);
    for y in 19..21 {
        assert!(reversed(&box_row(&terminal, y)).is_empty());
    }
}

#[test]
fn the_cursor_covers_a_wide_character_inside_a_token() {
    let text = "日本 日本 日本語\n".repeat(20);
    let trainer = bpeek::bpe::Trainer::new(text.into_bytes(), Default::default()).unwrap();
    let mut app = App::from_trainer("wide", trainer, Theme::plain());
    update(&mut app, Action::Goto(20));
    let mut events = vec![Event::char('e')];
    events.extend(typed("a日本b"));
    events.extend(times(2, KeyCode::Left));
    let terminal = draw(&mut app, events);
    let row = box_row(&terminal, 19);
    assert!(text_of(&row).starts_with("a日本b "), "{}", text_of(&row));
    assert_eq!(reversed(&row), [(3, "本")], "two columns, one cell");
    assert_eq!(app.encode.cursor(), 2);
    assert!(
        app.encode
            .encoded()
            .iter()
            .any(|t| t.bytes == "日本".as_bytes()),
        "日本 is one token, cut by the cursor"
    );
}

/// Edits in a long text re-encode only the lines they touch; after every
/// edit the tokens must equal a fresh encoding of the whole text.
#[test]
fn editing_encodes_only_what_changed_and_agrees_with_a_fresh_encoding() {
    use bpeek::tui::fertility::tokenizers::LoadDone;
    use bpeek::tui::panes::encode_box::Move;
    let mut app = play();
    update(&mut app, Action::Goto(30));
    let pieces = [
        "word ", "Word", "\n", "\n\n", "  ", "12", "345", "!", "?\n", "é", "日本", " \t", "'s",
        "x=2000", "\u{301}", "\r\n", "/", "a", " ", "\n ",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for label in ["trained", "gpt2", "cl100k", "o200k"] {
        while app.toks.selected_slot().label != label {
            update(&mut app, Action::NextTokenizer);
        }
        for spec in app.toks.take_requests() {
            update(&mut app, Action::Loaded(LoadDone::now(&spec)));
        }
        update(&mut app, Action::ClearEncode);
        let start: String = (0..300).map(|_| pieces[next(pieces.len())]).collect();
        update(&mut app, Action::Paste(start));
        for round in 0..200 {
            match next(6) {
                0 => update(
                    &mut app,
                    Action::Type(pieces[next(pieces.len())].chars().next().unwrap()),
                ),
                1 => update(
                    &mut app,
                    Action::Paste(pieces[next(pieces.len())].to_string()),
                ),
                2 => update(&mut app, Action::DeleteBack),
                3 => update(&mut app, Action::DeleteForward),
                4 => {
                    for _ in 0..next(30) {
                        update(&mut app, Action::MoveCursor(Move::Left));
                    }
                }
                _ => update(&mut app, Action::MoveCursor(Move::Up)),
            }
            let tok = app.toks.get(app.toks.selected).unwrap().clone();
            let fresh = tok.encode(&app.encode.text, false);
            let ids: Vec<u32> = app.encode.encoded().iter().map(|t| t.id).collect();
            assert_eq!(ids, fresh, "{label}, edit {round}: {:?}", app.encode.text);
            let mut at = 0;
            for r in app.encode.spans.iter() {
                assert_eq!(r.start, at, "{label}, edit {round}: spans tile the text");
                at = r.end;
            }
            assert_eq!(at, app.encode.text.len());
        }
    }
}

/// A step of training, forward or back, updates the encode box's tokens
/// without encoding the text again; they must equal a fresh encoding.
#[test]
fn training_steps_update_the_encode_box_as_a_fresh_encoding_would() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    use bpeek::tui::theme::Theme;
    let corpus =
        "the player played aaaa aaa a\nthe replay  was\n\ndisplayed 12345 x=2000\n".repeat(20);
    for pretok in [
        bpeek::bpe::Pretok::Gpt2,
        bpeek::bpe::Pretok::Whitespace,
        bpeek::bpe::Pretok::Lines,
        bpeek::bpe::Pretok::None,
    ] {
        let config = TrainerConfig {
            pretok,
            ..TrainerConfig::default()
        };
        let trainer = Trainer::new(corpus.clone().into_bytes(), config).unwrap();
        let mut app = App::from_trainer("steps", trainer, Theme::plain());
        update(
            &mut app,
            Action::Paste(format!("{corpus}aaaaaaa  played\n\nx")),
        );
        update(&mut app, Action::StopEditing);
        let mut seed = 7u64;
        for round in 0..120 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let action = match (seed >> 33) % 5 {
                0..=2 => Action::Step,
                3 => Action::Undo,
                _ => Action::Advance,
            };
            update(&mut app, action);
            let tok = app.toks.get(app.toks.selected).unwrap().clone();
            let fresh = tok.encode(&app.encode.text, false);
            let ids: Vec<u32> = app.encode.encoded().iter().map(|t| t.id).collect();
            assert_eq!(ids, fresh, "{pretok:?}, round {round}");
            let mut at = 0;
            for (r, t) in app.encode.spans.iter().zip(&app.encode.encoded()) {
                assert_eq!(r.start, at);
                assert_eq!(&app.encode.text.as_bytes()[r.clone()], &t.bytes[..]);
                at = r.end;
            }
        }
    }
}

/// A long paste is encoded a part at a time between frames: keys are
/// answered meanwhile, and edits and steps made while it goes on leave
/// the same tokens as a fresh encoding once it is done.
#[test]
fn a_long_paste_is_encoded_in_parts_and_keys_are_answered_meanwhile() {
    let mut app = play();
    let text = "the player played again\n  and again 12345\n".repeat(20_000);
    // The loop answers Ctrl-C before the encoding is done.
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut events = ScriptedEvents::new([Event::Paste(text.clone()), Event::ctrl('c')]);
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert!(app.quit);
    assert!(
        app.encode.encoding(),
        "still encoding when Ctrl-C was taken"
    );
    assert!(app.encode.encoded_percent().is_some_and(|p| p < 100));

    let mut app = play();
    update(&mut app, Action::Paste(text));
    update(&mut app, Action::StopEditing);
    let mut parts = 0;
    while app.encode.encoding() {
        parts += 1;
        match parts % 4 {
            0 => update(&mut app, Action::Step),
            1 => {
                update(&mut app, Action::StartEditing);
                update(
                    &mut app,
                    Action::MoveCursor(bpeek::tui::panes::encode_box::Move::Up),
                );
                update(&mut app, Action::Type('x'));
                update(&mut app, Action::StopEditing);
            }
            _ => {}
        }
        update(&mut app, Action::EncodeMore);
        assert!(parts < 10_000);
    }
    assert!(parts > 2, "encoded in several parts");
    let tok = app.toks.get(app.toks.selected).unwrap().clone();
    let fresh = tok.encode(&app.encode.text, false);
    let ids: Vec<u32> = app.encode.encoded().iter().map(|t| t.id).collect();
    assert_eq!(ids.len(), fresh.len());
    assert!(ids == fresh, "the tokens equal a fresh encoding");
}

/// With the GPT-2 pre-tokenizer, spaces before a line break are cut
/// differently at the very end of a text ("x  \n" is one chunk) than before
/// a letter ("x  \ny" has "  " and "\n"), so an edit must never encode a
/// line that ends in spaces on its own. A tokenizer trained on blank lines
/// after spaces has the merge that tells the two apart.
#[test]
fn lines_that_end_in_spaces_are_never_encoded_on_their_own() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    use bpeek::tui::panes::encode_box::Move;
    let corpus = "ab \n\ncd \n\nef  \n\n".repeat(40).into_bytes();
    let config = TrainerConfig {
        pretok: bpeek::bpe::Pretok::Gpt2,
        ..TrainerConfig::default()
    };
    let trainer = Trainer::new(corpus, config).expect("trains");
    let mut app = App::from_trainer("blank lines", trainer, bpeek::tui::theme::Theme::plain());
    update(&mut app, Action::Goto(12));
    let text = "ab  \ncd \nef\n".repeat(60);
    update(&mut app, Action::Paste(text));
    let check = |app: &App, what: &str| {
        let tok = app.toks.get(app.toks.selected).unwrap().clone();
        let fresh = tok.encode(&app.encode.text, false);
        let ids: Vec<u32> = app.encode.encoded().iter().map(|t| t.id).collect();
        assert_eq!(ids, fresh, "{what}: {:?}", app.encode.text);
    };
    check(&app, "the paste");
    for round in 0..40 {
        for _ in 0..7 {
            update(&mut app, Action::MoveCursor(Move::Left));
        }
        update(&mut app, Action::Type('z'));
        check(&app, &format!("edit {round}"));
        update(&mut app, Action::DeleteBack);
        check(&app, &format!("undoing edit {round}"));
    }
}

#[test]
fn u_trains_on_the_encode_box_text_from_merge_0_and_c_goes_back() {
    let mut app = common::default_app();
    common::press(&mut app, "nnnu".chars().map(Event::char));
    assert!(
        app.notice
            .as_deref()
            .unwrap_or("")
            .contains("the encode box is empty")
    );
    assert_eq!(app.trainer().merges().len(), 3, "nothing changed");
    let bakery = app.corpus_name().to_string();
    update(&mut app, Action::Paste("low lower lowest".into()));
    update(&mut app, Action::StopEditing);
    common::press(&mut app, "u".chars().map(Event::char));
    assert!(
        app.corpus_name().starts_with("typed "),
        "{}",
        app.corpus_name()
    );
    assert_eq!(app.trainer().corpus().text(), b"low lower lowest");
    assert_eq!(app.trainer().merges().len(), 0);
    common::press(&mut app, "n".chars().map(Event::char));
    // l + o and o + w both occur three times; the tie goes to the pair met first.
    assert_eq!(app.trainer().merges()[0].pair, ('l' as u32, 'o' as u32));
    common::press(&mut app, "c".chars().map(Event::char));
    assert_eq!(app.corpus_name(), bakery);
    assert_eq!(
        app.trainer().merges().len(),
        3,
        "the bakery stays where it was"
    );
}
