//! Lessons: a demo prepared once and replayed in class. A lesson file names
//! a corpus and training options, then steps, each with an optional
//! caption:
//!
//! ```text
//! corpus play
//! options --mode char --merges 12
//! step 1      "Three pairs tie at 10: which wins?"
//! phase chosen "The tie rule decides: first met."
//! say "Now the overlap case"
//! ```
//!
//! `step N` goes to merge N, `phase NAME` to that phase of the current
//! round, `say` only shows its caption; a quoted caption may end any line
//! and `#` starts a comment line. With `options --model unigram` a step is
//! a Unigram step (`step 3`: the seeding, then three EM iterations,
//! scorings or prunes), each a phase of its own, so there is no `phase`.

pub mod record;

use crate::options::args::TrainingOptions;
use bpeek_core::error::{Error, Result};
use clap::Parser;
use std::path::Path;

use crate::mark::Mark;
/// A phase of a round, as a lesson names it: the one every part shares.
pub use crate::mark::PhaseName;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Go to the state after this many merges: merged (counted at merge
    /// 0), whichever way it is reached, so a step shows the same screen
    /// going forward, back or from the start.
    Step(usize),
    /// Go to this many merges, in this phase (`step 4 counted`).
    StepTo(usize, PhaseName),
    /// Move to this phase of the current round.
    Phase(PhaseName),
    /// Only show the caption.
    Say,
}

