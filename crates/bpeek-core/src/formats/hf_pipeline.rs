//! Reading the text pipeline of a Hugging Face `tokenizer.json` (its
//! `normalizer`, `pre_tokenizer` and `decoder`) into [`HfText`] steps. Every
//! refusal names the field and says what is read.

use crate::error::{Error, Result, quoted};
use crate::formats::hf_file::HfFile;
use crate::formats::regex_check::compile_oniguruma as compile;
use crate::normalize::added::{AddedToken, Normalizer};
use crate::normalize::bert_text::BertNormalizer;
use crate::normalize::text_step::TextStep;
use crate::pretokenize::hf_pretok::{Behavior, CharClass, Metaspace, Pattern, PreStep};
use crate::pretokenize::hf_text::{DecodeStep, HfText, NormStep};
use serde_json::Value;

const NORMALIZERS: &str = "bpeek reads NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Replace, Prepend, BertNormalizer and Precompiled, in a Sequence or alone, or none";
const PRE_TOKENIZERS: &str = "bpeek reads Metaspace, Whitespace, WhitespaceSplit, BertPreTokenizer, Punctuation, Digits, CharDelimiterSplit, Split, UnicodeScripts, FixedLength and (with byte-level BPE) ByteLevel, in a Sequence or alone, or none";

const DECODERS: &str = "bpeek reads Replace, ByteFallback, Fuse, Strip, Metaspace, BPEDecoder, WordPiece and CTC, in a Sequence or alone, or none";

/// The whole pipeline of `doc`; `model` names the model in refusals
/// (`BPE on characters`).
pub fn read(file: &HfFile, model: &str) -> Result<HfText> {
    let mut text = read_text(file, model)?;
    text.decoder = read_decoder(file, model)?;
    Ok(text)
}

/// The decoder `d` (found at `path`) as steps.
pub fn decoder_steps(d: &Value, path: &str, model: &str) -> Result<Vec<DecodeStep>> {
    let mut steps = Vec::new();
    decoder(d, path, model, &mut steps)?;
    // A decoder with no steps (an empty `Sequence`) still joins the
    // tokens with nothing between them; only no decoder joins with spaces.
    if steps.is_empty() && !d.is_null() {
        steps.push(DecodeStep::Fuse);
    }
    Ok(steps)
}

/// The decoder of `doc` as steps (none for no decoder).
pub fn read_decoder(file: &HfFile, model: &str) -> Result<Vec<DecodeStep>> {
    decoder_steps(file.decoder, "decoder", model)
}

/// The normalizer and pre-tokenizer of `doc`, for a model that decodes on
/// its own.
pub fn read_text(file: &HfFile, model: &str) -> Result<HfText> {
    let mut text = HfText::default();
    let field = |f: &str| file.part(f);
    normalizer(
        field("normalizer"),
        "normalizer",
        model,
        &mut text.normalizer,
    )?;
    pre_tokenizer(
        field("pre_tokenizer"),
        "pre_tokenizer",
        model,
        &mut text.pre_tokenizer,
    )?;
    Ok(text)
}

/// How added tokens see the normalizer: where one of them is matched in
/// normalized text (`"normalized": true`) the library normalizes the text
/// between the other added tokens first, so the steps move from the
/// pipeline to the added tokens; otherwise the pipeline keeps them (and
/// traces every byte to the input).
pub fn added_normalizer(text: &mut HfText, added: &[AddedToken]) -> Normalizer {
    if text.normalizer.is_empty() || !added.iter().any(|t| t.normalized) {
        return Normalizer::None;
    }
    let steps = HfText {
        normalizer: std::mem::take(&mut text.normalizer),
        ..HfText::default()
    };
    Normalizer::Steps(std::sync::Arc::new(steps))
}

fn type_of<'a>(v: &'a Value, path: &str) -> Result<&'a str> {
    v.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(format!("{path}: no \"type\"")))
}

fn unsupported(path: &str, kind: &str, model: &str, what: &str) -> Error {
    Error::input(format!(
        "{path}: type {} is not supported with {model} ({what})",
        quoted(kind)
    ))
}

fn string_field<'a>(v: &'a Value, path: &str, field: &str) -> Result<&'a str> {
    v.get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(format!("{path}.{field}: expected a string")))
}

fn bool_field(v: &Value, path: &str, field: &str, default: bool) -> Result<bool> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(Error::input(format!(
            "{path}.{field}: {other} is not true or false"
        ))),
    }
}

fn list<'a>(v: &'a Value, path: &str, field: &str) -> Result<&'a Vec<Value>> {
    v.get(field)
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input(format!("{path}.{field}: expected a list")))
}

