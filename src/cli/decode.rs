//! `bpeek decode`: ids in, text out.

use crate::cli::args::{DecodeArgs, Format};
use crate::cli::input::{load_tokenizer, read_stdin};
use bpeek_core::error::{Error, Result};
use bpeek_core::{TokenId, Tokenizer};
use serde_json::json;

pub fn run(args: &DecodeArgs) -> Result<()> {
    let tokenizer = load_tokenizer(&args.tokenizer)?;
    let ids = if args.ids.iter().any(|a| a == "-") {
        if args.ids.len() > 1 {
            return Err(Error::input(
                "decode: give the ids as arguments or - to read them from stdin, not both",
            ));
        }
        let input = read_stdin()?;
        let input = String::from_utf8_lossy(&input);
        let items = input
            .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
            .filter(|s| !s.is_empty());
        parse_ids(&tokenizer, items, "stdin item")?
    } else {
        parse_ids(&tokenizer, args.ids.iter().map(String::as_str), "argument")?
    };
    let skip_special = !args.keep_special;
    let bytes =
        tokenizer
            .decode_bytes_with(&ids, skip_special)
            .map_err(|e| match skip_special {
                true => e.context("decode"),
                false => e.context("decode --keep-special"),
            })?;
    match args.format {
        Format::Json => {
            let text = tokenizer.decode_with(&ids, skip_special)?;
            bpeek_core::outln!(
                "{}",
                json!({"ids": ids, "bytes": bytes, "text": text, "valid_utf8": std::str::from_utf8(&bytes).is_ok()})
            );
        }
        Format::Text => {
            // The exact bytes: decoding is only correct on the whole sequence.
            let mut bytes = bytes;
            bytes.push(b'\n');
            bpeek_core::output::emit_bytes(&bytes)?;
        }
    }
    Ok(())
}

/// Read ids, saying for a wrong one where it is (`argument 3`, `stdin item
/// 3`) and why: not a number, too large, or an unused id in a gap.
fn parse_ids<'a>(
    tokenizer: &Tokenizer,
    items: impl Iterator<Item = &'a str>,
    where_: &str,
) -> Result<Vec<TokenId>> {
    let last = tokenizer.id_limit().saturating_sub(1);
    let mut ids = Vec::new();
    for (i, s) in items.enumerate() {
        let s = s.trim();
        let place = format!("decode: {where_} {}", i + 1);
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::input(format!(
                "{place} {} is not a token id (a whole number 0 or above)",
                bpeek_core::error::quoted(s)
            )));
        }
        let id = s.parse::<u64>().ok().filter(|&id| id <= last as u64);
        let Some(id) = id else {
            return Err(Error::input(format!(
                "{place}: id {s} is too large: this tokenizer's ids go up to {last}"
            )));
        };
        let id = id as TokenId;
        if !tokenizer.contains(id) {
            return Err(Error::input(format!(
                "{place}: id {id} is unused: this tokenizer has no token with that id (its ids 0-{last} have gaps)"
            )));
        }
        ids.push(id);
    }
    Ok(ids)
}
