//! bpeek runs the GPT-2, cl100k and o200k patterns on the `regex` crate,
//! with the look-ahead `\s+(?!\S)` emulated. These tests run the original
//! patterns, exactly as published, on a backtracking engine and demand the
//! same cuts on many random texts full of the cases that matter: runs of
//! spaces before words, line breaks, Unicode spaces, apostrophes, digits.

use bpeek::bpe::Pretok;
use proptest::prelude::*;

fn reference_cuts(pretok: Pretok, s: &str) -> Vec<String> {
    static COMPILED: std::sync::OnceLock<Vec<fancy_regex::Regex>> = std::sync::OnceLock::new();
    let all = COMPILED.get_or_init(|| {
        PATTERNED
            .iter()
            .map(|p| fancy_regex::Regex::new(p.pattern().unwrap()).unwrap())
            .collect()
    });
    split_by(
        &all[PATTERNED.iter().position(|p| *p == pretok).unwrap()],
        s,
    )
}

/// `s` cut by a pattern's matches, the text between them kept as pieces.
fn split_by(re: &fancy_regex::Regex, s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(s) {
        let m = m.unwrap();
        if m.start() > last {
            out.push(s[last..m.start()].to_string());
        }
        out.push(m.as_str().to_string());
        last = m.end();
    }
    if last < s.len() {
        out.push(s[last..].to_string());
    }
    out
}

fn bpeek_cuts(pretok: Pretok, s: &str) -> Vec<String> {
    pretok
        .split(s.as_bytes())
        .into_iter()
        .map(|r| s[r].to_string())
        .collect()
}

const PATTERNED: [Pretok; 7] = [
    Pretok::Whitespace,
    Pretok::Spaces,
    Pretok::Gpt2,
    Pretok::Cl100k,
    Pretok::O200k,
    Pretok::Cl100kHf,
    Pretok::Llama3,
];

const PIECES: &[&str] = &[
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u{a0}",
    "\u{3000}",
    "\u{2003}",
    "a",
    "B",
    "é",
    "Ω",
    "я",
    "日",
    "ー",
    "\u{301}",
    "1",
    "23",
    "٣",
    "'",
    "'s",
    "'LL",
    "’",
    ".",
    "...",
    "/",
    "-",
    "😀",
    "\u{200d}",
    "x",
    "Я",
    "ǅ",
    "ʰ",
    "क",
    "\u{94d}",
    "\u{93e}",
    "ſ",
    "'ſ",
    "'\u{212a}",
    "Ⅸ",
    "²",
    "\u{85}",
    "ß",
    "𝐀",
    "𠀀",
    "한",
    "ع",
    "\u{64b}",
    "'É",
    "'Ré",
    "/",
    "\u{2028}",
    "Ὰ",
    "ᾼ",
];

/// A random text built from the pieces above.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..PIECES.len(), 0..40)
        .prop_map(|ix| ix.into_iter().map(|i| PIECES[i]).collect())
}

