//! The mouse: clicks and the wheel on a drawn screen, through the same
//! loop keys go through, and the state they leave compared with what the
//! keys leave.

use bpeek::tui::app::Focus;
use bpeek::tui::terminal::input_bytes::InputParser;
use bpeek::tui::{Action, App, Event, ScriptedEvents, run_loop, update};
use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

mod common;
use common::{play, press, rows_of};

/// The screen `app` shows at `w` x `h`, one string per row.
fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    update(app, Action::Resize(w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    rows_of(terminal.backend())
}

/// Where `text` first shows on `rows` (column and row, in cells of a
/// screen with no wide characters).
fn find(rows: &[String], text: &str) -> (u16, u16) {
    for (y, row) in rows.iter().enumerate() {
        if let Some(byte) = row.find(text) {
            let x = row[..byte].chars().count();
            return (x as u16, y as u16);
        }
    }
    panic!("{text:?} is not on the screen:\n{}", rows.join("\n"));
}

fn mouse(kind: MouseEventKind, x: u16, y: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    })
}

fn click(x: u16, y: u16) -> Event {
    mouse(MouseEventKind::Down(MouseButton::Left), x, y)
}

/// Run the explorer's own loop over `events` on an 80x24 test terminal.
fn run(app: &mut App, events: Vec<Event>) {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    run_loop(&mut terminal, app, &mut ScriptedEvents::new(events)).unwrap();
    app.quit = false;
}

/// Six merges of the tutorial corpus, and "hello world" in the encode box;
/// the corpus focused.
fn trained() -> App {
    let mut app = play();
    press(&mut app, vec![Event::char('n'); 6]);
    press(&mut app, [Event::char('e')]);
    press(&mut app, "hello world".chars().map(Event::char));
    press(
        &mut app,
        [Event::key(KeyCode::Esc), Event::key(KeyCode::Tab)],
    );
    assert_eq!(app.focus, Focus::Corpus);
    app
}

fn keys(app: &mut App, n: usize, code: KeyCode) {
    press(app, vec![Event::key(code); n]);
}

#[test]
fn a_click_on_a_merge_selects_it_as_the_arrows_do() {
    let mut clicked = trained();
    let (x, y) = find(&screen(&mut clicked, 80, 24), "pla + y");
    run(&mut clicked, vec![click(x, y)]);

    // The keys: Tab to the merge list (newest merge, 5), Up three times.
    let mut keyed = trained();
    keys(&mut keyed, 2, KeyCode::Tab);
    keys(&mut keyed, 3, KeyCode::Up);

    assert_eq!(keyed.selected_merge(), Some(2));
    assert_eq!(clicked.focus, Focus::Merges);
    assert_eq!(clicked.selected_merge(), keyed.selected_merge());
    assert_eq!(clicked.scroll, keyed.scroll);
}

#[test]
fn a_click_on_a_token_of_the_encode_box_selects_it_as_brackets_do() {
    let mut app = trained();
    let rows = screen(&mut app, 80, 24);
    // "world" starts at byte 6 of the text: its token, by the encoder's
    // own spans.
    let w = app
        .encode
        .spans
        .iter()
        .position(|s| s.contains(&6))
        .unwrap();
    let mut keyed = trained();
    keys(&mut keyed, 3, KeyCode::Tab);
    press(&mut keyed, vec![Event::char(']'); w + 1]);
    assert_eq!(keyed.encode.selected, Some(w));

    let (x, y) = find(&rows, "w   o   r");
    let mut on_text = trained();
    run(&mut on_text, vec![click(x, y)]);
    assert_eq!(on_text.focus, Focus::Encode);
    assert_eq!(on_text.encode.selected, keyed.encode.selected);

    // Its id, under it, is the same token.
    let (x, y) = find(&rows, "119 111");
    let mut on_id = trained();
    run(&mut on_id, vec![click(x + 1, y)]);
    assert_eq!(on_id.encode.selected, Some(w));

    // Past the end of the text: no token, the box is focused all the same.
    let mut past = trained();
    run(&mut past, vec![click(70, y)]);
    assert_eq!((past.focus, past.encode.selected), (Focus::Encode, None));
}

