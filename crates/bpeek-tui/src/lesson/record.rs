//! Recording a session as a lesson (`bpeek tui --record FILE`): where
//! training stood after each action, written as `step N` and `phase NAME`
//! lines a teacher can then caption and replay.

use crate::options::args::TrainingOptions;
use bpeek_core::Trainer;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    /// The corpus recorded: actions on other corpora are not lesson steps.
    pub source: usize,
    /// The merge count and phase last written.
    last: (usize, &'static str),
    pub lines: Vec<String>,
}

impl Recording {
    pub fn new(source: usize) -> Self {
        Recording {
            source,
            last: (0, "counted"),
            lines: Vec::new(),
        }
    }

    /// Write down where training stands if it moved, as one line that
    /// replays it: `step N` when the merge count changed (`step N PHASE`
    /// if the phase is not the one `step N` lands in: merged after a
    /// merge, counted at merge 0), `phase NAME` when only the phase did.
    pub fn note(&mut self, trainer: &Trainer) {
        let now = (trainer.merges().len(), trainer.phase().name());
        if now == self.last {
            return;
        }
        let (merges, phase) = now;
        let after_step = if merges > 0 { "merged" } else { "counted" };
        if merges != self.last.0 {
            if phase == after_step {
                self.lines.push(format!("step {merges}"));
            } else {
                self.lines.push(format!("step {merges} {phase}"));
            }
        } else {
            self.lines.push(format!("phase {phase}"));
        }
        self.last = now;
    }

    /// Write down the Unigram step training stands at if it moved, as
    /// `step N` (each Unigram step is a phase of its own).
    pub fn note_unigram(&mut self, steps: usize) {
        if steps != self.last.0 {
            self.lines.push(format!("step {steps}"));
            self.last = (steps, "counted");
        }
    }

    /// The lesson file: the corpus, the options that differ from the
    /// defaults, then the steps.
    pub fn text(&self, corpus: &str, options: &TrainingOptions) -> String {
        let mut out = String::from("# recorded by bpeek tui --record: add captions in quotes\n");
        out.push_str(&format!("corpus {corpus}\n"));
        let words = option_words(options);
        if !words.is_empty() {
            out.push_str(&format!("options {}\n", words.join(" ")));
        }
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// The training options as `options` line words, defaults left out.
fn option_words(o: &TrainingOptions) -> Vec<String> {
    let d = TrainingOptions::default();
    let mut w: Vec<String> = Vec::new();
    let mut add = |name: &str, value: String| {
        w.push(format!("--{name}"));
        w.push(value);
    };
    if o.mode != d.mode {
        add("mode", o.mode.name().to_string());
    }
    if let Some(p) = &o.pretok {
        add("pretok", p.name().to_string());
    }
    if o.digits != d.digits {
        add("digits", o.digits.name().to_string());
    }
    if let Some(m) = o.merges {
        add("merges", m.to_string());
    }
    if let Some(v) = o.vocab_size {
        add("vocab-size", v.to_string());
    }
    if o.min_count != d.min_count {
        add("min-count", o.min_count.to_string());
    }
    if o.tie != d.tie {
        add("tie", o.tie.name().to_string());
    }
    for s in &o.specials {
        add("special", s.clone());
    }
    unigram_words(&o.unigram, &mut w);
    w
}

/// The Unigram options as `options` line words, those not given left out.
fn unigram_words(u: &crate::options::unigram::UnigramOptions, w: &mut Vec<String>) {
    if !u.is_unigram() {
        return;
    }
    w.extend(["--model".to_string(), "unigram".to_string()]);
    let values = [
        ("seed-size", u.seed_size.map(|n| n.to_string())),
        (
            "shrinking-factor",
            u.shrinking_factor.map(|f| f.to_string()),
        ),
        ("em-iterations", u.em_iterations.map(|n| n.to_string())),
        (
            "max-piece-length",
            u.max_piece_length.map(|n| n.to_string()),
        ),
    ];
    for (name, value) in values {
        if let Some(v) = value {
            w.extend([format!("--{name}"), v]);
        }
    }
    if u.byte_fallback {
        w.push("--byte-fallback".to_string());
    }
}
