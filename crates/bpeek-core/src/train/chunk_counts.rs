//! A corpus counted in shards: each distinct chunk with its count and the
//! place it first appeared, summed over any number of shards and count
//! files, and turned back into a corpus that trains exactly as the whole
//! text would.
//!
//! The place a chunk first appeared is kept as (shard, byte offset in the
//! shard): with shards numbered in corpus order, the smallest place is the
//! chunk's first appearance in the whole corpus, and the order of first
//! appearance is what tie rule `first` reads.

use crate::Mode;
use crate::error::{Error, Result};
use crate::pretokenize::pretok::{Chunker, Digits, Pretok};
use crate::train::corpus::{Chunk, Corpus};
use crate::train::shard_edges::{EdgeText, ShardCut, ShardRun, ShardRuns};
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// The training options that decide how a text is cut into chunks: two
/// count files can be summed only when these are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkOptions {
    pub mode: Mode,
    pub pretok: Pretok,
    pub digits: Digits,
    pub by_line: bool,
}

impl ChunkOptions {
    /// As written into count files: `mode=byte pretok=gpt2 digits=keep by-line=no`.
    pub fn describe(&self) -> String {
        format!(
            "mode={} pretok={} digits={} by-line={}",
            self.mode.name(),
            self.pretok.name(),
            self.digits.name(),
            if self.by_line { "yes" } else { "no" }
        )
    }

    /// The options [`ChunkOptions::describe`] wrote.
    pub fn parse(text: &str) -> Result<Self> {
        let (mut mode, mut pretok, mut digits, mut by_line) = (None, None, None, None);
        for field in text.split_whitespace() {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| Error::input(format!("{field:?} is not key=value")))?;
            match key {
                "mode" => mode = Some(Mode::parse(value)?),
                "pretok" => pretok = Some(Pretok::parse(value)?),
                "digits" => digits = Some(Digits::parse(value)?),
                "by-line" => {
                    by_line = Some(match value {
                        "yes" => true,
                        "no" => false,
                        _ => return Err(Error::input(format!("by-line={value}: not yes or no"))),
                    })
                }
                _ => return Err(Error::input(format!("unknown option {key:?}"))),
            }
        }
        let missing = |what: &str| Error::input(format!("{what}= is missing"));
        Ok(ChunkOptions {
            mode: mode.ok_or_else(|| missing("mode"))?,
            pretok: pretok.ok_or_else(|| missing("pretok"))?,
            digits: digits.ok_or_else(|| missing("digits"))?,
            by_line: by_line.ok_or_else(|| missing("by-line"))?,
        })
    }

    pub fn chunker(&self) -> Chunker {
        Chunker::new(self.pretok, self.digits)
    }

    /// Why shards counted one by one would not add up to the whole text's
    /// counts under these options, if they would not.
    pub fn shard_problem(&self) -> Option<String> {
        if self.mode == Mode::Byte && !self.by_line && self.pretok == Pretok::None {
            return Some(
                "--pretok none makes the whole corpus one chunk, which no shard holds; add --by-line to count each line as a chunk".into(),
            );
        }
        None
    }
}

/// Where a chunk first appeared: shard number, then byte offset in it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FirstPlace {
    pub shard: u64,
    pub offset: u64,
}

/// One distinct chunk: its bytes in the table's arena, its count, its
/// first place.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: u64,
    len: u32,
    count: u64,
    first: FirstPlace,
}

/// What [`ChunkCounts::keep_at_least`] dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    pub chunks: u64,
    /// Bytes of the corpus the dropped chunks covered (count x length).
    pub covered: u64,
}

/// The distinct chunks of some shards, with their counts.
#[derive(Clone)]
pub struct ChunkCounts {
    options: ChunkOptions,
    /// Each distinct chunk's bytes, once, in the order they were added.
    arena: Vec<u8>,
    entries: Vec<Entry>,
    /// Indices into `entries`, found by the chunk's bytes.
    index: HashTable<u32>,
    hasher: rustc_hash::FxBuildHasher,
    /// Bytes of the text the chunks were counted from.
    source_bytes: u64,
    /// The `--min-chunk-count` that dropped chunks on the way, if any did.
    min_chunk_count: Option<u64>,
    /// The shards counted, with the text at their edges not yet counted.
    runs: ShardRuns,
}

