//! The work of a file's regex is linear in the text: measured in steps (the
//! bytes the relaxed automaton reads from every position the search
//! tries), never in seconds. Patterns of a quadratic shape are refused by
//! name once they pass the bound, with no partial cut; the patterns real
//! tokenizers ship stay well inside it and find what `fancy-regex`'s
//! `find_iter` finds.

mod scratch;

use bpeek::bpe::formats::{byte_unicode, regex_check};
use bpeek::bpe::pretokenize::pattern_work::{Meter, SLACK, STEPS_PER_BYTE};
use bpeek::bpe::pretokenize::pretok::{
    CL100K_HF_PATTERN, GPT2_PATTERN, LLAMA3_PATTERN, O200K_PATTERN,
};
use serde_json::{Value, json};
use std::ops::Range;
use std::process::Command;

/// The steps a search of `pattern` over `text` took, and what it found.
fn work(pattern: &str, text: &str) -> (u64, Result<Vec<Range<usize>>, String>) {
    let re = regex_check::compile(pattern, "test").unwrap();
    let mut meter = Meter::new();
    let found = re.find_all(text, &mut meter).map_err(|e| e.to_string());
    (meter.used(), found)
}

/// `fancy-regex`'s own matches, one search after another.
fn naive(pattern: &str, text: &str) -> Vec<Range<usize>> {
    let re = fancy_regex::Regex::new(pattern).unwrap();
    re.find_iter(text).map(|m| m.unwrap().range()).collect()
}

/// A pattern, and a text of `n` bytes to search with it.
type Shape = (&'static str, fn(usize) -> String);

/// Shapes whose searches restart at every match and read far ahead each
/// time, with a text that makes them do so.
fn quadratic_shapes() -> Vec<Shape> {
    fn letters(n: usize) -> String {
        "a".repeat(n)
    }
    fn spaces(n: usize) -> String {
        " ".repeat(n)
    }
    vec![
        (r"[a-z]+X|[a-z]", letters),
        (r" ?\p{L}+\p{N}| ?\p{L}", letters),
        (r"\s+\S|\s", spaces),
        (r"(?<=\w)\w*c", letters),
        (r"(?:(?=a)[a-z]|b)+X|[a-z]", letters),
        (r"\w+c|\w", letters),
        (r"a*b|a", letters),
        (r"[a-z](?=c)|[a-z]+X|[a-z]", letters),
        (r"(?i:x)|\p{L}+\d|.", letters),
        (r"\s*[\r\n]+(?!\S)|\s", spaces),
    ]
}

#[test]
fn quadratic_shapes_take_linear_steps_and_are_refused_by_name() {
    for (pattern, text) in quadratic_shapes() {
        let mut steps = Vec::new();
        for kb in [1, 10, 100] {
            let t = text(kb * 1000);
            let (s, found) = work(pattern, &t);
            assert!(
                s <= STEPS_PER_BYTE * t.len() as u64 + SLACK + 1,
                "{pattern}: {s} steps on {kb} KB"
            );
            match found {
                // Within the bound the matches are exact.
                Ok(found) => assert_eq!(found, naive(pattern, &t), "{pattern} on {kb} KB"),
                Err(e) => assert!(
                    e.starts_with(&format!("test: the regex '{pattern}' needs more than")),
                    "{e}"
                ),
            }
            steps.push(s);
        }
        assert!(
            steps[2] <= 12 * steps[1] && steps[1] <= 12 * steps[0],
            "{pattern}: steps on 1, 10, 100 KB: {steps:?}"
        );
        // At 100 KB every one of these is refused.
        assert!(work(pattern, &text(100_000)).1.is_err(), "{pattern}");
    }
}

/// The split patterns tokenizers ship, in `tokenizer.json` files and in
/// llama.cpp's presets.
fn shipped_patterns() -> Vec<&'static str> {
    vec![
        r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
        GPT2_PATTERN,
        CL100K_HF_PATTERN,
        LLAMA3_PATTERN,
        O200K_PATTERN,
        // Qwen2, and Qwen 3.5 with marks.
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        // Tiktoken's cl100k as written, possessive.
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
        // DeepSeek LLM, Coder and V3.
        "[\\r\\n]",
        "\\s?[A-Za-z\u{B5}\u{C0}-\u{D6}\u{D8}-\u{F6}\u{F8}-\u{1BA}]+",
        "\\s?[!-/:-~\u{FF01}-\u{FF0F}\u{FF1A}-\u{FF5E}\u{2018}-\u{201F}\u{3000}-\u{3002}]+",
        "\\s+$",
        "[\u{4E00}-\u{9FA5}\u{800}-\u{4E00}\u{AC00}-\u{D7FF}]+",
        "\\p{N}+",
        r"\s?\p{L}+",
        r"\s?\p{P}+",
        r"\p{N}{1,3}",
        "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
        // Tekken and llama.cpp's GPT-4o: look-aheads that guard a letter.
        r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        // Falcon, Bloom.
        r"[\p{P}\$\+<=>\^~\|`]+",
        r" ?[^(\s|.,!?…。，、।۔،)]+",
        r"[0-9][0-9][0-9]",
    ]
}

