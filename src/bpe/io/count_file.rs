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
//! The file's key-value metadata holds `bpeek.counts` (the format version),
//! `bpeek.options`, `bpeek.source_bytes` and, when rare chunks were
//! dropped, `bpeek.min_chunk_count`. Files that another engine rewrote
//! keep the `options` column even when they lose the metadata.
//!
//! A count file is untrusted: every column is checked, every count must be
//! positive, and a damaged file is refused with its name.

use crate::bpe::chunk_counts::{ChunkCounts, ChunkOptions, FirstPlace};
use crate::error::{Error, Result};
use parquet::basic::Compression;
use parquet::column::reader::ColumnReader;
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

/// The count file format this build writes and reads.
pub const FORMAT_VERSION: &str = "1";

/// Rows per Parquet row group (and per batch read back).
const ROWS_PER_GROUP: usize = 1 << 20;
const BATCH: usize = 1 << 16;

/// The first line of a tab-separated count file starts with this.
pub const TSV_MAGIC: &str = "# bpeek counts ";

const SCHEMA: &str = "message bpeek_counts {
    required binary chunk;
    required int64 count;
    required int64 first_shard;
    required int64 first_offset;
    required binary options (STRING);
}";

/// Write `counts` as Parquet to `out`, rows in corpus order.
pub fn write_parquet(counts: &ChunkCounts, out: &mut (dyn Write + Send)) -> Result<()> {
    let fail = |e: parquet::errors::ParquetError| Error::failure(format!("writing Parquet: {e}"));
    let schema = Arc::new(parse_message_type(SCHEMA).map_err(fail)?);
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("bpeek {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = SerializedFileWriter::new(out, schema, Arc::new(props)).map_err(fail)?;
    let options = counts.options().describe();
    let rows = counts.in_corpus_order();
    for group in rows.chunks(ROWS_PER_GROUP) {
        let mut rg = writer.next_row_group().map_err(fail)?;
        let mut column = 0;
        while let Some(mut col) = rg.next_column().map_err(fail)? {
            match column {
                0 => {
                    let v: Vec<ByteArray> = group.iter().map(|r| ByteArray::from(r.0)).collect();
                    col.typed::<ByteArrayType>().write_batch(&v, None, None)
                }
                4 => {
                    let v = vec![ByteArray::from(options.as_str()); group.len()];
                    col.typed::<ByteArrayType>().write_batch(&v, None, None)
                }
                _ => {
                    let v: Vec<i64> = group
                        .iter()
                        .map(|r| match column {
                            1 => r.1,
                            2 => r.2.shard,
                            _ => r.2.offset,
                        })
                        .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
                        .collect();
                    col.typed::<Int64Type>().write_batch(&v, None, None)
                }
            }
            .map_err(fail)?;
            col.close().map_err(fail)?;
            column += 1;
        }
        rg.close().map_err(fail)?;
    }
    for (key, value) in metadata(counts) {
        writer.append_key_value_metadata(KeyValue::new(key.to_string(), value));
    }
    writer.close().map_err(fail)?;
    Ok(())
}

fn metadata(counts: &ChunkCounts) -> Vec<(&'static str, String)> {
    let mut kv = vec![
        ("bpeek.counts", FORMAT_VERSION.to_string()),
        ("bpeek.options", counts.options().describe()),
        ("bpeek.source_bytes", counts.source_bytes().to_string()),
    ];
    if let Some(k) = counts.min_chunk_count() {
        kv.push(("bpeek.min_chunk_count", k.to_string()));
    }
    kv
}

/// Write `counts` as tab-separated text: a first line
/// `# bpeek counts 1: OPTIONS; source-bytes N[; min-chunk-count K]`, then
/// `chunk<TAB>count<TAB>first_shard<TAB>first_offset` per chunk in corpus
/// order, the chunk escaped as [`escape`] says.
pub fn write_tsv(counts: &ChunkCounts, out: &mut dyn Write) -> std::io::Result<()> {
    write!(
        out,
        "{TSV_MAGIC}{FORMAT_VERSION}: {}; source-bytes {}",
        counts.options().describe(),
        counts.source_bytes()
    )?;
    if let Some(k) = counts.min_chunk_count() {
        write!(out, "; min-chunk-count {k}")?;
    }
    out.write_all(b"\n")?;
    let mut line = Vec::new();
    for (bytes, count, first) in counts.in_corpus_order() {
        line.clear();
        escape(bytes, &mut line);
        writeln!(line, "\t{count}\t{}\t{}", first.shard, first.offset)?;
        out.write_all(&line)?;
    }
    Ok(())
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
        let shown = path.display().to_string();
        let head = crate::bpe::io::files::read_prefix(path, 4)?;
        let result = if head == b"PAR1" {
            // The Parquet reader is a large decoder of untrusted bytes: a
            // panic in it is this file's error, not the program's end.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.read_parquet(path)))
                .unwrap_or_else(|_| Err(Error::input("the Parquet decoder failed on it")))
        } else {
            self.read_tsv(path)
        };
        result.map_err(|e| e.context(&shown))
    }

    /// The table to add rows of a file cut with `options` to, after
    /// checking they match the files read before.
    fn table_for(
        &mut self,
        options: ChunkOptions,
        path: &Path,
        source_bytes: Option<u64>,
        min_chunk_count: Option<u64>,
    ) -> Result<&mut ChunkCounts> {
        if let Some(counts) = &self.counts
            && counts.options() != options
        {
            return Err(Error::input(format!(
                "counted with {}, but {} was counted with {}; counts of differently cut text cannot be summed",
                options.describe(),
                self.options_from,
                counts.options().describe()
            )));
        }
        if self.counts.is_none() {
            self.options_from = path.display().to_string();
        }
        let counts = self.counts.get_or_insert_with(|| ChunkCounts::new(options));
        match source_bytes {
            Some(n) => counts.set_source_bytes(counts.source_bytes().saturating_add(n)),
            None => self.source_estimated = true,
        }
        if let Some(k) = min_chunk_count {
            counts.set_min_chunk_count(Some(counts.min_chunk_count().unwrap_or(1).max(k)));
        }
        Ok(counts)
    }

    fn read_tsv(&mut self, path: &Path) -> Result<()> {
        let file = crate::bpe::io::files::open(path)?;
        let mut lines = std::io::BufReader::new(file);
        let mut header = Vec::new();
        let bad = |line: usize, what: String| Error::input(format!("line {line}: {what}"));
        read_line(&mut lines, &mut header).map_err(|e| bad(1, e))?;
        let header = std::str::from_utf8(&header)
            .ok()
            .and_then(|h| h.strip_prefix(TSV_MAGIC))
            .ok_or_else(|| {
                Error::input(format!(
                    "not a count file: neither Parquet nor text starting with {TSV_MAGIC:?}"
                ))
            })?;
        let (version, rest) = header
            .split_once(": ")
            .ok_or_else(|| bad(1, "no options in the header".into()))?;
        if version != FORMAT_VERSION {
            return Err(bad(
                1,
                format!("count file format {version:?}; this bpeek reads format {FORMAT_VERSION}"),
            ));
        }
        let mut parts = rest.split("; ");
        let options = ChunkOptions::parse(parts.next().unwrap_or_default())
            .map_err(|e| bad(1, format!("options: {e}")))?;
        let (mut source, mut min) = (None, None);
        for part in parts {
            let number = |p: &str, key: &str| -> Result<u64> {
                p.trim_start_matches(key)
                    .trim()
                    .parse()
                    .map_err(|_| bad(1, format!("{key}: not a whole number")))
            };
            if part.starts_with("source-bytes") {
                source = Some(number(part, "source-bytes")?);
            } else if part.starts_with("min-chunk-count") {
                min = Some(number(part, "min-chunk-count")?);
            } else {
                return Err(bad(1, format!("unknown header field {part:?}")));
            }
        }
        let counts = self.table_for(options, path, source, min)?;
        let mut line = Vec::new();
        let mut n = 1;
        loop {
            n += 1;
            line.clear();
            if read_line(&mut lines, &mut line).map_err(|e| bad(n, e))? == 0 {
                break;
            }
            let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            let [chunk, count, shard, offset] = fields[..] else {
                return Err(bad(
                    n,
                    format!(
                        "{} fields; a row has 4 (chunk, count, first_shard, first_offset)",
                        fields.len()
                    ),
                ));
            };
            let chunk = unescape(chunk).map_err(|e| bad(n, format!("chunk: {e}")))?;
            let number = |field: &[u8], name: &str| -> Result<u64> {
                std::str::from_utf8(field)
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| bad(n, format!("{name}: not a whole number")))
            };
            let count = number(count, "count")?;
            if count == 0 {
                return Err(bad(
                    n,
                    "count: 0 (a chunk in the file appears at least once)".into(),
                ));
            }
            let first = FirstPlace {
                shard: number(shard, "first_shard")?,
                offset: number(offset, "first_offset")?,
            };
            counts
                .add(&chunk, count, first)
                .map_err(|e| e.context(format!("line {n}")))?;
        }
        Ok(())
    }

    fn read_parquet(&mut self, path: &Path) -> Result<()> {
        let pq = |e: parquet::errors::ParquetError| Error::input(format!("damaged Parquet: {e}"));
        let file = crate::bpe::io::files::open(path)?;
        let file_len = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        let reader = SerializedFileReader::new(file).map_err(pq)?;
        let meta = reader.metadata();
        let kv = |key: &str| -> Option<String> {
            meta.file_metadata()
                .key_value_metadata()?
                .iter()
                .find(|kv| kv.key == key)?
                .value
                .clone()
        };
        if let Some(v) = kv("bpeek.counts")
            && v != FORMAT_VERSION
        {
            return Err(Error::input(format!(
                "bpeek.counts: count file format {v:?}; this bpeek reads format {FORMAT_VERSION}"
            )));
        }
        let number = |key: &str| -> Result<Option<u64>> {
            kv(key)
                .map(|v| {
                    v.parse()
                        .map_err(|_| Error::input(format!("{key}: {v:?} is not a whole number")))
                })
                .transpose()
        };
        let schema = meta.file_metadata().schema_descr();
        let find = |name: &str| {
            schema
                .columns()
                .iter()
                .position(|c| c.path().parts().len() == 1 && c.name() == name)
        };
        let need = |name: &str| {
            find(name).ok_or_else(|| {
                Error::input(format!(
                    "no column {name:?} (a count file has chunk, count, first_shard, first_offset and options)"
                ))
            })
        };
        let cols = [
            need("chunk")?,
            need("count")?,
            need("first_shard")?,
            need("first_offset")?,
        ];
        let options_col = find("options");
        let mut options = kv("bpeek.options")
            .map(|o| {
                ChunkOptions::parse(&o).map_err(|e| Error::input(format!("bpeek.options: {e}")))
            })
            .transpose()?;
        // The options column decides when the metadata is gone; both must agree.
        let column_options = match options_col {
            Some(c) => first_options(&reader, c)?,
            None => None,
        };
        match (options, column_options) {
            (Some(a), Some(b)) if a != b => {
                return Err(Error::input(format!(
                    "bpeek.options says {} but the options column says {}",
                    a.describe(),
                    b.describe()
                )));
            }
            (None, b) => options = b,
            _ => {}
        }
        let options = options.ok_or_else(|| {
            Error::input(
                "no options: neither the bpeek.options metadata nor an options column says how the text was cut",
            )
        })?;
        let source = number("bpeek.source_bytes")?;
        let min = number("bpeek.min_chunk_count")?;
        for g in 0..meta.num_row_groups() {
            let rg_meta = meta.row_group(g);
            for c in rg_meta.columns() {
                // A page may claim any size; snappy expands at most about
                // 6x, so a claim far past the bytes stored is a damaged file.
                let stored = c.compressed_size().max(0) as u64;
                let claimed = c.uncompressed_size().max(0) as u64;
                if claimed > stored.saturating_mul(64).saturating_add(1 << 20) || stored > file_len
                {
                    return Err(Error::input(format!(
                        "row group {g}: column {:?} claims {claimed} bytes from {stored} stored",
                        c.column_path().string()
                    )));
                }
            }
        }
        let counts = self.table_for(options, path, source, min)?;
        let mut row = 0u64;
        for g in 0..meta.num_row_groups() {
            let rg = reader.get_row_group(g).map_err(pq)?;
            let mut readers = Vec::with_capacity(4);
            for (i, &c) in cols.iter().enumerate() {
                let r = rg.get_column_reader(c).map_err(pq)?;
                let ok = matches!(
                    (&r, i),
                    (ColumnReader::ByteArrayColumnReader(_), 0)
                        | (ColumnReader::Int64ColumnReader(_), 1..)
                        | (ColumnReader::Int32ColumnReader(_), 1..)
                );
                if !ok {
                    let want = if i == 0 {
                        "binary or string"
                    } else {
                        "an integer"
                    };
                    return Err(Error::input(format!(
                        "column {:?} is not {want}",
                        schema.column(c).name()
                    )));
                }
                readers.push(Column::new(r));
            }
            let expected = rg.metadata().num_rows().max(0) as usize;
            let mut done = 0usize;
            while done < expected {
                let want = BATCH.min(expected - done);
                let chunks = readers[0]
                    .bytes(want)
                    .map_err(|e| at_row(e, "chunk", row))?;
                let counts_col = readers[1].ints(want).map_err(|e| at_row(e, "count", row))?;
                let shards = readers[2]
                    .ints(want)
                    .map_err(|e| at_row(e, "first_shard", row))?;
                let offsets = readers[3]
                    .ints(want)
                    .map_err(|e| at_row(e, "first_offset", row))?;
                let n = chunks.len();
                if n == 0 || [counts_col.len(), shards.len(), offsets.len()] != [n; 3] {
                    return Err(Error::input(format!(
                        "row group {g}: the columns end at different rows"
                    )));
                }
                for i in 0..n {
                    let r = row + i as u64;
                    let positive = |v: i64, name: &str, zero_ok: bool| -> Result<u64> {
                        if v < 0 || (v == 0 && !zero_ok) {
                            Err(Error::input(format!("row {r}: {name} is {v}")))
                        } else {
                            Ok(v as u64)
                        }
                    };
                    let count = positive(counts_col[i], "count", false)?;
                    let first = FirstPlace {
                        shard: positive(shards[i], "first_shard", true)?,
                        offset: positive(offsets[i], "first_offset", true)?,
                    };
                    counts
                        .add(chunks[i].data(), count, first)
                        .map_err(|e| e.context(format!("row {r}")))?;
                }
                done += n;
                row += n as u64;
            }
        }
        Ok(())
    }
}

