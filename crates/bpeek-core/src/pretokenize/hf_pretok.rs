//! Hugging Face pre-tokenizers on characters: each step cuts every word the
//! one before it left (Whitespace, WhitespaceSplit, BertPreTokenizer,
//! Punctuation, Digits, CharDelimiterSplit, Split, UnicodeScripts) or
//! rewrites it (Metaspace), as the library does, with every byte of every
//! word traced to the input it came from (the words as ranges of one
//! buffer: [`crate::pretokenize::word_ranges`]).

use crate::normalize::bert_text::{LowTable, below_greek};
use crate::normalize::mapped::Mapped;
use crate::pretokenize::pattern_work::{self, FileRegex, Meter};
use crate::pretokenize::pretok::Pretok;
use std::ops::Range;
use std::sync::OnceLock;

/// The `Metaspace` pre-tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metaspace {
    pub replacement: char,
    /// A mark in front (`prepend_scheme` `always` or `first`).
    pub prepend: bool,
    /// Only in front of the whole text, not of a piece after an added
    /// token (`first`).
    pub first_only: bool,
    /// Each word (from one mark to the next) merged on its own.
    pub split: bool,
}

/// What happens to the text a pattern matches (HF `SplitDelimiterBehavior`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behavior {
    Removed,
    Isolated,
    MergedWithPrevious,
    MergedWithNext,
    Contiguous,
}

impl Behavior {
    /// The name a file gives it (`"Isolated"`, `"merged_with_next"`...).
    pub fn from_name(name: &str) -> Option<Behavior> {
        let key: String = name
            .chars()
            .filter(|c| *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        Some(match key.as_str() {
            "removed" => Behavior::Removed,
            "isolated" => Behavior::Isolated,
            "mergedwithprevious" => Behavior::MergedWithPrevious,
            "mergedwithnext" => Behavior::MergedWithNext,
            "contiguous" => Behavior::Contiguous,
            _ => return None,
        })
    }
}

/// What a split step looks for.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// Each character of a class, one match per character.
    Class(CharClass),
    /// A string, matched left to right without overlap.
    Literal(String),
    /// A regex, its matches left to right.
    Regex(Box<FileRegex>),
    /// Runs of word characters and runs of other non-space characters:
    /// HF `Whitespace`'s `\w+|[^\w\s]+`, on a linear-time engine.
    WordsAndSymbols,
    /// The pattern `ByteLevel` cuts with, GPT-2's as the library writes
    /// it, by the hand-worked cuts of the built-in `gpt2` rule (which cut
    /// as it does: see [`crate::formats::import`]).
    Gpt2,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Pattern::Class(a), Pattern::Class(b)) => a == b,
            (Pattern::Literal(a), Pattern::Literal(b)) => a == b,
            (Pattern::Regex(a), Pattern::Regex(b)) => a.as_str() == b.as_str(),
            (Pattern::WordsAndSymbols, Pattern::WordsAndSymbols) => true,
            (Pattern::Gpt2, Pattern::Gpt2) => true,
            _ => false,
        }
    }
}

impl Eq for Pattern {}

/// The character classes the library's pre-tokenizers split at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharClass {
    /// `char::is_whitespace`.
    Whitespace,
    /// ASCII punctuation and the Unicode punctuation classes (as of
    /// Unicode 8.0, the tables the library is built with).
    Punctuation,
    /// `char::is_numeric`: decimal digits, but also `²` and `⅕`.
    Numeric,
    One(char),
}

impl CharClass {
    pub(crate) fn contains(self, c: char) -> bool {
        match self {
            CharClass::Whitespace => c.is_whitespace(),
            CharClass::Punctuation => {
                let is = crate::normalize::bert_text::is_bert_punctuation;
                below_greek(c, &PUNCTUATION_LOW, is).unwrap_or_else(|| is(c))
            }
            CharClass::Numeric => {
                below_greek(c, &NUMERIC_LOW, char::is_numeric).unwrap_or_else(|| c.is_numeric())
            }
            CharClass::One(d) => c == d,
        }
    }
}

/// The punctuation and numeric characters below Greek, ASCII and the
/// stand-ins of byte-level text (`Ġ`, `Ċ`) among them.
static PUNCTUATION_LOW: OnceLock<LowTable> = OnceLock::new();
static NUMERIC_LOW: OnceLock<LowTable> = OnceLock::new();

/// A pre-tokenizer step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreStep {
    Split {
        pattern: Pattern,
        behavior: Behavior,
        /// Split at what the pattern does not match.
        invert: bool,
    },
    Metaspace(Metaspace),
    /// A cut wherever the script changes (HF `UnicodeScripts`).
    Scripts,
    /// `FixedLength`: each word cut into pieces of this many characters
    /// (the last one shorter).
    FixedLength(usize),
    /// `ByteLevel`: a space in front of a word that has none (with
    /// `add_prefix_space`), the word cut by GPT-2's pattern (with
    /// `use_regex`), then each byte written as its byte-level character.
    ByteLevel {
        add_prefix_space: bool,
        regex: Option<Pattern>,
    },
}

