//! bpeek's tokenizer file: versioned JSON holding the mode, pre-tokenizer,
//! tie rule, merges in rank order with their counts, and special tokens.
//!
//! ```json
//! { "format": "bpeek-tokenizer", "version": 1, "mode": "byte",
//!   "pretok": "gpt2", "tie": "first",
//!   "merges": [ { "pair": [112, 108], "token": "pl", "count": 9, "replacements": 9 } ],
//!   "special_tokens": [ { "text": "<|endoftext|>", "id": 257 } ] }
//! ```
//!
//! Pairs are ids in both modes. A char-mode file also lists its `alphabet`
//! (ids 2, 3, ... in order; 0 is `[UNK]` and 1 is `</w>`).

use crate::bpe::TokenId;
use crate::bpe::display::token_text;
use crate::bpe::encoder::{SpecialToken, Tokenizer};
use crate::bpe::names::{Mode, TieRule};
use crate::bpe::pretok::{Chunker, Digits, Pretok};
use crate::bpe::trainer::Merge;
use crate::bpe::vocab::Vocab;
use crate::error::{Error, Result};
use serde::Deserialize;
use serde_json::{Value, json};

pub const FORMAT: &str = "bpeek-tokenizer";
pub const VERSION: u64 = 1;

/// The tokenizer as a JSON value, ready to write.
pub fn to_json(tok: &Tokenizer) -> Value {
    let merges: Vec<Value> = tok
        .merges()
        .iter()
        .map(|m| {
            json!({
                "pair": [m.pair.0, m.pair.1],
                "token": token_text(tok.vocab().token_bytes(m.id)),
                "count": m.count,
                "replacements": m.replacements,
            })
        })
        .collect();
    let specials: Vec<Value> = tok
        .specials()
        .iter()
        .map(|s| json!({"text": s.text, "id": s.id}))
        .collect();
    let mut v = json!({
        "format": FORMAT,
        "version": VERSION,
        "mode": tok.mode().name(),
        "pretok": tok.pretok().name(),
        "digits": tok.chunker().digits.name(),
        "tie": tok.tie().name(),
    });
    if tok.mode() == Mode::Char {
        let alphabet: Vec<String> = tok
            .vocab()
            .alphabet()
            .iter()
            .map(|c| c.to_string())
            .collect();
        v["alphabet"] = json!(alphabet);
    }
    v["merges"] = Value::Array(merges);
    v["special_tokens"] = Value::Array(specials);
    v
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    // Checked before parsing (to name a wrong version first); listed so
    // that `deny_unknown_fields` accepts them.
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u64,

    mode: String,
    pretok: String,
    tie: String,
    #[serde(default)]
    digits: Option<String>,
    #[serde(default)]
    alphabet: Option<Vec<String>>,
    merges: Vec<RawMerge>,
    #[serde(default)]
    special_tokens: Vec<RawSpecial>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMerge {
    pair: [u64; 2],
    // Written for readers of the file; the ids in `pair` are what counts.
    #[allow(dead_code)]
    #[serde(default)]
    token: Option<String>,

    #[serde(default)]
    count: u64,
    #[serde(default)]
    replacements: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpecial {
    text: String,
    id: u64,
}

/// Whether a parsed JSON document claims to be a bpeek tokenizer.
pub fn is_bpeek_tokenizer(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some(FORMAT)
}

/// Read a tokenizer from JSON text. Errors name the field or merge index.
pub fn from_json_str(text: &str) -> Result<Tokenizer> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| Error::input(format!("malformed JSON: {e}")))?;
    from_json(value)
}

pub fn from_json(value: Value) -> Result<Tokenizer> {
    match value.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(Error::input(format!(
                "field 'format': expected '{FORMAT}', found '{other}'"
            )));
        }
        None => {
            return Err(Error::input(format!(
                "field 'format' is missing (expected '{FORMAT}')"
            )));
        }
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(Error::input(format!(
                "field 'version': unsupported version {v} (this bpeek reads version {VERSION})"
            )));
        }
        None => return Err(Error::input("field 'version' is missing or not a number")),
    }
    let raw: RawFile = serde_json::from_value(value).map_err(|e| Error::input(e.to_string()))?;
    let mode = Mode::parse(&raw.mode).map_err(|e| e.context("field 'mode'"))?;
    let pretok = Pretok::parse(&raw.pretok).map_err(|e| e.context("field 'pretok'"))?;
    let tie = TieRule::parse(&raw.tie).map_err(|e| e.context("field 'tie'"))?;
    let digits = match &raw.digits {
        Some(d) => Digits::parse(d).map_err(|e| e.context("field 'digits'"))?,
        None => Digits::Keep,
    };
    let mut vocab = match mode {
        Mode::Byte => {
            if raw.alphabet.is_some() {
                return Err(Error::input(
                    "field 'alphabet': only char-mode tokenizers have one",
                ));
            }
            Vocab::bytes()
        }
        Mode::Char => {
            let Some(alphabet) = raw.alphabet else {
                return Err(Error::input(
                    "field 'alphabet' is missing (a char-mode tokenizer needs it)",
                ));
            };
            let mut chars = Vec::with_capacity(alphabet.len());
            for (i, s) in alphabet.iter().enumerate() {
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) if !chars.contains(&c) => chars.push(c),
                    _ => {
                        return Err(Error::input(format!(
                            "alphabet[{i}]: expected one character not listed before, found {s:?}"
                        )));
                    }
                }
            }
            let vocab = Vocab::chars(chars.iter().copied());
            if vocab.alphabet() != chars {
                return Err(Error::input(
                    "field 'alphabet': characters must be in code point order",
                ));
            }
            vocab
        }
    };
    let mut merges = Vec::with_capacity(raw.merges.len());
    for (rank, m) in raw.merges.iter().enumerate() {
        let defined = vocab.len() as u64;
        for (side, id) in [("left", m.pair[0]), ("right", m.pair[1])] {
            if id >= defined || !vocab.contains(id as TokenId) {
                return Err(Error::input(format!(
                    "merges[{rank}].pair: {side} id {id} is not defined yet (merge {rank} may only use ids 0-{})",
                    defined - 1
                )));
            }
        }
        let pair = (m.pair[0] as TokenId, m.pair[1] as TokenId);
        if merges.iter().any(|x: &Merge| x.pair == pair) {
            return Err(Error::input(format!(
                "merges[{rank}].pair: [{}, {}] is already merged by an earlier rank",
                pair.0, pair.1
            )));
        }
        let id = vocab.push_merge(pair);
        merges.push(Merge {
            rank,
            pair,
            id,
            count: m.count,
            replacements: m.replacements,
        });
    }
    let mut specials = Vec::new();
    for (i, s) in raw.special_tokens.iter().enumerate() {
        if s.id < vocab.len() as u64 || s.id > TokenId::MAX as u64 {
            return Err(Error::input(format!(
                "special_tokens[{i}].id: {} collides with the ordinary ids 0-{}",
                s.id,
                vocab.len() - 1
            )));
        }
        if s.text.is_empty() {
            return Err(Error::input(format!("special_tokens[{i}].text is empty")));
        }
        if specials
            .iter()
            .any(|x: &SpecialToken| x.id as u64 == s.id || x.text == s.text)
        {
            return Err(Error::input(format!(
                "special_tokens[{i}]: duplicate text or id"
            )));
        }
        specials.push(SpecialToken {
            text: s.text.clone(),
            id: s.id as TokenId,
        });
    }
    let mut tok = Tokenizer::from_training(vocab, Chunker::new(pretok, digits), tie, merges);
    tok.set_specials(specials);
    Ok(tok)
}