fn at_row(e: Error, column: &str, row: u64) -> Error {
    e.context(format!("column {column:?} near row {row}"))
}

/// The options written in the first row of column `c`, if there is a row.
fn first_options(
    reader: &SerializedFileReader<std::fs::File>,
    c: usize,
) -> Result<Option<ChunkOptions>> {
    let pq = |e: parquet::errors::ParquetError| Error::input(format!("damaged Parquet: {e}"));
    for g in 0..reader.metadata().num_row_groups() {
        let rg = reader.get_row_group(g).map_err(pq)?;
        let r = rg.get_column_reader(c).map_err(pq)?;
        if !matches!(r, ColumnReader::ByteArrayColumnReader(_)) {
            return Err(Error::input("column \"options\" is not a string"));
        }
        let values = Column::new(r).bytes(1)?;
        if let Some(v) = values.first() {
            let text = std::str::from_utf8(v.data())
                .map_err(|_| Error::input("column \"options\": not UTF-8"))?;
            return ChunkOptions::parse(text)
                .map(Some)
                .map_err(|e| Error::input(format!("column \"options\": {e}")));
        }
    }
    Ok(None)
}

/// One column being read, with the nulls it may not hold refused.
struct Column {
    reader: ColumnReader,
    levels: Vec<i16>,
}

