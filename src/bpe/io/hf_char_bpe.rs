//! Hugging Face `tokenizer.json` files of BPE on characters: Llama 2,
//! Mistral, Phi-3, and any BPE file without a ByteLevel step. The text is
//! normalized (Prepend, Replace, Strip, NFC, NFD, NFKC, NFKD, Lowercase, in a
//! Sequence or alone), cut by a Metaspace pre-tokenizer or not at all, and
//! each word starts as its characters (a character with no token as its
//! `<0xNN>` byte tokens with `byte_fallback`, else the unknown token);
//! merges follow their rank. Decoders: Replace, ByteFallback, Fuse, Strip
//! and Metaspace, in a Sequence or alone.

use crate::bpe::Tokenizer;
use crate::bpe::added::{AddedVocab, Normalizer};
use crate::bpe::char_bpe::{CharBpe, HfModel};
use crate::bpe::hf_text::{DecodeStep, HfText, Metaspace, NormStep};
use crate::bpe::io::import::{added_tokens, vocab_ids};
use crate::bpe::spm::TextStep;
use crate::error::{Error, Result, quoted};
use serde_json::Value;

/// Whether a BPE file is byte-level (a ByteLevel pre-tokenizer or
/// decoder): everything else is BPE on characters.
pub fn is_byte_level(doc: &Value) -> bool {
    fn has_byte_level(v: &Value) -> bool {
        match v {
            Value::Object(o) => {
                o.get("type").and_then(Value::as_str) == Some("ByteLevel")
                    || o.values().any(has_byte_level)
            }
            Value::Array(a) => a.iter().any(has_byte_level),
            _ => false,
        }
    }
    has_byte_level(doc.get("pre_tokenizer").unwrap_or(&Value::Null))
        || has_byte_level(doc.get("decoder").unwrap_or(&Value::Null))
}

fn type_of<'a>(v: &'a Value, path: &str) -> Result<&'a str> {
    v.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(format!("{path}: no \"type\"")))
}

fn unsupported(path: &str, kind: &str, what: &str) -> Error {
    Error::input(format!(
        "{path}: type {} is not supported with BPE on characters ({what})",
        quoted(kind)
    ))
}

fn string_field<'a>(v: &'a Value, path: &str, field: &str) -> Result<&'a str> {
    v.get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(format!("{path}.{field}: expected a string")))
}

/// A Replace step's pattern: only a string pattern is read.
fn replace_pattern(v: &Value, path: &str) -> Result<(String, String)> {
    let pattern = v
        .get("pattern")
        .ok_or_else(|| Error::input(format!("{path}.pattern: missing")))?;
    let Some(from) = pattern.get("String").and_then(Value::as_str) else {
        return Err(Error::input(format!(
            "{path}.pattern: only a String pattern is supported (a Regex pattern is not)"
        )));
    };
    let to = string_field(v, path, "content")?;
    Ok((from.to_string(), to.to_string()))
}

fn normalizer(n: &Value, path: &str, out: &mut Vec<NormStep>) -> Result<()> {
    if n.is_null() {
        return Ok(());
    }
    const WHAT: &str = "bpeek reads Prepend, Replace (a string pattern), Strip, NFC, NFD, NFKC, NFKD and Lowercase, in a Sequence or alone, or none";
    let step = match type_of(n, path)? {
        "Prepend" => NormStep::Prepend(string_field(n, path, "prepend")?.to_string()),
        "Replace" => {
            let (from, to) = replace_pattern(n, path)?;
            NormStep::Replace { from, to }
        }
        "NFC" => NormStep::Unicode(TextStep::Nfc),
        "NFD" => NormStep::Unicode(TextStep::Nfd),
        "NFKC" => NormStep::Unicode(TextStep::Nfkc),
        "NFKD" => NormStep::Unicode(TextStep::Nfkd),
        "Lowercase" => NormStep::Unicode(TextStep::Lowercase),
        "Strip" => {
            let side = |field: &str| n.get(field).and_then(Value::as_bool).unwrap_or(true);
            NormStep::Strip {
                left: side("strip_left"),
                right: side("strip_right"),
            }
        }
        "Sequence" => {
            let list = n
                .get("normalizers")
                .and_then(Value::as_array)
                .ok_or_else(|| Error::input(format!("{path}.normalizers: expected a list")))?;
            for (i, s) in list.iter().enumerate() {
                normalizer(s, &format!("{path}.normalizers[{i}]"), out)?;
            }
            return Ok(());
        }
        other => return Err(unsupported(path, other, WHAT)),
    };
    out.push(step);
    Ok(())
}

