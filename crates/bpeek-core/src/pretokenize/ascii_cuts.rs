//! The built-in patterns' cuts on ASCII text, worked out by hand.
//!
//! On English a match is four or five bytes long, and the lazy DFA spends
//! most of its time on what every search pays once (start state, cache
//! look-ups), not on the bytes. On ASCII the classes of these patterns are
//! one table look-up, and what backtracking each alternative would do can
//! be worked out once, so a match becomes a few short loops.
//!
//! Whenever the answer would depend on a character outside ASCII (it may
//! be a letter, a digit, a space or fold to `s`), the matcher gives up and
//! the caller asks the regex. `tests/pretok_patterns.rs` checks the cuts
//! against the published patterns on a backtracking engine.

use crate::pretokenize::ascii_window::{ClassMasks, WIDTH};

/// Which pattern's alternatives to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsciiRule {
    /// `'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s`
    Gpt2,
    /// cl100k and its relatives: `'(?i:…)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
    /// | ?[^\s\p{L}\p{N}]+[\r\n]*|…`, then the whitespace alternatives.
    Cl100k {
        /// Longest digit run one match takes (`None`: all of it).
        digits: Option<usize>,
        /// Whether `\s++$` comes before the line-break alternative (cl100k)
        /// or is absent (Llama 3).
        end_first: bool,
        /// Whether the contractions are matched in any case, `(?i:'s|…)`,
        /// where `'ſ` is one too; otherwise in ASCII case only, `'[sS]|…`
        /// (Qwen2).
        long_s: bool,
    },
    /// `[^\r\n\p{L}\p{N}]?[UPPER]*[lower]+(?i:'s|…)?|…|\p{N}{1,3}
    /// | ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
    O200k,
}

pub(crate) const UPPER: u8 = 1;
pub(crate) const LOWER: u8 = 2;
pub(crate) const DIGIT: u8 = 4;
pub(crate) const SPACE: u8 = 8;
pub(crate) const BREAK: u8 = 16;
pub(crate) const OTHER: u8 = 32;
pub(crate) const HIGH: u8 = 64;
const LETTER: u8 = UPPER | LOWER;

/// The class of every byte. `SPACE` is Unicode's White_Space within ASCII
/// (tab to carriage return, and the space), what `\s` means here.
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'0'..=b'9' => DIGIT,
            b'\r' | b'\n' => SPACE | BREAK,
            b'\t' | 0x0b | 0x0c | b' ' => SPACE,
            0x80..=0xff => HIGH,
            _ => OTHER,
        };
        b += 1;
    }
    t
};

fn class(s: &[u8], i: usize) -> u8 {
    s.get(i).map_or(0, |&b| CLASS[b as usize])
}

/// The class bits of the byte `b`.
pub(crate) fn class_of(b: u8) -> u8 {
    CLASS[b as usize]
}

/// Where the runs of a class stop in a text: byte by byte ([`Plain`]), or
/// from the class masks of the bytes ahead ([`Windowed`]). The rules are
/// written once over both, and the plain one is the reference the other
/// is tested against.
pub(crate) trait Runs {
    /// The whole text.
    fn bytes(&self) -> &[u8];
    /// How many bytes from `i` are of a class in `mask`. `None` when the
    /// run stops at a non-ASCII byte, which might have continued it.
    fn run(&self, i: usize, mask: u8) -> Option<usize>;
    /// `\s*[\r\n]`: a whitespace run of `w` bytes from `i`, through its
    /// last line break.
    fn through_last_break(&self, i: usize, w: usize) -> Option<usize>;
    /// The end of the digits from `i`, at most `most` of them, or `None`
    /// when fewer stop at a non-ASCII byte (a digit of another script
    /// might follow).
    fn digits_upto(&self, i: usize, most: usize) -> Option<usize> {
        digits_upto(self.bytes(), i, most)
    }
}

/// The text alone: runs found by reading it.
pub(crate) struct Plain<'s>(pub &'s [u8]);

