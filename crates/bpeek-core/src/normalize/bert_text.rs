//! BERT's text rules as Hugging Face `tokenizers` applies them: the
//! `BertNormalizer` (clean the text, space CJK ideographs, strip accents,
//! lowercase), the punctuation BERT cuts at, and the WordPiece decoder's
//! tidying of spaces. Each character keeps the source range it came from.
//!
//! The character classes are those of the tables the library is built
//! with, from the same crates at the same versions: control, format and
//! private-use characters, punctuation and nonspacing marks from
//! `unicode_categories` (a mark or a punctuation sign added to Unicode
//! since is an ordinary character there, and here), and the decomposition
//! from `unicode-normalization-alignments` (Unicode 9.0).

use std::ops::Range;
use std::sync::OnceLock;
use unicode_categories::UnicodeCategories;
use unicode_normalization_alignments::char::{canonical_combining_class, decompose_canonical};

/// BERT's text normalizer (HF `BertNormalizer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BertNormalizer {
    /// Drop control and format characters, make every whitespace a space.
    pub clean_text: bool,
    /// Put a space on each side of a CJK ideograph.
    pub handle_chinese_chars: bool,
    /// Decompose (NFD) and drop nonspacing marks.
    pub strip_accents: bool,
    pub lowercase: bool,
}

impl BertNormalizer {
    /// BERT uncased (`true`) or cased (`false`): accents are stripped
    /// where the text is lowercased.
    pub fn bert(lowercase: bool) -> Self {
        BertNormalizer {
            clean_text: true,
            handle_chinese_chars: true,
            strip_accents: lowercase,
            lowercase,
        }
    }
}

/// HF's WordPiece decoder cleanup of one piece (its space included).
pub fn cleanup(token: &str) -> String {
    let mut t = token.to_string();
    for (from, to) in [
        (" .", "."),
        (" ?", "?"),
        (" !", "!"),
        (" ,", ","),
        (" ' ", "'"),
        (" n't", "n't"),
        (" 'm", "'m"),
        (" do not", " don't"),
        (" 's", "'s"),
        (" 've", "'ve"),
        (" 're", "'re"),
    ] {
        if t.contains(from) {
            t = t.replace(from, to);
        }
    }
    t
}

/// BERT normalization, each character with the source range it came from.
pub fn bert_normalize(
    n: BertNormalizer,
    chars: Vec<(char, Range<usize>)>,
) -> Vec<(char, Range<usize>)> {
    let mut out = Vec::with_capacity(chars.len());
    for (c, r) in chars {
        if n.clean_text {
            if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                continue;
            }
            if c.is_whitespace() {
                out.push((' ', r));
                continue;
            }
        }
        if n.handle_chinese_chars && is_cjk(c) {
            out.push((' ', r.start..r.start));
            out.push((c, r.clone()));
            out.push((' ', r.end..r.end));
            continue;
        }
        out.push((c, r));
    }
    if n.strip_accents {
        let mut decomposed = Vec::with_capacity(out.len());
        for (c, r) in out {
            // An ASCII character is its own decomposition.
            if c.is_ascii() {
                decomposed.push((c, r));
            } else {
                decompose_canonical(c, |d| decomposed.push((d, r.clone())));
            }
        }
        canonical_order(&mut decomposed);
        decomposed.retain(|(c, _)| !is_nonspacing_mark(*c));
        out = decomposed;
    }
    if n.lowercase {
        let mut lower = Vec::with_capacity(out.len());
        for (c, r) in out {
            for l in c.to_lowercase() {
                lower.push((l, r.clone()));
            }
        }
        out = lower;
    }
    out
}

/// Put each run of combining characters in canonical order (a stable sort
/// by combining class), as NFD does.
fn canonical_order(chars: &mut [(char, Range<usize>)]) {
    let mut i = 0;
    while i < chars.len() {
        if combining_class(chars[i].0) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && combining_class(chars[i].0) != 0 {
            i += 1;
        }
        chars[start..i].sort_by_key(|(c, _)| combining_class(*c));
    }
}