/// The replacement character of a Metaspace step.
fn mark(v: &Value, path: &str) -> Result<char> {
    match v.get("replacement") {
        None | Some(Value::Null) => Ok('\u{2581}'),
        Some(Value::String(s)) if s.chars().count() == 1 => Ok(s.chars().next().unwrap_or(' ')),
        Some(other) => Err(Error::input(format!(
            "{path}.replacement: {other} is not one character"
        ))),
    }
}

/// Whether a Metaspace step puts a mark in front.
fn prepends(v: &Value, path: &str) -> Result<bool> {
    match v.get("prepend_scheme") {
        None | Some(Value::Null) => Ok(v
            .get("add_prefix_space")
            .and_then(Value::as_bool)
            .unwrap_or(true)),
        Some(Value::String(s)) if s == "first" || s == "always" => Ok(true),
        Some(Value::String(s)) if s == "never" => Ok(false),
        Some(other) => Err(Error::input(format!(
            "{path}.prepend_scheme: {other} is not \"first\", \"always\" or \"never\""
        ))),
    }
}

fn pre_tokenizer(p: &Value, path: &str) -> Result<Option<Metaspace>> {
    const WHAT: &str = "bpeek reads Metaspace, alone or as the one step of a Sequence, or none";
    if p.is_null() {
        return Ok(None);
    }
    match type_of(p, path)? {
        "Metaspace" => {
            let split = match p.get("split") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(Error::input(format!(
                        "{path}.split: {other} is not true or false"
                    )));
                }
            };
            let first_only = p.get("prepend_scheme").and_then(Value::as_str) == Some("first");
            Ok(Some(Metaspace {
                replacement: mark(p, path)?,
                prepend: prepends(p, path)?,
                first_only,
                split,
            }))
        }
        "Sequence" => match p.get("pretokenizers").and_then(Value::as_array) {
            Some(list) if list.is_empty() => Ok(None),
            Some(list) if list.len() == 1 => {
                pre_tokenizer(&list[0], &format!("{path}.pretokenizers[0]"))
            }
            Some(list) => Err(Error::input(format!(
                "{path}: a Sequence of {} steps is not supported with BPE on characters ({WHAT})",
                list.len()
            ))),
            None => Err(Error::input(format!(
                "{path}.pretokenizers: expected a list"
            ))),
        },
        other => Err(unsupported(path, other, WHAT)),
    }
}

fn decoder(d: &Value, path: &str, out: &mut Vec<DecodeStep>) -> Result<()> {
    if d.is_null() {
        return Ok(());
    }
    const WHAT: &str = "bpeek reads Replace (a string pattern), ByteFallback, Fuse, Strip and Metaspace, in a Sequence or alone, or none";
    let step = match type_of(d, path)? {
        "Replace" => {
            let (from, to) = replace_pattern(d, path)?;
            DecodeStep::Replace { from, to }
        }
        "ByteFallback" => DecodeStep::ByteFallback,
        "Fuse" => DecodeStep::Fuse,
        "Strip" => {
            let content = string_field(d, path, "content")?;
            let mut chars = content.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(Error::input(format!(
                    "{path}.content: {} is not one character",
                    quoted(content)
                )));
            };
            let count = |field: &str| -> Result<usize> {
                d.get(field)
                    .and_then(Value::as_u64)
                    .filter(|&n| n <= 1_000)
                    .map(|n| n as usize)
                    .ok_or_else(|| {
                        Error::input(format!("{path}.{field}: expected a whole number to 1000"))
                    })
            };
            DecodeStep::Strip {
                content: c,
                start: count("start")?,
                stop: count("stop")?,
            }
        }
        "Metaspace" => DecodeStep::Metaspace {
            replacement: mark(d, path)?,
            prepend: prepends(d, path)?,
        },
        "Sequence" => {
            let list = d
                .get("decoders")
                .and_then(Value::as_array)
                .ok_or_else(|| Error::input(format!("{path}.decoders: expected a list")))?;
            for (i, s) in list.iter().enumerate() {
                decoder(s, &format!("{path}.decoders[{i}]"), out)?;
            }
            return Ok(());
        }
        other => return Err(unsupported(path, other, WHAT)),
    };
    out.push(step);
    Ok(())
}