impl PreStep {
    /// `Whitespace`: word runs and symbol runs kept, whitespace dropped.
    pub fn whitespace() -> PreStep {
        PreStep::Split {
            pattern: Pattern::WordsAndSymbols,
            behavior: Behavior::Removed,
            invert: true,
        }
    }

    /// A split at each character of `class`.
    pub fn at(class: CharClass, behavior: Behavior) -> PreStep {
        PreStep::Split {
            pattern: Pattern::Class(class),
            behavior,
            invert: false,
        }
    }
}

/// A word: its text, where its bytes came from, and whether it starts at
/// the start of the whole text (Metaspace's `first` scheme asks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: Mapped,
    pub at_origin: bool,
}

/// Run `steps` over one normalized piece of text. A regex that would take
/// more than linear work on it makes no words at all and reports the
/// refusal to the [`pattern_work::watch`] around.
pub fn pre_tokenize(steps: &[PreStep], text: Mapped, at_start: bool) -> Vec<Word> {
    let mut words = crate::pretokenize::word_ranges::StepWords::default();
    words.run(steps, text, at_start);
    words.to_words()
}

/// The text as alternating pieces, each match and the text between, in
/// `out` (emptied first).
pub(crate) fn find_matches(
    pattern: &Pattern,
    s: &str,
    invert: bool,
    meter: &mut Meter,
    out: &mut Vec<(Range<usize>, bool)>,
) {
    out.clear();
    let mut last = 0;
    let mut push_match = |r: Range<usize>, out: &mut Vec<(Range<usize>, bool)>| {
        if r.start > last {
            out.push((last..r.start, false));
        }
        last = r.end;
        out.push((r, true));
    };
    match pattern {
        Pattern::Class(class) => {
            for (i, c) in s.char_indices() {
                if class.contains(c) {
                    push_match(i..i + c.len_utf8(), out);
                }
            }
        }
        Pattern::Literal(p) if p.is_empty() => {}
        Pattern::Literal(p) => {
            for (i, _) in s.match_indices(p.as_str()) {
                push_match(i..i + p.len(), out);
            }
        }
        Pattern::Regex(re) => match re.find_all(s, meter) {
            Ok(found) => {
                for m in found {
                    push_match(m, out);
                }
            }
            // The refusal goes to the caller's watch; nothing is cut.
            Err(e) => pattern_work::note(e),
        },
        Pattern::WordsAndSymbols => {
            for m in words_and_symbols().find_iter(s) {
                push_match(m.range(), out);
            }
        }
        // Every character is in one of its matches.
        Pattern::Gpt2 => Pretok::Gpt2.for_each_chunk_str(s, |r| push_match(r, out)),
    }
    if last < s.len() {
        out.push((last..s.len(), false));
    }
    if invert {
        for m in out.iter_mut() {
            m.1 = !m.1;
        }
    }
}

fn words_and_symbols() -> &'static regex_automata::meta::Regex {
    static RE: OnceLock<regex_automata::meta::Regex> = OnceLock::new();
    RE.get_or_init(|| {
        regex_automata::meta::Regex::new(r"\w+|[^\w\s]+").expect("the pattern compiles")
    })
}

/// The ranges a behavior keeps of the alternating pieces, in `out`
/// (emptied first).
pub(crate) fn keep(
    matches: &[(Range<usize>, bool)],
    behavior: Behavior,
    out: &mut Vec<Range<usize>>,
) {
    out.clear();
    let matches = matches.iter().cloned();
    match behavior {
        Behavior::Removed => out.extend(matches.filter(|m| !m.1).map(|m| m.0)),
        Behavior::Isolated => out.extend(matches.map(|m| m.0)),
        Behavior::MergedWithPrevious => {
            let mut previous_match = false;
            for (r, is_match) in matches {
                match out.last_mut() {
                    Some(last) if is_match && !previous_match => last.end = r.end,
                    _ => out.push(r),
                }
                previous_match = is_match;
            }
        }
        Behavior::MergedWithNext => {
            let mut previous_match = false;
            for (r, is_match) in matches.rev() {
                match out.last_mut() {
                    Some(last) if is_match && !previous_match => last.start = r.start,
                    _ => out.push(r),
                }
                previous_match = is_match;
            }
            out.reverse();
        }
        Behavior::Contiguous => {
            let mut previous_match = false;
            for (r, is_match) in matches {
                match out.last_mut() {
                    Some(last) if is_match == previous_match => last.end = r.end,
                    _ => out.push(r),
                }
                previous_match = is_match;
            }
        }
    }
}

