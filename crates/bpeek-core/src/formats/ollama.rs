//! Tokenizers by an Ollama model's name (`ollama:NAME[:TAG]`), read from
//! Ollama's store on disk: the manifest
//! `manifests/registry.ollama.ai/library/NAME/TAG` (or `NAMESPACE/NAME`,
//! or `HOST/NAMESPACE/NAME`) names its layers, and the layer of media type
//! `application/vnd.ollama.image.model` is a GGUF file under
//! `blobs/sha256-HEX`, whose metadata holds the tokenizer.
//!
//! The store is `$OLLAMA_MODELS`, else `~/.ollama/models`.

use crate::error::{Error, Result};
use crate::formats::files::read_prefix;
use crate::formats::files::sorted_names;
use serde_json::Value;
use std::path::{Path, PathBuf};

const MODEL_LAYER: &str = "application/vnd.ollama.image.model";
const DEFAULT_HOST: &str = "registry.ollama.ai";
const DEFAULT_NAMESPACE: &str = "library";
/// The most bytes of a manifest read (real ones are about 1 KB).
const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// A model as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OllamaName {
    pub host: String,
    pub namespace: String,
    pub model: String,
    pub tag: String,
}

impl OllamaName {
    /// `ollama:NAME[:TAG]`, NAME being `MODEL`, `NAMESPACE/MODEL` or
    /// `HOST/NAMESPACE/MODEL`. `None` without the `ollama:` prefix; an
    /// error for a name that cannot be one.
    pub fn parse(spec: &str) -> Option<Result<OllamaName>> {
        let rest = spec.strip_prefix("ollama:")?;
        Some(Self::parse_name(rest).ok_or_else(|| {
            Error::input(format!(
                "{spec}: not an Ollama model name (ollama:NAME, ollama:NAME:TAG, ollama:NAMESPACE/NAME:TAG)"
            ))
        }))
    }

    fn parse_name(rest: &str) -> Option<OllamaName> {
        // A tag follows the last `:` after the last `/` (a host may have a port).
        let last_part = rest.rfind('/').map_or(0, |i| i + 1);
        let (path, tag) = match rest[last_part..].rfind(':') {
            Some(i) => (&rest[..last_part + i], &rest[last_part + i + 1..]),
            None => (rest, "latest"),
        };
        let parts: Vec<&str> = path.split('/').collect();
        let (host, namespace, model) = match parts.as_slice() {
            [m] => (DEFAULT_HOST, DEFAULT_NAMESPACE, *m),
            [n, m] => (DEFAULT_HOST, *n, *m),
            [h, n, m] => (*h, *n, *m),
            _ => return None,
        };
        let fine = |s: &str, extra: &[u8]| {
            !s.is_empty()
                && s != "."
                && s != ".."
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b) || extra.contains(&b))
        };
        let ok = fine(host, b":") && fine(namespace, b"") && fine(model, b"") && fine(tag, b"");
        ok.then(|| OllamaName {
            host: host.into(),
            namespace: namespace.into(),
            model: model.into(),
            tag: tag.into(),
        })
    }

    /// The name as Ollama lists it (`llama3.2:latest`, `ns/model:tag`).
    pub fn display(&self) -> String {
        let mut name = self.model.clone();
        if self.namespace != DEFAULT_NAMESPACE || self.host != DEFAULT_HOST {
            name = format!("{}/{name}", self.namespace);
        }
        if self.host != DEFAULT_HOST {
            name = format!("{}/{name}", self.host);
        }
        format!("{name}:{}", self.tag)
    }
}

/// Ollama's store.
pub fn store_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("OLLAMA_MODELS").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".ollama").join("models")
}

