//! `bpeek fertility`: what texts cost in tokens under several tokenizers.

use crate::cli::args::{FertilityArgs, FertilityFormat};
use crate::cli::input::{read_file, read_stdin};
use bpeek_core::Tokenizer;
use bpeek_core::corpora;
use bpeek_core::display::token_visible;
use bpeek_core::error::{Error, Result};
use bpeek_core::fertility::{self, Row};
use bpeek_core::fertility_report;
use bpeek_core::formats::load;
use serde_json::{Value, json};

pub const DEFAULT_TOKENIZERS: &[&str] = &["bytes", "gpt2", "cl100k", "o200k"];

pub fn run(args: &FertilityArgs) -> Result<()> {
    let specs: Vec<String> = if args.tokenizers.is_empty() {
        DEFAULT_TOKENIZERS.iter().map(|s| s.to_string()).collect()
    } else {
        args.tokenizers.clone()
    };
    let tokenizers = specs
        .iter()
        .map(|s| load::load(s))
        .collect::<Result<Vec<Tokenizer>>>()?;
    let (texts, english) = texts(args)?;
    let mut rows = Vec::new();
    for tok in &tokenizers {
        for (label, text) in &texts {
            let mut row = tok.watched(|| fertility::measure(tok, label, text))?;
            if args.add_special_tokens {
                // The model's own count: the tokens around the text too.
                row.tokens = tok
                    .encode_for_model(text.as_bytes(), false, true)
                    .map_err(|e| e.context(tok.name()))?
                    .len();
            }
            rows.push(row);
        }
    }
    if let Some(en) = &english {
        fertility_report::add_premiums(&mut rows, en, args.samples);
    }

    let mixed = texts
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if args.format == FertilityFormat::Csv && (args.scripts || args.numbers) {
        return Err(Error::input(
            "--format csv: CSV holds the cost table only; give --scripts and --numbers with --format json or text",
        ));
    }
    match args.format {
        FertilityFormat::Json => {
            let kinds: Vec<&Tokenizer> = tokenizers.iter().collect();
            let mut out = fertility_report::json(&kinds, &rows);
            if args.scripts {
                out["scripts"] = scripts_json(&tokenizers, &mixed);
            }
            if args.numbers {
                out["numbers"] = numbers_json(&tokenizers);
            }
            bpeek_core::outln!("{out}");
        }
        FertilityFormat::Csv => bpeek_core::output::emit(&fertility_report::csv(&rows))?,
        FertilityFormat::Text => {
            bpeek_core::output::emit(&table(&rows, &texts))?;
            bpeek_core::output::emit(&kinds_text(&tokenizers))?;
            if args.scripts {
                bpeek_core::output::emit(&scripts_text(&tokenizers, &mixed))?;
            }
            if args.numbers {
                bpeek_core::output::emit(&numbers_text(&tokenizers))?;
            }
        }
    }
    Ok(())
}

/// A text with the label it is reported under.
type Labelled = (String, String);

/// The texts to measure, each with a label, and the label of the English
/// text premiums are measured against (if any).
fn texts(args: &FertilityArgs) -> Result<(Vec<Labelled>, Option<String>)> {
    let utf8 = |name: &str, bytes: Vec<u8>| {
        String::from_utf8(bytes).map_err(|e| {
            Error::input(format!(
                "{name}: not UTF-8 text (byte offset {})",
                e.utf8_error().valid_up_to()
            ))
        })
    };
    let mut texts = Vec::new();
    let mut english = None;
    if args.samples {
        for s in corpora::SAMPLES {
            texts.push((s.code.to_string(), s.text.to_string()));
        }
        english = Some("en".to_string());
    }
    match (&args.text, &args.file) {
        (Some(t), None) if t == "-" => texts.push(("stdin".into(), utf8("stdin", read_stdin()?)?)),
        (Some(t), None) => {
            crate::cli::note_text_names_a_file("fertility", "measures", t);
            texts.push(("text".into(), t.clone()))
        }
        (None, Some(f)) => {
            let name = f.display().to_string();
            texts.push((name.clone(), utf8(&name, read_file(f)?)?));
        }
        (None, None) if args.samples => {}
        (None, None) => {
            return Err(Error::input(
                "fertility: give TEXT, --file F, - for stdin, or --samples",
            ));
        }
        _ => unreachable!("clap keeps TEXT and --file apart"),
    }
    if let Some(f) = &args.english {
        let name = format!("english:{}", f.display());
        texts.insert(
            0,
            (name.clone(), utf8(&f.display().to_string(), read_file(f)?)?),
        );
        english = Some(name);
    }
    Ok((texts, english))
}

fn kinds_text(tokenizers: &[Tokenizer]) -> String {
    let w = tokenizers
        .iter()
        .map(|t| t.name().chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("\n");
    for t in tokenizers {
        out += &format!(
            "{:<w$}  {}, {} ids\n",
            t.name(),
            t.kind_detail(),
            t.vocab_size()
        );
    }
    out
}

fn fmt(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.2}"))
}

