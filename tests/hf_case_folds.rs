//! `(?i)` where a character folds to several (`ß` to `ss`, `ﬃ` to `ffi`,
//! `İ` to `i` U+0307): `Split` patterns cut by bpeek and by the library
//! (Python `tokenizers`, whose engine is Oniguruma) into the same pieces,
//! for every character Oniguruma folds to several, in literals, classes
//! (plain, with others, ranges, negated), groups, alternations, repeats
//! and look-arounds, with the letters of the folding split across a
//! group's edge or a repetition, on texts holding each form; then random
//! patterns and texts from a fixed seed. What bpeek cannot run exactly is
//! refused by name.

mod hf;
mod python;

use bpeek::bpe::formats::hf_file::HfFile;
use bpeek::bpe::formats::hf_pipeline::read_text;
use bpeek::bpe::formats::onig_fold::multi_fold_chars;
use bpeek::bpe::pretokenize::hf_text::HfText;
use hf::texts::Rng;
use serde_json::{Value, json};

/// A `Split` of `pattern`, isolating its matches.
fn split(pattern: &str) -> Value {
    json!({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": false})
}

/// A file of a `Split` of `pattern`, as bpeek reads it, or why not.
fn read(pattern: &str) -> Result<HfText, String> {
    let doc = json!({
        "model": {"type": "WordLevel", "vocab": {"<unk>": 0}, "unk_token": "<unk>"},
        "pre_tokenizer": split(pattern),
    });
    let file = HfFile::walk(&doc).map_err(|e| e.to_string())?;
    read_text(&file, "WordLevel").map_err(|e| e.to_string())
}

/// `U+XXXX` for each character of `s`.
fn names(s: &str) -> String {
    let names: Vec<String> = s.chars().map(|c| format!("U+{:04X}", c as u32)).collect();
    names.join(" ")
}

/// Every `(pattern, texts)` job run by the library and by bpeek; the
/// differences, each naming its pattern and text. A pattern bpeek
/// refuses is counted in `refused` (with why), not compared.
fn differences(python: &str, jobs: &[(String, Vec<String>)]) -> (Vec<String>, Vec<String>) {
    let input: Vec<Value> = jobs
        .iter()
        .map(|(p, texts)| json!({"pre_tokenizer": split(p), "texts": texts}))
        .collect();
    let answers = hf::run(python, "unicode_sweep.py", &Value::Array(input));
    let mut wrong = Vec::new();
    let mut refused = Vec::new();
    for ((pattern, texts), answer) in jobs.iter().zip(answers.as_array().unwrap()) {
        let steps = match read(pattern) {
            Ok(steps) => steps,
            Err(why) => {
                refused.push(why);
                continue;
            }
        };
        for (text, theirs) in texts.iter().zip(answer["texts"].as_array().unwrap()) {
            let mine = hf::pieces_by_char(&steps, text);
            if mine != *theirs.as_array().unwrap() {
                wrong.push(format!(
                    "{pattern:?} ({}) on {text:?} ({}): bpeek {mine:?} library {theirs}",
                    names(pattern),
                    names(text)
                ));
            }
        }
    }
    (wrong, refused)
}

fn assert_same(wrong: &[String]) {
    let head: Vec<&str> = wrong.iter().take(15).map(String::as_str).collect();
    assert!(
        wrong.is_empty(),
        "{} differences, the first:\n  {}",
        wrong.len(),
        head.join("\n  ")
    );
}

/// Every character whose full case folding (Unicode's, as Python's
/// `str.casefold` gives it) has several characters, with that folding.
fn full_folds(python: &str) -> Vec<(char, String)> {
    let folds = hf::run(python, "full_folds.py", &json!(null));
    let mut out: Vec<(char, String)> = folds
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let c = char::from_u32(k.parse().unwrap()).unwrap();
            (c, v.as_str().unwrap().to_string())
        })
        .collect();
    out.sort();
    out
}

/// `s` written with `\x{..}` escapes, safe in any place of a pattern.
fn escaped(s: &str) -> String {
    s.chars()
        .map(|c| format!("\\x{{{:X}}}", c as u32))
        .collect()
}

