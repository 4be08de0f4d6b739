//! `bpeek train`: run training to a stop and report the merges.

use crate::cli::args::{Format, OutFormat, TrainArgs};
use crate::cli::input::{build_trainer_with, trainer_config};
use crate::cli::train_merge_line;
use crate::cli::train_progress::TrainProgress;
use bpeek_core::embedding::EmbeddingCost;
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::atomic::{Output, commit_all};
use bpeek_core::formats::same_file::{Role, refuse_outputs_over_inputs};
use bpeek_core::formats::trace_file::{Bounded, TraceWriter};
use bpeek_core::formats::{hf_export, tiktoken_export, tokenizer_file};
use bpeek_core::train::trainer::StopReason;
use bpeek_core::{Mode, Score, Trainer};
use serde_json::{Value, json};
use std::io::Write;

/// Above this size (estimated before training, or reached while writing)
/// the size of the trace is said.
const TRACE_WARN: u64 = 100_000_000;

pub fn run(args: &TrainArgs) -> Result<()> {
    if args.training.unigram.is_unigram() {
        return crate::cli::train_unigram::run(args);
    }
    crate::cli::train_unigram::refuse_unigram_options(args)?;
    if !args.compare.is_empty() {
        return crate::cli::train_compare::run(args);
    }
    // Every output is checked, and its temporary file made, before the
    // corpus is read: a wrong path costs nothing.
    check_distinct(args)?;
    check_out_format(args)?;
    crate::interrupt::clean_up_on_signals();
    let mut trace_out = args.trace.as_deref().map(Output::create).transpose()?;
    let mut tokenizer_out = args.out.as_deref().map(Output::create).transpose()?;

    let progress = TrainProgress::start(args.quiet);
    let (name, mut trainer) = build_trainer_with(&args.training, false, |p| progress.phase(p))?;
    // HF and rank files write tokens out whole, and bound them tighter.
    if matches!(args.out_format, OutFormat::Hf | OutFormat::Tiktoken) {
        trainer.set_max_token_bytes(bpeek_core::formats::limits::MAX_IMPORTED_TOKEN_BYTES);
    }
    progress.merging(&trainer);
    let tokens_before = trainer.corpus_tokens();
    let stop = match &mut trace_out {
        Some(out) => {
            check_trace_size(&trainer, args.trace_top, args.trace_max)?;
            let w = out.writer()?;
            let mut bounded = Bounded::new(w, args.trace_max);
            write_trace(&mut bounded, &mut trainer, args.trace_top, &progress).map_err(|e| {
                if Bounded::is_bound(&e) {
                    trace_too_big(&trainer, args)
                } else {
                    out.write_error(&e)
                }
            })?
        }
        None => progress.run(&mut trainer),
    };
    progress.finish();
    let tokenizer = trainer.tokenizer().with_specials(&args.training.specials);
    if let Some(out) = &mut tokenizer_out {
        let w = out.writer()?;
        // JSON goes straight to the file, not through a string of its own.
        let pretty = |w: &mut dyn Write, value: &Value| {
            serde_json::to_writer_pretty(&mut *w, value)
                .map_err(std::io::Error::from)
                .and_then(|()| w.write_all(b"\n"))
        };
        let written = match args.out_format {
            OutFormat::Bpeek => pretty(w, &tokenizer_file::to_json(&tokenizer)),
            OutFormat::Hf => pretty(w, &hf_export::to_json(&tokenizer)?),
            OutFormat::Sentencepiece => unreachable!("refused before training"),
            OutFormat::Tiktoken => {
                let text = tiktoken_export::to_text(&tokenizer)?;
                w.write_all(text.as_bytes()).and_then(|()| {
                    if text.ends_with('\n') {
                        Ok(())
                    } else {
                        w.write_all(b"\n")
                    }
                })
            }
        };
        written.map_err(|e| out.write_error(&e))?;
    }
    // The trace is renamed first: a tokenizer file of this run always has
    // its trace beside it.
    let report_to_stdout = ![&trace_out, &tokenizer_out]
        .iter()
        .any(|o| o.as_ref().is_some_and(Output::is_stdout));
    commit_all(
        [&mut trace_out, &mut tokenizer_out]
            .into_iter()
            .filter_map(Option::as_mut)
            .collect(),
    )?;
    let report = Report {
        corpus: &name,
        trainer: &trainer,
        stop,
        tokens_before,
        vocab_size: tokenizer.vocab_size(),
        d_model: args.d_model,
    };
    // Standard output may hold a file: the report then goes beside it, on
    // stderr, not into it. It is written as it goes, a merge per line.
    let written = bpeek_core::output::emit_with(!report_to_stdout, |out| match args.format {
        Format::Json => report.write_json(out),
        Format::Text => report.write_text(out),
    });
    // The process ends here: the pair table, the chain and the merges are
    // millions of small allocations the system takes back at once, while
    // freeing them one by one is a few percent of a run.
    std::mem::forget(trainer);
    std::mem::forget(tokenizer);
    written
}

