//! Reading what the user points at: corpora, texts, tokenizer files, and
//! turning training options into a trainer.

use crate::options::args::TrainingOptions;
use bpeek_core::corpora;
use bpeek_core::error::{Error, Result};
use bpeek_core::pretokenize::pretok::Digits;
use bpeek_core::train::chunk_counts::ChunkOptions;
use bpeek_core::{Corpus, Mode, Pretok, TieRule, Tokenizer, Trainer, TrainerConfig};
use std::io::Read;
use std::path::Path;

/// Read a whole file, with a message that names it.
/// The most bytes of one text or corpus read whole: a corpus holds its
/// places in 32 bits, and an endless input (`/dev/zero`) ends here.
pub const MAX_TEXT_BYTES: u64 = u32::MAX as u64;

/// A text or corpus file, read once (a FIFO as it comes), up to
/// [`MAX_TEXT_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    let file = bpeek_core::formats::files::open_stream(path)?;
    // Room for the whole file at once (a FIFO or /proc file says 0): read
    // in one go, not grown and copied while read.
    let size = file.metadata().map_or(0, |m| m.len()).min(MAX_TEXT_BYTES);
    let buf = bpeek_core::large_pages::vec_with_capacity(size as usize + 1);
    read_bounded(file, buf, &path.display().to_string())
}

pub fn read_stdin() -> Result<Vec<u8>> {
    check_stdin_open()?;
    read_bounded(std::io::stdin().lock(), Vec::new(), "stdin")
}

fn read_bounded(read: impl Read, mut buf: Vec<u8>, what: &str) -> Result<Vec<u8>> {
    read.take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::input(format!("{what}: cannot read: {e}")))?;
    if buf.len() as u64 > MAX_TEXT_BYTES {
        return Err(Error::input(format!(
            "{what}: more than 4 GiB; bpeek reads a text or corpus up to 4 GiB (train on shards with bpeek count for more)"
        )));
    }
    Ok(buf)
}

/// Whether standard input was closed when the process started (`<&-`).
/// The Rust runtime opens `/dev/null` in its place before `main`, so only
/// a look taken earlier (the binary's own start-up hook) can tell.
pub static STDIN_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// A closed standard input would read as empty and pass for an empty
/// corpus or text: it is refused as what it is.
pub fn check_stdin_open() -> Result<()> {
    if STDIN_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Error::input(
            "standard input is closed: give the text on it, or a file",
        ));
    }
    Ok(())
}

/// The corpus named by the options: a path, `-`, a bundled name, or the default.
pub fn corpus_text(opts: &TrainingOptions) -> Result<(String, Vec<u8>)> {
    if let Some(name) = &opts.corpus_name {
        let c = corpora::find(name)
            .ok_or_else(|| bpeek_core::names::unknown("corpus name", name, &corpora::names()))?;
        return Ok((c.name.to_string(), c.text.as_bytes().to_vec()));
    }
    match opts.corpus.as_deref() {
        None => {
            let c = corpora::default_corpus();
            Ok((c.name.to_string(), c.text.as_bytes().to_vec()))
        }
        Some("-") => Ok(("stdin".to_string(), read_stdin()?)),
        Some(path) => Ok((path.to_string(), read_file(Path::new(path))?)),
    }
}

/// The trainer configuration the options describe (the budget from
/// `--vocab-size` is settled once the base vocabulary is known).
pub fn trainer_config(opts: &TrainingOptions) -> Result<TrainerConfig> {
    let (mode, tie, digits) = (opts.mode, opts.tie, opts.digits);
    let pretok = match (opts.pretok, mode) {
        (Some(_), Mode::Char) => {
            return Err(Error::input(
                "--pretok applies to byte mode only; char mode always splits words on whitespace",
            ));
        }
        (Some(pretok), Mode::Byte) => pretok,
        (None, _) => Pretok::default(),
    };
    if mode == Mode::Char && tie == TieRule::Hf {
        return Err(Error::input(
            "--tie hf applies to byte mode only: Hugging Face's char-level trainer joins the end-of-word suffix to the last character of each word (one symbol `e</w>`), while char mode keeps `</w>` a symbol of its own, so the two make different pairs from the first round",
        ));
    }
    if mode == Mode::Char && digits != Digits::Keep {
        return Err(Error::input("--digits applies to byte mode only"));
    }
    Ok(TrainerConfig {
        mode,
        pretok,
        digits,
        tie,
        min_count: opts.min_count,
        max_merges: opts.merges,
        max_token_bytes: bpeek_core::formats::limits::MAX_TOKEN_BYTES,
        text_positions: true,
        keep_history: true,
        by_line: opts.by_line,
        score: opts.score,
    })
}

/// A trainer at merge 0 on the corpus the options name.
pub fn build_trainer(opts: &TrainingOptions) -> Result<(String, Trainer)> {
    build_trainer_with(opts, true, |_| {})
}

