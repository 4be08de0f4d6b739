//! Where a long text can be encoded a part at a time with the same tokens
//! as in one go. For the byte-level pre-tokenizers that never join a line
//! starting with a letter or digit to the line before (gpt2, cl100k,
//! o200k, whitespace, lines), a chunk always starts there; encoding each
//! part with the character after it (so that nothing in it is taken for
//! the end of the text) and keeping the tokens inside it gives the tokens
//! of the whole.

use crate::bpe::encoder::Tokenizer;
use crate::bpe::{Mode, Pretok, TokenId};

/// Whether `tok`'s encodings can be cut at such lines (nothing matched
/// outside its merges either).
pub fn cuts_at_lines(tok: &Tokenizer) -> bool {
    tok.mode() == Mode::Byte
        && tok.added().is_none()
        && matches!(
            tok.pretok(),
            Pretok::Gpt2 | Pretok::Cl100k | Pretok::O200k | Pretok::Whitespace | Pretok::Lines
        )
}

/// A line starts at `at` with a letter or digit that lies wholly before
/// `limit`.
pub fn line_starts_word(text: &str, at: usize, limit: usize) -> bool {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_alphanumeric() && at + c.len_utf8() <= limit)
}

/// The first cut at or after `from`: just after a line break whose next
/// line starts with a letter or digit; the text's end if there is none.
pub fn next_cut(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    (from.min(bytes.len())..bytes.len())
        .find(|&i| bytes[i] == b'\n' && line_starts_word(text, i + 1, bytes.len()))
        .map_or(bytes.len(), |i| i + 1)
}

/// The tokens of `text[from..to]` as in an encoding of the whole text,
/// where `from` and `to` are cuts; `None` if they do not tile it.
pub fn tokens_between(tok: &Tokenizer, text: &str, from: usize, to: usize) -> Option<Vec<TokenId>> {
    let next = text.get(to..)?.chars().next().map_or(0, char::len_utf8);
    let ids = tok
        .encode_bytes(&text.as_bytes()[from..to + next], false)
        .ok()?;
    let mut at = from;
    let mut kept = Vec::with_capacity(ids.len());
    for id in ids {
        if at >= to {
            break;
        }
        at += tok.bytes_of(id).len();
        kept.push(id);
    }
    (at == to).then_some(kept)
}

/// Where each of `ids` lies when their bytes are laid end to end from
/// byte `from` (byte-level tokens tile the text they came from).
pub fn spans_from(tok: &Tokenizer, from: usize, ids: &[TokenId]) -> Vec<std::ops::Range<usize>> {
    let mut at = from;
    ids.iter()
        .map(|&id| {
            let len = tok.bytes_of(id).len();
            at += len;
            at - len..at
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cut_at_lines_give_the_tokens_of_the_whole() {
        let tok = crate::bpe::io::load::load("gpt2").unwrap();
        assert!(cuts_at_lines(&tok));
        let text = "The baker  \nbakes 12 loaves.\n\n  indented\n3 more\n'tis  \n  done   ";
        let whole = tok.encode_bytes(text.as_bytes(), false).unwrap();
        for step in 1..text.len() {
            let mut parts = Vec::new();
            let mut at = 0;
            while at < text.len() {
                let to = next_cut(text, at + step);
                parts.extend(tokens_between(&tok, text, at, to).unwrap());
                at = to;
            }
            assert_eq!(parts, whole, "parts of at least {step} bytes");
        }
    }
}
