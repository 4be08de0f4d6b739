//! The fastest exact encoders on PyPI, timed in-process on the same texts
//! as bpeek: `quicktok-v1`, `bpe-openai`, `rs-bpe` and `tokendagger`,
//! installed into `target/peers-venv` the first time. A peer's figure is
//! printed only with whether its ids equal bpeek's; the ratio against "the
//! fastest exact peer" counts only peers whose ids are equal.

use super::{Options, digits, english, mb_per_s, multilingual, timed};
use bpeek::bpe::formats::builtin;
use bpeek::bpe::pretokenize::pretok::{CL100K_PATTERN, O200K_PATTERN};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const PEERS: [(&str, &str); 4] = [
    ("quicktok", "quicktok-v1"),
    ("bpe-openai (Python)", "bpe-openai"),
    ("rs-bpe", "rs-bpe"),
    ("tokendagger", "tokendagger"),
];

/// How long one peer may take on one text, all rounds together.
const LIMIT_SECONDS: u32 = 60;

/// Python that times one peer: argv = peer, encoding, pattern, text file,
/// rounds. Prints `{"seconds", "ids"}` or `{"error"}`.
const RUN: &str = r#"
import sys, json, time, gzip, base64
peer, name, pattern, path, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
# newline="": the text as it is, carriage returns too (Python would
# otherwise turn every CRLF into LF, and the ids would be of another text).
text = open(path, encoding="utf-8", newline="").read()
try:
    if peer == "quicktok":
        import quicktok
        enc = quicktok.get_encoding(name).encode_ordinary
    elif peer == "bpe-openai (Python)":
        import bpe_openai
        enc = bpe_openai.get_encoding(name).encode
    elif peer == "rs-bpe":
        from rs_bpe.bpe import openai
        enc = getattr(openai, name)().encode
    elif peer == "tokendagger":
        import tokendagger, bpe_openai, os
        ranks = {}
        data = os.path.join(os.path.dirname(bpe_openai.__file__), "data", name + ".tiktoken.gz")
        for line in gzip.open(data, "rt"):
            if line.strip():
                b64, rank = line.split()
                ranks[base64.b64decode(b64)] = int(rank)
        enc = tokendagger.Tokenizer(name=name, pat_str=pattern, mergeable_ranks=ranks, special_tokens={}).encode_ordinary
    best = None
    for _ in range(rounds):
        t = time.perf_counter(); ids = enc(text); d = time.perf_counter() - t
        best = d if best is None else min(best, d)
        if d > 5:
            break
    print(json.dumps({"seconds": best, "ids": list(ids)}))
except Exception as e:
    print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}))
"#;

/// The script that writes the translated strings of the machine's gettext
/// catalogs: argv = output file, byte limit.
pub(super) const GETTEXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/gettext_strings.py");

/// The venv's Python, made and filled the first time; `None` (after saying
/// why) where it cannot be.
pub(super) fn venv() -> Option<PathBuf> {
    venv_with(&[
        ("quicktok", "quicktok-v1"),
        ("bpe_openai", "bpe-openai"),
        ("rs_bpe", "rs-bpe"),
        ("tokendagger", "tokendagger"),
    ])
}

/// The venv's Python with each `(module, package)` installed where its
/// module cannot be imported; `None` (after saying why) where there can be
/// no venv.
pub(super) fn venv_with(packages: &[(&str, &str)]) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers-venv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        if !made {
            println!("A Python virtual environment cannot be made here: skipped.\n");
            return None;
        }
    }
    for (module, package) in packages {
        let has = Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !has {
            let ok = Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", package])
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                // tokendagger builds against PCRE2 (Debian: libpcre2-dev).
                println!("`{package}` could not be installed; its column says so.\n");
            }
        }
    }
    Some(python)
}

/// English code: Rust sources of the crates this build fetched, or bpeek's
/// own where there are none.
fn code(limit: usize) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "cat $(find \"${{CARGO_HOME:-$HOME/.cargo}}/registry/src\" -name '*.rs' 2>/dev/null | sort | head -3000) 2>/dev/null | head -c {limit}"
        ))
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    let mut text = String::from_utf8_lossy(&out).into_owned();
    if text.len() < limit / 2 {
        text = include_str!("python_peers.rs").repeat(limit / 10_000 + 1);
    }
    text
}

