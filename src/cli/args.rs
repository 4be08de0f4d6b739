//! The command-line contract, as clap definitions.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

// The options every front end shares live below the command line, so that
// the explorer and the server need nothing of it.
use bpeek_tui::options::args::whole;
pub use bpeek_tui::options::args::{
    BenchArgs, ColorChoice, Format, ServeArgs, TrainingOptions, TuiArgs, size_in_bytes,
};
pub use bpeek_tui::options::unigram::ModelKind;

#[derive(Parser, Debug)]
#[command(
    name = "bpeek",
    version,
    about = "See how byte-pair-encoding tokenizers are made and what they cost",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a command, the explorer, with the options of `bpeek tui`
    #[command(flatten)]
    pub explorer: TuiArgs,
}

// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Train a tokenizer and print its merges
    Train(TrainArgs),
    /// Count the distinct chunks of corpus shards (or sum count files) into a count file that `train --counts` trains from
    Count(CountArgs),
    /// Encode text with a tokenizer
    Encode(EncodeArgs),
    /// Decode token ids back to text
    Decode(DecodeArgs),
    /// Measure training speed on a large corpus
    Bench(BenchArgs),
    /// Explore training step by step in a full-screen view (the default)
    Tui(TuiArgs),
    /// Compare what texts cost in tokens across tokenizers
    Fertility(FertilityArgs),
    /// Serve the explorer to a class over SSH, students following the teacher
    Serve(ServeArgs),
    /// List the tokenizers there are by name: built-ins, the Hugging Face
    /// cache's repositories and Ollama's models, with kind and vocabulary size
    Tokenizers {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// List the bundled corpora and lessons
    Corpora {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print a completion script for a shell (e.g. `bpeek completions bash
    /// > /etc/bash_completion.d/bpeek`)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), e.g. `bpeek man train | man -l -`
    Man {
        /// The command whose page to print [default: bpeek's own]
        command: Option<String>,
    },
}

/// The file format of `train --out`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutFormat {
    /// bpeek's tokenizer JSON (merges with their counts)
    #[default]
    Bpeek,
    /// A Hugging Face tokenizer.json (byte mode)
    Hf,
    /// A .tiktoken rank file (byte mode)
    Tiktoken,
    /// A SentencePiece .model (--model unigram)
    Sentencepiece,
}

