//! `bpeek tokenizers`: every tokenizer the user can name, each read to
//! say its kind and vocabulary size; one that cannot be read says why on
//! its own line and the rest are still listed.

use crate::cli::args::Format;
use bpeek_core::error::Result;
use bpeek_core::formats::catalog::{self, Entry};
use serde_json::json;

/// One listed tokenizer, read.
struct Listed {
    entry: Entry,
    read: std::result::Result<(String, usize), String>,
}

pub fn run(format: Format) -> Result<()> {
    let listed: Vec<Listed> = catalog::entries().into_iter().map(read).collect();
    match format {
        Format::Json => {
            let items: Vec<serde_json::Value> = listed.iter().map(as_json).collect();
            bpeek_core::outln!("{:#}", json!({ "tokenizers": items }));
        }
        Format::Text => {
            let width = listed.iter().map(|l| l.entry.name.len()).max().unwrap_or(0);
            for l in &listed {
                bpeek_core::outln!("{}", text_line(l, width));
            }
        }
    }
    Ok(())
}

/// Read the entry's tokenizer for its kind and vocabulary size.
fn read(entry: Entry) -> Listed {
    let read = match &entry.problem {
        Some(problem) => Err(problem.clone()),
        None => bpeek_core::formats::load::load(&entry.name)
            .map(|t| (t.kind_detail(), t.vocab_size()))
            .map_err(|e| e.to_string()),
    };
    Listed { entry, read }
}

fn as_json(l: &Listed) -> serde_json::Value {
    let mut item = json!({
        "name": l.entry.name,
        "source": l.entry.source.label(),
        "file": l.entry.file.as_ref().map(|f| f.display().to_string()),
    });
    match &l.read {
        Ok((kind, vocab)) => {
            item["kind"] = json!(kind);
            item["vocab_size"] = json!(vocab);
        }
        Err(e) => item["error"] = json!(e),
    }
    item
}

fn text_line(l: &Listed, width: usize) -> String {
    let what = match &l.read {
        Ok((kind, vocab)) => format!("{vocab:>7} ids  {kind}"),
        Err(e) => format!("unreadable: {e}"),
    };
    format!(
        "{:<width$}  {:<8}  {what}",
        l.entry.name,
        l.entry.source.label()
    )
}
