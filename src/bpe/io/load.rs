//! `--tokenizer NAME|FILE`: a built-in name, or a file in any format bpeek
//! reads, recognised by its name and content.

use crate::bpe::encoder::Tokenizer;
use crate::bpe::io::files::read_text;
use crate::bpe::io::{builtin, import, tokenizer_file};
use crate::bpe::pretok::Pretok;
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const SUPPORTED: &str = "a built-in name (bytes, gpt2, cl100k, o200k), bpeek's tokenizer JSON, a Hugging Face \
tokenizer.json with a byte-level BPE model, GPT-2's encoder.json + vocab.bpe (the folder or either file), \
or a .tiktoken rank file with its pre-tokenizer (FILE.tiktoken:cl100k)";

/// Load the tokenizer `spec` names.
pub fn load(spec: &str) -> Result<Tokenizer> {
    if builtin::is_builtin(spec) {
        return builtin::load(spec);
    }
    if let Some(at) = spec.find(".tiktoken") {
        let (path, rest) = spec.split_at(at + ".tiktoken".len());
        let Some(pretok) = rest.strip_prefix(':') else {
            return Err(Error::input(format!(
                "{path}: a .tiktoken file has no pre-tokenizer: name one, e.g. {path}:cl100k (valid: {})",
                Pretok::NAMES.join(", ")
            )));
        };
        let pretok = Pretok::parse(pretok).map_err(|e| e.context(spec))?;
        let text = read_text(Path::new(path))?;
        return import::tiktoken(&file_name(path), &text, pretok).map_err(|e| e.context(path));
    }
    let path = Path::new(spec);
    if path.is_dir() {
        let (enc, bpe) = (path.join("encoder.json"), path.join("vocab.bpe"));
        if enc.is_file() && bpe.is_file() {
            return gpt2_pair(spec, &enc, &bpe);
        }
        let hf = path.join("tokenizer.json");
        if hf.is_file() {
            return load(&hf.to_string_lossy());
        }
        return Err(Error::input(format!(
            "{spec}: a folder, with neither encoder.json + vocab.bpe nor tokenizer.json in it"
        )));
    }
    if path.file_name().is_some_and(|n| n == "vocab.bpe") {
        let enc = sibling(path, "encoder.json");
        return gpt2_pair(spec, &enc, path);
    }
    let text = read_text(path)?;
    let doc: Value = serde_json::from_str(&text)
        .map_err(|e| Error::input(format!("{spec}: malformed JSON: {e}")))?;
    if tokenizer_file::is_bpeek_tokenizer(&doc) {
        return tokenizer_file::from_json(doc)
            .map(|t| t.with_name(file_name(spec)))
            .map_err(|e| e.context(spec));
    }
    // GPT-2's encoder.json maps token strings (one of which is "model") to ids.
    if doc
        .as_object()
        .is_some_and(|o| !o.is_empty() && o.values().all(Value::is_u64))
    {
        let bpe = sibling(path, "vocab.bpe");
        return gpt2_pair(spec, path, &bpe);
    }
    if doc.get("model").is_some_and(Value::is_object) {
        return import::hugging_face(&file_name(spec), &doc).map_err(|e| e.context(spec));
    }

    Err(Error::input(format!(
        "{spec}: not a tokenizer bpeek reads; it reads {SUPPORTED}"
    )))
}

fn gpt2_pair(spec: &str, encoder: &Path, vocab_bpe: &Path) -> Result<Tokenizer> {
    let enc = read_text(encoder)?;
    let bpe = read_text(vocab_bpe)
        .map_err(|e| e.context("GPT-2 files need vocab.bpe beside encoder.json"))?;
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
