//! SentencePiece `.model` files made by the real `sentencepiece` library
//! (Python) in the test: BPE and Unigram, with and without byte fallback,
//! split digits, a user-defined symbol, the `nmt_nfkc` and `identity`
//! normalizers and whitespace kept as written. Loaded by bpeek, each gives
//! the ids `sp.encode` gives, on every bundled sample and on random text of
//! many scripts, and decodes as `sp.decode` decodes.

mod python;
mod spm;

use bpeek::bpe::Tokenizer;
use bpeek::bpe::formats::load::load;
use serde_json::{Value, json};
use std::process::Command;

/// The models trained, by name, with their training options.
fn models() -> Value {
    json!({
        "unigram": {"model_type": "unigram", "vocab_size": 900, "character_coverage": 0.98},
        "unigram_bytes": {"model_type": "unigram", "vocab_size": 1200, "byte_fallback": true,
                           "character_coverage": 0.98},
        "bpe": {"model_type": "bpe", "vocab_size": 900, "character_coverage": 0.98},
        "bpe_bytes_digits_user": {"model_type": "bpe", "vocab_size": 1200, "byte_fallback": true,
                                  "split_digits": true, "user_defined_symbols": ["<sep>", "ab"],
                                  "control_symbols": ["<ctl>"], "character_coverage": 0.98},
        "bpe_identity": {"model_type": "bpe", "vocab_size": 700,
                         "normalization_rule_name": "identity", "character_coverage": 0.98},
        "unigram_identity_user_digits": {"model_type": "unigram", "vocab_size": 700,
                                          "normalization_rule_name": "identity",
                                          "user_defined_symbols": ["<sep>", "ab"],
                                          "split_digits": true, "character_coverage": 0.98},
        "bpe_spaces_kept": {"model_type": "bpe", "vocab_size": 800, "add_dummy_prefix": false,
                            "remove_extra_whitespaces": false, "byte_fallback": true,
                            "character_coverage": 0.98},
        "unigram_casefold_spaces_kept": {"model_type": "unigram", "vocab_size": 800,
                                         "normalization_rule_name": "nmt_nfkc_cf",
                                         "add_dummy_prefix": false,
                                         "remove_extra_whitespaces": false,
                                         "character_coverage": 0.98},
    })
}

/// Train every model of [`models`] on the bundled samples.
fn train(python: &str, dir: &spm::TempDir) -> Vec<(String, Tokenizer)> {
    let corpus = dir.path("corpus.txt");
    let text: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    std::fs::write(&corpus, text).unwrap();
    let paths = spm::run(
        python,
        &json!({"train": {"input": corpus, "dir": dir.0, "models": models()}}),
    );
    paths
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = p.as_str().unwrap().to_string();
            let tok = load(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
            (p, tok)
        })
        .collect()
}