/// The table, one block per text, with a bar of bytes per token.
fn table(rows: &[Row], texts: &[Labelled]) -> String {
    const BAR: usize = 24;
    let widest = rows
        .iter()
        .filter_map(Row::bytes_per_token)
        .fold(0.0, f64::max);
    let name_w = rows
        .iter()
        .map(|r| r.tokenizer.chars().count())
        .max()
        .unwrap_or(9)
        .max(9);
    // A text's name is a sample's code or a file's path: shown whole, as
    // wide as the widest, so that two files are never told apart by a cut.
    let text_w = texts
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:<name_w$} {:<text_w$} {:>6} {:>6} {:>5} {:>6} {:>6} {:>6} {:>8} {:>7}  bytes per token\n",
        "tokenizer",
        "text",
        "bytes",
        "chars",
        "words",
        "tokens",
        "B/tok",
        "ch/tok",
        "tok/word",
        "premium"
    );
    for (label, _) in texts {
        for r in rows.iter().filter(|r| &r.text == label) {
            let bar = r.bytes_per_token().map_or(0, |b| {
                ((b / widest.max(1e-9)) * BAR as f64).round() as usize
            });
            // Unknown characters and dropped bytes make a text look cheap:
            // the row says so instead of drawing its bar.
            let tail = match r.unknown_share() {
                Some(share) => format!(
                    "*{} of {} tokens are unknown ({:.0}%)",
                    r.unknown,
                    r.tokens,
                    share * 100.0
                ),
                None if r.dropped > 0 => format!(
                    "*{} of {} bytes dropped (no token for them)",
                    r.dropped, r.bytes
                ),
                None => "#".repeat(bar),
            };
            out += &format!(
                "{:<name_w$} {:<text_w$} {:>6} {:>6} {:>5} {:>6} {:>6} {:>6} {:>8} {:>7}  {}\n",
                r.tokenizer,
                r.text,
                r.bytes,
                r.chars,
                r.words,
                r.tokens,
                fmt(r.bytes_per_token()),
                fmt(r.chars_per_token()),
                fmt(r.tokens_per_word()),
                fmt(r.premium),
                tail
            );
        }
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(['~']).collect()
    }
}

/// How many words of `text` are in `script` (see
/// [`bpeek_core::script::word_scripts`]).
fn words_in(words: &[bpeek_core::script::Script], script: bpeek_core::script::Script) -> usize {
    words.iter().filter(|&&w| w == script).count()
}

fn scripts_json(tokenizers: &[Tokenizer], text: &str) -> Value {
    let words = bpeek_core::script::word_scripts(text);
    let mut out = Vec::new();
    for tok in tokenizers {
        for s in fertility::script_shares(tok, text) {
            out.push(json!({
                "tokenizer": tok.name(),
                "script": s.script.name(),
                "words": words_in(&words, s.script),
                "bytes": s.bytes,
                "tokens": s.tokens,
                "bytes_per_token": fertility_report::number(s.bytes_per_token()),
            }));
        }
    }
    Value::Array(out)
}

fn scripts_text(tokenizers: &[Tokenizer], text: &str) -> String {
    let mut out = String::from("\nbytes per token by script\n");
    let shares: Vec<_> = tokenizers
        .iter()
        .map(|t| fertility::script_shares(t, text))
        .collect();
    let Some(first) = shares.iter().find(|s| !s.is_empty()) else {
        return out;
    };
    let words = bpeek_core::script::word_scripts(text);
    out += &format!("{:<22} {:>5}", "script", "words");
    for t in tokenizers {
        out += &format!(" {:>9}", truncate(t.name(), 9));
    }
    out += "\n";
    for (i, share) in first.iter().enumerate() {
        out += &format!(
            "{:<22} {:>5}",
            share.script.name(),
            words_in(&words, share.script)
        );
        for s in &shares {
            out += &format!(
                " {:>9}",
                s.get(i).map_or("-".into(), |x| fmt(x.bytes_per_token()))
            );
        }
        out += "\n";
    }
    // How words are counted, wrapped for an 80-column terminal.
    let mut line = String::from("words:");
    for w in bpeek_core::script::WORD_RULE.split(' ') {
        if line.chars().count() + 1 + w.chars().count() > 78 {
            out += &line;
            out += "\n";
            line = format!("  {w}");
        } else {
            line += " ";
            line += w;
        }
    }
    out += &line;
    out += "\n";
    out
}

fn numbers_json(tokenizers: &[Tokenizer]) -> Value {
    let mut out = Vec::new();
    for n in fertility::number_examples() {
        for tok in tokenizers {
            let pieces: Vec<String> = fertility::pieces(tok, &n)
                .iter()
                .map(|p| token_visible(p))
                .collect();
            out.push(json!({"tokenizer": tok.name(), "number": n, "tokens": pieces.len(), "pieces": pieces}));
        }
    }
    Value::Array(out)
}

fn numbers_text(tokenizers: &[Tokenizer]) -> String {
    let mut out = String::from("\nhow numbers are cut (| marks a token boundary)\n");
    for n in fertility::number_examples() {
        out += &format!("{n}\n");
        for tok in tokenizers {
            let pieces: Vec<String> = fertility::pieces(tok, &n)
                .iter()
                .map(|p| token_visible(p))
                .collect();
            out += &format!(
                "  {:<10} {:>2}  {}\n",
                truncate(tok.name(), 10),
                pieces.len(),
                pieces.join("|")
            );
        }
    }
    out
}
