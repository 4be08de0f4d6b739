//! Reading a count file a batch of rows at a time, Parquet or TSV alike,
//! every field checked: a count file is untrusted input.

use crate::count_edges::EdgeReader;
#[cfg(feature = "parquet")]
use crate::count_edges::parse_edges;
use crate::count_file::{CountRow, FORMAT_VERSION, FORMATS_READ, Header, TSV_MAGIC, unescape};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::chunk_counts::{ChunkOptions, FirstPlace, checked_count};
#[cfg(feature = "parquet")]
use parquet::column::reader::ColumnReader;
#[cfg(feature = "parquet")]
use parquet::data_type::ByteArray;
#[cfg(feature = "parquet")]
use parquet::file::metadata::ParquetMetaData;
#[cfg(feature = "parquet")]
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::io::BufRead;
use std::path::Path;

/// The rows of one count file, read in order.
pub struct RowSource {
    shown: String,
    sorted: bool,
    /// The last chunk handed out, to check a file that says it is sorted.
    last: Option<Vec<u8>>,
    rows: u64,
    /// The rows the file says it holds (bpeek's Parquet files say it
    /// under their checksum).
    expected_rows: Option<u64>,
    kind: Kind,
}

enum Kind {
    Tsv {
        lines: std::io::BufReader<std::fs::File>,
        line: usize,
    },
    #[cfg(feature = "parquet")]
    Parquet(Box<ParquetRows>),
}

impl RowSource {
    /// Open `path` (Parquet or TSV, told by its first bytes) and read what
    /// its header says.
    pub fn open(path: &Path) -> Result<(Header, RowSource)> {
        let shown = path.display().to_string();
        let head = bpeek_core::formats::files::read_prefix(path, 4)?;
        let opened = if head == b"PAR1" {
            open_parquet(path)
        } else {
            open_tsv(path)
        };
        let (header, kind) = opened.map_err(|e| e.context(&shown))?;
        let expected_rows = match &kind {
            #[cfg(feature = "parquet")]
            Kind::Parquet(p) => p.expected_rows,
            Kind::Tsv { .. } => None,
        };
        let source = RowSource {
            shown,
            sorted: header.sorted,
            last: None,
            rows: 0,
            expected_rows,
            kind,
        };
        Ok((header, source))
    }

    /// The file's name as given, for messages.
    pub fn name(&self) -> &str {
        &self.shown
    }

    /// Up to `max` more rows into `out` (cleared first); none at the end.
    pub fn next_batch(&mut self, max: usize, out: &mut Vec<CountRow>) -> Result<()> {
        out.clear();
        let read = match &mut self.kind {
            Kind::Tsv { lines, line } => tsv_rows(lines, line, max, out),
            #[cfg(feature = "parquet")]
            Kind::Parquet(p) => guarded(|| p.rows(max, out)),
        };
        read.map_err(|e| e.context(&self.shown))?;
        if out.is_empty()
            && let Some(n) = self.expected_rows
            && n != self.rows
        {
            return Err(Error::input(format!(
                "{}: damaged: {} rows read where bpeek wrote {n}",
                self.shown, self.rows
            )));
        }
        if self.sorted {
            for (i, row) in out.iter().enumerate() {
                if self
                    .last
                    .as_deref()
                    .is_some_and(|last| last >= row.chunk.as_slice())
                {
                    return Err(Error::input(format!(
                        "{}: row {}: the file says its rows are in chunk order, each chunk once, but this one is not",
                        self.shown,
                        self.rows + i as u64
                    )));
                }
                self.last = Some(row.chunk.clone());
            }
        }
        self.rows += out.len() as u64;
        Ok(())
    }
}

/// A Parquet count file opened.
#[cfg(feature = "parquet")]
fn open_parquet(path: &Path) -> Result<(Header, Kind)> {
    guarded(|| ParquetRows::open(path)).map(|(h, p)| (h, Kind::Parquet(Box::new(p))))
}

/// Parquet in a build without it: refused, saying how to get it.
#[cfg(not(feature = "parquet"))]
fn open_parquet(_: &Path) -> Result<(Header, Kind)> {
    Err(crate::count_file::no_parquet())
}

/// `read`, with a panic in the Parquet decoder (a large decoder of
/// untrusted bytes) turned into this file's error.
#[cfg(feature = "parquet")]
fn guarded<T>(read: impl FnOnce() -> Result<T>) -> Result<T> {
    bpeek_core::error::catch_quietly(read)
        .unwrap_or_else(|| Err(Error::input("the Parquet decoder failed on it")))
}

