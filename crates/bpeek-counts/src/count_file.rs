//! Count files: a corpus's distinct chunks with their counts, as Parquet
//! (what Spark, Dask, Ray and DuckDB read and write) or as tab-separated
//! text (what a pipe carries).
//!
//! Parquet schema, one row per distinct chunk:
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `chunk` | binary | the chunk's bytes |
//! | `count` | int64 | how many times it appears |
//! | `first_shard` | int64 | the shard it first appears in |
//! | `first_offset` | int64 | its first byte offset in that shard |
//! | `options` | string | the options that cut it (same in every row) |
//!
//! Rows are in chunk order (ascending bytes), each chunk once, so that
//! count files merge in one pass holding a batch of each (the reduce step
//! needs no table). The file's key-value metadata holds `bpeek.counts`
//! (the format version), `bpeek.options`, `bpeek.source_bytes`,
//! `bpeek.order` (`chunk`) and, when rare chunks were dropped,
//! `bpeek.min_chunk_count`. Files that another engine rewrote keep the
//! `options` column even when they lose the metadata and the order; they
//! are summed in a table instead.
//!
//! A count file is untrusted: every column is checked, every count must be
//! positive, and a damaged file is refused with its name.

use crate::count_edges::edge_lines;
use crate::count_rows::RowSource;
use bpeek_core::error::{Error, Result};
use bpeek_core::train::chunk_counts::{ChunkCounts, ChunkOptions, FirstPlace};
use bpeek_core::train::shard_edges::ShardRun;
#[cfg(feature = "parquet")]
use parquet::basic::Compression;
#[cfg(feature = "parquet")]
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
#[cfg(feature = "parquet")]
use parquet::file::metadata::KeyValue;
#[cfg(feature = "parquet")]
use parquet::file::properties::WriterProperties;
#[cfg(feature = "parquet")]
use parquet::file::writer::SerializedFileWriter;
#[cfg(feature = "parquet")]
use parquet::schema::parser::parse_message_type;
use std::io::Write;
use std::path::Path;
#[cfg(feature = "parquet")]
use std::sync::Arc;

/// The count file format this build writes.
pub const FORMAT_VERSION: &str = "2";

/// The formats this build reads: 1 had no shard edges.
pub const FORMATS_READ: [&str; 2] = ["1", "2"];

#[cfg(feature = "parquet")]
/// Rows per Parquet row group: small enough that a merge of many files
/// holds one group of each in little memory.
const ROWS_PER_GROUP: usize = 1 << 14;

/// Rows read at a time.
pub const BATCH: usize = 1 << 11;

/// The first line of a tab-separated count file starts with this.
pub const TSV_MAGIC: &str = "# bpeek counts ";

#[cfg(feature = "parquet")]
const SCHEMA: &str = "message bpeek_counts {
    required binary chunk;
    required int64 count;
    required int64 first_shard;
    required int64 first_offset;
    required binary options (STRING);
}";

/// What a count file says about all its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub options: ChunkOptions,
    /// Bytes of the text counted, when the file says.
    pub source_bytes: Option<u64>,
    /// The `--min-chunk-count` that dropped chunks, if one did.
    pub min_chunk_count: Option<u64>,
    /// Whether rows are in chunk order, each chunk once.
    pub sorted: bool,
    /// The shards counted, with the text at their edges not yet counted
    /// (none in a file that does not say: format 1, or another engine's).
    pub runs: Vec<ShardRun>,
}

impl Header {
    /// The header of a file that will hold `counts`, in chunk order.
    pub fn of(counts: &ChunkCounts) -> Self {
        Header {
            options: counts.options(),
            source_bytes: Some(counts.source_bytes()),
            min_chunk_count: counts.min_chunk_count(),
            sorted: true,
            runs: counts.runs().runs().to_vec(),
        }
    }
}

/// One row: a distinct chunk, its count and where it first appeared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRow {
    pub chunk: Vec<u8>,
    pub count: u64,
    pub first: FirstPlace,
}

/// The file format of a count file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountFormat {
    Parquet,
    Tsv,
}

/// Writes a count file a row at a time.
pub struct CountWriter<'w> {
    kind: WriterKind<'w>,
    /// Rows not yet written (a row group's worth for Parquet).
    rows: Vec<CountRow>,
    /// The options column's value, in every row of a Parquet file.
    #[cfg(feature = "parquet")]
    options: String,
    /// Rows pushed so far.
    written: u64,
}

