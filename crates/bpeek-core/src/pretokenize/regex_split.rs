//! Pre-tokenizing with a list of regexes written out in full, lookaround
//! included (llama.cpp's presets, Hugging Face `Split` steps): each regex
//! cuts every piece the one before it left into its matches and the text
//! between them, both kept.
//!
//! The regexes run on `fancy-regex`, a backtracking engine. A pattern whose
//! shape can make a search super-linear is refused when it is read
//! ([`compile`]); the work of each search is bounded too
//! ([`crate::pretokenize::pattern_work`]): a text on which a pattern would take
//! more is refused by the pattern's name (see [`pattern_work::watch`]),
//! never cut in part.

use crate::error::Result;
use crate::formats::regex_check::compile;
use crate::pretokenize::pattern_work::{self, FileRegex, Meter};
use crate::pretokenize::pretok::for_each_utf8_run;
use crate::pretokenize::splitter::{Pattern, split_str};
use std::ops::Range;

#[derive(Debug, Clone)]
pub struct RegexChain {
    name: String,
    regexes: Vec<FileRegex>,
    /// The same cuts by hand, for a preset whose one pattern is a built-in
    /// (then `regexes` is empty).
    by_hand: Option<&'static Pattern>,
}

impl RegexChain {
    /// Compile `patterns`; `name` says where they come from. A pattern that
    /// does not compile is refused by its place in the list.
    pub fn new(name: &str, patterns: &[&str]) -> Result<RegexChain> {
        let mut regexes = Vec::with_capacity(patterns.len());
        for (i, p) in patterns.iter().enumerate() {
            regexes.push(compile(p, &format!("{name}: split pattern {i}"))?);
        }
        Ok(RegexChain {
            name: name.to_string(),
            regexes,
            by_hand: None,
        })
    }

    /// A preset whose one pattern is `pattern`'s, cut as the built-in
    /// pre-tokenizers are: by hand, and by the lazy DFA where the hand
    /// gives up. No text is refused, since no search backtracks.
    pub fn by_hand(name: &str, pattern: &'static Pattern) -> RegexChain {
        RegexChain {
            name: name.to_string(),
            regexes: Vec::new(),
            by_hand: Some(pattern),
        }
    }

    /// Where the patterns come from (a preset's name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Call `f` with each piece of `text`, in order; together they cover
    /// it. Bytes that are not UTF-8 are pieces of their own. A pattern that
    /// would take more than linear work on the text makes no pieces at all
    /// and reports the refusal to the [`pattern_work::watch`] around.
    pub fn for_each_chunk(&self, text: &[u8], mut f: impl FnMut(Range<usize>)) {
        if let Err(e) = self.try_for_each_chunk(text, &mut f) {
            pattern_work::note(e);
        }
    }

    /// [`RegexChain::for_each_chunk`], the refusal returned (then `f` is
    /// not called).
    pub fn try_for_each_chunk(&self, text: &[u8], mut f: impl FnMut(Range<usize>)) -> Result<()> {
        if let Some(pattern) = self.by_hand {
            for_each_utf8_run(text, |start, run| match run {
                Ok(s) => split_str(pattern, s, start, &mut f),
                Err(len) => f(start..start + len),
            });
            return Ok(());
        }
        let mut meter = Meter::new();
        let mut refused = None;
        let mut pieces: Vec<Range<usize>> = Vec::new();
        for_each_utf8_run(text, |start, run| match run {
            Ok(s) => {
                // One piece to start with: the whole run.
                let mut current: Vec<Range<usize>> =
                    std::iter::once(start..start + s.len()).collect();
                for re in &self.regexes {
                    if refused.is_some() {
                        break;
                    }
                    let mut next = Vec::with_capacity(current.len() * 2);
                    for r in current {
                        if refused.is_some() {
                            next.push(r);
                            continue;
                        }
                        if let Err(e) = split_one(re, text, r.clone(), &mut meter, &mut next) {
                            refused = Some(e);
                            next.push(r);
                        }
                    }
                    current = next;
                }
                pieces.extend(current);
            }
            Err(len) => pieces.push(start..start + len),
        });
        if let Some(e) = refused {
            return Err(e);
        }
        for p in pieces {
            f(p);
        }
        Ok(())
    }
}

/// Cut `text[r]` (valid UTF-8) at the matches of `re`, keeping the text
/// between them; nothing is cut if the work would pass `meter`'s bound.
fn split_one(
    re: &FileRegex,
    text: &[u8],
    r: Range<usize>,
    meter: &mut Meter,
    out: &mut Vec<Range<usize>>,
) -> Result<()> {
    let Ok(s) = std::str::from_utf8(&text[r.clone()]) else {
        out.push(r);
        return Ok(());
    };
    let base = r.start;
    let mut last = 0;
    for m in re.find_all(s, meter)? {
        if m.is_empty() {
            continue;
        }
        if m.start > last {
            out.push(base + last..base + m.start);
        }
        out.push(base + m.start..base + m.end);
        last = m.end;
    }
    if last < s.len() {
        out.push(base + last..base + s.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(chain: &RegexChain, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        chain.for_each_chunk(text.as_bytes(), |r| out.push(text[r].to_string()));
        out
    }

    #[test]
    fn each_pattern_cuts_what_the_one_before_left() {
        let chain = RegexChain::new("t", &[r"\p{N}", r" ?\p{L}+|\s+(?!\S)"]).unwrap();
        assert_eq!(pieces(&chain, "ab 12\tc"), ["ab", " ", "1", "2", "\t", "c"]);
        assert!(RegexChain::new("t", &["(unclosed"]).is_err());
    }

    #[test]
    fn a_pattern_that_could_backtrack_without_end_is_refused() {
        let e = RegexChain::new("t", &[r"\p{L}+", r"(a+)+(?=b)"]).unwrap_err();
        assert!(
            e.to_string().contains("t: split pattern 1: the regex"),
            "{e}"
        );
        assert!(e.to_string().contains("more than linear time"), "{e}");
    }
}