pub fn python_peers(o: &Options) {
    println!(
        "## Against the fastest exact encoders on PyPI (single thread, best of {} runs)\n",
        o.rounds
    );
    let Some(python) = venv() else { return };
    let dir = std::env::temp_dir().join(format!("bpeek-bench-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = texts(o, &dir);
    println!(
        "MB/s. Python peers are timed inside Python, not counting its start. A peer whose ids differ from bpeek's is marked `≠` and left out of \"fastest exact\".\n"
    );
    let names: Vec<&str> = PEERS.iter().map(|p| p.0).collect();
    println!(
        "| text | tokenizer | bpeek | tiktoken-rs | {} | bpeek / fastest exact peer | bpeek / tiktoken-rs |",
        names.join(" | ")
    );
    println!(
        "|---|---|---:|---:|{}---:|---:|",
        "---:|".repeat(names.len())
    );
    let text_file = dir.join("text.txt");
    for (name, encoding, pattern) in [
        ("cl100k", "cl100k_base", CL100K_PATTERN),
        ("o200k", "o200k_base", O200K_PATTERN),
    ] {
        if !o.tokenizers.iter().any(|t| t == name) {
            continue;
        }
        let ours = builtin::load(name).expect("built-in tokenizer");
        let tiktoken = match name {
            "cl100k" => tiktoken_rs::cl100k_base(),
            _ => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs tokenizer");
        for (label, text) in &inputs {
            let (mut ours_t, mut tik_t) = (Duration::MAX, Duration::MAX);
            let mut ids = Vec::new();
            let mut tik_ids = Vec::new();
            for _ in 0..o.rounds {
                let (d, got) = timed(|| ours.encode(text, false));
                (ours_t, ids) = (ours_t.min(d), got);
                let (d, got) = timed(|| tiktoken.encode_ordinary(text));
                (tik_t, tik_ids) = (tik_t.min(d), got);
            }
            let ours_speed = mb_per_s(text.len(), ours_t);
            let tik_speed = mb_per_s(text.len(), tik_t);
            std::fs::write(&text_file, text).unwrap();
            let run = PeerRun {
                python: &python,
                encoding,
                pattern,
                text_file: &text_file,
                rounds: o.rounds,
            };
            let (cells, fastest) = run.every_peer(text.len(), &ids);
            let vs_fastest = fastest.map_or("-".into(), |f| format!("{:.2}", ours_speed / f));
            println!(
                "| {label} | {name} | {ours_speed:.1} | {tik_speed:.1}{} | {} | {vs_fastest} | {:.2} |",
                if tik_ids == ids { "" } else { " ≠" },
                cells.join(" | "),
                ours_speed / tik_speed
            );
        }
    }
    println!();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The texts timed, by label (gettext strings where the machine has them),
/// kept to those `--texts` names.
fn texts(o: &Options, dir: &std::path::Path) -> Vec<(String, String)> {
    let gettext_file = dir.join("gettext.txt");
    let _ = Command::new("python3")
        .arg(GETTEXT)
        .arg(&gettext_file)
        .arg("2000000")
        .status();
    let gettext = std::fs::read_to_string(&gettext_file).unwrap_or_default();
    let (english_name, english) = english(5_000_000);
    let mut inputs: Vec<(String, String)> = vec![
        (format!("{english_name}, 5 MB"), english),
        ("English code: Rust sources, 2 MB".into(), code(2_000_000)),
        (
            "multilingual: the 15 language samples and emoji, 4 MB".into(),
            multilingual(4_000_000),
        ),
        ("digits: numbers of 1-12 digits, 2 MB".into(), digits(2_000_000)),
        ("one letter: 1 MB of `a`".into(), "a".repeat(1_000_000)),
        (
            "spaces and newlines: runs of 1-40, 1 MB".into(),
            (0..40_000)
                .map(|i| if i % 3 == 0 { "\n".repeat(i % 7 + 1) } else { " ".repeat(i % 40 + 1) } + "x")
                .collect::<String>(),
        ),
    ];
    if gettext.len() > 100_000 {
        inputs.insert(
            3,
            (
                format!(
                    "UI strings: gettext translations on this machine, {:.1} MB",
                    gettext.len() as f64 / 1e6
                ),
                gettext,
            ),
        );
    }
    if let Some(word) = &o.texts {
        inputs.retain(|(label, _)| label.to_lowercase().contains(word.as_str()));
    }
    inputs
}

/// One text under one encoding, timed in each Python peer.
struct PeerRun<'a> {
    python: &'a std::path::Path,
    encoding: &'a str,
    pattern: &'a str,
    text_file: &'a std::path::Path,
    rounds: usize,
}

impl PeerRun<'_> {
    /// Every peer's cell (MB/s, `≠` when its ids differ from `ids`), and
    /// the fastest exact peer's speed.
    fn every_peer(&self, bytes: usize, ids: &[u32]) -> (Vec<String>, Option<f64>) {
        let mut cells = Vec::new();
        let mut fastest: Option<f64> = None;
        for (peer, _) in PEERS {
            let answer = self.answer(peer);
            let cell = match (answer["seconds"].as_f64(), answer.get("error")) {
                (Some(s), _) => {
                    let speed = bytes as f64 / 1e6 / s;
                    let theirs: Vec<u32> =
                        serde_json::from_value(answer["ids"].clone()).unwrap_or_default();
                    if theirs == ids {
                        fastest = Some(fastest.map_or(speed, |f: f64| f.max(speed)));
                        format!("{speed:.1}")
                    } else {
                        format!("{speed:.1} ≠")
                    }
                }
                (None, Some(e)) => format!("error: {}", e.as_str().unwrap_or("?")),
                (None, None) => format!("over {LIMIT_SECONDS} s"),
            };
            cells.push(cell);
        }
        (cells, fastest)
    }

    /// What the peer printed: its time and ids, or an error.
    fn answer(&self, peer: &str) -> serde_json::Value {
        // A peer that is quadratic on a run would take hours.
        let out = Command::new("timeout")
            .arg(LIMIT_SECONDS.to_string())
            .arg(self.python)
            .args(["-c", RUN, peer, self.encoding, self.pattern])
            .arg(self.text_file)
            .arg(self.rounds.to_string())
            .output();
        out.ok()
            .and_then(|o| serde_json::from_slice(&o.stdout).ok())
            .unwrap_or_default()
    }
}
