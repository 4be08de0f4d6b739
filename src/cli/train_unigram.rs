//! `bpeek train --model unigram`: Unigram training to the vocabulary size,
//! its rounds reported, the vocabulary written as a Hugging Face
//! `tokenizer.json` or a SentencePiece `.model`.

use crate::cli::args::{OutFormat, TrainArgs};
use crate::cli::input::corpus_text;
use crate::cli::train_unigram_report::Report;
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::atomic::{Output, commit_all};
use bpeek_core::formats::same_file::{Role, refuse_outputs_over_inputs};
use bpeek_core::formats::{spm_export, unigram_json};
use bpeek_core::train::unigram::{UnigramConfig, UnigramTrainer, UnigramVocabulary, WordMarks};
use std::path::Path;
use std::time::Instant;

/// The vocabulary size when none is given (sentencepiece's default).
const DEFAULT_VOCAB_SIZE: usize = 8000;

pub fn run(args: &TrainArgs) -> Result<()> {
    refuse_bpe_options(args)?;
    let config = config(args)?;
    let format = out_format(args, config.marks)?;
    let mut roles = bpeek_tui::options::input_roles(&args.training);
    roles.extend(args.out.as_deref().map(|p| Role::writes("--out", p)));
    refuse_outputs_over_inputs(&roles)?;
    crate::interrupt::clean_up_on_signals();
    let mut out = args.out.as_deref().map(Output::create).transpose()?;
    let (name, text) = corpus_text(&args.training)?;
    // Each step is timed: the report says what every step cost.
    let started = Instant::now();
    let mut trainer = UnigramTrainer::new(&text, config)?;
    let mut seconds = vec![started.elapsed().as_secs_f64()];
    let stop = loop {
        let t = Instant::now();
        if let Err(stop) = trainer.step() {
            break stop;
        }
        seconds.push(t.elapsed().as_secs_f64());
    };
    let vocabulary = UnigramVocabulary::of(&trainer);
    if let Some(out) = &mut out {
        let vocabulary = vocabulary.as_ref().map_err(Clone::clone)?;
        let bytes = match format {
            OutFormat::Sentencepiece => spm_export::to_bytes(vocabulary)?,
            _ => {
                let mut b = serde_json::to_vec_pretty(&unigram_json::to_json(vocabulary))
                    .map_err(|e| Error::failure(e.to_string()))?;
                b.push(b'\n');
                b
            }
        };
        let w = out.writer()?;
        w.write_all(&bytes).map_err(|e| out.write_error(&e))?;
    }
    let report_to_stdout = !out.as_ref().is_some_and(Output::is_stdout);
    if let Some(out) = &mut out {
        commit_all(vec![out])?;
    }
    let report = Report {
        corpus: &name,
        corpus_bytes: text.len(),
        trainer: &trainer,
        stop,
        vocab_size: trainer.config().reserved() + trainer.pieces().alive().len(),
        all_scores: args.unigram.scores,
        seconds: &seconds,
        d_model: args.d_model,
    };
    bpeek_core::output::emit_with(!report_to_stdout, |w| match args.format {
        crate::cli::args::Format::Json => report.write_json(w),
        crate::cli::args::Format::Text => report.write_text(w),
    })
}

/// The trainer's settings from the options, sentencepiece's defaults
/// where none is given.
fn config(args: &TrainArgs) -> Result<UnigramConfig> {
    bpeek_tui::options::unigram::config(&args.training, DEFAULT_VOCAB_SIZE)
}

/// The file format `--out` is written in: as asked, or by its name.
fn out_format(args: &TrainArgs, marks: WordMarks) -> Result<OutFormat> {
    let format = match (args.out_format, args.out.as_deref()) {
        (OutFormat::Bpeek, Some(path)) if is_model_file(path) => OutFormat::Sentencepiece,
        (OutFormat::Bpeek, _) => OutFormat::Hf,
        (OutFormat::Tiktoken, _) => {
            return Err(Error::input(
                "--out-format tiktoken: a Unigram vocabulary has no merges to rank; write hf (tokenizer.json) or sentencepiece (.model)",
            ));
        }
        (other, _) => other,
    };
    if format == OutFormat::Sentencepiece && args.out.is_some() {
        spm_export::check(marks)?;
    }
    Ok(format)
}

fn is_model_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "model")
}

/// Refuse the options of BPE training that Unigram training has no use
/// for, each by name.
fn refuse_bpe_options(args: &TrainArgs) -> Result<()> {
    bpeek_tui::options::unigram::refuse_bpe_options(&args.training)?;
    let given = [
        ("--trace", args.trace.is_some()),
        ("--compare", !args.compare.is_empty()),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((name, _)) => Err(Error::input(format!("--model unigram takes no {name}"))),
        None => Ok(()),
    }
}

/// Refuse Unigram's options on a BPE training.
pub fn refuse_unigram_options(args: &TrainArgs) -> Result<()> {
    bpeek_tui::options::unigram::refuse_unigram_options(&args.training.unigram)?;
    if args.unigram.scores {
        return Err(Error::input(
            "--scores is an option of Unigram training: add --model unigram",
        ));
    }
    Ok(())
}
