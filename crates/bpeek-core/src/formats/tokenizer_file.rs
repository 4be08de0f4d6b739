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

use crate::TokenId;
use crate::display::token_text;
use crate::encoder::{SpecialToken, Tokenizer};
use crate::error::{Error, Result};
use crate::formats::limits::{self, MAX_TOKEN_BYTES, VocabBudget};
use crate::names::{Mode, TieRule};
use crate::pretokenize::pretok::{Chunker, Digits, Pretok};
use crate::train::trainer::Merge;
use crate::vocab::Vocab;
use rustc_hash::FxHashSet;
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

/// Whether a parsed JSON document claims to be a bpeek tokenizer.
pub fn is_bpeek_tokenizer(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some(FORMAT)
}

/// Read a tokenizer from JSON text (a leading byte-order mark is allowed).
/// Errors name the field or merge index.
pub fn from_json_str(text: &str) -> Result<Tokenizer> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value =
        serde_json::from_str(text).map_err(|e| crate::formats::limits::json_error(&e))?;
    from_json(value)
}

const FIELDS: &[&str] = &[
    "format",
    "version",
    "mode",
    "pretok",
    "tie",
    "digits",
    "alphabet",
    "merges",
    "special_tokens",
];
const MERGE_FIELDS: &[&str] = &["pair", "token", "count", "replacements"];
const SPECIAL_FIELDS: &[&str] = &["text", "id"];

/// The fields of an object, or an error naming `place`; unknown fields are
/// refused so that a misspelt one is not silently ignored.
fn object<'v>(
    v: &'v Value,
    place: &str,
    known: &[&str],
) -> Result<&'v serde_json::Map<String, Value>> {
    let Some(map) = v.as_object() else {
        return Err(Error::input(format!(
            "{place}: expected an object, got {}",
            kind(v)
        )));
    };
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(Error::input(format!(
            "{place}: unknown field {} (known: {})",
            crate::error::quoted(k),
            known.join(", ")
        )));
    }
    Ok(map)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_u64() => "a whole number",
        Value::Number(_) => "a number that is not a whole number 0 or above",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn string<'v>(v: &'v Value, place: &str) -> Result<&'v str> {
    v.as_str()
        .ok_or_else(|| Error::input(format!("{place}: expected a string, got {}", kind(v))))
}

fn whole(v: &Value, place: &str) -> Result<u64> {
    v.as_u64().ok_or_else(|| {
        Error::input(format!(
            "{place}: expected a whole number 0 or above, got {}",
            kind(v)
        ))
    })
}

fn list<'v>(v: &'v Value, place: &str) -> Result<&'v [Value]> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| Error::input(format!("{place}: expected a list, got {}", kind(v))))
}

fn required<'v>(map: &'v serde_json::Map<String, Value>, field: &str) -> Result<&'v Value> {
    map.get(field)
        .ok_or_else(|| Error::input(format!("field '{field}' is missing")))
}

pub fn from_json(value: Value) -> Result<Tokenizer> {
    check_format(&value)?;
    let file = object(&value, "the file", FIELDS)?;
    let mode = Mode::parse(string(required(file, "mode")?, "field 'mode'")?)
        .map_err(|e| e.context("field 'mode'"))?;
    let pretok = Pretok::parse(string(required(file, "pretok")?, "field 'pretok'")?)
        .map_err(|e| e.context("field 'pretok'"))?;
    let tie = TieRule::parse(string(required(file, "tie")?, "field 'tie'")?)
        .map_err(|e| e.context("field 'tie'"))?;
    let digits = match file.get("digits") {
        Some(d) => {
            Digits::parse(string(d, "field 'digits'")?).map_err(|e| e.context("field 'digits'"))?
        }
        None => Digits::Keep,
    };
    let mut vocab = base_vocab(file, mode)?;
    let mut budget = VocabBudget::default();
    for id in 0..vocab.len() as TokenId {
        budget.add(vocab.token_bytes(id).len(), MAX_TOKEN_BYTES, || {
            "the base symbols".into()
        })?;
    }
    let merges = read_merges(file, &mut vocab, &mut budget)?;
    let specials = read_specials(file, &vocab, &mut budget)?;
    let mut tok = Tokenizer::from_training(vocab, Chunker::new(pretok, digits), tie, merges);
    tok.set_specials(specials);
    Ok(tok)
}

type Fields = serde_json::Map<String, Value>;