impl Runs for Plain<'_> {
    fn bytes(&self) -> &[u8] {
        self.0
    }
    fn run(&self, i: usize, mask: u8) -> Option<usize> {
        run(self.0, i, mask)
    }
    fn through_last_break(&self, i: usize, w: usize) -> Option<usize> {
        through_last_break(self.0, i, w)
    }
}

/// The text with the class masks of the [`WIDTH`] bytes from `base`.
pub(crate) struct Windowed<'s> {
    pub s: &'s [u8],
    pub base: usize,
    pub masks: ClassMasks,
}

impl Runs for Windowed<'_> {
    fn bytes(&self) -> &[u8] {
        self.s
    }

    #[inline(always)]
    fn run(&self, i: usize, mask: u8) -> Option<usize> {
        let off = i - self.base;
        if off >= WIDTH {
            return run(self.s, i, mask);
        }
        let n = (!(self.masks.of_class(mask) >> off)).trailing_zeros() as usize;
        if off + n == WIDTH {
            // The run goes on past the window: the rest read byte by byte.
            return run(self.s, self.base + WIDTH, mask).map(|more| n + more);
        }
        (self.masks.high >> (off + n) & 1 == 0).then_some(n)
    }

    #[inline(always)]
    fn through_last_break(&self, i: usize, w: usize) -> Option<usize> {
        let off = i - self.base;
        if off + w > WIDTH {
            return through_last_break(self.s, i, w);
        }
        // The breaks among the `w` bytes from `off`.
        let within = u64::MAX.checked_shr((WIDTH - w) as u32).unwrap_or(0);
        let breaks = (self.masks.line_break >> off) & within;
        (breaks != 0).then(|| i + (63 - breaks.leading_zeros() as usize) + 1)
    }

    #[inline(always)]
    fn digits_upto(&self, i: usize, most: usize) -> Option<usize> {
        let off = i - self.base;
        if off + most > WIDTH {
            return digits_upto(self.s, i, most);
        }
        let n = (!(self.masks.digit >> off)).trailing_zeros() as usize;
        if n >= most {
            return Some(i + most);
        }
        (self.masks.high >> (off + n) & 1 == 0).then_some(i + n)
    }
}

/// How many bytes from `i` are of a class in `mask`, read from the text.
fn run(s: &[u8], i: usize, mask: u8) -> Option<usize> {
    let mut j = i;
    // Eight bytes at a time: a byte-at-a-time loop mispredicts its exit at
    // nearly every word end, and words are a few bytes long.
    while let Some(word) = s.get(j..j + 8) {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let outside = !members(x, mask) & HIGH_BITS;
        if outside != 0 {
            j += outside.trailing_zeros() as usize / 8;
            return (s[j] < 0x80).then_some(j - i);
        }
        j += 8;
    }
    while j < s.len() {
        let c = CLASS[s[j] as usize];
        if c & mask == 0 {
            if c & HIGH != 0 {
                return None;
            }
            break;
        }
        j += 1;
    }
    Some(j - i)
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
const LOW_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Every byte of `x` set to `b`.
const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// The high bit of each byte of `x` whose ASCII class is in `mask` (the
/// masks `run` is called with). Sums stay within each byte: every byte is
/// first cut to seven bits.
#[inline(always)]
fn members(x: u64, mask: u8) -> u64 {
    let ascii = !x & HIGH_BITS;
    let low = x & LOW_BITS;
    // The high bit of each byte of `v` in `lo..=hi` (all bytes below 0x80).
    let within = |v: u64, lo: u8, hi: u8| (v + splat(0x80 - lo)) & !(v + splat(0x7f - hi));
    let upper = || within(low, b'A', b'Z');
    let lower = || within(low, b'a', b'z');
    let letter = || within(low | splat(0x20), b'a', b'z');
    let digit = || within(low, b'0', b'9');
    let space = || within(low, b'\t', b'\r') | equal_bytes(x, b' ');
    let in_class = match mask {
        UPPER => upper(),
        LOWER => lower(),
        LETTER => letter(),
        DIGIT => digit(),
        SPACE => space(),
        OTHER => !(letter() | digit() | space()),
        _ => unreachable!("run is not called with class mask {mask}"),
    };
    in_class & ascii
}

impl AsciiRule {
    /// The end of the match that starts at `i`, or `None` when it cannot be
    /// told from ASCII alone. Every ASCII character starts a match in these
    /// patterns, so a found match always starts at `i`.
    pub fn match_at(self, s: &[u8], i: usize) -> Option<usize> {
        self.match_in(&Plain(s), i)
    }

    /// [`AsciiRule::match_at`] with the runs found by `t`.
    #[inline(always)]
    pub(crate) fn match_in(self, t: &impl Runs, i: usize) -> Option<usize> {
        let s = t.bytes();
        let c = class(s, i);
        if c & HIGH != 0 || i >= s.len() {
            return None;
        }
        match self {
            AsciiRule::Gpt2 => gpt2(t, i, c),
            AsciiRule::Cl100k {
                digits, end_first, ..
            } => cl100k(t, i, c, digits, end_first),
            AsciiRule::O200k => o200k(t, i, c),
        }
    }
}

/// The cuts of one text by one rule, with the classes of the bytes ahead
/// kept as masks and worked out again once the cuts have moved half a
/// window on.
pub struct AsciiCutter<'s> {
    pub rule: AsciiRule,
    window: Windowed<'s>,
}