#[test]
fn a_click_on_a_corpus_token_selects_the_merge_that_made_it() {
    let mut app = trained();
    let rows = screen(&mut app, 80, 24);
    let (x, y) = find(&rows, "the player");
    // The 'p' of "player": byte 4 of the corpus, on its first row.
    let text = app.trainer().corpus().text().to_vec();
    let segments = app.trainer().segments(0..text.len());
    let token = segments
        .iter()
        .find(|s| (s.start..s.end).contains(&4))
        .unwrap();
    let rank = app
        .trainer()
        .merges()
        .iter()
        .position(|m| m.id == token.id)
        .expect("the token was made by a merge");
    run(&mut app, vec![click(x + 4, y)]);
    assert_eq!(app.focus, Focus::Merges);
    assert_eq!(app.selected_merge(), Some(rank));
    assert_eq!(
        app.trainer().token_bytes(token.id),
        &text[token.start..token.end]
    );
}

#[test]
fn a_click_on_a_byte_of_the_corpus_says_no_merge_made_it() {
    let mut app = play();
    let (x, y) = find(&screen(&mut app, 80, 24), "the player");
    run(&mut app, vec![click(x, y)]);
    assert_eq!(app.focus, Focus::Corpus);
    assert_eq!(app.selected_merge(), None);
    let notice = app.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("(id 116)") && notice.contains("made by no merge"),
        "{notice}"
    );
}

#[test]
fn a_click_on_a_pane_focuses_it() {
    let mut app = trained();
    let rows = screen(&mut app, 80, 24);
    let (x, y) = find(&rows, "Pairs 29");
    run(&mut app, vec![click(x, y)]);
    assert_eq!(app.focus, Focus::Pairs);
    // The status line, the footer and beyond the screen are no pane.
    for (x, y) in [(3, 0), (3, 23), (200, 5), (5, 900)] {
        run(&mut app, vec![click(x, y)]);
        assert_eq!(app.focus, Focus::Pairs, "({x}, {y})");
    }
}

#[test]
fn the_wheel_scrolls_the_pane_under_the_pointer_as_its_keys_do() {
    let down = |x, y| mouse(MouseEventKind::ScrollDown, x, y);
    let up = |x, y| mouse(MouseEventKind::ScrollUp, x, y);
    let mut wheeled = trained();
    let rows = screen(&mut wheeled, 80, 24);
    let pairs = find(&rows, "·play   e");
    run(&mut wheeled, vec![down(pairs.0, pairs.1)]);
    let mut keyed = trained();
    keys(&mut keyed, 1, KeyCode::Tab);
    keys(&mut keyed, 3, KeyCode::Down);
    assert_eq!(wheeled.focus, Focus::Pairs);
    assert_eq!(wheeled.scroll.pairs, 3);
    assert_eq!(wheeled.scroll, keyed.scroll);

    // The merge list moves its selected row by one a turn, as an arrow
    // does. (The focused pair table took more rows: the list moved down.)
    let merges = find(&screen(&mut wheeled, 80, 24), "t + he");
    run(
        &mut wheeled,
        vec![up(merges.0, merges.1), up(merges.0, merges.1)],
    );
    keys(&mut keyed, 1, KeyCode::Tab);
    keys(&mut keyed, 2, KeyCode::Up);
    assert_eq!(wheeled.focus, Focus::Merges);
    assert_eq!(wheeled.selected_merge(), Some(3));
    assert_eq!(wheeled.scroll, keyed.scroll);
}

