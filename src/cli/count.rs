//! `bpeek count`: the map and reduce steps of training on a corpus too big
//! for one machine. Each shard's distinct chunks are counted (or count
//! files summed) into one count file that `bpeek train --counts` reads.

use crate::bpe::Corpus;
use crate::bpe::Mode;
use crate::bpe::chunk_counts::{ChunkCounts, ChunkOptions, Dropped};
use crate::bpe::io::atomic::{Output, commit_all};
use crate::bpe::io::count_file;
use crate::bpe::pretok::Pretok;
use crate::cli::args::{CountArgs, CountFormat, Format};
use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

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
    let format = args.format.unwrap_or_else(|| {
        // A stream goes to a pipe: text lines, which any tool can split.
        if args.out.extension().is_some_and(|e| e == "tsv") || args.out.as_os_str() == "-" {
            CountFormat::Tsv
        } else {
            CountFormat::Parquet
        }
    });
    crate::cli::interrupt::clean_up_on_signals();
    // A path that cannot be written is said before any counting.
    let mut out = Output::create(&args.out)?;

    let mut counts = ChunkCounts::new(options);
    let mut summed = 0usize;
    if !args.counts.is_empty() {
        let files = crate::options::count_files::expand(&args.counts)?;
        let mut reader = count_file::CountReader::new();
        for f in &files {
            reader.read(f)?;
        }
        summed = files.len();
        if let Some(read) = reader.finish() {
            if args.shards.is_empty() {
                counts = read;
            } else {
                counts.absorb(&read).map_err(|e| e.context("--counts"))?;
            }
        }
    }
    for (i, shard) in args.shards.iter().enumerate() {
        let corpus = count_shard(shard, options)?;
        counts.add_corpus(&corpus, args.shard + i as u64)?;
    }
    let before = (
        counts.len() as u64,
        counts.covered_bytes(),
        counts.chunk_bytes(),
    );
    let dropped = counts.keep_at_least(args.min_chunk_count);

    let w = out.writer()?;
    let written = match format {
        CountFormat::Parquet => count_file::write_parquet(&counts, w),
        CountFormat::Tsv => count_file::write_tsv(&counts, w)
            .and_then(|()| w.flush())
            .map_err(|e| out.write_error(&e)),
    };
    written?;
    let to_stderr = out.is_stdout();
    commit_all(vec![&mut out])?;
    if args.quiet {
        return Ok(());
    }
    let report = Report {
        shards: args.shards.len(),
        summed,
        counts: &counts,
        before,
        dropped,
        min: args.min_chunk_count,
        out: &args.out,
    };
    crate::output::emit_with(to_stderr, |w| match args.report {
        Format::Text => report.write_text(w),
        Format::Json => report.write_json(w),
    })
}

/// The options that decide chunks, checked for counting in shards.
fn chunk_options(args: &CountArgs) -> Result<ChunkOptions> {
    if args.mode == Mode::Char && args.pretok.is_some() {
        return Err(Error::input(
            "--pretok applies to byte mode only; char mode always splits words on whitespace",
        ));
    }
    if args.mode == Mode::Char && args.digits != crate::bpe::Digits::Keep {
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

/// The distinct chunks of one shard: counted as it is read where the
/// options allow, so memory holds each distinct chunk once.
fn count_shard(shard: &str, options: ChunkOptions) -> Result<Corpus> {
    let chunker = options.chunker();
    let name = if shard == "-" { "stdin" } else { shard };
    if Corpus::can_stream(options.mode, chunker, options.by_line) {
        if shard == "-" {
            crate::options::input::check_stdin_open()?;
            let stdin = std::io::stdin();
            return Corpus::count_stream(stdin.lock(), chunker, options.by_line, name, |_| {});
        }
        let file = crate::bpe::io::files::open(Path::new(shard))?;
        return Corpus::count_stream(file, chunker, options.by_line, name, |_| {});
    }
    let text = if shard == "-" {
        crate::options::input::read_stdin()?
    } else {
        crate::options::input::read_file(Path::new(shard))?
    };
    Corpus::new(text, options.mode, chunker, false, options.by_line).map_err(|e| e.context(name))
}

struct Report<'a> {
    shards: usize,
    summed: usize,
    counts: &'a ChunkCounts,
    /// Distinct chunks, bytes of the corpus they cover and their own bytes,
    /// before rare ones were dropped.
    before: (u64, u64, u64),
    dropped: Dropped,
    min: u64,
    out: &'a Path,
}

impl Report<'_> {
    /// The share of the corpus's bytes the kept chunks cover.
    fn share_kept(&self) -> f64 {
        let all = self.before.1;
        if all == 0 {
            1.0
        } else {
            (all - self.dropped.covered) as f64 / all as f64
        }
    }

    fn write_text(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let c = self.counts;
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
            c.source_bytes(),
            c.options().describe()
        )?;
        writeln!(
            w,
            "distinct chunks: {}, {} bytes",
            self.before.0, self.before.2
        )?;
        if self.min > 1 {
            writeln!(
                w,
                "kept {} chunks seen at least {} times ({} bytes), dropped {}; the kept chunks cover {:.2}% of the corpus",
                c.len(),
                self.min,
                c.chunk_bytes(),
                self.dropped.chunks,
                100.0 * self.share_kept()
            )?;
        }
        writeln!(w, "wrote {}", self.out.display())
    }

    fn write_json(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let c = self.counts;
        let o = c.options();
        let doc = serde_json::json!({
            "shards": self.shards,
            "count_files": self.summed,
            "source_bytes": c.source_bytes(),
            "options": {
                "mode": o.mode.name(),
                "pretok": if o.mode == Mode::Byte { o.pretok.name() } else { Pretok::default().name() },
                "digits": o.digits.name(),
                "by_line": o.by_line,
            },
            "distinct_chunks": self.before.0,
            "distinct_chunk_bytes": self.before.2,
            "min_chunk_count": self.min,
            "kept_chunks": c.len(),
            "kept_chunk_bytes": c.chunk_bytes(),
            "dropped_chunks": self.dropped.chunks,
            "kept_share_of_corpus": self.share_kept(),
            "out": self.out.display().to_string(),
        });
        writeln!(w, "{doc:#}")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