/// A script as the library's table has it: Unicode 9.0's assignments
/// (the characters 9.0 had, with 9.0's script values),
/// Hiragana, Katakana and `ー` counted as Han, and the space, private use
/// characters and every character assigned later as none at all.
fn script_of(c: char) -> Option<unicode_script::Script> {
    use unicode_script::{Script, UnicodeScript};
    static AGE9: OnceLock<crate::normalize::bert_text::Class> = OnceLock::new();
    if c == ' ' || !crate::normalize::bert_text::class(&AGE9, r"\p{Age=V9_0}").contains(c) {
        return None;
    }
    if c == '\u{30FC}' {
        return Some(Script::Han);
    }
    // The four characters of Unicode 9.0 whose script Unicode has changed
    // since (10.0 to 16.0): the library's table keeps 9.0's value.
    match c {
        '\u{0589}' | '\u{061C}' => return Some(Script::Common),
        '\u{0953}' | '\u{0954}' => return Some(Script::Devanagari),
        _ => {}
    }
    match c.script() {
        // Private use and unassigned characters are not in the table.
        Script::Unknown => None,
        Script::Hiragana | Script::Katakana => Some(Script::Han),
        s => Some(s),
    }
}

/// The cuts of HF `UnicodeScripts`: a new piece where a character's
/// script differs from the last one seen, characters without a script
/// joining the piece they are in. Characters before the first with a
/// script are dropped, as the library drops them.
/// `s` in pieces of `n` characters (`n` above 0), the last one shorter.
pub(crate) fn char_chunks(s: &str, n: usize) -> Vec<Range<usize>> {
    let mut starts: Vec<usize> = s.char_indices().step_by(n.max(1)).map(|(i, _)| i).collect();
    starts.push(s.len());
    starts.windows(2).map(|w| w[0]..w[1]).collect()
}

pub(crate) fn script_runs(s: &str) -> Vec<Range<usize>> {
    let mut starts = Vec::new();
    let mut last = None;
    for (i, c) in s.char_indices() {
        let script = script_of(c);
        if script.is_some() && last != script {
            starts.push(i);
        }
        if script.is_some() {
            last = script;
        }
    }
    starts.push(s.len());
    starts.windows(2).map(|w| w[0]..w[1]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(steps: &[PreStep], text: &str) -> Vec<String> {
        pre_tokenize(steps, Mapped::new(text), true)
            .into_iter()
            .map(|w| w.text.text)
            .collect()
    }

    #[test]
    fn behaviors_keep_what_the_library_keeps() {
        let a = |b| {
            vec![PreStep::Split {
                pattern: Pattern::Literal("a".into()),
                behavior: b,
                invert: false,
            }]
        };
        assert_eq!(words(&a(Behavior::Contiguous), "baab"), ["b", "aa", "b"]);
        assert_eq!(
            words(&a(Behavior::MergedWithPrevious), "baabab"),
            ["ba", "a", "ba", "b"]
        );
        assert_eq!(
            words(&a(Behavior::MergedWithNext), "baabab"),
            ["b", "a", "ab", "ab"]
        );
        assert_eq!(words(&a(Behavior::Removed), "baab"), ["b", "b"]);
        assert_eq!(words(&a(Behavior::Isolated), "baab"), ["b", "a", "a", "b"]);
    }

    #[test]
    fn classes_below_greek_are_their_tests() {
        for i in 0..0x400u32 {
            let c = char::from_u32(i).unwrap();
            assert_eq!(CharClass::Numeric.contains(c), c.is_numeric(), "{c:?}");
            let punct = crate::normalize::bert_text::is_bert_punctuation(c);
            assert_eq!(CharClass::Punctuation.contains(c), punct, "{c:?}");
        }
    }

    #[test]
    fn digits_are_numeric_characters() {
        let digits = [PreStep::at(CharClass::Numeric, Behavior::Contiguous)];
        assert_eq!(words(&digits, "a١٢3x²⅕45"), ["a", "١٢3", "x", "²⅕45"]);
    }

    #[test]
    fn scripts_drop_leading_spaces_and_join_kana_to_han() {
        assert_eq!(
            words(&[PreStep::Scripts], "  abc  де  ふ漢カ x"),
            ["abc  ", "де  ", "ふ漢カ ", "x"]
        );
        assert_eq!(words(&[PreStep::Scripts], "ab12-cd"), ["ab", "12-", "cd"]);
        assert_eq!(
            words(&[PreStep::FixedLength(3)], "h\u{e9}llo w\u{f6}rld"),
            ["h\u{e9}l", "lo ", "w\u{f6}r", "ld"]
        );
        // Assigned after Unicode 9.0: no script, so no cut.
        assert_eq!(words(&[PreStep::Scripts], "a\u{1F900}"), ["a\u{1F900}"]);
    }

    #[test]
    fn metaspace_first_marks_only_the_word_at_the_start() {
        let ms = Metaspace {
            replacement: '\u{2581}',
            prepend: true,
            first_only: true,
            split: true,
        };
        let steps = [
            PreStep::at(CharClass::Whitespace, Behavior::Removed),
            PreStep::Metaspace(ms),
        ];
        assert_eq!(
            words(&steps, "hi  there you"),
            ["\u{2581}hi", "there", "you"]
        );
    }
}
