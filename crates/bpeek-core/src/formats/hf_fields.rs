//! The fields every Hugging Face `tokenizer.json` shares whatever its
//! model: the vocabulary's ids and the added tokens with their flags,
//! checked as untrusted input.

use crate::TokenId;
use crate::error::{Error, Result};
use crate::formats::limits::{self, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::normalize::added::AddedToken;
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

/// Token string -> id, checking that every id is a whole number in range and
/// belongs to one token only (a shared id would silently lose a token).
pub fn vocab_ids(
    map: &serde_json::Map<String, Value>,
    place: &str,
) -> Result<FxHashMap<String, TokenId>> {
    let mut vocab: FxHashMap<String, TokenId> = FxHashMap::default();
    let mut owner: FxHashMap<TokenId, &str> = FxHashMap::default();
    let mut budget = VocabBudget::default();
    for (token, id) in map {
        let what = || format!("{place}[{token:?}]");
        let Some(id) = id.as_u64() else {
            return Err(Error::input(format!(
                "{}: the id is not a whole number 0 or above",
                what()
            )));
        };
        let id = limits::id(id, what)?;
        budget.add(token.len(), MAX_IMPORTED_TOKEN_BYTES, what)?;
        if let Some(other) = owner.insert(id, token) {
            return Err(Error::input(format!(
                "{place}: tokens {other:?} and {token:?} both have id {id}"
            )));
        }
        vocab.insert(token.clone(), id);
    }
    Ok(vocab)
}

/// The tokens of `added_tokens`, special or not, with their flags and
/// where each is listed. Two may not share an id or a text.
pub fn added_tokens(doc: &Value) -> Result<Vec<(String, AddedToken)>> {
    let Some(list) = doc.get("added_tokens") else {
        return Ok(Vec::new());
    };
    let Some(list) = list.as_array() else {
        return Err(Error::input("added_tokens: expected a list"));
    };
    let mut out: Vec<(String, AddedToken)> = Vec::with_capacity(list.len());
    // Where each id and each text was first listed: a file may add
    // hundreds of thousands of tokens, so no scan of the list per token.
    let mut by_id: FxHashMap<TokenId, usize> = FxHashMap::default();
    let mut texts: FxHashSet<&str> = FxHashSet::default();
    for (i, t) in list.iter().enumerate() {
        let place = format!("added_tokens[{i}]");
        let special = t.get("special").and_then(Value::as_bool).unwrap_or(false);
        let Some(text) = t.get("content").and_then(Value::as_str) else {
            return Err(Error::input(format!(
                "{place}: field 'content' is missing or not a string"
            )));
        };
        let Some(id) = t.get("id").and_then(Value::as_u64) else {
            return Err(Error::input(format!(
                "{place}: {text:?} has no id that is a whole number 0 or above"
            )));
        };
        let id = limits::id(id, || format!("{place}: {text:?}"))?;
        if text.is_empty() || text.len() > MAX_IMPORTED_TOKEN_BYTES {
            return Err(Error::input(format!(
                "{place}: an added token has 1 to {MAX_IMPORTED_TOKEN_BYTES} bytes, this one {}",
                text.len()
            )));
        }
        if let Some(&first) = by_id.get(&id) {
            return Err(Error::input(format!(
                "{place}: added tokens {:?} and {text:?} both have id {id}",
                out[first].1.text
            )));
        }
        if !texts.insert(text) {
            return Err(Error::input(format!("{place}: {text:?} is listed twice")));
        }
        by_id.insert(id, out.len());
        let flag = |name: &str, default: bool| -> Result<bool> {
            match t.get(name) {
                None => Ok(default),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(Error::input(format!(
                    "{place}: field '{name}' is {other}, not true or false"
                ))),
            }
        };
        let token = AddedToken {
            text: text.to_string(),
            id,
            special,
            single_word: flag("single_word", false)?,
            lstrip: flag("lstrip", false)?,
            rstrip: flag("rstrip", false)?,
            normalized: flag("normalized", !special)?,
        };
        out.push((place, token));
    }
    Ok(out)
}
