//! `bpeek train --compare OPTIONS --compare OPTIONS ...`: configurations
//! trained on one corpus, their merges side by side, the first rank where
//! the lists part, and the merges that only one list has.

use crate::cli::args::{Format, TrainArgs};
use crate::cli::input::{corpus_text, trainer_config, trainer_for_text};
use bpeek_core::display::{token_text, token_visible};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::compare::{MergeBytes, first_difference, merges_as_bytes, only_here};
use bpeek_core::train::trainer::StopReason;
use bpeek_core::{Trainer, TrainerConfig};
use bpeek_tui::options::compare::{configurations, differing};
use serde_json::{Value, json};
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// What one configuration made, its trainer let go.
struct Column {
    /// `A`, `B`, ...
    name: char,
    /// The options in which it differs from the others.
    title: String,
    merges: Vec<MergeBytes>,
    counts: Vec<u64>,
    stop: StopReason,
    tokens_before: u64,
    tokens_after: u64,
}

/// The widest a cell of the text table gets before it is cut.
const CELL_MOST: usize = 30;

pub fn run(args: &TrainArgs) -> Result<()> {
    if !args.training.counts.is_empty() {
        return Err(Error::input(
            "--compare trains on a text: give a corpus, not --counts",
        ));
    }
    let configs = configurations(&args.training, &args.compare)?;
    // Every configuration is checked before the corpus is read.
    for (given, o) in args.compare.iter().zip(&configs) {
        if bpeek_tui::options::compare::is_unigram(o) {
            return Err(Error::input(format!(
                "--compare {}: train compares BPE merge lists; a Unigram column stands beside BPE ones in the explorer (bpeek tui --compare), and bpeek train --model unigram --vocab-size N trains one",
                bpeek_core::error::quoted(given)
            )));
        }
        trainer_config(o)
            .map_err(|e| e.context(format!("--compare {}", bpeek_core::error::quoted(given))))?;
    }
    let (name, text) = corpus_text(&args.training)?;
    let titles = differing(&configs);
    let mut columns = Vec::with_capacity(configs.len());
    for (i, (o, title)) in configs.iter().zip(titles).enumerate() {
        let config = TrainerConfig {
            text_positions: false,
            keep_history: false,
            ..trainer_config(o)?
        };
        let mut trainer = trainer_for_text(o, &name, text.clone(), config)?;
        let tokens_before = trainer.corpus_tokens();
        let stop = trainer.run();
        columns.push(column(
            (b'A' + i as u8) as char,
            title.join(" "),
            &trainer,
            stop,
            tokens_before,
        ));
    }
    let lists: Vec<Vec<MergeBytes>> = columns.iter().map(|c| c.merges.clone()).collect();
    let first = first_difference(&lists);
    let only = only_here(&lists);
    bpeek_core::output::emit_with(false, |out| match args.format {
        Format::Json => write_json(out, &name, text.len(), &columns, first, &only),
        Format::Text => write_text(out, &name, text.len(), &columns, first, &only),
    })
}

fn column(name: char, title: String, t: &Trainer, stop: StopReason, before: u64) -> Column {
    Column {
        name,
        title,
        merges: merges_as_bytes(t, 0),
        counts: t.merges().iter().map(|m| m.count).collect(),
        stop,
        tokens_before: before,
        tokens_after: t.corpus_tokens(),
    }
}

/// A merge as the table writes it: `"t" + "he"`.
fn shown((a, b): &MergeBytes) -> String {
    format!("\"{}\" + \"{}\"", token_visible(a), token_visible(b))
}

/// `s` cut to `most` columns, with `…` where it was cut.
fn cut(s: &str, most: usize) -> String {
    if s.width() <= most {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if out.width() + c.to_string().width() >= most {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(s.width())))
}

/// The first difference in words: `from merge 7 on: A merges "·t" + "he",
/// B merges "e" + "·"`.
fn said(columns: &[Column], first: Option<usize>) -> String {
    match first {
        Some(r) => {
            let each: Vec<String> = columns
                .iter()
                .map(|c| format!("{} merges {}", c.name, shown(&c.merges[r])))
                .collect();
            format!("from merge {r} on: {}", each.join(", "))
        }
        None => {
            let shortest = columns.iter().map(|c| c.merges.len()).min().unwrap_or(0);
            format!("the lists hold the same {shortest} first merges")
        }
    }
}

