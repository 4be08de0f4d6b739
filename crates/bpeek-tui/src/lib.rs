//! The full-screen explorer: a class watches a tokenizer take shape, one
//! merge (or one phase of a merge) at a time.
//!
//! The shape is model / action / update / view. [`App`] holds everything the
//! screen shows, [`Action`] is everything a user can ask for, [`update`] is
//! the only place behaviour lives, and the views under [`view`] are functions
//! of `&App`. Keys become actions through the table in [`keymap`], which also
//! feeds the footer and the help overlay. The loop in [`runner`] takes its
//! events from any [`EventSource`] and draws to any ratatui backend, so tests
//! drive the real loop with scripted events and a `TestBackend`.

pub mod action;
pub mod app;
pub mod class;
pub mod compare;
pub mod compare_cuts;
pub mod compare_unigram;
pub mod comparing;
pub mod event;
pub mod fertility;
pub mod frames;
pub mod freed_memory;
pub mod glossary;
pub mod job;
pub mod keymap;
pub mod layout;
pub mod lesson;
pub mod mark;
pub mod mouse;
pub mod options;
pub mod panes;
pub mod picker;
pub mod runner;
pub mod snapshot;
pub mod svg;
pub mod terminal;
pub mod theme;
pub mod update;
pub mod view;

pub use action::Action;
pub use app::App;
pub use event::{Event, EventSource, ScriptedEvents};
pub use runner::run_loop;
pub use terminal::screen::Screen;
pub use update::update;

use crate::options::args::{TrainingOptions, TuiArgs};
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::same_file::{Role, refuse_outputs_over_inputs};
use std::io::IsTerminal;
use theme::Theme;

/// `bpeek tui`: open the explorer on the terminal this process runs in.
pub fn run(args: &TuiArgs) -> Result<()> {
    // Options are checked first, so a wrong one is reported as such anywhere.
    let theme = Theme::new(
        args.screen.color.for_this_terminal(),
        args.screen.ascii_here(),
    )
    .with_palette(theme::Palette::from_env());
    refuse_for_unigram(args)?;
    let lesson = args.lesson.as_deref().map(load_lesson).transpose()?;
    let training = match &lesson {
        Some((lesson, dir)) => {
            if args.training != TrainingOptions::default() {
                return Err(Error::input(format!(
                    "{}: a lesson names its corpus and options; give them in the lesson, not on the command line",
                    lesson.name
                )));
            }
            lesson.training_options(dir.as_deref())?
        }
        None => args.training.clone(),
    };
    if let Some(dir) = &args.snapshot {
        // The command line asks for a lesson with --snapshot; said again
        // here for callers that build the options themselves.
        let Some((lesson, _)) = lesson else {
            return Err(Error::input(
                "--snapshot draws the steps of a lesson: give --lesson NAME|FILE",
            ));
        };
        return snapshot::run(args, dir, lesson, &training);
    }
    // An output that cannot be written, or that is one of the inputs, is
    // said before the screen opens.
    if let Some(record) = &args.record {
        let mut roles = crate::options::input_roles(&training);
        roles.extend(crate::options::tokenizer_roles(&args.screen.tokenizers));
        roles.extend(args.lesson.iter().map(|l| Role::reads("the lesson", l)));
        roles.extend(args.english.iter().map(|e| Role::reads("--english", e)));
        roles.push(Role::writes("--record", record));
        refuse_outputs_over_inputs(&roles)?;
    }
    let mut record = args
        .record
        .as_deref()
        .map(bpeek_core::formats::atomic::Output::create)
        .transpose()?;
    if lesson.is_some() && !args.screen.compare.is_empty() {
        return Err(Error::input(
            "--compare: a lesson trains one configuration; give --compare without --lesson",
        ));
    }
    let mut app = if training.unigram.is_unigram() {
        say_if_seeding_takes_a_while(&training);
        App::unigram(&training, theme)?
    } else if args.screen.compare.is_empty() {
        App::opening(&training, theme)?
    } else {
        comparing::app(&training, &args.screen.compare, theme)?
    };
    app.lesson = lesson.map(|(l, _)| l);
    app.d_model = args.d_model;
    if record.is_some() {
        app.recording = Some(lesson::record::Recording::new(app.current));
    }
    // A wrong --tokenizer is a usage error here as in `encode`, not a
    // message inside the screen.
    for spec in &args.screen.tokenizers {
        bpeek_core::formats::load::check(spec)?;
    }
    for spec in &args.screen.tokenizers {
        app.add_tokenizer(spec);
    }
    if let Some(path) = &args.english {
        let text = bpeek_core::formats::files::read_text(std::path::Path::new(path))?;
        app.fert.english = Some((path.clone(), text));
    }
    if !std::io::stdout().is_terminal() {
        return Err(Error::input(
            "the explorer needs a terminal, but stdout is not one (for text output use `bpeek train`)",
        ));
    }
    terminal::mode::use_mouse(!args.screen.no_mouse);
    let result = terminal::run_app(&mut app);
    if record.is_some() && terminal::signals::received().is_none() {
        // A step still under way at `q` (a lesson's step back, a go-to)
        // is finished, so the recording ends where the screen said
        // training was.
        finish_jobs(&mut app);
    }
    if let (Some(out), Some(rec)) = (record.as_mut(), &app.recording) {
        let corpus = app
            .options
            .corpus
            .clone()
            .or_else(|| app.options.corpus_name.clone())
            .unwrap_or_else(|| bpeek_core::corpora::DEFAULT_NAME.to_string());
        let text = rec.text(&corpus, &app.options);
        let w = out.writer()?;
        w.write_all(text.as_bytes())
            .map_err(|e| out.write_error(&e))?;
        bpeek_core::formats::atomic::commit_all(vec![out])?;
    }
    // The terminal is restored by now; a signal ends the process the way
    // the shell expects of one it killed.
    if let Some(signal) = terminal::signals::received() {
        std::process::exit(128 + signal);
    }
    result
}