/// A `pattern` field: `{"String": ...}` or `{"Regex": ...}`.
fn pattern(v: &Value, path: &str) -> Result<Pattern> {
    let p = v
        .get("pattern")
        .ok_or_else(|| Error::input(format!("{path}.pattern: missing")))?;
    if let Some(s) = p.get("String").and_then(Value::as_str) {
        return Ok(Pattern::Literal(s.to_string()));
    }
    if let Some(r) = p.get("Regex").and_then(Value::as_str) {
        return Ok(Pattern::Regex(Box::new(compile(
            r,
            &format!("{path}.pattern.Regex"),
        )?)));
    }
    Err(Error::input(format!(
        "{path}.pattern: expected {{\"String\": ...}} or {{\"Regex\": ...}}"
    )))
}

/// `BertNormalizer`'s flags; `strip_accents` null follows `lowercase`.
pub fn bert_normalizer(n: &Value, path: &str) -> Result<BertNormalizer> {
    let flag = |field: &str| -> Result<Option<bool>> {
        match n.get(field) {
            None => Ok(Some(true)),
            Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(Error::input(format!(
                "{path}.{field}: {other} is not true, false or null"
            ))),
        }
    };
    let lowercase = flag("lowercase")?.unwrap_or(true);
    let strip = match n.get("strip_accents") {
        None | Some(Value::Null) => lowercase,
        _ => flag("strip_accents")?.unwrap_or(lowercase),
    };
    Ok(BertNormalizer {
        clean_text: flag("clean_text")?.unwrap_or(true),
        handle_chinese_chars: flag("handle_chinese_chars")?.unwrap_or(true),
        strip_accents: strip,
        lowercase,
    })
}

fn normalizer(n: &Value, path: &str, model: &str, out: &mut Vec<NormStep>) -> Result<()> {
    if n.is_null() {
        return Ok(());
    }
    let step = match type_of(n, path)? {
        "Prepend" => NormStep::Prepend(string_field(n, path, "prepend")?.to_string()),
        "Replace" => {
            let to = string_field(n, path, "content")?.to_string();
            match pattern(n, path)? {
                Pattern::Regex(from) => NormStep::ReplaceRegex { from, to },
                Pattern::Literal(from) => NormStep::Replace { from, to },
                _ => unreachable!("a pattern field is a string or a regex"),
            }
        }
        "NFC" => NormStep::Unicode(TextStep::Nfc),
        "NFD" => NormStep::Unicode(TextStep::Nfd),
        "NFKC" => NormStep::Unicode(TextStep::Nfkc),
        "NFKD" => NormStep::Unicode(TextStep::Nfkd),
        "Lowercase" => NormStep::Unicode(TextStep::Lowercase),
        "StripAccents" => NormStep::StripAccents,
        "BertNormalizer" => NormStep::Bert(bert_normalizer(n, path)?),
        "Precompiled" => match charsmap(n, path)? {
            Some(map) => NormStep::Precompiled(map),
            None => return Ok(()),
        },
        "Strip" => NormStep::Strip {
            left: bool_field(n, path, "strip_left", true)?,
            right: bool_field(n, path, "strip_right", true)?,
        },
        "Sequence" => {
            for (i, s) in list(n, path, "normalizers")?.iter().enumerate() {
                normalizer(s, &format!("{path}.normalizers[{i}]"), model, out)?;
            }
            return Ok(());
        }
        other => return Err(unsupported(path, other, model, NORMALIZERS)),
    };
    out.push(step);
    Ok(())
}

/// A `Precompiled` step's character map (none when it is empty).
fn charsmap(
    n: &Value,
    path: &str,
) -> Result<Option<std::sync::Arc<crate::models::spm::normalize::Normalizer>>> {
    use base64::Engine;
    let text = n
        .get("precompiled_charsmap")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Error::input(format!("{path}.precompiled_charsmap: expected base64 text"))
        })?;
    let blob = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| Error::input(format!("{path}.precompiled_charsmap: {e}")))?;
    if blob.is_empty() {
        return Ok(None);
    }
    let field = format!("{path}.precompiled_charsmap");
    let map = crate::models::spm::normalize::CharsMap::parse(&blob, &field)?;
    Ok(Some(std::sync::Arc::new(
        crate::models::spm::normalize::Normalizer {
            map: Some(map),
            user: None,
            add_dummy_prefix: false,
            remove_extra_whitespaces: false,
            escape_whitespaces: false,
            treat_whitespace_as_suffix: false,
            prefix_unless_space: false,
        },
    )))
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
        None | Some(Value::Null) => bool_field(v, path, "add_prefix_space", true),
        Some(Value::String(s)) if s == "first" || s == "always" => Ok(true),
        Some(Value::String(s)) if s == "never" => Ok(false),
        Some(other) => Err(Error::input(format!(
            "{path}.prepend_scheme: {other} is not \"first\", \"always\" or \"never\""
        ))),
    }
}

fn behavior(v: &Value, path: &str, default: Behavior) -> Result<Behavior> {
    match v.get("behavior") {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Behavior::from_name(s).ok_or_else(|| {
            Error::input(format!(
                "{path}.behavior: {} is not Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous",
                quoted(s)
            ))
        }),
        Some(other) => Err(Error::input(format!(
            "{path}.behavior: {other} is not a string"
        ))),
    }
}

