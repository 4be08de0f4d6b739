use bpeek::cli::{self, Cli};
use clap::Parser;

fn main() {
    let args = Cli::parse();
    let command = args
        .command
        .unwrap_or_else(|| cli::Command::Tui(Default::default()));
    if let Err(e) = cli::run(command) {
        eprintln!("bpeek: {e}");
        std::process::exit(e.exit_code());
    }
}
