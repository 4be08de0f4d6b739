//! What a student's terminal sends, cut into packets anywhere, becomes the
//! same keys and pastes the local explorer gets.

use bpeek::serve::input::{InputParser, PASTE_CAP};
use bpeek::tui::Event;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

fn plain(code: KeyCode) -> Event {
    key(code, KeyModifiers::NONE)
}

/// What a row of the table says: what is typed, the packets it arrives
/// in, and the events they mean.
type Row = (&'static str, Vec<&'static [u8]>, Vec<Event>);

/// Feed `packets` one after another, then let a pause pass.
fn parse(packets: &[&[u8]]) -> Vec<Event> {
    let mut parser = InputParser::new();
    let mut events = Vec::new();
    for p in packets {
        events.extend(parser.feed(p).events);
    }
    events.extend(parser.flush().events);
    events
}

/// Single bytes: letters and control keys.
fn key_rows() -> Vec<Row> {
    vec![
        ("one key", vec![b"n"], vec![Event::char('n')]),
        (
            "several keys in one packet",
            vec![b"nnp"],
            vec![Event::char('n'), Event::char('n'), Event::char('p')],
        ),
        ("Enter", vec![b"\r"], vec![plain(KeyCode::Enter)]),
        ("Tab", vec![b"\t"], vec![plain(KeyCode::Tab)]),
        ("Backspace", vec![b"\x7f"], vec![plain(KeyCode::Backspace)]),
        ("Ctrl-C", vec![b"\x03"], vec![Event::ctrl('c')]),
        ("Ctrl-U", vec![b"\x15"], vec![Event::ctrl('u')]),
    ]
}

/// Escape sequences, whole or split, and Esc itself.
fn sequence_rows() -> Vec<Row> {
    vec![
        ("Right arrow", vec![b"\x1b[C"], vec![plain(KeyCode::Right)]),
        (
            "an arrow split after ESC",
            vec![b"\x1b", b"[D"],
            vec![plain(KeyCode::Left)],
        ),
        (
            "an arrow split after ESC [",
            vec![b"\x1b[", b"A"],
            vec![plain(KeyCode::Up)],
        ),
        (
            "application-mode arrow",
            vec![b"\x1bOB"],
            vec![plain(KeyCode::Down)],
        ),
        (
            "Page Down",
            vec![b"\x1b[6~"],
            vec![plain(KeyCode::PageDown)],
        ),
        ("Home", vec![b"\x1b[H"], vec![plain(KeyCode::Home)]),
        (
            "Delete, split",
            vec![b"\x1b[3", b"~"],
            vec![plain(KeyCode::Delete)],
        ),
        (
            "Ctrl-Right (a modifier)",
            vec![b"\x1b[1;5C"],
            vec![key(KeyCode::Right, KeyModifiers::CONTROL)],
        ),
        (
            "Shift-Tab",
            vec![b"\x1b[Z"],
            vec![key(KeyCode::BackTab, KeyModifiers::SHIFT)],
        ),
        (
            "Alt-x",
            vec![b"\x1bx"],
            vec![key(KeyCode::Char('x'), KeyModifiers::ALT)],
        ),
        ("a lone Esc", vec![b"\x1b"], vec![plain(KeyCode::Esc)]),
        (
            "Esc pressed twice",
            vec![b"\x1b\x1b"],
            vec![plain(KeyCode::Esc), plain(KeyCode::Esc)],
        ),
        (
            "Esc, Alt-[ style: ESC [ then a pause",
            vec![b"\x1b["],
            vec![plain(KeyCode::Esc), Event::char('[')],
        ),
    ]
}

/// UTF-8 text, whole or split, and bracketed pastes.
fn text_rows() -> Vec<Row> {
    vec![
        (
            "UTF-8 in one packet",
            vec!["é".as_bytes()],
            vec![Event::char('é')],
        ),
        (
            "UTF-8 split across packets",
            vec![&[0xe2, 0x82], &[0xac]],
            vec![Event::char('€')],
        ),
        (
            "a four-byte character split three ways",
            vec![&[0xf0], &[0x9f, 0x98], &[0x80]],
            vec![Event::char('😀')],
        ),
        (
            "a bracketed paste",
            vec![b"\x1b[200~hello world\x1b[201~"],
            vec![Event::Paste("hello world".into())],
        ),
        (
            "a paste split inside both markers",
            vec![b"\x1b[20", b"0~line 1\nli", b"ne 2\x1b[2", b"01~n"],
            vec![Event::Paste("line 1\nline 2".into()), Event::char('n')],
        ),
        (
            "a paste holding escape sequences is text",
            vec![b"\x1b[200~a\x1b[Cb\x1b[201~"],
            vec![Event::Paste("a\x1b[Cb".into())],
        ),
        (
            "keys before and after a paste",
            vec![b"e\x1b[200~x\x1b[201~\x1b"],
            vec![
                Event::char('e'),
                Event::Paste("x".into()),
                plain(KeyCode::Esc),
            ],
        ),
    ]
}

