//! bpeek side by side with its peers, in one run, on this machine.
//!
//! `cargo bench --bench peers` prints Markdown tables:
//!
//! - encoding speed of the built-in tokenizers against `tiktoken-rs` and
//!   the `bpe-openai` crate (cl100k and o200k; it has no GPT-2), on English
//!   (the system's man pages), multilingual text (the bundled samples), digits
//!   and one letter repeated, with the ratios and whether the ids agree;
//! - the time to load each tokenizer, against `tiktoken-rs`;
//! - SentencePiece `.model` files (BPE and Unigram, trained by Python
//!   `sentencepiece` on the English text) against `sentencepiece` itself,
//!   timed inside Python, where it is installed;
//! - Hugging Face `tokenizer.json` files of each kind (byte-level BPE, BPE
//!   on characters with byte fallback, WordPiece, Unigram, WordLevel),
//!   trained by Python `tokenizers` and timed against it, where it is
//!   installed;
//! - Mistral's Tekken files (those `mistral-common` ships) against its
//!   `Tekkenizer`, on the multilingual samples and English, where it is
//!   installed;
//! - cl100k and o200k against the fastest exact encoders on PyPI
//!   (`quicktok-v1`, `bpe-openai`, `rs-bpe`, `tokendagger`, installed into
//!   `target/peers-venv`), on English prose and code, the multilingual
//!   samples, the machine's gettext translations, digits and runs;
//! - each family of files against its own library, the text's lines as a
//!   batch on every core and the text as one string: SentencePiece against
//!   `sentencepiece`, llama.cpp's byte-level GGUF vocabularies against
//!   kitoken, Hugging Face files against `tokenizers` and kitoken, on six
//!   kinds of text from this machine;
//! - the explorer on 10 MB of English for every pre-tokenizer: open, step,
//!   frame, step back and seek.
//!
//! Options (after `--`): `--megabytes N` for the explorer corpus (10),
//! `--merges N` (2000), `--rounds N` encoding runs, best kept (5), and
//! `--only encode|spm|hf|tekken|batch|python|explorer`, `--families
//! spm,gguf-qwen2` (the batch comparison's families whose names hold one), `--tokenizers gpt2,cl100k,o200k`, `--pretoks none,lines`
//! (the explorer's pre-tokenizers, all by default), `--texts code` (only
//! the PyPI comparison's texts whose names hold the word). Figures are printed, never asserted.

#[path = "peers/batch.rs"]
mod batch;
#[path = "peers/batch_run.rs"]
mod batch_run;
#[path = "peers/batch_texts.rs"]
mod batch_texts;
#[path = "peers/gguf_to_hf.rs"]
mod gguf_to_hf;
#[path = "peers/hf.rs"]
mod hf;
#[path = "peers/python_peers.rs"]
mod python_peers;
#[path = "peers/tekken.rs"]
mod tekken;

use bpeek::bpe::formats::builtin;
use bpeek::bpe::{Pretok, Trainer, TrainerConfig};
use std::time::{Duration, Instant};

struct Options {
    megabytes: usize,
    merges: usize,
    rounds: usize,
    only: Option<String>,
    tokenizers: Vec<String>,
    pretoks: Vec<Pretok>,
    /// Only the PyPI comparison's texts whose names hold this word.
    texts: Option<String>,
    /// Only the batch comparison's families whose names hold one of these.
    families: Vec<String>,
}

