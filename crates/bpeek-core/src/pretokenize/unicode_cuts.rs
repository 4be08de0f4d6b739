//! The built-in patterns' cuts on text in any script, worked out by hand
//! as [`crate::pretokenize::ascii_cuts`] works them out for ASCII.
//!
//! On short strings outside ASCII (UI translations, chat lines) every
//! match used to start a regex search of its own, and starting a search
//! costs more than the few characters it matches. Here a character's
//! classes are one table look-up, and each alternative of a pattern is a
//! short loop, with the backtracking it would do worked out once:
//!
//! - o200k's letters are `P?U*L+C?|P?U+L*C?`, where `U` (`Lu Lt Lm Lo M`)
//!   and `L` (`Ll Lm Lo M`) share `Lm`, `Lo` and the marks, and the prefix
//!   `P` (`[^\r\n\p{L}\p{N}]`) holds the marks too. `U*` takes its whole
//!   run; when no `L` follows, it gives back characters from its end until
//!   one of them is in `L`, which then ends the match. Only when the first
//!   alternative fails with the prefix and without it does the second run.
//! - `\s+(?!\S)` gives up the last character of a run of spaces that a
//!   non-space follows; `\s*[\r\n]` ends after the run's last line break.
//! - `(?i:'s|...)` also takes `ſ` (U+017F), which folds to `s`.
//!
//! The classes are the `regex` crate's own (`regex-syntax`'s Unicode
//! tables), so the cuts are the regex's. `tests/pretok_patterns.rs` checks
//! them against the published patterns on a backtracking engine.

use crate::pretokenize::ascii_cuts::AsciiRule;
use std::sync::OnceLock;

/// `\p{L}`.
const LETTER: u8 = 1;
/// `\p{N}`.
const NUMBER: u8 = 2;
/// `\s`: Unicode's White_Space.
const SPACE: u8 = 4;
/// `\r` or `\n`.
const BREAK: u8 = 8;
/// o200k's first letter class, `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
const UPPERS: u8 = 16;
/// o200k's second, `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
const LOWERS: u8 = 32;

/// Every code point's classes, built once from the regex's own tables
/// (1.1 MB; building it takes about a millisecond).
fn table() -> &'static [u8] {
    static TABLE: OnceLock<Box<[u8]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0u8; 0x11_0000].into_boxed_slice();
        for (pattern, flag) in [
            (r"\p{L}", LETTER),
            (r"\p{N}", NUMBER),
            (r"\s", SPACE),
            (r"[\r\n]", BREAK),
            (r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]", UPPERS),
            (r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]", LOWERS),
        ] {
            let hir = regex_syntax::parse(pattern).expect("a class of the patterns parses");
            if let regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(u)) =
                hir.kind()
            {
                for r in u.ranges() {
                    for cp in r.start() as usize..=r.end() as usize {
                        t[cp] |= flag;
                    }
                }
            }
        }
        t
    })
}

/// The character at byte `i` of `s`: its classes and its length.
#[inline]
fn at(t: &[u8], s: &str, i: usize) -> Option<(u8, usize)> {
    let c = s.get(i..)?.chars().next()?;
    Some((t[c as usize], c.len_utf8()))
}

/// Where the run of characters with any class in `mask` from `i` ends.
#[inline]
fn run(t: &[u8], s: &str, i: usize, mask: u8) -> usize {
    let mut j = i;
    for c in s[i..].chars() {
        if t[c as usize] & mask == 0 {
            break;
        }
        j += c.len_utf8();
    }
    j
}

/// Where the run of `[^\s\p{L}\p{N}]` from `i` ends.
#[inline]
fn run_other(t: &[u8], s: &str, i: usize) -> usize {
    let mut j = i;
    for c in s[i..].chars() {
        if t[c as usize] & (LETTER | NUMBER | SPACE) != 0 {
            break;
        }
        j += c.len_utf8();
    }
    j
}

/// The end of the match of `rule` that starts at byte `i` of `s` (every
/// character starts one in these patterns). `None` only past the end.
pub fn match_at(rule: AsciiRule, s: &str, i: usize) -> Option<usize> {
    if i >= s.len() {
        return None;
    }
    let t = table();
    Some(match rule {
        AsciiRule::Gpt2 => gpt2(t, s, i),
        AsciiRule::Cl100k {
            digits,
            end_first,
            long_s,
        } => cl100k(t, s, i, digits, end_first, long_s),
        AsciiRule::O200k => o200k(t, s, i),
    })
}

fn gpt2(t: &[u8], s: &str, i: usize) -> usize {
    if let Some(end) = contraction(s, i, Case::Exact) {
        return end;
    }
    let j = if s.as_bytes()[i] == b' ' { i + 1 } else { i };
    for mask in [LETTER, NUMBER] {
        let end = run(t, s, j, mask);
        if end > j {
            return end;
        }
    }
    let end = run_other(t, s, j);
    if end > j {
        return end;
    }
    // Only whitespace is left: `\s++$|\s+(?!\S)|\s`.
    spaces_end(s, i, run(t, s, i, SPACE))
}