/// CJK ideographs, the blocks BERT puts spaces around.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B920..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

/// Sorted code point ranges of a character class.
pub struct Class(Vec<(u32, u32)>);

impl Class {
    fn new(pattern: &str) -> Class {
        let hir = regex_syntax::parse(pattern).expect("the class parses");
        let ranges = match hir.kind() {
            regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(u)) => u
                .ranges()
                .iter()
                .map(|r| (r.start() as u32, r.end() as u32))
                .collect(),
            _ => Vec::new(),
        };
        Class(ranges)
    }

    pub fn contains(&self, c: char) -> bool {
        let c = c as u32;
        self.0
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

pub fn class(cell: &'static OnceLock<Class>, pattern: &str) -> &'static Class {
    cell.get_or_init(|| Class::new(pattern))
}

/// A control, format or private-use character HF's `clean_text` drops
/// (tab, newline and carriage return are whitespace instead).
fn is_control(c: char) -> bool {
    static LOW: OnceLock<LowTable> = OnceLock::new();
    below_greek(c, &LOW, is_control_searched).unwrap_or_else(|| is_control_searched(c))
}

fn is_control_searched(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// The characters below Greek: ASCII, Latin-1, Latin Extended and the
/// combining accents, most of what the rules look at in most text.
pub(crate) const LOW: usize = 0x370;

/// Whether each character below Greek passes a test.
pub(crate) type LowTable = [bool; LOW];

/// Whether `c` passes `test`, read from a table of the characters below
/// Greek made once from `test` itself (which searches the Unicode tables
/// character by character); `None` for a character above.
pub(crate) fn below_greek(
    c: char,
    table: &OnceLock<LowTable>,
    test: fn(char) -> bool,
) -> Option<bool> {
    let i = c as usize;
    if i >= LOW {
        return None;
    }
    // Every number below LOW is a character (the surrogates are above).
    let table =
        table.get_or_init(|| std::array::from_fn(|i| char::from_u32(i as u32).is_some_and(test)));
    Some(table[i])
}

/// Punctuation as BERT splits at it: ASCII punctuation (`$`, `+`, `^`
/// too) and the Unicode punctuation classes.
pub fn is_bert_punctuation(c: char) -> bool {
    // Every ASCII character in a Unicode punctuation class is ASCII
    // punctuation: the Unicode tables need not be searched for one.
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    c.is_punctuation()
}

fn is_nonspacing_mark(c: char) -> bool {
    static LOW: OnceLock<LowTable> = OnceLock::new();
    below_greek(c, &LOW, char::is_mark_nonspacing).unwrap_or_else(|| c.is_mark_nonspacing())
}

/// A character's canonical combining class (0 for every ASCII one).
fn combining_class(c: char) -> u8 {
    if c.is_ascii() {
        return 0;
    }
    canonical_combining_class(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_below_greek_are_their_searches() {
        for i in 0..0x400u32 {
            let c = char::from_u32(i).unwrap();
            assert_eq!(is_control(c), is_control_searched(c), "{c:?}");
            assert_eq!(is_nonspacing_mark(c), c.is_mark_nonspacing(), "{c:?}");
            assert_eq!(combining_class(c), canonical_combining_class(c), "{c:?}");
        }
    }

    #[test]
    fn classes_are_those_of_the_library_tables() {
        assert!(is_bert_punctuation('\u{2E42}'));
        assert!(!is_bert_punctuation('\u{2E43}'));
        assert!(is_bert_punctuation('$'));
        assert!(is_control('\u{AD}'));
        assert!(!is_control('\u{8E2}'));
        assert!(!is_control('\n'));
        assert!(is_nonspacing_mark('\u{301}'));
        assert!(!is_nonspacing_mark('\u{1E944}'));
    }
}
