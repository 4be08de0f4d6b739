//! `--tokenizer NAME|FILE`: a built-in name, or a file in any format bpeek
//! reads, recognised by its name and content; `LABEL=FILE` gives it the
//! label the screen and the reports show (see [`split_label`]).

use crate::TokenId;
use crate::decode::SpecialDecoding;
use crate::encoder::ChatTemplate;
use crate::encoder::Tokenizer;
use crate::error::{Error, Result};
use crate::formats::files::{read_bytes, read_prefix, read_text};
use crate::formats::limits::{MAX_MODEL_FILE_BYTES, json_error};
use crate::formats::{
    builtin, gguf, gguf_tokenizer, hub_cache, import, ollama, sentencepiece, tokenizer_config,
    tokenizer_file, wordpiece,
};
use crate::models::spm::SpmModel;
use crate::pretokenize::pretok::Pretok;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const SUPPORTED: &str = "a built-in name (bytes, gpt2, cl100k, o200k), bpeek's tokenizer JSON, a Hugging Face \
tokenizer.json with a byte-level BPE model, GPT-2's encoder.json + vocab.bpe (the folder or either file), \
a Hugging Face tokenizer.json with a WordPiece model, BERT's vocab.txt, \
a .tiktoken rank file with its pre-tokenizer (FILE.tiktoken:cl100k), \
a SentencePiece .model file (BPE or Unigram), Mistral's tekken.json, \
or a llama.cpp .gguf file (its tokenizer: llama, gpt2, bert, t5 or gemma4)";

/// `LABEL=FILE` as its label and the tokenizer it names; anything else
/// as no label and itself. The text is split at its first `=` only when it
/// is not itself an existing path and the part before the `=` is not empty
/// and holds no path separator: `runs/a=b/tok.json` and an existing file
/// `x=y.json` are files, `mine=runs/a=b/tok.json` is labelled `mine`.
pub fn split_label(spec: &str) -> (Option<&str>, &str) {
    if std::fs::symlink_metadata(spec).is_ok() {
        return (None, spec);
    }
    match spec.split_once('=') {
        Some((label, file)) if !label.is_empty() && !label.contains(['/', '\\']) => {
            (Some(label), file)
        }
        _ => (None, spec),
    }
}

/// Load the tokenizer `spec` names, under the label it gives, if any.
pub fn load(spec: &str) -> Result<Tokenizer> {
    match split_label(spec) {
        (Some(label), file) => load_unlabelled(file).map(|t| t.with_name(label)),
        (None, file) => load_unlabelled(file),
    }
}

/// [`load`] of a spec without a label.
fn load_unlabelled(spec: &str) -> Result<Tokenizer> {
    if builtin::is_builtin(spec) {
        return builtin::load(spec);
    }
    if spec.trim().is_empty() {
        return Err(Error::input(format!(
            "--tokenizer is empty: give a built-in name ({}) or a file",
            builtin::names().join(", ")
        )));
    }
    let path = Path::new(spec);
    if std::fs::symlink_metadata(path).is_err() {
        return load_by_name(spec);
    }
    if path.is_dir() {
        return load_folder(spec, path);
    }
    if path.file_name().is_some_and(|n| n == "vocab.bpe") {
        let enc = sibling(path, "encoder.json");
        return gpt2_pair(spec, &enc, path);
    }
    // A GGUF model file of any size: only its header and metadata are read.
    if has_extension(path, "gguf") || gguf::is_gguf(&read_prefix(path, 4)?) {
        return gguf_file(spec, path);
    }
    if has_extension(path, "model") {
        let len = std::fs::metadata(path).map_or(0, |m| m.len());
        if len > MAX_MODEL_FILE_BYTES as u64 {
            return Err(Error::input(format!(
                "{spec}: {len} bytes, more than the limit of {} MiB for a model file",
                MAX_MODEL_FILE_BYTES >> 20
            )));
        }
        return sentencepiece_model(spec, &read_bytes(path)?);
    }
    load_file(spec, path)
}

