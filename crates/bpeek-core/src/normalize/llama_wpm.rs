//! llama.cpp's text rules for BERT vocabularies in GGUF files (its WPM
//! tokenizer), which are not those of Hugging Face's `BertNormalizer`:
//!
//! - "NFD" keeps only the first character of each character's canonical
//!   decomposition, so `é` becomes `e` and a Hangul syllable its leading
//!   consonant jamo;
//! - with accents stripped, every mark (`\p{M}`: spacing ones such as
//!   Devanagari and Tamil vowel signs too) is dropped;
//! - lowercasing is the one-character mapping of the Unicode data;
//! - whitespace ends a word; each punctuation character, ASCII symbol and
//!   CJK ideograph is a word of its own; control, format, private-use
//!   characters, U+0000 and U+FFFD are dropped.
//!
//! llama.cpp's character tables are generated from Unicode 15.1, so the
//! classes here are those of the characters assigned up to that version;
//! a later character is "undefined" there and kept as an ordinary one.

use crate::normalize::bert_text::{Class, class};
use std::ops::Range;
use std::sync::OnceLock;
use unicode_normalization::char::decompose_canonical;

/// Which of llama.cpp's two BERT normalizer options are on
/// (`tokenizer.ggml.normalizer.lowercase`, `.strip_accents`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WpmText {
    pub lowercase: bool,
    pub strip_accents: bool,
}

/// The normalized characters of a text, each with the source range it
/// came from; whitespace is kept (it divides words).
pub fn wpm_normalize(n: WpmText, chars: &[(char, Range<usize>)]) -> Vec<(char, Range<usize>)> {
    let mut out = Vec::with_capacity(chars.len());
    for (c, r) in chars {
        let c = if n.strip_accents {
            first_of_nfd(*c)
        } else {
            *c
        };
        if is_wpm_whitespace(c) {
            out.push((c, r.clone()));
            continue;
        }
        if c == '\0' || c == '\u{FFFD}' || is_other(c) {
            continue;
        }
        if n.strip_accents && is_mark(c) {
            continue;
        }
        let c = if n.lowercase { simple_lowercase(c) } else { c };
        out.push((c, r.clone()));
    }
    out
}

/// A character that is a word by itself: punctuation, an ASCII symbol or
/// a CJK ideograph (the blocks BERT spaces).
pub fn is_wpm_single(c: char) -> bool {
    is_punctuation(c) || (c < '\u{7F}' && is_symbol(c)) || is_cjk_ideograph(c)
}

/// Unicode's White_Space characters, the ones llama.cpp lists.
pub fn is_wpm_whitespace(c: char) -> bool {
    matches!(c as u32,
        0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A
        | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
}

/// The same blocks BERT's normalizer spaces out.
fn is_cjk_ideograph(c: char) -> bool {
    super::bert_text::is_cjk(c)
}

/// Whether Unicode 15.1 had assigned the character (llama.cpp's tables
/// know nothing of later ones: no class, no decomposition, no case).
fn is_assigned(c: char) -> bool {
    static A: OnceLock<Class> = OnceLock::new();
    class(&A, r"\p{Age=V15_1}").contains(c)
}

/// The first character of the canonical decomposition.
pub fn first_of_nfd(c: char) -> char {
    if (c as u32) < 0xC0 || !is_assigned(c) {
        return c;
    }
    let mut first = None;
    decompose_canonical(c, |d| {
        first.get_or_insert(d);
    });
    first.unwrap_or(c)
}

/// The lowercase of a character when it is one character (Unicode's
/// simple mapping: `İ` gives `i`, not `i` and a dot).
pub fn simple_lowercase(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == '\u{130}' {
        return 'i';
    }
    if !is_assigned(c) {
        return c;
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Control, format, surrogate and private-use characters (`\p{C}` but
/// not unassigned).
fn is_other(c: char) -> bool {
    static C: OnceLock<Class> = OnceLock::new();
    class(&C, r"[\p{Cc}\p{Cf}\p{Co}&&\p{Age=V15_1}]").contains(c)
}

fn is_mark(c: char) -> bool {
    static M: OnceLock<Class> = OnceLock::new();
    class(&M, r"[\p{M}&&\p{Age=V15_1}]").contains(c)
}

fn is_punctuation(c: char) -> bool {
    static P: OnceLock<Class> = OnceLock::new();
    class(&P, r"[\p{P}&&\p{Age=V15_1}]").contains(c)
}

fn is_symbol(c: char) -> bool {
    static S: OnceLock<Class> = OnceLock::new();
    class(&S, r"[\p{S}&&\p{Age=V15_1}]").contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(text: &str) -> String {
        let chars: Vec<(char, Range<usize>)> = text
            .char_indices()
            .map(|(i, c)| (c, i..i + c.len_utf8()))
            .collect();
        let n = WpmText {
            lowercase: true,
            strip_accents: true,
        };
        wpm_normalize(n, &chars)
            .into_iter()
            .map(|(c, _)| c)
            .collect()
    }

    #[test]
    fn decomposition_keeps_its_first_character_and_marks_go() {
        assert_eq!(norm("Éa\u{301}"), "ea");
        assert_eq!(norm("한"), "\u{1112}");
        assert_eq!(norm("हिन्दी"), "हनद");
        assert_eq!(norm("İ\u{AD}x"), "ix");
    }

    #[test]
    fn words_end_at_whitespace_and_single_characters() {
        assert!(is_wpm_whitespace('\u{3000}'));
        assert!(!is_wpm_whitespace('\u{1C}'));
        assert!(is_wpm_single('$') && is_wpm_single('。') && is_wpm_single('中'));
        assert!(!is_wpm_single('€'));
    }
}
