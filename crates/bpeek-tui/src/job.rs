//! Long actions: work a key asks for that can take longer than a frame
//! (going to a merge, back to merge 0, opening a big corpus). A job is done
//! a slice at a time between frames, or on another thread whose progress
//! the loop shows, so the screen keeps drawing and answering keys; Esc
//! takes the explorer back to where it stood before the job began.
//!
//! Going forward and undoing back change the trainer on screen, a few
//! merges per slice; cancelling then goes back the same way. A seek that
//! is cheaper as a fresh count and a replay (the trainer's own choice, see
//! [`Trainer::seek_plan`]) runs on a new trainer on another thread while
//! the old one stays on screen, so cancelling it changes nothing.

use crate::mark::{Mark, PhaseName};
use crate::options::args::TrainingOptions;
use crate::panes::lines::LineIndex;
use bpeek_core::Trainer;
use bpeek_core::error::{Error, Result};
use bpeek_core::train::trainer::SeekPlan;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The largest corpus the explorer reads: it keeps the text, every chunk's
/// places and the pair table in memory (`bpeek train` counts a corpus of
/// any size as it reads it).
pub const MAX_CORPUS_BYTES: u64 = 1 << 30;

/// The error for a corpus past [`MAX_CORPUS_BYTES`].
pub fn too_big(path: &str) -> Error {
    Error::input(format!(
        "{path}: the explorer reads at most {} GiB of corpus; train on more with `bpeek train`",
        MAX_CORPUS_BYTES >> 30
    ))
}

/// How long one slice of a job may run before the loop draws the screen
/// and reads keys again.
pub const SLICE: Duration = Duration::from_millis(25);

/// How often the screen shows how a job on another thread is getting on.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Bytes read from a corpus file at a time, between progress reports.
const READ_BLOCK: usize = 4 << 20;

/// One move of `trainer` toward `target`: a step, an undo or a phase.
/// False once it is there, or training can go no further.
pub fn move_toward(trainer: &mut Trainer, target: Mark) -> bool {
    let here = trainer.merges().len();
    let phase = PhaseName::of(trainer.phase());
    let m = target.merges;
    // Merged at m is the step from m - 1 just made: from above, undo past it.
    let wants_merged = target.phase == Some(PhaseName::Merged) && m > 0;
    if here > m + 1 || (here == m && wants_merged && phase != PhaseName::Merged) {
        // On the way: no screen shows the changes of these undos.
        trainer.undo();
        return true;
    }
    if here == m + 1 {
        // The last undo: the changes left are those the steps forward
        // showed here.
        if wants_merged {
            trainer.undo();
        } else {
            trainer.step_back();
        }
        return true;
    }
    if here < m {
        return trainer.step().is_ok();
    }
    match (target.phase, phase) {
        (None, _) => {
            // There: the seek's own ending (nothing chosen, no stop kept).
            trainer.seek(m);
            false
        }
        (Some(want), now) if want == now => false,
        (Some(PhaseName::Counted), PhaseName::Chosen) => trainer.undo(),
        (Some(_), _) => trainer.advance().is_ok(),
    }
}

/// Move `trainer` toward `target` until it is there (true) or `deadline`
/// is near (false).
pub fn move_until(trainer: &mut Trainer, target: Mark, deadline: Instant) -> bool {
    moves_until(deadline, || move_toward(trainer, target))
}

/// Make moves (`one_move` is false once there is none to make) until the
/// last is made (true) or `deadline` is near (false). A move that took
/// long is taken to predict the next: the slice ends before one would run
/// past the deadline, so a slice overruns its time only when a single move
/// is longer than all of it.
pub fn moves_until(deadline: Instant, mut one_move: impl FnMut() -> bool) -> bool {
    let mut before = Instant::now();
    loop {
        if !one_move() {
            return true;
        }
        let now = Instant::now();
        let last = now - before;
        before = now;
        if now + last >= deadline {
            return false;
        }
    }
}

