//! `--tie hf` against the real Hugging Face BpeTrainer (Python `tokenizers`):
//! the same merges, all of them, in the same order, on corpora full of ties,
//! man-page text, multilingual text and random small alphabets, trained on
//! the whole text (`train_from_iterator`) and line by line (`train([file])`
//! beside `--by-line`).

mod hf;
mod python;

use bpeek::bpe::Pretok;
use bpeek::bpe::formats::hf_export::hf_pattern;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One training run, given to both sides.
struct Run {
    path: PathBuf,
    /// A bpeek pre-tokenizer name.
    pretok: &'static str,
    vocab_size: usize,
    min_count: u64,
    specials: Vec<&'static str>,
    by_line: bool,
}

impl Run {
    fn job(&self) -> Value {
        // gpt2 and none are ByteLevel's own; the others a Split before it,
        // written as `train --out-format hf` writes them.
        let split = match self.pretok {
            "gpt2" | "none" => None,
            name => hf_pattern(Pretok::parse(name).unwrap()),
        };
        json!({
            "path": self.path,
            "pretok": self.pretok,
            "split": split,
            "vocab_size": self.vocab_size,
            "min_frequency": self.min_count,
            "specials": self.specials,
            "by_line": self.by_line,
        })
    }

    fn describe(&self) -> String {
        format!(
            "{} pretok {} vocab {} min-count {} specials {:?} {}",
            self.path.display(),
            self.pretok,
            self.vocab_size,
            self.min_count,
            self.specials,
            if self.by_line {
                "by line / train([file])"
            } else {
                "whole text / train_from_iterator"
            }
        )
    }
}

/// bpeek's merges for `run`, written the way HF writes merges.
fn bpeek_merges(run: &Run) -> Vec<(String, String)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bpeek"));
    cmd.arg("train")
        .arg(&run.path)
        .args(["--tie", "hf", "--pretok", run.pretok, "--quiet"])
        .args(["--vocab-size", &run.vocab_size.to_string()])
        .args(["--min-count", &run.min_count.to_string()])
        .args(["--format", "json"]);
    if run.by_line {
        cmd.arg("--by-line");
    }
    for s in &run.specials {
        cmd.args(["--special", s]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "bpeek train failed on {}: {}",
        run.describe(),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    let mut merges = Vec::new();
    for m in report["merges"].as_array().unwrap() {
        let (l, r) = (
            m["pair"][0].as_u64().unwrap(),
            m["pair"][1].as_u64().unwrap(),
        );
        let (left, right) = (tokens[l as usize].clone(), tokens[r as usize].clone());
        merges.push((hf::byte_level(&left), hf::byte_level(&right)));
        tokens.push([left, right].concat());
    }
    merges
}

/// Train every run on both sides and compare the merge lists whole.
fn check(python: &str, runs: &[Run]) {
    let jobs: Vec<Value> = runs.iter().map(Run::job).collect();
    let answers = hf::run(python, "bpe_trainer.py", &Value::Array(jobs));
    for (run, answer) in runs.iter().zip(answers.as_array().unwrap()) {
        let theirs = hf::hf_merges(answer);
        let ours = bpeek_merges(run);
        if let Some(i) = (0..ours.len().min(theirs.len())).find(|&i| ours[i] != theirs[i]) {
            panic!(
                "{}: merge {i} differs: bpeek {:?}, HF {:?}",
                run.describe(),
                ours[i],
                theirs[i]
            );
        }
        assert_eq!(
            ours.len(),
            theirs.len(),
            "{}: bpeek made {} merges, HF {}",
            run.describe(),
            ours.len(),
            theirs.len()
        );
        assert!(
            !ours.is_empty() || run.min_count > 1,
            "{}: nothing merged",
            run.describe()
        );
    }
}

/// The usual variations on one corpus: both ways of reading it, a minimum
/// count, special tokens, no pre-tokenizer.
fn runs_for(path: &Path, merges: usize) -> Vec<Run> {
    let run = |pretok, vocab_size, min_count, specials: Vec<&'static str>, by_line| Run {
        path: path.to_path_buf(),
        pretok,
        vocab_size,
        min_count,
        specials,
        by_line,
    };
    vec![
        run("gpt2", 256 + merges, 0, vec![], false),
        run("gpt2", 256 + merges, 1, vec![], true),
        run("gpt2", 256 + merges, 3, vec![], false),
        run(
            "gpt2",
            258 + merges / 2,
            2,
            vec!["<|endoftext|>", "<pad>"],
            true,
        ),
        run("none", 256 + merges / 2, 1, vec![], true),
        run("cl100k", 256 + merges, 1, vec![], false),
        run("o200k", 256 + merges / 2, 2, vec![], true),
        run("whitespace", 256 + merges / 2, 1, vec![], false),
    ]
}

