//! The options every front end shares (the command line, the explorer and
//! the server), as clap definitions: where the corpus comes from and how
//! training runs, and how the explorer and the classroom look and behave.

use bpeek_core::{Digits, Mode, Pretok, Score, TieRule};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Where the corpus comes from and how training runs.
#[derive(Args, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TrainingOptions {
    /// Corpus file, or - for stdin [default: the bundled corpus]
    pub corpus: Option<String>,
    /// Train from count files that `bpeek count` wrote (Parquet or TSV; files, quoted globs or folders of part files) instead of a text
    #[arg(long = "counts", value_name = "FILE", num_args = 1.., conflicts_with_all = ["corpus", "corpus_name"])]
    pub counts: Vec<String>,
    /// A bundled corpus by name (see `bpeek corpora`)
    #[arg(long, conflicts_with = "corpus")]
    pub corpus_name: Option<String>,
    /// byte (ids 0-255 are bytes) or char (words + </w>, unseen chars are [UNK])
    #[arg(long, default_value = "byte", value_parser = named(Mode::parse, Mode::NAMES), hide_possible_values = true)]
    pub mode: Mode,
    /// Pre-tokenizer: none, lines, whitespace, spaces, gpt2, cl100k, o200k, cl100k-hf, llama3 [default: gpt2]
    #[arg(long, value_parser = named(Pretok::parse, Pretok::NAMES), hide_possible_values = true)]
    pub pretok: Option<Pretok>,
    /// After the pre-tokenizer, cut digit runs: keep, single (each digit alone) or groups3 (1-3 digits)
    #[arg(long, default_value = "keep", value_parser = named(Digits::parse, Digits::NAMES), hide_possible_values = true)]
    pub digits: Digits,
    /// Stop after N merges
    #[arg(long, conflicts_with = "vocab_size", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub merges: Option<usize>,
    /// Stop when the vocabulary (base + merges + special tokens) reaches V
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub vocab_size: Option<usize>,
    /// Stop when the best pair's count falls below K
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub min_count: u64,
    /// Tie rule among equal counts: first (first met, as minbpe), lex (smallest byte values) or hf (Hugging Face's BpeTrainer)
    #[arg(long, default_value = "first", value_parser = named(TieRule::parse, TieRule::NAMES), hide_possible_values = true)]
    pub tie: TieRule,
    /// Cut each line on its own, so no chunk spans a line break (as Hugging Face's train([file]))
    #[arg(long)]
    pub by_line: bool,
    /// What picks the pair to merge: count (BPE) or wordpiece (count(ab) / (count(a) x count(b)), WordPiece's likelihood score as the Hugging Face course describes it), in byte and char mode
    #[arg(long, default_value = "count", value_parser = named(Score::parse, Score::NAMES), hide_possible_values = true)]
    pub score: Score,
    /// A special token to add to the vocabulary (repeatable)
    #[arg(long = "special", value_name = "TEXT", value_parser = non_empty)]
    pub specials: Vec<String>,
    #[command(flatten)]
    pub unigram: crate::options::unigram::UnigramOptions,
}

impl Default for TrainingOptions {
    fn default() -> Self {
        TrainingOptions {
            corpus: None,
            counts: Vec::new(),
            corpus_name: None,
            mode: Mode::Byte,
            pretok: None,
            digits: Digits::Keep,
            merges: None,
            vocab_size: None,
            min_count: 1,
            tie: TieRule::First,
            by_line: false,
            score: Score::Count,
            specials: Vec::new(),
            unigram: Default::default(),
        }
    }
}

/// When to use colour on screen.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour unless NO_COLOR is set or TERM is dumb
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether a terminal of type `term` gets colour, `no_color` saying
    /// whether its user set NO_COLOR.
    pub fn resolve(self, term: &str, no_color: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && term != "dumb",
        }
    }

    /// [`ColorChoice::resolve`] for this process's own terminal.
    pub fn for_this_terminal(self) -> bool {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let term = std::env::var("TERM").unwrap_or_default();
        self.resolve(&term, no_color)
    }
}

