//! Timing one tokenizer file in a Python library on every text, batch and
//! one string, in a single Python process per library and file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Python that times a library on texts: argv = library, file, rounds,
/// threads, text files. For each text prints one JSON line: the best
/// seconds of the batch call on its lines and of the call on the whole
/// text, and both answers' ids (the batch's flattened, with each line's
/// count), or `{"error"}`.
const RUN: &str = r#"
import sys, json, time
lib, model, rounds, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    if lib == "sentencepiece":
        import sentencepiece as s
        sp = s.SentencePieceProcessor(model_file=model)
        batch = lambda lines: sp.encode(lines, num_threads=threads)
        one = lambda text: sp.encode(text)
        ids_of = lambda answer: answer
    elif lib == "tokenizers":
        from tokenizers import Tokenizer
        tok = Tokenizer.from_file(model)
        batch = lambda lines: tok.encode_batch(lines, add_special_tokens=False)
        one = lambda text: tok.encode(text, add_special_tokens=False).ids
        ids_of = lambda answer: [e.ids for e in answer]
    elif lib == "kitoken":
        from kitoken import Kitoken
        if model.endswith(".model"):
            k = Kitoken.from_sentencepiece_file(model)
        else:
            k = Kitoken.from_tokenizers_file(model)
        batch = lambda lines: k.encode_all(lines, False)
        one = lambda text: k.encode(text, False)
        ids_of = lambda answer: answer
    else:
        raise ValueError("no library " + lib)
except Exception as e:
    print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)

def best(f, arg):
    fastest, answer = None, None
    for _ in range(rounds):
        t = time.perf_counter(); answer = f(arg); d = time.perf_counter() - t
        fastest = d if fastest is None else min(fastest, d)
    return fastest, answer

for path in sys.argv[5:]:
    # newline="": the text as it is; lines split as bpeek splits them.
    text = open(path, encoding="utf-8", newline="").read()
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()
    lines = [l[:-1] if l.endswith("\r") else l for l in lines]
    try:
        b, answer = best(batch, lines)
        per_line = ids_of(answer)
        o, whole = best(one, text)
        print(json.dumps({"batch": b, "one": o, "lens": [len(x) for x in per_line],
                          "ids": [i for x in per_line for i in x], "one_ids": list(whole)}), flush=True)
    except Exception as e:
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)
"#;

/// What a library gave for one text.
pub struct Answer {
    pub batch_seconds: f64,
    pub one_seconds: f64,
    /// Each line's ids.
    pub lines: Vec<Vec<u32>>,
    pub one: Vec<u32>,
}

/// A library run on every text by `python`: each text's answer, or why
/// there is none.
pub fn run(
    python: &Path,
    library: &str,
    file: &Path,
    rounds: usize,
    texts: &[PathBuf],
) -> Vec<Result<Answer, String>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = Command::new(python)
        .env("TOKENIZERS_PARALLELISM", "true")
        .args(["-c", RUN, library])
        .arg(file)
        .arg(rounds.to_string())
        .arg(threads.to_string())
        .args(texts)
        .output();
    let stdout = match out {
        Ok(o) if o.status.success() => o.stdout,
        Ok(o) => return vec![Err(String::from_utf8_lossy(&o.stderr).trim().to_string())],
        Err(e) => return vec![Err(e.to_string())],
    };
    let mut answers: Vec<Result<Answer, String>> = stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(parse)
        .collect();
    if answers.len() == 1 && answers[0].is_err() && texts.len() > 1 {
        let why = answers.pop().and_then(Result::err).unwrap_or_default();
        answers = texts.iter().map(|_| Err(why.clone())).collect();
    }
    answers
}

fn parse(line: &[u8]) -> Result<Answer, String> {
    let v: serde_json::Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    if let Some(e) = v.get("error") {
        return Err(e.as_str().unwrap_or("?").to_string());
    }
    let numbers =
        |key: &str| -> Vec<u32> { serde_json::from_value(v[key].clone()).unwrap_or_default() };
    let (lens, flat) = (numbers("lens"), numbers("ids"));
    let mut lines = Vec::with_capacity(lens.len());
    let mut at = 0;
    for n in lens {
        let end = (at + n as usize).min(flat.len());
        lines.push(flat[at..end].to_vec());
        at = end;
    }
    Ok(Answer {
        batch_seconds: v["batch"].as_f64().unwrap_or(f64::NAN),
        one_seconds: v["one"].as_f64().unwrap_or(f64::NAN),
        lines,
        one: numbers("one_ids"),
    })
}
