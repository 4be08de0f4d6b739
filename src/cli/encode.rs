//! `bpeek encode`: text in, ids and tokens out.

use crate::cli::args::{EncodeArgs, Format};
use crate::cli::input::{load_tokenizer, read_file, read_stdin};
use bpeek_core::error::{Error, Result};

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
    let ids = tokenizer
        .encode_for_model(&text, args.allow_special, args.add_special_tokens)
        .map_err(|e| e.context(source))?;
    match args.format {
        Format::Json => crate::cli::encode_json::emit(&tokenizer, &ids, text.len())?,
        Format::Text => crate::cli::encode_text::emit(&tokenizer, &ids, text.len())?,
    }
    Ok(())
}
