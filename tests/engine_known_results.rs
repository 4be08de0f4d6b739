//! The published tutorial results, reproduced through the library.

use bpeek::bpe::train::trainer::StopReason;
use bpeek::bpe::{Mode, Pretok, TieRule, Tokenizer, Trainer, TrainerConfig};
use bpeek::corpora;

const P: &str = "the player played and the players play again a replay of the play was displayed she plays and he played the replay";

fn train(text: &str, mode: Mode, pretok: Pretok, tie: TieRule, merges: usize) -> Trainer {
    let config = TrainerConfig {
        mode,
        pretok,
        tie,
        min_count: 1,
        max_merges: Some(merges),
        ..Default::default()
    };
    let mut t = Trainer::new(text.as_bytes().to_vec(), config).expect("corpus is valid");
    t.run();
    t
}

fn merged_tokens(t: &Trainer) -> Vec<String> {
    t.merges()
        .iter()
        .map(|m| String::from_utf8_lossy(t.vocab().token_bytes(m.id)).into_owned())
        .collect()
}

fn pair_names(t: &Trainer) -> Vec<String> {
    let name = |id| String::from_utf8_lossy(t.vocab().token_bytes(id)).into_owned();
    t.merges()
        .iter()
        .map(|m| format!("{} {}", name(m.pair.0), name(m.pair.1)))
        .collect()
}

fn symbols(tok: &Tokenizer, text: &str) -> Vec<String> {
    tok.encode(text, false)
        .into_iter()
        .map(|id| String::from_utf8_lossy(&tok.describe(id).bytes).into_owned())
        .collect()
}

#[test]
fn bundled_play_corpus_is_p() {
    assert_eq!(corpora::find("play").unwrap().text, P);
    assert_eq!(P.len(), 114);
}

#[test]
fn char_mode_p_twelve_merges() {
    let t = train(P, Mode::Char, Pretok::default(), TieRule::First, 12);
    assert_eq!(
        pair_names(&t),
        [
            "p l",
            "pl a",
            "pla y",
            "h e",
            "he </w>",
            "play e",
            "d </w>",
            "t he</w>",
            "play </w>",
            "playe d</w>",
            "s </w>",
            "playe r"
        ]
    );
    let tok = t.tokenizer();
    assert_eq!(symbols(&tok, "played"), ["played</w>"]);
    assert_eq!(symbols(&tok, "replayed"), ["r", "e", "played</w>"]);
    assert_eq!(
        symbols(&tok, "playful"),
        ["play", "f", "[UNK]", "l", "</w>"]
    );
    assert_eq!(symbols(&tok, "Play"), ["[UNK]", "l", "a", "y", "</w>"]);
    assert_eq!(
        symbols(&tok, "zebra"),
        ["[UNK]", "e", "[UNK]", "r", "a", "</w>"]
    );
}

#[test]
fn byte_mode_p_whitespace_twenty_merges() {
    let t = train(P, Mode::Byte, Pretok::Whitespace, TieRule::First, 20);
    assert_eq!(
        merged_tokens(&t),
        [
            "pl", "pla", "play", " play", "he", "the", " playe", " a", " the", " player",
            " played", " an", " and", " r", " re", " replay", " players", " ag", " aga", " agai"
        ]
    );
    let tok = t.tokenizer();
    assert_eq!(tok.encode(" played", false), [266]);
    assert_eq!(tok.encode(" replayed", false), [271, 101, 100]);
    assert_eq!(tok.encode(" players", false), [272]);
    assert_eq!(tok.encode(" playful", false), [259, 102, 117, 108]);
    assert_eq!(tok.encode(" Play", false).len(), 5);
    assert_eq!(tok.encode(" café", false), [32, 99, 97, 102, 195, 169]);
    assert_eq!(tok.encode(" 日本語", false).len(), 10);
    for s in [
        " played",
        " replayed",
        " players",
        " playful",
        " Play",
        " café",
        " 日本語",
    ] {
        assert_eq!(tok.decode(&tok.encode(s, false)).unwrap(), s);
    }
}

