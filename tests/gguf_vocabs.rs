//! llama.cpp's own test vocabularies (`models/ggml-vocab-*.gguf` in its
//! source, carried by the `llama-cpp-python` source package on PyPI) with
//! their test strings (`.inp`, separated by lines `__ggml_vocab_test__`)
//! and the ids the model's reference tokenizer gives for each (`.out`, one
//! line per string, without BOS). bpeek reads each vocabulary from the
//! `.gguf` file alone and must give every `.out` line.
//!
//! The files are not in this repository: `.ci/run` downloads the package
//! into `$HOME/.cache/bpeek-test-data` (or `$BPEEK_TEST_DATA`) and unpacks
//! it there. Without them the test says so and passes, except under CI
//! (`CI=true`), where missing files are a failure.

use bpeek::bpe::formats::load::load;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The vocabularies whose every `.out` line bpeek reproduces. Any other
/// vocabulary with test strings is compared too and its differences
/// reported; the README says why those differ.
const EXPECTED_EXACT: &[&str] = &[
    "gpt-2",
    "llama-spm",
    "llama-bpe",
    "phi-3",
    "qwen2",
    "qwen35",
    "deepseek-llm",
    "deepseek-coder",
    "falcon",
    "starcoder",
    "mpt",
    "refact",
    "command-r",
    "bert-bge",
    "gemma-4",
];

/// The folder holding `ggml-vocab-*.gguf`, or `None` (after saying why)
/// where the test may be skipped.
fn models_dir() -> Option<PathBuf> {
    let root = std::env::var_os("BPEEK_TEST_DATA")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/bpeek-test-data")));
    let found = root.as_ref().and_then(|root| {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .map(|p| p.join("vendor/llama.cpp/models"))
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        dirs.pop()
    });
    if found.is_none() {
        let why = format!(
            "llama.cpp's test vocabularies are not unpacked under {}; .ci/run downloads them",
            root.map_or("$HOME/.cache/bpeek-test-data".into(), |r| r
                .display()
                .to_string())
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{why}");
        }
        eprintln!("SKIPPED: {why}");
    }
    found
}

fn vocabularies(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gguf"))
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem.trim_start_matches("ggml-vocab-").to_string(), p)
        })
        .collect();
    out.sort();
    out
}

/// The test strings of `FILE.inp` and the ids of `FILE.out`.
fn cases(gguf: &Path) -> Option<Vec<(String, Vec<u32>)>> {
    let inp = std::fs::read_to_string(format!("{}.inp", gguf.display())).ok()?;
    let out = std::fs::read_to_string(format!("{}.out", gguf.display())).ok()?;
    let mut texts: Vec<&str> = inp.split("\n__ggml_vocab_test__\n").collect();
    if texts.last() == Some(&"") {
        texts.pop();
    }
    let ids: Vec<Vec<u32>> = out
        .lines()
        .map(|l| l.split_whitespace().map(|n| n.parse().unwrap()).collect())
        .collect();
    assert_eq!(texts.len(), ids.len(), "{}", gguf.display());
    Some(texts.into_iter().map(String::from).zip(ids).collect())
}

#[test]
fn every_test_vocabulary_gives_llama_cpp_s_expected_ids() {
    let Some(dir) = models_dir() else { return };
    let mut report = Vec::new();
    let mut wrong = Vec::new();
    let mut exact = Vec::new();
    for (name, path) in vocabularies(&dir) {
        let started = Instant::now();
        let tok = match load(&path.to_string_lossy()) {
            Ok(t) => t,
            Err(e) => {
                report.push(format!("{name}: not read: {e}"));
                if EXPECTED_EXACT.contains(&name.as_str()) {
                    wrong.push(format!("{name}: {e}"));
                }
                continue;
            }
        };
        let took = started.elapsed();
        let Some(cases) = cases(&path) else {
            report.push(format!(
                "{name}: {} (no test strings), read in {took:.2?}",
                tok.kind_detail()
            ));
            continue;
        };
        let mut differ = Vec::new();
        for (text, want) in &cases {
            let got = tok.encode(text, false);
            if &got != want {
                differ.push(format!(
                    "  {text:?}\n    expected {want:?}\n    bpeek    {got:?}"
                ));
            }
        }
        report.push(format!(
            "{name}: {}, read in {took:.2?}: {} of {} strings exact",
            tok.kind_detail(),
            cases.len() - differ.len(),
            cases.len()
        ));
        let expected = EXPECTED_EXACT.contains(&name.as_str());
        if differ.is_empty() {
            exact.push(name.clone());
        }
        if expected && !differ.is_empty() {
            wrong.push(format!(
                "{name}:\n{}",
                differ[..differ.len().min(3)].join("\n")
            ));
        }
        if !expected && differ.is_empty() {
            wrong.push(format!(
                "{name}: now exact: add it to EXPECTED_EXACT and the README"
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        !exact.is_empty() && wrong.is_empty(),
        "{}\n\n{}",
        report.join("\n"),
        wrong.join("\n")
    );
}

/// With `--add-special-tokens` a GGUF tokenizer puts around the text what
/// llama.cpp's defaults and the file's keys say: BOS for Llama's
/// SentencePiece and Llama 3, `[CLS]` and `[SEP]` for BERT, nothing for
/// GPT-2.
#[test]
fn the_tokens_around_a_text_follow_llama_cpp_s_defaults_and_keys() {
    let Some(dir) = models_dir() else { return };
    let around = |vocab: &str| -> (Vec<u32>, Vec<u32>) {
        let path = dir.join(format!("ggml-vocab-{vocab}.gguf"));
        let tok = bpeek::bpe::formats::load::load(path.to_str().unwrap()).unwrap();
        let plain = tok.encode_for_model(b"hello world", false, false).unwrap();
        let with = tok.encode_for_model(b"hello world", false, true).unwrap();
        let at = with
            .windows(plain.len())
            .position(|w| w == plain.as_slice())
            .expect("the text's own ids are inside");
        (with[..at].to_vec(), with[at + plain.len()..].to_vec())
    };
    assert_eq!(around("llama-spm"), (vec![1], vec![]));
    assert_eq!(around("bert-bge"), (vec![101], vec![102]));
    assert_eq!(around("gpt-2"), (vec![], vec![]));
    assert_eq!(around("llama-bpe"), (vec![128000], vec![]));
}
