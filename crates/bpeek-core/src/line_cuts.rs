//! Where a long text can be encoded a part at a time with the same tokens
//! as in one go: places where a chunk always starts, whatever comes after.
//! For the byte-level pre-tokenizers that never join a line starting with
//! a character other than whitespace to the line before (gpt2, cl100k,
//! cl100k-hf, o200k, llama3, whitespace, lines), a chunk starts there:
//! none of their alternatives takes a line break and then more, except
//! o200k's punctuation, whose tail `[\r\n/]*` runs on into a `/` (so
//! there a line starting with `/` is not a cut); for `spaces`
//! (` ?[^ ]+| +`), at every space that follows a character other than a
//! space, since `[^ ]+` stops there and ` +` never starts before it.
//! Encoding each part with the character after it (so that nothing in it
//! is taken for the end of the text) and keeping the tokens inside it
//! gives the tokens of the whole.

use crate::encoder::Tokenizer;
use crate::{Mode, Pretok, TokenId};

/// Which places are cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// After a line break, before a character other than whitespace, and
    /// other than `/` when `slash_joins` (o200k).
    Lines { slash_joins: bool },
    /// At a space after a character other than a space.
    Spaces,
}

fn cut_rule(tok: &Tokenizer) -> Option<Cut> {
    if tok.mode() != Mode::Byte || tok.added().is_some() || !tok.chunks_by_rule().0 {
        return None;
    }
    match tok.pretok() {
        Pretok::Gpt2
        | Pretok::Cl100k
        | Pretok::Cl100kHf
        | Pretok::Llama3
        | Pretok::Whitespace
        | Pretok::Lines => Some(Cut::Lines { slash_joins: false }),
        Pretok::O200k => Some(Cut::Lines { slash_joins: true }),
        Pretok::Spaces => Some(Cut::Spaces),
        Pretok::None => None,
    }
}

/// Whether `tok`'s encodings can be cut into parts so (nothing matched
/// outside its merges either).
pub fn cuts_at_lines(tok: &Tokenizer) -> bool {
    cut_rule(tok).is_some()
}

/// A line starts at `at` with a letter or digit that lies wholly before
/// `limit`.
pub fn line_starts_word(text: &str, at: usize, limit: usize) -> bool {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_alphanumeric() && at + c.len_utf8() <= limit)
}

/// A line starts at `at` with a character that begins a chunk of its own
/// under [`Cut::Lines`], lying wholly before `limit`.
fn line_starts_chunk(text: &str, at: usize, limit: usize, slash_joins: bool) -> bool {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| {
            let joins = c.is_whitespace() || (slash_joins && c == '/');
            !joins && at + c.len_utf8() <= limit
        })
}

/// Whether a chunk of `tok`'s starts at `at` (not the text's start), told
/// by the byte before it and what starts there, which lie before `limit`.
pub fn is_cut(tok: &Tokenizer, text: &str, at: usize, limit: usize) -> bool {
    let bytes = text.as_bytes();
    if at == 0 || at >= bytes.len() {
        return false;
    }
    match cut_rule(tok) {
        Some(Cut::Lines { slash_joins }) => {
            bytes[at - 1] == b'\n' && line_starts_chunk(text, at, limit, slash_joins)
        }
        Some(Cut::Spaces) => bytes[at] == b' ' && bytes[at - 1] != b' ' && at < limit,
        None => false,
    }
}

/// The first cut whose byte before lies at or after `from`; the text's
/// end if there is none.
pub fn next_cut(tok: &Tokenizer, text: &str, from: usize) -> usize {
    let len = text.len();
    let bytes = text.as_bytes();
    let from = from.min(len);
    let found = match cut_rule(tok) {
        Some(Cut::Lines { slash_joins }) => memchr::memchr_iter(b'\n', &bytes[from..])
            .map(|i| from + i)
            .find(|&i| line_starts_chunk(text, i + 1, len, slash_joins))
            .map(|i| i + 1),
        Some(Cut::Spaces) => (from..len.saturating_sub(1))
            .find(|&i| bytes[i] != b' ' && bytes[i + 1] == b' ')
            .map(|i| i + 1),
        None => None,
    };
    found.unwrap_or(len)
}

/// The last cut told wholly before `limit` (see [`is_cut`]); the text's
/// start if there is none.
pub fn prev_cut(tok: &Tokenizer, text: &str, limit: usize) -> usize {
    (1..=limit.min(text.len()))
        .rev()
        .find(|&i| is_cut(tok, text, i, limit))
        .unwrap_or(0)
}

