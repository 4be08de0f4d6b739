//! A Hugging Face repository's `tokenizer_config.json` (and
//! `chat_template.jinja`), read beside its tokenizer file: the chat
//! template, the special tokens' texts the template is given (`bos_token`,
//! `eos_token`, ...), `add_bos_token` / `add_eos_token`, and the added
//! tokens of `added_tokens_decoder`.
//!
//! A `tokenizer.json` carries its own added tokens and post-processor, and
//! those win (as `tokenizers` reads the file); the config's are applied to
//! the files that carry none (`tokenizer.model`, `vocab.txt`, `tekken.json`).

use crate::TokenId;
use crate::encoder::{ChatTemplate, Tokenizer};
use crate::error::{Error, Result};
use crate::formats::files::read_text;
use crate::formats::limits::json_error;
use crate::post::Template;
use serde_json::Value;
use std::path::Path;

/// The names of the special tokens a chat template may use.
const TOKEN_NAMES: [&str; 7] = [
    "bos_token",
    "eos_token",
    "unk_token",
    "pad_token",
    "sep_token",
    "cls_token",
    "mask_token",
];

/// What a repository's config says about its tokenizer.
#[derive(Debug, Clone, Default)]
pub struct TokenizerConfig {
    /// The chat template and the file it came from.
    pub chat_template: Option<(String, String)>,
    /// `bos_token`, `eos_token`, ... with their texts.
    pub tokens: Vec<(String, String)>,
    pub add_bos: Option<bool>,
    pub add_eos: Option<bool>,
    /// `added_tokens_decoder`: id, text, and whether it is special.
    pub added: Vec<(TokenId, String, bool)>,
}

/// The config in `folder`, if it has one (a `chat_template.jinja` alone
/// is a config with only a template).
pub fn read(folder: &Path) -> Result<Option<TokenizerConfig>> {
    let file = folder.join("tokenizer_config.json");
    let mut config = if file.is_file() {
        let text = read_text(&file)?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| json_error(&e).context(file.display()))?;
        parse(&doc).map_err(|e| e.context(file.display()))?
    } else {
        TokenizerConfig::default()
    };
    // The template saved in a file of its own, as `transformers` now
    // saves it, is the one it loads.
    let jinja = folder.join("chat_template.jinja");
    if jinja.is_file() {
        config.chat_template = Some((jinja.display().to_string(), read_text(&jinja)?));
    } else if let Some((_, source)) = config.chat_template.take() {
        config.chat_template = Some((file.display().to_string(), source));
    }
    let found = file.is_file() || config.chat_template.is_some();
    Ok(found.then_some(config))
}

/// Read a parsed `tokenizer_config.json`; errors name the field.
pub fn parse(doc: &Value) -> Result<TokenizerConfig> {
    let Some(obj) = doc.as_object() else {
        return Err(Error::input("not a JSON object"));
    };
    let mut config = TokenizerConfig {
        chat_template: chat_template(obj.get("chat_template"))?.map(|t| (String::new(), t)),
        ..TokenizerConfig::default()
    };
    for name in TOKEN_NAMES {
        if let Some(text) = token_text(obj.get(name)).map_err(|e| e.context(name))? {
            config.tokens.push((name.to_string(), text));
        }
    }
    config.add_bos = flag(obj, "add_bos_token")?;
    config.add_eos = flag(obj, "add_eos_token")?;
    if let Some(added) = obj.get("added_tokens_decoder") {
        config.added = added_tokens(added).map_err(|e| e.context("added_tokens_decoder"))?;
    }
    Ok(config)
}

/// `chat_template`: a string, or a list of named templates of which
/// `default` is the one used.
fn chat_template(value: Option<&Value>) -> Result<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Array(list)) => {
            for item in list {
                let name = item.get("name").and_then(Value::as_str);
                let template = item.get("template").and_then(Value::as_str);
                match (name, template) {
                    (Some("default"), Some(t)) => return Ok(Some(t.to_string())),
                    (Some(_), Some(_)) => {}
                    _ => {
                        return Err(Error::input(
                            "chat_template: each named template needs a name and a template",
                        ));
                    }
                }
            }
            Ok(None)
        }
        Some(_) => Err(Error::input(
            "chat_template: a string or a list of {name, template} is needed",
        )),
    }
}