/// A `spec` that is no file: an Ollama model (`ollama:NAME`), a Hugging
/// Face repository in the cache (`ORG/NAME`, `hf:NAME`), or `FILE:PRETOK`.
fn load_by_name(spec: &str) -> Result<Tokenizer> {
    if let Some(name) = ollama::OllamaName::parse(spec) {
        let name = name?;
        let blob = ollama::model_blob(&name)?;
        let label = format!("ollama:{}", name.display());
        return gguf_file(&label, &blob).map(|t| t.with_name(label));
    }
    let hub = hub_cache::HubName::parse(spec);
    if let Some(name) = hub.as_ref().filter(|_| spec.starts_with("hf:")) {
        return load_hub(name);
    }
    if let Some((file, _)) = spec.rsplit_once(':')
        && Path::new(file).is_file()
    {
        return load_rank_file_with_pretok(spec);
    }
    match hub {
        Some(name) => load_hub(&name),
        None => load_rank_file_with_pretok(spec),
    }
}

/// A repository from the Hugging Face cache, named as the user named it.
fn load_hub(name: &hub_cache::HubName) -> Result<Tokenizer> {
    let dir = hub_cache::snapshot(name)?;
    let label = name.display();
    load_snapshot(&label, &dir).map(|t| t.with_name(label))
}

/// A folder of a repository's files: its tokenizer file (the first of
/// [`hub_cache::TOKENIZER_FILES`]), with `tokenizer_config.json` beside it.
fn load_snapshot(spec: &str, dir: &Path) -> Result<Tokenizer> {
    let Some(file) = hub_cache::tokenizer_file(dir) else {
        return Err(Error::input(format!(
            "{spec}: {} holds none of {}",
            dir.display(),
            hub_cache::TOKENIZER_FILES.join(", ")
        )));
    };
    let tok = load(&file.to_string_lossy())?;
    let own_extras = file.file_name().is_some_and(|n| n == "tokenizer.json");
    match tokenizer_config::read(dir)? {
        Some(config) => tokenizer_config::apply(tok, &config, own_extras),
        None => Ok(tok),
    }
}

/// A GGUF model file of any size: only its header and metadata are read,
/// its chat template (`tokenizer.chat_template`) included.
fn gguf_file(spec: &str, path: &Path) -> Result<Tokenizer> {
    let meta = gguf::read(path).map_err(|e| e.context(spec))?;
    let tok = gguf_tokenizer::tokenizer(&file_name(spec), &meta)
        .map(|mut tok| {
            tok.set_special_decoding(SpecialDecoding::ModelOwn(GGUF_KEEPS_NO_CONTROL));
            tok
        })
        .and_then(|tok| with_gguf_chat(tok, &meta, spec))
        .map_err(|e| e.context(spec));
    // Hundreds of thousands of strings are freed off the caller's path.
    std::thread::spawn(move || drop(meta));
    tok
}

/// `tok` with the chat template its GGUF metadata carries, given the texts
/// of the file's BOS and EOS tokens.
fn with_gguf_chat(mut tok: Tokenizer, meta: &gguf::Metadata, spec: &str) -> Result<Tokenizer> {
    let Some(gguf::Value::Str(source)) = meta.get("tokenizer.chat_template") else {
        return Ok(tok);
    };
    let mut tokens = Vec::new();
    for (name, key) in [
        ("bos_token", "tokenizer.ggml.bos_token_id"),
        ("eos_token", "tokenizer.ggml.eos_token_id"),
    ] {
        let id = match meta.get(key) {
            Some(gguf::Value::UInt(id)) => Some(*id),
            Some(gguf::Value::Int(id)) => u64::try_from(*id).ok(),
            _ => None,
        };
        if let Some(id) = id
            && (id as usize) < tok.vocab_size()
        {
            let text = String::from_utf8_lossy(tok.bytes_of(id as TokenId)).into_owned();
            tokens.push((name.to_string(), text));
        }
    }
    let origin = format!("{spec} (tokenizer.chat_template)");
    tok.set_chat(ChatTemplate::new(source.clone(), origin, tokens)?);
    Ok(tok)
}

