//! A corpus as its distinct chunks, each with a frequency, and where every
//! occurrence of each chunk sits in the text.

use crate::bpe::names::Mode;
use crate::bpe::pretok::Chunker;
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// One distinct chunk: where it first appears and how often it appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    pub start: u32,
    pub len: u32,
    pub freq: u64,
}

/// One place in the text where a chunk appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    pub start: u32,
    pub chunk: u32,
}

#[derive(Debug, Clone)]
pub struct Corpus {
    text: Vec<u8>,
    chunks: Vec<Chunk>,
    occurrences: Vec<Occurrence>,
}

impl Corpus {
    /// Cut `text` into chunks: by `chunker` in byte mode, into
    /// whitespace-separated words in char mode (which needs valid UTF-8).
    /// With `positions` off, where each occurrence sits is not kept (see
    /// [`Corpus::occurrences`]). With `by_line`, each line (with its `\n`)
    /// is cut on its own, so no chunk spans a line break.
    pub fn new(
        text: Vec<u8>,
        mode: Mode,
        chunker: Chunker,
        positions: bool,
        by_line: bool,
    ) -> Result<Self> {
        if text.len() > u32::MAX as usize {
            return Err(Error::input("corpus is larger than 4 GiB"));
        }
        let mut index: FxHashMap<&[u8], u32> = FxHashMap::default();
        let mut chunks = Vec::new();
        // Sized for typical prose (about 3.5 bytes per chunk) so that a large
        // corpus never pays for a copy while this grows.
        let mut occurrences = Vec::with_capacity(if positions { text.len() / 3 + 1 } else { 0 });
        let mut add = |r: Range<usize>| {
            let piece = &text[r.clone()];
            let id = *index.entry(piece).or_insert_with(|| {
                let (start, len) = (r.start as u32, piece.len() as u32);
                chunks.push(Chunk {
                    start,
                    len,
                    freq: 0,
                });
                (chunks.len() - 1) as u32
            });
            chunks[id as usize].freq += 1;
            if positions {
                occurrences.push(Occurrence {
                    start: r.start as u32,
                    chunk: id,
                });
            }
        };
        match mode {
            Mode::Byte if by_line => {
                for line in text.split_inclusive(|&b| b == b'\n') {
                    let base = line.as_ptr() as usize - text.as_ptr() as usize;
                    chunker.for_each_chunk(line, |r| add(base + r.start..base + r.end));
                }
            }
            Mode::Byte => chunker.for_each_chunk(&text, &mut add),
            Mode::Char => for_each_word(&text, &mut add)?,
        }
        drop(index);
        Ok(Corpus {
            text,
            chunks,
            occurrences,
        })
    }

    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// Distinct chunks in order of first appearance.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    pub fn chunk_bytes(&self, i: usize) -> &[u8] {
        let c = self.chunks[i];
        &self.text[c.start as usize..(c.start + c.len) as usize]
    }

    /// Every chunk occurrence, in text order (none if the corpus was made
    /// without positions).
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    /// The occurrences that overlap the byte range `range`.
    pub fn occurrences_in(&self, range: Range<usize>) -> &[Occurrence] {
        let len = |o: &Occurrence| self.chunks[o.chunk as usize].len as usize;
        let first = self
            .occurrences
            .partition_point(|o| o.start as usize + len(o) <= range.start);
        let last = self
            .occurrences
            .partition_point(|o| (o.start as usize) < range.end);
        &self.occurrences[first..last.max(first)]
    }
}

/// Whitespace-separated words, for char mode.
fn for_each_word(text: &[u8], mut out: impl FnMut(Range<usize>)) -> Result<()> {
    let s = std::str::from_utf8(text).map_err(|e| {
        Error::input(format!(
            "invalid UTF-8 at byte offset {} (char mode needs UTF-8 text; byte mode accepts any bytes)",
            e.valid_up_to()
        ))
    })?;
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(st)) => {
                out(st..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out(st..s.len());
    }
    Ok(())
}