fn options() -> Options {
    let mut o = Options {
        megabytes: 10,
        merges: 2000,
        rounds: 5,
        only: None,
        tokenizers: vec!["gpt2".into(), "cl100k".into(), "o200k".into()],
        pretoks: Pretok::ALL.to_vec(),
        texts: None,
        families: Vec::new(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--megabytes" => o.megabytes = value.parse().unwrap_or(o.megabytes),
            "--merges" => o.merges = value.parse().unwrap_or(o.merges),
            "--rounds" => o.rounds = value.parse().unwrap_or(o.rounds).max(1),
            "--only" => o.only = Some(value),
            "--texts" => o.texts = Some(value.to_lowercase()),
            "--families" => o.families = value.split(',').map(str::to_string).collect(),
            "--tokenizers" => o.tokenizers = value.split(',').map(str::to_string).collect(),
            "--pretoks" => {
                o.pretoks = value
                    .split(',')
                    .filter_map(|p| Pretok::parse(p).ok())
                    .collect()
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

fn main() {
    let o = options();
    println!(
        "# bpeek and its peers, {} ({} cores)\n",
        machine(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let only = |what: &str| o.only.as_deref().is_none_or(|x| x == what);
    if only("encode") {
        encoding(&o);
    }
    if only("spm") {
        sentencepiece(&o);
    }
    if only("hf") {
        hf::hugging_face(&o);
    }
    if only("tekken") {
        tekken::tekken(&o);
    }
    if only("batch") {
        batch::batches(&o);
    }
    if only("python") {
        python_peers::python_peers(&o);
    }
    if only("explorer") {
        explorer(&o);
    }
}

/// The CPU model, from /proc/cpuinfo where there is one.
fn machine() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The system's man pages, decompressed, up to `limit` bytes, as UTF-8.
fn english(limit: usize) -> (String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "zcat /usr/share/man/man1/*.gz 2>/dev/null | head -c {limit}"
        ))
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    if out.len() >= limit / 2 {
        let text = String::from_utf8_lossy(&out).into_owned();
        return ("English: man pages".into(), text);
    }
    let base = bpeek::corpora::default_corpus().text;
    (
        "English: the bundled story, repeated".into(),
        repeat(base, limit),
    )
}

/// The bundled parallel samples, every language, repeated.
fn multilingual(limit: usize) -> String {
    let mut all = String::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/samples");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    for path in names {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let skip = name.is_some_and(|n| n.starts_with("code") || n.starts_with("digits"));
        if !skip && let Ok(text) = std::fs::read_to_string(&path) {
            all.push_str(&text);
        }
    }
    repeat(&all, limit)
}

/// Numbers of 1 to 12 digits, with the separators numbers come with.
fn digits(limit: usize) -> String {
    let mut out = String::with_capacity(limit);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    while out.len() < limit {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = 1 + (seed % 12) as usize;
        for k in 0..len {
            out.push((b'0' + ((seed >> (4 + 4 * k)) % 10) as u8) as char);
        }
        out.push_str([" ", ", ", ".", "\n", " - ", "/"][(seed >> 60) as usize % 6]);
    }
    out
}

fn repeat(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(limit + text.len());
    while out.len() < limit && !text.is_empty() {
        out.push_str(text);
    }
    out
}

/// How long `f` takes, and what it returns.
fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64().max(1e-9)
}

fn encoding(o: &Options) {
    let (english_name, english) = english(5_000_000);
    let inputs: Vec<(String, String)> = vec![
        (format!("{english_name}, 5 MB"), english),
        (
            "multilingual: the 15 language samples and emoji, repeated, 4 MB".into(),
            multilingual(4_000_000),
        ),
        (
            "digits: numbers of 1-12 digits, 2 MB".into(),
            digits(2_000_000),
        ),
        ("one letter: 1 MB of `a`".into(), "a".repeat(1_000_000)),
    ];
    println!("## Encoding (single thread, best of {} runs)\n", o.rounds);
    println!(
        "MB/s; a ratio above 1 means bpeek is faster. `ids` says whether bpeek's ids equal tiktoken-rs's (and bpe-openai's).\n"
    );
    println!(
        "| text | tokenizer | bpeek | tiktoken-rs | bpe-openai | bpeek / tiktoken-rs | bpeek / bpe-openai | ids |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---|");
    let mut loads = Vec::new();
    for name in o.tokenizers.iter().map(String::as_str) {
        // Loading is timed three times, in turns; the best counts.
        let load_ours = || builtin::load(name).expect("built-in tokenizer");
        let load_tiktoken = || {
            match name {
                "gpt2" => tiktoken_rs::r50k_base(),
                "cl100k" => tiktoken_rs::cl100k_base(),
                _ => tiktoken_rs::o200k_base(),
            }
            .expect("tiktoken-rs tokenizer")
        };
        let (mut our_load, mut tiktoken_load) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            our_load = our_load.min(timed(load_ours).0);
            tiktoken_load = tiktoken_load.min(timed(load_tiktoken).0);
        }
        let ours = load_ours();
        let tiktoken = load_tiktoken();
        let t = Instant::now();
        let gems = match name {
            "cl100k" => Some(bpe_openai::cl100k_base()),
            "o200k" => Some(bpe_openai::o200k_base()),
            _ => None,
        };
        let gems_load = gems.map(|_| t.elapsed());
        loads.push((name, our_load, tiktoken_load, gems_load));
        for (label, text) in &inputs {
            // The three take turns each round, so a machine that slows down
            // for a while slows all of them alike; the best round counts.
            let (mut ours_t, mut tik_t, mut gems_t) = (Duration::MAX, Duration::MAX, Duration::MAX);
            let (mut ours_ids, mut tik_ids, mut gems_ids) = (Vec::new(), Vec::new(), None);
            for _ in 0..o.rounds {
                let (d, ids) = timed(|| ours.encode(text, false));
                (ours_t, ours_ids) = (ours_t.min(d), ids);
                let (d, ids) = timed(|| tiktoken.encode_ordinary(text));
                (tik_t, tik_ids) = (tik_t.min(d), ids);
                if let Some(g) = gems {
                    let (d, ids) = timed(|| g.encode(text.as_str()));
                    (gems_t, gems_ids) = (gems_t.min(d), Some(ids));
                }
            }
            let gems_run = gems_ids.map(|ids| (gems_t, ids));
            let ours_speed = mb_per_s(text.len(), ours_t);
            let tik_speed = mb_per_s(text.len(), tik_t);
            let same_tik = ours_ids == tik_ids;
            let (gems_speed, gems_ratio, same_gems) = match &gems_run {
                Some((d, ids)) => {
                    let s = mb_per_s(text.len(), *d);
                    (
                        format!("{s:.1}"),
                        format!("{:.2}", ours_speed / s),
                        Some(*ids == ours_ids),
                    )
                }
                None => ("-".into(), "-".into(), None),
            };
            let ids = match (same_tik, same_gems) {
                (true, Some(true)) | (true, None) => "equal".to_string(),
                (true, Some(false)) => "equal (bpe-openai differs)".to_string(),
                (false, _) => "DIFFER from tiktoken-rs".to_string(),
            };
            println!(
                "| {label} | {name} | {ours_speed:.1} | {tik_speed:.1} | {gems_speed} | {:.2} | {gems_ratio} | {ids} |",
                ours_speed / tik_speed
            );
        }
    }
    println!("\n## Loading a built-in tokenizer (best of 3; bpe-openai: its first use)\n");
    println!("| tokenizer | bpeek | tiktoken-rs | bpe-openai | bpeek / tiktoken-rs |");
    println!("|---|---:|---:|---:|---:|");
    for (name, ours, tik, gems) in loads {
        println!(
            "| {name} | {} | {} | {} | {:.2} |",
            ms(ours),
            ms(tik),
            gems.map_or("-".into(), ms),
            ours.as_secs_f64() / tik.as_secs_f64()
        );
    }
    println!();
}

/// Python that trains a model: argv = corpus, prefix, model type.
const SP_TRAIN: &str = "import sys, sentencepiece as s
s.SentencePieceTrainer.train(input=sys.argv[1], model_prefix=sys.argv[2], model_type=sys.argv[3],
    vocab_size=8000, input_sentence_size=200000, shuffle_input_sentence=False, minloglevel=2)";

/// Python that times `sp.encode` on a file, best of rounds (one thread):
/// argv = model, text file, rounds; prints the seconds and the ids.
const SP_ENCODE: &str = "import sys, time, json, sentencepiece as s
sp = s.SentencePieceProcessor(model_file=sys.argv[1])
text = open(sys.argv[2], encoding='utf-8').read()
best = None
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); ids = sp.encode(text); d = time.perf_counter() - t
    best = d if best is None else min(best, d)