#[test]
fn a_click_on_the_fertility_views_token_line_selects_that_token() {
    let mut app = trained();
    press(&mut app, [Event::char('f')]);
    let rows = screen(&mut app, 80, 24);
    let (x, y) = find(&rows, " hello world");
    // The token under the 'w' of "world", as `]` reaches it.
    let mut keyed = trained();
    press(&mut keyed, [Event::char('f')]);
    let w = keyed.fert.strip.iter().scan(0, |at, t| {
        let start = *at;
        *at += t.bytes.len();
        Some(start)
    });
    let w = w.take_while(|&start| start <= 6).count() - 1;
    press(&mut keyed, vec![Event::char(']'); w]);
    run(&mut app, vec![click(x + 7, y)]);
    assert_eq!(app.fert.token, keyed.fert.token);
    assert_eq!(app.fert.token, w);
}

#[test]
fn mouse_reports_from_the_terminal_are_clicks_in_the_loop() {
    let mut app = trained();
    let (x, y) = find(&screen(&mut app, 80, 24), "pla + y");
    let mut parser = InputParser::new();
    // SGR counts from 1; a release follows the press, and a key after it.
    let bytes = format!("\x1b[<0;{};{}M\x1b[<0;{};{}m", x + 1, y + 1, x + 1, y + 1);
    let mut events = parser.feed(bytes.as_bytes()).events;
    assert_eq!(events.first(), Some(&click(x, y)));
    events.extend(parser.feed(b"k").events);
    run(&mut app, events);
    // The click selected merge 2, and k moved up from there.
    assert_eq!(app.selected_merge(), Some(1));
}

#[test]
fn while_typing_the_mouse_changes_nothing() {
    let mut app = trained();
    let rows = screen(&mut app, 80, 24);
    press(&mut app, [Event::char('e')]);
    let (x, y) = find(&rows, "pla + y");
    run(&mut app, vec![click(x, y)]);
    assert_eq!(app.focus, Focus::Encode);
    assert_eq!(app.input, bpeek::tui::app::InputMode::Editing);
}

/// What `packets` parse to, one after the other.
fn parse(packets: &[&[u8]]) -> Vec<Event> {
    let mut parser = InputParser::new();
    packets.iter().flat_map(|p| parser.feed(p).events).collect()
}

#[test]
fn every_split_of_keys_and_mouse_reports_gives_the_same_events() {
    let input: &[u8] = b"n\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<65;1;2Mq\x1b[M *%\x1b[Bx";
    let whole = parse(&[input]);
    assert_eq!(
        whole,
        vec![
            Event::char('n'),
            click(9, 4),
            mouse(MouseEventKind::Up(MouseButton::Left), 9, 4),
            mouse(MouseEventKind::ScrollDown, 0, 1),
            Event::char('q'),
            click(9, 4),
            Event::key(KeyCode::Down),
            Event::char('x'),
        ]
    );
    for a in 1..input.len() {
        for b in a..input.len() {
            let got = parse(&[&input[..a], &input[a..b], &input[b..]]);
            assert_eq!(got, whole, "split at {a} and {b}");
        }
    }
}

#[test]
fn a_mouse_report_that_never_ends_is_discarded_and_holds_no_memory() {
    use bpeek::tui::terminal::input_bytes::SEQUENCE_CAP;
    let mut parser = InputParser::new();
    let mut events = parser.feed(b"\x1b[<0;1").events;
    let digits = vec![b'9'; 64 * 1024];
    for _ in 0..64 {
        events.extend(parser.feed(&digits).events);
        assert!(parser.held() <= 2 * SEQUENCE_CAP, "{}", parser.held());
    }
    // Its final byte ends it, and it comes to nothing; keys after it work.
    events.extend(parser.feed(b";1Mn").events);
    assert_eq!(events, vec![Event::char('n')]);
}

#[test]
fn malformed_mouse_reports_are_dropped_and_the_keys_around_them_kept() {
    for bad in [
        &b"\x1b[<0;0;0M"[..],
        b"\x1b[<0;99999999999;1M",
        b"\x1b[<;;M",
        b"\x1b[<0;1;1;1;1M",
        b"\x1b[<64;1;1m",
        b"\x1b[M\x00\x00\x00",
        b"\x1b[0;0;0M",
        b"\x1b[<1a",
    ] {
        let mut input = b"a".to_vec();
        input.extend_from_slice(bad);
        input.push(b'b');
        assert_eq!(
            parse(&[&input]),
            vec![Event::char('a'), Event::char('b')],
            "{bad:?}"
        );
    }
}