/// The most distinct chunks a table holds (ids are 32-bit).
const MAX_CHUNKS: usize = u32::MAX as usize - 1;

impl ChunkCounts {
    pub fn new(options: ChunkOptions) -> Self {
        ChunkCounts {
            options,
            arena: Vec::new(),
            entries: Vec::new(),
            index: HashTable::new(),
            hasher: rustc_hash::FxBuildHasher,
            source_bytes: 0,
            min_chunk_count: None,
            runs: ShardRuns::default(),
        }
    }

    /// The chunks of `corpus` (cut under `options`), as shard `shard`.
    pub fn from_corpus(options: ChunkOptions, corpus: &Corpus, shard: u64) -> Result<Self> {
        let mut counts = ChunkCounts::new(options);
        counts.add_corpus(corpus, shard)?;
        Ok(counts)
    }

    /// Add the chunks of `corpus` (cut under this table's options), as
    /// shard `shard`.
    pub fn add_corpus(&mut self, corpus: &Corpus, shard: u64) -> Result<()> {
        for (i, c) in corpus.chunks().iter().enumerate() {
            let first = FirstPlace {
                shard,
                offset: corpus.first_offset(i),
            };
            self.add(corpus.chunk_bytes(i), c.freq, first)?;
        }
        self.source_bytes += corpus.source_len() as u64;
        Ok(())
    }

    /// Add shard `shard`, cut anywhere: `corpus` holds the chunks of its
    /// text between its edges (offsets from `cut.head`'s end), and `cut`
    /// the edges, which are counted once their neighbours are here.
    pub fn add_shard(&mut self, corpus: &Corpus, cut: ShardCut, shard: u64) -> Result<()> {
        let base = cut.head.len() as u64;
        for (i, c) in corpus.chunks().iter().enumerate() {
            let first = FirstPlace {
                shard,
                offset: base + corpus.first_offset(i),
            };
            self.add(corpus.chunk_bytes(i), c.freq, first)?;
        }
        self.source_bytes = self.source_bytes.saturating_add(cut.len);
        self.add_run(cut.into_run(shard))
    }

    /// Add a run of shards, counting the text its edges and the runs'
    /// it meets make whole.
    pub fn add_run(&mut self, run: ShardRun) -> Result<()> {
        let mut runs = std::mem::take(&mut self.runs);
        let added = runs.add(run, &mut |text| self.count_edge(&text));
        self.runs = runs;
        added
    }

    /// The shards held, with the text at their edges not yet counted.
    pub fn runs(&self) -> &ShardRuns {
        &self.runs
    }

    /// Count the chunks of `text`, which lies between places to cut (or
    /// at the corpus's start or end), each first seen where it lies.
    fn count_edge(&mut self, text: &EdgeText) -> Result<()> {
        let o = self.options;
        let corpus = Corpus::new(text.bytes(), o.mode, o.chunker(), false, o.by_line)?;
        for (i, c) in corpus.chunks().iter().enumerate() {
            let (shard, offset) = text.place_of(corpus.first_offset(i));
            self.add(corpus.chunk_bytes(i), c.freq, FirstPlace { shard, offset })?;
        }
        Ok(())
    }

    /// Count the text at the corpus's start and end, once every shard is
    /// here; refused, naming them, when shards are missing.
    pub fn finish_edges(&mut self) -> Result<()> {
        if self.runs.is_empty() {
            return Ok(());
        }
        for text in std::mem::take(&mut self.runs).finish()? {
            self.count_edge(&text)?;
        }
        Ok(())
    }