/// The file says it is bpeek's, in a version this bpeek reads.
fn check_format(value: &Value) -> Result<()> {
    match value.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(Error::input(format!(
                "field 'format': expected '{FORMAT}', found {}",
                crate::error::quoted(other)
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
    Ok(())
}

/// The base symbols: the 256 bytes, or a char-mode file's alphabet.
fn base_vocab(file: &Fields, mode: Mode) -> Result<Vocab> {
    match mode {
        Mode::Byte => {
            if file.contains_key("alphabet") {
                return Err(Error::input(
                    "field 'alphabet': only char-mode tokenizers have one",
                ));
            }
            Ok(Vocab::bytes())
        }
        Mode::Char => {
            let Some(alphabet) = file.get("alphabet") else {
                return Err(Error::input(
                    "field 'alphabet' is missing (a char-mode tokenizer needs it)",
                ));
            };
            let alphabet = list(alphabet, "field 'alphabet'")?;
            let mut chars = Vec::with_capacity(alphabet.len());
            let mut seen = FxHashSet::default();
            for (i, v) in alphabet.iter().enumerate() {
                let s = string(v, &format!("alphabet[{i}]"))?;
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) if seen.insert(c) => chars.push(c),
                    _ => {
                        return Err(Error::input(format!(
                            "alphabet[{i}]: expected one character not listed before, found {}",
                            crate::error::quoted(s)
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
            Ok(vocab)
        }
    }
}

/// The merges in rank order, each pushed onto `vocab` as it is read.
fn read_merges(file: &Fields, vocab: &mut Vocab, budget: &mut VocabBudget) -> Result<Vec<Merge>> {
    let raw_merges = list(required(file, "merges")?, "field 'merges'")?;
    let mut merges = Vec::with_capacity(raw_merges.len());
    let mut merged: FxHashSet<(TokenId, TokenId)> = FxHashSet::default();
    for (rank, m) in raw_merges.iter().enumerate() {
        let place = format!("merges[{rank}]");
        let fields = object(m, &place, MERGE_FIELDS)?;
        let Some(pair) = fields.get("pair") else {
            return Err(Error::input(format!("{place}: field 'pair' is missing")));
        };
        let Some(pair) = pair.as_array() else {
            return Err(Error::input(format!(
                "{place}: expected two ids, got {}",
                kind(pair)
            )));
        };
        if pair.len() != 2 {
            return Err(Error::input(format!(
                "{place}: expected two ids, got {}",
                pair.len()
            )));
        }
        let defined = vocab.len() as u64;
        let mut ids = [0 as TokenId; 2];
        for (k, side) in ["left", "right"].into_iter().enumerate() {
            let id = whole(&pair[k], &format!("{place}.pair[{k}]"))?;
            if id >= defined || !vocab.contains(id as TokenId) {
                return Err(Error::input(format!(
                    "{place}.pair: {side} id {id} is not defined yet (merge {rank} may only use ids 0-{})",
                    defined - 1
                )));
            }
            ids[k] = id as TokenId;
        }
        let pair = (ids[0], ids[1]);
        if !merged.insert(pair) {
            return Err(Error::input(format!(
                "{place}.pair: [{}, {}] is already merged by an earlier rank",
                pair.0, pair.1
            )));
        }
        if let Some(t) = fields.get("token") {
            string(t, &format!("{place}.token"))?;
        }
        let number = |field: &str| match fields.get(field) {
            Some(v) => whole(v, &format!("{place}.{field}")),
            None => Ok(0),
        };
        let (count, replacements) = (number("count")?, number("replacements")?);
        let len = vocab.token_bytes(pair.0).len() + vocab.token_bytes(pair.1).len();
        budget.add(len, MAX_TOKEN_BYTES, || place.clone())?;
        let id = vocab.push_merge(pair);
        merges.push(Merge {
            rank,
            pair,
            id,
            count,
            replacements,
        });
    }
    Ok(merges)
}

/// The special tokens, each with an id above the ordinary ones.
fn read_specials(
    file: &Fields,
    vocab: &Vocab,
    budget: &mut VocabBudget,
) -> Result<Vec<SpecialToken>> {
    let raw_specials = match file.get("special_tokens") {
        Some(v) => list(v, "field 'special_tokens'")?,
        None => &[],
    };
    let mut specials = Vec::new();
    let mut texts = FxHashSet::default();
    let mut ids = FxHashSet::default();
    for (i, s) in raw_specials.iter().enumerate() {
        let place = format!("special_tokens[{i}]");
        let fields = object(s, &place, SPECIAL_FIELDS)?;
        let text = string(
            fields
                .get("text")
                .ok_or_else(|| Error::input(format!("{place}: field 'text' is missing")))?,
            &format!("{place}.text"),
        )?;
        let id = whole(
            fields
                .get("id")
                .ok_or_else(|| Error::input(format!("{place}: field 'id' is missing")))?,
            &format!("{place}.id"),
        )?;
        if text.is_empty() {
            return Err(Error::input(format!("{place}.text is empty")));
        }
        budget.add(text.len(), MAX_TOKEN_BYTES, || place.clone())?;
        if id < vocab.len() as u64 {
            return Err(Error::input(format!(
                "{place}: {text:?} has id {id}, which collides with the ordinary ids 0-{}",
                vocab.len() - 1
            )));
        }
        let id = limits::id(id, || format!("{place}: {text:?}"))?;
        if !texts.insert(text) {
            return Err(Error::input(format!("{place}: {text:?} is listed twice")));
        }
        if !ids.insert(id) {
            return Err(Error::input(format!(
                "{place}: {text:?} has id {id}, which an earlier special token already has"
            )));
        }
        specials.push(SpecialToken {
            text: text.to_string(),
            id,
        });
    }
    Ok(specials)
}