/// Mostly ASCII, every class of it (control characters, vertical tab and
/// form feed are whitespace), with the few non-ASCII characters that change
/// an ASCII decision: `ſ` folds to `s`, U+212A to `k`, U+0085 and U+00A0
/// are whitespace, `é` is a small letter and `Ⅸ` a number.
fn ascii_text() -> impl Strategy<Value = String> {
    const ODD: &[&str] = &[
        "'s",
        "'S",
        "'t",
        "'re",
        "'RE",
        "'rE",
        "'r",
        "'ve",
        "'v",
        "'m",
        "'ll",
        "'lL",
        "'l",
        "'d",
        "'\u{17f}",
        "'\u{212a}",
        "\u{85}",
        "\u{a0}",
        "é",
        "Ⅸ",
        "\r\n",
        "\n\n",
        "  ",
        "   ",
        "//",
        "\r\n/",
        "ABc",
        "aBC",
        "123456",
        "'x",
    ];
    // Runs of one class, up to 20 long, so cuts fall at every place of
    // the eight bytes bpeek reads at once.
    const CLASSES: &[&str] = &[
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "aBcDeFgHiJkLmNoPqRsTuVwXyZ@[`{",
        "0123456789",
        " \t\n\r\x0b\x0c",
        "     \t",
        "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~",
        "\x00\x01\x08\x0e\x1f\x7f",
    ];
    let class_run = (
        0..CLASSES.len(),
        proptest::collection::vec(any::<prop::sample::Index>(), 1..20),
    )
        .prop_map(|(c, picks)| {
            let chars: Vec<char> = CLASSES[c].chars().collect();
            picks.iter().map(|p| *p.get(&chars)).collect::<String>()
        });
    let piece = prop_oneof![
        3 => class_run,
        4 => (0u8..128).prop_map(|b| (b as char).to_string()),
        4 => prop::sample::select(vec![" ", "a", "Z", "q", "7", ".", "\n", "'", "\t"]).prop_map(str::to_string),
        1 => prop::sample::select(ODD).prop_map(str::to_string),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn cuts_equal_the_published_patterns(s in text()) {
        for pretok in PATTERNED {
            prop_assert_eq!(bpeek_cuts(pretok, &s), reference_cuts(pretok, &s), "{} on {:?}", pretok, s);
        }
    }

    #[test]
    fn cuts_equal_the_published_patterns_on_ascii(s in ascii_text()) {
        for pretok in PATTERNED {
            prop_assert_eq!(bpeek_cuts(pretok, &s), reference_cuts(pretok, &s), "{} on {:?}", pretok, s);
        }
    }
}

#[test]
fn cuts_equal_the_published_patterns_on_the_samples() {
    for sample in bpeek::corpora::SAMPLES {
        for pretok in PATTERNED {
            assert_eq!(
                bpeek_cuts(pretok, sample.text),
                reference_cuts(pretok, sample.text),
                "{pretok} on {}",
                sample.code
            );
        }
    }
}

/// Qwen2's preset (GGUF `tokenizer.ggml.pre` = `qwen2`) is cut by hand, as
/// Llama 3's is, a digit at a time and with contractions in ASCII case
/// only: held to its published pattern on the backtracking engine.
mod qwen2 {
    use super::*;
    use bpeek::bpe::pretokenize::pretok::{QWEN2, QWEN2_PATTERN};
    use bpeek::bpe::pretokenize::regex_split::RegexChain;

    fn reference(s: &str) -> Vec<String> {
        static RE: std::sync::OnceLock<fancy_regex::Regex> = std::sync::OnceLock::new();
        split_by(
            RE.get_or_init(|| fancy_regex::Regex::new(QWEN2_PATTERN).unwrap()),
            s,
        )
    }

    fn by_hand(s: &str) -> Vec<String> {
        let chain = RegexChain::by_hand("qwen2", &QWEN2);
        let mut out = Vec::new();
        chain.for_each_chunk(s.as_bytes(), |r| out.push(s[r].to_string()));
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn qwen2_cuts_equal_its_published_pattern(s in text()) {
            prop_assert_eq!(by_hand(&s), reference(&s), "on {:?}", s);
        }

        #[test]
        fn qwen2_cuts_equal_its_published_pattern_on_ascii(s in ascii_text()) {
            prop_assert_eq!(by_hand(&s), reference(&s), "on {:?}", s);
        }
    }

    #[test]
    fn qwen2_cuts_equal_its_published_pattern_on_the_samples() {
        for sample in bpeek::corpora::SAMPLES {
            assert_eq!(
                by_hand(sample.text),
                reference(sample.text),
                "{}",
                sample.code
            );
        }
        // Numerals outside ASCII side by side, and the long s after an
        // apostrophe, which `(?i:'s)` would take as a contraction.
        for s in ["²³٣Ⅸ12", "it'ſ", "'S 'ſ 'LL", "x٣٣٣y"] {
            assert_eq!(by_hand(s), reference(s), "{s:?}");
        }
    }
}