/// Which characters draw borders and marks.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GlyphChoice {
    /// ASCII on terminals whose fonts lack box drawing, `·`, `⌟` and `∞`
    /// (TERM linux, dumb, vt100 and the like), Unicode elsewhere
    #[default]
    Auto,
    Unicode,
    Ascii,
}

impl GlyphChoice {
    /// Whether a terminal of type `term` is drawn in ASCII.
    pub fn resolve(self, term: &str) -> bool {
        match self {
            GlyphChoice::Ascii => true,
            GlyphChoice::Unicode => false,
            GlyphChoice::Auto => {
                term.starts_with("linux")
                    || matches!(term, "dumb" | "ansi" | "vt52" | "vt100" | "vt102" | "vt220")
            }
        }
    }
}

/// How the explorer looks and what it compares with, the same on a local
/// terminal and on every screen of a served class.
#[derive(Args, Debug, Clone, Default)]
pub struct ScreenOptions {
    /// Colour on screen (auto: unless NO_COLOR is set or TERM is dumb; in a
    /// class, the client's TERM); every distinction is also drawn without it
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Characters for borders and marks (auto: ASCII where TERM is linux,
    /// dumb or vt100-like, whose fonts lack box drawing; in a class, the
    /// client's TERM)
    #[arg(long, value_enum, default_value_t = GlyphChoice::Auto)]
    pub glyphs: GlyphChoice,
    /// Draw borders and marks with ASCII only (the same as --glyphs ascii)
    #[arg(long)]
    pub ascii: bool,
    /// Also compare and encode with this tokenizer (repeatable): a built-in name
    /// (bytes, gpt2, cl100k, o200k) or a file: bpeek JSON, Hugging Face tokenizer.json,
    /// GPT-2 encoder.json + vocab.bpe, FILE.tiktoken:PRETOK, a SentencePiece .model,
    /// Mistral's tekken.json, BERT's vocab.txt, or a llama.cpp .gguf; LABEL=FILE
    /// shows it as LABEL (split at the first = unless the whole is an existing
    /// file or the part before = holds a / or \)
    #[arg(long = "tokenizer", value_name = "NAME|FILE")]
    pub tokenizers: Vec<String>,
    /// Train configurations side by side, stepping together (two to four
    /// times): each OPTIONS is what `bpeek train` takes (`--pretok none`,
    /// `--tie lex`, `--mode char`, ...), applied to this command's own
    /// options ("" for them as they are); `o` in the explorer adds one.
    /// "--model unigram" (not first) is a Unigram column trained to the
    /// first BPE column's vocabulary size, or to its own --vocab-size
    #[arg(long = "compare", value_name = "OPTIONS", allow_hyphen_values = true)]
    pub compare: Vec<String>,
    /// Leave the mouse to the terminal (its own selection and scrollback)
    /// instead of clicks selecting and the wheel scrolling; in a class, for
    /// every student's screen too
    #[arg(long)]
    pub no_mouse: bool,
}

impl ScreenOptions {
    /// Whether a terminal of type `term` is drawn in ASCII.
    pub fn ascii_for(&self, term: &str) -> bool {
        self.ascii || self.glyphs.resolve(term)
    }