fn write_text(
    out: &mut dyn Write,
    corpus: &str,
    bytes: usize,
    columns: &[Column],
    first: Option<usize>,
    only: &[Vec<bool>],
) -> std::io::Result<()> {
    writeln!(
        out,
        "corpus {corpus} ({bytes} bytes): {} configurations",
        columns.len()
    )?;
    for c in columns {
        writeln!(out, "  {}  {}", c.name, c.title)?;
    }
    writeln!(out, "{}", said(columns, first))?;
    let cells: Vec<Vec<String>> = columns
        .iter()
        .map(|c| c.merges.iter().map(|m| cut(&shown(m), CELL_MOST)).collect())
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .zip(&cells)
        .map(|(c, cs)| {
            let stop = format!("stopped: {}", c.stop.code());
            cs.iter()
                .map(|s| s.width())
                .chain([1, stop.width()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let mut head = format!("{:>5}  ", "rank");
    for (c, w) in columns.iter().zip(&widths) {
        head.push_str(&pad(&c.name.to_string(), *w));
        head.push_str(&format!(" {:>9}   ", "count"));
    }
    writeln!(out, "{}", head.trim_end())?;
    let longest = columns.iter().map(|c| c.merges.len()).max().unwrap_or(0);
    for r in 0..=longest {
        let mark = if Some(r) == first { '>' } else { ' ' };
        let mut line = format!("{r:>5}{mark} ");
        let mut any = false;
        for (i, (c, w)) in columns.iter().zip(&widths).enumerate() {
            match (cells[i].get(r), c.counts.get(r)) {
                (Some(cell), Some(count)) => {
                    any = true;
                    let alone = only[i].get(r).copied().unwrap_or(false);
                    let star = if alone { '*' } else { ' ' };
                    line.push_str(&pad(cell, *w));
                    line.push_str(&format!(" {count:>9}{star}  "));
                }
                _ if r == c.merges.len() => {
                    any = true;
                    line.push_str(&pad(&format!("stopped: {}", c.stop.code()), *w));
                    line.push_str(&" ".repeat(13));
                }
                _ => line.push_str(&" ".repeat(w + 13)),
            }
        }
        if any {
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    writeln!(
        out,
        "> the first merge where the lists part; * a merge no other list has"
    )?;
    for c in columns {
        writeln!(
            out,
            "{}: {} merge{}, {}; corpus {} tokens -> {} tokens",
            c.name,
            c.merges.len(),
            if c.merges.len() == 1 { "" } else { "s" },
            c.stop,
            c.tokens_before,
            c.tokens_after
        )?;
    }
    Ok(())
}

fn write_json(
    out: &mut dyn Write,
    corpus: &str,
    bytes: usize,
    columns: &[Column],
    first: Option<usize>,
    only: &[Vec<bool>],
) -> std::io::Result<()> {
    let columns_json: Vec<Value> = columns
        .iter()
        .zip(only)
        .map(|(c, only)| {
            json!({
                "name": c.name.to_string(),
                "options": c.title,
                "stop": c.stop.code(),
                "stop_message": c.stop.to_string(),
                "tokens_before": c.tokens_before,
                "tokens_after": c.tokens_after,
                "merges": c.merges.iter().zip(&c.counts).zip(only).enumerate().map(|(r, ((m, count), only))| json!({
                    "rank": r,
                    "pair": [token_text(&m.0), token_text(&m.1)],
                    "bytes": [m.0, m.1],
                    "count": count,
                    "only_here": only,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let first_json = first.map(|r| {
        json!({
            "rank": r,
            "merges": columns.iter().map(|c| json!({
                "column": c.name.to_string(),
                "pair": [token_text(&c.merges[r].0), token_text(&c.merges[r].1)],
            })).collect::<Vec<_>>(),
        })
    });
    let doc = json!({
        "corpus": corpus,
        "corpus_bytes": bytes,
        "columns": columns_json,
        "first_difference": first_json,
        "said": said(columns, first),
    });
    serde_json::to_writer(&mut *out, &doc)?;
    writeln!(out)
}
