//! Running the pre-tokenizer patterns fast.
//!
//! The GPT-2, cl100k and o200k patterns are written for a backtracking
//! engine: possessive quantifiers and the look-ahead `\s+(?!\S)`. The
//! possessive quantifiers here never need to give anything back, so plain
//! greedy ones match the same. The look-ahead is emulated: the last
//! alternative becomes `\s+`, and when such a run of spaces is followed by a
//! non-space character it gives up its last character, which is exactly
//! what `\s+(?!\S)` backtracks to. With this the `regex-automata` lazy DFA
//! can run the patterns, several times faster than a backtracking engine.
//! A test checks the cuts against the original patterns on random text.

use crate::pretokenize::ascii_cuts::{AsciiCutter, AsciiRule};
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use std::ops::Range;
use std::sync::OnceLock;

/// A published pre-tokenizer pattern, compiled the first time it is used.
pub struct Pattern {
    name: &'static str,
    published: &'static str,
    /// Whether its newline alternatives come before the one with the
    /// look-ahead (cl100k, o200k): then a run holding a line break never
    /// reaches the look-ahead.
    newline_first: bool,
    /// Whether the pattern has `\s+(?!\S)`, whose cut is emulated (found
    /// once, not at every text).
    lookahead: bool,
    /// The hand-worked cuts for ASCII, where the pattern has them.
    ascii: Option<AsciiRule>,
    regex: OnceLock<Regex>,
}

/// Whether `text` holds `part` (at compile time).
const fn holds(text: &[u8], part: &[u8]) -> bool {
    let mut from = 0;
    while from + part.len() <= text.len() {
        let mut i = 0;
        while i < part.len() && text[from + i] == part[i] {
            i += 1;
        }
        if i == part.len() {
            return true;
        }
        from += 1;
    }
    false
}

/// Room for the lazy DFA's states (per thread that matches).
const DFA_CACHE_BYTES: usize = 64 << 20;

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.name).finish()
    }
}

impl Pattern {
    pub const fn new(name: &'static str, published: &'static str, newline_first: bool) -> Self {
        Pattern {
            name,
            published,
            newline_first,
            lookahead: holds(published.as_bytes(), br"\s+(?!\S)"),
            ascii: None,
            regex: OnceLock::new(),
        }
    }

    /// The same pattern, cut by `rule` wherever the text is ASCII.
    pub const fn with_ascii_rule(mut self, rule: AsciiRule) -> Self {
        self.ascii = Some(rule);
        self
    }

    /// Whether the pattern has `\s+(?!\S)`, whose cut is emulated.
    fn has_lookahead(&self) -> bool {
        self.lookahead
    }

    fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| {
            // The Unicode classes of these patterns make a large automaton;
            // with the default cache the lazy DFA keeps throwing states away
            // and rebuilding them on text in many scripts.
            Regex::builder()
                .configure(Regex::config().hybrid_cache_capacity(DFA_CACHE_BYTES))
                .build(&fast_pattern(self.published))
                .unwrap_or_else(|e| panic!("built-in pattern {} is invalid: {e}", self.name))
        })
    }
}

/// The published pattern with its possessive quantifiers made greedy and
/// its trailing `\s+(?!\S)|\s` (or `|\s+`) turned into `\s+`.
pub fn fast_pattern(published: &str) -> String {
    let greedy = published
        .replace("++", "+")
        .replace("?+", "?")
        .replace("*+", "*")
        .replace("{1,3}+", "{1,3}");
    for tail in [r"\s+(?!\S)|\s+", r"\s+(?!\S)|\s"] {
        if let Some(head) = greedy.strip_suffix(tail) {
            return format!(r"{head}\s+");
        }
    }
    greedy
}

/// The match of `re` in `s` at or after `at`. Matches nearly always start
/// right at `at` (the patterns cover almost every character), and an
/// anchored search finds those with one forward scan; only when none starts
/// there does the unanchored search (forward, then backward to the start)
/// run.
fn find_from(re: &Regex, s: &str, at: usize) -> Option<Range<usize>> {
    let anchored = Input::new(s).range(at..).anchored(Anchored::Yes);
    if let Some(m) = re.search(&anchored) {
        return Some(m.range());
    }
    re.search(&Input::new(s).range(at..)).map(|m| m.range())
}

/// Cut the valid UTF-8 text `s` (which starts at offset `base` of the
/// whole input) by `pattern`. Text between matches becomes a chunk of its
/// own, so the chunks cover `s` exactly.
pub fn split_str(pattern: &Pattern, s: &str, base: usize, out: &mut impl FnMut(Range<usize>)) {
    // The regex is compiled only when a place is not cut by hand: for a
    // short text under o200k that saved more than encoding it.
    let lookahead = pattern.has_lookahead();
    let newline_first = pattern.newline_first;
    let mut cutter = pattern
        .ascii
        .map(|rule| AsciiCutter::new(rule, s.as_bytes()));
    let mut last = 0;
    let mut at = 0;
    while at < s.len() {
        let by_hand = cutter.as_mut().and_then(|cutter| {
            cutter
                .match_at(at)
                .or_else(|| crate::pretokenize::unicode_cuts::match_at(cutter.rule, s, at))
        });
        if let Some(end) = by_hand.filter(|&end| end > at) {
            if at > last {
                out(base + last..base + at);
            }
            out(base + at..base + end);
            last = end;
            at = end;
            continue;
        }
        let Some(m) = find_from(pattern.regex(), s, at) else {
            break;
        };
        let mut end = m.end;
        if lookahead && end < s.len() {
            let piece = &s[m.clone()];
            let next_is_space = s[end..].chars().next().is_some_and(char::is_whitespace);
            let all_space = piece.chars().all(char::is_whitespace);
            let has_break = newline_first && piece.contains(['\r', '\n']);
            if all_space
                && !next_is_space
                && !has_break
                && let Some((i, _)) = piece.char_indices().last().filter(|(i, _)| *i > 0)
            {
                end = m.start + i;
            }
        }
        if end == m.start {
            // Patterns here never match empty; step on defensively.
            at = next_char_boundary(s, end);
            continue;
        }
        if m.start > last {
            out(base + last..base + m.start);
        }
        out(base + m.start..base + end);
        last = end;
        at = end;
    }
    if last < s.len() {
        out(base + last..base + s.len());
    }
}

fn next_char_boundary(s: &str, i: usize) -> usize {
    let mut j = i + 1;
    while j < s.len() && !s.is_char_boundary(j) {
        j += 1;
    }
    j
}
