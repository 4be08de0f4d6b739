//! The report of `bpeek train --model unigram`: every step with the loss
//! after it (the seeding included), each round's pieces kept and removed
//! with their scores, as text or JSON.

use bpeek_core::embedding::EmbeddingCost;
use bpeek_core::train::unigram::{
    PieceScore, StepDetail, UnigramPhase, UnigramStep, UnigramStop, UnigramTrainer, WordMarks,
};
use serde_json::{Value, json};
use std::io::Write;

/// How many removed pieces the text report names per round.
const SHOWN_PER_ROUND: usize = 8;

pub struct Report<'a> {
    pub corpus: &'a str,
    pub corpus_bytes: usize,
    pub trainer: &'a UnigramTrainer,
    pub stop: UnigramStop,
    /// The pieces of the written vocabulary, reserved ones included.
    pub vocab_size: usize,
    /// `--scores`: every piece's score at each scoring.
    pub all_scores: bool,
    pub d_model: Option<u32>,
    /// What each step took, the seeding first.
    pub seconds: &'a [f64],
}

impl Report<'_> {
    fn step_json(&self, i: usize, s: &UnigramStep) -> Value {
        let mut v = json!({
            "step": i,
            "phase": s.phase.name(),
            "round": s.round,
            "pieces": s.pieces,
            "loss": finite(s.loss),
            "seconds": self.seconds.get(i),
        });
        match &s.detail {
            StepDetail::Seeded => {}
            StepDetail::Estimated { objective, .. } => {
                if let UnigramPhase::Estimated { iteration } = s.phase {
                    v["iteration"] = json!(iteration);
                }
                v["objective"] = finite(*objective);
                v["dropped"] = json!([]);
            }
            StepDetail::Scored { scores } => {
                v["scored"] = json!(scores.len());
                if self.all_scores {
                    v["scores"] = json!([]);
                }
            }
            StepDetail::Pruned { .. } => {
                v["removed"] = json!([]);
            }
        }
        v
    }

    /// A step as JSON, its list of pieces (scored, dropped or removed)
    /// written an entry at a time into the empty list [`Self::step_json`]
    /// leaves: an early step lists hundreds of thousands of pieces.
    fn write_step(&self, out: &mut dyn Write, i: usize, s: &UnigramStep) -> std::io::Result<()> {
        let head = self.step_json(i, s).to_string();
        let text = |p| self.trainer.pieces().text(p);
        let (key, n) = match &s.detail {
            StepDetail::Estimated { dropped, .. } => ("dropped", dropped.len()),
            StepDetail::Scored { scores } if self.all_scores => ("scores", scores.len()),
            StepDetail::Pruned { removed } => ("removed", removed.len()),
            _ => return out.write_all(head.as_bytes()),
        };
        let slot = format!("\"{key}\":[]");
        let at = head.find(&slot).expect("the step has its list") + slot.len() - 1;
        out.write_all(&head.as_bytes()[..at])?;
        // Entries are made in a buffer and written a block at a time: a
        // call through `out` per field was most of the report's time.
        let mut block: Vec<u8> = Vec::with_capacity(1 << 16);
        for k in 0..n {
            if k > 0 {
                block.push(b',');
            }
            match &s.detail {
                StepDetail::Estimated { dropped, .. } => {
                    let d = &dropped[k];
                    write_entry(
                        &mut block,
                        text(d.piece),
                        &[("expected", finite(d.expected))],
                    )?
                }
                StepDetail::Scored { scores: list } | StepDetail::Pruned { removed: list } => {
                    let x = &list[k];
                    let fields = [("score", finite(x.loss_increase)), ("uses", json!(x.uses))];
                    write_entry(&mut block, text(x.piece), &fields)?
                }
                _ => unreachable!("only these steps list pieces"),
            }
            if block.len() >= 1 << 16 {
                out.write_all(&block)?;
                block.clear();
            }
        }
        out.write_all(&block)?;
        out.write_all(&head.as_bytes()[at..])
    }

    fn marks(&self) -> &'static str {
        match self.trainer.config().marks {
            WordMarks::Space => "byte",
            WordMarks::None => "char",
        }
    }

    /// The report without its steps (an empty list where they go).
    fn head(&self) -> Value {
        let c = self.trainer.config();
        let words = self.trainer.words();
        let seeds = self.trainer.pieces().seeds();
        let mut v = json!({
            "corpus": self.corpus,
            "model": "unigram",
            "mode": self.marks(),
            "vocab_size": self.vocab_size,
            "seed_size": c.seed_size,
            "shrinking_factor": c.shrinking_factor,
            "em_iterations": c.em_iterations,
            "max_piece_length": c.max_piece_length,
            "byte_fallback": c.byte_fallback,
            "corpus_bytes": self.corpus_bytes,
            "distinct_words": words.len(),
            "seeds": seeds.len(),
            "seed_characters": seeds.iter().filter(|s| s.chars == 1).count(),
            "stop": self.stop.code(),
            "stop_message": self.stop.to_string(),
            "loss": finite(self.trainer.last_step().loss),
            "steps": [],
            "pieces": self.trainer.final_pieces().iter().map(|(t, l)| json!({"piece": t, "logp": l})).collect::<Vec<_>>(),
        });
        if let Some(d) = self.d_model {
            let cost = EmbeddingCost::new(self.vocab_size, d);
            v["embedding_params"] = json!({
                "vocab_size": cost.vocab,
                "d_model": cost.d_model,
                "tied": false,
                "params": cost.params(),
            });
        }
        v
    }

    /// The report as one line of JSON, written a step at a time: a prune
    /// early on removes hundreds of thousands of pieces, and memory holds
    /// one step's value, not the whole report's.
    pub fn write_json(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let head = self.head().to_string();
        let slot = "\"steps\":[]";
        let at = head.find(slot).expect("the report has a step list") + slot.len() - 1;
        out.write_all(&head.as_bytes()[..at])?;
        for (i, s) in self.trainer.steps().iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            self.write_step(out, i, s)?;
        }
        out.write_all(&head.as_bytes()[at..])?;
        out.write_all(b"\n")
    }

    pub fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let c = self.trainer.config();
        let seeds = self.trainer.pieces().seeds();
        writeln!(
            out,
            "corpus {} ({} bytes)  model unigram  mode {}  seed-size {}  shrinking-factor {}  em-iterations {}  max-piece-length {}{}",
            self.corpus,
            self.corpus_bytes,
            self.marks(),
            c.seed_size,
            c.shrinking_factor,
            c.em_iterations,
            c.max_piece_length,
            if c.byte_fallback {
                "  byte-fallback"
            } else {
                ""
            }
        )?;
        writeln!(
            out,
            "seeded: {} distinct words, {} pieces ({} characters), loss {:.2}",
            self.trainer.words().len(),
            seeds.len(),
            seeds.iter().filter(|s| s.chars == 1).count(),
            self.trainer.steps()[0].loss
        )?;
        for s in self.trainer.steps().iter().skip(1) {
            self.step_text(out, s)?;
        }
        writeln!(
            out,
            "stopped after {} round{}: {}\nvocabulary {} (<unk>{}, {} learned pieces); loss {:.2}",
            self.trainer.last_step().round,
            if self.trainer.last_step().round == 1 {
                ""
            } else {
                "s"
            },
            self.stop,
            self.vocab_size,
            if c.byte_fallback {
                " and 256 byte pieces"
            } else {
                ""
            },
            self.trainer.pieces().alive().len(),
            self.trainer.last_step().loss
        )?;
        if let Some(d) = self.d_model {
            let cost = EmbeddingCost::new(self.vocab_size, d);
            writeln!(
                out,
                "embedding table + output head (untied): {}",
                cost.sum("x")
            )?;
        }
        Ok(())
    }

    /// One piece's line under a scoring or a prune: the loss its removal
    /// adds, how often the best cuts use it, and the piece.
    fn score_line(&self, out: &mut dyn Write, x: &PieceScore) -> std::io::Result<()> {
        writeln!(
            out,
            "    {:>12.4} {:>8} uses  {:?}",
            x.loss_increase,
            x.uses,
            self.trainer.pieces().text(x.piece)
        )
    }

    fn step_text(&self, out: &mut dyn Write, s: &UnigramStep) -> std::io::Result<()> {
        let text = |p| format!("{:?}", self.trainer.pieces().text(p));
        match &s.detail {
            StepDetail::Seeded => Ok(()),
            StepDetail::Estimated { objective, dropped } => {
                writeln!(
                    out,
                    "round {} estimated: loss {:.2} (every cut: {:.2})",
                    s.round, s.loss, objective
                )?;
                if let Some(last) = dropped.last() {
                    writeln!(
                        out,
                        "    dropped {} expected fewer than 0.5 times, kept {} (the last {} at {:.6})",
                        dropped.len(),
                        s.pieces,
                        text(last.piece),
                        last.expected
                    )?;
                }
                Ok(())
            }
            StepDetail::Scored { scores } => {
                writeln!(out, "round {} scored: {} pieces", s.round, scores.len())?;
                if self.all_scores {
                    for x in scores {
                        self.score_line(out, x)?;
                    }
                }
                Ok(())
            }
            StepDetail::Pruned { removed } => {
                writeln!(
                    out,
                    "round {} pruned: removed {}, kept {}, loss {:.2}",
                    s.round - 1,
                    removed.len(),
                    s.pieces,
                    s.loss
                )?;
                for x in removed.iter().take(SHOWN_PER_ROUND) {
                    self.score_line(out, x)?;
                }
                if removed.len() > SHOWN_PER_ROUND {
                    let last = removed.last().expect("more than shown");
                    writeln!(
                        out,
                        "    ... {} more, up to {:.4} ({})",
                        removed.len() - SHOWN_PER_ROUND,
                        last.loss_increase,
                        text(last.piece)
                    )?;
                }
                Ok(())
            }
        }
    }
}

/// `{"piece": .., name: value, ..}` without making a JSON value: a step
/// can list hundreds of thousands of pieces. Numbers are written as
/// JSON numbers (an infinity as null, see [`finite`]).
fn write_entry(out: &mut Vec<u8>, piece: &str, fields: &[(&str, Value)]) -> std::io::Result<()> {
    out.extend_from_slice(b"{\"piece\":");
    serde_json::to_writer(&mut *out, piece)?;
    for (name, value) in fields {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
        serde_json::to_writer(&mut *out, value)?;
    }
    out.push(b'}');
    Ok(())
}

/// A number for JSON: infinities (a loss no cut reaches) as null.
fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}
