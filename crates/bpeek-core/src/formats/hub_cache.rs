//! Tokenizers by a Hugging Face repository's name (`ORG/NAME`,
//! `hf:ORG/NAME`, `ORG/NAME@REVISION`), read from the hub cache on disk as
//! `huggingface_hub` lays it out; never from the network.
//!
//! The cache is `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else
//! `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`. A
//! repository is the folder `models--ORG--NAME`; `refs/REVISION` holds the
//! commit whose files are under `snapshots/COMMIT/` (symlinks into
//! `blobs/`).

use crate::error::{Error, Result};
use crate::formats::files::sorted_names;
use std::path::{Path, PathBuf};

/// The files a snapshot's tokenizer is read from, the first found.
pub const TOKENIZER_FILES: [&str; 4] = [
    "tokenizer.json",
    "tokenizer.model",
    "vocab.txt",
    "tekken.json",
];

/// A repository and revision, as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubName {
    /// `ORG/NAME` (or a bare `NAME`).
    pub repo: String,
    pub revision: String,
}

impl HubName {
    /// `spec` read as a repository name: `hf:REPO[@REV]`, or `ORG/NAME[@REV]`
    /// (a bare `NAME` only after `hf:`). `None` when it cannot be one.
    pub fn parse(spec: &str) -> Option<HubName> {
        let (explicit, rest) = match spec.strip_prefix("hf:") {
            Some(rest) => (true, rest),
            None => (false, spec),
        };
        let (repo, revision) = match rest.split_once('@') {
            Some((repo, rev)) => (repo, rev),
            None => (rest, "main"),
        };
        let slashes = repo.matches('/').count();
        let shaped = valid_repo_id(repo) && (slashes == 1 || (explicit && slashes == 0));
        (shaped && valid_revision(revision)).then(|| HubName {
            repo: repo.to_string(),
            revision: revision.to_string(),
        })
    }

    /// The name as the user wrote it, revision included when not `main`.
    pub fn display(&self) -> String {
        if self.revision == "main" {
            self.repo.clone()
        } else {
            format!("{}@{}", self.repo, self.revision)
        }
    }
}

/// A repository id as the hub allows it: one or two parts of letters,
/// digits, `-`, `_` and `.`, with no `--` or `..` and no part starting or
/// ending with `-` or `.`.
fn valid_repo_id(repo: &str) -> bool {
    !repo.contains("--")
        && !repo.contains("..")
        && repo.split('/').all(|part| {
            !part.is_empty()
                && part.len() <= 96
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                && !part.starts_with(['-', '.'])
                && !part.ends_with(['-', '.'])
        })
}

/// A branch, tag, `refs/pr/N` or commit: no `..`, no empty part.
fn valid_revision(rev: &str) -> bool {
    !rev.is_empty()
        && rev.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        })
}

/// The hub cache folder the environment names.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("HF_HUB_CACHE").or_else(|| var("HUGGINGFACE_HUB_CACHE")) {
        return PathBuf::from(dir);
    }
    if let Some(home) = var("HF_HOME") {
        return PathBuf::from(home).join("hub");
    }
    let cache = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("huggingface").join("hub")
}

/// The folder of `repo` in the cache.
pub fn repo_dir(cache: &Path, repo: &str) -> PathBuf {
    cache.join(format!("models--{}", repo.replace('/', "--")))
}

/// The snapshot folder `name` resolves to; an error says where it looked.
pub fn snapshot(name: &HubName) -> Result<PathBuf> {
    let cache = cache_dir();
    let repo = repo_dir(&cache, &name.repo);
    if !repo.is_dir() {
        return Err(Error::input(format!(
            "{}: no such file, and not in the Hugging Face cache (no {} in {}; bpeek never downloads: \
             `hf download {} tokenizer.json tokenizer_config.json` fetches it, or set HF_HUB_CACHE)",
            name.display(),
            repo.file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into()),
            cache.display(),
            name.repo
        )));
    }
    let commit = commit_of(&repo, &name.revision)?;
    let dir = repo.join("snapshots").join(&commit);
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{}: the cache names commit {commit} for {}, but {} is missing",
            name.display(),
            name.revision,
            dir.display()
        )));
    }
    Ok(dir)
}

/// The commit `revision` names: the content of `refs/REVISION`, or the
/// revision itself when it is a commit with a snapshot.
fn commit_of(repo: &Path, revision: &str) -> Result<String> {
    let reference = repo.join("refs").join(revision);
    if reference.is_file() {
        let text = std::fs::read_to_string(&reference)
            .map_err(|e| Error::input(format!("{}: {e}", reference.display())))?;
        let commit = text.trim();
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::input(format!(
                "{}: not a commit id",
                reference.display()
            )));
        }
        return Ok(commit.to_string());
    }
    if repo.join("snapshots").join(revision).is_dir() {
        return Ok(revision.to_string());
    }
    let refs = sorted_names(&repo.join("refs"));
    Err(Error::input(format!(
        "{}: no revision {revision} in the cache (it holds {})",
        repo.display(),
        if refs.is_empty() {
            "no refs".to_string()
        } else {
            refs.join(", ")
        }
    )))
}

/// The tokenizer file of a snapshot (or any folder), the first of
/// [`TOKENIZER_FILES`] there.
pub fn tokenizer_file(dir: &Path) -> Option<PathBuf> {
    TOKENIZER_FILES
        .iter()
        .map(|f| dir.join(f))
        .find(|f| f.is_file())
}

/// One repository in the cache that holds a tokenizer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedRepo {
    pub repo: String,
    pub file: PathBuf,
}

/// The repositories in the cache whose `main` snapshot (else newest
/// snapshot) holds a tokenizer file, by name.
pub fn cached_repos() -> Vec<CachedRepo> {
    let cache = cache_dir();
    let mut out = Vec::new();
    for folder in sorted_names(&cache) {
        let Some(id) = folder.strip_prefix("models--") else {
            continue;
        };
        let repo = id.replacen("--", "/", 1);
        let dir = cache.join(&folder);
        let snapshot = commit_of(&dir, "main")
            .map(|c| dir.join("snapshots").join(c))
            .ok()
            .filter(|d| d.is_dir())
            .or_else(|| newest_snapshot(&dir));
        if let Some(file) = snapshot.as_deref().and_then(tokenizer_file) {
            out.push(CachedRepo { repo, file });
        }
    }
    out
}

fn newest_snapshot(repo: &Path) -> Option<PathBuf> {
    std::fs::read_dir(repo.join("snapshots"))
        .ok()?
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::HubName;

    #[test]
    fn names_are_read_as_the_hub_spells_them() {
        let name = HubName::parse("Qwen/Qwen2.5-7B-Instruct").unwrap();
        assert_eq!(
            (name.repo.as_str(), name.revision.as_str()),
            ("Qwen/Qwen2.5-7B-Instruct", "main")
        );
        let name = HubName::parse("hf:gpt2@refs/pr/1").unwrap();
        assert_eq!(
            (name.repo.as_str(), name.revision.as_str()),
            ("gpt2", "refs/pr/1")
        );
        for not_a_name in [
            "gpt2",
            "a/b/c",
            "../etc",
            "org/../x",
            "hf:a--b",
            "org/name@../x",
            "hf:",
            "org/",
            "./x",
        ] {
            assert_eq!(HubName::parse(not_a_name), None, "{not_a_name}");
        }
    }
}