#[test]
fn byte_mode_p_without_pretokenizer_memorises_the_corpus() {
    let t = train(P, Mode::Byte, Pretok::None, TieRule::First, 30);
    let tok = t.tokenizer();
    let ids = tok.encode(P, false);
    assert_eq!(ids.len(), 26);
    assert_eq!(t.corpus_tokens(), 26);
    let longest = t
        .merges()
        .iter()
        .map(|m| t.vocab().token_bytes(m.id))
        .max_by_key(|b| b.len())
        .unwrap();
    assert_eq!(
        longest,
        b"the player played and the players play again a replay"
    );
}

#[test]
fn byte_mode_spaces_tokens_corpus() {
    let text = corpora::find("tokens").unwrap().text;
    assert_eq!(text.len(), 4180);
    let t = train(text, Mode::Byte, Pretok::Spaces, TieRule::First, 10);
    assert_eq!(
        merged_tokens(&t),
        [
            " t", "en", " to", "ken", " token", "he", " tokens", "er", " the", "to"
        ]
    );
    let t60 = train(text, Mode::Byte, Pretok::Spaces, TieRule::First, 60);
    let tok = t60.tokenizer();
    for (s, bytes, tokens) in [
        ("the server streams tokens to the user.", 38, 9),
        ("tokenization detokenizes streaming servers.", 43, 21),
        ("le modèle lit les jetons.", 26, 23),
        ("order 1234567 costs 89.50", 25, 24),
    ] {
        assert_eq!(s.len(), bytes, "{s}");
        assert_eq!(tok.encode(s, false).len(), tokens, "{s}");
    }
    for (merges, tokens) in [(0, 4180), (20, 2182), (60, 1222), (120, 701)] {
        let t = train(text, Mode::Byte, Pretok::Spaces, TieRule::First, merges);
        assert_eq!(t.corpus_tokens(), tokens, "{merges} merges");
        assert_eq!(
            t.tokenizer().encode(text, false).len() as u64,
            tokens,
            "{merges} merges, re-encoded"
        );
    }
}

#[test]
fn byte_mode_lines_lex_min_count_two() {
    let text = corpora::find("low").unwrap().text;
    let config = TrainerConfig {
        mode: Mode::Byte,
        pretok: Pretok::Lines,
        tie: TieRule::Lex,
        min_count: 2,
        max_merges: Some(12),
        ..Default::default()
    };
    let mut t = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
    let stop = t.run();
    assert_eq!(stop, StopReason::MinCount { best: 1, min: 2 });
    let got: Vec<(String, u64)> = t
        .merges()
        .iter()
        .map(|m| {
            (
                String::from_utf8_lossy(t.vocab().token_bytes(m.id)).into_owned(),
                m.count,
            )
        })
        .collect();
    let want = [
        ("lo", 5),
        ("low", 5),
        ("er", 2),
        ("es", 2),
        ("ew", 2),
        ("new", 2),
        ("est", 2),
    ];
    assert_eq!(got, want.map(|(s, c)| (s.to_string(), c)));
    let tok = t.tokenizer();
    assert_eq!(tok.encode("lower", false), [257, 258]);
    assert_eq!(tok.encode("slower", false), [115, 257, 258]);
}

#[test]
fn overlapping_pair_counts_three_and_replaces_twice() {
    let t = train("aaaa", Mode::Byte, Pretok::Gpt2, TieRule::First, 1);
    let m = &t.merges()[0];
    assert_eq!((m.pair, m.count, m.replacements), ((97, 97), 3, 2));
    assert_eq!(t.tokenizer().encode("aaaa", false), [256, 256]);
}

#[test]
fn minbpe_example_under_both_tie_rules() {
    for tie in [TieRule::First, TieRule::Lex] {
        let t = train("aaabdaaabac", Mode::Byte, Pretok::None, tie, 3);
        assert_eq!(
            t.tokenizer().encode("aaabdaaabac", false),
            [258, 100, 258, 97, 99],
            "{tie}"
        );
    }
}