impl Command {
    /// Where a step goes; `None` for the commands that are no step.
    pub fn target(&self) -> Option<Mark> {
        match *self {
            Command::Step(n) => Some(Mark::seek(n)),
            Command::StepTo(merges, phase) => Some(Mark {
                merges,
                phase: Some(phase),
            }),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonStep {
    pub command: Command,
    pub caption: Option<String>,
    /// Its line in the file, from 1.
    pub line: usize,
}

/// A lesson and where the class is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The file or bundled name it came from.
    pub name: String,
    pub corpus: Option<String>,
    /// The line the corpus is named on.
    pub corpus_line: usize,
    /// The words of the `options` line.
    pub options: Vec<String>,
    /// A caption on the corpus or options line: shown before the first step.
    pub intro: Option<String>,
    pub steps: Vec<LessonStep>,
    /// The step shown last; `None` before the first.
    pub at: Option<usize>,
}

/// A lesson file being read, line by line. Its errors are the message
/// only; the caller names the file and the line.
struct Reading {
    lesson: Lesson,
    saw_options: bool,
    /// The most merges the options allow, and the option that says so.
    budget: Option<(usize, String)>,
    /// The options train Unigram: a step is a Unigram step, each a phase.
    unigram: bool,
}

/// Why a Unigram lesson names no phase.
const UNIGRAM_PHASES: &str =
    "a Unigram step is one phase already (an EM iteration, the scoring or a prune): use step N";

impl Reading {
    /// One line that is no comment: its command, the command's words and
    /// the caption that ends it.
    fn line(
        &mut self,
        body: &str,
        caption: Option<String>,
        line: usize,
    ) -> std::result::Result<(), String> {
        let mut words = body.split_whitespace();
        let command = words.next().unwrap_or_default();
        let rest: Vec<&str> = words.collect();
        match command {
            "corpus" => self.corpus(&rest, caption, line),
            "options" => self.options(&rest, caption),
            "step" => self.step(&rest, caption, line),
            "phase" if self.unigram => Err(format!("phase: {UNIGRAM_PHASES}")),
            "phase" => {
                let phase = match rest[..] {
                    [name] => phase_named(name),
                    _ => None,
                }
                .ok_or("phase takes counted, chosen or merged, e.g. phase chosen")?;
                self.lesson.push(Command::Phase(phase), caption, line);
                Ok(())
            }
            "say" => {
                if !rest.is_empty() || caption.is_none() {
                    return Err("say takes a quoted caption: say \"...\"".into());
                }
                self.lesson.push(Command::Say, caption, line);
                Ok(())
            }
            other => Err(format!(
                "unknown command {other:?} (corpus, options, step, phase, say)"
            )),
        }
    }

    /// The corpus and options lines come before the steps.
    fn before_steps(&self, what: &str) -> std::result::Result<(), String> {
        if self.lesson.steps.is_empty() {
            Ok(())
        } else {
            Err(format!("{what} comes before the first step"))
        }
    }

    /// `corpus NAME`: the bundled corpus or file trained on.
    fn corpus(
        &mut self,
        rest: &[&str],
        caption: Option<String>,
        line: usize,
    ) -> std::result::Result<(), String> {
        self.before_steps("corpus")?;
        if self.lesson.corpus.is_some() {
            return Err("a lesson has one corpus line".into());
        }
        let [corpus] = rest[..] else {
            return Err("corpus takes one bundled name or path, e.g. corpus play".into());
        };
        self.lesson.corpus = Some(corpus.to_string());
        self.lesson.corpus_line = line;
        self.lesson.intro = caption.or(self.lesson.intro.take());
        Ok(())
    }

    /// `options ...`: training options, read as the command line reads
    /// them, and the most merges they allow.
    fn options(
        &mut self,
        rest: &[&str],
        caption: Option<String>,
    ) -> std::result::Result<(), String> {
        self.before_steps("options")?;
        if self.saw_options {
            return Err("a lesson has one options line".into());
        }
        self.saw_options = true;
        let options = OptionsLine::try_parse_from(rest).map_err(|e| {
            // A value the engine refused says so in its own words
            // ("unknown mode 'word' (valid: …)").
            if let Some(source) = std::error::Error::source(&e) {
                return source.to_string();
            }
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("bad options").trim();
            first.trim_start_matches("error: ").to_string()
        })?;
        let t = &options.training;
        if t.corpus.is_some() || t.corpus_name.is_some() {
            return Err("name the corpus on its own line: corpus NAME".into());
        }
        self.budget = merge_budget(t);
        self.unigram = t.unigram.is_unigram();
        self.lesson.options = rest.iter().map(|s| s.to_string()).collect();
        self.lesson.intro = caption.or(self.lesson.intro.take());
        Ok(())
    }

    /// `step N [PHASE]`: go to merge N (in that phase), within the
    /// options' budget.
    fn step(
        &mut self,
        rest: &[&str],
        caption: Option<String>,
        line: usize,
    ) -> std::result::Result<(), String> {
        let (n, phase) = match rest[..] {
            [n] => (n.parse::<usize>().ok(), None),
            [n, phase] => (n.parse::<usize>().ok(), phase_named(phase)),
            _ => (None, None),
        };
        if self.unigram && rest.len() > 1 {
            return Err(format!("step N PHASE: {UNIGRAM_PHASES}"));
        }
        let n = n.filter(|_| rest.len() == 1 || phase.is_some()).ok_or(
            "step takes a merge number and perhaps a phase, e.g. step 3 or step 3 counted",
        )?;
        if let Some((most, option)) = &self.budget
            && n > *most
        {
            return Err(format!(
                "step {n} is past the {most} merges the options allow ({option})"
            ));
        }
        let command = match phase {
            Some(phase) => Command::StepTo(n, phase),
            None => Command::Step(n),
        };
        self.lesson.push(command, caption, line);
        Ok(())
    }
}

/// The most merges training options allow, and the option that says so:
/// `--merges`, or `--vocab-size` in byte mode.
fn merge_budget(t: &TrainingOptions) -> Option<(usize, String)> {
    match (t.merges, t.vocab_size) {
        (Some(m), _) => Some((m, format!("--merges {m}"))),
        // In byte mode the base vocabulary is known: 256 bytes and the
        // special tokens.
        (None, Some(v)) if t.mode == bpeek_core::Mode::Byte => Some((
            v.saturating_sub(256 + crate::options::input::distinct_specials(&t.specials)),
            format!("--vocab-size {v}"),
        )),
        _ => None,
    }
}

/// The training options of an `options` line, read as the command line
/// reads them.
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct OptionsLine {
    #[command(flatten)]
    training: TrainingOptions,
}

impl Lesson {
    /// Read the lesson in `text`; `name` is how errors name it.
    pub fn parse(name: &str, text: &str) -> Result<Lesson> {
        let mut reading = Reading {
            lesson: Lesson {
                name: name.to_string(),
                corpus: None,
                corpus_line: 0,
                options: Vec::new(),
                intro: None,
                steps: Vec::new(),
                at: None,
            },
            saw_options: false,
            budget: None,
            unigram: false,
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let bad = |msg: String| Error::input(format!("{name}: line {line}: {msg}"));
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (body, caption) = split_caption(trimmed).map_err(bad)?;
            reading.line(body, caption, line).map_err(bad)?;
        }
        let lesson = reading.lesson;
        if lesson.steps.is_empty() {
            return Err(Error::input(format!(
                "{name}: the lesson has no steps (step N, phase NAME or say \"...\")"
            )));
        }
        Ok(lesson)
    }

    fn push(&mut self, command: Command, caption: Option<String>, line: usize) {
        self.steps.push(LessonStep {
            command,
            caption,
            line,
        });
    }

    /// The training options the lesson asks for; a corpus path is taken
    /// relative to the lesson file's folder (`dir`).
    pub fn training_options(&self, dir: Option<&Path>) -> Result<TrainingOptions> {
        let mut options = OptionsLine::try_parse_from(&self.options)
            .map_err(|e| Error::input(format!("{}: options: {e}", self.name)))?
            .training;
        match &self.corpus {
            Some(c) if bpeek_core::corpora::find(c).is_some() => {
                options.corpus_name = Some(c.clone())
            }
            Some(c) => {
                let path = Path::new(c);
                let path = match dir {
                    Some(d) if path.is_relative() => d.join(path),
                    _ => path.to_path_buf(),
                };
                if !path.exists() {
                    let names: Vec<&str> = bpeek_core::corpora::BUNDLED
                        .iter()
                        .map(|b| b.name)
                        .collect();
                    return Err(Error::input(format!(
                        "{}: line {}: corpus {}: no bundled corpus has that name ({}) and there is no such file",
                        self.name,
                        self.corpus_line,
                        bpeek_core::error::quoted(c),
                        names.join(", ")
                    )));
                }
                options.corpus = Some(path.to_string_lossy().into_owned());
            }
            None => {}
        }
        Ok(options)
    }

    /// The caption to show now.
    pub fn caption(&self) -> Option<&str> {
        match self.at {
            Some(i) => self.steps[i].caption.as_deref(),
            None => self.intro.as_deref(),
        }
    }

    /// The caption bar: `lesson 3/9  caption`, with what to press when the
    /// step has no caption.
    pub fn bar_text(&self) -> String {
        let hint = match self.at {
            None => "Space starts the lesson",
            Some(i) if i + 1 == self.steps.len() => "the end: Left goes back",
            Some(_) => "Space: next, Left: back",
        };
        format!(
            "lesson {}  {}",
            self.progress(),
            self.caption().unwrap_or(hint)
        )
    }

    /// `3/9` (`0/9` before the first step).
    pub fn progress(&self) -> String {
        match self.at {
            Some(i) => format!("{}/{}", i + 1, self.steps.len()),
            None => format!("0/{}", self.steps.len()),
        }
    }
}

/// A line's command and its caption: a quoted string that ends the line
/// (`\"` for a quote inside it).
fn split_caption(line: &str) -> std::result::Result<(&str, Option<String>), String> {
    let Some(open) = line.find('"') else {
        return Ok((line, None));
    };
    let quoted = &line[open + 1..];
    let mut caption = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, '"')) => caption.push('"'),
                Some((_, '\\')) => caption.push('\\'),
                Some((_, other)) => {
                    caption.push('\\');
                    caption.push(other);
                }
                None => caption.push('\\'),
            },
            '"' => {
                if !quoted[i + 1..].trim().is_empty() {
                    return Err(
                        "a caption ends the line: nothing may follow its closing quote".into(),
                    );
                }
                return Ok((line[..open].trim(), Some(caption)));
            }
            c => caption.push(c),
        }
    }
    Err("the caption has no closing quote".into())
}

/// A caption as a lesson file writes it.
pub fn quote(caption: &str) -> String {
    format!("\"{}\"", caption.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The phase a lesson names.
fn phase_named(word: &str) -> Option<PhaseName> {
    match word {
        "counted" => Some(PhaseName::Counted),
        "chosen" => Some(PhaseName::Chosen),
        "merged" => Some(PhaseName::Merged),
        _ => None,
    }
}