enum WriterKind<'w> {
    #[cfg(feature = "parquet")]
    Parquet(Box<SerializedFileWriter<Summed<'w>>>, Vec<(String, String)>),
    Tsv(&'w mut (dyn Write + Send)),
}

/// A writer that keeps a CRC-32 of what passed through it: the checksum of
/// a Parquet file's pages, which the `parquet` crate does not write.
#[cfg(feature = "parquet")]
pub struct Summed<'w> {
    inner: &'w mut (dyn Write + Send),
    crc: crc32fast::Hasher,
    len: u64,
}

#[cfg(feature = "parquet")]
impl Write for Summed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The key-value metadata holding the number of rows bpeek wrote.
pub const ROWS_KEY: &str = "bpeek.rows";

/// The key-value metadata holding a Parquet count file's checksum:
/// `crc32 HEX N`, the CRC-32 of its first N bytes (every page) followed by
/// each other `bpeek.` key and value, in the order written.
pub const CHECKSUM_KEY: &str = "bpeek.checksum";

/// The CRC-32 of `pages` (a Hasher fed the file's first bytes) and the
/// `bpeek.` metadata `kv`.
#[cfg(feature = "parquet")]
pub fn checksum(mut pages: crc32fast::Hasher, kv: &[(String, String)]) -> u32 {
    for (k, v) in kv
        .iter()
        .filter(|(k, _)| k.starts_with("bpeek.") && k != CHECKSUM_KEY)
    {
        pages.update(k.as_bytes());
        pages.update(b"=");
        pages.update(v.as_bytes());
        pages.update(b"\n");
    }
    pages.finalize()
}

#[cfg(feature = "parquet")]
fn parquet_failure(e: parquet::errors::ParquetError) -> Error {
    Error::failure(format!("writing Parquet: {e}"))
}

impl<'w> CountWriter<'w> {
    /// Start a count file with `header` on `out`.
    pub fn new(
        format: CountFormat,
        header: &Header,
        out: &'w mut (dyn Write + Send),
    ) -> Result<Self> {
        let options = header.options.describe();
        let kind = match format {
            CountFormat::Parquet => parquet_writer(header, &options, out)?,
            CountFormat::Tsv => {
                let mut line = format!("{TSV_MAGIC}{FORMAT_VERSION}: {options}");
                if let Some(n) = header.source_bytes {
                    line.push_str(&format!("; source-bytes {n}"));
                }
                if let Some(k) = header.min_chunk_count {
                    line.push_str(&format!("; min-chunk-count {k}"));
                }
                if header.sorted {
                    line.push_str("; sorted");
                }
                line.push('\n');
                let mut text = line.into_bytes();
                for edge in edge_lines(&header.runs) {
                    text.extend_from_slice(b"# ");
                    text.extend_from_slice(&edge);
                    text.push(b'\n');
                }
                out.write_all(&text).map_err(write_failure)?;
                WriterKind::Tsv(out)
            }
        };
        Ok(CountWriter {
            kind,
            rows: Vec::new(),
            #[cfg(feature = "parquet")]
            options,
            written: 0,
        })
    }

    pub fn push(&mut self, row: CountRow) -> Result<()> {
        self.rows.push(row);
        self.written += 1;
        let full = match self.kind {
            #[cfg(feature = "parquet")]
            WriterKind::Parquet(..) => ROWS_PER_GROUP,
            WriterKind::Tsv(_) => BATCH,
        };
        if self.rows.len() >= full {
            self.flush_rows()?;
        }
        Ok(())
    }