/// The tokens of `text[from..to]` as in an encoding of the whole text,
/// where `from` and `to` are cuts; `None` if they do not tile it.
pub fn tokens_between(tok: &Tokenizer, text: &str, from: usize, to: usize) -> Option<Vec<TokenId>> {
    let next = text.get(to..)?.chars().next().map_or(0, char::len_utf8);
    let mut ids = tok.try_encode(text.get(from..to + next)?, false).ok()?;
    // The tokens of the character after `to` are the last few: taken off
    // the end, rather than every id's length added up from the start.
    let mut after = 0;
    while after < next {
        after += tok.bytes_of(ids.pop()?).len();
    }
    (after == next).then_some(ids)
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

    /// Pieces the patterns cut differently, for random texts.
    const PIECES: [&str; 21] = [
        "word", " ", "  ", "\n", "\n\n", " \n", "12345", "!?", "é", "日本", "\t", "'s", "\r\n",
        "x=2", "Ab", "  \n ", "/", "<a>", "\u{a0}", "\u{2028}", ".\n",
    ];

    #[test]
    fn parts_cut_at_lines_give_the_tokens_of_the_whole() {
        let tok = crate::formats::load::load("gpt2").unwrap();
        assert!(cuts_at_lines(&tok));
        let text = "The baker  \nbakes 12 loaves.\n\n  indented\n3 more\n'tis  \n  done   ";
        let whole = tok.encode_bytes(text.as_bytes(), false).unwrap();
        for step in 1..text.len() {
            let mut parts = Vec::new();
            let mut at = 0;
            while at < text.len() {
                let to = next_cut(&tok, text, at + step);
                parts.extend(tokens_between(&tok, text, at, to).unwrap());
                at = to;
            }
            assert_eq!(parts, whole, "parts of at least {step} bytes");
        }
    }

    /// Random texts of pieces the patterns cut differently, for a
    /// tokenizer trained with every pre-tokenizer that has cuts: parts
    /// from cut to cut give the tokens of the whole, and every cut found
    /// is told by the bytes it says it is.
    #[test]
    fn parts_from_cut_to_cut_give_the_tokens_of_the_whole_for_every_pretok() {
        use crate::{Trainer, TrainerConfig};
        let mut roll = crate::dice::rolls(0x9E37_79B9_7F4A_7C15);
        let mut below = |n: usize| roll(n as u64) as usize;
        let mut with_cuts = 0;
        for pretok in Pretok::ALL {
            let corpus: String = (0..2000).map(|_| PIECES[below(PIECES.len())]).collect();
            let config = TrainerConfig {
                pretok,
                ..Default::default()
            };
            let mut trainer = Trainer::new(corpus.into_bytes(), config).unwrap();
            for _ in 0..80 {
                let _ = trainer.step();
            }
            let tok = trainer.tokenizer();
            if !cuts_at_lines(&tok) {
                assert_eq!(pretok, Pretok::None);
                continue;
            }
            with_cuts += 1;
            for _ in 0..60 {
                let n = below(80);
                let text: String = (0..n).map(|_| PIECES[below(PIECES.len())]).collect();
                assert_parts_are_the_whole(&tok, &text, 1 + below(20));
            }
        }
        assert_eq!(with_cuts, Pretok::ALL.len() - 1);
    }

    /// The built-in tokenizers on random texts whose lines start with
    /// every kind of character (`/` after a line break joins o200k's
    /// punctuation before it).
    #[test]
    fn parts_from_cut_to_cut_give_the_tokens_of_the_whole_for_the_built_ins() {
        let mut roll = crate::dice::rolls(0x2545_F491_4F6C_DD1D);
        let mut below = |n: usize| roll(n as u64) as usize;
        for name in ["gpt2", "cl100k", "o200k"] {
            let tok = crate::formats::builtin::load(name).unwrap();
            for _ in 0..300 {
                let n = below(80);
                let text: String = (0..n).map(|_| PIECES[below(PIECES.len())]).collect();
                assert_parts_are_the_whole(&tok, &text, 1 + below(20));
            }
        }
    }

    /// Cut `text` at the first cut at least `step` bytes on, again and
    /// again: every cut is one, and the parts' tokens are the whole's.
    fn assert_parts_are_the_whole(tok: &Tokenizer, text: &str, step: usize) {
        let whole = tok.encode_bytes(text.as_bytes(), false).unwrap();
        let mut parts = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let to = next_cut(tok, text, at + step);
            assert!(to == text.len() || is_cut(tok, text, to, text.len()));
            parts.extend(tokens_between(tok, text, at, to).unwrap());
            at = to;
        }
        assert_eq!(
            parts,
            whole,
            "{:?}: {text:?} in parts of {step}",
            tok.pretok()
        );
    }
}