/// Refuse, before any work, an `--out-format` that cannot hold what the
/// options train; say how a rank file is to be loaded.
fn check_out_format(args: &TrainArgs) -> Result<()> {
    let config = trainer_config(&args.training)?;
    if args.out.is_some()
        && config.mode == bpeek_core::Mode::Char
        && config.score == bpeek_core::Score::WordPiece
    {
        return Err(Error::input(
            "--out: a char-mode vocabulary with WordPiece's ## symbols (--mode char --score wordpiece) is not written to a tokenizer file yet; train it without --out to see its merges",
        ));
    }
    match args.out_format {
        OutFormat::Bpeek => {}
        OutFormat::Sentencepiece => {
            return Err(Error::input(
                "--out-format sentencepiece: only a Unigram vocabulary (--model unigram) is written as a SentencePiece .model",
            ));
        }
        OutFormat::Hf => hf_export::check(config.mode, config.chunker())?,
        OutFormat::Tiktoken => {
            tiktoken_export::check(config.mode, config.digits)?;
            if !args.training.specials.is_empty() {
                return Err(Error::input(
                    "--out-format tiktoken: a rank file has no place for special tokens (--special)",
                ));
            }
            if let Some(out) = &args.out {
                bpeek_core::tell!(
                    "load the rank file with --tokenizer {}:{}",
                    out.display(),
                    config.pretok.name()
                );
            }
        }
    }
    Ok(())
}

/// Refuse a run whose corpus (or count files), tokenizer and trace are not
/// different files: writing one would destroy another.
fn check_distinct(args: &TrainArgs) -> Result<()> {
    let mut roles = bpeek_tui::options::input_roles(&args.training);
    roles.extend(args.out.as_deref().map(|p| Role::writes("--out", p)));
    roles.extend(args.trace.as_deref().map(|p| Role::writes("--trace", p)));
    refuse_outputs_over_inputs(&roles)
}

/// Estimate the size of the trace before training, from the pairs counted
/// in round 0 and the most rounds the run can make.
pub fn trace_estimate(trainer: &Trainer, top: Option<usize>) -> (u64, u64, u64) {
    let possible: u64 = (0..trainer.corpus().chunks().len())
        .map(|i| trainer.chunk_symbols(i).len().saturating_sub(1) as u64)
        .sum();
    let rounds = trainer
        .config()
        .max_merges
        .map_or(possible, |m| (m as u64).min(possible));
    let pairs = (trainer.pairs().len() as u64).min(top.map_or(u64::MAX, |k| k as u64));
    // A candidate is about `{"pair":[1234,5678],"count":90},` (char mode:
    // two short strings); a round adds its winner and counts.
    let per_pair = if trainer.config().mode == Mode::Char {
        40
    } else {
        34
    };
    (rounds, pairs, rounds * (pairs * per_pair + 200))
}

fn check_trace_size(trainer: &Trainer, top: Option<usize>, max: u64) -> Result<()> {
    let (rounds, pairs, bytes) = trace_estimate(trainer, top);
    let about = format!(
        "a trace of up to {rounds} rounds with up to {pairs} candidate pairs each is about {}",
        human_bytes(bytes)
    );
    if bytes > max && top.is_none() {
        return Err(Error::input(format!(
            "--trace: {about}, above --trace-max {}; keep the top pairs of each round with --trace-top K (e.g. --trace-top 100), train fewer merges, or raise --trace-max",
            human_bytes(max)
        )));
    }
    if bytes > TRACE_WARN {
        bpeek_core::tell!("bpeek: --trace: {about}");
    }
    Ok(())
}

fn human_bytes(b: u64) -> String {
    match b {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{} kB", b.div_ceil(1000)),
    }
}

/// Training stopped because the trace reached `--trace-max` as it was
/// written; the temporary file is removed when its output is dropped.
fn trace_too_big(trainer: &Trainer, args: &TrainArgs) -> Error {
    let rounds = trainer.merges().len();
    let hint = if args.trace_top.is_some() {
        "keep fewer pairs with a smaller --trace-top, train fewer merges, or raise --trace-max"
    } else {
        "keep the top pairs of each round with --trace-top K (e.g. --trace-top 100), train fewer merges, or raise --trace-max"
    };
    Error::input(format!(
        "--trace: the trace reached --trace-max {} after {rounds} rounds; training stopped and no trace was written; {hint}",
        human_bytes(args.trace_max)
    ))
}