fn bad_line(line: usize, what: impl std::fmt::Display) -> Error {
    Error::input(format!("line {line}: {what}"))
}

fn open_tsv(path: &Path) -> Result<(Header, Kind)> {
    let file = bpeek_core::formats::files::open(path)?;
    let mut lines = std::io::BufReader::new(file);
    let mut header = Vec::new();
    read_line(&mut lines, &mut header).map_err(|e| bad_line(1, e))?;
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
        .ok_or_else(|| bad_line(1, "no options in the header"))?;
    if !FORMATS_READ.contains(&version) {
        return Err(bad_line(
            1,
            format!(
                "count file format {version:?}; this bpeek reads formats 1 and {FORMAT_VERSION}"
            ),
        ));
    }
    let mut parts = rest.split("; ");
    let options = ChunkOptions::parse(parts.next().unwrap_or_default())
        .map_err(|e| bad_line(1, format!("options: {e}")))?;
    let mut h = Header {
        options,
        source_bytes: None,
        min_chunk_count: None,
        sorted: false,
        runs: Vec::new(),
    };
    for part in parts {
        let (key, value) = part.split_once(' ').unwrap_or((part, ""));
        let number = || -> Result<u64> {
            value
                .parse()
                .map_err(|_| bad_line(1, format!("{key}: not a whole number")))
        };
        match key {
            "source-bytes" => h.source_bytes = Some(number()?),
            "min-chunk-count" => h.min_chunk_count = Some(number()?),
            "sorted" => h.sorted = true,
            _ => return Err(bad_line(1, format!("unknown header field {part:?}"))),
        }
    }
    let mut line = 1;
    let mut edges = EdgeReader::default();
    while lines
        .fill_buf()
        .map_err(|e| bad_line(line + 1, format!("cannot read: {e}")))?
        .starts_with(b"# ")
    {
        line += 1;
        let mut text = Vec::new();
        read_line(&mut lines, &mut text).map_err(|e| bad_line(line, e))?;
        edges.line(&text[2..]).map_err(|e| bad_line(line, e))?;
    }
    h.runs = edges.finish().map_err(|e| bad_line(line, e))?;
    Ok((h, Kind::Tsv { lines, line }))
}

