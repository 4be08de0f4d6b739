//! `bpeek count`: the map and reduce steps of training on a corpus too big
//! for one machine. Each shard's distinct chunks are counted (or count
//! files summed) into one count file that `bpeek train --counts` reads.

use crate::cli::args::{CountArgs, CountFormat, Format};
use bpeek_core::Corpus;
use bpeek_core::Mode;
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::atomic::{Output, commit_all};
use bpeek_core::formats::same_file::{Role, refuse_outputs_over_inputs};
use bpeek_core::pretokenize::pretok::Pretok;
use bpeek_core::train::chunk_counts::{ChunkCounts, ChunkOptions, Dropped};
use bpeek_core::train::shard_edges::{CutRule, ShardCut};
use bpeek_counts::count_file::{self, CountFormat as FileFormat, write_counts};
use bpeek_counts::count_merge;
use bpeek_counts::count_rows::RowSource;
use std::io::Write;
use std::path::Path;

/// Refuse an `--out` that is one of the shards or count files read.
fn refuse_output_over_inputs(args: &CountArgs, files: &[std::path::PathBuf]) -> Result<()> {
    let mut roles: Vec<Role> = args
        .shards
        .iter()
        .enumerate()
        .map(|(i, s)| Role::reads(format!("shard {}", args.shard.saturating_add(i as u64)), s))
        .collect();
    roles.extend(files.iter().map(|p| Role::reads("a count file", p)));
    roles.push(Role::writes("--out", &args.out));
    refuse_outputs_over_inputs(&roles)
}

pub fn run(args: &CountArgs) -> Result<()> {
    if args.shards.is_empty() && args.counts.is_empty() {
        return Err(Error::input(
            "count: give corpus shards (or - for stdin) to count, or --counts files to sum",
        ));
    }
    if args.shards.iter().filter(|s| *s == "-").count() > 1 {
        return Err(Error::input("count: stdin (-) can be one shard only"));
    }
    let options = chunk_options(args)?;
    let format = match args.format {
        Some(CountFormat::Parquet) => FileFormat::Parquet,
        Some(CountFormat::Tsv) => FileFormat::Tsv,
        // A stream goes to a pipe: text lines, which any tool can split.
        None if args.out.extension().is_some_and(|e| e == "tsv") || args.out.as_os_str() == "-" => {
            FileFormat::Tsv
        }
        None => FileFormat::Parquet,
    };
    let files = bpeek_tui::options::count_files::expand(&args.counts)?;
    refuse_output_over_inputs(args, &files)?;
    crate::interrupt::clean_up_on_signals();
    // A path that cannot be written is said before any counting.
    let mut out = Output::create(&args.out)?;
    let numbers = if args.edges_only {
        let edges = edges_of(&files)?;
        let numbers = Numbers::of_table(&edges, Dropped::default())?;
        write_counts(&edges, format, out.writer()?).map_err(|e| e.context(args.out.display()))?;
        numbers
    } else if args.shards.is_empty() && count_merge::can_merge_in_one_pass(&files)? {
        // The reduce step: sorted files merged in one pass, no table.
        let w = out.writer()?;
        let m = count_merge::merge(&files, args.min_chunk_count, format, w).map_err(|e| {
            match e {
                // A failed write (a full disk) names the file written.
                Error::Failure(_) => e.context(args.out.display()),
                Error::Input(_) => e.context("--counts"),
            }
        })?;
        Numbers {
            source_bytes: m.source_bytes.unwrap_or(m.covered),
            options: RowSource::open(&files[0])?.0.options,
            distinct: m.distinct,
            distinct_bytes: m.distinct_bytes,
            kept: m.kept,
            kept_bytes: m.kept_bytes,
            covered: m.covered,
            dropped: m.dropped,
            max_count: m.max_count,
            runs: m.runs,
        }
    } else {
        let counts = count_in_table(args, options, &files)?;
        let (distinct, distinct_bytes, covered) = (
            counts.0.len() as u64,
            counts.0.chunk_bytes(),
            counts.0.covered_bytes()?,
        );
        let (mut counts, _) = counts;
        let max_count = counts.iter().map(|(_, n, _)| n).max().unwrap_or(0);
        let dropped = counts.keep_at_least(args.min_chunk_count);
        write_counts(&counts, format, out.writer()?).map_err(|e| e.context(args.out.display()))?;
        Numbers {
            source_bytes: counts.source_bytes(),
            options: counts.options(),
            distinct,
            distinct_bytes,
            kept: counts.len() as u64,
            kept_bytes: counts.chunk_bytes(),
            covered,
            dropped,
            max_count,
            runs: counts.runs().spans(),
        }
    };
    refuse_an_empty_result(&numbers, args.min_chunk_count)?;
    let to_stderr = out.is_stdout();
    commit_all(vec![&mut out])?;
    if args.quiet {
        return Ok(());
    }
    let report = Report {
        shards: args.shards.len(),
        summed: files.len(),
        numbers,
        min: args.min_chunk_count,
        out: &args.out,
    };
    bpeek_core::output::emit_with(to_stderr, |w| match args.report {
        Format::Text => report.write_text(w),
        Format::Json => report.write_json(w),
    })
}