/// `FILE:PRETOK`, a rank file and the pre-tokenizer it needs, or an error.
fn load_rank_file_with_pretok(spec: &str) -> Result<Tokenizer> {
    if let Some((file, pretok)) = spec.rsplit_once(':')
        && Path::new(file).exists()
        && !Path::new(file).is_dir()
    {
        let pretok = Pretok::parse(pretok).map_err(|e| e.context(spec))?;
        // tiktoken reads the file as bytes, and its base64 passes over a
        // byte outside the alphabet: a byte that is no UTF-8 is read as a
        // character outside the alphabet (and refused in a rank).
        let bytes = read_bytes(Path::new(file))?;
        let text = String::from_utf8_lossy(&bytes);
        return import::tiktoken(&file_name(file), &text, pretok).map_err(|e| e.context(file));
    }
    Err(Error::input(format!(
        "{spec}: no such file, and not a built-in tokenizer (built-in names: {})",
        builtin::names().join(", ")
    )))
}

/// A folder: GPT-2's encoder.json + vocab.bpe, else a repository's files
/// (its tokenizer.json, tokenizer.model, vocab.txt or tekken.json, with its
/// tokenizer_config.json).
fn load_folder(spec: &str, path: &Path) -> Result<Tokenizer> {
    let (enc, bpe) = (path.join("encoder.json"), path.join("vocab.bpe"));
    if enc.is_file() {
        return gpt2_pair(spec, &enc, &bpe);
    }
    if bpe.is_file() {
        return Err(Error::input(format!(
            "{spec}: encoder.json is missing (GPT-2's vocab.bpe needs the encoder.json beside it)"
        )));
    }
    if hub_cache::tokenizer_file(path).is_some() {
        return load_snapshot(spec, path);
    }
    Err(Error::input(format!(
        "{spec}: a folder, with none of encoder.json + vocab.bpe, {} in it",
        hub_cache::TOKENIZER_FILES.join(", ")
    )))
}