    /// [`ScreenOptions::ascii_for`] this process's own terminal.
    pub fn ascii_here(&self) -> bool {
        self.ascii_for(&std::env::var("TERM").unwrap_or_default())
    }
}

#[derive(Args, Debug, Clone, Default)]
pub struct TuiArgs {
    #[command(flatten)]
    pub training: TrainingOptions,
    #[command(flatten)]
    pub screen: ScreenOptions,
    /// The English version of the text you will type or paste: your text's
    /// premium is measured against it (without it, your text has none)
    #[arg(long, value_name = "FILE")]
    pub english: Option<String>,
    /// Replay a lesson: a bundled one by name (see `bpeek corpora`) or a
    /// lesson file; Space/Right goes to its next step, Left back
    #[arg(long, value_name = "NAME|FILE")]
    pub lesson: Option<String>,
    /// Write the training steps of this session to FILE as a lesson
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Draw each step of the lesson into DIR as an SVG picture
    /// (step-001.svg, ...) and exit, without opening the screen
    #[arg(
        long,
        value_name = "DIR",
        requires = "lesson",
        conflicts_with = "record"
    )]
    pub snapshot: Option<PathBuf>,
    /// The screen size --snapshot draws at, from 40x12 to 400x200 [default: 100x30]
    #[arg(long, value_name = "COLSxROWS", requires = "snapshot", value_parser = crate::snapshot::parse_size)]
    pub size: Option<(u16, u16)>,
    /// Beside the compression curve, what the vocabulary costs a model N
    /// wide: its embedding table and output head, 2 x vocab x N parameters
    /// (untied), at the merge shown
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = bpeek_core::embedding::parse_d_model)]
    pub d_model: Option<u32>,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub training: TrainingOptions,
    #[command(flatten)]
    pub screen: ScreenOptions,
    /// Address and port to listen on; 0.0.0.0:2222 opens it to the network
    #[arg(long, default_value = "127.0.0.1:2222", value_name = "ADDR:PORT")]
    pub listen: String,
    /// The ed25519 host key [default: made once in the user's data directory]
    #[arg(long, value_name = "FILE")]
    pub host_key: Option<PathBuf>,
    /// Keys that may log in as `teacher` (authorized_keys format); without it,
    /// a one-time password is printed at start
    #[arg(long, value_name = "FILE")]
    pub teacher_keys: Option<PathBuf>,
    /// Most students at once (the teacher's seat is kept besides); the next
    /// one is told the class is full
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_sessions: usize,
    /// Most connections from one address, logging in or in a session
    /// [default: --max-sessions and the teacher, for a class behind one NAT
    /// address]
    #[arg(long, value_name = "N")]
    pub max_per_address: Option<usize>,
    /// New connections per minute from one address (a burst of N, then one
    /// every 60/N seconds)
    #[arg(long, default_value_t = 120, value_name = "N")]
    pub rate_per_address: u32,
    /// Close a session after this long without a keystroke (30m, 90s, 2h; 0:
    /// never); a follower is not idle while the teacher acts
    #[arg(long, default_value = "30m", value_name = "DURATION")]
    pub idle_timeout: String,
    /// Close a connection that has not logged in within this long
    #[arg(long, default_value = "20s", value_name = "DURATION")]
    pub login_timeout: String,
    /// Close a session whose client has taken no output for this long (a
    /// stalled or suspended ssh)
    #[arg(long, default_value = "60s", value_name = "DURATION")]
    pub stall_timeout: String,
    /// Close every session after this long, whatever it does (0: never)
    #[arg(long, default_value = "0", value_name = "DURATION")]
    pub max_session_time: String,
    /// How often a quiet client is asked whether it is still there; three
    /// unanswered asks close the connection (0: never ask)
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub keepalive: String,
    /// Connections still logging in, as OpenSSH's MaxStartups: from START on
    /// a new one is refused with a chance rising from RATE % to 100 % at FULL
    #[arg(long, default_value = "10:30:100", value_name = "START:RATE:FULL")]
    pub max_startups: String,
    /// Connections still logging in from one address at most (keep it below
    /// START, so one address cannot make others' logins a gamble)
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub max_startups_per_address: usize,
    /// The server's memory budget: past it (resident memory), new students
    /// are told the server is short of memory and new pastes are left out
    /// (0: no budget)
    #[arg(long, default_value = "2GB", value_name = "SIZE")]
    pub max_memory: String,
    /// A student's memory budget: past it (what its session's training,
    /// comparing and jobs hold), its own work stops and is let go, and it
    /// follows the teacher until it holds less (0: no budget)
    #[arg(long, default_value = "200MB", value_name = "SIZE")]
    pub student_memory: String,
    /// For tests of the server itself: a session panics on this key, to show
    /// that a panic ends that session only
    #[arg(long, hide = true, value_name = "CHAR")]
    pub panic_key: Option<char>,
    /// This terminal is the teacher's explorer; quitting it stops the server
    #[arg(long)]
    pub lead: bool,
    /// Play a lesson to the class: a bundled one by name (see `bpeek
    /// corpora`) or a lesson file; the teacher's Space/Right goes to its next
    /// step and the class follows
    #[arg(long, value_name = "LESSON")]
    pub lesson: Option<String>,
    /// Write the connection log here [default: stderr; with --lead, serve.log
    /// beside the host key]
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