/// Train to the end, writing each round to the trace as it happens, and
/// say once when the trace passes [`TRACE_WARN`].
fn write_trace(
    w: &mut Bounded,
    trainer: &mut Trainer,
    top: Option<usize>,
    progress: &TrainProgress,
) -> std::io::Result<StopReason> {
    let mut warned = false;
    let mut trace = TraceWriter::start(w, trainer, top)?;
    let stop = loop {
        if !warned && trace.written() > TRACE_WARN {
            warned = true;
            progress.note(&format!(
                "--trace: the trace has passed {} at round {}",
                human_bytes(TRACE_WARN),
                trainer.merges().len()
            ));
        }
        let candidates = trace.candidates(trainer);
        let pairs_total = trainer.pairs().len();
        let choice = match trainer.peek_choice() {
            Ok(c) => c,
            Err(reason) => break reason,
        };
        let merge = trainer.step().expect("a choice was available").clone();
        progress.merged(&merge);
        trace.round(trainer, pairs_total, candidates, &choice, &merge)?;
    };
    trace.finish(stop)?;
    Ok(stop)
}

struct Report<'a> {
    corpus: &'a str,
    trainer: &'a Trainer,
    stop: StopReason,
    tokens_before: u64,
    vocab_size: usize,
    /// `--d-model`: the width the vocabulary's cost is reported for.
    d_model: Option<u32>,
}