/// How far into its window a match may start before the window is moved:
/// half of it is left for the match to run on in.
const MOVE_FROM: usize = WIDTH / 2;

impl<'s> AsciiCutter<'s> {
    pub fn new(rule: AsciiRule, s: &'s [u8]) -> Self {
        AsciiCutter {
            rule,
            window: Windowed {
                s,
                base: 0,
                masks: ClassMasks::of(s, 0),
            },
        }
    }

    /// [`AsciiRule::match_at`] on this cutter's text.
    #[inline(always)]
    pub fn match_at(&mut self, i: usize) -> Option<usize> {
        let w = &mut self.window;
        if i < w.base || i - w.base >= MOVE_FROM {
            w.base = i;
            w.masks = ClassMasks::of(w.s, i);
        }
        self.rule.match_in(&self.window, i)
    }
}

#[inline(always)]
fn gpt2(t: &impl Runs, i: usize, c: u8) -> Option<usize> {
    let s = t.bytes();
    if let Some(end) = contraction(s, i, false)? {
        return Some(end);
    }
    let j = if s[i] == b' ' { i + 1 } else { i };
    for mask in [LETTER, DIGIT, OTHER] {
        let n = t.run(j, mask)?;
        if n > 0 {
            return Some(j + n);
        }
    }
    // Only whitespace is left: `\s++$|\s+(?!\S)|\s`.
    debug_assert!(c & SPACE != 0);
    let w = t.run(i, SPACE)?;
    Some(spaces_end(s, i, w))
}

#[inline(always)]
fn cl100k(t: &impl Runs, i: usize, c: u8, digits: Option<usize>, end_first: bool) -> Option<usize> {
    let s = t.bytes();
    // A digit starts neither a contraction nor letters (`\p{L}+` would
    // start at the digit itself): only digits, looked at first.
    if c & DIGIT != 0 {
        return digit_run(t, i, digits);
    }
    if let Some(end) = contraction(s, i, true)? {
        return Some(end);
    }
    // `[^\r\n\p{L}\p{N}]?\p{L}+`
    let j = if c & (OTHER | SPACE) != 0 && c & BREAK == 0 {
        i + 1
    } else {
        i
    };
    let letters = t.run(j, LETTER)?;
    if letters > 0 {
        return Some(j + letters);
    }
    if let Some(end) = punctuation(t, i, b"\r\n")? {
        return Some(end);
    }
    let w = t.run(i, SPACE)?;
    if end_first && i + w == s.len() {
        return Some(i + w);
    }
    if let Some(end) = t.through_last_break(i, w) {
        return Some(end);
    }
    Some(spaces_end(s, i, w))
}