    fn flush_rows(&mut self) -> Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        match &mut self.kind {
            #[cfg(feature = "parquet")]
            WriterKind::Parquet(w, _) => write_group(w, &self.rows, &self.options)?,
            WriterKind::Tsv(out) => {
                let mut text = Vec::new();
                for r in &self.rows {
                    escape(&r.chunk, &mut text);
                    writeln!(text, "\t{}\t{}\t{}", r.count, r.first.shard, r.first.offset)
                        .map_err(write_failure)?;
                }
                out.write_all(&text).map_err(write_failure)?;
            }
        }
        self.rows.clear();
        Ok(())
    }

    /// Write what is left and the file's footer.
    pub fn finish(mut self) -> Result<()> {
        self.flush_rows()?;
        match self.kind {
            #[cfg(feature = "parquet")]
            WriterKind::Parquet(mut w, mut kv) => {
                // The rows are counted under the checksum: a footer whose
                // row counts changed reads fewer rows, which is found.
                let rows = (ROWS_KEY.to_string(), self.written.to_string());
                w.append_key_value_metadata(KeyValue::new(rows.0.clone(), rows.1.clone()));
                kv.push(rows);
                w.flush().map_err(write_failure)?;
                let pages = w.inner();
                let crc = checksum(pages.crc.clone(), &kv);
                let value = format!("crc32 {crc:08x} {}", pages.len);
                w.append_key_value_metadata(KeyValue::new(CHECKSUM_KEY.to_string(), value));
                w.close().map_err(parquet_failure)?;
            }
            WriterKind::Tsv(out) => out.flush().map_err(write_failure)?,
        }
        Ok(())
    }
}

/// The start of a Parquet count file: its schema and its key-value
/// metadata (the header).
#[cfg(feature = "parquet")]
fn parquet_writer<'w>(
    header: &Header,
    options: &str,
    out: &'w mut (dyn Write + Send),
) -> Result<WriterKind<'w>> {
    let schema = Arc::new(parse_message_type(SCHEMA).map_err(parquet_failure)?);
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("bpeek {}", env!("CARGO_PKG_VERSION")))
        .build();
    let summed = Summed {
        inner: out,
        crc: crc32fast::Hasher::new(),
        len: 0,
    };
    let mut w =
        SerializedFileWriter::new(summed, schema, Arc::new(props)).map_err(parquet_failure)?;
    let mut kv = vec![
        ("bpeek.counts", FORMAT_VERSION.to_string()),
        ("bpeek.options", options.to_string()),
    ];
    if let Some(n) = header.source_bytes {
        kv.push(("bpeek.source_bytes", n.to_string()));
    }
    if header.sorted {
        kv.push(("bpeek.order", "chunk".to_string()));
    }
    if let Some(k) = header.min_chunk_count {
        kv.push(("bpeek.min_chunk_count", k.to_string()));
    }
    if !header.runs.is_empty() {
        let lines: Vec<String> = edge_lines(&header.runs)
            .into_iter()
            // Escaped edge text is UTF-8.
            .map(|l| String::from_utf8_lossy(&l).into_owned())
            .collect();
        kv.push(("bpeek.edges", lines.join("\n")));
    }
    let kv: Vec<(String, String)> = kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    for (key, value) in &kv {
        w.append_key_value_metadata(KeyValue::new(key.clone(), value.clone()));
    }
    Ok(WriterKind::Parquet(Box::new(w), kv))
}

/// Parquet in a build without it: refused, saying how to get it.
#[cfg(not(feature = "parquet"))]
fn parquet_writer<'w>(
    _: &Header,
    _: &str,
    _: &'w mut (dyn Write + Send),
) -> Result<WriterKind<'w>> {
    Err(no_parquet())
}

/// The refusal of Parquet by a build without the `parquet` feature.
pub fn no_parquet() -> Error {
    Error::input(
        "this bpeek was built without Parquet: use tab-separated count files (--format tsv), or build it with `cargo build --release --features parquet`",
    )
}

fn write_failure(e: std::io::Error) -> Error {
    Error::failure(format!("cannot write: {e}"))
}

/// A count or place that Parquet's int64 cannot hold (summing refuses
/// counts past it, so TSV and Parquet files never disagree).
#[cfg(feature = "parquet")]
fn too_big(n: u64) -> Error {
    Error::input(format!(
        "{n} passes 2^63 - 1, the most a count file's int64 columns hold"
    ))
}