/// [`build_trainer`], keeping the chunks' places in the text or not
/// (`text_positions`), and saying which phase it is in (reading, counting).
pub fn build_trainer_with(
    opts: &TrainingOptions,
    text_positions: bool,
    phase: impl Fn(&str),
) -> Result<(String, Trainer)> {
    if !opts.counts.is_empty() {
        phase("reading the count files");
        return trainer_from_counts(opts, text_positions);
    }
    let config = TrainerConfig {
        text_positions,
        keep_history: text_positions,
        ..trainer_config(opts)?
    };
    let streamed = !text_positions
        && opts.corpus_name.is_none()
        && Corpus::can_stream(config.mode, config.chunker(), config.by_line);
    if let (true, Some(path)) = (streamed, opts.corpus.as_deref()) {
        // Headless training needs the chunks, not the text: count as the
        // corpus is read, so memory holds each distinct chunk once.
        phase("reading and counting the corpus");
        let corpus = if path == "-" {
            check_stdin_open()?;
            let stdin = std::io::stdin();
            Corpus::count_stream(
                stdin.lock(),
                config.chunker(),
                config.by_line,
                "stdin",
                |_| {},
            )?
        } else {
            let file = bpeek_core::formats::files::open_stream(Path::new(path))?;
            let counted = |n: usize| {
                phase(&format!(
                    "reading and counting the corpus: {} MB",
                    n / 1_000_000
                ))
            };
            Corpus::count_stream(file, config.chunker(), config.by_line, path, counted)?
        };
        let name = if path == "-" { "stdin" } else { path };
        let trainer = Trainer::from_corpus(corpus, config).map_err(|e| e.context(name))?;
        let trainer = trainer_with_budget(opts, trainer)?;
        return Ok((name.to_string(), trainer));
    }
    phase("reading the corpus");
    let (name, text) = corpus_text(opts)?;
    phase("cutting into chunks and counting pairs");
    let trainer = trainer_for_text(opts, &name, text, config)?;
    Ok((name, trainer))
}

/// A trainer at merge 0 on the sum of the count files `--counts` names,
/// cut as the files say; the options given must not say otherwise.
fn trainer_from_counts(opts: &TrainingOptions, keep_history: bool) -> Result<(String, Trainer)> {
    let (counts, _) = crate::options::count_files::read_all(&opts.counts)?;
    let cut = counts.options();
    let given = ChunkOptions {
        mode: opts.mode,
        pretok: opts.pretok.unwrap_or(cut.pretok),
        digits: opts.digits,
        by_line: opts.by_line || cut.by_line,
    };
    // Options left at their defaults take the files' values.
    let defaults = TrainingOptions::default();
    let differs = (opts.mode != defaults.mode && opts.mode != cut.mode)
        || given.pretok != cut.pretok
        || (opts.digits != defaults.digits && opts.digits != cut.digits)
        || given.by_line != cut.by_line;
    if differs {
        return Err(Error::input(format!(
            "--counts: the files were cut with {}; the options given say {}",
            cut.describe(),
            given.describe()
        )));
    }
    let with_cut = TrainingOptions {
        mode: cut.mode,
        pretok: (cut.mode == Mode::Byte).then_some(cut.pretok),
        digits: cut.digits,
        by_line: cut.by_line,
        counts: Vec::new(),
        ..opts.clone()
    };
    let config = TrainerConfig {
        text_positions: false,
        keep_history,
        ..trainer_config(&with_cut)?
    };
    let mut name = match opts.counts.as_slice() {
        [one] => one.clone(),
        [first, ..] => format!("{first} and {} more", opts.counts.len() - 1),
        [] => String::new(),
    };
    if counts.runs().is_empty() {
        // Another engine's rows, or files bpeek wrote before it kept
        // edges: nothing says the shards were cut where no chunk crosses.
        name.push_str(" (no shard edges: its shards are taken as cut between chunks)");
    }
    if let Some(k) = counts.min_chunk_count() {
        // The merges are those of the kept chunks: the report says so.
        name.push_str(&format!(" (chunks seen fewer than {k} times dropped)"));
    }
    let corpus = counts.into_corpus().map_err(|e| e.context(&name))?;
    if corpus.chunks().is_empty() {
        return Err(Error::input(format!(
            "{name}: the counts hold no chunk, so there is nothing to train on"
        )));
    }
    let trainer = Trainer::from_corpus(corpus, config).map_err(|e| e.context(&name))?;
    Ok((name, trainer_with_budget(opts, trainer)?))
}

/// A trainer at merge 0 on `text` (the corpus `name`), with the budget
/// `--vocab-size` sets.
pub fn trainer_for_text(
    opts: &TrainingOptions,
    name: &str,
    text: Vec<u8>,
    config: TrainerConfig,
) -> Result<Trainer> {
    let trainer = Trainer::new(text, config).map_err(|e| e.context(name))?;
    trainer_with_budget(opts, trainer)
}

/// `trainer` with the budget `--vocab-size` sets.
fn trainer_with_budget(opts: &TrainingOptions, mut trainer: Trainer) -> Result<Trainer> {
    if let Some(v) = opts.vocab_size {
        // The base size depends on the corpus in char mode, so it is known only now.
        let specials = distinct_specials(&opts.specials);
        let base = trainer.vocab().base_size() + specials;
        if v < base {
            return Err(Error::input(format!(
                "--vocab-size {v} is smaller than the base vocabulary ({base}: {} base symbols + {specials} special tokens)",
                trainer.vocab().base_size(),
            )));
        }
        trainer.set_max_merges(Some(v - base));
    }
    Ok(trainer)
}

/// How many different special tokens `--special` names: one given twice is
/// one token.
pub fn distinct_specials(specials: &[String]) -> usize {
    let mut seen: Vec<&String> = specials.iter().collect();
    seen.sort();
    seen.dedup();
    seen.len()
}

/// Load a tokenizer by built-in name or from a file of any supported format.
pub fn load_tokenizer(spec: &str) -> Result<Tokenizer> {
    bpeek_core::formats::load::load(spec)
}
