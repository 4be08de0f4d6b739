//! Reading tokenizers made elsewhere: tiktoken rank files, GPT-2's
//! `encoder.json` + `vocab.bpe`, and Hugging Face `tokenizer.json` files
//! whose model is byte-level BPE.

use crate::bpe::TokenId;
use crate::bpe::encoder::{SpecialToken, Tokenizer};
use crate::bpe::io::byte_unicode;
use crate::bpe::pretok::{CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, Pretok};
use crate::error::{Error, Result};
use base64::Engine;
use rustc_hash::FxHashMap;
use serde_json::Value;

/// A `.tiktoken` file: one `BASE64 RANK` per line. Rank files carry no
/// pre-tokenizer, so the caller names one.
pub fn tiktoken(name: &str, text: &str, pretok: Pretok) -> Result<Tokenizer> {
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(b64), Some(rank), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(Error::input(format!(
                "line {line_no}: expected 'BASE64 RANK'"
            )));
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| Error::input(format!("line {line_no}: bad base64 ({e})")))?;
        let rank: usize = rank.parse().map_err(|_| {
            Error::input(format!(
                "line {line_no}: rank '{rank}' is not a whole number"
            ))
        })?;
        if rank > 10_000_000 {
            return Err(Error::input(format!(
                "line {line_no}: rank {rank} is implausibly large"
            )));
        }
        if bytes.is_empty() {
            return Err(Error::input(format!("line {line_no}: empty token")));
        }
        if tokens.len() <= rank {
            tokens.resize(rank + 1, Vec::new());
        }
        if !tokens[rank].is_empty() {
            return Err(Error::input(format!(
                "line {line_no}: rank {rank} is given twice"
            )));
        }
        tokens[rank] = bytes;
    }
    if tokens.is_empty() {
        return Err(Error::input("no ranks in the file"));
    }
    Tokenizer::from_ranks(name, tokens, pretok, Vec::new())
}

/// GPT-2's `encoder.json` (token string -> id) and `vocab.bpe` (merges).
pub fn gpt2_files(name: &str, encoder_json: &str, vocab_bpe: &str) -> Result<Tokenizer> {
    let encoder: FxHashMap<String, Value> = serde_json::from_str(encoder_json)
        .map_err(|e| Error::input(format!("encoder.json: malformed JSON: {e}")))?;
    let mut vocab: FxHashMap<String, TokenId> = FxHashMap::default();
    for (token, id) in encoder {
        let Some(id) = id.as_u64().filter(|&i| i < 10_000_000) else {
            return Err(Error::input(format!(
                "encoder.json: the id of {token:?} is not a whole number"
            )));
        };
        vocab.insert(token, id as TokenId);
    }
    let mut merges = Vec::new();
    for (i, line) in vocab_bpe.lines().enumerate() {
        if i == 0 && line.starts_with("#version") || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(' ');
        let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(Error::input(format!(
                "vocab.bpe line {}: expected two tokens separated by a space",
                i + 1
            )));
        };
        merges.push((
            a.to_string(),
            b.to_string(),
            format!("vocab.bpe line {}", i + 1),
        ));
    }
    let specials = take_specials(&mut vocab, |t| t == "<|endoftext|>");
    byte_level(name, vocab, merges, Pretok::Gpt2, specials, false)
}

/// A Hugging Face `tokenizer.json` whose model is byte-level BPE.
pub fn hugging_face(name: &str, doc: &Value) -> Result<Tokenizer> {
    let model = doc
        .get("model")
        .ok_or_else(|| Error::input("field 'model' is missing"))?;
    let kind = model.get("type").and_then(Value::as_str).unwrap_or("BPE");
    if kind != "BPE" {
        return Err(Error::input(format!(
            "model.type '{kind}' is not supported: bpeek reads byte-level BPE (model.type \"BPE\" with a ByteLevel pre-tokenizer)"
        )));
    }
    let pretok = hf_pretok(doc.get("pre_tokenizer").unwrap_or(&Value::Null))?;
    let vocab_obj = model
        .get("vocab")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input("model.vocab is missing or not an object"))?;
    let mut vocab: FxHashMap<String, TokenId> = FxHashMap::default();
    for (token, id) in vocab_obj {
        let Some(id) = id.as_u64().filter(|&i| i < 10_000_000) else {
            return Err(Error::input(format!(
                "model.vocab[{token:?}] is not a whole number"
            )));
        };
        vocab.insert(token.clone(), id as TokenId);
    }
    let raw_merges = model
        .get("merges")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("model.merges is missing or not a list"))?;
    let mut merges = Vec::with_capacity(raw_merges.len());
    for (i, m) in raw_merges.iter().enumerate() {
        let pair = match m {
            Value::String(s) => s
                .split_once(' ')
                .map(|(a, b)| (a.to_string(), b.to_string())),
            Value::Array(v) if v.len() == 2 => match (v[0].as_str(), v[1].as_str()) {
                (Some(a), Some(b)) => Some((a.to_string(), b.to_string())),
                _ => None,
            },
            _ => None,
        };
        let Some((a, b)) = pair else {
            return Err(Error::input(format!(
                "model.merges[{i}]: expected \"LEFT RIGHT\" or [LEFT, RIGHT]"
            )));
        };
        merges.push((a, b, format!("model.merges[{i}]")));
    }
    let special_texts: Vec<String> = doc
        .get("added_tokens")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter(|t| t.get("special").and_then(Value::as_bool).unwrap_or(false))
                .filter_map(|t| t.get("content").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut specials = take_specials(&mut vocab, |t| special_texts.iter().any(|s| s == t));
    // Added special tokens outside model.vocab still have ids of their own.
    if let Some(list) = doc.get("added_tokens").and_then(Value::as_array) {
        for t in list {
            let (Some(text), Some(id)) = (
                t.get("content").and_then(Value::as_str),
                t.get("id").and_then(Value::as_u64),
            ) else {
                continue;
            };
            let special = t.get("special").and_then(Value::as_bool).unwrap_or(false);
            if special && !specials.iter().any(|s| s.text == text) {
                specials.push(SpecialToken {
                    text: text.to_string(),
                    id: id as TokenId,
                });
            }
        }
    }
    let whole = model
        .get("ignore_merges")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    byte_level(name, vocab, merges, pretok, specials, whole)
}