/// What `train` reports of Unigram training besides the options every
/// front end shares (see [`bpeek_tui::options::unigram`]).
#[derive(Args, Debug, Clone, Default)]
pub struct UnigramArgs {
    /// Unigram: report every piece's score at each scoring, not only the removed ones'
    #[arg(long)]
    pub scores: bool,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub training: TrainingOptions,
    #[command(flatten)]
    pub unigram: UnigramArgs,
    /// Write the tokenizer here (JSON; with --model unigram a .model too)
    #[arg(long, value_name = "TOKENIZER.json")]
    pub out: Option<PathBuf>,
    /// The format of --out: bpeek, hf (tokenizer.json) or tiktoken (rank file); with --model unigram, hf or sentencepiece (.model) [default there: sentencepiece for a name ending .model, else hf]
    #[arg(long, value_enum, default_value_t = OutFormat::Bpeek, requires = "out")]
    pub out_format: OutFormat,
    /// Write a per-round trace (JSON) here
    #[arg(long, value_name = "TRACE.json")]
    pub trace: Option<PathBuf>,
    /// Keep only the top K candidate pairs of each round in the trace
    #[arg(long, value_name = "K", requires = "trace", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub trace_top: Option<usize>,
    /// The most the trace may hold, as written (e.g. 500MB, 2GB): past it training stops with an error and the trace is removed
    #[arg(long, value_name = "SIZE", requires = "trace", default_value = "1GB", value_parser = size_in_bytes)]
    pub trace_max: u64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// No progress bar on stderr (it is shown only when stderr is a terminal)
    #[arg(long, short)]
    pub quiet: bool,
    /// Also report what the vocabulary costs a model N wide: its embedding
    /// table and output head, 2 x vocab x N parameters (untied)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = bpeek_core::embedding::parse_d_model, conflicts_with = "compare")]
    pub d_model: Option<u32>,
    /// Train several configurations on the corpus side by side (two to four times): each OPTIONS changes the options given (e.g. "--pretok none", "--tie lex"; "" keeps them); prints the merges side by side and where they part
    #[arg(long = "compare", value_name = "OPTIONS", allow_hyphen_values = true, conflicts_with_all = ["out", "trace"])]
    pub compare: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Corpus shards in corpus order, or - for stdin; shard i is numbered --shard + i
    #[arg(value_name = "SHARD")]
    pub shards: Vec<String>,
    /// Count files to sum into the output (with or without shards); files, quoted globs or folders of part files
    #[arg(long = "counts", value_name = "FILE", num_args = 1..)]
    pub counts: Vec<String>,
    /// Where to write the count file, or - for standard output
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The count file's format [default: tsv for - or a name ending .tsv, else parquet]
    #[arg(long, value_enum)]
    pub format: Option<CountFormat>,
    /// The number of the first shard given: where the shards sit in the whole corpus (e.g. a Spark partition index)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = whole::<u64>)]
    pub shard: u64,
    /// Drop chunks counted fewer than K times in the output (the merges are then those of the kept chunks only)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = whole::<u64>)]
    pub min_chunk_count: u64,
    /// Sum only the shard edges the --counts files keep (not their rows): the file to train beside a reduce another engine did, which keeps rows but loses edges
    #[arg(long, requires = "counts", conflicts_with_all = ["shards", "min_chunk_count"])]
    pub edges_only: bool,
    /// byte or char: as `bpeek train --mode`
    #[arg(long, default_value = "byte", value_parser = bpeek_tui::options::args::named(bpeek_core::Mode::parse, bpeek_core::Mode::NAMES), hide_possible_values = true)]
    pub mode: bpeek_core::Mode,
    /// As `bpeek train --pretok` [default: gpt2]
    #[arg(long, value_parser = bpeek_tui::options::args::named(bpeek_core::Pretok::parse, bpeek_core::Pretok::NAMES), hide_possible_values = true)]
    pub pretok: Option<bpeek_core::Pretok>,
    /// As `bpeek train --digits`
    #[arg(long, default_value = "keep", value_parser = bpeek_tui::options::args::named(bpeek_core::Digits::parse, bpeek_core::Digits::NAMES), hide_possible_values = true)]
    pub digits: bpeek_core::Digits,
    /// As `bpeek train --by-line`
    #[arg(long)]
    pub by_line: bool,
    /// The report's format (on stdout, or on stderr when the counts go to stdout)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub report: Format,
    /// No report
    #[arg(long, short)]
    pub quiet: bool,
}

/// The file format of `count --out`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountFormat {
    /// Apache Parquet (snappy), for Spark, Dask, Ray, DuckDB and pyarrow
    Parquet,
    /// Tab-separated text: a header line, then chunk, count, first_shard, first_offset
    Tsv,
}

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// A built-in name (bytes, gpt2, cl100k, o200k) or a tokenizer file: bpeek JSON,
    /// Hugging Face tokenizer.json, GPT-2 encoder.json + vocab.bpe, FILE.tiktoken:PRETOK,
    /// a SentencePiece .model, Mistral's tekken.json, BERT's vocab.txt, or a llama.cpp .gguf;
    /// LABEL=FILE reports it as LABEL (split at the first = unless the whole is an existing
    /// file or the part before = holds a / or \)
    #[arg(long, value_name = "NAME|FILE")]
    pub tokenizer: String,
    /// Text to encode, or - for stdin
    #[arg(conflicts_with = "file")]
    pub text: Option<String>,
    /// Encode the contents of this file
    #[arg(long, value_name = "F")]
    pub file: Option<PathBuf>,
    /// Let text such as <|endoftext|> become its special token id
    #[arg(long)]
    pub allow_special: bool,
    /// Put around the text the tokens the model's post-processor adds (BOS, EOS, [CLS], [SEP])
    #[arg(long)]
    pub add_special_tokens: bool,
    /// text (a report for people), json (the ids and their count; each token too with --tokens),
    /// ids (the ids alone, space-separated), u32 (little-endian 32-bit ids) or npy (a NumPy array
    /// of them)
    #[arg(long, value_enum, default_value_t = EncodeFormat::Text)]
    pub format: EncodeFormat,
    /// Only the number of tokens (a line of text, or {"bytes", "token_count"} with --format json)
    #[arg(long)]
    pub count: bool,
    /// With --format json: describe each token too (its id, bytes, text and whether it is
    /// special), several times the size of the ids alone
    #[arg(long, conflicts_with = "count")]
    pub tokens: bool,
    /// Each line of the input its own text (without its line break), encoded on every core;
    /// one line of output per line, in order: ids, or a JSON object per line (JSONL)
    #[arg(long)]
    pub lines: bool,
    /// Encode a conversation (a JSON list of {"role", "content"}) rendered by the tokenizer's
    /// chat template, special tokens parsed, as the model reads it
    #[arg(long, value_name = "CHAT.json", conflicts_with_all = ["text", "file", "lines"])]
    pub chat: Option<PathBuf>,
    /// The chat template to render --chat with: a Jinja file or a tokenizer_config.json
    /// [default: the one the tokenizer's repository or GGUF file carries]
    #[arg(long, value_name = "FILE", requires = "chat")]
    pub chat_template: Option<PathBuf>,
    /// End the rendered conversation with the opening of the assistant's turn
    #[arg(long, requires = "chat")]
    pub add_generation_prompt: bool,
}

