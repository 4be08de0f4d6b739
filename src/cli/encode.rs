//! `bpeek encode`: text in, ids and tokens out.

use crate::bpe::Mode;
use crate::bpe::display::token_visible;
use crate::cli::args::{EncodeArgs, Format};
use crate::cli::input::{load_tokenizer, read_file, read_stdin};
use crate::error::{Error, Result};

pub fn run(args: &EncodeArgs) -> Result<()> {
    let tokenizer = load_tokenizer(&args.tokenizer)?;
    let text: Vec<u8> = match (&args.text, &args.file) {
        (Some(t), None) if t == "-" => read_stdin()?,
        (Some(t), None) => t.as_bytes().to_vec(),
        (None, Some(f)) => read_file(f)?,
        _ => {
            return Err(Error::input(
                "encode: give TEXT, --file F, or - to read stdin",
            ));
        }
    };
    // Errors name where the text came from (char mode: an unseen
    // character in a file).
    let source = match (&args.text, &args.file) {
        (Some(t), None) if t == "-" => "stdin".to_string(),
        (None, Some(f)) => f.display().to_string(),
        _ => "the text".to_string(),
    };
    match args.format {
        Format::Json => {
            let ids = tokenizer
                .encode_bytes(&text, args.allow_special)
                .map_err(|e| e.context(source))?;
            crate::cli::encode_json::emit(&tokenizer, &ids, text.len())?;
        }
        Format::Text => {
            let tokens = tokenizer
                .encode_detailed(&text, args.allow_special)
                .map_err(|e| e.context(source))?;
            let ids: Vec<String> = tokens.iter().map(|t| t.id.to_string()).collect();
            let shown: Vec<String> = tokens
                .iter()
                .map(|t| format!("\"{}\"", token_visible(&t.bytes)))
                .collect();
            crate::outln!("{}", ids.join(" "));
            crate::outln!("{}", shown.join(" "));
            let per = if tokens.is_empty() {
                0.0
            } else {
                text.len() as f64 / tokens.len() as f64
            };
            let unit = match (tokenizer.mode(), tokens.len()) {
                (Mode::Char, 1) => "symbol",
                (Mode::Char, _) => "symbols",
                (_, 1) => "token",
                _ => "tokens",
            };
            crate::outln!(
                "{} bytes -> {} {unit} ({per:.2} bytes per token)",
                text.len(),
                tokens.len()
            );
        }
    }
    Ok(())
}