/// Random mixes of pieces of reports, keys and garbage, cut into random
/// packets: never a panic, never much held, and a whole click afterwards
/// is read as one.
#[test]
fn fuzzed_mouse_input_never_panics_and_leaves_the_parser_usable() {
    use bpeek::tui::terminal::input_bytes::SEQUENCE_CAP;
    let pieces: [&[u8]; 16] = [
        b"\x1b[<",
        b"\x1b[M",
        b"\x1b[",
        b"\x1b",
        b"0",
        b"65",
        b"99999999",
        b";",
        b"M",
        b"m",
        b"q",
        b"\x1b[200~",
        b"\x1b[201~",
        b"\xff\xc3",
        b"\x1b]",
        b"\x07",
    ];
    let mut rng = common::Rng(0x6d6f757365);
    for round in 0..2000 {
        let mut input = Vec::new();
        for _ in 0..rng.below(40) {
            if rng.below(5) == 0 {
                input.push(rng.next() as u8);
            } else {
                input.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
        }
        let mut parser = InputParser::new();
        let mut at = 0;
        while at < input.len() {
            let to = (at + 1 + rng.below(8)).min(input.len());
            parser.feed(&input[at..to]);
            assert!(
                parser.held() <= 2 * SEQUENCE_CAP + input.len(),
                "round {round}"
            );
            at = to;
        }
        parser.end_paste();
        parser.flush();
        let events = parser.feed(b"\x1b[<0;3;4M").events;
        assert_eq!(
            events.last(),
            Some(&click(2, 3)),
            "round {round}: {input:?}"
        );
    }
}

/// The encode box showing every tokenizer's cut (`B`), "hello world" in it.
fn with_bands() -> App {
    let mut app = trained();
    keys(&mut app, 3, KeyCode::Tab);
    press(&mut app, [Event::char('B')]);
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(common::loaded(&spec)));
    }
    assert!(app.fert.cuts.on);
    app
}

#[test]
fn a_click_on_a_token_of_a_band_selects_that_band_and_token_as_t_and_brackets_do() {
    let mut clicked = with_bands();
    let rows = screen(&mut clicked, 80, 24);
    // The row of gpt2's band, and the 'r' of "world" on it.
    let band = rows
        .iter()
        .position(|r| r.contains("gpt2"))
        .expect("a gpt2 band");
    let (x, _) = find(&rows[band..band + 2], "world");
    let y = rows[band..]
        .iter()
        .position(|r| r.contains("world"))
        .unwrap()
        + band;
    run(&mut clicked, vec![click(x + 2, y as u16)]);

    // The keys: `t` to gpt2's band, then `]` to the token holding byte 8.
    let mut keyed = with_bands();
    while keyed.toks.selected_slot().spec != "gpt2" {
        press(&mut keyed, [Event::char('t')]);
    }
    while !keyed
        .encode
        .selected
        .is_some_and(|i| keyed.encode.spans.range(i).contains(&8))
    {
        press(&mut keyed, [Event::char(']')]);
    }
    assert_eq!(clicked.toks.selected_slot().spec, "gpt2");
    assert_eq!(clicked.focus, Focus::Encode);
    assert_eq!(clicked.encode.selected, keyed.encode.selected);

    // In the fertility view, the band's token line the same way.
    press(&mut clicked, [Event::char('f')]);
    let rows = screen(&mut clicked, 80, 24);
    let band = rows.iter().position(|r| r.contains("cl100k ·")).unwrap();
    let (x, dy) = find(&rows[band..], "world");
    run(&mut clicked, vec![click(x + 1, band as u16 + dy)]);
    assert_eq!(clicked.toks.selected_slot().spec, "cl100k");
    assert_eq!(clicked.fert.token, 1, "the token \" world\"");
}