/// Shards counted and count files summed in one table (and whether the
/// bytes of some file's text were estimated).
fn count_in_table(
    args: &CountArgs,
    options: ChunkOptions,
    files: &[std::path::PathBuf],
) -> Result<(ChunkCounts, bool)> {
    let mut counts = ChunkCounts::new(options);
    let mut estimated = false;
    if !files.is_empty() {
        let mut reader = count_file::CountReader::new();
        for f in files {
            reader.read(f)?;
        }
        estimated = reader.source_estimated;
        if let Some(read) = reader.finish() {
            if args.shards.is_empty() {
                counts = read;
            } else {
                counts.absorb(&read).map_err(|e| e.context("--counts"))?;
            }
        }
    }
    for (i, shard) in args.shards.iter().enumerate() {
        let (corpus, cut) = count_shard(shard, options)?;
        let number = args.shard.checked_add(i as u64).ok_or_else(|| {
            Error::input(format!(
                "{shard}: --shard {} + {i} passes 2^64 - 1",
                args.shard
            ))
        })?;
        counts
            .add_shard(&corpus, cut, number)
            .map_err(|e| e.context(shard))?;
    }
    if estimated {
        counts.set_source_bytes(counts.source_bytes().max(counts.covered_bytes()?));
    }
    Ok((counts, estimated))
}

/// The shard edges of count files summed, without their rows: the chunks
/// where neighbouring shards meet, and the edges left over.
fn edges_of(files: &[std::path::PathBuf]) -> Result<ChunkCounts> {
    let mut edges: Option<(ChunkCounts, String)> = None;
    for f in files {
        let (header, rows) = RowSource::open(f)?;
        let said = count_file::check_run_bytes(&header).map_err(|e| e.context(rows.name()))?;
        if let Some((e, first)) = &edges
            && e.options() != header.options
        {
            return Err(count_file::options_differ(
                rows.name(),
                header.options,
                first,
                e.options(),
            ));
        }
        let (table, _) = edges
            .get_or_insert_with(|| (ChunkCounts::new(header.options), rows.name().to_string()));
        for run in header.runs {
            table.add_run(run).map_err(|e| e.context(rows.name()))?;
        }
        table.set_source_bytes(table.source_bytes().saturating_add(said.unwrap_or(0)));
    }
    edges
        .map(|(e, _)| e)
        .ok_or_else(|| Error::input("count --edges-only: no count files given"))
}

/// The options that decide chunks, checked for counting in shards.
fn chunk_options(args: &CountArgs) -> Result<ChunkOptions> {
    if args.mode == Mode::Char && args.pretok.is_some() {
        return Err(Error::input(
            "--pretok applies to byte mode only; char mode always splits words on whitespace",
        ));
    }
    if args.mode == Mode::Char && args.digits != bpeek_core::Digits::Keep {
        return Err(Error::input("--digits applies to byte mode only"));
    }
    let options = ChunkOptions {
        mode: args.mode,
        pretok: args.pretok.unwrap_or_default(),
        digits: args.digits,
        by_line: args.by_line,
    };
    if let Some(why) = options.shard_problem() {
        return Err(Error::input(format!("count: {why}")));
    }
    Ok(options)
}

/// The distinct chunks of one shard between its first and last places to
/// cut, and the text at its edges: counted as it is read where the
/// options allow, so memory holds each distinct chunk once.
fn count_shard(shard: &str, options: ChunkOptions) -> Result<(Corpus, ShardCut)> {
    let chunker = options.chunker();
    let name = if shard == "-" { "stdin" } else { shard };
    if Corpus::can_stream(options.mode, chunker, options.by_line) {
        if shard == "-" {
            bpeek_tui::options::input::check_stdin_open()?;
            let stdin = std::io::stdin();
            return Corpus::count_shard_stream(
                stdin.lock(),
                chunker,
                options.by_line,
                name,
                |_| {},
            );
        }
        let file = bpeek_core::formats::files::open_stream(Path::new(shard))?;
        return Corpus::count_shard_stream(file, chunker, options.by_line, name, |_| {});
    }
    let text = if shard == "-" {
        bpeek_tui::options::input::read_stdin()?
    } else {
        bpeek_tui::options::input::read_file(Path::new(shard))?
    };
    let rule = CutRule::of(options.mode, chunker, options.by_line);
    let (cut, between) = ShardCut::of(&text, rule);
    let middle = text[between].to_vec();
    let corpus = Corpus::new(middle, options.mode, chunker, false, options.by_line)
        .map_err(|e| e.context(name))?;
    Ok((corpus, cut))
}

