//! Mistral's Tekken files (`tekken.json`): tiktoken-style ranks written out
//! in JSON, with the pre-tokenizer's pattern and the special tokens beside
//! them. They are read as mistral-common's `Tekkenizer` reads them, so the
//! ids are the ones `Tekkenizer.encode(text, bos=False, eos=False)` gives:
//!
//! - the special tokens come first: ids `0..default_num_special_tokens`.
//!   The file's `special_tokens` take the first ids and the rest are
//!   filled with `<SPECIAL_{id}>`; a file of version v7 or older without
//!   the list has the twenty tokens mistral-common gives such files.
//! - the ordinary tokens follow, rank `r` as id `r + default_num_special_tokens`,
//!   and only the first `default_vocab_size - default_num_special_tokens`
//!   of them are used (the rest of `vocab` is not read).
//! - text is cut by `config.pattern` and each piece merged by rank.
//!
//! Special tokens are ordinary text when encoding unless `--allow-special`
//! is given, as with tiktoken's own files.

use crate::encoder::{SpecialToken, Tokenizer};
use crate::error::{Error, Result, quoted};
use crate::formats::limits::{self, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::pretokenize::pretok::Pretok;
use crate::pretokenize::regex_split::RegexChain;
use base64::Engine;
use serde_json::Value;

/// The special tokens mistral-common gives a file of version v7 or older
/// that lists none, in id order.
const OLD_SPECIAL_TOKENS: [&str; 20] = [
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
];

/// The newest version whose files may leave `special_tokens` out.
const LAST_VERSION_WITHOUT_SPECIALS: u32 = 7;

/// Whether a JSON document is a Tekken file: an object with `config` and
/// `vocab` and no Hugging Face `model`. A broken one is still taken for
/// one, so that its error says what is wrong with it.
pub fn is_tekken(doc: &Value) -> bool {
    doc.get("config").is_some() && doc.get("vocab").is_some() && doc.get("model").is_none()
}

/// The sizes in `config` that place the ids.
struct Sizes {
    /// Every id: special and ordinary.
    vocab_size: usize,
    /// The ids before the first ordinary token.
    num_special: usize,
}

/// Read a Tekken file; `name` is the tokenizer's name. Errors name the
/// field (`config.pattern`, `vocab[12].token_bytes`).
pub fn read(name: &str, doc: &Value) -> Result<Tokenizer> {
    let config = doc
        .get("config")
        .filter(|c| c.is_object())
        .ok_or_else(|| Error::input("config is not an object"))?;
    let pattern = config
        .get("pattern")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input("config.pattern is missing or not a string"))?;
    let version = version(config)?;
    let sizes = sizes(config)?;
    let vocab = doc
        .get("vocab")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("vocab is not a list"))?;
    let ordinary = sizes.vocab_size - sizes.num_special;
    if ordinary > vocab.len() {
        return Err(Error::input(format!(
            "config.default_vocab_size {} needs {ordinary} ordinary tokens after the {} special ones, but vocab has {}",
            sizes.vocab_size,
            sizes.num_special,
            vocab.len()
        )));
    }
    let specials = specials(doc.get("special_tokens"), version, sizes.num_special)?;
    let mut tokens = vec![Vec::new(); sizes.num_special];
    tokens.extend(ordinary_tokens(&vocab[..ordinary])?);
    let mut tok = Tokenizer::from_ranks(name, tokens, Pretok::None, specials)?;
    tok.set_split(RegexChain::new("config.pattern", &[pattern])?);
    Ok(tok)
}

/// `config.version` (`v3`, `v13`) as its number.
fn version(config: &Value) -> Result<u32> {
    let text = config
        .get("version")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input("config.version is missing or not a string (e.g. \"v3\")"))?;
    text.strip_prefix('v')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            Error::input(format!(
                "config.version {} is not a version such as \"v3\" or \"v13\"",
                quoted(text)
            ))
        })
}

/// `config.default_vocab_size` and `config.default_num_special_tokens`,
/// checked against each other and against the largest id bpeek takes.
fn sizes(config: &Value) -> Result<Sizes> {
    let number = |field: &str| {
        config
            .get(field)
            .and_then(Value::as_u64)
            .ok_or_else(|| Error::input(format!("config.{field} is missing or not a whole number")))
    };
    let vocab_size = number("default_vocab_size")?;
    let num_special = number("default_num_special_tokens")?;
    if vocab_size == 0 {
        return Err(Error::input("config.default_vocab_size is 0"));
    }
    limits::id(vocab_size - 1, || "config.default_vocab_size".to_string())?;
    if num_special > vocab_size {
        return Err(Error::input(format!(
            "config.default_num_special_tokens {num_special} is more than config.default_vocab_size {vocab_size}"
        )));
    }
    Ok(Sizes {
        vocab_size: vocab_size as usize,
        num_special: num_special as usize,
    })
}