#[cfg(feature = "parquet")]
fn write_group(
    w: &mut SerializedFileWriter<Summed<'_>>,
    rows: &[CountRow],
    options: &str,
) -> Result<()> {
    let mut rg = w.next_row_group().map_err(parquet_failure)?;
    let mut column = 0;
    while let Some(mut col) = rg.next_column().map_err(parquet_failure)? {
        match column {
            0 => {
                let v: Vec<ByteArray> = rows
                    .iter()
                    .map(|r| ByteArray::from(r.chunk.as_slice()))
                    .collect();
                col.typed::<ByteArrayType>().write_batch(&v, None, None)
            }
            4 => {
                let v = vec![ByteArray::from(options); rows.len()];
                col.typed::<ByteArrayType>().write_batch(&v, None, None)
            }
            _ => {
                let v: Vec<i64> = rows
                    .iter()
                    .map(|r| match column {
                        1 => r.count,
                        2 => r.first.shard,
                        _ => r.first.offset,
                    })
                    .map(|n| i64::try_from(n).map_err(|_| too_big(n)))
                    .collect::<Result<_>>()?;
                col.typed::<Int64Type>().write_batch(&v, None, None)
            }
        }
        .map_err(parquet_failure)?;
        col.close().map_err(parquet_failure)?;
        column += 1;
    }
    rg.close().map_err(parquet_failure)?;
    Ok(())
}

/// Write `counts` as a count file, rows in chunk order.
pub fn write_counts(
    counts: &ChunkCounts,
    format: CountFormat,
    out: &mut (dyn Write + Send),
) -> Result<()> {
    let mut w = CountWriter::new(format, &Header::of(counts), out)?;
    for (chunk, count, first) in counts.in_chunk_order() {
        w.push(CountRow {
            chunk: chunk.to_vec(),
            count,
            first,
        })?;
    }
    w.finish()
}

/// [`write_counts`] as Parquet.
pub fn write_parquet(counts: &ChunkCounts, out: &mut (dyn Write + Send)) -> Result<()> {
    write_counts(counts, CountFormat::Parquet, out)
}

/// [`write_counts`] as TSV: a first line
/// `# bpeek counts 2: OPTIONS; source-bytes N[; min-chunk-count K]; sorted`
/// and its edge lines (see [`crate::count_edges`]),
/// then `chunk<TAB>count<TAB>first_shard<TAB>first_offset` per chunk, the
/// chunk escaped as [`escape`] says.
pub fn write_tsv(counts: &ChunkCounts, out: &mut (dyn Write + Send)) -> Result<()> {
    write_counts(counts, CountFormat::Tsv, out)
}

/// A chunk as one TSV field: `\\`, `\t`, `\n`, `\r`, and `\xHH` for other
/// control bytes, bytes that are not UTF-8 and a `#` that starts the
/// field (so no data line looks like the header). Python's
/// `codecs.escape_decode` reverses it.
pub fn escape(bytes: &[u8], out: &mut Vec<u8>) {
    let mut rest = bytes;
    let mut at_start = true;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, 0),
            Err(e) => {
                let (ok, _) = rest.split_at(e.valid_up_to());
                let bad = e.error_len().unwrap_or(rest.len() - ok.len());
                (std::str::from_utf8(ok).unwrap_or_default(), bad)
            }
        };
        for c in valid.chars() {
            match c {
                '\\' => out.extend_from_slice(b"\\\\"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '#' if at_start => out.extend_from_slice(b"\\x23"),
                c if c.is_ascii_control() => {
                    let _ = write!(out, "\\x{:02x}", c as u32);
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
            at_start = false;
        }
        let from = valid.len();
        for &b in &rest[from..from + bad] {
            let _ = write!(out, "\\x{b:02x}");
            at_start = false;
        }
        rest = &rest[from + bad..];
    }
}

/// The bytes [`escape`] wrote, or what is wrong with the field.
pub fn unescape(field: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(field.len());
    let mut i = 0;
    while i < field.len() {
        let b = field[i];
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        match field.get(i + 1) {
            Some(b'\\') => out.push(b'\\'),
            Some(b't') => out.push(b'\t'),
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b'x') => {
                let hex = field
                    .get(i + 2..i + 4)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or("\\x is not followed by two hex digits")?;
                out.push(hex);
                i += 4;
                continue;
            }
            _ => return Err(format!("unknown escape at byte {}", i + 1)),
        }
        i += 2;
    }
    Ok(out)
}