fn tsv_rows(
    lines: &mut std::io::BufReader<std::fs::File>,
    n: &mut usize,
    max: usize,
    out: &mut Vec<CountRow>,
) -> Result<()> {
    let mut line = Vec::new();
    while out.len() < max {
        *n += 1;
        line.clear();
        if read_line(lines, &mut line).map_err(|e| bad_line(*n, e))? == 0 {
            break;
        }
        let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        let [chunk, count, shard, offset] = fields[..] else {
            return Err(bad_line(
                *n,
                format!(
                    "{} fields; a row has 4 (chunk, count, first_shard, first_offset)",
                    fields.len()
                ),
            ));
        };
        let chunk = unescape(chunk).map_err(|e| bad_line(*n, format!("chunk: {e}")))?;
        let number = |field: &[u8], name: &str| -> Result<u64> {
            std::str::from_utf8(field)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad_line(*n, format!("{name}: not a whole number")))
        };
        let count = number(count, "count")?;
        checked_count(count, 0).map_err(|e| bad_line(*n, format!("count: {e}")))?;
        if count == 0 {
            return Err(bad_line(
                *n,
                "count: 0 (a chunk in the file appears at least once)",
            ));
        }
        let first = FirstPlace {
            shard: number(shard, "first_shard")?,
            offset: number(offset, "first_offset")?,
        };
        out.push(CountRow {
            chunk,
            count,
            first,
        });
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

#[cfg(feature = "parquet")]
fn damaged(e: parquet::errors::ParquetError) -> Error {
    Error::input(format!("damaged Parquet: {e}"))
}

#[cfg(feature = "parquet")]
/// A Parquet count file, a row group at a time.
struct ParquetRows {
    reader: SerializedFileReader<std::fs::File>,
    /// The columns chunk, count, first_shard, first_offset.
    columns: [usize; 4],
    /// The next row group to open.
    group: usize,
    /// The open row group's column readers and the rows it has left.
    open: Option<([Column; 4], usize)>,
    /// The options column, read in every row: it must say the file's
    /// options each time (an engine's union of two files could mix them).
    options_column: Option<usize>,
    open_options: Option<Column>,
    options: ChunkOptions,
    /// The last options value found to say the file's options.
    options_seen: Vec<u8>,
    row: u64,
    expected_rows: Option<u64>,
}

#[cfg(feature = "parquet")]
impl ParquetRows {
    fn open(path: &Path) -> Result<(Header, ParquetRows)> {
        let file = bpeek_core::formats::files::open(path)?;
        let file_len = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        let reader = SerializedFileReader::new(file).map_err(damaged)?;
        let meta = reader.metadata();
        if let Some(v) = key_value(meta, "bpeek.counts")
            && !FORMATS_READ.contains(&v.as_str())
        {
            return Err(Error::input(format!(
                "bpeek.counts: count file format {v:?}; this bpeek reads formats 1 and {FORMAT_VERSION}"
            )));
        }
        let columns = row_columns(meta)?;
        check_column_chunks(meta, file_len)?;
        // Page headers first: a lying size is named as such.
        check_page_headers(path, meta)?;
        check_checksum(path, meta, file_len)?;
        let options = file_options(&reader)?;
        let header = Header {
            options,
            source_bytes: whole_number(meta, "bpeek.source_bytes")?,
            min_chunk_count: whole_number(meta, "bpeek.min_chunk_count")?,
            sorted: key_value(meta, "bpeek.order").as_deref() == Some("chunk"),
            runs: match key_value(meta, "bpeek.edges") {
                Some(text) => parse_edges(text.as_bytes())?,
                None => Vec::new(),
            },
        };
        let expected_rows = whole_number(meta, crate::count_file::ROWS_KEY)?;
        let rows = ParquetRows {
            options_column: column_index(reader.metadata(), "options"),
            reader,
            columns,
            group: 0,
            open: None,
            open_options: None,
            options,
            options_seen: Vec::new(),
            row: 0,
            expected_rows,
        };
        Ok((header, rows))
    }

    /// The column readers of the next row group with rows, if any is left.
    fn open_group(&mut self) -> Result<Option<([Column; 4], usize)>> {
        let schema = self.reader.metadata().file_metadata().schema_descr_ptr();
        while self.group < self.reader.metadata().num_row_groups() {
            let g = self.group;
            self.group += 1;
            let rg = self.reader.get_row_group(g).map_err(damaged)?;
            let rows = rg.metadata().num_rows().max(0) as usize;
            if rows == 0 {
                continue;
            }
            let mut readers = Vec::with_capacity(4);
            for (i, &c) in self.columns.iter().enumerate() {
                let r = rg.get_column_reader(c).map_err(damaged)?;
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
            let readers: [Column; 4] = readers
                .try_into()
                .map_err(|_| Error::failure("four column readers"))?;
            self.open_options = match self.options_column {
                Some(c) => Some(Column::new(rg.get_column_reader(c).map_err(damaged)?)),
                None => None,
            };
            return Ok(Some((readers, rows)));
        }
        Ok(None)
    }

    fn rows(&mut self, max: usize, out: &mut Vec<CountRow>) -> Result<()> {
        if self.open.is_none() {
            self.open = self.open_group()?;
        }
        let Some((readers, left)) = &mut self.open else {
            return Ok(());
        };
        let want = max.min(*left).max(1);
        let row = self.row;
        let at = |e: Error, column: &str| e.context(format!("column {column:?} near row {row}"));
        let chunks = readers[0].bytes(want).map_err(|e| at(e, "chunk"))?;
        let counts = readers[1].ints(want).map_err(|e| at(e, "count"))?;
        let shards = readers[2].ints(want).map_err(|e| at(e, "first_shard"))?;
        let offsets = readers[3].ints(want).map_err(|e| at(e, "first_offset"))?;
        let n = chunks.len();
        if let Some(column) = &mut self.open_options {
            let values = column.bytes(want).map_err(|e| at(e, "options"))?;
            if values.len() != n {
                return Err(Error::input(format!(
                    "row group {}: the columns end at different rows",
                    self.group - 1
                )));
            }
            for (i, v) in values.iter().enumerate() {
                if v.data() != self.options_seen.as_slice() {
                    check_row_options(v.data(), self.options, row + i as u64)?;
                    self.options_seen = v.data().to_vec();
                }
            }
        }
        if n == 0 || [counts.len(), shards.len(), offsets.len()] != [n; 3] {
            return Err(Error::input(format!(
                "row group {}: the columns end at different rows",
                self.group - 1
            )));
        }
        for (i, chunk) in chunks.into_iter().enumerate() {
            let r = row + i as u64;
            let whole = |v: i64, name: &str, zero_ok: bool| -> Result<u64> {
                if v < 0 || (v == 0 && !zero_ok) {
                    Err(Error::input(format!("row {r}: {name} is {v}")))
                } else {
                    Ok(v as u64)
                }
            };
            out.push(CountRow {
                chunk: chunk.data().to_vec(),
                count: whole(counts[i], "count", false)?,
                first: FirstPlace {
                    shard: whole(shards[i], "first_shard", true)?,
                    offset: whole(offsets[i], "first_offset", true)?,
                },
            });
        }
        *left -= n;
        if *left == 0 {
            self.open = None;
        }
        self.row += n as u64;
        Ok(())
    }
}

/// A row's options value says `options`.
#[cfg(feature = "parquet")]
fn check_row_options(value: &[u8], options: ChunkOptions, row: u64) -> Result<()> {
    let said = std::str::from_utf8(value)
        .ok()
        .and_then(|t| ChunkOptions::parse(t).ok());
    match said {
        Some(o) if o == options => Ok(()),
        Some(o) => Err(Error::input(format!(
            "row {row}: column \"options\" says {}, but the file's rows before say {}; counts of differently cut text cannot be summed",
            o.describe(),
            options.describe()
        ))),
        None => Err(Error::input(format!(
            "row {row}: column \"options\" holds {:?}, not options",
            String::from_utf8_lossy(value)
        ))),
    }
}

#[cfg(feature = "parquet")]
/// The value of `key` in a Parquet file's key-value metadata.
fn key_value(meta: &ParquetMetaData, key: &str) -> Option<String> {
    meta.file_metadata()
        .key_value_metadata()?
        .iter()
        .find(|kv| kv.key == key)?
        .value
        .clone()
}

#[cfg(feature = "parquet")]
/// The whole number under `key` in the metadata, if there is one.
fn whole_number(meta: &ParquetMetaData, key: &str) -> Result<Option<u64>> {
    key_value(meta, key)
        .map(|v| {
            v.parse()
                .map_err(|_| Error::input(format!("{key}: {v:?} is not a whole number")))
        })
        .transpose()
}

#[cfg(feature = "parquet")]
/// The index of the top-level column `name`.
fn column_index(meta: &ParquetMetaData, name: &str) -> Option<usize> {
    meta.file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.path().parts().len() == 1 && c.name() == name)
}

#[cfg(feature = "parquet")]
/// The columns chunk, count, first_shard and first_offset, each required.
fn row_columns(meta: &ParquetMetaData) -> Result<[usize; 4]> {
    let need = |name: &str| {
        column_index(meta, name).ok_or_else(|| {
            Error::input(format!(
                "no column {name:?} (a count file has chunk, count, first_shard, first_offset and options)"
            ))
        })
    };
    Ok([
        need("chunk")?,
        need("count")?,
        need("first_shard")?,
        need("first_offset")?,
    ])
}

#[cfg(feature = "parquet")]
/// Every column chunk is snappy or uncompressed, and claims no more bytes
/// than its stored bytes can expand to, in a file of `file_len` bytes.
fn check_column_chunks(meta: &ParquetMetaData, file_len: u64) -> Result<()> {
    use parquet::basic::Compression;
    for g in 0..meta.num_row_groups() {
        for c in meta.row_group(g).columns() {
            if !matches!(
                c.compression(),
                Compression::UNCOMPRESSED | Compression::SNAPPY
            ) {
                return Err(Error::input(format!(
                    "column {:?} is compressed with {}; bpeek reads snappy or uncompressed Parquet (pyarrow: compression=\"snappy\"; Polars: compression=\"snappy\")",
                    c.column_path().string(),
                    c.compression()
                )));
            }
            // A page may claim any size; snappy expands at most about
            // 6x, so a claim far past the bytes stored is a damaged file.
            let stored = c.compressed_size().max(0) as u64;
            let claimed = c.uncompressed_size().max(0) as u64;
            if claimed > stored.saturating_mul(64).saturating_add(1 << 20) || stored > file_len {
                return Err(Error::input(format!(
                    "row group {g}: column {:?} claims {claimed} bytes from {stored} stored",
                    c.column_path().string()
                )));
            }
        }
    }
    Ok(())
}

/// The file's pages and metadata against the checksum bpeek wrote into it
/// (a file another engine wrote has none; its pages' own CRCs, where it
/// wrote them, are checked by the decoder).
#[cfg(feature = "parquet")]
fn check_checksum(path: &Path, meta: &ParquetMetaData, file_len: u64) -> Result<()> {
    use crate::count_file::{CHECKSUM_KEY, checksum};
    use std::io::Read;
    let Some(value) = key_value(meta, CHECKSUM_KEY) else {
        return no_checksum_needed(meta);
    };
    let parsed = value
        .strip_prefix("crc32 ")
        .and_then(|v| v.split_once(' '))
        .and_then(|(crc, n)| Some((u32::from_str_radix(crc, 16).ok()?, n.parse::<u64>().ok()?)))
        .filter(|&(_, n)| n <= file_len);
    let Some((want, n)) = parsed else {
        return Err(Error::input(format!(
            "{CHECKSUM_KEY}: {value:?} is not `crc32 HEX BYTES`"
        )));
    };
    let mut pages = crc32fast::Hasher::new();
    let mut file = bpeek_core::formats::files::open(path)?.take(n);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let got = file
            .read(&mut buf)
            .map_err(|e| Error::input(format!("cannot read: {e}")))?;
        if got == 0 {
            break;
        }
        pages.update(&buf[..got]);
    }
    let kv: Vec<(String, String)> = meta
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect();
    let got = checksum(pages, &kv);
    if got != want {
        return Err(Error::input(format!(
            "damaged: its checksum is {got:08x}, not the {want:08x} bpeek wrote (bytes of its pages or metadata changed since)"
        )));
    }
    Ok(())
}