/// The pre-tokenizer a Hugging Face file describes, if bpeek has it.
fn hf_pretok(p: &Value) -> Result<Pretok> {
    let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "ByteLevel" => {
            if p.get("add_prefix_space").and_then(Value::as_bool) == Some(true) {
                return Err(Error::input(
                    "pre_tokenizer: ByteLevel with add_prefix_space is not supported",
                ));
            }
            if p.get("use_regex").and_then(Value::as_bool) == Some(false) {
                return Ok(Pretok::None);
            }
            Ok(Pretok::Gpt2)
        }
        "Sequence" => {
            let steps = p
                .get("pretokenizers")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut pattern = None;
            let mut byte_level = false;
            for step in &steps {
                match step.get("type").and_then(Value::as_str) {
                    Some("Split") => {
                        pattern = step
                            .pointer("/pattern/Regex")
                            .and_then(Value::as_str)
                            .map(str::to_string);
                    }
                    Some("ByteLevel") => {
                        byte_level = true;
                        if step.get("use_regex").and_then(Value::as_bool) != Some(false)
                            && pattern.is_none()
                        {
                            pattern = Some(GPT2_PATTERN.to_string());
                        }
                    }
                    Some(other) => {
                        return Err(Error::input(format!(
                            "pre_tokenizer: step '{other}' is not supported"
                        )));
                    }
                    None => {}
                }
            }
            if !byte_level {
                return Err(Error::input(
                    "pre_tokenizer: not byte-level (no ByteLevel step)",
                ));
            }
            match pattern.as_deref() {
                None => Ok(Pretok::None),
                Some(GPT2_PATTERN) => Ok(Pretok::Gpt2),
                Some(CL100K_PATTERN) => Ok(Pretok::Cl100k),
                Some(O200K_PATTERN) => Ok(Pretok::O200k),
                Some(other) => Err(Error::input(format!(
                    "pre_tokenizer: the split pattern {other:?} is not one bpeek knows (gpt2, cl100k, o200k)"
                ))),
            }
        }
        "" => Err(Error::input(
            "pre_tokenizer is missing: only byte-level BPE is supported",
        )),
        other => Err(Error::input(format!(
            "pre_tokenizer '{other}' is not supported: bpeek reads byte-level BPE (ByteLevel)"
        ))),
    }
}

/// Move the tokens that `is_special` picks out of the vocabulary.
fn take_specials(
    vocab: &mut FxHashMap<String, TokenId>,
    is_special: impl Fn(&str) -> bool,
) -> Vec<SpecialToken> {
    let texts: Vec<String> = vocab.keys().filter(|t| is_special(t)).cloned().collect();
    let mut specials: Vec<SpecialToken> = texts
        .into_iter()
        .map(|t| {
            let id = vocab.remove(&t).unwrap_or_default();
            SpecialToken { text: t, id }
        })
        .collect();
    specials.sort_by_key(|s| s.id);
    specials
}

/// Build a tokenizer from byte-level vocabulary strings and string merges.
fn byte_level(
    name: &str,
    vocab: FxHashMap<String, TokenId>,
    merges: Vec<(String, String, String)>,
    pretok: Pretok,
    specials: Vec<SpecialToken>,
    whole_words: bool,
) -> Result<Tokenizer> {
    let size = vocab.values().map(|&i| i as usize + 1).max().unwrap_or(0);
    let mut tokens = vec![Vec::new(); size];
    for (text, &id) in &vocab {
        let bytes = byte_unicode::decode(text).map_err(|c| {
            Error::input(format!(
                "token {text:?} (id {id}) has {c:?}, which is not a byte-level character"
            ))
        })?;
        if bytes.is_empty() {
            return Err(Error::input(format!("token id {id} is empty")));
        }
        tokens[id as usize] = bytes;
    }
    let mut pairs = Vec::with_capacity(merges.len());
    for (a, b, place) in merges {
        let id = |s: &str| {
            vocab.get(s).copied().ok_or_else(|| {
                Error::input(format!("{place}: token {s:?} is not in the vocabulary"))
            })
        };
        pairs.push((id(&a)?, id(&b)?));
    }
    Tokenizer::from_merge_list(name, tokens, &pairs, pretok, specials, whole_words)
}