impl Column {
    fn new(reader: ColumnReader) -> Self {
        Column {
            reader,
            levels: Vec::new(),
        }
    }

    fn bytes(&mut self, want: usize) -> Result<Vec<ByteArray>> {
        let mut values = Vec::with_capacity(want);
        self.levels.clear();
        let (records, got, _) = match &mut self.reader {
            ColumnReader::ByteArrayColumnReader(r) => r
                .read_records(want, Some(&mut self.levels), None, &mut values)
                .map_err(|e| Error::input(format!("damaged Parquet: {e}")))?,
            _ => return Err(Error::input("not a binary column")),
        };
        no_nulls(records, got)?;
        Ok(values)
    }

    fn ints(&mut self, want: usize) -> Result<Vec<i64>> {
        self.levels.clear();
        let pq = |e: parquet::errors::ParquetError| Error::input(format!("damaged Parquet: {e}"));
        match &mut self.reader {
            ColumnReader::Int64ColumnReader(r) => {
                let mut values = Vec::with_capacity(want);
                let (records, got, _) = r
                    .read_records(want, Some(&mut self.levels), None, &mut values)
                    .map_err(pq)?;
                no_nulls(records, got)?;
                Ok(values)
            }
            ColumnReader::Int32ColumnReader(r) => {
                let mut values = Vec::with_capacity(want);
                let (records, got, _) = r
                    .read_records(want, Some(&mut self.levels), None, &mut values)
                    .map_err(pq)?;
                no_nulls(records, got)?;
                Ok(values.into_iter().map(i64::from).collect())
            }
            _ => Err(Error::input("not an integer column")),
        }
    }
}

fn no_nulls(records: usize, values: usize) -> Result<()> {
    if values < records {
        return Err(Error::input(format!(
            "{} of {records} rows are null",
            records - values
        )));
    }
    Ok(())
}

/// One line (without its `\n`) into `line`; how many bytes were read.
fn read_line(r: &mut impl BufRead, line: &mut Vec<u8>) -> std::result::Result<usize, String> {
    let n = r
        .read_until(b'\n', line)
        .map_err(|e| format!("cannot read: {e}"))?;
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Ok(n)
}