    /// Count `bytes` `count` more times, first seen at `first` (the earlier
    /// of this and any place already known is kept).
    pub fn add(&mut self, bytes: &[u8], count: u64, first: FirstPlace) -> Result<()> {
        let hash = self.hasher.hash_one(bytes);
        let (arena, entries) = (&self.arena, &mut self.entries);
        let same = |&i: &u32| {
            let e = &entries[i as usize];
            &arena[e.start as usize..e.start as usize + e.len as usize] == bytes
        };
        if let Some(&i) = self.index.find(hash, same) {
            let e = &mut self.entries[i as usize];
            e.count = checked_count(e.count, count)?;
            e.first = e.first.min(first);
            return Ok(());
        }
        checked_count(count, 0)?;
        if self.entries.len() >= MAX_CHUNKS {
            return Err(Error::input("more than 4 billion distinct chunks"));
        }
        let len =
            u32::try_from(bytes.len()).map_err(|_| Error::input("a chunk is longer than 4 GiB"))?;
        let id = self.entries.len() as u32;
        self.entries.push(Entry {
            start: self.arena.len() as u64,
            len,
            count,
            first,
        });
        self.arena.extend_from_slice(bytes);
        let (arena, entries, hasher) = (&self.arena, &self.entries, &self.hasher);
        self.index.insert_unique(hash, id, |&i| {
            let e = &entries[i as usize];
            hasher.hash_one(&arena[e.start as usize..e.start as usize + e.len as usize])
        });
        Ok(())
    }

    /// Sum `other` into this table. Refused, naming both option sets, when
    /// the two were cut differently.
    pub fn absorb(&mut self, other: &ChunkCounts) -> Result<()> {
        if other.options != self.options {
            return Err(Error::input(format!(
                "counted with {}, not {}",
                other.options.describe(),
                self.options.describe()
            )));
        }
        for (bytes, count, first) in other.iter() {
            self.add(bytes, count, first)?;
        }
        for run in other.runs.runs() {
            self.add_run(run.clone())?;
        }
        self.source_bytes = self.source_bytes.saturating_add(other.source_bytes);
        self.min_chunk_count = match (self.min_chunk_count, other.min_chunk_count) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        Ok(())
    }

    /// Drop the chunks counted fewer than `min` times.
    pub fn keep_at_least(&mut self, min: u64) -> Dropped {
        let mut dropped = Dropped::default();
        if min <= 1 {
            return dropped;
        }
        let old_arena = std::mem::take(&mut self.arena);
        let old = std::mem::take(&mut self.entries);
        self.index.clear();
        for e in old {
            let bytes = &old_arena[e.start as usize..e.start as usize + e.len as usize];
            if e.count < min {
                dropped.chunks += 1;
                // At most the covered bytes, which are checked.
                dropped.covered = dropped
                    .covered
                    .saturating_add(e.count.saturating_mul(u64::from(e.len)));
                continue;
            }
            // Cannot fail: it was in the table before, and is added once.
            let _ = self.add(bytes, e.count, e.first);
        }
        self.arena.shrink_to_fit();
        if dropped.chunks > 0 {
            self.min_chunk_count = Some(self.min_chunk_count.unwrap_or(1).max(min));
        }
        dropped
    }

    pub fn options(&self) -> ChunkOptions {
        self.options
    }

    /// How many distinct chunks.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes of all distinct chunks, each once.
    pub fn chunk_bytes(&self) -> u64 {
        self.arena.len() as u64
    }

    /// Bytes of the corpus the chunks cover (each count x length), or an
    /// error when they pass what 64 bits count: no total is ever wrapped
    /// or cut.
    pub fn covered_bytes(&self) -> Result<u64> {
        checked_total(self.entries.iter().map(|e| (e.count, u64::from(e.len))))
    }

    /// Bytes of the text the chunks were counted from.
    pub fn source_bytes(&self) -> u64 {
        self.source_bytes
    }

    pub fn set_source_bytes(&mut self, bytes: u64) {
        self.source_bytes = bytes;
    }

    /// The `--min-chunk-count` that dropped chunks on the way, if any did:
    /// merges trained from these counts are then not the whole corpus's.
    pub fn min_chunk_count(&self) -> Option<u64> {
        self.min_chunk_count
    }

    pub fn set_min_chunk_count(&mut self, min: Option<u64>) {
        self.min_chunk_count = min;
    }