/// A merge written `"LEFT RIGHT"` or `[LEFT, RIGHT]`.
fn merge_pair(m: &Value, i: usize) -> Result<(String, String)> {
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
pub fn hugging_face(name: &str, doc: &Value) -> Result<Tokenizer> {
    let model = doc
        .get("model")
        .ok_or_else(|| Error::input("field 'model' is missing"))?;
    if model.get("dropout").is_some_and(|d| !d.is_null()) {
        return Err(Error::input(
            "model.dropout is not supported: it makes the ids random, and bpeek encodes exactly",
        ));
    }
    for field in ["continuing_subword_prefix", "end_of_word_suffix"] {
        if let Some(v) = model.get(field).and_then(Value::as_str)
            && !v.is_empty()
        {
            return Err(Error::input(format!(
                "model.{field} {} is not supported with BPE on characters (bpeek reads files whose words start as their bare characters)",
                quoted(v)
            )));
        }
    }
    let flag = |field: &str| model.get(field).and_then(Value::as_bool).unwrap_or(false);
    let (byte_fallback, fuse_unk, ignore_merges) = (
        flag("byte_fallback"),
        flag("fuse_unk"),
        flag("ignore_merges"),
    );
    let mut text = HfText::default();
    normalizer(
        doc.get("normalizer").unwrap_or(&Value::Null),
        "normalizer",
        &mut text.normalizer,
    )?;
    text.metaspace = pre_tokenizer(
        doc.get("pre_tokenizer").unwrap_or(&Value::Null),
        "pre_tokenizer",
    )?;
    decoder(
        doc.get("decoder").unwrap_or(&Value::Null),
        "decoder",
        &mut text.decoder,
    )?;

    let vocab_obj = model
        .get("vocab")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input("model.vocab is missing or not an object"))?;
    let vocab = vocab_ids(vocab_obj, "model.vocab")?;
    let added = added_tokens(doc)?;
    let size = vocab
        .values()
        .chain(added.iter().map(|(_, t)| &t.id))
        .map(|&id| id as usize + 1)
        .max()
        .unwrap_or(0);
    let mut texts = vec![String::new(); size];
    for (t, &id) in &vocab {
        texts[id as usize] = t.clone();
    }
    let mut silent = vec![false; size];
    for (place, t) in &added {
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
    let is_byte: Vec<bool> = texts
        .iter()
        .map(|t| byte_fallback && crate::bpe::spm::byte_of_piece(t.as_bytes()).is_some())
        .collect();
    let unk = match model.get("unk_token") {
        None | Some(Value::Null) => None,
        Some(Value::String(u)) => Some(*vocab.get(u).ok_or_else(|| {
            Error::input(format!(
                "model.unk_token {} is not in model.vocab",
                quoted(u)
            ))
        })?),
        Some(other) => {
            return Err(Error::input(format!(
                "model.unk_token: {other} is not a string"
            )));
        }
    };
    let raw = model
        .get("merges")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("model.merges is missing or not a list"))?;
    let merges = raw
        .iter()
        .enumerate()
        .map(|(i, m)| merge_pair(m, i))
        .collect::<Result<Vec<_>>>()?;
    // Special tokens are silent when decoding but are still tokens the
    // model may hold: the model's own table keeps them findable.
    let cbpe = CharBpe::with_pairs(texts, &is_byte, vec![false; size], &merges, "model.merges")?
        .with_silent(silent)
        .with_hf(HfModel {
            text,
            unk,
            fuse_unk,
            ignore_merges,
            byte_fallback,
        });
    let added: Vec<_> = added.into_iter().map(|(_, t)| t).collect();
    Ok(Tokenizer::from_char_bpe(
        name,
        cbpe,
        size,
        (!added.is_empty()).then(|| AddedVocab::new(added, Normalizer::None)),
    ))
}