/// splitmix64, so that a failure can be run again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Text of many kinds: scripts, combining marks, emoji and their joiners,
/// characters NFKC changes, control characters, runs of digits and of
/// every kind of whitespace, and spaces at either end.
fn random_texts(n: usize) -> Vec<String> {
    let pools: &[&[(u32, u32)]] = &[
        &[(0x61, 0x7A), (0x41, 0x5A)],
        &[(0x30, 0x39)],
        &[(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        &[
            (0x20, 0x20),
            (0x09, 0x0A),
            (0x0D, 0x0D),
            (0xA0, 0xA0),
            (0x3000, 0x3000),
        ],
        &[(0x2000, 0x200D), (0x2028, 0x2029), (0xFEFF, 0xFEFF)],
        &[(0x00, 0x1F), (0x7F, 0x9F)],
        &[(0x300, 0x36F), (0x1AB0, 0x1ABE), (0x20D0, 0x20F0)],
        &[(0xC0, 0x24F)],
        &[(0x391, 0x3C9), (0x400, 0x44F)],
        &[(0x5D0, 0x5EA), (0x620, 0x64A), (0x660, 0x669)],
        &[(0x900, 0x97F), (0xB80, 0xBFF), (0xE01, 0xE5B)],
        &[
            (0x3041, 0x3096),
            (0x30A1, 0x30FA),
            (0x4E00, 0x4FFF),
            (0xAC00, 0xAD00),
        ],
        &[
            (0x1F300, 0x1F64F),
            (0x1F900, 0x1F9FF),
            (0xFE0F, 0xFE0F),
            (0x1F3FB, 0x1F3FF),
        ],
        &[
            (0xFF01, 0xFF5E),
            (0xFB00, 0xFB06),
            (0x2460, 0x2473),
            (0x2150, 0x218B),
        ],
        &[(0x10000, 0x1007F), (0xE000, 0xE010), (0xFFF9, 0xFFFD)],
    ];
    let mut rng = Rng(0x5eed_0019);
    let mut out = Vec::new();
    for k in 0..n {
        let mut s = String::new();
        if k % 5 == 0 {
            s.push_str(&" ".repeat(1 + rng.below(3)));
        }
        let len = 1 + rng.below(40);
        for _ in 0..len {
            let pool = pools[rng.below(pools.len())];
            let (lo, hi) = pool[rng.below(pool.len())];
            let c = lo + (rng.below((hi - lo + 1) as usize) as u32);
            let Some(c) = char::from_u32(c) else { continue };
            // Sometimes a run: of digits, spaces, or the same character.
            let run = if rng.below(8) == 0 {
                2 + rng.below(30)
            } else {
                1
            };
            for _ in 0..run {
                s.push(c);
            }
        }
        if k % 7 == 0 {
            s.push_str(&"\t ".repeat(1 + rng.below(3)));
        }
        out.push(s);
    }
    out.extend(
        [
            "",
            " ",
            "   ",
            "a",
            " a ",
            "  hello   world  ",
            "1234567890123456789012345678901234567890",
            "ab<sep>ab <sep> <sep><sep>",
            "<ctl> <s> </s> <unk>",
            "ﬁne ① ＡＢＣ ｶﾀｶﾅ ㍿",
            "e\u{301} \u{301}e",
            "👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽",
            "\u{0}\u{1}\u{7f}x\u{85}",
            "\n\n line\r\n",
        ]
        .map(String::from),
    );
    out
}

#[test]
fn ids_are_the_ids_sentencepiece_gives() {
    let Some(python) = spm::python() else { return };
    let dir = spm::TempDir::new("spm-ids");
    let models = train(&python, &dir);
    let mut texts: Vec<String> = spm::samples().into_iter().map(|(_, t)| t).collect();
    // Each line of each sample too: line starts and ends, alone.
    let lines: Vec<String> = texts
        .iter()
        .flat_map(|t| t.lines().map(String::from).collect::<Vec<_>>())
        .collect();
    texts.extend(lines);
    texts.extend(random_texts(400));

    let jobs: Vec<Value> = models
        .iter()
        .map(|(path, _)| json!({"model": path, "texts": texts}))
        .collect();
    let answers = spm::run(&python, &json!({ "encode": jobs }));
    let mut failures = Vec::new();
    let mut compared = 0;
    for ((path, tok), answer) in models.iter().zip(answers.as_array().unwrap()) {
        // The texts as one batch too: the words met in the texts before
        // are kept from one text to the next.
        let mut kept = tok.encode_cache(texts.iter().map(String::len).sum());
        for (text, want) in texts.iter().zip(answer["ids"].as_array().unwrap()) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode(text, false);
            let in_batch = tok
                .encode_for_model_in(text.as_bytes(), false, false, &mut kept)
                .unwrap();
            compared += 1;
            if got != want || in_batch != want {
                failures.push(format!(
                    "{}: {text:?}\n  sentencepiece {want:?}\n  bpeek         {got:?}\n  in a batch    {in_batch:?}",
                    tok.name()
                ));
            }
        }
        assert!(path.ends_with(".model"));
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} encodings differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn decoding_gives_the_text_sentencepiece_gives() {
    let Some(python) = spm::python() else { return };
    let dir = spm::TempDir::new("spm-decode");
    let models = train(&python, &dir);
    let texts = random_texts(150);
    let mut rng = Rng(0xdec0de);
    let mut jobs = Vec::new();
    let mut id_lists = Vec::new();
    for (path, tok) in &models {
        // Any ids in any order: byte pieces that make no character, control
        // pieces, the unknown piece, `▁` at the start and in the middle.
        let lists: Vec<Vec<u32>> = (0..150)
            .map(|_| {
                let n = rng.below(12);
                (0..n).map(|_| rng.below(tok.vocab_size()) as u32).collect()
            })
            .collect();
        jobs.push(json!({"model": path, "texts": texts, "decode": lists}));
        id_lists.push(lists);
    }
    let answers = spm::run(&python, &json!({ "encode": jobs }));
    let mut failures = Vec::new();
    for (((_, tok), answer), lists) in models
        .iter()
        .zip(answers.as_array().unwrap())
        .zip(&id_lists)
    {
        let encoded = answer["ids"].as_array().unwrap();
        let decoded = answer["decoded"].as_array().unwrap();
        for (ids, want) in encoded.iter().zip(decoded) {
            let ids: Vec<u32> = serde_json::from_value(ids.clone()).unwrap();
            let got = tok.decode(&ids).unwrap();
            if got != want.as_str().unwrap() {
                failures.push(format!("{}: {ids:?}: {want} / {got:?}", tok.name()));
            }
        }
        for (ids, want) in lists.iter().zip(answer["decode"].as_array().unwrap()) {
            let got = tok.decode(ids).unwrap();
            if got != want.as_str().unwrap() {
                failures.push(format!("{}: {ids:?}: {want} / {got:?}", tok.name()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} decodings differ (ids: sentencepiece / bpeek); the first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

fn bpeek(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn the_commands_take_a_model_file_and_name_its_kind() {
    let Some(python) = spm::python() else { return };
    let dir = spm::TempDir::new("spm-cli");
    let models = train(&python, &dir);
    let path = |name: &str| {
        let file = format!("{name}.model");
        models
            .iter()
            .map(|(p, _)| p.clone())
            .find(|p| p.ends_with(&format!("/{file}")))
            .unwrap()
    };
    let (unigram, bpe) = (&path("unigram"), &path("bpe"));

    let out = bpeek(&["encode", "--tokenizer", unigram, "Hello world"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\u{2581}"), "pieces show their ▁: {text}");

    let out = bpeek(&[
        "encode",
        "--tokenizer",
        unigram,
        "--format",
        "json",
        "Hello",
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<String> = doc["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.to_string())
        .collect();
    let mut args = vec!["decode", "--tokenizer", unigram.as_str()];
    args.extend(ids.iter().map(String::as_str));
    let out = bpeek(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), "Hello");

    let out = bpeek(&[
        "fertility",
        "--tokenizer",
        unigram,
        "--tokenizer",
        bpe,
        "--samples",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("unigram.model"), "{text}");
    assert!(text.contains("sentencepiece unigram"), "{text}");
    assert!(text.contains("sentencepiece bpe"), "{text}");
}

#[test]
fn a_long_text_gives_the_ids_sentencepiece_gives() {
    // Unigram sums scores along the whole text in single precision, and
    // sentencepiece takes a large sum off what it keeps; hundreds of
    // kilobytes in one text reach that many times over.
    let Some(python) = spm::python() else { return };
    let dir = spm::TempDir::new("spm-long");
    let models = train(&python, &dir);
    let all: String = spm::samples().into_iter().map(|(_, t)| t).collect();
    let long = all.repeat(400_000 / all.len() + 1);
    let jobs: Vec<Value> = models
        .iter()
        .map(|(path, _)| json!({"model": path, "texts": [long]}))
        .collect();
    let answers = spm::run(&python, &json!({ "encode": jobs }));
    for ((_, tok), answer) in models.iter().zip(answers.as_array().unwrap()) {
        let want: Vec<u32> = serde_json::from_value(answer["ids"][0].clone()).unwrap();
        let got = tok.encode(&long, false);
        let first = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(
            got == want,
            "{}: {} ids from bpeek, {} from sentencepiece, first differing at {first:?}",
            tok.name(),
            got.len(),
            want.len()
        );
    }
}

#[test]
fn a_long_word_gives_the_ids_sentencepiece_gives() {
    // A text with no space is one word, merged as a whole however long:
    // one letter over and over, two in turn, any letters, and each
    // between other words.
    let Some(python) = spm::python() else { return };
    let dir = spm::TempDir::new("spm-long-word");
    let models = train(&python, &dir);
    let mut rng = Rng(0x10_6e0d);
    let any: String = (0..50_000)
        .map(|_| (b'a' + rng.below(26) as u8) as char)
        .collect();
    let words = [
        "a".repeat(50_000),
        "ab".repeat(25_000),
        "e".repeat(9_999),
        any,
    ];
    let mut texts: Vec<String> = words.to_vec();
    texts.extend(words.iter().map(|w| format!("the {w} end")));
    let jobs: Vec<Value> = models
        .iter()
        .map(|(path, _)| json!({"model": path, "texts": texts}))
        .collect();
    let answers = spm::run(&python, &json!({ "encode": jobs }));
    for ((_, tok), answer) in models.iter().zip(answers.as_array().unwrap()) {
        for (text, want) in texts.iter().zip(answer["ids"].as_array().unwrap()) {
            let want: Vec<u32> = serde_json::from_value(want.clone()).unwrap();
            let got = tok.encode(text, false);
            let first = got.iter().zip(&want).position(|(a, b)| a != b);
            assert!(
                got == want,
                "{} on {}...: {} ids from bpeek, {} from sentencepiece, first differing at {first:?}",
                tok.name(),
                &text[..12],
                got.len(),
                want.len()
            );
        }
    }
}
