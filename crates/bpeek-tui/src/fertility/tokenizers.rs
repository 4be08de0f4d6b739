//! The tokenizers the explorer can compare and encode with: the one being
//! trained (rebuilt as training moves), the byte baseline, the built-in real
//! ones and any the user names with `--tokenizer`.
//!
//! The large ones take a noticeable fraction of a second to build, so they
//! are never built here. Asking for one marks it as loading and queues a
//! request; the event loop hands requests to its event source, which loads
//! them (on a thread, for the terminal) and delivers each result as an
//! [`Event::Loaded`](crate::Event::Loaded) like any other input.

use bpeek_core::train::unigram::{UnigramTrainer, UnigramVocabulary};
use bpeek_core::{Tokenizer, Trainer};

/// What the trained tokenizer was built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrainedKey {
    /// A BPE trainer on corpus `.0` after `.1` merges.
    Merges(usize, usize),
    /// The Unigram trainer after this many steps.
    UnigramSteps(usize),
}
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The real tokenizers every comparison includes, after `trained` and `bytes`.
pub const BUILT_IN: &[&str] = &["gpt2", "cl100k", "o200k"];

/// Where a tokenizer stands.
#[derive(Debug, Clone)]
pub enum SlotState {
    /// The tokenizer being trained: built from the trainer when needed.
    Trained,
    /// Not asked for yet.
    Idle,
    Loading,
    Ready {
        tok: Arc<Tokenizer>,
        took: Duration,
    },
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Slot {
    /// What was asked for: a built-in name or a file.
    pub spec: String,
    /// What the screen calls it.
    pub label: String,
    pub state: SlotState,
    /// Changes whenever the tokenizer behind the slot changes, so anything
    /// computed from it knows when it is stale.
    pub stamp: u64,
}

impl Slot {
    pub fn is_loading(&self) -> bool {
        matches!(self.state, SlotState::Loading | SlotState::Idle)
    }

    pub fn error(&self) -> Option<&str> {
        match &self.state {
            SlotState::Failed(e) => Some(e),
            _ => None,
        }
    }
}

/// A finished load, as the event source reports it.
#[derive(Debug, Clone)]
pub struct LoadDone {
    pub spec: String,
    pub outcome: std::result::Result<Arc<Tokenizer>, String>,
    /// How long the load took (shown, never relied on).
    pub took: Duration,
}

impl LoadDone {
    /// Load `spec` on this thread, timing it.
    pub fn now(spec: &str) -> LoadDone {
        let start = Instant::now();
        let outcome = bpeek_core::formats::load::load(spec)
            .map(Arc::new)
            .map_err(|e| e.to_string());
        LoadDone {
            spec: spec.to_string(),
            outcome,
            took: start.elapsed(),
        }
    }
}

impl PartialEq for LoadDone {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.outcome, &other.outcome) {
            (Ok(a), Ok(b)) => Arc::ptr_eq(a, b),
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        same && self.spec == other.spec && self.took == other.took
    }
}

impl Eq for LoadDone {}

#[derive(Debug, Clone)]
pub struct TokenizerSet {
    pub slots: Vec<Slot>,
    /// The tokenizer the encode box uses and the fertility view details.
    pub selected: usize,
    /// Loads asked for and not yet handed to the event source.
    requests: Vec<String>,
    /// The trained tokenizer and what it was built for.
    trained: Option<(TrainedKey, Arc<Tokenizer>)>,
    next_stamp: u64,
}

impl Default for TokenizerSet {
    fn default() -> Self {
        let mut set = TokenizerSet {
            slots: Vec::new(),
            selected: 0,
            requests: Vec::new(),
            trained: None,
            next_stamp: 1,
        };
        set.push("trained", SlotState::Trained);
        set.push(
            "bytes",
            SlotState::Ready {
                tok: Arc::new(Tokenizer::bytes_only()),
                took: Duration::ZERO,
            },
        );
        for name in BUILT_IN {
            set.push(name, SlotState::Idle);
        }
        set
    }
}

/// A short name for a tokenizer spec: the label `LABEL=FILE` gives; else
/// the file name without its folders; a name (`ORG/NAME`, `ollama:NAME`)
/// as it is.
fn label_of(spec: &str) -> String {
    if let (Some(label), _) = bpeek_core::formats::load::split_label(spec) {
        return label.to_string();
    }
    let by_name = spec.starts_with("ollama:")
        || bpeek_core::formats::hub_cache::HubName::parse(spec).is_some();
    if by_name && !std::path::Path::new(spec).exists() {
        return spec.to_string();
    }
    let path = match spec.find(".tiktoken:") {
        Some(at) => &spec[..at + ".tiktoken".len()],
        None => spec,
    };
    let name = std::path::Path::new(path)
        .file_name()
        .map_or_else(|| spec.to_string(), |n| n.to_string_lossy().into_owned());
    if name.is_empty() {
        spec.to_string()
    } else {
        name
    }
}

impl TokenizerSet {
    fn push(&mut self, spec: &str, state: SlotState) {
        let stamp = self.bump();
        self.slots.push(Slot {
            spec: spec.to_string(),
            label: label_of(spec),
            state,
            stamp,
        });
    }

