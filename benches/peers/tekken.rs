//! Mistral's Tekken files, as the `mistral-common` package ships them,
//! against its own `Tekkenizer` (timed in-process, one thread,
//! `encode(text, bos=False, eos=False)`), where it is installed.

use super::{Options, english, mb_per_s, multilingual, timed};
use std::path::PathBuf;
use std::time::Duration;

/// Python that prints the Tekken files mistral-common ships, one a line.
const FILES: &str = "import glob, os, mistral_common
data = os.path.join(os.path.dirname(mistral_common.__file__), 'data')
print('\\n'.join(sorted(glob.glob(os.path.join(data, 'tekken*.json')))))";

/// Python that times `Tekkenizer.encode` on a file, best of rounds:
/// argv = tekken.json, text file, rounds; prints the seconds and the ids.
const ENCODE: &str = "import sys, time, json
from mistral_common.tokens.tokenizers.tekken import Tekkenizer
tok = Tekkenizer.from_file(sys.argv[1])
text = open(sys.argv[2], encoding='utf-8', newline='').read()
best = None
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); ids = tok.encode(text, False, False); d = time.perf_counter() - t
    best = d if best is None else min(best, d)
print(json.dumps({'seconds': best, 'ids': ids}))";

/// The Tekken files of the installed mistral-common, or none.
fn shipped_files(python: &str) -> Vec<PathBuf> {
    std::process::Command::new(python)
        .args(["-c", FILES])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| !l.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

pub fn tekken(o: &Options) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    println!(
        "## Tekken files against mistral-common (single thread, best of {} runs)\n",
        o.rounds
    );
    let files = shipped_files(&python);
    if files.is_empty() {
        println!("Python `mistral-common` is not installed: skipped.\n");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bpeek-bench-tekken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (english_name, english) = english(4_000_000);
    let inputs = [
        ("multilingual, 4 MB".to_string(), multilingual(4_000_000)),
        (format!("{english_name}, 4 MB"), english),
    ];
    println!("MB/s; a ratio above 1 means bpeek is faster.\n");
    println!("| text | file | bpeek | mistral-common | bpeek / mistral-common | ids |");
    println!("|---|---|---:|---:|---:|---|");
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let tok = match bpeek::bpe::formats::load::load(&file.to_string_lossy()) {
            Ok(tok) => tok,
            Err(e) => {
                println!("| - | {name} | could not load: {e} | | | |");
                continue;
            }
        };
        for (label, text) in &inputs {
            let text_file = dir.join("text.txt");
            std::fs::write(&text_file, text).unwrap();
            let out = std::process::Command::new(&python)
                .args(["-c", ENCODE])
                .arg(file)
                .arg(&text_file)
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
                "| {label} | {name} | {ours_speed:.1} | {their_speed:.1} | {:.2} | {} |",
                ours_speed / their_speed,
                if ids == their_ids { "equal" } else { "DIFFER" }
            );
        }
    }
    println!();
    let _ = std::fs::remove_dir_all(&dir);
}