impl Report<'_> {
    /// Why training stopped, in words; an empty corpus is named as such
    /// rather than as a corpus with no pairs left.
    fn stop_message(&self) -> String {
        if self.trainer.corpus().source_len() == 0 {
            format!(
                "the corpus {} is empty, so there is nothing to merge",
                self.corpus
            )
        } else {
            self.stop.to_string()
        }
    }

    /// The report as one line of JSON, written a merge at a time: memory
    /// holds one merge's value, not the whole report's.
    fn write_json(&self, out: &mut dyn Write) -> std::io::Result<()> {
        // Everything but the merges, with an empty list where they go, so
        // the fields keep the order and form one value would give them.
        let head = self.json_with(Vec::new()).to_string();
        let slot = "\"merges\":[]";
        let at = head.find(slot).expect("the report has a merge list");
        out.write_all(&head.as_bytes()[..at + slot.len() - 1])?;
        let vocab = self.trainer.vocab();
        train_merge_line::write_all(out, self.trainer.merges(), |line, i, m| {
            if i > 0 {
                line.push(b',');
            }
            train_merge_line::write_json(line, vocab, m)
        })?;
        out.write_all(&head.as_bytes()[at + slot.len() - 1..])?;
        out.write_all(b"\n")
    }

    /// What the vocabulary costs a model `--d-model` wide, if asked.
    fn embedding(&self) -> Option<EmbeddingCost> {
        self.d_model.map(|d| EmbeddingCost::new(self.vocab_size, d))
    }

    fn json_with(&self, merges: Vec<Value>) -> Value {
        let mut v = self.json_fields(merges);
        if let Some(cost) = self.embedding() {
            v["embedding_params"] = json!({
                "vocab_size": cost.vocab,
                "d_model": cost.d_model,
                "tied": false,
                "params": cost.params(),
            });
        }
        v
    }

    fn json_fields(&self, merges: Vec<Value>) -> Value {
        let c = self.trainer.config();
        let bytes = self.trainer.corpus().source_len();
        json!({
            "corpus": self.corpus,
            "mode": c.mode.name(),
            "pretok": if c.mode == Mode::Byte { Value::from(c.pretok.name()) } else { Value::from("words") },
            "tie": c.tie.name(),
            "score": c.score.name(),
            "by_line": c.by_line,
            "min_count": c.min_count,
            "max_merges": c.max_merges,
            "stop": self.stop.code(),
            "stop_message": self.stop_message(),
            "vocab_size": self.vocab_size,
            "corpus_bytes": bytes,
            "tokens_before": self.tokens_before,
            "tokens_after": self.trainer.corpus_tokens(),
            "merges": merges,
        })
    }

    fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let c = self.trainer.config();
        let vocab = self.trainer.vocab();
        let bytes = self.trainer.corpus().source_len();
        let pretok = if c.mode == Mode::Byte {
            c.pretok.name()
        } else {
            "words"
        };
        writeln!(
            out,
            "corpus {} ({bytes} bytes)  mode {}  pretok {pretok}{}  tie {}  min-count {}{}",
            self.corpus,
            c.mode,
            if c.by_line { " by line" } else { "" },
            c.tie,
            c.min_count,
            if c.score == Score::WordPiece {
                "  score wordpiece: count(ab) / (count(a) x count(b))"
            } else {
                ""
            }
        )?;
        let scored = c.score == Score::WordPiece;
        writeln!(
            out,
            "{:>5} {:>7} {:>9} {:>9}{}  left + right -> token",
            "rank",
            "id",
            "count",
            "replaced",
            if scored { "     score" } else { "" }
        )?;
        train_merge_line::write_all(out, self.trainer.merges(), |line, _, m| {
            train_merge_line::write_text(line, vocab, m, scored)
        })?;
        let after = self.trainer.corpus_tokens();
        writeln!(
            out,
            "stopped after {} merge{}: {}\nvocabulary {}; corpus {} tokens -> {} tokens ({:.2} bytes/token)",
            self.trainer.merges().len(),
            if self.trainer.merges().len() == 1 {
                ""
            } else {
                "s"
            },
            self.stop_message(),
            self.vocab_size,
            self.tokens_before,
            after,
            if after == 0 {
                0.0
            } else {
                bytes as f64 / after as f64
            }
        )?;
        match self.embedding() {
            Some(cost) => writeln!(
                out,
                "embedding table + output head (untied): {}",
                cost.sum("x")
            ),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpeek_core::display::token_text;
    use bpeek_core::formats::trace_file::pair_json;
    use bpeek_core::train::trainer::{PairScore, Round};

    /// The report as one value, each merge built as a `serde_json` value:
    /// what the streamed report is held to.
    impl Report<'_> {
        fn merge_json(&self, m: &Round) -> Value {
            let vocab = self.trainer.vocab();
            let bytes = vocab.token_bytes(m.id);
            let mut v = json!({
                "rank": m.rank,
                "id": m.id,
                "pair": pair_json(vocab, m.pair),
                "count": m.count,
                "replacements": m.replacements,
                "bytes": bytes,
                "text": token_text(bytes),
            });
            // WordPiece's score: the winner's, and the most frequent pair's
            // where it lost.
            if let Some(s) = m.choice.score {
                let score = |s: &PairScore| json!({"value": s.value(), "count": s.count, "left": s.left, "right": s.right});
                v["score"] = score(&s);
                if let Some((pair, f)) = &m.choice.most_frequent {
                    v["most_frequent"] =
                        json!({"pair": pair_json(vocab, *pair), "score": score(f)});
                }
            }
            v
        }

        fn json(&self) -> Value {
            let merges = self
                .trainer
                .merges()
                .iter()
                .map(|m| self.merge_json(m))
                .collect();
            self.json_with(merges)
        }
    }
    use bpeek_core::{Pretok, TrainerConfig};

    /// Every mode and score the report writes: byte and char mode, by
    /// count and by WordPiece's score (which adds the score and the most
    /// frequent pair), over text with quotes, backslashes, control bytes,
    /// broken UTF-8 and non-ASCII letters.
    #[test]
    fn the_streamed_json_report_is_the_one_value_written_at_once() {
        let texts = [
            (
                &b"low lower lowest newer wider \xe0\xa4\xb9\xe0\xa4\xae \"q\" \\ tab\t \x01\x7f\xff\xfe low\r\n"[..],
                40,
            ),
            (&b""[..], 5),
            (&b"aaaa"[..], 0),
        ];
        let modes = [
            (bpeek_core::Mode::Byte, bpeek_core::Score::Count),
            (bpeek_core::Mode::Byte, bpeek_core::Score::WordPiece),
            (bpeek_core::Mode::Char, bpeek_core::Score::Count),
        ];
        for (text, merges) in texts {
            for (mode, score) in modes {
                let config = TrainerConfig {
                    mode,
                    score,
                    pretok: Pretok::Gpt2,
                    max_merges: Some(merges),
                    ..Default::default()
                };
                let text = match mode {
                    bpeek_core::Mode::Char => {
                        String::from_utf8_lossy(text).into_owned().into_bytes()
                    }
                    bpeek_core::Mode::Byte => text.to_vec(),
                };
                let mut trainer = Trainer::new(text, config).unwrap();
                let before = trainer.corpus_tokens();
                let stop = loop {
                    if let Err(reason) = trainer.step() {
                        break reason;
                    }
                };
                let report = Report {
                    corpus: "test \"corpus\"",
                    trainer: &trainer,
                    stop,
                    tokens_before: before,
                    vocab_size: trainer.vocab().len(),
                    d_model: Some(768),
                };
                let mut streamed = Vec::new();
                report.write_json(&mut streamed).unwrap();
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    format!("{}\n", report.json()),
                    "{mode:?} {score:?}"
                );
                let empty = trainer.corpus().source_len() == 0;
                assert!(
                    empty || trainer.merges().len() >= merges.min(5),
                    "{mode:?} {score:?}"
                );
            }
        }
    }
}