/// Texts of several kinds, about `n` bytes each.
fn texts(n: usize) -> Vec<(&'static str, String)> {
    let fill = |unit: &str| unit.repeat(n / unit.len() + 1);
    vec![
        (
            "english",
            fill("The quick brown fox's tail; it isn't 42 feet long, they'll say.\n"),
        ),
        (
            "code",
            fill("fn main() {\n    let x = vec![1, 2, 3];\n\tprintln!(\"{x:?}\");\n}\n\n"),
        ),
        ("cjk", fill("漢字かなカナ한국어テスト。中文文本，")),
        ("spaces", " ".repeat(n)),
        ("spaces then a word", format!("{}word", " ".repeat(n))),
        ("newlines and spaces", fill(" \n \r\n  \n")),
        ("digits", "7".repeat(n)),
        ("one long word", "a".repeat(n)),
        ("one long capitalized word", format!("A{}", "b".repeat(n))),
        ("apostrophes", fill("'''s ' 'll")),
        ("punctuation", fill("!?.,;:-()[]{}")),
    ]
}

/// Random strings from an alphabet of every class the patterns tell apart.
fn random_texts(count: usize) -> Vec<String> {
    let alphabet: Vec<char> = "aZé ß\t\n\r'sdlvtm07١²!?.-/漢ア한\u{300}\u{2028}\u{85}xX"
        .chars()
        .collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let len = (next() % 200) as usize;
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        })
        .collect()
}

#[test]
fn shipped_patterns_stay_within_three_steps_a_byte_and_match_find_iter() {
    for pattern in shipped_patterns() {
        for (kind, text) in texts(100_000) {
            let (steps, found) = work(pattern, &text);
            let found = found.unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert!(
                steps <= 3 * text.len() as u64 + 2,
                "{pattern} on {kind}: {steps} steps for {} bytes",
                text.len()
            );
            assert_eq!(found, naive(pattern, &text), "{pattern} on {kind}");
        }
        for text in random_texts(300) {
            let (steps, found) = work(pattern, &text);
            assert!(steps <= 3 * text.len() as u64 + 2, "{pattern} on {text:?}");
            assert_eq!(
                found.unwrap(),
                naive(pattern, &text),
                "{pattern} on {text:?}"
            );
        }
    }
}

fn scratch(name: &str) -> scratch::Scratch {
    scratch::Scratch::named(&format!("bpeek-pattern-work-{}-{name}", std::process::id()))
}

/// A byte-level BPE `tokenizer.json` with these normalizer and
/// pre-tokenizer steps.
fn tokenizer_json(normalizer: Value, pre_tokenizer: Value) -> String {
    let mut vocab: serde_json::Map<String, Value> = (0..=255u8)
        .map(|b| (byte_unicode::byte_chars()[b as usize].to_string(), json!(b)))
        .collect();
    vocab.insert("ab".into(), json!(256));
    json!({
        "version": "1.0",
        "added_tokens": [],
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
        "model": {"type": "BPE", "vocab": vocab, "merges": ["a b"]},
        "decoder": {"type": "ByteLevel"},
    })
    .to_string()
}

fn split_then_bytes(pattern: &str) -> Value {
    json!({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": false},
        {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false, "trim_offsets": true},
    ]})
}

fn bpeek(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_binary_refuses_a_quadratic_split_or_replace_by_file_and_pattern() {
    let dir = scratch("cli");
    let letters = dir.join("letters.txt");
    std::fs::write(&letters, "a".repeat(100_000)).unwrap();
    let spaces = dir.join("spaces.txt");
    std::fs::write(&spaces, " ".repeat(100_000)).unwrap();
    let byte_level = json!({"type": "ByteLevel", "add_prefix_space": false, "use_regex": true});
    let cases = [
        // A Split the file's own steps run (a Split after a normalizer).
        (
            "split.json",
            tokenizer_json(
                json!({"type": "Lowercase"}),
                split_then_bytes(r"[a-z]+X|[a-z]"),
            ),
            &letters,
            r"[a-z]+X|[a-z]",
            "pre_tokenizer.pretokenizers[0]",
        ),
        // A Split run as a chain of patterns (no normalizer).
        (
            "chain.json",
            tokenizer_json(Value::Null, split_then_bytes(r"(?:(?=a)[a-z]|b)+X|[a-z]")),
            &letters,
            r"(?:(?=a)[a-z]|b)+X|[a-z]",
            "pre_tokenizer",
        ),
        (
            "replace.json",
            tokenizer_json(
                json!({"type": "Replace", "pattern": {"Regex": r"\s+\S|\s"}, "content": "_"}),
                byte_level,
            ),
            &spaces,
            r"\s+\S|\s",
            "normalizer",
        ),
    ];
    for (name, doc, text, pattern, field) in cases {
        let file = dir.join(name);
        std::fs::write(&file, doc).unwrap();
        let (f, t) = (file.to_str().unwrap(), text.to_str().unwrap());
        for args in [
            vec!["encode", "--tokenizer", f, "--file", t],
            vec!["fertility", "--tokenizer", f, "--file", t],
        ] {
            let (code, stdout, stderr) = bpeek(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            assert!(stderr.contains(name), "{args:?}: {stderr}");
            assert!(stderr.contains(field), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("the regex '{pattern}' needs more than")),
                "{args:?}: {stderr}"
            );
        }
        // A short text is encoded as before.
        let (code, _, stderr) = bpeek(&["encode", "--tokenizer", f, "aaab  ab"]);
        assert_eq!(code, 0, "{name}: {stderr}");
    }
}
