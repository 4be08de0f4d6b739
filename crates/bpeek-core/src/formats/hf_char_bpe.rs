//! Hugging Face `tokenizer.json` files of BPE on characters: Llama 2,
//! Mistral, Phi-3, and any BPE file without a ByteLevel step. The text
//! goes through the file's normalizer and pre-tokenizer steps
//! ([`hf_pipeline`](crate::formats::hf_pipeline)), each word starts as its
//! characters (with `continuing_subword_prefix` on all but the first and
//! `end_of_word_suffix` on the last; a character with no token as its
//! `<0xNN>` byte tokens with `byte_fallback`, else the unknown token), and
//! merges follow their rank. Ids go back to text through the decoder.

use crate::error::{Error, Result, quoted};
use crate::formats::hf_fields::vocab_ids;
use crate::formats::hf_file::HfFile;
use crate::formats::hf_pipeline;
use crate::models::char_bpe::{CharBpe, HfModel};
use crate::normalize::added::{AddedToken, AddedVocab};
use crate::{TokenId, Tokenizer};
use rustc_hash::FxHashMap;
use serde_json::Value;

/// A merge written `"LEFT RIGHT"` or `[LEFT, RIGHT]`.
pub(crate) fn merge_pair(m: &Value, i: usize) -> Result<(String, String)> {
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
    pair.ok_or_else(|| {
        Error::input(format!(
            "model.merges[{i}]: expected \"LEFT RIGHT\" or [LEFT, RIGHT]"
        ))
    })
}

/// A Hugging Face BPE file on characters.
pub fn hugging_face(name: &str, file: HfFile) -> Result<Tokenizer> {
    let model = file.model;
    let settings = model_settings(model)?;
    let mut text = hf_pipeline::read(&file, "BPE on characters")?;

    let vocab_obj = model
        .get("vocab")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input("model.vocab is missing or not an object"))?;
    let vocab = vocab_ids(vocab_obj, "model.vocab")?;
    let added = file.added;
    let (texts, silent) = token_texts(&vocab, &added)?;
    let size = texts.len();
    let is_byte: Vec<bool> = texts
        .iter()
        .map(|t| {
            settings.byte_fallback && crate::models::spm::byte_of_piece(t.as_bytes()).is_some()
        })
        .collect();
    let unk = unknown_token(model, &vocab)?;
    let merges = merge_list(model)?;
    let tokens: Vec<_> = added.iter().map(|(_, t)| t.clone()).collect();
    let added_normalizer = hf_pipeline::added_normalizer(&mut text, &tokens);
    let decoded_as = tokens
        .iter()
        .filter(|t| t.normalized)
        .map(|t| (t.id, added_normalizer.apply(&t.text).into_owned()))
        .collect();
    // Special tokens are silent when decoding but are still tokens the
    // model may hold: the model's own table keeps them findable.
    let cbpe = CharBpe::with_pairs(
        texts,
        &is_byte,
        vec![false; size],
        &merges,
        settings.prefix.len(),
        "model.merges",
    )?
    .with_silent(silent)
    .with_hf(HfModel {
        text,
        unk,
        fuse_unk: settings.fuse_unk,
        ignore_merges: settings.ignore_merges,
        byte_fallback: settings.byte_fallback,
        prefix: settings.prefix,
        suffix: settings.suffix,
        decoded_as,
    });
    let added: Vec<_> = added.into_iter().map(|(_, t)| t).collect();
    let mut tok = Tokenizer::from_char_bpe(name, cbpe, size, None);
    tok.skip_as_the_library(&added, &added_normalizer);
    Ok(tok.with_added((!added.is_empty()).then(|| AddedVocab::new(added, added_normalizer))))
}

/// The model's settings that shape how a word is cut and merged.
struct ModelSettings {
    prefix: String,
    suffix: String,
    byte_fallback: bool,
    fuse_unk: bool,
    ignore_merges: bool,
}

/// The model's affixes and flags; dropout is refused.
fn model_settings(model: &Value) -> Result<ModelSettings> {
    if model.get("dropout").is_some_and(|d| !d.is_null()) {
        return Err(Error::input(
            "model.dropout is not supported: it makes the ids random, and bpeek encodes exactly",
        ));
    }
    let affix = |field: &str| -> Result<String> {
        match model.get(field) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(Error::input(format!(
                "model.{field}: {other} is not a string"
            ))),
        }
    };
    let (prefix, suffix) = (
        affix("continuing_subword_prefix")?,
        affix("end_of_word_suffix")?,
    );
    let flag = |field: &str| model.get(field).and_then(Value::as_bool).unwrap_or(false);
    Ok(ModelSettings {
        prefix,
        suffix,
        byte_fallback: flag("byte_fallback"),
        fuse_unk: flag("fuse_unk"),
        ignore_merges: flag("ignore_merges"),
    })
}

/// Each id's text, from the vocabulary and the added tokens (which must
/// agree with it), and whether decoding leaves the id out.
fn token_texts(
    vocab: &FxHashMap<String, TokenId>,
    added: &[(String, AddedToken)],
) -> Result<(Vec<String>, Vec<bool>)> {
    let size = vocab
        .values()
        .chain(added.iter().map(|(_, t)| &t.id))
        .map(|&id| id as usize + 1)
        .max()
        .unwrap_or(0);
    let mut texts = vec![String::new(); size];
    for (t, &id) in vocab {
        texts[id as usize] = t.clone();
    }
    let mut silent = vec![false; size];
    for (place, t) in added {
        match vocab.get(&t.text) {
            Some(&own) if own != t.id => {
                return Err(Error::input(format!(
                    "{place}: added token {:?} has id {}, but model.vocab gives it id {own}",
                    t.text, t.id
                )));
            }
            _ => {}
        }
        texts[t.id as usize] = t.text.clone();
        // Decoding leaves special tokens out, as `decode` does by default.
        silent[t.id as usize] = t.special;
    }
    Ok((texts, silent))
}

/// The id of `model.unk_token`, if the model has one.
fn unknown_token(model: &Value, vocab: &FxHashMap<String, TokenId>) -> Result<Option<TokenId>> {
    match model.get("unk_token") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(u)) => Ok(Some(*vocab.get(u).ok_or_else(|| {
            Error::input(format!(
                "model.unk_token {} is not in model.vocab",
                quoted(u)
            ))
        })?)),
        Some(other) => Err(Error::input(format!(
            "model.unk_token: {other} is not a string"
        ))),
    }
}

/// `model.merges` as pairs of token texts, in rank order.
fn merge_list(model: &Value) -> Result<Vec<(String, String)>> {
    let raw = model
        .get("merges")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("model.merges is missing or not a list"))?;
    raw.iter()
        .enumerate()
        .map(|(i, m)| merge_pair(m, i))
        .collect::<Result<Vec<_>>>()
}
