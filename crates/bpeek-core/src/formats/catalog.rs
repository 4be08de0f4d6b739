//! The tokenizers a user already has, by the names `--tokenizer` takes:
//! the built-ins, the Hugging Face cache's repositories that hold a
//! tokenizer file, and Ollama's models. Nothing here reads a tokenizer;
//! only folders and manifests are listed.

use crate::formats::{builtin, hub_cache, ollama};
use std::path::PathBuf;

/// Where a named tokenizer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    BuiltIn,
    HuggingFace,
    Ollama,
}

impl Source {
    /// The word the list prints for it.
    pub fn label(self) -> &'static str {
        match self {
            Source::BuiltIn => "built-in",
            Source::HuggingFace => "hf-cache",
            Source::Ollama => "ollama",
        }
    }
}

/// One tokenizer the user can name.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The name `--tokenizer` takes (`cl100k`, `Qwen/Qwen2.5-7B`,
    /// `ollama:llama3.2:latest`).
    pub name: String,
    pub source: Source,
    /// The file it would be read from (none for a built-in).
    pub file: Option<PathBuf>,
    /// Why it cannot be read, when its manifest already says so.
    pub problem: Option<String>,
}

/// Every tokenizer there is by name: built-ins, then the cache's
/// repositories, then Ollama's models, each group in name order.
pub fn entries() -> Vec<Entry> {
    let mut out: Vec<Entry> = builtin::names()
        .into_iter()
        .map(|name| Entry {
            name: name.to_string(),
            source: Source::BuiltIn,
            file: None,
            problem: None,
        })
        .collect();
    out.extend(hub_cache::cached_repos().into_iter().map(|r| Entry {
        name: r.repo,
        source: Source::HuggingFace,
        file: Some(r.file),
        problem: None,
    }));
    out.extend(ollama::stored_models().into_iter().map(|m| {
        let (file, problem) = match m.blob {
            Ok(path) => (Some(path), None),
            Err(e) => (None, Some(e.to_string())),
        };
        Entry {
            name: format!("ollama:{}", m.name.display()),
            source: Source::Ollama,
            file,
            problem,
        }
    }));
    out
}

/// The names of [`entries`] that can be read, for a picker.
pub fn names() -> Vec<String> {
    entries()
        .into_iter()
        .filter(|e| e.problem.is_none())
        .map(|e| e.name)
        .collect()
}