/// Function keys and Insert, whose sequences look like a paste's start.
fn function_key_rows() -> Vec<Row> {
    vec![
        ("F5", vec![b"\x1b[15~"], vec![plain(KeyCode::F(5))]),
        (
            "Insert is not mistaken for a paste start",
            vec![b"\x1b[2~"],
            vec![plain(KeyCode::Insert)],
        ),
    ]
}

#[test]
fn a_table_of_byte_strings_gives_the_keys_a_terminal_means() {
    let table: Vec<Row> = [
        key_rows(),
        sequence_rows(),
        text_rows(),
        function_key_rows(),
    ]
    .concat();
    for (what, packets, expected) in table {
        assert_eq!(parse(&packets), expected, "{what}");
    }
}

#[test]
fn a_lone_esc_waits_for_the_rest_of_a_sequence_until_a_pause() {
    let mut parser = InputParser::new();
    assert!(parser.feed(b"\x1b").events.is_empty());
    assert!(parser.waiting(), "held, not yet the Esc key");
    assert_eq!(parser.feed(b"[B").events, vec![plain(KeyCode::Down)]);
    assert!(!parser.waiting());

    assert!(parser.feed(b"\x1b").events.is_empty());
    assert_eq!(parser.flush().events, vec![plain(KeyCode::Esc)]);
    assert!(!parser.waiting());
}

#[test]
fn every_split_of_a_mixed_input_gives_the_same_events() {
    let input: &[u8] = "n\x1b[1;5Cé\x1b[200~pasted ünïcode\x1b[201~q".as_bytes();
    let whole = parse(&[input]);
    assert_eq!(whole.len(), 5, "{whole:?}");
    for a in 1..input.len() {
        for b in a..input.len() {
            let got = parse(&[&input[..a], &input[a..b], &input[b..]]);
            assert_eq!(got, whole, "split at {a} and {b}");
        }
    }
}

#[test]
fn a_paste_beyond_the_cap_is_cut_and_says_so() {
    let mut parser = InputParser::new();
    let mut out = parser.feed(b"\x1b[200~");
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    while sent < PASTE_CAP + 1000 {
        let more = parser.feed(&chunk);
        out.events.extend(more.events);
        sent += chunk.len();
    }
    let end = parser.feed(b"\x1b[201~");
    out.events.extend(end.events);
    assert_eq!(out.events.len(), 1);
    let Event::Paste(text) = &out.events[0] else {
        panic!("a paste: {:?}", out.events[0]);
    };
    assert_eq!(text.len(), PASTE_CAP);
    assert_eq!(end.paste_cut, Some(sent - PASTE_CAP));
    assert_eq!(parser.feed(b"n").events, vec![Event::char('n')]);
}

#[test]
fn an_escape_sequence_that_never_ends_is_discarded_and_holds_no_memory() {
    use bpeek::serve::input::SEQUENCE_CAP;
    let mut parser = InputParser::new();
    let mut events = parser.feed(b"\x1b[1").events;
    let digits = vec![b'1'; 64 * 1024];
    // 64 MB of digits, as a hostile client would send them.
    for _ in 0..1024 {
        events.extend(parser.feed(&digits).events);
        assert!(
            parser.held() <= 2 * SEQUENCE_CAP,
            "the parser holds {} bytes",
            parser.held()
        );
    }
    assert!(events.is_empty(), "the digits are not typed: {events:?}");
    // The sequence's final byte ends it; what follows is typed again.
    events.extend(parser.feed(b"~n").events);
    assert_eq!(events, vec![Event::char('n')]);
    // An overlong sequence cut short by a new one: the new one counts.
    let mut parser = InputParser::new();
    parser.feed(b"\x1b[");
    parser.feed(&vec![b';'; 3 * SEQUENCE_CAP]);
    let events = parser.feed(b"\x1b[Cx").events;
    assert_eq!(events, vec![plain(KeyCode::Right), Event::char('x')]);
}

