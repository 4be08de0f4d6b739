//! The edges of the shards a count file holds, as lines of text: in a
//! TSV file after its first line (each starting `# `), in a Parquet file as
//! the `bpeek.edges` metadata. One run of neighbouring shards is
//!
//! ```text
//! run FIRST LAST BYTES cut|whole
//! head SHARD OFFSET TEXT
//! tail SHARD OFFSET TEXT
//! ```
//!
//! with a `head` or `tail` line for each shard a piece of its edge text
//! comes from (none when the edge is empty), the text escaped as a TSV
//! chunk is. `whole` says the run holds no place to cut: its head is all
//! of its text.

use crate::count_file::{escape, unescape};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::shard_edges::{EdgePiece, EdgeText, ShardRun};

/// The lines that say `runs`.
pub fn edge_lines(runs: &[ShardRun]) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    for r in runs {
        let kind = if r.cut { "cut" } else { "whole" };
        lines.push(format!("run {} {} {} {kind}", r.first, r.last, r.bytes).into_bytes());
        for (side, text) in [("head", &r.head), ("tail", &r.tail)] {
            for p in &text.pieces {
                let mut line = format!("{side} {} {} ", p.shard, p.offset).into_bytes();
                escape(&p.bytes, &mut line);
                lines.push(line);
            }
        }
    }
    lines
}

/// Reads runs from their lines, each checked: a count file is untrusted.
#[derive(Default)]
pub struct EdgeReader {
    runs: Vec<ShardRun>,
}

fn number(field: Option<&[u8]>, what: &str) -> Result<u64> {
    field
        .and_then(|f| std::str::from_utf8(f).ok())
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| Error::input(format!("{what}: not a whole number")))
}

impl EdgeReader {
    /// Read one line (without its `# ` in a TSV file).
    pub fn line(&mut self, line: &[u8]) -> Result<()> {
        let mut fields = line.splitn(4, |&b| b == b' ');
        let kind = fields.next().unwrap_or_default();
        match kind {
            b"run" => {
                self.check_last()?;
                let first = number(fields.next(), "run: first shard")?;
                let last = number(fields.next(), "run: last shard")?;
                let rest = fields.next().unwrap_or_default();
                let (bytes, cut) = match std::str::from_utf8(rest)
                    .ok()
                    .and_then(|r| r.split_once(' '))
                {
                    Some((b, "cut")) => (b, true),
                    Some((b, "whole")) => (b, false),
                    _ => return Err(Error::input("run: ends with neither cut nor whole")),
                };
                let bytes = number(Some(bytes.as_bytes()), "run: bytes")?;
                if last < first {
                    return Err(Error::input(format!(
                        "run {first} {last}: ends before it starts"
                    )));
                }
                if let Some(r) = self.runs.last()
                    && r.last >= first
                {
                    return Err(Error::input(format!(
                        "run {first} {last}: not after the run before it ({}-{})",
                        r.first, r.last
                    )));
                }
                self.runs.push(ShardRun {
                    first,
                    last,
                    bytes,
                    head: EdgeText::default(),
                    tail: EdgeText::default(),
                    cut,
                });
            }
            b"head" | b"tail" => {
                let shard = number(fields.next(), "edge: shard")?;
                let offset = number(fields.next(), "edge: offset")?;
                let text = fields.next().ok_or_else(|| Error::input("edge: no text"))?;
                let bytes = unescape(text).map_err(|e| Error::input(format!("edge text: {e}")))?;
                let run = self
                    .runs
                    .last_mut()
                    .ok_or_else(|| Error::input("an edge before any run"))?;
                if shard < run.first || shard > run.last {
                    return Err(Error::input(format!(
                        "edge of shard {shard} in the run of shards {}-{}",
                        run.first, run.last
                    )));
                }
                let side = if kind == b"head" {
                    &mut run.head
                } else {
                    &mut run.tail
                };
                if let Some(p) = side.pieces.last()
                    && (p.shard, p.offset) >= (shard, offset)
                {
                    return Err(Error::input("edge pieces out of order"));
                }
                side.pieces.push(EdgePiece {
                    shard,
                    offset,
                    bytes,
                });
            }
            _ => {
                return Err(Error::input(format!(
                    "{:?}: not a run, head or tail line",
                    String::from_utf8_lossy(kind)
                )));
            }
        }
        Ok(())
    }

    /// The last run's edges hold no more text than it has, and a run
    /// without a place to cut holds its text whole in its head.
    fn check_last(&self) -> Result<()> {
        let Some(r) = self.runs.last() else {
            return Ok(());
        };
        let (head, tail) = (r.head.len(), r.tail.len());
        let fits = head.checked_add(tail).is_some_and(|n| n <= r.bytes);
        let whole_ok = r.cut || (tail == 0 && head == r.bytes);
        if fits && whole_ok {
            Ok(())
        } else {
            Err(Error::input(format!(
                "run {} {}: its edges hold {head} and {tail} bytes, which its {} bytes of text do not",
                r.first, r.last, r.bytes
            )))
        }
    }

    /// The runs read.
    pub fn finish(self) -> Result<Vec<ShardRun>> {
        self.check_last()?;
        Ok(self.runs)
    }
}

/// The runs `text` (lines as [`edge_lines`] writes them) says.
pub fn parse_edges(text: &[u8]) -> Result<Vec<ShardRun>> {
    let mut reader = EdgeReader::default();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        reader
            .line(line)
            .map_err(|e| e.context(format!("bpeek.edges line {}", i + 1)))?;
    }
    reader.finish()
}
