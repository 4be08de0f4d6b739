//! The cost table of `bpeek fertility` as JSON and CSV: one writer for the
//! command line and the explorer's fertility view (`W`), so a table saved
//! in the explorer is what the command prints for the same texts and
//! tokenizers.

use crate::corpora;
use crate::encoder::Tokenizer;
use crate::fertility::{self, Row};
use serde_json::{Value, json};

/// The columns of a row, in the order JSON and CSV give them.
const COLUMNS: [&str; 12] = [
    "tokenizer",
    "text",
    "bytes",
    "chars",
    "words",
    "tokens",
    "unknown",
    "dropped_bytes",
    "bytes_per_token",
    "chars_per_token",
    "tokens_per_word",
    "premium",
];

/// Fill in the premiums against the text labelled `english`. Among the
/// bundled samples (`samples`), only translations of the English passage
/// (and a text given as English) have one.
pub fn add_premiums(rows: &mut [Row], english: &str, samples: bool) {
    fertility::add_premiums(rows, english);
    if !samples {
        return;
    }
    let parallel: Vec<&str> = corpora::parallel_samples().iter().map(|s| s.code).collect();
    for r in rows.iter_mut() {
        if !parallel.contains(&r.text.as_str()) && !r.text.starts_with("english:") {
            r.premium = None;
        }
    }
}

/// A ratio to four decimals, as the report gives it.
fn rounded(x: Option<f64>) -> Option<f64> {
    x.map(|v| (v * 10000.0).round() / 10000.0)
}

/// A ratio as a JSON number to four decimals, null where there is none.
pub fn number(x: Option<f64>) -> Value {
    rounded(x).map_or(Value::Null, |v| json!(v))
}

/// What a tokenizer is: its kind and how many ids it has.
fn kind_json(tok: &Tokenizer) -> Value {
    json!({"name": tok.name(), "kind": tok.kind_detail(), "ids": tok.vocab_size()})
}

fn row_json(r: &Row) -> Value {
    json!({
        "tokenizer": r.tokenizer,
        "text": r.text,
        "bytes": r.bytes,
        "chars": r.chars,
        "words": r.words,
        "tokens": r.tokens,
        "unknown": r.unknown,
        "dropped_bytes": r.dropped,
        "bytes_per_token": number(r.bytes_per_token()),
        "chars_per_token": number(r.chars_per_token()),
        "tokens_per_word": number(r.tokens_per_word()),
        "premium": number(r.premium),
    })
}

/// The report as one JSON object: the tokenizers, then every row.
pub fn json(tokenizers: &[&Tokenizer], rows: &[Row]) -> Value {
    json!({
        "tokenizers": tokenizers.iter().map(|t| kind_json(t)).collect::<Vec<_>>(),
        "rows": rows.iter().map(row_json).collect::<Vec<_>>(),
    })
}

/// A CSV field, quoted when it holds a comma, a quote or a line break
/// (RFC 4180).
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A ratio as a CSV field: the JSON's number, empty where JSON has null.
fn ratio_field(x: Option<f64>) -> String {
    rounded(x).map_or_else(String::new, |v| json!(v).to_string())
}

/// The rows as CSV, a header line first, the columns JSON's.
pub fn csv(rows: &[Row]) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for r in rows {
        let fields = [
            field(&r.tokenizer),
            field(&r.text),
            r.bytes.to_string(),
            r.chars.to_string(),
            r.words.to_string(),
            r.tokens.to_string(),
            r.unknown.to_string(),
            r.dropped.to_string(),
            ratio_field(r.bytes_per_token()),
            ratio_field(r.chars_per_token()),
            ratio_field(r.tokens_per_word()),
            ratio_field(r.premium),
        ];
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_would_break_a_field_and_leaves_no_ratio_empty_but_missing_ones() {
        let row = Row {
            tokenizer: "a,b".into(),
            text: "say \"hi\"".into(),
            bytes: 3,
            chars: 3,
            words: 0,
            tokens: 2,
            unknown: 0,
            dropped: 0,
            premium: None,
        };
        assert_eq!(
            csv(&[row]),
            "tokenizer,text,bytes,chars,words,tokens,unknown,dropped_bytes,bytes_per_token,chars_per_token,tokens_per_word,premium\n\
             \"a,b\",\"say \"\"hi\"\"\",3,3,0,2,0,0,1.5,1.5,,\n"
        );
    }
}
