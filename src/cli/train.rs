//! `bpeek train`: run training to a stop and report the merges.

use crate::bpe::display::{token_text, token_visible};
use crate::bpe::io::atomic::write_atomically;
use crate::bpe::io::tokenizer_file;
use crate::bpe::io::trace_file::{TraceWriter, pair_json};
use crate::bpe::trainer::{Merge, StopReason};
use crate::bpe::{Mode, Trainer};
use crate::cli::args::{Format, TrainArgs};
use crate::cli::input::build_trainer_with;
use crate::cli::train_progress::TrainProgress;
use crate::error::Result;
use serde_json::{Value, json};

pub fn run(args: &TrainArgs) -> Result<()> {
    let progress = TrainProgress::start(args.quiet);
    let (name, mut trainer) = build_trainer_with(&args.training, false, |p| progress.phase(p))?;
    progress.merging(&trainer);
    let tokens_before = trainer.corpus_tokens();
    let stop = match &args.trace {
        Some(path) => {
            let mut stop = StopReason::NoPairs;
            write_atomically(path, |w| {
                let mut trace = TraceWriter::start(w, &trainer, args.trace_top)?;
                loop {
                    let candidates = trace.candidates(&trainer);
                    let pairs_total = trainer.pairs().len();
                    let choice = match trainer.peek_choice() {
                        Ok(c) => c,
                        Err(reason) => {
                            stop = reason;
                            break;
                        }
                    };
                    let merge = trainer.step().expect("a choice was available").clone();
                    progress.merged(&merge);
                    trace.round(&trainer, pairs_total, candidates, &choice, &merge)?;
                }
                trace.finish(stop)
            })?;
            stop
        }
        None => progress.run(&mut trainer),
    };
    progress.finish();
    let tokenizer = trainer.tokenizer().with_specials(&args.training.specials);
    if let Some(path) = &args.out {
        let json = tokenizer_file::to_json(&tokenizer);
        write_atomically(path, |w| {
            serde_json::to_writer_pretty(&mut *w, &json)?;
            w.write_all(b"\n")
        })?;
    }
    let report = Report {
        corpus: &name,
        trainer: &trainer,
        stop,
        tokens_before,
        vocab_size: tokenizer.vocab_size(),
    };
    match args.format {
        Format::Json => crate::cli::output::emit(&format!("{}\n", report.json()))?,
        Format::Text => crate::cli::output::emit(&report.text())?,
    }
    Ok(())
}

struct Report<'a> {
    corpus: &'a str,
    trainer: &'a Trainer,
    stop: StopReason,
    tokens_before: u64,
    vocab_size: usize,
}

impl Report<'_> {
    fn merge_json(&self, m: &Merge) -> Value {
        let vocab = self.trainer.vocab();
        let bytes = vocab.token_bytes(m.id);
        json!({
            "rank": m.rank,
            "id": m.id,
            "pair": pair_json(vocab, m.pair),
            "count": m.count,
            "replacements": m.replacements,
            "bytes": bytes,
            "text": token_text(bytes),
        })
    }

    fn json(&self) -> Value {
        let c = self.trainer.config();
        let bytes = self.trainer.corpus().text().len();
        let merges: Vec<Value> = self
            .trainer
            .merges()
            .iter()
            .map(|m| self.merge_json(m))
            .collect();
        json!({
            "corpus": self.corpus,
            "mode": c.mode.name(),
            "pretok": if c.mode == Mode::Byte { Value::from(c.pretok.name()) } else { Value::from("words") },
            "tie": c.tie.name(),
            "min_count": c.min_count,
            "max_merges": c.max_merges,
            "stop": self.stop.code(),
            "stop_message": self.stop.to_string(),
            "vocab_size": self.vocab_size,
            "corpus_bytes": bytes,
            "tokens_before": self.tokens_before,
            "tokens_after": self.trainer.corpus_tokens(),
            "merges": merges,
        })
    }

    fn text(&self) -> String {
        let c = self.trainer.config();
        let vocab = self.trainer.vocab();
        let bytes = self.trainer.corpus().text().len();
        let pretok = if c.mode == Mode::Byte {
            c.pretok.name()
        } else {
            "words"
        };
        let mut out = format!(
            "corpus {} ({bytes} bytes)  mode {}  pretok {pretok}  tie {}  min-count {}\n",
            self.corpus, c.mode, c.tie, c.min_count
        );
        out += &format!(
            "{:>5} {:>7} {:>9} {:>9}  {}\n",
            "rank", "id", "count", "replaced", "left + right -> token"
        );
        for m in self.trainer.merges() {
            let show = |id| format!("\"{}\"", token_visible(vocab.token_bytes(id)));
            out += &format!(
                "{:>5} {:>7} {:>9} {:>9}  {} + {} -> {}\n",
                m.rank,
                m.id,
                m.count,
                m.replacements,
                show(m.pair.0),
                show(m.pair.1),
                show(m.id)
            );
        }
        let after = self.trainer.corpus_tokens();
        out += &format!(
            "stopped after {} merges: {}\nvocabulary {}; corpus {} tokens -> {} tokens ({:.2} bytes/token)\n",
            self.trainer.merges().len(),
            self.stop,
            self.vocab_size,
            self.tokens_before,
            after,
            if after == 0 {
                0.0
            } else {
                bytes as f64 / after as f64
            }
        );
        out
    }
}