print(json.dumps({'seconds': best, 'ids': ids}))";

fn sentencepiece(o: &Options) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let has = std::process::Command::new(&python)
        .args(["-c", "import sentencepiece"])
        .output()
        .is_ok_and(|out| out.status.success());
    println!(
        "## SentencePiece models (single thread, best of {} runs)\n",
        o.rounds
    );
    if !has {
        println!("Python `sentencepiece` is not installed: skipped.\n");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bpeek-bench-spm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (english_name, english) = english(5_000_000);
    let inputs = [
        (format!("{english_name}, 5 MB"), english.clone()),
        ("multilingual, 4 MB".to_string(), multilingual(4_000_000)),
        ("digits, 2 MB".to_string(), digits(2_000_000)),
    ];
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, &english[..english.len().min(2_000_000)]).unwrap();
    println!(
        "Models of 8000 pieces trained on 2 MB of the English text. MB/s; a ratio above 1 means bpeek is faster.\n"
    );
    println!("| text | model | bpeek | sentencepiece | bpeek / sentencepiece | ids |");
    println!("|---|---|---:|---:|---:|---|");
    for kind in ["bpe", "unigram"] {
        let prefix = dir.join(kind);
        let trained = std::process::Command::new(&python)
            .args(["-c", SP_TRAIN])
            .arg(&corpus)
            .arg(&prefix)
            .arg(kind)
            .output()
            .is_ok_and(|out| out.status.success());
        let model = prefix.with_extension("model");
        let Ok(tok) = bpeek::bpe::formats::load::load(&model.to_string_lossy()).map_err(|e| {
            println!("| - | {kind} | could not train or load ({trained}): {e} | | | |");
        }) else {
            continue;
        };
        for (label, text) in &inputs {
            let file = dir.join("text.txt");
            std::fs::write(&file, text).unwrap();
            let out = std::process::Command::new(&python)
                .args(["-c", SP_ENCODE])
                .arg(&model)
                .arg(&file)
                .arg(o.rounds.to_string())
                .output()
                .expect("python runs");
            let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            let theirs = answer["seconds"].as_f64().unwrap_or(f64::NAN);
            let their_ids: Vec<u32> =
                serde_json::from_value(answer["ids"].clone()).unwrap_or_default();
            let mut ours = Duration::MAX;
            let mut ids = Vec::new();
            for _ in 0..o.rounds {
                let (d, got) = timed(|| tok.encode(text, false));
                (ours, ids) = (ours.min(d), got);
            }
            let ours_speed = mb_per_s(text.len(), ours);
            let their_speed = text.len() as f64 / 1e6 / theirs;
            println!(
                "| {label} | {kind} | {ours_speed:.1} | {their_speed:.1} | {:.2} | {} |",
                ours_speed / their_speed,
                if ids == their_ids { "equal" } else { "DIFFER" }
            );
        }
    }
    println!();
    let _ = std::fs::remove_dir_all(&dir);
}

