//! Every Hugging Face normalizer and pre-tokenizer bpeek reads, run over
//! every Unicode code point by bpeek and by the library (Python
//! `tokenizers`), with the same answer for each: the Unicode tables are the
//! library's (its normalization, its categories, its scripts), not the
//! newest.
//!
//! A normalizer is run on each code point alone and on long texts (every
//! code point in order, each after an `a`, each decomposed form for the
//! composing forms); a pre-tokenizer on every code point in order, and
//! each after an `a`, so that each code point's class shows in where the
//! pieces start and end.

mod hf;
mod python;

use bpeek::bpe::formats::hf_file::HfFile;
use bpeek::bpe::formats::hf_pipeline::read_text;
use bpeek::bpe::pretokenize::hf_text::HfText;
use serde_json::{Value, json};

/// Every Unicode scalar value (surrogates are not text).
fn every_code_point() -> impl Iterator<Item = char> {
    (0..0x11_0000u32).filter_map(char::from_u32)
}

/// The steps `normalizer` and `pre_tokenizer` (file JSON) as bpeek reads
/// them.
fn steps(normalizer: &Value, pre_tokenizer: &Value) -> HfText {
    let doc = json!({
        "model": {"type": "WordLevel", "vocab": {"<unk>": 0}, "unk_token": "<unk>"},
        "normalizer": normalizer,
        "pre_tokenizer": pre_tokenizer,
    });
    let file = HfFile::walk(&doc).expect("the test's file is read");
    read_text(&file, "WordLevel").expect("the test's steps are read")
}

/// `U+XXXX` for each character of `s`.
fn names(s: &str) -> String {
    let names: Vec<String> = s.chars().map(|c| format!("U+{:04X}", c as u32)).collect();
    names.join(" ")
}

/// Where two long texts first differ, in characters, with a few
/// characters of each around it.
fn first_difference(ours: &str, theirs: &str) -> Option<String> {
    let (a, b): (Vec<char>, Vec<char>) = (ours.chars().collect(), theirs.chars().collect());
    let at = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let around = |v: &[char]| -> String {
        v[at.saturating_sub(3)..(at + 4).min(v.len())]
            .iter()
            .collect()
    };
    Some(format!(
        "at character {at}: bpeek {} / library {}",
        names(&around(&a)),
        names(&around(&b))
    ))
}

/// The normalizer jobs: each step on its own.
fn normalizer_steps() -> Vec<Value> {
    let mut out: Vec<Value> = ["NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents"]
        .iter()
        .map(|t| json!({"type": t}))
        .collect();
    let bert = |clean: bool, chinese: bool, strip: Value, lower: bool| {
        json!({"type": "BertNormalizer", "clean_text": clean, "handle_chinese_chars": chinese,
               "strip_accents": strip, "lowercase": lower})
    };
    out.push(bert(true, true, Value::Null, true));
    out.push(bert(true, true, Value::Null, false));
    out.push(bert(true, false, json!(false), false));
    out.push(bert(false, true, json!(false), false));
    out.push(bert(false, false, json!(true), false));
    out.push(bert(false, false, json!(false), true));
    out
}

/// Texts for a normalizer: every code point in order, and each after an
/// `a` (which composes with many marks).
fn normalizer_texts() -> Vec<String> {
    let all: String = every_code_point().collect();
    let after_a: String = every_code_point().flat_map(|c| ['a', c]).collect();
    vec![all, after_a]
}

/// What bpeek does differently from the library's answer `answer` to the
/// normalizer `step` run on `texts`.
fn normalizer_differences(step: &Value, texts: &[String], answer: &Value) -> Vec<String> {
    let ours = steps(step, &Value::Null);
    let changed = answer["changed"].as_object().expect("changed");
    let mut wrong = Vec::new();
    for c in every_code_point() {
        let mine = ours.normalize(&c.to_string()).text;
        let theirs = changed
            .get(&(c as u32).to_string())
            .and_then(Value::as_str)
            .map_or_else(|| c.to_string(), str::to_string);
        if mine != theirs {
            wrong.push(format!(
                "U+{:04X}: bpeek [{}] library [{}]",
                c as u32,
                names(&mine),
                names(&theirs)
            ));
        }
    }
    for (i, (text, theirs)) in texts
        .iter()
        .zip(answer["texts"].as_array().unwrap())
        .enumerate()
    {
        let mine = ours.normalize(text).text;
        if let Some(d) = first_difference(&mine, theirs.as_str().unwrap()) {
            wrong.push(format!("text {i} {d}"));
        }
    }
    wrong
}

fn report(what: &Value, wrong: &[String]) -> Option<String> {
    if wrong.is_empty() {
        return None;
    }
    let head: Vec<&str> = wrong.iter().take(12).map(String::as_str).collect();
    Some(format!(
        "{what}: {} differences, the first: \n  {}",
        wrong.len(),
        head.join("\n  ")
    ))
}