/// A threshold that keeps no chunk leaves nothing to train on: refused
/// (and nothing written), saying what would keep some.
fn refuse_an_empty_result(n: &Numbers, min: u64) -> Result<()> {
    if n.kept == 0 && n.distinct > 0 {
        return Err(Error::input(format!(
            "--min-chunk-count {min} keeps none of the {} distinct chunks (the most any chunk is counted is {}), so nothing would be left to train on; nothing was written",
            n.distinct, n.max_count
        )));
    }
    Ok(())
}

impl Numbers {
    /// The numbers of a table written whole.
    fn of_table(counts: &ChunkCounts, dropped: Dropped) -> Result<Self> {
        Ok(Numbers {
            source_bytes: counts.source_bytes(),
            options: counts.options(),
            distinct: counts.len() as u64,
            distinct_bytes: counts.chunk_bytes(),
            kept: counts.len() as u64,
            kept_bytes: counts.chunk_bytes(),
            covered: counts.covered_bytes()?,
            dropped,
            max_count: counts.iter().map(|(_, n, _)| n).max().unwrap_or(0),
            runs: counts.runs().spans(),
        })
    }
}

/// The numbers a count reports.
struct Numbers {
    source_bytes: u64,
    options: ChunkOptions,
    distinct: u64,
    distinct_bytes: u64,
    kept: u64,
    kept_bytes: u64,
    /// Bytes of the corpus all distinct chunks cover (count x length).
    covered: u64,
    dropped: Dropped,
    /// The largest count of any chunk.
    max_count: u64,
    /// The runs of shards written (first, last, edge bytes kept uncounted).
    runs: Vec<(u64, u64, u64)>,
}

/// Runs of shards as `0-7, 9` for a report.
fn spans_named(runs: &[(u64, u64, u64)]) -> String {
    let named: Vec<String> = runs
        .iter()
        .map(|&(a, b, _)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    named.join(", ")
}

struct Report<'a> {
    shards: usize,
    summed: usize,
    numbers: Numbers,
    min: u64,
    out: &'a Path,
}

impl Report<'_> {
    /// The share of the corpus's bytes the kept chunks cover.
    fn share_kept(&self) -> f64 {
        let n = &self.numbers;
        if n.covered == 0 {
            1.0
        } else {
            (n.covered - n.dropped.covered) as f64 / n.covered as f64
        }
    }

    fn write_text(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let n = &self.numbers;
        let mut from = Vec::new();
        if self.shards > 0 {
            from.push(format!("{} shard{}", self.shards, plural(self.shards)));
        }
        if self.summed > 0 {
            from.push(format!("{} count file{}", self.summed, plural(self.summed)));
        }
        writeln!(
            w,
            "counted {} ({} bytes of text) with {}",
            from.join(" and "),
            n.source_bytes,
            n.options.describe()
        )?;
        writeln!(
            w,
            "distinct chunks: {}, {} bytes",
            n.distinct, n.distinct_bytes
        )?;
        if !n.runs.is_empty() {
            let kept: u64 = n.runs.iter().map(|r| r.2).sum();
            writeln!(
                w,
                "shards {}; {kept} bytes at their edges are counted when their neighbours join them",
                spans_named(&n.runs)
            )?;
        }
        if self.min > 1 {
            writeln!(
                w,
                "kept {} chunks seen at least {} times ({} bytes), dropped {}; the kept chunks cover {:.2}% of the corpus",
                n.kept,
                self.min,
                n.kept_bytes,
                n.dropped.chunks,
                100.0 * self.share_kept()
            )?;
        }
        writeln!(w, "wrote {}", self.out.display())
    }

    fn write_json(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let n = &self.numbers;
        let o = n.options;
        let doc = serde_json::json!({
            "shards": self.shards,
            "count_files": self.summed,
            "source_bytes": n.source_bytes,
            "options": {
                "mode": o.mode.name(),
                "pretok": if o.mode == Mode::Byte { o.pretok.name() } else { Pretok::default().name() },
                "digits": o.digits.name(),
                "by_line": o.by_line,
            },
            "shards": n.runs.iter().map(|r| serde_json::json!({"first": r.0, "last": r.1, "edge_bytes": r.2})).collect::<Vec<_>>(),
            "distinct_chunks": n.distinct,
            "distinct_chunk_bytes": n.distinct_bytes,
            "min_chunk_count": self.min,
            "kept_chunks": n.kept,
            "kept_chunk_bytes": n.kept_bytes,
            "dropped_chunks": n.dropped.chunks,
            "kept_share_of_corpus": self.share_kept(),
            "out": self.out.display().to_string(),
        });
        writeln!(w, "{doc:#}")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