/// Seeding a Unigram corpus of megabytes takes seconds before the screen
/// opens: a line on stderr says what is under way rather than nothing.
fn say_if_seeding_takes_a_while(training: &TrainingOptions) {
    let Some(path) = training.corpus.as_deref().filter(|p| *p != "-") else {
        return;
    };
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    if bytes >= 1 << 20 {
        eprintln!(
            "bpeek: seeding the Unigram pieces of {path} ({:.1} MB)...",
            bytes as f64 / 1e6
        );
    }
}

/// Unigram's options on BPE training, and what Unigram mode does not
/// offer, refused by name before anything is read.
fn refuse_for_unigram(args: &TuiArgs) -> Result<()> {
    let unigram = &args.training.unigram;
    if !unigram.is_unigram() {
        return crate::options::unigram::refuse_unigram_options(unigram);
    }
    let given = [
        (
            "--compare (a Unigram column follows BPE columns: give --compare \"\" --compare \"--model unigram\")",
            !args.screen.compare.is_empty(),
        ),
        ("--d-model", args.d_model.is_some()),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((name, _)) => Err(Error::input(format!(
            "--model unigram: the explorer takes no {name}"
        ))),
        None => crate::options::unigram::refuse_bpe_options(&args.training),
    }
}

/// Run the long action under way to its end, here and now (the work
/// meant for another thread too), each slice noted as the loop notes it.
fn finish_jobs(app: &mut App) {
    while app.jobs.current.is_some() {
        for work in app.take_work() {
            work.run();
        }
        update(app, Action::JobMore);
    }
}

/// A lesson by file or bundled name, with the folder its corpus path is
/// relative to.
/// The lesson `spec` names (a file, or a bundled lesson by name) and the
/// folder its corpus paths are read from.
pub fn load_lesson(spec: &str) -> Result<(lesson::Lesson, Option<std::path::PathBuf>)> {
    let path = std::path::Path::new(spec);
    if path.exists() {
        let text = bpeek_core::formats::files::read_text(path)?;
        let dir = path.parent().map(|d| d.to_path_buf());
        return Ok((lesson::Lesson::parse(spec, &text)?, dir));
    }
    match bpeek_core::corpora::find_lesson(spec) {
        Some(l) => Ok((lesson::Lesson::parse(l.name, l.text)?, None)),
        None => Err(Error::input(format!(
            "{spec}: no such lesson file or bundled lesson (bundled: {})",
            bpeek_core::corpora::LESSONS
                .iter()
                .map(|l| l.name)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