/// What a job on another thread is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the corpus file: bytes done of total.
    Reading,
    /// Cutting into chunks and counting pairs (no measure of how far).
    Counting,
    /// Making merges again from merge 0: merges done of total.
    Replaying,
}

/// How far a job on another thread has come, and whether it should stop.
#[derive(Debug, Default)]
pub struct Progress {
    stage: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
}

impl Progress {
    fn set(&self, stage: Stage, done: u64, total: u64) {
        self.stage.store(stage as u8, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
    }

    pub fn stage(&self) -> Stage {
        match self.stage.load(Ordering::Relaxed) {
            0 => Stage::Reading,
            1 => Stage::Counting,
            _ => Stage::Replaying,
        }
    }

    /// Done and total of the stage (bytes, or merges).
    pub fn counts(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// What a thread hands back: a trainer, with the line index of its text
/// when the text is new.
pub type Built = Result<(Trainer, Option<LineIndex>)>;

/// Work for another thread. The event source runs it (see
/// [`EventSource::spawn`](crate::EventSource::spawn)) and wakes the
/// loop once it returns.
pub struct Work(Box<dyn FnOnce() + Send>);

impl Work {
    pub fn new(body: impl FnOnce() + Send + 'static) -> Self {
        Work(Box::new(body))
    }

    pub fn run(self) {
        (self.0)()
    }
}

impl std::fmt::Debug for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Work")
    }
}

/// A trainer being built on another thread.
#[derive(Debug)]
pub struct Away {
    pub progress: Arc<Progress>,
    result: Arc<Mutex<Option<Built>>>,
    pub started: Instant,
}

impl Away {
    /// The thread's work, and the handle the job keeps.
    fn start(body: impl FnOnce(&Progress) -> Built + Send + 'static) -> (Away, Work) {
        let progress = Arc::new(Progress::default());
        let result = Arc::new(Mutex::new(None));
        let away = Away {
            progress: progress.clone(),
            result: result.clone(),
            started: Instant::now(),
        };
        let work = Work(Box::new(move || {
            let built = body(&progress);
            if let Ok(mut slot) = result.lock() {
                *slot = Some(built);
            }
        }));
        (away, work)
    }

    /// The result, once the thread has finished.
    pub fn take(&self) -> Option<Built> {
        self.result.lock().ok()?.take()
    }
}

impl Drop for Away {
    fn drop(&mut self) {
        // Nobody will look at the result: the thread may stop early.
        self.progress.cancel();
    }
}

/// How a job is done.
#[derive(Debug)]
pub enum Run {
    /// Steps and undos on the trainer on screen, a slice per frame.
    Here { target: Mark },
    /// A new trainer for the corpus on screen, built on another thread.
    Replay(Away),
    /// The first trainer of the corpus, read and counted on another thread.
    Open(Away),
    /// Steps and steps back of the Unigram trainer on screen, a slice per
    /// frame, to its step `target`. A Unigram step (an EM iteration, a
    /// scoring, a prune) is the unit: its marks count steps, not merges.
    Steps { target: usize },
}

/// A long action under way.
#[derive(Debug)]
pub struct Job {
    /// What it does, in words: "going to merge 2000", "back to merge 0".
    pub what: String,
    /// Where it takes training, if it is a seek.
    pub target: Option<Mark>,
    /// The merge count training stood at when it began.
    pub from: usize,
    /// Where Esc takes training back to; `None` if Esc cannot (the job is
    /// itself a way back, follows the teacher, or opens the corpus).
    pub origin: Option<Mark>,
    /// The job is the way back from a cancelled one.
    pub returning: bool,
    /// Lesson commands to run once it is there (the steps a lesson replays
    /// when it goes back), each go-to among them a job of its own.
    pub then: Vec<crate::lesson::Command>,
    /// The lesson step to show again if it is cancelled.
    pub lesson_at: Option<Option<usize>>,
    pub run: Run,
}

impl Job {
    /// Take `trainer` to `target` the way [`Trainer::seek`] would: here,
    /// or by a replay on another thread (whose work is returned).
    pub fn seek(
        trainer: &Trainer,
        target: Mark,
        what: String,
        origin: Option<Mark>,
    ) -> (Job, Option<Work>) {
        let (run, work) = match trainer.seek_plan(target.merges) {
            SeekPlan::Replay => {
                let text = trainer.corpus().text().to_vec();
                let config = trainer.config().clone();
                let (away, work) = Away::start(move |progress| {
                    progress.set(Stage::Counting, 0, 0);
                    let mut fresh = Trainer::new(text, config)?;
                    let total = target.merges as u64;
                    while !progress.cancelled() {
                        progress.set(Stage::Replaying, fresh.merges().len() as u64, total);
                        if !move_toward(&mut fresh, target) {
                            break;
                        }
                    }
                    Ok((fresh, None))
                });
                away.progress.set(Stage::Counting, 0, 0);
                (Run::Replay(away), Some(work))
            }
            _ => (Run::Here { target }, None),
        };
        let job = Job {
            what,
            target: Some(target),
            from: trainer.merges().len(),
            origin,
            returning: false,
            then: Vec::new(),
            lesson_at: None,
            run,
        };
        (job, work)
    }

