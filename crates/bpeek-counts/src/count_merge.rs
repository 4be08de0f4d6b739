//! The reduce step in one pass: count files whose rows are in chunk order
//! merged as sorted runs are, a batch of each file in memory, so summing
//! any number of rows takes memory for the files, not for the chunks.

use crate::count_file::{
    BATCH, CountFormat, CountRow, CountWriter, Covered, Header, check_run_bytes, options_differ,
};
use crate::count_rows::RowSource;
use bpeek_core::error::Result;
use bpeek_core::train::chunk_counts::{ChunkCounts, Dropped};
use bpeek_core::train::chunk_counts::{checked_count, checked_total};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Write;
use std::path::PathBuf;

/// Files merged at once at most: each holds a file descriptor and a batch.
pub const MAX_FILES: usize = 256;

/// What a merge read and wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// Bytes of the text counted (`None` if a file did not say).
    pub source_bytes: Option<u64>,
    /// Distinct chunks read, and their bytes.
    pub distinct: u64,
    pub distinct_bytes: u64,
    /// Bytes of the corpus all chunks cover (count x length).
    pub covered: u64,
    pub kept: u64,
    pub kept_bytes: u64,
    pub dropped: Dropped,
    /// The largest count of any chunk.
    pub max_count: u64,
    /// The runs of shards the output holds (first, last, edge bytes).
    pub runs: Vec<(u64, u64, u64)>,
}

