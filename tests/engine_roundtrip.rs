//! Encoding is lossless in byte mode, and a saved tokenizer encodes exactly
//! like the one it was saved from.

use bpeek::bpe::formats::tokenizer_file;
use bpeek::bpe::{Mode, Pretok, TieRule, Tokenizer, Trainer, TrainerConfig};
use bpeek::corpora;
use proptest::prelude::*;
use std::sync::OnceLock;

fn trained(pretok: Pretok) -> Tokenizer {
    let config = TrainerConfig {
        pretok,
        max_merges: Some(300),
        ..Default::default()
    };
    let mut t = Trainer::new(corpora::default_corpus().text.as_bytes().to_vec(), config).unwrap();
    t.run();
    t.tokenizer().with_specials(&["<|endoftext|>".to_string()])
}

fn tokenizers() -> &'static Vec<Tokenizer> {
    static TOKS: OnceLock<Vec<Tokenizer>> = OnceLock::new();
    TOKS.get_or_init(|| Pretok::ALL.iter().map(|&p| trained(p)).collect())
}

const AWKWARD: &[&str] = &[
    "",
    " ",
    "\n\n\r\n\t",
    "👩‍👩‍👧‍👦 family, 👍🏽 thumbs",
    "e\u{301}\u{302} combining, Z\u{335}\u{31b}a\u{316}lgo",
    "日本語のテキストと中文",
    "\u{0}\u{1}\u{7f} controls",
    "\u{200f}right-to-left mark \u{fe0f} selector \u{200d} joiner",
    "the baker's    spaces   and\ttabs",
    "1234567890 3.14159 2026-11-29",
    "<|endoftext|> is ordinary text by default",
];

#[test]
fn awkward_strings_round_trip_under_every_pretokenizer() {
    for tok in tokenizers() {
        for s in AWKWARD {
            let ids = tok.encode(s, false);
            assert_eq!(tok.decode(&ids).unwrap(), *s, "{} on {s:?}", tok.pretok());
        }
    }
}

#[test]
fn special_tokens_are_literal_unless_allowed() {
    let tok = &tokenizers()[4];
    let special = tok.specials()[0].id;
    let text = "a<|endoftext|>b";
    assert!(!tok.encode(text, false).contains(&special));
    let ids = tok.encode(text, true);
    assert_eq!(ids.iter().filter(|&&i| i == special).count(), 1);
    assert_eq!(tok.decode(&ids).unwrap(), text);
}

#[test]
fn saved_tokenizers_load_with_identical_ids() {
    let sample = corpora::default_corpus().text;
    for tok in tokenizers() {
        let json = tokenizer_file::to_json(tok).to_string();
        let loaded = tokenizer_file::from_json_str(&json).unwrap();
        assert_eq!(loaded.encode(sample, true), tok.encode(sample, true));
        assert_eq!(loaded.specials(), tok.specials());
    }
    let config = TrainerConfig {
        mode: Mode::Char,
        tie: TieRule::Lex,
        max_merges: Some(50),
        ..Default::default()
    };
    let mut t = Trainer::new(sample.as_bytes().to_vec(), config).unwrap();
    t.run();
    let tok = t.tokenizer();
    let loaded = tokenizer_file::from_json_str(&tokenizer_file::to_json(&tok).to_string()).unwrap();
    assert_eq!(loaded.encode(sample, false), tok.encode(sample, false));
    assert_eq!(
        loaded.decode(&loaded.encode("the baker", false)).unwrap(),
        "the baker"
    );
}

#[test]
fn a_token_that_is_part_of_a_character_shows_as_hex() {
    let config = TrainerConfig {
        pretok: Pretok::None,
        max_merges: Some(1),
        ..Default::default()
    };
    let mut t = Trainer::new("日日日".as_bytes().to_vec(), config).unwrap();
    t.run();
    let tok = t.tokenizer();
    let first = tok.describe(tok.encode("日", false)[0]);
    assert_eq!(bpeek::bpe::display::token_text(&first.bytes), "<E6><97>");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_string_round_trips(s in any::<String>(), which in 0usize..7) {
        let tok = &tokenizers()[which];
        let ids = tok.encode(&s, false);
        prop_assert_eq!(tok.decode(&ids).unwrap(), s);
    }

    #[test]
    fn any_bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..200), which in 0usize..7) {
        let tok = &tokenizers()[which];
        let ids = tok.encode_bytes(&bytes, false).unwrap();
        prop_assert_eq!(tok.decode_bytes(&ids).unwrap(), bytes);
    }

    #[test]
    fn chunks_cover_the_text_exactly(s in "[a-c 1'\\n\\t\\r日é]{0,60}", which in 0usize..7) {
        let pretok = Pretok::ALL[which];
        let ranges = pretok.split(s.as_bytes());
        let mut at = 0;
        for r in ranges {
            prop_assert_eq!(r.start, at);
            prop_assert!(r.end > r.start);
            at = r.end;
        }
        prop_assert_eq!(at, s.len());
    }
}

#[test]
fn pretokenizers_cut_as_documented() {
    let pieces = |p: Pretok, s: &str| -> Vec<String> {
        p.split(s.as_bytes())
            .into_iter()
            .map(|r| s[r].to_string())
            .collect()
    };
    let s = "Hello world's  123456 ok\n\nend ";
    assert_eq!(pieces(Pretok::None, s), [s]);
    assert_eq!(
        pieces(Pretok::Lines, s),
        ["Hello world's  123456 ok", "\n", "\n", "end "]
    );
    assert_eq!(
        pieces(Pretok::Whitespace, s),
        [
            "Hello", " world's", " ", " 123456", " ok", "\n\n", "end", " "
        ]
    );
    assert_eq!(
        pieces(Pretok::Spaces, s),
        ["Hello", " world's", "  ", "123456", " ok\n\nend", " "]
    );
    // GPT-2 keeps the last whitespace before a word apart: `\s+(?!\S)` backs off one.
    assert_eq!(
        pieces(Pretok::Gpt2, s),
        [
            "Hello", " world", "'s", " ", " 123456", " ok", "\n", "\n", "end", " "
        ]
    );
    assert_eq!(
        pieces(Pretok::Cl100k, s),
        [
            "Hello", " world", "'s", " ", " ", "123", "456", " ok", "\n\n", "end", " "
        ]
    );
    assert_eq!(
        pieces(Pretok::O200k, s),
        [
            "Hello", " world's", " ", " ", "123", "456", " ok", "\n\n", "end", " "
        ]
    );
}
