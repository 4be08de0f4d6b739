//! The headless command line: every number the screen shows, as text or JSON.

pub mod args;

pub mod decode;
pub mod encode;
pub mod encode_json;
pub mod encode_text;
pub mod fertility;

/// How a corpus and its trainer are made from the options (shared with the
/// explorer and the server, see [`crate::options`]).
pub use crate::options::input;
pub mod interrupt;
pub use crate::output;
pub mod train;
pub mod train_progress;

pub use args::{Cli, Command};

use crate::error::Result;

/// Run one subcommand, writing its report to stdout.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Train(a) => train::run(&a),
        Command::Encode(a) => encode::run(&a),
        Command::Decode(a) => decode::run(&a),
        Command::Bench(a) => crate::bench::run(&a),
        Command::Tui(a) => crate::tui::run(&a),
        Command::Serve(a) => crate::serve::run(&a),
        Command::Fertility(a) => fertility::run(&a),
        Command::Corpora => {
            for c in crate::corpora::BUNDLED {
                crate::outln!("{:<8} {:>6} bytes  {}", c.name, c.text.len(), c.about);
            }
            for l in crate::corpora::LESSONS {
                crate::outln!("{:<8} {:>6} bytes  {}", l.name, l.text.len(), l.about);
            }
            Ok(())
        }
    }
}