    fn bump(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// Add a tokenizer the user named, and ask for it at once.
    pub fn add(&mut self, spec: &str) {
        if let Some(i) = self.slots.iter().position(|s| s.spec == spec) {
            self.request(i);
            return;
        }
        self.push(spec, SlotState::Idle);
        self.request(self.slots.len() - 1);
    }

    /// Ask for slot `i` if nobody has yet.
    pub fn request(&mut self, i: usize) {
        if let Some(slot) = self.slots.get_mut(i)
            && matches!(slot.state, SlotState::Idle)
        {
            slot.state = SlotState::Loading;
            self.requests.push(slot.spec.clone());
        }
    }

    /// Ask for every tokenizer not asked for yet.
    pub fn request_all(&mut self) {
        for i in 0..self.slots.len() {
            self.request(i);
        }
    }

    /// The loads to start now; each is handed out once.
    pub fn take_requests(&mut self) -> Vec<String> {
        std::mem::take(&mut self.requests)
    }

    /// Loads asked for and not handed out yet.
    pub fn pending_requests(&self) -> &[String] {
        &self.requests
    }

    /// Record a finished load. Returns the labels of the slots it fills, with
    /// the error if it failed.
    pub fn finish(&mut self, done: LoadDone) -> Vec<(String, Option<String>)> {
        let mut filled = Vec::new();
        let stamp = self.bump();
        for slot in self
            .slots
            .iter_mut()
            .filter(|s| s.spec == done.spec && s.is_loading())
        {
            slot.state = match &done.outcome {
                Ok(tok) => {
                    slot.label = tok.name().to_string();
                    SlotState::Ready {
                        tok: tok.clone(),
                        took: done.took,
                    }
                }
                Err(e) => SlotState::Failed(e.clone()),
            };
            slot.stamp = stamp;
            filled.push((slot.label.clone(), done.outcome.as_ref().err().cloned()));
        }
        filled
    }

    /// Bring the trained tokenizer up to date with `trainer` (on corpus
    /// `corpus`), rebuilding it only when the merges changed.
    pub fn sync_trained(&mut self, corpus: usize, trainer: &Trainer) {
        let key = TrainedKey::Merges(corpus, trainer.merges().len());
        self.sync_trained_by(key, || Some(trainer.tokenizer()));
    }

    /// Bring the trained tokenizer up to date with a Unigram `trainer`,
    /// rebuilding it only when training moved. A vocabulary no file could
    /// hold (no word in the corpus) leaves no trained tokenizer.
    pub fn sync_trained_unigram(&mut self, trainer: &UnigramTrainer) {
        let key = TrainedKey::UnigramSteps(trainer.step_count());
        self.sync_trained_by(key, || {
            let v = UnigramVocabulary::of(trainer).ok()?;
            bpeek_core::formats::unigram_json::tokenizer(&v, "trained").ok()
        });
    }

    fn sync_trained_by(&mut self, key: TrainedKey, build: impl FnOnce() -> Option<Tokenizer>) {
        if self.trained.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        self.trained = build().map(|t| (key, Arc::new(t)));
        let stamp = self.bump();
        for slot in self
            .slots
            .iter_mut()
            .filter(|s| matches!(s.state, SlotState::Trained))
        {
            slot.stamp = stamp;
        }
    }

    /// The tokenizer in slot `i`, if it is ready (the trained one once
    /// [`TokenizerSet::sync_trained`] has run).
    pub fn get(&self, i: usize) -> Option<&Arc<Tokenizer>> {
        match &self.slots.get(i)?.state {
            SlotState::Trained => self.trained.as_ref().map(|(_, t)| t),
            SlotState::Ready { tok, .. } => Some(tok),
            _ => None,
        }
    }

    pub fn selected_slot(&self) -> &Slot {
        &self.slots[self.selected]
    }

    /// Move the selection by `by` (wrapping) and ask for what it lands on.
    pub fn select_by(&mut self, by: isize) {
        let n = self.slots.len() as isize;
        self.selected = (self.selected as isize + by).rem_euclid(n) as usize;
        self.request(self.selected);
    }

    /// Whether slot `i` is the tokenizer being trained.
    pub fn is_trained(&self, i: usize) -> bool {
        matches!(
            self.slots.get(i).map(|s| &s.state),
            Some(SlotState::Trained)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_file_names() {
        assert_eq!(label_of("gpt2"), "gpt2");
        assert_eq!(label_of("/a/b/tok.json"), "tok.json");
        assert_eq!(label_of("x/r.tiktoken:cl100k"), "r.tiktoken");
        assert_eq!(label_of("Qwen/Qwen2.5-7B"), "Qwen/Qwen2.5-7B");
        assert_eq!(label_of("ollama:llama3.2"), "ollama:llama3.2");
    }

    #[test]
    fn a_request_is_handed_out_once_and_a_failure_is_kept() {
        let mut set = TokenizerSet::default();
        set.add("missing.json");
        set.request_all();
        assert_eq!(
            set.take_requests(),
            ["missing.json", "gpt2", "cl100k", "o200k"]
        );
        assert!(set.take_requests().is_empty());
        let filled = set.finish(LoadDone {
            spec: "missing.json".into(),
            outcome: Err("no such file".into()),
            took: Duration::ZERO,
        });
        assert_eq!(
            filled,
            [("missing.json".to_string(), Some("no such file".to_string()))]
        );
        assert_eq!(set.slots[5].error(), Some("no such file"));
    }
}
