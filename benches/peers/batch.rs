//! Each family of tokenizer files against its own library, as users call
//! them: the text's lines as a batch of separate texts, and the text as one
//! string. bpeek encodes the batch on every core in-process, by the path
//! `bpeek encode --lines` takes; the libraries by their batch calls
//! (`sentencepiece`'s `encode(lines, num_threads=N)`, `tokenizers`'
//! `encode_batch`, kitoken's `encode_all`), timed inside Python.
//!
//! Families: SentencePiece Unigram and BPE `.model` files (trained by
//! `sentencepiece` on the English text) against `sentencepiece`; llama.cpp's
//! byte-level test vocabularies qwen2 and llama-bpe against kitoken (given
//! the same vocabulary as a `tokenizer.json`, which it reads) and
//! `tokenizers`; Hugging Face files of each kind against `tokenizers` and
//! kitoken.

use super::batch_run::{Answer, run};
use super::batch_texts::texts;
use super::gguf_to_hf::{VOCABULARIES, convert, models_dir};
use super::{Options, english, mb_per_s, timed};
use bpeek::bpe::encoder::Tokenizer;
use bpeek::cli::encode_lines::lines;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One family's file: bpeek reads `ours`; each peer library reads `theirs`.
struct Family {
    name: String,
    ours: PathBuf,
    theirs: PathBuf,
    peers: Vec<&'static str>,
}

/// bpeek's figures on one text.
struct Ours {
    batch: Duration,
    one: Duration,
    lines: Vec<Vec<u32>>,
    whole: Vec<u32>,
}