/// The GGUF blob of model `name`; an error says where it looked.
pub fn model_blob(name: &OllamaName) -> Result<PathBuf> {
    let store = store_dir();
    let manifest = store
        .join("manifests")
        .join(&name.host)
        .join(&name.namespace)
        .join(&name.model)
        .join(&name.tag);
    if !manifest.is_file() {
        return Err(Error::input(format!(
            "ollama:{}: not in Ollama's store (no manifest {}; set OLLAMA_MODELS to look elsewhere)",
            name.display(),
            manifest.display()
        )));
    }
    blob_of_manifest(&store, &manifest)
}

/// The model layer's blob that `manifest` names.
fn blob_of_manifest(store: &Path, manifest: &Path) -> Result<PathBuf> {
    let place = manifest.display().to_string();
    let bytes = read_prefix(manifest, MAX_MANIFEST_BYTES + 1)?;
    if bytes.len() > MAX_MANIFEST_BYTES {
        return Err(Error::input(format!(
            "{place}: more than {} KiB, too large for a manifest",
            MAX_MANIFEST_BYTES >> 10
        )));
    }
    let doc: Value = serde_json::from_slice(&bytes)
        .map_err(|e| crate::formats::limits::json_error(&e).context(&place))?;
    let Some(layers) = doc.get("layers").and_then(Value::as_array) else {
        return Err(Error::input(format!("{place}: layers: a list is needed")));
    };
    let Some(layer) = layers
        .iter()
        .find(|l| l.get("mediaType").and_then(Value::as_str) == Some(MODEL_LAYER))
    else {
        return Err(Error::input(format!(
            "{place}: layers: no layer of media type {MODEL_LAYER} (the model has no GGUF file)"
        )));
    };
    let digest = layer.get("digest").and_then(Value::as_str).unwrap_or("");
    let hex = digest
        .strip_prefix("sha256:")
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    let Some(hex) = hex else {
        return Err(Error::input(format!(
            "{place}: layers: digest {}: sha256:HEX (64 digits) is needed",
            crate::error::quoted(digest)
        )));
    };
    let blob = store.join("blobs").join(format!("sha256-{hex}"));
    if !blob.is_file() {
        return Err(Error::input(format!(
            "{place}: its model layer {} is missing from the store",
            blob.display()
        )));
    }
    Ok(blob)
}

/// One model in the store.
#[derive(Debug, Clone)]
pub struct StoredModel {
    pub name: OllamaName,
    pub blob: Result<PathBuf>,
}

/// Every manifest in the store, by name.
pub fn stored_models() -> Vec<StoredModel> {
    let store = store_dir();
    let root = store.join("manifests");
    let mut out = Vec::new();
    for host in sorted_names(&root) {
        for namespace in sorted_names(&root.join(&host)) {
            for model in sorted_names(&root.join(&host).join(&namespace)) {
                let dir = root.join(&host).join(&namespace).join(&model);
                for tag in sorted_names(&dir) {
                    let name = OllamaName {
                        host: host.clone(),
                        namespace: namespace.clone(),
                        model: model.clone(),
                        tag: tag.clone(),
                    };
                    let blob = blob_of_manifest(&store, &dir.join(&tag));
                    out.push(StoredModel { name, blob });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::OllamaName;

    #[test]
    fn names_are_read_as_ollama_spells_them() {
        let name = |s: &str| OllamaName::parse(s).unwrap().unwrap().display();
        assert_eq!(name("ollama:llama3.2"), "llama3.2:latest");
        assert_eq!(name("ollama:qwen2.5:7b-instruct"), "qwen2.5:7b-instruct");
        assert_eq!(name("ollama:me/mine:v1"), "me/mine:v1");
        assert_eq!(
            name("ollama:hub.local:5000/me/mine"),
            "hub.local:5000/me/mine:latest"
        );
        assert!(OllamaName::parse("llama3.2").is_none());
        for bad in ["ollama:", "ollama:../x", "ollama:a/b/c/d", "ollama:x:"] {
            assert!(OllamaName::parse(bad).unwrap().is_err(), "{bad}");
        }
    }
}