    /// Take the Unigram trainer, now at step `from`, to step `target`, a
    /// slice per frame; Esc goes back to step `origin` if there is one.
    pub fn unigram_steps(from: usize, target: usize, what: String, origin: Option<usize>) -> Job {
        Job {
            what,
            target: Some(Mark::seek(target)),
            from,
            origin: origin.map(Mark::seek),
            returning: false,
            then: Vec::new(),
            lesson_at: None,
            run: Run::Steps { target },
        }
    }

    /// Read the corpus file `path` (`total` bytes) and count it, on
    /// another thread.
    pub fn open(options: &TrainingOptions, path: &str, total: u64) -> (Job, Work) {
        let options = options.clone();
        let path = path.to_string();
        let name = path.clone();
        let (away, work) = Away::start(move |progress| {
            let config = crate::options::input::trainer_config(&options)?;
            let text = read_with_progress(&path, total, progress)?;
            progress.set(Stage::Counting, 0, 0);
            let trainer = crate::options::input::trainer_for_text(&options, &path, text, config)?;
            let lines = LineIndex::new(trainer.corpus().text());
            Ok((trainer, Some(lines)))
        });
        away.progress.set(Stage::Reading, 0, total);
        let job = Job {
            what: format!("opening {name}"),
            target: None,
            from: 0,
            origin: None,
            returning: false,
            then: Vec::new(),
            lesson_at: None,
            run: Run::Open(away),
        };
        (job, work)
    }

    /// Whether the job runs on another thread (the loop then only has to
    /// show its progress now and then).
    pub fn is_away(&self) -> bool {
        matches!(self.run, Run::Replay(_) | Run::Open(_))
    }

    pub fn is_opening(&self) -> bool {
        matches!(self.run, Run::Open(_))
    }

    pub fn away(&self) -> Option<&Away> {
        match &self.run {
            Run::Replay(a) | Run::Open(a) => Some(a),
            Run::Here { .. } | Run::Steps { .. } => None,
        }
    }
}

/// Read a file a block at a time, saying how much is read; stops early,
/// with an error nobody will see, if cancelled.
fn read_with_progress(path: &str, total: u64, progress: &Progress) -> Result<Vec<u8>> {
    use std::io::Read;
    let cannot = |e: std::io::Error| Error::input(format!("{path}: cannot read: {e}"));
    let mut file: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(cannot)?)
    };
    let mut text = Vec::with_capacity(total.min(MAX_CORPUS_BYTES) as usize);
    let mut block = vec![0u8; READ_BLOCK];
    loop {
        if progress.cancelled() {
            return Err(Error::failure("cancelled"));
        }
        progress.set(Stage::Reading, text.len() as u64, total);
        let n = match file.read(&mut block) {
            Ok(0) => return Ok(text),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(cannot(e)),
        };
        if (text.len() + n) as u64 > MAX_CORPUS_BYTES {
            return Err(too_big(path));
        }
        text.extend_from_slice(&block[..n]);
    }
}