pub fn batches(o: &Options) {
    println!(
        "## Families against their libraries: lines as a batch on every core, and one string (best of {} runs)\n",
        o.rounds
    );
    let dir = std::env::temp_dir().join(format!("bpeek-bench-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let kitoken = super::python_peers::venv_with(&[("kitoken", "kitoken==0.11.1")]);
    let inputs = texts(&dir, 2_000_000);
    let files: Vec<PathBuf> = (0..inputs.len())
        .map(|k| dir.join(format!("text{k}.txt")))
        .collect();
    for (file, (_, text)) in files.iter().zip(&inputs) {
        std::fs::write(file, text).unwrap();
    }
    println!(
        "MB/s of the text's bytes. Batch: each line its own text, bpeek on {} threads; one string: a single thread. A ratio above 1 means bpeek is faster; `ids` compares every line's ids and the whole text's.\n",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "| family | text | library | bpeek batch | library batch | batch ratio | bpeek one string | library one string | one-string ratio | ids |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---|");
    for family in families(o, &dir, Path::new(&system)) {
        let tok = match bpeek::bpe::formats::load::load(&family.ours.to_string_lossy()) {
            Ok(t) => t,
            Err(e) => {
                println!("| {} | - | - | not read: {e} | | | | | | |", family.name);
                continue;
            }
        };
        let ours: Vec<Ours> = inputs
            .iter()
            .map(|(_, t)| measure(&tok, t, o.rounds))
            .collect();
        for peer in &family.peers {
            let python = match (*peer, &kitoken) {
                ("kitoken", Some(p)) => p.clone(),
                ("kitoken", None) => continue,
                _ => PathBuf::from(&system),
            };
            let answers = run(&python, peer, &family.theirs, o.rounds, &files);
            for (k, (label, text)) in inputs.iter().enumerate() {
                let answer = answers
                    .get(k)
                    .map_or(Err("no answer".to_string()), |a| match a {
                        Ok(a) => Ok(a),
                        Err(e) => Err(e.clone()),
                    });
                row(&family.name, label, peer, text.len(), &ours[k], answer);
            }
        }
    }
    println!();
    let _ = std::fs::remove_dir_all(&dir);
}

/// bpeek on `text`: its lines on every core, then the whole as one string.
fn measure(tok: &Tokenizer, text: &str, rounds: usize) -> Ours {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let all = lines(text.as_bytes());
    let mut o = Ours {
        batch: Duration::MAX,
        one: Duration::MAX,
        lines: Vec::new(),
        whole: Vec::new(),
    };
    for _ in 0..rounds {
        let (d, ids) = timed(|| {
            bpeek::bpe::parallel::encode_each(tok, &all, false, false, threads)
                .expect("lines encode")
        });
        (o.batch, o.lines) = (o.batch.min(d), ids);
        let (d, ids) = timed(|| tok.encode(text, false));
        (o.one, o.whole) = (o.one.min(d), ids);
    }
    o
}

fn row(
    family: &str,
    label: &str,
    peer: &str,
    bytes: usize,
    ours: &Ours,
    answer: Result<&Answer, String>,
) {
    let answer = match answer {
        Ok(a) => a,
        Err(e) => {
            let e: String = e
                .chars()
                .take(160)
                .collect::<String>()
                .replace('|', "/")
                .replace('\n', " ");
            println!("| {family} | {label} | {peer} | | error: {e} | | | | | |");
            return;
        }
    };
    let (ob, oo) = (mb_per_s(bytes, ours.batch), mb_per_s(bytes, ours.one));
    let tb = bytes as f64 / 1e6 / answer.batch_seconds;
    let to = bytes as f64 / 1e6 / answer.one_seconds;
    let ids = match (answer.lines == ours.lines, answer.one == ours.whole) {
        (true, true) => "equal".to_string(),
        (batch, one) => {
            let lines_differ = answer
                .lines
                .iter()
                .zip(&ours.lines)
                .filter(|(a, b)| a != b)
                .count()
                + answer.lines.len().abs_diff(ours.lines.len());
            format!(
                "DIFFER ({}{})",
                if batch {
                    String::new()
                } else {
                    format!("{lines_differ} lines")
                },
                if one { "" } else { ", one string" }
            )
        }
    };
    println!(
        "| {family} | {label} | {peer} | {ob:.1} | {tb:.1} | {:.2} | {oo:.1} | {to:.1} | {:.2} | {ids} |",
        ob / tb,
        oo / to
    );
}

/// Every family's file, made or found; a family that cannot be had is
/// named with the reason.
fn families(o: &Options, dir: &Path, python: &Path) -> Vec<Family> {
    let wanted =
        |name: &str| o.families.is_empty() || o.families.iter().any(|f| name.contains(f.as_str()));
    let mut out = Vec::new();
    let (_, english) = english(2_000_000);
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, &english).unwrap();
    for kind in ["unigram", "bpe"] {
        let name = format!("spm-{kind}");
        if !wanted(&name) {
            continue;
        }
        let prefix = dir.join(format!("spm-{kind}"));
        let trained = Command::new(python)
            .args(["-c", super::SP_TRAIN])
            .arg(&corpus)
            .arg(&prefix)
            .arg(kind)
            .output()
            .is_ok_and(|out| out.status.success());
        if !trained {
            println!("{name}: `sentencepiece` could not train a model: skipped.\n");
            continue;
        }
        let model = prefix.with_extension("model");
        out.push(Family {
            name,
            ours: model.clone(),
            theirs: model,
            peers: vec!["sentencepiece", "kitoken"],
        });
    }
    out.extend(gguf_families(dir, &wanted));
    out.extend(hf_families(dir, python, &corpus, &wanted));
    out
}

fn gguf_families(dir: &Path, wanted: &dyn Fn(&str) -> bool) -> Vec<Family> {
    let Some(models) = models_dir() else {
        println!(
            "llama.cpp's test vocabularies are not unpacked (see tests/gguf_vocabs.rs): GGUF skipped.\n"
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (vocab, pattern, whole) in VOCABULARIES {
        let name = format!("gguf-{vocab}");
        if !wanted(&name) {
            continue;
        }
        let gguf = models.join(format!("ggml-vocab-{vocab}.gguf"));
        let json = dir.join(format!("{vocab}.json"));
        if let Err(e) = convert(&gguf, &json, pattern, whole) {
            println!("{name}: not written as a tokenizer.json: {e}\n");
            continue;
        }
        out.push(Family {
            name,
            ours: gguf,
            theirs: json,
            peers: vec!["kitoken", "tokenizers"],
        });
    }
    out
}

fn hf_families(
    dir: &Path,
    python: &Path,
    corpus: &Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Vec<Family> {
    let small = dir.join("corpus-1mb.txt");
    let text = std::fs::read(corpus).unwrap_or_default();
    std::fs::write(&small, &text[..text.len().min(1_000_000)]).unwrap();
    let trained = Command::new(python)
        .env("TOKENIZERS_PARALLELISM", "false")
        .args(["-c", super::hf::TRAIN])
        .arg(&small)
        .arg(dir)
        .output()
        .is_ok_and(|out| out.status.success());
    if !trained {
        println!("Python `tokenizers` could not train its files: Hugging Face skipped.\n");
        return Vec::new();
    }
    super::hf::KINDS
        .iter()
        .map(|kind| format!("hf-{kind}"))
        .filter(|name| wanted(name))
        .map(|name| {
            let file = dir.join(format!("{}.json", &name[3..]));
            Family {
                name,
                ours: file.clone(),
                theirs: file,
                peers: vec!["tokenizers", "kitoken"],
            }
        })
        .collect()
}