fn pre_tokenizer(p: &Value, path: &str, model: &str, out: &mut Vec<PreStep>) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    let step = match type_of(p, path)? {
        "Metaspace" => PreStep::Metaspace(Metaspace {
            replacement: mark(p, path)?,
            prepend: prepends(p, path)?,
            first_only: p.get("prepend_scheme").and_then(Value::as_str) == Some("first"),
            split: bool_field(p, path, "split", true)?,
        }),
        "Whitespace" => PreStep::whitespace(),
        "WhitespaceSplit" => PreStep::at(CharClass::Whitespace, Behavior::Removed),
        "BertPreTokenizer" => {
            out.push(PreStep::at(CharClass::Whitespace, Behavior::Removed));
            PreStep::at(CharClass::Punctuation, Behavior::Isolated)
        }
        "Punctuation" => PreStep::at(
            CharClass::Punctuation,
            behavior(p, path, Behavior::Isolated)?,
        ),
        "Digits" => PreStep::at(
            CharClass::Numeric,
            if bool_field(p, path, "individual_digits", false)? {
                Behavior::Isolated
            } else {
                Behavior::Contiguous
            },
        ),
        "CharDelimiterSplit" => {
            let d = string_field(p, path, "delimiter")?;
            let mut chars = d.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(Error::input(format!(
                    "{path}.delimiter: {} is not one character",
                    quoted(d)
                )));
            };
            PreStep::at(CharClass::One(c), Behavior::Removed)
        }
        "Split" => PreStep::Split {
            pattern: pattern(p, path)?,
            behavior: behavior(p, path, Behavior::Isolated)?,
            invert: bool_field(p, path, "invert", false)?,
        },
        "UnicodeScripts" => PreStep::Scripts,
        "FixedLength" => PreStep::FixedLength(match p.get("length") {
            None | Some(Value::Null) => 5,
            Some(v) => v
                .as_u64()
                .filter(|&n| (1..=u32::MAX as u64).contains(&n))
                .ok_or_else(|| {
                    Error::input(format!(
                        "{path}.length: {v} is not a length above 0 (the library cannot cut by 0)"
                    ))
                })? as usize,
        }),
        "ByteLevel" => PreStep::ByteLevel {
            add_prefix_space: bool_field(p, path, "add_prefix_space", true)?,
            regex: if bool_field(p, path, "use_regex", true)? {
                Some(Pattern::Gpt2)
            } else {
                None
            },
        },
        "Sequence" => {
            for (i, s) in list(p, path, "pretokenizers")?.iter().enumerate() {
                pre_tokenizer(s, &format!("{path}.pretokenizers[{i}]"), model, out)?;
            }
            return Ok(());
        }
        other => return Err(unsupported(path, other, model, PRE_TOKENIZERS)),
    };
    out.push(step);
    Ok(())
}

/// The string `d.field`, `default` when missing.
fn string_or(d: &Value, path: &str, field: &str, default: &str) -> Result<String> {
    match d.get(field) {
        None | Some(Value::Null) => Ok(default.to_string()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(Error::input(format!(
            "{path}.{field}: {other} is not a string"
        ))),
    }
}

/// The steps of the decoder `d` (found at `path`) added to `out`, as they
/// are: nothing for no decoder or an empty `Sequence`.
pub(crate) fn decoder(d: &Value, path: &str, model: &str, out: &mut Vec<DecodeStep>) -> Result<()> {
    if d.is_null() {
        return Ok(());
    }
    let step = match type_of(d, path)? {
        "Replace" => match pattern(d, path)? {
            Pattern::Literal(from) => DecodeStep::Replace {
                from,
                to: string_field(d, path, "content")?.to_string(),
            },
            _ => {
                return Err(Error::input(format!(
                    "{path}.pattern: only a String pattern is read in a decoder (a Regex one is not)"
                )));
            }
        },
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
        "BPEDecoder" => DecodeStep::WordEnds {
            suffix: d
                .get("suffix")
                .and_then(Value::as_str)
                .unwrap_or("</w>")
                .to_string(),
        },
        "WordPiece" => DecodeStep::WordPiece {
            prefix: d
                .get("prefix")
                .and_then(Value::as_str)
                .unwrap_or("##")
                .to_string(),
            cleanup: bool_field(d, path, "cleanup", true)?,
        },
        "CTC" => DecodeStep::Ctc {
            pad: string_or(d, path, "pad_token", "<pad>")?,
            delimiter: string_or(d, path, "word_delimiter_token", "|")?,
            cleanup: bool_field(d, path, "cleanup", true)?,
        },
        "Sequence" => {
            for (i, s) in list(d, path, "decoders")?.iter().enumerate() {
                decoder(s, &format!("{path}.decoders[{i}]"), model, out)?;
            }
            return Ok(());
        }
        other => return Err(unsupported(path, other, model, DECODERS)),
    };
    out.push(step);
    Ok(())
}