#[inline(always)]
fn o200k(t: &impl Runs, i: usize, c: u8) -> Option<usize> {
    let s = t.bytes();
    // A digit starts no letters (the optional first character is not
    // one): only `\p{N}{1,3}`, looked at first.
    if c & DIGIT != 0 {
        return digit_run(t, i, Some(3));
    }
    // `P?[UPPER]*[lower]+C?|P?[UPPER]+[lower]*C?`: with ASCII letters the
    // two sets do not overlap, so both come to capitals then small letters.
    let j = if c & (OTHER | SPACE) != 0 && c & BREAK == 0 {
        i + 1
    } else {
        i
    };
    let upper = t.run(j, UPPER)?;
    let lower = t.run(j + upper, LOWER)?;
    if upper + lower > 0 {
        let end = j + upper + lower;
        return Some(contraction(s, end, true)?.unwrap_or(end));
    }
    if let Some(end) = punctuation(t, i, b"\r\n/")? {
        return Some(end);
    }
    let w = t.run(i, SPACE)?;
    if let Some(end) = t.through_last_break(i, w) {
        return Some(end);
    }
    Some(spaces_end(s, i, w))
}

/// `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d` at `i`: `Some(Some(end))`
/// when one is there, `Some(None)` when none is, `None` when a non-ASCII
/// character decides (`ſ` folds to `s`).
#[inline(always)]
fn contraction(s: &[u8], i: usize, any_case: bool) -> Option<Option<usize>> {
    if s.get(i) != Some(&b'\'') {
        return Some(None);
    }
    let at = |k: usize| -> Option<u8> {
        let b = *s.get(i + k)?;
        Some(if any_case { b.to_ascii_lowercase() } else { b })
    };
    if s.get(i + 1).is_some_and(|&b| b >= 0x80) || s.get(i + 2).is_some_and(|&b| b >= 0x80) {
        return None;
    }
    let len = match (at(1), at(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => 2,
        (Some(b'r'), Some(b'e')) | (Some(b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => 3,
        _ => return Some(None),
    };
    Some(Some(i + len))
}

/// A run of digits from `i`, at most `most` of them: the end of the match.
#[inline(always)]
fn digit_run(t: &impl Runs, i: usize, most: Option<usize>) -> Option<usize> {
    match most {
        Some(most) => t.digits_upto(i, most),
        None => t.run(i, DIGIT).map(|n| i + n),
    }
}

/// [`Runs::digits_upto`] read from the text.
fn digits_upto(s: &[u8], i: usize, most: usize) -> Option<usize> {
    // A few bytes at most (three, for these patterns): looked at one by
    // one. What follows the last digit allowed does not matter; a run
    // that stops earlier at a byte outside ASCII might go on with a digit
    // of another script.
    let mut end = i;
    while end < s.len() && end - i < most {
        match s[end] {
            b'0'..=b'9' => end += 1,
            0x80.. => return None,
            _ => break,
        }
    }
    Some(end)
}

/// ` ?[^\s\p{L}\p{N}]+` followed by any of `tail`, or `Some(None)` when
/// there is no punctuation at `i`.
#[inline(always)]
fn punctuation(t: &impl Runs, i: usize, tail: &[u8]) -> Option<Option<usize>> {
    let s = t.bytes();
    let j = if s[i] == b' ' { i + 1 } else { i };
    let n = t.run(j, OTHER)?;
    if n == 0 {
        return Some(None);
    }
    let mut end = j + n;
    while end < s.len() && tail.contains(&s[end]) {
        end += 1;
    }
    Some(Some(end))
}

/// `\s*[\r\n]` read from the text (see [`Runs::through_last_break`]).
fn through_last_break(s: &[u8], i: usize, w: usize) -> Option<usize> {
    // Eight bytes at a time from the end: runs of indentation are long.
    let mut end = i + w;
    while end >= i + 8 {
        let x = u64::from_le_bytes(s[end - 8..end].try_into().expect("eight bytes"));
        let breaks = equal_bytes(x, b'\n') | equal_bytes(x, b'\r');
        if breaks != 0 {
            return Some(end - 8 + (63 - breaks.leading_zeros() as usize) / 8 + 1);
        }
        end -= 8;
    }
    s[i..end]
        .iter()
        .rposition(|&b| CLASS[b as usize] & BREAK != 0)
        .map(|k| i + k + 1)
}

/// The high bit of each byte of `x` equal to `b` (exact: no carries
/// between bytes).
fn equal_bytes(x: u64, b: u8) -> u64 {
    let v = x ^ splat(b);
    !(((v & LOW_BITS) + LOW_BITS) | v) & HIGH_BITS
}

/// `\s+(?!\S)|\s`: the run of `w` spaces from `i`, less the last one when
/// a non-space follows (it goes with the word), at least one.
#[inline(always)]
fn spaces_end(s: &[u8], i: usize, w: usize) -> usize {
    if i + w == s.len() || w == 1 {
        i + w
    } else {
        i + w - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rolls;

    const RULES: [AsciiRule; 5] = [
        AsciiRule::Gpt2,
        AsciiRule::O200k,
        AsciiRule::Cl100k {
            digits: Some(3),
            end_first: true,
            long_s: true,
        },
        AsciiRule::Cl100k {
            digits: None,
            end_first: false,
            long_s: false,
        },
        AsciiRule::Cl100k {
            digits: Some(1),
            end_first: false,
            long_s: true,
        },
    ];

    /// Pieces whose runs end anywhere in a window or past it: words,
    /// digits, punctuation and whitespace up to twice a window long, and
    /// characters outside ASCII that stop a run undecided.
    fn random_text(seed: u64) -> String {
        let mut roll = rolls(seed);
        let kinds: [&[&str]; 8] = [
            &["a", "Z", "q", "M"],
            &["0", "7"],
            &[" "],
            &["\t", "\n", "\r", " "],
            &["<", "/", ">", "=", "\"", ".", "'"],
            &["'s", "'LL", "'ve", "'d", "'"],
            &["é", "Ω", "\u{a0}", "日", "١"],
            &["\r\n", "\n"],
        ];
        let mut text = String::new();
        while text.len() < 4000 {
            let kind = kinds[roll(kinds.len() as u64) as usize];
            // Mostly short runs, now and then one longer than a window.
            let len = if roll(10) == 0 { roll(140) } else { roll(6) } + 1;
            for _ in 0..len {
                text.push_str(kind[roll(kind.len() as u64) as usize]);
            }
        }
        text
    }

    #[test]
    fn the_windowed_cuts_are_the_plain_ones_from_every_place() {
        for seed in 1..=40 {
            let text = random_text(seed);
            let s = text.as_bytes();
            for rule in RULES {
                let mut cutter = AsciiCutter::new(rule, s);
                for i in 0..=s.len() {
                    assert_eq!(
                        cutter.match_at(i),
                        rule.match_at(s, i),
                        "{rule:?}, seed {seed}, byte {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_windowed_cuts_are_the_plain_ones_from_match_to_match() {
        for seed in 41..=80 {
            let text = random_text(seed);
            let s = text.as_bytes();
            for rule in RULES {
                let mut cutter = AsciiCutter::new(rule, s);
                let mut at = 0;
                while at < s.len() {
                    let end = cutter.match_at(at);
                    assert_eq!(
                        end,
                        rule.match_at(s, at),
                        "{rule:?}, seed {seed}, byte {at}"
                    );
                    // Past a character the hand-worked cuts leave alone,
                    // on as the splitter goes.
                    at = end.unwrap_or(at + 1);
                }
            }
        }
    }
}