#[test]
fn a_paste_whose_end_never_comes_is_ended_and_the_keys_after_it_work() {
    let mut parser = InputParser::new();
    assert!(parser.feed(b"\x1b[200~abc").events.is_empty());
    assert!(parser.in_paste());
    // The caller ends it after a second without input.
    assert_eq!(parser.end_paste().events, [Event::Paste("abc".into())]);
    assert!(!parser.in_paste());
    assert_eq!(parser.feed(b"q").events, [Event::char('q')]);
}

/// Every control-string family, each with both ends, cut into packets at
/// every point: nothing in it is a key, and the keys around it are.
#[test]
fn control_strings_are_consumed_whole_and_never_read_as_keys() {
    let strings: [(&str, &[u8]); 7] = [
        ("an OSC title ending in q, by BEL", b"\x1b]0;quit q\x07"),
        ("an OSC 52 clipboard write, by ST", b"\x1b]52;c;cXEK\x1b\\"),
        ("a DCS reply", b"\x1bP1$r0m q\x1b\\"),
        ("an APC that reads as autoplay", b"\x1b_AAAA\x1b\\"),
        ("a PM", b"\x1b^qqq\x1b\\"),
        ("an SOS", b"\x1bXq\x07"),
        ("a string with an Esc in it", b"\x1b]0;a\x1b\x1b\\"),
    ];
    for (what, string) in strings {
        let mut input = b"n".to_vec();
        input.extend_from_slice(string);
        input.extend_from_slice(b"p\x1b[C");
        let want = vec![Event::char('n'), Event::char('p'), plain(KeyCode::Right)];
        for cut in 0..=input.len() {
            for cut2 in cut..=input.len() {
                let (a, rest) = input.split_at(cut);
                let (b, c) = rest.split_at(cut2 - cut);
                assert_eq!(parse(&[a, b, c]), want, "{what}, cut at {cut} and {cut2}");
            }
        }
    }
}

#[test]
fn a_control_string_cut_short_by_a_sequence_gives_the_sequence() {
    // An Esc that is not ST ends the string and starts a key of its own.
    assert_eq!(
        parse(&[b"\x1b]0;title\x1b[Dx"]),
        vec![plain(KeyCode::Left), Event::char('x')]
    );
}

#[test]
fn a_control_string_of_megabytes_holds_no_memory_and_ends_on_silence() {
    let mut parser = InputParser::new();
    let mut events = parser.feed(b"\x1b]52;c;").events;
    let body = vec![b'q'; 64 * 1024];
    // 64 MB of `q`, every one of which would end the session as a key.
    for _ in 0..1024 {
        events.extend(parser.feed(&body).events);
        assert!(
            parser.held() <= 64,
            "the parser holds {} bytes",
            parser.held()
        );
    }
    assert!(
        events.is_empty(),
        "nothing typed: {:?}",
        &events[..3.min(events.len())]
    );
    // The string never ended: after a silence the caller ends it, and
    // keys are keys again.
    assert!(parser.in_paste());
    assert!(parser.end_paste().events.is_empty());
    assert_eq!(parser.feed(b"n").events, vec![Event::char('n')]);
}

#[test]
fn alt_and_a_string_opener_alone_is_still_a_key() {
    // `Esc ]` with nothing after it is Alt+] (which the explorer ignores),
    // not the start of a string that would swallow the next keys.
    let mut parser = InputParser::new();
    assert!(parser.feed(b"\x1b]").events.is_empty());
    assert!(parser.waiting());
    let alt = parser.flush().events;
    assert_eq!(alt, vec![key(KeyCode::Char(']'), KeyModifiers::ALT)]);
    assert_eq!(parser.feed(b"n").events, vec![Event::char('n')]);
}

#[test]
fn cursor_reports_are_the_terminals_answers_and_f3_stays_a_key() {
    // Answers to the width probes, cut anywhere, between keys.
    assert_eq!(
        parse(&[b"n\x1b[2;", b"3Rp\x1b[6;5R"]),
        vec![
            Event::char('n'),
            Event::CursorReport(2, 3),
            Event::char('p'),
            Event::CursorReport(6, 5),
        ]
    );
    // Row 1 is Shift+F3 as xterm sends it, never a report.
    assert_eq!(
        parse(&[b"\x1b[1;2R"]),
        vec![key(KeyCode::F(3), KeyModifiers::SHIFT)]
    );
    // A report with numbers no screen has is no event at all.
    assert!(
        !parse(&[b"\x1b[999999;3R", b"\x1b[3;R"])
            .iter()
            .any(|e| matches!(e, Event::CursorReport(..)))
    );
}