/// A file without a checksum is read only when bpeek did not write it, or
/// wrote it before it wrote checksums (format 1): a damaged footer that
/// lost bpeek's metadata (and with it the shards' edges) is refused.
#[cfg(feature = "parquet")]
fn no_checksum_needed(meta: &ParquetMetaData) -> Result<()> {
    let file = meta.file_metadata();
    // bpeek's schema is named bpeek_counts; other engines name their own.
    let by_bpeek = file.schema().name() == "bpeek_counts"
        || file.created_by().is_some_and(|c| c.starts_with("bpeek"))
        || file
            .key_value_metadata()
            .is_some_and(|kv| kv.iter().any(|kv| kv.key.starts_with("bpeek.")));
    if by_bpeek && key_value(meta, "bpeek.counts").as_deref() != Some("1") {
        return Err(Error::input(
            "damaged: bpeek wrote it, but its checksum (bpeek.checksum) is gone from its metadata",
        ));
    }
    Ok(())
}

/// Every page header of every column chunk, read before any page is
/// decoded: no page may claim more than 64 times its stored bytes.
#[cfg(feature = "parquet")]
fn check_page_headers(path: &Path, meta: &ParquetMetaData) -> Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = bpeek_core::formats::files::open(path)?;
    for g in 0..meta.num_row_groups() {
        for c in meta.row_group(g).columns() {
            let start = c.dictionary_page_offset().unwrap_or(c.data_page_offset());
            let (Ok(start), Ok(len)) = (u64::try_from(start), usize::try_from(c.compressed_size()))
            else {
                return Err(Error::input(format!(
                    "row group {g}: a column chunk's place is negative"
                )));
            };
            let mut bytes = vec![0u8; len];
            file.seek(SeekFrom::Start(start))
                .and_then(|_| file.read_exact(&mut bytes))
                .map_err(|_| {
                    Error::input(format!(
                        "row group {g}: a column chunk runs past the file's end"
                    ))
                })?;
            let claim = u64::try_from(c.uncompressed_size()).unwrap_or(0);
            crate::parquet_pages::check_pages(&bytes, claim).map_err(|e| {
                e.context(format!(
                    "row group {g}, column {:?}",
                    c.column_path().string()
                ))
            })?;
        }
    }
    Ok(())
}