/// A file recognised by its content: a SentencePiece model under another
/// name, or text.
fn load_file(spec: &str, path: &Path) -> Result<Tokenizer> {
    let bytes = read_bytes(path)?;
    // A model file under another name: protobuf's first field (the pieces)
    // starts with byte 0x0A, and the file is not text.
    if bytes.first() == Some(&0x0A) && std::str::from_utf8(&bytes).is_err() {
        return sentencepiece_model(spec, &bytes);
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::input(format!(
            "{}: not UTF-8 text (byte offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if has_tiktoken_extension(path) || looks_like_rank_file(text) {
        return Err(Error::input(format!(
            "{spec}: a .tiktoken rank file has no pre-tokenizer: name one, e.g. {spec}:cl100k (valid: {})",
            Pretok::NAMES.join(", ")
        )));
    }
    if (has_extension(path, "txt") || !text.trim_start().starts_with('{'))
        && wordpiece::looks_like_vocab_txt(text)
    {
        return wordpiece::vocab_txt(&file_name(spec), text).map_err(|e| e.context(spec));
    }
    load_json(spec, path, text)
}

/// A JSON file: bpeek's own tokenizer, GPT-2's encoder.json, or a Hugging
/// Face tokenizer.json.
fn load_json(spec: &str, path: &Path, text: &str) -> Result<Tokenizer> {
    let doc: Value = serde_json::from_str(text).map_err(|e| json_error(&e).context(spec))?;
    if tokenizer_file::is_bpeek_tokenizer(&doc) {
        return tokenizer_file::from_json(doc)
            .map(|t| t.with_name(file_name(spec)))
            .map_err(|e| e.context(spec));
    }
    // GPT-2's encoder.json maps token strings (one of which is "model") to
    // ids, the 256 bytes at least: any smaller map of numbers is taken for
    // one only under that name, so `{"a": 1}` is told it is no tokenizer.
    let named_encoder = path.file_name().is_some_and(|n| n == "encoder.json");
    if doc.as_object().is_some_and(|o| {
        !o.is_empty() && (named_encoder || o.len() >= 256) && o.values().all(Value::is_u64)
    }) {
        let bpe = sibling(path, "vocab.bpe");
        return gpt2_pair(spec, path, &bpe);
    }
    if doc.get("model").is_some_and(Value::is_object) {
        return hugging_face_file(spec, doc, text.len());
    }
    if crate::formats::tekken::is_tekken(&doc) {
        return crate::formats::tekken::read(&file_name(spec), &doc).map_err(|e| e.context(spec));
    }

    Err(Error::input(format!(
        "{spec}: not a tokenizer bpeek reads; it reads {SUPPORTED}"
    )))
}

/// A Hugging Face tokenizer.json of `text_len` bytes, with its template.
fn hugging_face_file(spec: &str, doc: Value, text_len: usize) -> Result<Tokenizer> {
    let tok = import::hugging_face(&file_name(spec), &doc).map_err(|e| e.context(spec));
    // A file of hundreds of thousands of added tokens is millions of
    // small allocations: they are freed off the caller's path.
    if text_len > BIG_DOCUMENT {
        std::thread::spawn(move || drop(doc));
    }
    tok
}

/// Above this many bytes of JSON, the parsed document is freed on a thread
/// of its own.
const BIG_DOCUMENT: usize = 8 << 20;

/// Check that `spec` names a tokenizer bpeek can load, without building a
/// built-in one (those take a moment and are loaded where they are used).
pub fn check(spec: &str) -> Result<()> {
    if builtin::is_builtin(split_label(spec).1) {
        return Ok(());
    }
    load(spec).map(|_| ())
}

fn has_tiktoken_extension(path: &Path) -> bool {
    has_extension(path, "tiktoken")
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// A SentencePiece model file's tokenizer; errors name the file and field.
fn sentencepiece_model(spec: &str, bytes: &[u8]) -> Result<Tokenizer> {
    let model = sentencepiece::read(bytes)
        .and_then(SpmModel::new)
        .map_err(|e| e.context(spec))?;
    let mut tok = Tokenizer::from_sentencepiece(&file_name(spec), model);
    tok.set_special_decoding(SpecialDecoding::ModelOwn(SPM_KEEPS_NO_CONTROL));
    Ok(tok)
}

/// Why a SentencePiece `.model` file cannot decode keeping its control
/// pieces.
const SPM_KEEPS_NO_CONTROL: &str = "a SentencePiece .model file: sentencepiece's decode always leaves control pieces out and has no option to keep them";

/// Why a GGUF file cannot decode keeping its control tokens.
const GGUF_KEEPS_NO_CONTROL: &str = "a GGUF file: decoding follows no reference that keeps control tokens (llama.cpp's detokenizer with special tokens rendered is not matched)";

/// Whether the text starts like a rank file: `BASE64 RANK`.
fn looks_like_rank_file(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("");
    let mut parts = first.split(' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(b64), Some(rank), None) => {
            !b64.is_empty()
                && b64
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
                && !rank.is_empty()
                && rank.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

fn gpt2_pair(spec: &str, encoder: &Path, vocab_bpe: &Path) -> Result<Tokenizer> {
    for (file, other) in [(vocab_bpe, "encoder.json"), (encoder, "vocab.bpe")] {
        if !file.is_file() {
            let name = file_name(&file.to_string_lossy());
            return Err(Error::input(format!(
                "{spec}: {name} is missing (GPT-2's {other} needs the {name} beside it: {})",
                file.display()
            )));
        }
    }
    let enc = read_text(encoder)?;
    let bpe = read_text(vocab_bpe)?;
    import::gpt2_files(&file_name(spec), &enc, &bpe).map_err(|e| e.context(spec))
}

fn sibling(path: &Path, name: &str) -> PathBuf {
    path.parent()
        .map_or_else(|| PathBuf::from(name), |p| p.join(name))
}

fn file_name(spec: &str) -> String {
    Path::new(spec)
        .file_name()
        .map_or_else(|| spec.to_string(), |n| n.to_string_lossy().into_owned())
}
