use bpeek::cli::{self, Cli};
use clap::Parser;

fn main() {
    let args = Cli::parse();
    let result = match args.command {
        Some(command) => cli::run(command),
        None => cli::run(cli::Command::Train(cli::args::TrainArgs {
            training: Default::default(),
            out: None,
            trace: None,
            trace_top: None,
            format: Default::default(),
        })),
    };
    if let Err(e) = result {
        eprintln!("bpeek: {e}");
        std::process::exit(e.exit_code());
    }
}