    /// Every chunk with its count and first place, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], u64, FirstPlace)> + '_ {
        self.entries.iter().map(|e| {
            (
                &self.arena[e.start as usize..e.start as usize + e.len as usize],
                e.count,
                e.first,
            )
        })
    }

    /// Every chunk in order of first appearance in the corpus.
    pub fn in_corpus_order(&self) -> Vec<(&[u8], u64, FirstPlace)> {
        let mut all: Vec<_> = self.iter().collect();
        all.sort_by(|a, b| a.2.cmp(&b.2).then_with(|| a.0.cmp(b.0)));
        all
    }

    /// Every chunk in chunk order (ascending bytes), as count files hold them.
    pub fn in_chunk_order(&self) -> impl Iterator<Item = (&[u8], u64, FirstPlace)> + '_ {
        let bytes = |e: &Entry| &self.arena[e.start as usize..e.start as usize + e.len as usize];
        let mut order: Vec<u32> = (0..self.entries.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            bytes(&self.entries[a as usize]).cmp(bytes(&self.entries[b as usize]))
        });
        order.into_iter().map(move |i| {
            let e = &self.entries[i as usize];
            (bytes(e), e.count, e.first)
        })
    }

    /// The corpus these counts stand for: chunks in order of first
    /// appearance, each with its summed count. Trains as the whole text does.
    pub fn into_corpus(mut self) -> Result<Corpus> {
        self.finish_edges()?;
        // Tokens at merge 0 are at most a chunk's bytes and its end marker;
        // every pair count and token total training keeps is at most that
        // sum, so checking it once here keeps them all in 64 bits.
        checked_total(self.entries.iter().map(|e| (e.count, u64::from(e.len) + 1)))?;
        if self.arena.len() > u32::MAX as usize {
            return Err(Error::input(
                "the distinct chunks hold more than 4 GiB: drop rare ones with --min-chunk-count",
            ));
        }
        let mut order: Vec<u32> = (0..self.entries.len() as u32).collect();
        let bytes = |i: u32| {
            let e = &self.entries[i as usize];
            &self.arena[e.start as usize..e.start as usize + e.len as usize]
        };
        order.sort_unstable_by(|&a, &b| {
            let (ea, eb) = (&self.entries[a as usize], &self.entries[b as usize]);
            ea.first.cmp(&eb.first).then_with(|| bytes(a).cmp(bytes(b)))
        });
        let mut text = Vec::with_capacity(self.arena.len());
        let mut chunks = Vec::with_capacity(self.entries.len());
        for i in order {
            let e = &self.entries[i as usize];
            chunks.push(Chunk {
                start: text.len() as u32,
                len: e.len,
                freq: e.count,
            });
            text.extend_from_slice(bytes(i));
        }
        let source = usize::try_from(self.source_bytes).unwrap_or(usize::MAX);
        Ok(Corpus::from_counted(text, chunks, source))
    }
}

/// The most a chunk is counted: what a count file's int64 column holds, so
/// that a TSV and a Parquet file of the same counts never disagree.
pub const MAX_COUNT: u64 = i64::MAX as u64;

/// `a + b` as a chunk's count, refused past [`MAX_COUNT`].
pub fn checked_count(a: u64, b: u64) -> Result<u64> {
    a.checked_add(b).filter(|&n| n <= MAX_COUNT).ok_or_else(|| {
        Error::input(
            "a chunk's count passes 2^63 - 1 (the most a count file holds): the counts cannot be summed",
        )
    })
}

/// The sum of `count x length` over `rows`, or an error naming the limit
/// when it does not fit in 64 bits.
pub fn checked_total(rows: impl Iterator<Item = (u64, u64)>) -> Result<u64> {
    let mut total = 0u64;
    for (count, len) in rows {
        total = count
            .checked_mul(len)
            .and_then(|n| total.checked_add(n))
            .ok_or_else(|| {
                Error::input(
                    "the chunk counts times their lengths pass 2^64 - 1: more text than bpeek counts in 64 bits",
                )
            })?;
    }
    Ok(total)
}