#[cfg(feature = "parquet")]
/// How the text was cut, from the bpeek.options metadata or the options
/// column. The options column decides when the metadata is gone (a file
/// another engine rewrote); both must agree.
fn file_options(reader: &SerializedFileReader<std::fs::File>) -> Result<ChunkOptions> {
    let meta = reader.metadata();
    let meta_options = key_value(meta, "bpeek.options")
        .map(|o| ChunkOptions::parse(&o).map_err(|e| Error::input(format!("bpeek.options: {e}"))))
        .transpose()?;
    let column_options = match column_index(meta, "options") {
        Some(c) => first_options(reader, c)?,
        None => None,
    };
    match (meta_options, column_options) {
        (Some(a), Some(b)) if a != b => Err(Error::input(format!(
            "bpeek.options says {} but the options column says {}",
            a.describe(),
            b.describe()
        ))),
        (a, b) => a.or(b).ok_or_else(|| {
            Error::input(
                "no options: neither the bpeek.options metadata nor an options column says how the text was cut",
            )
        }),
    }
}

/// The options written in the first row of column `c`, if there is a row.
#[cfg(feature = "parquet")]
fn first_options(
    reader: &SerializedFileReader<std::fs::File>,
    c: usize,
) -> Result<Option<ChunkOptions>> {
    for g in 0..reader.metadata().num_row_groups() {
        let rg = reader.get_row_group(g).map_err(damaged)?;
        let r = rg.get_column_reader(c).map_err(damaged)?;
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

#[cfg(feature = "parquet")]
/// One column being read, with the nulls it may not hold refused.
struct Column {
    reader: ColumnReader,
    levels: Vec<i16>,
}

#[cfg(feature = "parquet")]
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
                .map_err(damaged)?,
            _ => return Err(Error::input("not a binary column")),
        };
        no_nulls(records, got)?;
        Ok(values)
    }

    fn ints(&mut self, want: usize) -> Result<Vec<i64>> {
        self.levels.clear();
        match &mut self.reader {
            ColumnReader::Int64ColumnReader(r) => {
                let mut values = Vec::with_capacity(want);
                let (records, got, _) = r
                    .read_records(want, Some(&mut self.levels), None, &mut values)
                    .map_err(damaged)?;
                no_nulls(records, got)?;
                Ok(values)
            }
            ColumnReader::Int32ColumnReader(r) => {
                let mut values = Vec::with_capacity(want);
                let (records, got, _) = r
                    .read_records(want, Some(&mut self.levels), None, &mut values)
                    .map_err(damaged)?;
                no_nulls(records, got)?;
                Ok(values.into_iter().map(i64::from).collect())
            }
            _ => Err(Error::input("not an integer column")),
        }
    }
}