fn explorer(o: &Options) {
    let limit = o.megabytes * 1_000_000;
    let (source, text) = english(limit);
    let text = text.into_bytes();
    println!(
        "## The explorer on {source}, {:.0} MB, up to {} merges, 80x24\n",
        text.len() as f64 / 1e6,
        o.merges
    );
    println!(
        "Targets: step median under 1 ms and slowest under 16 ms, step back under 16 ms, frame under 2 ms, seek under 1 s.\n"
    );
    println!(
        "| pre-tokenizer | open | step median | step slowest | frame median | frame slowest | step back median | step back slowest | seek to 0 | seek to {} | seek to half |",
        o.merges
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &pretok in &o.pretoks {
        let config = TrainerConfig {
            pretok,
            ..Default::default()
        };
        let t = Instant::now();
        let trainer = match Trainer::new(text.clone(), config) {
            Ok(t) => t,
            Err(e) => {
                println!("| {pretok} | {e} |");
                continue;
            }
        };
        let open = t.elapsed();
        let times = match bpeek::bench::explorer::explorer_times(trainer, o.merges, 200) {
            Ok(t) => t,
            Err(e) => {
                println!("| {pretok} | {e} |");
                continue;
            }
        };
        let (steps, frames, undos) = (
            sorted(times.steps),
            sorted(times.frames),
            sorted(times.undos),
        );
        println!(
            "| {pretok} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            ms(open),
            ms(median(&steps)),
            ms(slowest(&steps)),
            ms(median(&frames)),
            ms(slowest(&frames)),
            ms(median(&undos)),
            ms(slowest(&undos)),
            ms(times.seeks[0].2),
            ms(times.seeks[1].2),
            ms(times.seeks[2].2),
        );
    }
    println!();
}

fn sorted(mut v: Vec<Duration>) -> Vec<Duration> {
    v.sort_unstable();
    v
}

fn median(v: &[Duration]) -> Duration {
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn slowest(v: &[Duration]) -> Duration {
    v.last().copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 1.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.3} ms")
    }
}