/// The output of `encode`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeFormat {
    /// A report for people: each token with its id and text
    Text,
    /// JSON: the ids and their count (each token's bytes and text too with --tokens)
    Json,
    /// The ids alone, separated by spaces, ending with a line break
    Ids,
    /// The ids as little-endian unsigned 32-bit integers
    U32,
    /// A NumPy .npy array of the ids (dtype <u4)
    Npy,
}

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// A built-in name (bytes, gpt2, cl100k, o200k) or a tokenizer file: bpeek JSON,
    /// Hugging Face tokenizer.json, GPT-2 encoder.json + vocab.bpe, FILE.tiktoken:PRETOK,
    /// a SentencePiece .model, Mistral's tekken.json, BERT's vocab.txt, or a llama.cpp .gguf;
    /// LABEL=FILE reports it as LABEL (split at the first = unless the whole is an existing
    /// file or the part before = holds a / or \)
    #[arg(long, value_name = "NAME|FILE")]
    pub tokenizer: String,
    /// Token ids (none decodes to the empty text), or - to read them from
    /// stdin, separated by spaces, commas or line breaks
    #[arg(value_name = "ID", allow_negative_numbers = true)]
    pub ids: Vec<String>,
    /// Write special tokens as their text, as Hugging Face's
    /// decode(ids, skip_special_tokens=False) does (by default they are left out
    /// as its decode(ids) leaves them out; built-in, tiktoken and bpeek files
    /// always write them, as tiktoken does); refused for SentencePiece .model
    /// files (sentencepiece never keeps control pieces) and GGUF files
    #[arg(long)]
    pub keep_special: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct FertilityArgs {
    /// Tokenizers to compare (repeatable): built-in names or files, LABEL=FILE to
    /// show one as LABEL (split at the first = unless the whole is an existing file
    /// or the part before = holds a / or \) [default: bytes, gpt2, cl100k, o200k]
    #[arg(long = "tokenizer", value_name = "NAME|FILE")]
    pub tokenizers: Vec<String>,
    /// Text to measure, or - for stdin
    #[arg(conflicts_with = "file")]
    pub text: Option<String>,
    /// Measure the contents of this file
    #[arg(long, value_name = "F")]
    pub file: Option<PathBuf>,
    /// Measure the bundled parallel samples (15 languages, emoji, code, digits)
    #[arg(long)]
    pub samples: bool,
    /// The English version of the text, for the premium column
    #[arg(long, value_name = "F")]
    pub english: Option<PathBuf>,
    /// Also break mixed text down by script
    #[arg(long)]
    pub scripts: bool,
    /// Also show how each tokenizer cuts numbers
    #[arg(long)]
    pub numbers: bool,
    /// Count the tokens the model's post-processor adds too (BOS, EOS, [CLS], [SEP]): the model's own count
    #[arg(long)]
    pub add_special_tokens: bool,
    #[arg(long, value_enum, default_value_t = FertilityFormat::Text)]
    pub format: FertilityFormat,
}

/// How `bpeek fertility` writes its report.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FertilityFormat {
    /// Tables for people
    Text,
    /// One JSON object: the tokenizers and every row (and --scripts, --numbers)
    Json,
    /// The cost table's rows, a header line first (the JSON's rows)
    Csv,
}
