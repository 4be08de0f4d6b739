//! The headless command line: every number the screen shows, as text or JSON.

pub mod args;

pub(crate) mod count;
pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod encode_chat;
pub(crate) mod encode_ids;
pub(crate) mod encode_json;
pub mod encode_lines;
pub(crate) mod fertility;
pub(crate) mod tokenizers;

pub use bpeek_core::output;
/// How a corpus and its trainer are made from the options (shared with the
/// explorer and the server, see [`bpeek_tui::options`]).
pub use bpeek_tui::options::input;
pub(crate) mod train;
pub(crate) mod train_compare;
pub(crate) mod train_merge_line;
pub(crate) mod train_progress;
pub(crate) mod train_unigram;
pub(crate) mod train_unigram_report;

pub use args::{Cli, Command};

use bpeek_core::error::Result;
use clap::CommandFactory;

/// A note on stderr when a command's TEXT names an existing file: the
/// text itself is what is `done` (`bpeek fertility notes.txt` measures the
/// nine characters), easily taken for the file's contents.
pub(crate) fn note_text_names_a_file(command: &str, done: &str, text: &str) {
    if text != "-" && !text.contains('\n') && std::path::Path::new(text).is_file() {
        eprintln!(
            "note: {command} {done} the text {text:?} itself; for the file's contents give --file {text}"
        );
    }
}

/// The manual pages there are: `bpeek`'s own, and one per command
/// (`bpeek-train`, ...), as `man` names them.
pub fn man_pages() -> Vec<String> {
    let cli = Cli::command();
    std::iter::once("bpeek".to_string())
        .chain(
            cli.get_subcommands()
                .map(|c| format!("bpeek-{}", c.get_name())),
        )
        .collect()
}

/// The manual page of `command` (`None`: bpeek's own), made from the
/// command line's own definitions.
pub fn man_page(command: Option<&str>) -> Result<Vec<u8>> {
    let cli = Cli::command();
    let page = match command {
        None => cli,
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                return Err(bpeek_core::error::Error::input(format!(
                    "man: no command {}; the pages are {}",
                    bpeek_core::error::quoted(name),
                    man_pages().join(", ")
                )));
            };
            sub.clone()
                .name(format!("bpeek-{name}"))
                .bin_name(format!("bpeek {name}"))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .map_err(|e| bpeek_core::error::Error::failure(format!("the manual page: {e}")))?;
    Ok(out)
}

/// Run one subcommand, writing its report to stdout. A regex of a
/// tokenizer file's that would take more than linear work on a text fails
/// the command with its refusal (the explorer and the classroom show it
/// instead).
pub fn run(command: Command) -> Result<()> {
    if matches!(command, Command::Tui(_) | Command::Serve(_)) {
        return run_command(command);
    }
    bpeek_core::pretokenize::pattern_work::watch(|| run_command(command))?
}

/// `bpeek serve`, in a build with the classroom.
#[cfg(feature = "classroom")]
fn serve(args: &bpeek_tui::options::args::ServeArgs) -> Result<()> {
    bpeek_serve::run(args)
}

/// `bpeek serve` in a build without the classroom: refused, saying why.
#[cfg(not(feature = "classroom"))]
fn serve(_: &bpeek_tui::options::args::ServeArgs) -> Result<()> {
    Err(left_out("classroom", "the classroom (`bpeek serve`)"))
}

/// The refusal of a command whose Cargo feature this build left out.
pub fn left_out(feature: &str, what: &str) -> bpeek_core::error::Error {
    bpeek_core::error::Error::input(format!(
        "this bpeek was built without {what}; build it with `cargo build --release --features {feature}`"
    ))
}

fn run_command(command: Command) -> Result<()> {
    match command {
        Command::Train(a) => train::run(&a),
        Command::Count(a) => count::run(&a),
        Command::Encode(a) => encode::run(&a),
        Command::Decode(a) => decode::run(&a),
        Command::Bench(a) => crate::bench::run(&a),
        Command::Tui(a) => bpeek_tui::run(&a),
        Command::Serve(a) => serve(&a),
        Command::Fertility(a) => fertility::run(&a),
        Command::Tokenizers { format } => tokenizers::run(format),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "bpeek", &mut out);
            bpeek_core::output::emit_bytes(&out)
        }
        Command::Man { command } => bpeek_core::output::emit_bytes(&man_page(command.as_deref())?),
        Command::Corpora {
            format: args::Format::Json,
        } => {
            let list = |items: Vec<(&str, usize, &str)>| -> Vec<serde_json::Value> {
                items
                    .into_iter()
                    .map(|(name, bytes, about)| {
                        serde_json::json!({"name": name, "bytes": bytes, "about": about})
                    })
                    .collect()
            };
            let corpora = bpeek_core::corpora::BUNDLED.iter();
            let lessons = bpeek_core::corpora::LESSONS.iter();
            let doc = serde_json::json!({
                "corpora": list(corpora.map(|c| (c.name, c.text.len(), c.about)).collect()),
                "lessons": list(lessons.map(|l| (l.name, l.text.len(), l.about)).collect()),
            });
            bpeek_core::outln!("{doc:#}");
            Ok(())
        }
        Command::Corpora { .. } => {
            for c in bpeek_core::corpora::BUNDLED {
                bpeek_core::outln!("{:<8} {:>6} bytes  {}", c.name, c.text.len(), c.about);
            }
            for l in bpeek_core::corpora::LESSONS {
                bpeek_core::outln!("{:<8} {:>6} bytes  {}", l.name, l.text.len(), l.about);
            }
            Ok(())
        }
    }
}
