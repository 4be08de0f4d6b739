//! A Unigram column beside BPE columns (`--compare "--model unigram"`):
//! Unigram training to the vocabulary size the BPE columns have now.
//!
//! The size is column A's vocabulary as the status line counts it (its
//! tokens, bytes or characters plus merges, and its special tokens), or
//! the column's own `--vocab-size`, which it keeps. Unigram's size counts
//! `<unk>` (and the byte pieces with `--byte-fallback`) as `bpeek train
//! --model unigram --vocab-size N` does, so the column holds exactly what
//! that command trains.
//!
//! Training to a size is heavier than a BPE step, so it runs on another
//! thread while the column shows its last finished run. Each run starts
//! from the furthest run so far, moved to the new size
//! ([`UnigramTrainer::retarget`]): a size one up or down redoes the last
//! prune and its estimates, not the seeds.

use crate::job::Work;
use crate::options::args::TrainingOptions;
use bpeek_core::error::Result;
use bpeek_core::train::unigram::{UnigramConfig, UnigramTrainer, Words};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The trainer of a Unigram column on `text`, seeded: its size is set
/// when the column first trains.
pub fn seeded(o: &TrainingOptions, name: &str, text: &[u8]) -> Result<UnigramTrainer> {
    let config = column_config(o)?;
    let words = Words::from_text(text, config.marks).map_err(|e| e.context(name))?;
    UnigramTrainer::from_words(words, config)
}

/// The column's settings; the size is the pinned one, or a stand-in
/// until the BPE columns give theirs.
fn column_config(o: &TrainingOptions) -> Result<UnigramConfig> {
    crate::options::unigram::config(o, crate::options::unigram::DEFAULT_VOCAB_SIZE)
}

/// A run on another thread, training a copy of the furthest run to `size`.
#[derive(Debug)]
struct Run {
    size: usize,
    result: Arc<Mutex<Option<Result<UnigramTrainer>>>>,
    cancel: Arc<AtomicBool>,
}

impl Drop for Run {
    fn drop(&mut self) {
        // Nobody will look at it: the thread stops after its step.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[derive(Debug)]
pub struct UnigramColumn {
    /// The last run trained to its end: what the column shows.
    pub shown: Arc<UnigramTrainer>,
    /// The furthest run, finished or cut short: the next starts from it.
    furthest: Arc<UnigramTrainer>,
    /// `--vocab-size` given in the column: the size it keeps.
    pub pinned: Option<usize>,
    /// The size asked for now.
    pub wanted: usize,
    run: Option<Run>,
    /// Why the size asked for cannot be trained to (fewer pieces than
    /// the reserved ones), until another size is asked for.
    pub refused: Option<String>,
}

impl UnigramColumn {
    pub fn new(options: &TrainingOptions, seeded: Arc<UnigramTrainer>) -> Self {
        let size = seeded.config().vocab_size;
        UnigramColumn {
            furthest: Arc::clone(&seeded),
            shown: seeded,
            pinned: options.vocab_size,
            wanted: options.vocab_size.unwrap_or(size),
            run: None,
            refused: None,
        }
    }

    /// Whether the run shown is trained to the size asked for.
    pub fn ready(&self) -> bool {
        is_done(&self.shown, self.wanted)
    }

    /// Whether a run is under way on another thread.
    pub fn training(&self) -> bool {
        self.run.is_some()
    }

    /// The size the run under way trains to.
    pub fn training_to(&self) -> Option<usize> {
        self.run.as_ref().map(|r| r.size)
    }

    /// Ask for `size` (the pinned size wins); true if it changed.
    pub fn want(&mut self, size: usize) -> bool {
        let size = self.pinned.unwrap_or(size);
        let changed = size != self.wanted;
        if changed {
            self.wanted = size;
            self.refused = None;
        }
        changed
    }

    /// Take a finished run's trainer: the furthest now, and shown if it
    /// is trained to its end. Returns the trainer shown when it changed.
    pub fn collect(&mut self) -> Option<Arc<UnigramTrainer>> {
        let run = self.run.as_ref()?;
        let done = run.result.lock().ok()?.take()?;
        let size = run.size;
        self.run = None;
        match done {
            Err(e) => {
                self.refused = Some(e.to_string());
                None
            }
            Ok(t) => {
                let t = Arc::new(t);
                self.furthest = Arc::clone(&t);
                if is_done(&t, size) {
                    self.shown = Arc::clone(&t);
                    return Some(t);
                }
                None
            }
        }
    }

    /// A run trained elsewhere (by another session of the class): shown,
    /// and the furthest.
    pub fn take(&mut self, trainer: Arc<UnigramTrainer>) {
        self.furthest = Arc::clone(&trainer);
        self.shown = trainer;
    }

    /// A run to a size no longer wanted is told to stop; the column then
    /// starts again from where it stopped.
    pub fn cancel_stale(&mut self) {
        if let Some(run) = &self.run
            && run.size != self.wanted
        {
            run.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Start a run to the size wanted, from the furthest run; the work for
    /// another thread. `None` if the size is refused (said in
    /// [`UnigramColumn::refused`]).
    pub fn start(&mut self) -> Option<Work> {
        let size = self.wanted;
        let check = UnigramConfig {
            vocab_size: size,
            ..self.furthest.config().clone()
        };
        if let Err(e) = check.check() {
            self.refused = Some(e.to_string());
            return None;
        }
        let from = Arc::clone(&self.furthest);
        let result = Arc::new(Mutex::new(None));
        let cancel = Arc::new(AtomicBool::new(false));
        let (slot, stop) = (Arc::clone(&result), Arc::clone(&cancel));
        let work = Work::new(move || {
            let trained = train_to(&from, size, &stop);
            if let Ok(mut s) = slot.lock() {
                *s = Some(trained);
            }
        });
        self.run = Some(Run {
            size,
            result,
            cancel,
        });
        Some(work)
    }
}

/// Whether `t` is trained to its end at `size`.
fn is_done(t: &UnigramTrainer, size: usize) -> bool {
    t.config().vocab_size == size && t.stop_reason().is_some()
}

/// A copy of `from` trained to `size`, step by step until it stops or
/// `stop` is set.
fn train_to(from: &UnigramTrainer, size: usize, stop: &AtomicBool) -> Result<UnigramTrainer> {
    let mut t = from.clone();
    t.retarget(size)?;
    while !stop.load(Ordering::Relaxed) {
        if t.step().is_err() {
            break;
        }
    }
    Ok(t)
}

/// The Unigram column's size from a BPE trainer: its vocabulary as the
/// status line counts it.
pub fn size_of_bpe(trainer: &bpeek_core::Trainer, options: &TrainingOptions) -> usize {
    let mut specials: Vec<&String> = options.specials.iter().collect();
    specials.sort();
    specials.dedup();
    trainer.vocab().len() + specials.len()
}