pub use bpeek_core::memory_budget::size_in_bytes;

/// How a report is written: text for people, JSON for programs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// A whole number 0 or above, with a message that says so (negative
/// numbers reach this parser instead of being taken for options).
pub fn whole<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().map_err(|_| "too large".to_string())
    } else {
        Err("expected a whole number 0 or above".to_string())
    }
}

/// A special token is some text: an empty one could never be matched, and
/// the file it was saved in could not be read back.
pub fn non_empty(s: &str) -> Result<String, String> {
    if s.is_empty() {
        Err("a special token cannot be empty".to_string())
    } else {
        Ok(s.to_string())
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Corpus file [default: the system's man pages, concatenated]
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Use this many megabytes of the corpus
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub megabytes: usize,
    /// Merges to time
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub merges: usize,
    /// Pre-tokenizer
    #[arg(long, default_value = "gpt2", value_parser = named(Pretok::parse, Pretok::NAMES), hide_possible_values = true)]
    pub pretok: Pretok,
    #[arg(long, default_value = "first", value_parser = named(TieRule::parse, TieRule::NAMES), hide_possible_values = true)]
    pub tie: TieRule,
    /// Time the full-screen view instead (step latency, frame time, bytes sent)
    #[arg(long, conflicts_with = "encode")]
    pub tui: bool,
    /// With --tui: time configurations side by side instead, one column per
    /// --compare (two to four; each what `bpeek train` takes, "" for
    /// --pretok and --tie as given), against the first alone
    #[arg(
        long,
        value_name = "OPTIONS",
        requires = "tui",
        allow_hyphen_values = true
    )]
    pub compare: Vec<String>,
    /// Time encoding with gpt2, cl100k and o200k against tiktoken-rs instead
    #[arg(long)]
    pub encode: bool,
    /// Time `bpeek serve` with N SSH students following a teacher instead
    #[arg(long, value_name = "N", conflicts_with_all = ["tui", "encode"])]
    pub serve: Option<usize>,
    /// With --serve: before the go-to, every student adds this many
    /// columns to compare (`o` then t, p, d, m: up to 4), students who
    /// compute while the class goes on
    #[arg(long, value_name = "K", default_value_t = 0, requires = "serve", value_parser = clap::value_parser!(u8).range(0..=4))]
    pub serve_columns: u8,
    /// With --serve: the students' terminals take seven sizes in turn
    /// (80x24 to 200x60), so the server draws seven screens a step
    #[arg(long, requires = "serve")]
    pub serve_mixed: bool,
    /// Lines of text as the figures come, or one JSON document of them at
    /// the end
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A clap value parser from one of the engine's `parse` functions, so a
/// name is checked once, where it is read, with the engine's own message;
/// `names` are what completions and `--help` offer.
pub fn named<T: Clone + Send + Sync + 'static>(
    parse: fn(&str) -> bpeek_core::error::Result<T>,
    names: &'static [&'static str],
) -> Named<T> {
    Named { parse, names }
}

/// See [`named`].
#[derive(Clone)]
pub struct Named<T> {
    parse: fn(&str) -> bpeek_core::error::Result<T>,
    names: &'static [&'static str],
}

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        // The message is the one clap gives any parser of text.
        let parse = self.parse;
        let by_text = move |s: &str| parse(s).map_err(|e| e.to_string());
        by_text.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.names
                .iter()
                .map(|n| clap::builder::PossibleValue::new(*n)),
        ))
    }
}