/// A special token's text: a string, or an added-token object's `content`.
fn token_text(value: Option<&Value>) -> Result<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Object(o)) => match o.get("content") {
            Some(Value::String(s)) => Ok(Some(s.clone())),
            _ => Err(Error::input("an object without a content string")),
        },
        Some(_) => Err(Error::input("a string or {\"content\": ...} is needed")),
    }
}

fn flag(obj: &serde_json::Map<String, Value>, key: &str) -> Result<Option<bool>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(Error::input(format!("{key}: true or false is needed"))),
    }
}

/// `{"ID": {"content": ..., "special": ...}, ...}`, sorted by id.
fn added_tokens(value: &Value) -> Result<Vec<(TokenId, String, bool)>> {
    let Some(obj) = value.as_object() else {
        return Err(Error::input("an object of ids is needed"));
    };
    let mut out = Vec::with_capacity(obj.len());
    for (id, token) in obj {
        let id: TokenId = id
            .parse()
            .map_err(|_| Error::input(format!("{id}: not an id")))?;
        let text = token_text(Some(token))
            .map_err(|e| e.context(id))?
            .unwrap_or_default();
        let special = token
            .get("special")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        out.push((id, text, special));
    }
    out.sort_by_key(|t| t.0);
    Ok(out)
}

/// `tok` with what `config` adds: its chat template always; its added
/// tokens and BOS/EOS only for a tokenizer file that has none of its own
/// (`own_extras` false).
pub fn apply(mut tok: Tokenizer, config: &TokenizerConfig, own_extras: bool) -> Result<Tokenizer> {
    if let Some((origin, source)) = &config.chat_template {
        let chat = ChatTemplate::new(source.clone(), origin.clone(), config.tokens.clone())?;
        tok.set_chat(chat);
    }
    if own_extras {
        return Ok(tok);
    }
    tok = add_tokens(tok, &config.added)?;
    if config.add_bos.is_some() || config.add_eos.is_some() {
        let id_of = |name: &str| -> Result<Option<TokenId>> {
            let Some((_, text)) = config.tokens.iter().find(|(n, _)| n == name) else {
                return Ok(None);
            };
            piece_id(&tok, text).map(Some).ok_or_else(|| {
                Error::input(format!("{name} {text:?} is not a token of the tokenizer"))
            })
        };
        let before = match config.add_bos {
            Some(true) => id_of("bos_token")?.into_iter().collect(),
            _ => Vec::new(),
        };
        let after = match config.add_eos {
            Some(true) => id_of("eos_token")?.into_iter().collect(),
            _ => Vec::new(),
        };
        tok.set_template(Template::Around { before, after });
    }
    Ok(tok)
}

/// The added tokens: those the vocabulary has already become special at
/// their id; new ones must follow the vocabulary's last id in order.
fn add_tokens(mut tok: Tokenizer, added: &[(TokenId, String, bool)]) -> Result<Tokenizer> {
    if added.is_empty() {
        return Ok(tok);
    }
    for (id, text, _) in added {
        if text.is_empty() {
            continue;
        }
        if (*id as usize) < tok.vocab_size() && tok.bytes_of(*id) == text.as_bytes() {
            tok.add_special_at(text, *id);
        } else if *id as usize == tok.id_limit() {
            tok = tok.with_specials(std::slice::from_ref(text));
        } else {
            return Err(Error::input(format!(
                "added_tokens_decoder: {id} {text:?} is neither the tokenizer's token {id} nor the next id ({})",
                tok.id_limit()
            )));
        }
    }
    Ok(tok)
}

/// The id whose token is exactly `text`, if there is one.
fn piece_id(tok: &Tokenizer, text: &str) -> Option<TokenId> {
    if let Some(s) = tok.specials().iter().find(|s| s.text == text) {
        return Some(s.id);
    }
    (0..tok.vocab_size() as TokenId).find(|&id| tok.bytes_of(id) == text.as_bytes())
}