/// Whether `paths` can be merged in one pass: few enough, and every one
/// says its rows are in chunk order.
pub fn can_merge_in_one_pass(paths: &[PathBuf]) -> Result<bool> {
    if paths.len() > MAX_FILES {
        return Ok(false);
    }
    for p in paths {
        if !RowSource::open(p)?.0.sorted {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The next row of each file, smallest chunk first (ties by file).
struct Head {
    chunk: Vec<u8>,
    file: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.chunk == other.chunk && self.file == other.file
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Head {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.chunk
            .cmp(&other.chunk)
            .then(self.file.cmp(&other.file))
    }
}

/// One input: its rows in batches, the batch's next row. An input with
/// no file holds all its rows in its batch.
struct Input {
    rows: Option<RowSource>,
    batch: Vec<CountRow>,
    next: usize,
    /// What the file's rows cover, and the bytes of text it says it counted.
    covered: Covered,
    said: Option<u64>,
}

impl Input {
    /// The next row, reading a batch when the last is used up.
    fn take(&mut self) -> Result<Option<CountRow>> {
        if self.next == self.batch.len() {
            match &mut self.rows {
                Some(rows) => rows.next_batch(BATCH, &mut self.batch)?,
                None => self.batch.clear(),
            }
            self.next = 0;
            if self.batch.is_empty() {
                return Ok(None);
            }
        }
        if self.rows.is_some() {
            self.covered.add(&self.batch[self.next])?;
        }
        let row = std::mem::replace(
            &mut self.batch[self.next],
            CountRow {
                chunk: Vec::new(),
                count: 0,
                first: Default::default(),
            },
        );
        self.next += 1;
        Ok(Some(row))
    }
}

/// The inputs of a merge opened: each file's rows, the chunks where their
/// shards' edges meet as one more input, and the header of the output.
struct Opened {
    inputs: Vec<Input>,
    header: Header,
    run_spans: Vec<(u64, u64, u64)>,
}

/// Open `paths`, checking they were cut alike, and join their shards'
/// edges; `None` when there are no files.
fn open_inputs(paths: &[PathBuf], min: u64) -> Result<Option<Opened>> {
    let mut inputs = Vec::with_capacity(paths.len() + 1);
    let mut header: Option<(Header, String)> = None;
    let mut source = Some(0u64);
    let mut min_before: Option<u64> = None;
    let mut joined: Option<ChunkCounts> = None;
    for p in paths {
        let (mut h, rows) = RowSource::open(p)?;
        let said = check_run_bytes(&h).map_err(|e| e.context(rows.name()))?;
        if let Some((first, name)) = &header
            && first.options != h.options
        {
            return Err(options_differ(rows.name(), h.options, name, first.options));
        }
        // Edges of neighbouring shards meet: the text between is counted
        // here, into a table of its own that is merged as one more file.
        let edges = joined.get_or_insert_with(|| ChunkCounts::new(h.options));
        for run in std::mem::take(&mut h.runs) {
            edges.add_run(run).map_err(|e| e.context(rows.name()))?;
        }
        source = source.zip(h.source_bytes).map(|(a, b)| a.saturating_add(b));
        min_before = min_before.max(h.min_chunk_count);
        header.get_or_insert((h, rows.name().to_string()));
        inputs.push(Input {
            rows: Some(rows),
            batch: Vec::new(),
            next: 0,
            covered: Covered::default(),
            said,
        });
    }
    let (Some((first, _)), Some(edges)) = (header, joined) else {
        return Ok(None);
    };
    inputs.push(Input {
        rows: None,
        batch: edges
            .in_chunk_order()
            .map(|(chunk, count, first)| CountRow {
                chunk: chunk.to_vec(),
                count,
                first,
            })
            .collect(),
        next: 0,
        covered: Covered::default(),
        said: None,
    });
    let header = Header {
        options: first.options,
        source_bytes: source,
        min_chunk_count: if min > 1 {
            Some(min.max(min_before.unwrap_or(1)))
        } else {
            min_before
        },
        sorted: true,
        runs: edges.runs().runs().to_vec(),
    };
    Ok(Some(Opened {
        inputs,
        header,
        run_spans: edges.runs().spans(),
    }))
}

/// Sum the count files `paths` (each in chunk order) into one count file
/// on `out`, dropping chunks counted fewer than `min` times.
pub fn merge(
    paths: &[PathBuf],
    min: u64,
    format: CountFormat,
    out: &mut (dyn Write + Send),
) -> Result<Merged> {
    let Some(Opened {
        mut inputs,
        header: out_header,
        run_spans,
    }) = open_inputs(paths, min)?
    else {
        return Ok(Merged::default());
    };
    let source = out_header.source_bytes;
    let mut writer = CountWriter::new(format, &out_header, out)?;
    let mut merged = Merged {
        runs: run_spans,
        source_bytes: source,
        ..Merged::default()
    };
    let mut heads = BinaryHeap::with_capacity(inputs.len());
    let mut pending: Vec<Option<CountRow>> = Vec::with_capacity(inputs.len());
    for (file, input) in inputs.iter_mut().enumerate() {
        let row = input.take()?;
        if let Some(r) = &row {
            heads.push(Reverse(Head {
                chunk: r.chunk.clone(),
                file,
            }));
        }
        pending.push(row);
    }
    let mut current: Option<CountRow> = None;
    let mut emit = |row: CountRow, merged: &mut Merged| -> Result<()> {
        let len = row.chunk.len() as u64;
        merged.distinct += 1;
        merged.distinct_bytes += len;
        merged.max_count = merged.max_count.max(row.count);
        let covered = checked_total([(row.count, len)].into_iter())?;
        merged.covered = checked_total([(1, merged.covered), (1, covered)].into_iter())?;
        if row.count < min {
            merged.dropped.chunks += 1;
            // At most the covered bytes, which are checked.
            merged.dropped.covered += covered;
            return Ok(());
        }
        merged.kept += 1;
        merged.kept_bytes += len;
        writer.push(row)
    };
    while let Some(Reverse(head)) = heads.pop() {
        let row = pending[head.file]
            .take()
            .expect("a file in the heap has a row waiting");
        // The file's next row takes its place in the heap.
        let next = inputs[head.file].take()?;
        if let Some(r) = &next {
            heads.push(Reverse(Head {
                chunk: r.chunk.clone(),
                file: head.file,
            }));
        }
        pending[head.file] = next;
        current = match current {
            Some(mut c) if c.chunk == row.chunk => {
                c.count = checked_count(c.count, row.count)?;
                c.first = c.first.min(row.first);
                Some(c)
            }
            Some(c) => {
                emit(c, &mut merged)?;
                Some(row)
            }
            None => Some(row),
        };
    }
    if let Some(c) = current {
        emit(c, &mut merged)?;
    }
    for input in &inputs {
        if let Some(rows) = &input.rows {
            input
                .covered
                .check(input.said)
                .map_err(|e| e.context(rows.name()))?;
        }
    }
    writer.finish()?;
    Ok(merged)
}