/// The patterns for one character `c` whose folding is `f`: each rule
/// of Oniguruma's folding to several.
fn patterns_for(c: char, f: &str) -> Vec<String> {
    let fs: Vec<char> = f.chars().collect();
    let upper: String = f.to_uppercase();
    let (head, tail) = (
        escaped(&f[..fs[0].len_utf8()]),
        escaped(&f[fs[0].len_utf8()..]),
    );
    let last = escaped(&fs[fs.len() - 1].to_string());
    let before_last = escaped(&f[..f.len() - fs[fs.len() - 1].len_utf8()]);
    let cx = escaped(&c.to_string());
    let (prev, next) = (
        char::from_u32(c as u32 - 1).unwrap_or(c),
        char::from_u32(c as u32 + 1).unwrap_or(c),
    );
    let f = escaped(f);
    vec![
        format!("(?i){c}"),
        format!("(?i){cx}"),
        format!("(?i)[{c}]"),
        format!("(?i)[a{c}]"),
        format!("(?i)[{head}{c}]"),
        format!(
            "(?i)[{}-{}]",
            escaped(&prev.to_string()),
            escaped(&next.to_string())
        ),
        format!("(?i)[^{c}]"),
        format!("(?i)[^a]\\z"),
        format!("(?i)[{c}]\\z"),
        format!("(?i)[{c}]+"),
        format!("(?i){c}+"),
        format!("(?i){f}"),
        format!("(?i){}", escaped(&upper)),
        format!("(?i)(?:{head}){tail}"),
        format!("(?i){before_last}{last}+"),
        format!("(?i)(?:{f})+"),
        format!("(?i)x|{f}|{c}"),
        format!("(?i)({f})"),
        format!("(?i)(?={f}).."),
        format!("(?i)(?<={c})."),
        format!("(?i:{f})|{c}"),
        format!("{f}|(?i){c}"),
        format!("(?i){f}(?-i){f}"),
        format!("(?i)a{f}a"),
    ]
}

/// Texts holding each form of `c` whose folding is `f`: `c` and its
/// upper case, the folding in lower, upper and title case, with the
/// long s for `s`, side by side and between other letters.
fn texts_for(c: char, f: &str) -> Vec<String> {
    let upper = f.to_uppercase();
    let mut title: String = f.chars().take(1).flat_map(char::to_uppercase).collect();
    title.extend(f.chars().skip(1));
    let long_s = f.replace('s', "\u{17f}");
    let cu: String = c.to_uppercase().collect();
    let last = f.chars().last().unwrap();
    let first = f.chars().next().unwrap();
    vec![
        c.to_string(),
        cu.clone(),
        f.to_string(),
        upper.clone(),
        title.clone(),
        long_s.clone(),
        format!("a{c}a{f}a{upper}a"),
        format!("{c}{f}{cu}{title}{long_s}"),
        format!("{f}{last}"),
        format!("{first}{f}"),
        format!("{c}{last}x{first}{c}"),
    ]
}

/// Every character Oniguruma folds to several, through every pattern of
/// [`patterns_for`] on every text of [`texts_for`]: the same pieces as
/// the library's.
#[test]
fn every_folding_to_several_cuts_as_the_library() {
    let Some(python) = hf::python() else { return };
    let folds = full_folds(&python);
    // The library's table is Unicode's (and bpeek's copy of it).
    let mut theirs: Vec<char> = folds.iter().map(|(c, _)| *c).collect();
    let mut ours: Vec<char> = multi_fold_chars().collect();
    theirs.sort();
    ours.sort();
    assert_eq!(ours, theirs);
    let jobs: Vec<(String, Vec<String>)> = folds
        .iter()
        .flat_map(|(c, f)| {
            let (c, f) = (*c, f.as_str());
            let texts = texts_for(c, f);
            patterns_for(c, f)
                .into_iter()
                .map(move |p| (p, texts.clone()))
        })
        .collect();
    let (wrong, refused) = differences(&python, &jobs);
    assert_same(&wrong);
    // Only the classes in a look-behind are refused here: none of these.
    assert!(refused.is_empty(), "{refused:?}");
}

/// Classes by name fold one to one (properties, `\p{Lu}`, not at all),
/// bracketed ones (POSIX's and `\w` inside brackets too) to several: at
/// the end of a text that is a folding, one character or the whole
/// folding is taken.
#[test]
fn classes_inside_brackets_only_fold_to_several() {
    let Some(python) = hf::python() else { return };
    let texts: Vec<String> = full_folds(&python)
        .into_iter()
        .flat_map(|(c, f)| [c.to_string(), f.to_uppercase(), f])
        .collect();
    let jobs: Vec<(String, Vec<String>)> = [
        r"(?i)\w\z",
        r"(?i)[\w]\z",
        r"(?i)\p{Ll}\z",
        r"(?i)\p{Lu}\z",
        r"(?i)\P{Lu}\z",
        r"(?i)\p{^Ll}\z",
        r"(?i)\p{Upper}+",
        r"(?i)[[:upper:]]\z",
        r"(?i)[\p{L}]\z",
        r"(?i).\z",
        r"(?i)[[:lower:]]\z",
        r"(?i)[[:alpha:][:digit:]]\z",
        r"(?i)[^a]\z",
        r"(?i)[^\W]\z",
        r"(?i)[\x{80}-\x{10FFFF}]\z",
    ]
    .iter()
    .map(|p| (p.to_string(), texts.clone()))
    .collect();
    let (wrong, refused) = differences(&python, &jobs);
    assert_same(&wrong);
    assert!(refused.is_empty(), "{refused:?}");
}

