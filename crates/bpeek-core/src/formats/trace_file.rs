//! The trace file: for every round, the candidate pairs with their counts,
//! the winner, its tied rivals and the replacement count.
//!
//! ```json
//! { "format": "bpeek-trace", "version": 1, "mode": "byte", "pretok": "gpt2",
//!   "tie": "first", "trace_top": null,
//!   "rounds": [ { "round": 0, "pairs_total": 41,
//!                 "candidates": [ { "pair": [112, 108], "count": 9 } ],
//!                 "winner": { "pair": [112, 108], "count": 9, "id": 256, "token": "pl" },
//!                 "tied": [], "tied_total": 0, "replacements": 9 } ],
//!   "stop": "budget" }
//! ```
//!
//! The file is written as training runs, round by round, so a trace of a
//! large corpus never has to fit in memory.

use crate::Pair;
use crate::display::token_text;
use crate::names::Mode;
use crate::train::trainer::{Choice, Merge, StopReason, Trainer};
use crate::vocab::Vocab;
use serde_json::{Value, json};
use std::io::{self, Write};

pub const FORMAT: &str = "bpeek-trace";
pub const VERSION: u64 = 1;

/// A writer that counts what passes through it and refuses to go past
/// `max` bytes, so a trace's bound holds as it is written: an estimate
/// from round 0 cannot foresee how the pairs grow.
pub struct Bounded<'w> {
    inner: &'w mut dyn Write,
    written: u64,
    max: u64,
}

/// The error a [`Bounded`] writer gives once its bound is reached.
#[derive(Debug)]
pub struct BoundReached {
    pub max: u64,
}

impl std::fmt::Display for BoundReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the trace reached its bound of {} bytes", self.max)
    }
}

impl std::error::Error for BoundReached {}

impl<'w> Bounded<'w> {
    pub fn new(inner: &'w mut dyn Write, max: u64) -> Self {
        Bounded {
            inner,
            written: 0,
            max,
        }
    }

    pub fn written(&self) -> u64 {
        self.written
    }

    /// Whether `e` is this writer's refusal rather than a failed write.
    pub fn is_bound(e: &io::Error) -> bool {
        e.get_ref().is_some_and(|inner| inner.is::<BoundReached>())
    }
}

impl Write for Bounded<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.written.saturating_add(buf.len() as u64) > self.max {
            return Err(io::Error::other(BoundReached { max: self.max }));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A pair as JSON: ids in byte mode, symbol strings in char mode.
pub fn pair_json(vocab: &Vocab, (a, b): Pair) -> Value {
    match vocab.mode() {
        Mode::Byte => json!([a, b]),
        Mode::Char => json!([
            token_text(vocab.token_bytes(a)),
            token_text(vocab.token_bytes(b))
        ]),
    }
}

/// Writes rounds as they happen.
pub struct TraceWriter<'w, 'o> {
    out: &'w mut Bounded<'o>,
    top: Option<usize>,
    rounds: usize,
}

impl<'w, 'o> TraceWriter<'w, 'o> {
    pub fn start(
        out: &'w mut Bounded<'o>,
        trainer: &Trainer,
        top: Option<usize>,
    ) -> io::Result<Self> {
        let c = trainer.config();
        write!(
            out,
            "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"mode\":\"{}\",\"pretok\":\"{}\",\"tie\":\"{}\",\"trace_top\":{},\"rounds\":[",
            c.mode,
            c.pretok,
            c.tie,
            top.map_or("null".to_string(), |k| k.to_string())
        )?;
        Ok(TraceWriter {
            out,
            top,
            rounds: 0,
        })
    }

    /// The bytes written so far.
    pub fn written(&self) -> u64 {
        self.out.written()
    }

    /// Record the candidates as they stand now (before `choice` is applied).
    pub fn candidates(&self, trainer: &Trainer) -> Vec<Value> {
        let vocab = trainer.vocab();
        trainer
            .pairs()
            .iter()
            .take(self.top.unwrap_or(usize::MAX))
            .map(|(p, c)| json!({"pair": pair_json(vocab, p), "count": c}))
            .collect()
    }

    /// Write one round: `candidates` as taken before the merge, then the
    /// choice and the merge that followed.
    pub fn round(
        &mut self,
        trainer: &Trainer,
        pairs_total: usize,
        candidates: Vec<Value>,
        choice: &Choice,
        merge: &Merge,
    ) -> io::Result<()> {
        let vocab = trainer.vocab();
        let tied: Vec<Value> = choice.rivals.iter().map(|p| pair_json(vocab, *p)).collect();
        let round = json!({
            "round": merge.rank,
            "pairs_total": pairs_total,
            "candidates": candidates,
            "winner": {
                "pair": pair_json(vocab, merge.pair),
                "count": merge.count,
                "id": merge.id,
                "token": token_text(vocab.token_bytes(merge.id)),
            },
            "tied": tied,
            "tied_total": choice.rivals_total,
            "replacements": merge.replacements,
        });
        if self.rounds > 0 {
            self.out.write_all(b",")?;
        }
        self.out.write_all(b"\n")?;
        serde_json::to_writer(&mut *self.out, &round)?;
        self.rounds += 1;
        Ok(())
    }

    pub fn finish(self, stop: StopReason) -> io::Result<()> {
        write!(
            self.out,
            "\n],\"stop\":\"{}\",\"stop_message\":{}}}\n",
            stop.code(),
            json!(stop.to_string())
        )
    }
}