#[cfg(feature = "parquet")]
fn no_nulls(records: usize, values: usize) -> Result<()> {
    if values < records {
        return Err(Error::input(format!(
            "{} of {records} rows are null",
            records - values
        )));
    }
    Ok(())
}

#[cfg(all(test, feature = "parquet"))]
mod tests {
    use super::*;
    use crate::count_file::{CountFormat, CountWriter};

    fn counted_file() -> Vec<u8> {
        let options = ChunkOptions::parse("mode=byte pretok=gpt2 digits=keep by-line=no").unwrap();
        let header = Header {
            options,
            source_bytes: Some(40_000),
            min_chunk_count: None,
            sorted: true,
            runs: Vec::new(),
        };
        let mut bytes = Vec::new();
        let mut w = CountWriter::new(CountFormat::Parquet, &header, &mut bytes).unwrap();
        // Enough rows that the first page's size takes a 3-byte number.
        for i in 0..2000u64 {
            w.push(CountRow {
                chunk: format!("chunk{i:05}").into_bytes(),
                count: 2,
                first: FirstPlace {
                    shard: 0,
                    offset: i,
                },
            })
            .unwrap();
        }
        w.finish().unwrap();
        bytes
    }

    /// A page header that claims far more bytes than its page stores is
    /// refused before the decoder makes room for the claim.
    #[test]
    fn a_page_header_claiming_more_than_64_times_its_bytes_is_refused() {
        let mut bytes = counted_file();
        let path =
            std::env::temp_dir().join(format!("bpeek-lying-page-{}.parquet", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let column = reader.metadata().row_group(0).column(0);
        let at = column
            .dictionary_page_offset()
            .unwrap_or(column.data_page_offset()) as usize;
        // Field 1 (the page's type) and the header of field 2 come first.
        assert_eq!(bytes[at], 0x15);
        assert_eq!(bytes[at + 2], 0x15);
        let size = at + 3;
        let len = bytes[size..].iter().position(|b| b & 0x80 == 0).unwrap() + 1;
        assert_eq!(len, 3, "the page is no longer the size this test needs");
        // The largest even zigzag number of the same length: a claim of
        // 2^20 - 1 bytes, past 64 times this page's stored bytes.
        bytes[size] = 0xfe;
        for b in &mut bytes[size + 1..size + len - 1] {
            *b = 0xff;
        }
        bytes[size + len - 1] = 0x7f;
        std::fs::write(&path, &bytes).unwrap();
        let err = RowSource::open(&path).err().expect("refused").to_string();
        let _ = std::fs::remove_file(&path);
        assert!(err.contains("page 0 claims"), "{err}");
        assert!(err.contains("at most 64 times its stored size"), "{err}");
    }
}
