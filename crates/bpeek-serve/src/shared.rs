//! Tokenizers shared by every session: gpt2, cl100k and o200k take tens of
//! megabytes each, so each is loaded once per process, the first time any
//! session asks, and every later ask gets the same copy. Only the built-in
//! names and the files on the server's command line can be loaded.

use bpeek_tui::fertility::tokenizers::{BUILT_IN, LoadDone};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub struct SharedTokenizers {
    allowed: Vec<String>,
    loaded: Mutex<HashMap<String, Arc<OnceLock<LoadDone>>>>,
}

impl SharedTokenizers {
    /// Loads limited to the built-in names and `files`.
    pub fn new(files: &[String]) -> Self {
        let mut allowed: Vec<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
        allowed.extend(files.iter().cloned());
        SharedTokenizers {
            allowed,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    /// The tokenizer `spec` names, loading it if no session has yet (two
    /// sessions asking at once wait for one load).
    pub fn get(&self, spec: &str) -> LoadDone {
        if !self.allowed.iter().any(|a| a == spec) {
            return LoadDone {
                spec: spec.to_string(),
                outcome: Err("not offered by this server".into()),
                took: std::time::Duration::ZERO,
            };
        }
        let cell = {
            let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
            loaded.entry(spec.to_string()).or_default().clone()
        };
        cell.get_or_init(|| LoadDone::now(spec)).clone()
    }
}
