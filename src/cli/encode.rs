//! `bpeek encode`: text in, ids and tokens out.

use crate::cli::args::{EncodeArgs, EncodeFormat};
use crate::cli::encode_ids;
use crate::cli::encode_lines::{self, LineOptions};
use crate::cli::input::{load_tokenizer, read_file, read_stdin};
use bpeek_core::TokenId;
use bpeek_core::encoder::Tokenizer;
use bpeek_core::error::{Error, Result};
use std::io::IsTerminal;

pub fn run(args: &EncodeArgs) -> Result<()> {
    check_output(args)?;
    // Never dropped: the process ends when `encode` does, and freeing a
    // large vocabulary a token at a time cost as much as loading it.
    let tokenizer = std::mem::ManuallyDrop::new(load_tokenizer(&args.tokenizer)?);
    if let Some(chat) = &args.chat {
        return crate::cli::encode_chat::run(&tokenizer, chat, args);
    }
    let text: Vec<u8> = match (&args.text, &args.file) {
        (Some(t), None) if t == "-" => read_stdin()?,
        (Some(t), None) => {
            crate::cli::note_text_names_a_file("encode", "encodes", t);
            t.as_bytes().to_vec()
        }
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
    if args.lines {
        let o = LineOptions {
            format: args.format,
            count: args.count,
            allow_special: args.allow_special,
            add_special: args.add_special_tokens,
        };
        let mut result = Ok(());
        bpeek_core::output::emit_with(false, |out| {
            result = encode_lines::write(&tokenizer, &text, o, out);
            Ok(())
        })?;
        return result.map_err(|e| e.context(source));
    }
    if written_in_parts(&tokenizer, args) {
        return write_in_parts(&tokenizer, &text, args).map_err(|e| e.context(source));
    }
    let ids = encode_whole(&tokenizer, &text, args).map_err(|e| e.context(source))?;
    bpeek_core::output::emit_with(false, |mut out| {
        if args.count {
            return match args.format {
                EncodeFormat::Json => writeln!(
                    out,
                    "{{\"bytes\":{},\"token_count\":{}}}",
                    text.len(),
                    ids.len()
                ),
                _ => writeln!(out, "{}", ids.len()),
            };
        }
        match args.format {
            EncodeFormat::Json => {
                crate::cli::encode_json::write(&mut out, &tokenizer, &ids, text.len(), args.tokens)
            }
            EncodeFormat::Text => {
                bpeek_core::encode_report::write(&mut out, &tokenizer, &ids, text.len())
            }
            EncodeFormat::Ids => encode_ids::write_ids(out, &ids),
            EncodeFormat::U32 => encode_ids::write_u32(out, &ids),
            EncodeFormat::Npy => encode_ids::write_npy(out, &ids),
        }
    })
}

/// Whether the output is only the ids (`--format ids`, `json` without
/// `--tokens`) or their number, of ids as the pieces give them (the file
/// neither cuts, pads nor adds tokens): then it is written a part at a
/// time as the parts are encoded.
fn written_in_parts(tok: &Tokenizer, args: &EncodeArgs) -> bool {
    let plain = args.count
        || args.format == EncodeFormat::Ids
        || (args.format == EncodeFormat::Json && !args.tokens);
    plain && !args.add_special_tokens && tok.length_rules().is_none()
}

/// The ids of the whole text (see [`bpeek_core::parallel::encode_in_parts`]):
/// the first part's written as soon as it is encoded, while each later
/// part's are written as text on their own thread; none joined.
fn write_in_parts(tok: &Tokenizer, text: &[u8], args: &EncodeArgs) -> Result<()> {
    let separator = if args.format == EncodeFormat::Json {
        b','
    } else {
        b' '
    };
    let later = |ids: Vec<TokenId>| match args.count {
        true => encode_ids::PartText {
            text: Vec::new(),
            ids: ids.len(),
        },
        false => encode_ids::part_text(&ids, separator),
    };
    let threads = bpeek_core::parallel::threads();
    let (first, later) =
        bpeek_core::parallel::encode_in_parts(tok, text, args.allow_special, threads, later)?;
    let count = first.len() + later.iter().map(|p| p.ids).sum::<usize>();
    bpeek_core::output::emit_with(false, |out| match (args.count, args.format) {
        (true, EncodeFormat::Json) => {
            writeln!(out, "{{\"bytes\":{},\"token_count\":{count}}}", text.len())
        }
        (true, _) => writeln!(out, "{count}"),
        (false, EncodeFormat::Json) => {
            crate::cli::encode_json::write_head(out, text.len())?;
            encode_ids::write_parts(out, &first, &later, separator)?;
            crate::cli::encode_json::write_after_ids(out, tok, count)?;
            out.write_all(b"}\n")
        }
        (false, _) => {
            encode_ids::write_parts(out, &first, &later, separator)?;
            out.write_all(b"\n")
        }
    })
}

/// Options that cannot go together, and binary output to a terminal
/// (which it would garble), refused before any work.
fn check_output(args: &EncodeArgs) -> Result<()> {
    let binary = matches!(args.format, EncodeFormat::U32 | EncodeFormat::Npy);
    if binary && args.lines {
        return Err(Error::input(
            "encode --lines writes a line per text: use --format ids or json (u32 and npy hold one array)",
        ));
    }
    if binary && args.count {
        return Err(Error::input(
            "encode --count writes a number: use --format text, ids or json",
        ));
    }
    if args.tokens && (args.format != EncodeFormat::Json || args.lines || args.chat.is_some()) {
        return Err(Error::input(
            "encode --tokens describes each token of one text in --format json (the text report always does; not with --lines or --chat)",
        ));
    }
    if binary && std::io::stdout().is_terminal() {
        return Err(Error::input(
            "encode --format u32 and npy write binary: send it to a file or a pipe (> ids.npy)",
        ));
    }
    Ok(())
}

/// The ids of the whole text, on every core where it is long enough and
/// can be cut (see [`bpeek_core::parallel::encode_whole`]), then cut and
/// padded as the file's `truncation` and `padding` say, as the library's
/// `encode` does, with the template's tokens when they are asked for.
fn encode_whole(tok: &Tokenizer, text: &[u8], args: &EncodeArgs) -> Result<Vec<TokenId>> {
    let ids = bpeek_core::parallel::encode_whole(
        tok,
        text,
        args.allow_special,
        false,
        bpeek_core::parallel::threads(),
    )?;
    tok.as_file_encodes(ids, args.add_special_tokens)
}
