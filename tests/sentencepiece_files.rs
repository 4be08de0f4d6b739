//! SentencePiece `.model` files written here byte by byte: a small BPE
//! model whose encodings are known by construction, and broken copies of
//! it. A model file is untrusted input: a truncated file, a field of the
//! wrong wire type or a length larger than the file is refused with an
//! error naming the file and the field (exit code 2), and no change to the
//! bytes makes bpeek panic.

mod scratch;

use bpeek::bpe::Tokenizer;
use bpeek::bpe::formats::{load::load, sentencepiece};
use bpeek::bpe::models::spm::SpmModel;
use scratch::Scratch;
use std::process::Command;

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

/// Field `number` holding `bytes` (wire type 2).
fn message(number: u64, bytes: &[u8], out: &mut Vec<u8>) {
    varint(number << 3 | 2, out);
    varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

/// Field `number` holding the number `value` (wire type 0).
fn number(number: u64, value: u64, out: &mut Vec<u8>) {
    varint(number << 3, out);
    varint(value, out);
}

/// A `SentencePiece` message: its text, score and type (1 normal,
/// 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte).
fn piece(text: &str, score: f32, kind: u64) -> Vec<u8> {
    let mut p = Vec::new();
    message(1, text.as_bytes(), &mut p);
    p.push(2 << 3 | 5);
    p.extend_from_slice(&score.to_le_bytes());
    number(3, kind, &mut p);
    p
}

/// A BPE model with no normalization map: `ab` merges before `▁a` (its
/// score is higher), then `▁ab`.
fn small_bpe() -> Vec<u8> {
    let mut file = Vec::new();
    for (text, score, kind) in [
        ("<unk>", 0.0, 2),
        ("<s>", 0.0, 3),
        ("</s>", 0.0, 3),
        ("\u{2581}a", -2.0, 1),
        ("ab", -1.0, 1),
        ("\u{2581}ab", -3.0, 1),
        ("\u{2581}", -10.0, 1),
        ("a", -10.0, 1),
        ("b", -10.0, 1),
        ("c", -10.0, 1),
        ("<sep>", 0.0, 4),
    ] {
        message(1, &piece(text, score, kind), &mut file);
    }
    let mut trainer = Vec::new();
    number(3, 2, &mut trainer); // model_type BPE
    message(2, &trainer, &mut file);
    let mut normalizer = Vec::new();
    message(1, b"identity", &mut normalizer);
    message(3, &normalizer, &mut file);
    file
}

fn tokenizer(bytes: &[u8]) -> Tokenizer {
    let model = SpmModel::new(sentencepiece::read(bytes).unwrap()).unwrap();
    Tokenizer::from_sentencepiece("small.model", model)
}

#[test]
fn pairs_merge_by_score_and_unknown_runs_are_one_piece() {
    let tok = tokenizer(&small_bpe());
    assert_eq!(tok.kind(), "sentencepiece bpe");
    // ▁ a b: `ab` (-1) beats `▁a` (-2), then `▁ab` is made.
    assert_eq!(tok.encode("ab", false), [5]);
    assert_eq!(tok.encode("ac", false), [3, 9]);
    // Extra spaces go; each word gets its `▁`.
    assert_eq!(tok.encode("  a   b ", false), [3, 6, 8]);
    // Two unknown characters in a row are one unknown piece.
    assert_eq!(tok.encode("xy", false), [6, 0]);
    assert_eq!(tok.encode("xay", false), [6, 0, 7, 0]);
    // A user-defined symbol is matched whole, and never merged.
    assert_eq!(tok.encode("a<sep>b", false), [3, 10, 8]);
    assert_eq!(tok.encode("", false), Vec::<u32>::new());
    // A token's bytes are its piece, `▁` as it is.
    assert_eq!(tok.describe(5).bytes, "\u{2581}ab".as_bytes());
    assert!(tok.describe(1).special, "control pieces are special");
    assert!(tok.is_unknown(0));
    // Decoding: `▁` is a space, the first one dropped, <unk> reads ` ⁇ `,
    // control pieces vanish.
    assert_eq!(tok.decode(&[1, 5, 3, 9, 2]).unwrap(), "ab ac");
    assert_eq!(tok.decode(&[5, 0]).unwrap(), "ab \u{2047} ");
    assert!(tok.decode(&[11]).is_err(), "an id past the last piece");
}

fn bpeek(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .unwrap()
}

/// The error `bpeek encode` gives for a model file with these bytes, after
/// checking it exits with code 2.
fn refusal(name: &str, bytes: &[u8]) -> String {
    let dir = Scratch::new(&format!("spm-files-{name}"));
    let path = dir.file(name, bytes);
    let out = bpeek(&["encode", "--tokenizer", path.to_str().unwrap(), "ab"]);
    assert_eq!(out.status.code(), Some(2), "{name} is refused with code 2");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(name), "the error names the file: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn broken_files_are_refused_by_field() {
    let good = small_bpe();
    let dir = Scratch::new("spm-good");
    let path = dir.join("good.model");
    std::fs::write(&path, &good).unwrap();
    let out = bpeek(&["encode", "--tokenizer", path.to_str().unwrap(), "ab ac"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("5 3 9\n")
    );

    // Cut inside the normalizer spec at the end.
    let err = refusal("truncated.model", &good[..good.len() - 4]);
    assert!(err.contains("normalizer_spec: declares"), "{err}");
    assert!(err.contains("truncated"), "{err}");

    // Cut inside the first piece.
    let err = refusal("cut.model", &good[..9]);
    assert!(err.contains("pieces[0]: declares"), "{err}");

    // A piece given as a number (wire type 0).
    let mut wrong = good.clone();
    number(1, 7, &mut wrong);
    let err = refusal("wire.model", &wrong);
    assert!(
        err.contains("pieces[11]: wire type 0 (varint), expected 2"),
        "{err}"
    );

    // A score given as bytes.
    let mut bad_score = Vec::new();
    message(1, b"q", &mut bad_score);
    message(2, b"1234", &mut bad_score);
    let mut wrong = good.clone();
    message(1, &bad_score, &mut wrong);
    let err = refusal("score.model", &wrong);
    assert!(err.contains("pieces[11].score: wire type 2"), "{err}");

    // A length of a terabyte in a 100-byte file.
    let mut huge = good.clone();
    varint(3 << 3 | 2, &mut huge);
    varint(1 << 40, &mut huge);
    let err = refusal("huge.model", &huge);
    assert!(
        err.contains("normalizer_spec: declares 1099511627776 bytes"),
        "{err}"
    );

    // A piece longer than any token may be.
    let mut long = good.clone();
    message(1, &piece(&"x".repeat(10_000), 0.0, 1), &mut long);
    let err = refusal("long.model", &long);
    assert!(err.contains("pieces[11].piece: 10000 bytes"), "{err}");

    // What sentencepiece itself refuses: no unknown piece, a byte piece
    // without byte fallback, a piece twice, an unknown type.
    let mut no_unk = Vec::new();
    message(1, &piece("a", 0.0, 1), &mut no_unk);
    let err = refusal("nounk.model", &no_unk);
    assert!(err.contains("no piece has type UNKNOWN"), "{err}");
    let mut byte = good.clone();
    message(1, &piece("<0x41>", 0.0, 6), &mut byte);
    let err = refusal("byte.model", &byte);
    assert!(err.contains("pieces[11]: a byte piece"), "{err}");
    let mut twice = good.clone();
    message(1, &piece("ab", 0.0, 1), &mut twice);
    let err = refusal("twice.model", &twice);
    assert!(
        err.contains("pieces[11].piece: \"ab\" appears twice"),
        "{err}"
    );
    let mut kind = good.clone();
    message(1, &piece("zz", 0.0, 9), &mut kind);
    let err = refusal("type.model", &kind);
    assert!(
        err.contains("pieces[11].type: 9 is not a piece type"),
        "{err}"
    );
    // A WORD model.
    let mut word = good.clone();
    let mut trainer = Vec::new();
    number(3, 3, &mut trainer);
    message(2, &trainer, &mut word);
    let err = refusal("word.model", &word);
    assert!(
        err.contains("trainer_spec.model_type: WORD models are not supported"),
        "{err}"
    );
    // A normalization map shorter than its own header says.
    let mut map = good.clone();
    let mut normalizer = Vec::new();
    message(2, &[0xFF, 0xFF, 0, 0, 1, 2], &mut normalizer);
    message(3, &normalizer, &mut map);
    let err = refusal("map.model", &map);
    assert!(
        err.contains("normalizer_spec.precompiled_charsmap: its trie declares"),
        "{err}"
    );
}

/// splitmix64, so that a failure can be run again.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn no_change_to_the_bytes_makes_a_panic() {
    let good = small_bpe();
    let texts = [
        "ab ac",
        "  x<sep>y  ",
        "",
        "\u{2581}\u{2581}",
        "日本 🙂 abab",
    ];
    let check = |bytes: &[u8]| {
        // Each outcome is a model or an error; a model encodes and decodes.
        if let Ok(spec) = sentencepiece::read(bytes)
            && let Ok(model) = SpmModel::new(spec)
        {
            let tok = Tokenizer::from_sentencepiece("fuzzed.model", model);
            for t in texts {
                let ids = tok.encode(t, false);
                tok.decode(&ids).unwrap();
            }
        }
    };
    for len in 0..good.len() {
        check(&good[..len]);
    }
    let mut state = 0x5eed;
    for _ in 0..20_000 {
        let mut bytes = good.clone();
        for _ in 0..1 + next(&mut state) % 4 {
            let i = (next(&mut state) % bytes.len() as u64) as usize;
            bytes[i] = next(&mut state) as u8;
        }
        check(&bytes);
    }
}

#[test]
fn a_model_file_under_another_name_is_still_read() {
    let dir = Scratch::new("spm-name");
    let path = dir.join("tokenizer.bin");
    std::fs::write(&path, small_bpe()).unwrap();
    let tok = load(path.to_str().unwrap()).unwrap();
    assert_eq!(tok.kind(), "sentencepiece bpe");
    assert_eq!(tok.name(), "tokenizer.bin");
}

mod common;

/// The explorer's fertility view with a model file among its tokenizers:
/// every panel draws, a piece says its type and score where a byte-level
/// token names its merge, the merges panel says there is no merge list,
/// and an unknown piece names the text it stands for.
#[test]
fn the_explorer_shows_a_model_file_as_pieces_with_scores() {
    use bpeek::tui::keymap::action_for;
    use bpeek::tui::{Action, App, Event, update};
    use crossterm::event::KeyCode;

    fn key(app: &mut App, e: Event) {
        let Event::Key(key) = e else { unreachable!() };
        if let Some(action) = action_for(app, &key) {
            update(app, action);
        }
    }
    fn draw(app: &mut App) -> String {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
        common::redraw_whole(&mut terminal, app);
        common::rows_of(terminal.backend()).join("\n")
    }

    let dir = Scratch::new("spm-tui");
    let path = dir.join("small.model");
    std::fs::write(&path, small_bpe()).unwrap();
    let spec = path.to_str().unwrap().to_string();

    let mut app = common::default_app();
    app.add_tokenizer(&spec);
    key(&mut app, Event::char('f'));
    for s in app.toks.take_requests() {
        update(&mut app, Action::Loaded(common::loaded(&s)));
    }
    while app.toks.selected_slot().label != "small.model" {
        key(&mut app, Event::char('t'));
    }
    let screen = draw(&mut app);
    // The English sample starts "The": `▁` is a piece, `T` is unknown.
    assert!(
        screen.contains("sentencepiece bpe piece, score -10"),
        "{screen}"
    );
    key(&mut app, Event::char(']'));
    let screen = draw(&mut app);
    assert!(
        screen.contains("<unk> for \"The\"") && screen.contains("no piece for"),
        "{screen}"
    );
    // The tree of a piece, then every panel.
    key(&mut app, Event::key(KeyCode::Enter));
    draw(&mut app);
    key(&mut app, Event::key(KeyCode::Esc));
    let mut saw_merges = false;
    for _ in 0..4 {
        key(&mut app, Event::key(KeyCode::Tab));
        let screen = draw(&mut app);
        saw_merges |=
            screen.contains("small.model is a sentencepiece bpe: its 11 pieces have scores");
    }
    assert!(saw_merges, "the merges panel says what the model is");
    // Pasted text with a user-defined symbol and byte-less unknowns.
    key(&mut app, Event::char('e'));
    for c in "ab<sep>ab 日本".chars() {
        key(&mut app, Event::char(c));
    }
    key(&mut app, Event::key(KeyCode::Esc));
    for _ in 0..8 {
        key(&mut app, Event::char(']'));
        draw(&mut app);
    }
}

/// A Unigram model with byte fallback, a user symbol and an unused piece.
fn small_unigram() -> Vec<u8> {
    let mut file = Vec::new();
    let mut pieces: Vec<(String, f32, u64)> = vec![
        ("<unk>".into(), 0.0, 2),
        ("<s>".into(), 0.0, 3),
        ("\u{2581}".into(), -3.0, 1),
        ("\u{2581}a".into(), -2.0, 1),
        ("ab".into(), -2.5, 1),
        ("a".into(), -4.0, 1),
        ("b".into(), -4.0, 1),
        ("ba".into(), -1.5, 1),
        ("é".into(), -5.0, 1),
        ("<sep>".into(), 0.0, 4),
        ("bb".into(), -0.5, 5),
    ];
    for b in 0..=255u8 {
        pieces.push((format!("<0x{b:02X}>"), 0.0, 6));
    }
    for (text, score, kind) in &pieces {
        message(1, &piece(text, *score, *kind), &mut file);
    }
    let mut trainer = Vec::new();
    number(3, 1, &mut trainer); // model_type UNIGRAM
    number(35, 1, &mut trainer); // byte_fallback
    message(2, &trainer, &mut file);
    let mut normalizer = Vec::new();
    message(1, b"identity", &mut normalizer);
    message(3, &normalizer, &mut file);
    file
}

#[test]
fn the_places_of_tokens_never_change_their_ids() {
    // The explorer and the fertility view ask for each token's place in
    // the text; plain encoding skips that work. Both must give the same ids.
    for model in [small_bpe(), small_unigram()] {
        let tok = tokenizer(&model);
        let letters = [
            "a",
            "b",
            " ",
            "  ",
            "é",
            "x",
            "\u{1F642}",
            "<sep>",
            "\u{2581}",
        ];
        let mut state = 7;
        for _ in 0..500 {
            let len = (next(&mut state) % 12) as usize;
            let text: String = (0..len)
                .map(|_| letters[(next(&mut state) % letters.len() as u64) as usize])
                .collect();
            let placed: Vec<u32> = bpeek::bpe::fertility::token_spans(&tok, &text)
                .into_iter()
                .map(|(id, _)| id)
                .collect();
            assert_eq!(
                tok.encode(&text, false),
                placed,
                "{text:?} with {}",
                tok.kind()
            );
        }
    }
    // The unigram model takes bytes for what it has no piece for.
    let tok = tokenizer(&small_unigram());
    let ids = tok.encode("x", false);
    assert_eq!(ids.len(), 2, "▁ then the byte of x: {ids:?}");
}