/// The bytes of text a file says it counted, checked against the bytes its
/// shards' runs hold where it has runs: a file's numbers are untrusted.
pub fn check_run_bytes(header: &Header) -> Result<Option<u64>> {
    if header.runs.is_empty() {
        return Ok(header.source_bytes);
    }
    let runs = header
        .runs
        .iter()
        .try_fold(0u64, |s, r| s.checked_add(r.bytes))
        .ok_or_else(|| Error::input("its shards hold more than 2^64 - 1 bytes"))?;
    match header.source_bytes {
        Some(n) if n != runs => Err(Error::input(format!(
            "it says it counted {n} bytes of text, but its shards hold {runs}"
        ))),
        _ => Ok(Some(runs)),
    }
}

/// The bytes of text a file's rows cover (count x length), which may not
/// pass what it says it counted.
#[derive(Default)]
pub struct Covered(u64);

impl Covered {
    pub fn add(&mut self, row: &CountRow) -> Result<()> {
        let len = row.chunk.len() as u64;
        self.0 = bpeek_core::train::chunk_counts::checked_total(
            [(1, self.0), (row.count, len)].into_iter(),
        )?;
        Ok(())
    }

    /// Refused when the rows cover more than the `said` bytes of text.
    pub fn check(&self, said: Option<u64>) -> Result<()> {
        match said {
            Some(n) if self.0 > n => Err(Error::input(format!(
                "it says it counted {n} bytes of text, but its chunks cover {} (count x length)",
                self.0
            ))),
            _ => Ok(()),
        }
    }
}

/// Sums count files into one table.
pub struct CountReader {
    counts: Option<ChunkCounts>,
    /// The file the options were first read from, for messages.
    options_from: String,
    /// Whether some file did not say the bytes of its source, so the total
    /// is the bytes its chunks cover.
    pub source_estimated: bool,
}

impl Default for CountReader {
    fn default() -> Self {
        Self::new()
    }
}

/// The error for a file whose options differ from the first file's.
pub fn options_differ(
    file: &str,
    options: ChunkOptions,
    first_file: &str,
    first: ChunkOptions,
) -> Error {
    Error::input(format!(
        "{file}: counted with {}, but {first_file} was counted with {}; counts of differently cut text cannot be summed",
        options.describe(),
        first.describe()
    ))
}

impl CountReader {
    pub fn new() -> Self {
        CountReader {
            counts: None,
            options_from: String::new(),
            source_estimated: false,
        }
    }

    /// The sum of every file read, or `None` if none was.
    pub fn finish(self) -> Option<ChunkCounts> {
        self.counts
    }

    /// Add the counts in `path` (Parquet or tab-separated, told by its
    /// first bytes).
    pub fn read(&mut self, path: &Path) -> Result<()> {
        let (header, mut rows) = RowSource::open(path)?;
        let said = check_run_bytes(&header).map_err(|e| e.context(rows.name()))?;
        let counts = self.table_for(&header, rows.name())?;
        for run in header.runs {
            counts.add_run(run).map_err(|e| e.context(rows.name()))?;
        }
        let mut batch = Vec::with_capacity(BATCH);
        let mut covered = Covered::default();
        loop {
            rows.next_batch(BATCH, &mut batch)?;
            if batch.is_empty() {
                return covered.check(said).map_err(|e| e.context(rows.name()));
            }
            for r in &batch {
                covered.add(r).map_err(|e| e.context(rows.name()))?;
                counts
                    .add(&r.chunk, r.count, r.first)
                    .map_err(|e| e.context(rows.name()))?;
            }
        }
    }

    /// The table to add the rows of a file with `header` to, after
    /// checking its options match the files read before.
    fn table_for(&mut self, header: &Header, name: &str) -> Result<&mut ChunkCounts> {
        if let Some(counts) = &self.counts
            && counts.options() != header.options
        {
            return Err(options_differ(
                name,
                header.options,
                &self.options_from,
                counts.options(),
            ));
        }
        if self.counts.is_none() {
            self.options_from = name.to_string();
        }
        let counts = self
            .counts
            .get_or_insert_with(|| ChunkCounts::new(header.options));
        match header.source_bytes {
            Some(n) => counts.set_source_bytes(counts.source_bytes().saturating_add(n)),
            None => self.source_estimated = true,
        }
        if let Some(k) = header.min_chunk_count {
            counts.set_min_chunk_count(Some(counts.min_chunk_count().unwrap_or(1).max(k)));
        }
        Ok(counts)
    }
}