/// A small deterministic generator, so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn ties_that_involve_spaces_and_control_bytes_go_as_in_hf() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-ties");
    let mut corpora = vec![dir.file("ab-cd.txt", b"ab cd")];
    // Every two-symbol word over a mixed alphabet once: every pair ties.
    let alphabet = [
        "a", "b", "Z", "!", "~", "\t", "\u{7f}", "\u{1}", "é", "\u{a0}", "0",
    ];
    let mut text = String::new();
    for x in alphabet {
        for y in alphabet {
            text.push_str(&format!("{x}{y} {y}{x}\n"));
        }
    }
    corpora.push(dir.file("all-pairs.txt", text.as_bytes()));
    let mut runs = Vec::new();
    for path in &corpora {
        runs.extend(runs_for(path, 60));
    }
    check(&python, &runs);
}

/// About `limit` bytes of the system's man pages (as UTF-8), if it has any.
fn man_pages(limit: usize) -> Option<Vec<u8>> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir("/usr/share/man/man1")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gz"))
        .collect();
    pages.sort();
    let mut text = Vec::new();
    for group in pages.chunks(20) {
        let out = Command::new("gzip").arg("-dc").args(group).output().ok()?;
        text.extend(out.stdout);
        if text.len() >= limit {
            break;
        }
    }
    text.truncate(limit);
    let text = String::from_utf8_lossy(&text).into_owned().into_bytes();
    (text.len() > 10_000).then_some(text)
}

#[test]
fn man_pages_and_the_bundled_corpus_train_merge_for_merge_as_in_hf() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-prose");
    let mut corpora = vec![dir.file(
        "default.txt",
        bpeek::corpora::default_corpus().text.as_bytes(),
    )];
    match man_pages(400_000) {
        Some(text) => corpora.push(dir.file("man.txt", &text)),
        None => eprintln!("no man pages under /usr/share/man/man1: the bundled corpus stands in"),
    }
    let mut runs = Vec::new();
    for path in &corpora {
        runs.extend(runs_for(path, 1500));
    }
    check(&python, &runs);
}

#[test]
fn the_multilingual_samples_train_merge_for_merge_as_in_hf() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-samples");
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samples");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut all = Vec::new();
    for name in &names {
        all.extend(std::fs::read(name).unwrap());
        all.push(b'\n');
    }
    let path = dir.file("samples.txt", &all);
    check(&python, &runs_for(&path, 1200));
}

#[test]
fn random_texts_over_small_alphabets_train_merge_for_merge_as_in_hf() {
    let Some(python) = hf::python() else { return };
    let dir = hf::TempDir::new("hf-random");
    let alphabets: [&[&str]; 5] = [
        &["a", "b", " "],
        &["a", "b", "c", " ", "\n"],
        &["x", "y", "1", "2", " ", "'s", ".", "\t", "\n", "  "],
        &["é", "ß", "Ж", "語", " ", "\u{1}", "\u{7f}", "!", "\r\n"],
        &["aa", "ab", "ba", " ", "  ", "\n\n", "~", "\u{ad}"],
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = Vec::new();
    for i in 0..40 {
        let alphabet = alphabets[i % alphabets.len()];
        let len = 20 + (rng.next() % 2000) as usize;
        let text: String = (0..len).map(|_| rng.pick(alphabet)).collect();
        let path = dir.file(&format!("random-{i}.txt"), text.as_bytes());
        let merges = 5 + (rng.next() % 200) as usize;
        let min_count = rng.next() % 3;
        runs.push(Run {
            path,
            pretok: if i % 4 == 3 { "none" } else { "gpt2" },
            vocab_size: 256 + merges,
            min_count,
            specials: vec![],
            by_line: i % 2 == 1,
        });
    }
    check(&python, &runs);
}

#[test]
fn by_line_keeps_a_line_break_with_the_spaces_before_it() {
    let dir = hf::TempDir::new("by-line");
    let path = dir.file("lines.txt", b"a  \nb  \nc  \nd\n");
    let merges = |by_line: bool| {
        let run = Run {
            path: path.clone(),
            pretok: "gpt2",
            vocab_size: 260,
            min_count: 1,
            specials: vec![],
            by_line,
        };
        bpeek_merges(&run)
    };
    // Whole text: `  ` and `\n` are separate chunks; by line, `  \n` is one.
    assert_eq!(merges(false), [("Ġ".to_string(), "Ġ".to_string())]);
    assert_eq!(
        merges(true),
        [
            ("Ġ".to_string(), "Ċ".to_string()),
            ("Ġ".to_string(), "ĠĊ".to_string())
        ]
    );
}

#[test]
fn the_hf_rule_is_refused_in_char_mode_with_the_reason() {
    let out = Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["train", "--mode", "char", "--tie", "hf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("</w>"), "{err}");
}