/// Run each step of `kind` (`normalizer` or `pre_tokenizer`) over `texts`
/// in the library and in bpeek, and fail naming every step (by `name`)
/// whose output differs anywhere.
fn sweep(
    python: &str,
    kind: &str,
    steps: Vec<Value>,
    texts: &[String],
    name: fn(&Value) -> &Value,
) {
    let jobs: Vec<Value> = steps
        .into_iter()
        .map(|step| {
            let mut job = serde_json::Map::new();
            job.insert(kind.to_string(), step);
            job.insert("texts".to_string(), json!(texts));
            Value::Object(job)
        })
        .collect();
    let answers = hf::run(python, "unicode_sweep.py", &Value::Array(jobs.clone()));
    let failures: Vec<String> = jobs
        .iter()
        .zip(answers.as_array().unwrap())
        .filter_map(|(job, answer)| {
            let step = &job[kind];
            let wrong = match kind {
                "normalizer" => normalizer_differences(step, texts, answer),
                _ => pre_tokenizer_differences(step, texts, answer),
            };
            report(name(step), &wrong)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A step named by itself.
fn whole(step: &Value) -> &Value {
    step
}

/// A step named by its pattern.
fn pattern(step: &Value) -> &Value {
    &step["pattern"]
}

#[test]
fn every_normalizer_normalizes_every_code_point_as_the_library() {
    let Some(python) = hf::python() else { return };
    sweep(
        &python,
        "normalizer",
        normalizer_steps(),
        &normalizer_texts(),
        whole,
    );
}

/// Each decomposed form the library makes, composed again: NFC and NFKC
/// on the NFD and NFKD of every code point, joined by spaces.
#[test]
fn composing_every_decomposed_form_is_as_the_library() {
    let Some(python) = hf::python() else { return };
    let decompose: Vec<Value> = ["NFD", "NFKD"]
        .iter()
        .map(|t| json!({"normalizer": {"type": t}, "texts": []}))
        .collect();
    let decomposed = hf::run(&python, "unicode_sweep.py", &Value::Array(decompose));
    let forms: Vec<String> = decomposed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let forms: Vec<&str> = a["changed"]
                .as_object()
                .unwrap()
                .values()
                .filter_map(Value::as_str)
                .collect();
            forms.join(" ")
        })
        .collect();
    let steps = ["NFC", "NFKC"].map(|t| json!({"type": t})).to_vec();
    sweep(&python, "normalizer", steps, &forms, whole);
}

/// Texts for a pre-tokenizer: every code point in order, and each after
/// an `a` (a word character of the Latin script, so that each code point
/// that is not one starts and ends a piece of its own).
fn pre_tokenizer_texts() -> Vec<String> {
    let all: String = every_code_point().collect();
    let after_a: String = every_code_point().flat_map(|c| ['a', c]).collect();
    vec![all, after_a]
}

/// What bpeek cuts differently from the library's answer.
fn pre_tokenizer_differences(step: &Value, texts: &[String], answer: &Value) -> Vec<String> {
    let ours = steps(&Value::Null, step);
    let mut wrong = Vec::new();
    for (i, (text, theirs)) in texts
        .iter()
        .zip(answer["texts"].as_array().unwrap())
        .enumerate()
    {
        let mine = hf::pieces_by_char(&ours, text);
        let theirs = theirs.as_array().unwrap();
        let chars: Vec<char> = text.chars().collect();
        let at = (0..mine.len().max(theirs.len())).find(|&k| mine.get(k) != theirs.get(k));
        if let Some(k) = at {
            let start = [mine.get(k), theirs.get(k)]
                .iter()
                .flatten()
                .filter_map(|p| p[0].as_u64())
                .min()
                .unwrap_or(0) as usize;
            let near: String = chars[start.saturating_sub(2)..(start + 4).min(chars.len())]
                .iter()
                .collect();
            wrong.push(format!(
                "text {i}, piece {k}: bpeek {:?} library {:?}, near {}",
                mine.get(k),
                theirs.get(k),
                names(&near)
            ));
        }
    }
    wrong
}

fn pre_tokenizer_steps() -> Vec<Value> {
    vec![
        json!({"type": "Punctuation", "behavior": "Isolated"}),
        json!({"type": "UnicodeScripts"}),
        json!({"type": "Whitespace"}),
        json!({"type": "WhitespaceSplit"}),
        json!({"type": "Digits", "individual_digits": true}),
        json!({"type": "Digits", "individual_digits": false}),
        json!({"type": "BertPreTokenizer"}),
        json!({"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always", "split": true}),
    ]
}

#[test]
fn every_pre_tokenizer_cuts_every_code_point_as_the_library() {
    let Some(python) = hf::python() else { return };
    let texts = pre_tokenizer_texts();
    sweep(
        &python,
        "pre_tokenizer",
        pre_tokenizer_steps(),
        &texts,
        whole,
    );
}

/// The classes of Oniguruma (the library's regex engine) that `Split` and
/// `Replace` patterns use, each alone.
const CLASSES: [&str; 36] = [
    r"\w",
    r"\W",
    r"\d",
    r"\D",
    r"\s",
    r"\S",
    r"\h",
    r"\H",
    "[[:alpha:]]",
    "[[:punct:]]",
    "[[:digit:]]",
    "[[:space:]]",
    "[[:alnum:]]",
    "[[:upper:]]",
    "[[:lower:]]",
    "[[:word:]]",
    "[[:xdigit:]]",
    "[[:cntrl:]]",
    "[[:graph:]]",
    "[[:print:]]",
    "[[:blank:]]",
    "[[:^alpha:]]",
    ".",
    r"\p{L}",
    r"\p{N}",
    r"\p{P}",
    r"\p{S}",
    r"\p{M}",
    r"\p{Alpha}",
    r"\p{Word}",
    r"\p{^L}",
    r"\P{L}",
    r"\p{Han}",
    r"[\w\-]",
    r"[^\w\s]",
    "(?m:.)",
];

/// Each class matches the code points it matches in the library: every
/// code point alone through a `Replace` of the class by nothing.
#[test]
fn every_regex_class_holds_the_code_points_it_holds_in_the_library() {
    let Some(python) = hf::python() else { return };
    let steps = CLASSES
        .iter()
        .map(|class| json!({"type": "Replace", "pattern": {"Regex": class}, "content": ""}))
        .collect();
    sweep(&python, "normalizer", steps, &[], pattern);
}

/// `Split` patterns made of classes, anchors and options cut every code
/// point as the library: runs of a class, a line's start and end, and a
/// dot that takes a newline under Oniguruma's `m` (only U+000A precedes
/// U+000B in the text).
#[test]
fn split_patterns_of_classes_cut_every_code_point_as_the_library() {
    let Some(python) = hf::python() else { return };
    let texts = pre_tokenizer_texts();
    let steps = [
        r"\w+",
        "[[:punct:]]+",
        "[[:alpha:][:digit:]]+",
        r"[^\w\s]+",
        "^.|.$",
        r"(?m).\x0B",
    ]
    .iter()
    .map(|p| json!({"type": "Split", "pattern": {"Regex": p}, "behavior": "Isolated", "invert": false}))
    .collect();
    sweep(&python, "pre_tokenizer", steps, &texts, pattern);
}

/// The constructs of Oniguruma that are not classes, each in a `Split`
/// over every code point: case folding (`(?i)`; one character to one, as
/// in `K` for the Kelvin sign, and to several, as `ß` to `ss`), word boundaries (by Oniguruma's `\w`: the
/// texts put every code point after and before `a`, so each side of each
/// boundary meets every code point; a bare `\b` or `\B.` would cut the
/// texts into millions of pieces and tell no more than `a\b.` and the
/// runs do), the end before a last newline (`\Z`), a line break (`\R`)
/// and a grapheme cluster (`\X`). Each cuts as the library cuts, or the
/// file is refused naming it ([`constructs_bpeek_refuses_are_named`]).
const CONSTRUCTS: [&str; 10] = [
    r"(?i)k",
    r"(?i)[a-z]+",
    r"(?i)\x{DF}|ffi|[\x{130}\x{1FB3}]",
    r".\Z",
    r"\R",
    r"\X",
    r"a\b.",
    r"\b\w+\b",
    r"\W+\B",
    r"\w+\B",
];

#[test]
fn regex_constructs_cut_every_code_point_as_the_library() {
    let Some(python) = hf::python() else { return };
    let texts = pre_tokenizer_texts();
    let steps = CONSTRUCTS
        .iter()
        .filter(|p| refused(p).is_none())
        .map(|p| json!({"type": "Split", "pattern": {"Regex": p}, "behavior": "Isolated", "invert": false}))
        .collect();
    sweep(&python, "pre_tokenizer", steps, &texts, pattern);
}

/// Why bpeek refuses a `Split` of `pattern`, if it does.
fn refused(pattern: &str) -> Option<String> {
    let doc = json!({
        "model": {"type": "WordLevel", "vocab": {"<unk>": 0}, "unk_token": "<unk>"},
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
                          "invert": false},
    });
    bpeek::bpe::formats::import::hugging_face("tokenizer.json", &doc)
        .err()
        .map(|e| e.to_string())
}

/// The constructs bpeek does not run as Oniguruma does are refused by
/// name, never run differently: `\X` (Oniguruma's grapheme cluster).
#[test]
fn constructs_bpeek_refuses_are_named() {
    let named: Vec<(&str, String)> = CONSTRUCTS
        .iter()
        .filter_map(|p| Some((*p, refused(p)?)))
        .collect();
    let patterns: Vec<&str> = named.iter().map(|(p, _)| *p).collect();
    assert_eq!(patterns, [r"\X"]);
    for (p, why) in &named {
        assert!(
            why.contains("grapheme cluster") && why.contains("pre_tokenizer.pattern"),
            "{p}: {why}"
        );
    }
}
