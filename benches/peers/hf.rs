//! Files from Hugging Face `tokenizers`, one of each kind bpeek reads,
//! trained by Python on the English text and timed against the library
//! itself (in-process, one thread, `encode` without special tokens).

use super::{Options, digits, english, mb_per_s, multilingual, timed};
use std::time::Duration;

/// Python that trains one file of each kind: argv = corpus, folder. Each
/// kind is named by its file name.
pub(super) const TRAIN: &str = r###"
import sys, os
from tokenizers import Regex, Tokenizer, models, trainers, pre_tokenizers, normalizers, decoders
corpus, out = sys.argv[1], sys.argv[2]
def save(name, tok, trainer):
    tok.train([corpus], trainer)
    tok.save(os.path.join(out, name + ".json"))
t = Tokenizer(models.BPE())
t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
t.decoder = decoders.ByteLevel()
save("byte-level-bpe", t, trainers.BpeTrainer(vocab_size=8000, show_progress=False,
     initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
t = Tokenizer(models.BPE(byte_fallback=True, fuse_unk=True, unk_token="<unk>"))
t.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")])
t.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])
save("char-bpe-byte-fallback", t, trainers.BpeTrainer(vocab_size=8000, show_progress=False,
     special_tokens=["<unk>"] + ["<0x%02X>" % b for b in range(256)]))
t = Tokenizer(models.WordPiece(unk_token="[UNK]"))
t.normalizer = normalizers.BertNormalizer(lowercase=True)
t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
save("wordpiece", t, trainers.WordPieceTrainer(vocab_size=8000, show_progress=False, special_tokens=["[UNK]"]))
t = Tokenizer(models.Unigram())
t.pre_tokenizer = pre_tokenizers.Metaspace()
t.decoder = decoders.Metaspace()
save("unigram", t, trainers.UnigramTrainer(vocab_size=8000, show_progress=False, special_tokens=["<unk>"], unk_token="<unk>"))
t = Tokenizer(models.WordLevel(unk_token="[UNK]"))
t.pre_tokenizer = pre_tokenizers.Whitespace()
save("wordlevel", t, trainers.WordLevelTrainer(vocab_size=8000, show_progress=False, special_tokens=["[UNK]"]))
# Pipelines bpeek runs as the file's own steps.
t = Tokenizer(models.BPE())
t.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Punctuation("contiguous"),
    pre_tokenizers.ByteLevel(add_prefix_space=False), pre_tokenizers.Digits(individual_digits=False),
    pre_tokenizers.Split(Regex("[0-9][0-9][0-9]"), "isolated")])
t.decoder = decoders.ByteLevel()
save("byte-level-falcon-steps", t, trainers.BpeTrainer(vocab_size=8000, show_progress=False,
     initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
t = Tokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##"))
t.normalizer = normalizers.BertNormalizer(lowercase=True)
t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
t.decoder = decoders.WordPiece()
save("char-bpe-bert-steps", t, trainers.BpeTrainer(vocab_size=8000, show_progress=False,
     special_tokens=["[UNK]"], continuing_subword_prefix="##"))
t = Tokenizer(models.Unigram())
t.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")])
t.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()])
t.decoder = decoders.Metaspace()
save("unigram-t5-steps", t, trainers.UnigramTrainer(vocab_size=8000, show_progress=False, special_tokens=["<unk>"], unk_token="<unk>"))
"###;

/// Python that times `encode` on a file, best of rounds: argv = file,
/// text file, rounds; prints the seconds and the ids.
const ENCODE: &str = r#"
import sys, time, json
from tokenizers import Tokenizer
tok = Tokenizer.from_file(sys.argv[1])
text = open(sys.argv[2], encoding="utf-8").read()
best = None
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); ids = tok.encode(text, add_special_tokens=False).ids; d = time.perf_counter() - t
    best = d if best is None else min(best, d)
print(json.dumps({"seconds": best, "ids": ids}))
"#;

pub(super) const KINDS: [&str; 8] = [
    "byte-level-bpe",
    "char-bpe-byte-fallback",
    "wordpiece",
    "unigram",
    "wordlevel",
    "byte-level-falcon-steps",
    "char-bpe-bert-steps",
    "unigram-t5-steps",
];

pub fn hugging_face(o: &Options) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    println!(
        "## Hugging Face files (single thread, best of {} runs)\n",
        o.rounds
    );
    let has = std::process::Command::new(&python)
        .args(["-c", "import tokenizers"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !has {
        println!("Python `tokenizers` is not installed: skipped.\n");
        return;
    }
    let dir = std::env::temp_dir().join(format!("bpeek-bench-hf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (english_name, english) = english(2_000_000);
    let inputs = [
        (format!("{english_name}, 2 MB"), english.clone()),
        ("multilingual, 2 MB".to_string(), multilingual(2_000_000)),
        ("digits, 1 MB".to_string(), digits(1_000_000)),
    ];
    let corpus = dir.join("corpus.txt");
    std::fs::write(&corpus, &english[..english.len().min(1_000_000)]).unwrap();
    let trained = std::process::Command::new(&python)
        .env("TOKENIZERS_PARALLELISM", "false")
        .args(["-c", TRAIN])
        .arg(&corpus)
        .arg(&dir)
        .output();
    if let Ok(out) = &trained
        && !out.status.success()
    {
        println!(
            "training failed: {}\n",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    println!(
        "Files of 8000 tokens trained by `tokenizers` on 1 MB of the English text; each text encoded as one string. MB/s; a ratio above 1 means bpeek is faster.\n"
    );
    println!("| text | kind | bpeek | tokenizers | bpeek / tokenizers | ids |");
    println!("|---|---|---:|---:|---:|---|");
    for kind in KINDS {
        let file = dir.join(format!("{kind}.json"));
        let tok = match bpeek::bpe::formats::load::load(&file.to_string_lossy()) {
            Ok(t) => t,
            Err(e) => {
                println!("| - | {kind} | not read: {e} | | | |");
                continue;
            }
        };
        for (label, text) in &inputs {
            let text_file = dir.join("text.txt");
            std::fs::write(&text_file, text).unwrap();
            let out = std::process::Command::new(&python)
                .env("TOKENIZERS_PARALLELISM", "false")
                .env("RAYON_NUM_THREADS", "1")
                .args(["-c", ENCODE])
                .arg(&file)
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
                "| {label} | {kind} | {ours_speed:.1} | {their_speed:.1} | {:.2} | {} |",
                ours_speed / their_speed,
                if ids == their_ids { "equal" } else { "DIFFER" }
            );
        }
    }
    println!();
    let _ = std::fs::remove_dir_all(&dir);
}