/// The pieces random patterns under `(?i)` cut random texts into, from a
/// fixed seed: letters of foldings to several, the characters folding to
/// them, classes and groups and repetitions around them.
#[test]
fn random_patterns_fold_as_the_library() {
    let Some(python) = hf::python() else { return };
    let mut rng = Rng(0x00f0_1d5e);
    let letters: Vec<&str> = vec![
        "s", "S", "\u{17f}", "t", "f", "F", "i", "I", "l", "\u{df}", "\u{1e9e}", "\u{fb00}",
        "\u{fb01}", "\u{fb03}", "\u{fb05}", "\u{fb06}", "\u{130}", "\u{307}", "\u{3b9}", "\u{399}",
        "\u{3b1}", "\u{342}", "\u{1fb3}", "\u{1fbc}", "\u{1fb7}", "a", "x",
    ];
    let atoms: Vec<&str> = vec![
        "[\u{df}]",
        "[s\u{df}]",
        "[\u{fb00}\u{fb03}]",
        "[^a]",
        "(?:s)",
        "(?:f)",
        "\\x{DF}",
        ".",
        "\\w",
        "(?-i:s)",
        "[a-z]",
        "(?:s|\u{df})",
        "(?:\\x{73})",
        "(s)",
        "(?=\u{df})",
        "\\x73",
    ];
    // Each form of a few foldings, for the texts.
    let forms: Vec<&str> = vec![
        "ss",
        "SS",
        "\u{17f}s",
        "\u{df}",
        "\u{1e9e}",
        "ffi",
        "FFI",
        "\u{fb03}",
        "\u{fb00}i",
        "f\u{fb01}",
        "ff",
        "st",
        "\u{fb05}",
        "i\u{307}",
        "\u{130}",
        "\u{3b1}\u{3b9}",
        "\u{391}\u{399}",
        "\u{1fb3}",
        "\u{1fbc}",
        "\u{3b1}\u{342}\u{3b9}",
    ];
    let quantifiers = ["", "", "", "", "+", "*", "?", "{2}", "{1}", "+?"];
    let mut jobs = Vec::new();
    for _ in 0..2000 {
        let mut p = String::from("(?i)");
        for _ in 0..1 + rng.below(4) {
            let atom = match rng.below(4) {
                0 => atoms[rng.below(atoms.len())],
                _ => letters[rng.below(letters.len())],
            };
            p.push_str(atom);
            // Oniguruma repeats no look-ahead.
            if !atom.starts_with("(?=") {
                p.push_str(quantifiers[rng.below(quantifiers.len())]);
            }
        }
        let texts: Vec<String> = (0..4)
            .map(|_| {
                (0..rng.below(7))
                    .map(|_| match rng.below(2) {
                        0 => letters[rng.below(letters.len())],
                        _ => forms[rng.below(forms.len())],
                    })
                    .collect()
            })
            .collect();
        jobs.push((p, texts));
    }
    let (wrong, refused) = differences(&python, &jobs);
    assert_same(&wrong);
    assert!(refused.len() < jobs.len() / 10, "{refused:?}");
}

/// Why bpeek refuses a `Split` of `pattern`, if it does.
fn refusal(pattern: &str) -> Option<String> {
    read(pattern).err()
}

/// Where Oniguruma's folding to several cannot be written for bpeek's
/// engine, the file is refused naming the field, the pattern and why.
#[test]
fn what_cannot_be_folded_exactly_is_refused_by_name() {
    for (pattern, why) in [
        ("(?i)s(?:s|x)", "group's edge"),
        ("(?i)(?:x|s)s", "group's edge"),
        ("(?i)(?<=[\u{df}])x", "look-behind"),
        ("(?ix)s s", "(?x)"),
    ] {
        let got = refusal(pattern).unwrap_or_else(|| panic!("{pattern} is not refused"));
        assert!(
            got.contains(why) && got.contains("pre_tokenizer.pattern") && got.contains(pattern),
            "{pattern}: {got}"
        );
    }
    // Where the edge cannot join two letters into one character, or no
    // `(?i)` reaches them, nothing is refused.
    for pattern in [
        "(?i)a(?:s|x)",
        "s(?:s|x)",
        "(?i)s(s)",
        "(?i)(?<=\u{df})x",
        "(?x)s s",
    ] {
        assert_eq!(refusal(pattern), None, "{pattern}");
    }
}