fn cl100k(
    t: &[u8],
    s: &str,
    i: usize,
    digits: Option<usize>,
    end_first: bool,
    long_s: bool,
) -> usize {
    let case = if long_s { Case::Any } else { Case::Ascii };
    if let Some(end) = contraction(s, i, case) {
        return end;
    }
    let (class, len) = at(t, s, i).expect("i is inside s");
    // `[^\r\n\p{L}\p{N}]?\p{L}+`: without the prefix the character at `i`
    // is no letter, so only the prefixed try can match.
    let j = if class & (LETTER | NUMBER | BREAK) == 0 {
        i + len
    } else {
        i
    };
    let end = run(t, s, j, LETTER);
    if end > j {
        return end;
    }
    if class & NUMBER != 0 {
        return digit_run(t, s, i, digits);
    }
    if let Some(end) = punctuation(t, s, i, &['\r', '\n']) {
        return end;
    }
    let w = run(t, s, i, SPACE);
    if end_first && w == s.len() {
        return w;
    }
    through_last_break(s, i, w).unwrap_or_else(|| spaces_end(s, i, w))
}

fn o200k(t: &[u8], s: &str, i: usize) -> usize {
    let (class, len) = at(t, s, i).expect("i is inside s");
    let prefixed = class & (LETTER | NUMBER | BREAK) == 0;
    let with_prefix = |f: fn(&[u8], &str, usize) -> Option<usize>| {
        (if prefixed { f(t, s, i + len) } else { None }).or_else(|| f(t, s, i))
    };
    if let Some(end) = with_prefix(uppers_then_lowers).or_else(|| with_prefix(uppers_only)) {
        return contraction(s, end, Case::Any).unwrap_or(end);
    }
    if class & NUMBER != 0 {
        return digit_run(t, s, i, Some(3));
    }
    if let Some(end) = punctuation(t, s, i, &['\r', '\n', '/']) {
        return end;
    }
    let w = run(t, s, i, SPACE);
    through_last_break(s, i, w).unwrap_or_else(|| spaces_end(s, i, w))
}

/// `U*L+` from `j`: the `U` run, then the `L` run after it; with none
/// after it, `U*` gives back characters until the last one in `L`.
fn uppers_then_lowers(t: &[u8], s: &str, j: usize) -> Option<usize> {
    let mut end = j;
    // The end of the last character of the `U` run that is in `L` too.
    let mut last_lower = None;
    for c in s[j..].chars() {
        let class = t[c as usize];
        if class & UPPERS == 0 {
            break;
        }
        end += c.len_utf8();
        if class & LOWERS != 0 {
            last_lower = Some(end);
        }
    }
    let lowers = run(t, s, end, LOWERS);
    if lowers > end {
        return Some(lowers);
    }
    last_lower
}

/// `U+L*` from `j`.
fn uppers_only(t: &[u8], s: &str, j: usize) -> Option<usize> {
    let end = run(t, s, j, UPPERS);
    (end > j).then(|| run(t, s, end, LOWERS))
}

/// `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d` at `i` (in any case, `ſ`
/// as `s`, when `any_case`): the end of the one there.
/// How a contraction's letters may be written.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    /// As listed (`'s`).
    Exact,
    /// In either ASCII case (`'[sS]`).
    Ascii,
    /// In any case (`(?i:'s)`): `ſ` folds to `s` too.
    Any,
}

fn contraction(s: &str, i: usize, case: Case) -> Option<usize> {
    let rest = s.get(i..)?.strip_prefix('\'')?;
    let fold = |c: char| match c {
        'ſ' if case == Case::Any => 's',
        c if case != Case::Exact => c.to_ascii_lowercase(),
        c => c,
    };
    let mut chars = rest.chars();
    let first = chars.next()?;
    let one = i + 1 + first.len_utf8();
    let second = match fold(first) {
        's' | 't' | 'm' | 'd' => return Some(one),
        'r' | 'v' => 'e',
        'l' => 'l',
        _ => return None,
    };
    let next = chars.next()?;
    (fold(next) == second).then(|| one + next.len_utf8())
}

/// A run of `\p{N}` from `i`, at most `most` characters of it.
fn digit_run(t: &[u8], s: &str, i: usize, most: Option<usize>) -> usize {
    let mut end = i;
    for (n, c) in s[i..].chars().enumerate() {
        if most.is_some_and(|m| n >= m) || t[c as usize] & NUMBER == 0 {
            break;
        }
        end += c.len_utf8();
    }
    end
}

/// ` ?[^\s\p{L}\p{N}]+` followed by any of `tail`, if it matches at `i`.
fn punctuation(t: &[u8], s: &str, i: usize, tail: &[char]) -> Option<usize> {
    let j = if s.as_bytes()[i] == b' ' { i + 1 } else { i };
    let mut end = run_other(t, s, j);
    if end == j {
        return None;
    }
    for c in s[end..].chars() {
        if !tail.contains(&c) {
            break;
        }
        end += c.len_utf8();
    }
    Some(end)
}

/// `\s*[\r\n]`: the whitespace from `i` to `w`, through its last line
/// break.
fn through_last_break(s: &str, i: usize, w: usize) -> Option<usize> {
    s.as_bytes()[i..w]
        .iter()
        .rposition(|&b| b == b'\r' || b == b'\n')
        .map(|k| i + k + 1)
}

/// `\s+(?!\S)|\s`: the whitespace from `i` to `w`, less its last character
/// when a non-space follows (it goes with the word), at least one.
fn spaces_end(s: &str, i: usize, w: usize) -> usize {
    if w == s.len() {
        return w;
    }
    let last = s[i..w].chars().next_back().map_or(0, char::len_utf8);
    if w - i == last { w } else { w - last }
}