/// The special tokens, ids `0..num_special`: the file's list, then
/// `<SPECIAL_{id}>` for the ids it leaves.
fn specials(list: Option<&Value>, version: u32, num_special: usize) -> Result<Vec<SpecialToken>> {
    let mut texts: Vec<String> = match list {
        None | Some(Value::Null) if version <= LAST_VERSION_WITHOUT_SPECIALS => {
            OLD_SPECIAL_TOKENS.iter().map(|s| s.to_string()).collect()
        }
        None | Some(Value::Null) => {
            return Err(Error::input(format!(
                "special_tokens is missing: a file of version v{version} must list its special tokens"
            )));
        }
        Some(Value::Array(items)) => listed_specials(items)?,
        Some(_) => return Err(Error::input("special_tokens is not a list")),
    };
    if texts.len() > num_special {
        return Err(Error::input(format!(
            "special_tokens has {} tokens, more than config.default_num_special_tokens {num_special}",
            texts.len()
        )));
    }
    let listed = texts.len();
    texts.extend((listed..num_special).map(|id| format!("<SPECIAL_{id}>")));
    let mut seen = rustc_hash::FxHashSet::default();
    for (id, text) in texts.iter().enumerate() {
        if !seen.insert(text.as_str()) {
            return Err(Error::input(format!(
                "special_tokens: {} is given twice (again for id {id})",
                quoted(text)
            )));
        }
    }
    Ok(texts
        .into_iter()
        .enumerate()
        .map(|(id, text)| SpecialToken {
            text,
            id: id as u32,
        })
        .collect())
}

/// The texts of the file's `special_tokens`, each of whose `rank` must be
/// its place in the list: mistral-common finds a special token's text by
/// its place and its id by its rank, so only then do the two agree.
fn listed_specials(items: &[Value]) -> Result<Vec<String>> {
    let mut texts = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let text = item
            .get("token_str")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                Error::input(format!(
                    "special_tokens[{i}].token_str is missing, empty or not a string"
                ))
            })?;
        match item.get("rank").and_then(Value::as_u64) {
            Some(rank) if rank == i as u64 => {}
            Some(rank) => {
                return Err(Error::input(format!(
                    "special_tokens[{i}].rank is {rank}, but special tokens are numbered by their place in the list ({i})"
                )));
            }
            None => {
                return Err(Error::input(format!(
                    "special_tokens[{i}].rank is missing or not a whole number"
                )));
            }
        }
        texts.push(text.to_string());
    }
    Ok(texts)
}

/// The bytes of each ordinary token, in rank order. Each entry's `rank`
/// must be its place, and the first 256 must be the single bytes in order,
/// as mistral-common requires.
fn ordinary_tokens(entries: &[Value]) -> Result<Vec<Vec<u8>>> {
    let mut budget = VocabBudget::default();
    let mut tokens = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let place = || format!("vocab[{i}]");
        match entry.get("rank").and_then(Value::as_u64) {
            Some(rank) if rank == i as u64 => {}
            Some(rank) => {
                return Err(Error::input(format!(
                    "vocab[{i}].rank is {rank}: the vocabulary must list ranks in order, from 0"
                )));
            }
            None => {
                return Err(Error::input(format!(
                    "vocab[{i}].rank is missing or not a whole number"
                )));
            }
        }
        let b64 = entry
            .get("token_bytes")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Error::input(format!("vocab[{i}].token_bytes is missing or not a string"))
            })?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| Error::input(format!("vocab[{i}].token_bytes: bad base64 ({e})")))?;
        if i < 256 && bytes != [i as u8] {
            return Err(Error::input(format!(
                "vocab[{i}]: the first 256 tokens must be the bytes 0-255 in order, but this one is {}",
                quoted(&crate::display::token_text(&bytes))
            )));
        }
        if bytes.is_empty() {
            return Err(Error::input(format!("vocab[{i}].token_bytes is empty")));
        }
        budget.add(bytes.len(), MAX_IMPORTED_TOKEN_BYTES, place)?;
        tokens.push(bytes);
    }
    Ok(tokens)
}
