//! One walk of a Hugging Face `tokenizer.json`, shared by the four
//! families' readers: the parts of the pipeline found (a missing part is
//! `null`, as the library treats it), the model's family told from its
//! type and steps, and what every family reads alike (the added tokens,
//! the post-processor's template) read and checked once. Each family's
//! reader then takes the walked file and reads only what is its own:
//! byte-level BPE in [`import`](crate::formats::import), BPE on characters
//! in [`hf_char_bpe`](crate::formats::hf_char_bpe), Unigram in
//! [`hf_unigram`](crate::formats::hf_unigram), WordPiece and WordLevel in
//! [`wordpiece`](crate::formats::wordpiece).

use crate::Tokenizer;
use crate::error::{Error, Result, quoted};
use crate::formats::{hf_char_bpe, hf_fields, hf_template, hf_unigram, import, wordpiece};
use crate::normalize::added::AddedToken;
use crate::post::Template;
use serde_json::Value;

/// The model families of Hugging Face files bpeek reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// BPE with a ByteLevel pre-tokenizer or decoder (GPT-2, Llama 3, Qwen).
    ByteLevelBpe,
    /// BPE on characters (Llama 2, Mistral, `</w>` files).
    CharBpe,
    Unigram,
    WordPiece,
    WordLevel,
}

/// A `tokenizer.json` walked once.
#[derive(Debug)]
pub struct HfFile<'a> {
    pub family: Family,
    /// The `model` object.
    pub model: &'a Value,
    pub normalizer: &'a Value,
    pub pre_tokenizer: &'a Value,
    pub decoder: &'a Value,
    /// `added_tokens`, each with where it is listed.
    pub added: Vec<(String, AddedToken)>,
    /// The tokens `post_processor` puts around a text, if it names any.
    pub template: Option<Template>,
}

impl<'a> HfFile<'a> {
    /// Find the parts of `doc` and read what every family shares.
    pub fn walk(doc: &'a Value) -> Result<Self> {
        let model = doc
            .get("model")
            .ok_or_else(|| Error::input("field 'model' is missing"))?;
        let part = |name: &str| doc.get(name).unwrap_or(&Value::Null);
        let (normalizer, pre_tokenizer, decoder) =
            (part("normalizer"), part("pre_tokenizer"), part("decoder"));
        let family = family(model, pre_tokenizer, decoder)?;
        Ok(HfFile {
            family,
            model,
            normalizer,
            pre_tokenizer,
            decoder,
            added: hf_fields::added_tokens(doc)?,
            template: hf_template::template(part("post_processor")),
        })
    }

    /// The pipeline part called `name` (`normalizer`, `pre_tokenizer` or
    /// `decoder`).
    pub fn part(&self, name: &str) -> &'a Value {
        match name {
            "normalizer" => self.normalizer,
            "pre_tokenizer" => self.pre_tokenizer,
            "decoder" => self.decoder,
            _ => &Value::Null,
        }
    }
}

/// A Hugging Face `tokenizer.json` as a tokenizer, its template set.
pub fn read(name: &str, doc: &Value) -> Result<Tokenizer> {
    let mut file = HfFile::walk(doc)?;
    let template = file.template.take();
    let mut tok = match file.family {
        Family::ByteLevelBpe => import::byte_level_bpe(name, file),
        Family::CharBpe => hf_char_bpe::hugging_face(name, file),
        Family::Unigram => hf_unigram::hugging_face(name, file),
        Family::WordPiece | Family::WordLevel => wordpiece::hugging_face(name, file),
    }?;
    if let Some(t) = template {
        tok.set_template(t);
    }
    if let Some(rules) = crate::post::length::LengthRules::read(doc)? {
        tok.set_length_rules(rules);
    }
    Ok(tok)
}

/// The family `model.type` names (BPE when it names none), BPE told apart
/// by whether a ByteLevel step writes its bytes.
fn family(model: &Value, pre_tokenizer: &Value, decoder: &Value) -> Result<Family> {
    Ok(
        match model.get("type").and_then(Value::as_str).unwrap_or("BPE") {
            "WordPiece" => Family::WordPiece,
            "WordLevel" => Family::WordLevel,
            "Unigram" => Family::Unigram,
            "BPE" if has_byte_level(pre_tokenizer) || has_byte_level(decoder) => {
                Family::ByteLevelBpe
            }
            "BPE" => Family::CharBpe,
            kind => {
                return Err(Error::input(format!(
                    "model.type {} is not supported: bpeek reads BPE (byte-level or on characters), WordPiece, WordLevel and Unigram",
                    quoted(kind)
                )));
            }
        },
    )
}

/// Whether a pipeline part is a ByteLevel step or a Sequence holding one.
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
