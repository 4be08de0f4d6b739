//! The progress bar of a headless `bpeek train`: on stderr, and only when
//! stderr is a terminal and `--quiet` is not given, so pipes, files and
//! scripts see exactly the report and nothing else.

use bpeek_core::Trainer;
use bpeek_core::train::trainer::{Merge, StopReason};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::fmt;
use std::io::IsTerminal;
use std::time::Duration;

pub struct TrainProgress {
    bar: ProgressBar,
}

impl TrainProgress {
    /// A spinner for reading and counting, shown if stderr is a terminal
    /// and `quiet` is off; hidden otherwise.
    pub fn start(quiet: bool) -> Self {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        };
        TrainProgress { bar }
    }

    /// Name what is being done now (reading the corpus, counting pairs).
    pub fn phase(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }

    /// Switch to counting merges once the trainer is built: a bar of k / N
    /// with rate and time left when there is a budget, a counter otherwise.
    pub fn merging(&self, trainer: &Trainer) {
        self.bar.disable_steady_tick();
        let template = match trainer.config().max_merges {
            Some(n) => {
                self.bar.set_length(n as u64);
                "merges {bar:30} {pos}/{len}  {rate}  ETA {eta}  {msg}"
            }
            None => "merges {pos}  {rate}  {elapsed}  {msg}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            let style = style
                .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                    let _ = write!(w, "{:.0} merges/s", state.per_sec());
                })
                .progress_chars("=> ");
            self.bar.set_style(style);
        }
        self.bar.set_message("");
        self.bar.set_position(trainer.merges().len() as u64);
    }

    /// A line on stderr for the user, above the bar (not torn through it).
    pub fn note(&self, line: &str) {
        self.bar.suspend(|| bpeek_core::tell!("bpeek: {line}"));
    }

    /// One more merge was made.
    pub fn merged(&self, merge: &Merge) {
        self.bar.set_position(merge.rank as u64 + 1);
    }

    /// Step `trainer` to its stop, showing each merge.
    pub fn run(&self, trainer: &mut Trainer) -> StopReason {
        loop {
            match trainer.step() {
                Ok(merge) => self.merged(merge),
                Err(reason) => return reason,
            }
        }
    }

    /// Take the bar off the screen before the report is printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for TrainProgress {
    /// An error on the way out must not leave a bar behind its message.
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
