//! Pre-tokenizers: rules that cut a text into chunks before BPE sees it.
//!
//! Merges never cross a chunk boundary. Nothing is dropped: the text between
//! two matches becomes a chunk of its own, so the chunks always cover the
//! whole input and every text round-trips. Bytes that are not valid UTF-8
//! cannot be matched by a pattern, so each run of them is a chunk of its own.

use crate::error::Result;
use crate::names::unknown;
use crate::pretokenize::ascii_cuts::AsciiRule;
use crate::pretokenize::splitter::{Pattern, split_str};
use std::fmt;
use std::ops::Range;

/// The GPT-2 / r50k pattern, exactly as tiktoken uses it.
pub const GPT2_PATTERN: &str =
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s";

/// The cl100k_base (GPT-4) pattern.
pub const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";

/// cl100k's pattern as Hugging Face's regex engine (Oniguruma) reads
/// tiktoken's spelling of it: `\p{N}{1,3}+` is "one to three digits,
/// repeated", so a digit run is never cut into groups of three.
pub const CL100K_HF_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}++| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";

/// The pattern Llama 3 publishes, which Hugging Face files also carry for
/// GPT-4: like cl100k, but whitespace that ends in line breaks is cut
/// before the spaces after them (`\s*[\r\n]+`, as o200k).
pub const LLAMA3_PATTERN: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Qwen2's pattern (llama.cpp's preset `qwen2` and its kin): Llama 3's
/// with every digit a chunk of its own and the contractions in ASCII case.
pub const QWEN2_PATTERN: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// [`QWEN2_PATTERN`], cut by hand as Llama 3's is (no named
/// pre-tokenizer: GGUF files of the preset cut by it).
pub static QWEN2: Pattern =
    Pattern::new("qwen2", QWEN2_PATTERN, true).with_ascii_rule(AsciiRule::Cl100k {
        digits: Some(1),
        end_first: false,
        long_s: false,
    });

/// The o200k_base (GPT-4o) pattern, its alternatives joined with `|`.
pub const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+",
);

/// A word with its leading space.
const WHITESPACE_PATTERN: &str = r" ?\S+";

/// Like [`WHITESPACE_PATTERN`], and runs of spaces are kept together.
const SPACES_PATTERN: &str = r" ?[^ ]+| +";

/// A named chunking rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Pretok {
    /// The whole text is one chunk.
    None,
    /// Each line, without its line break, is a chunk; each break is another.
    Lines,
    /// ` ?\S+`: a word with its leading space.
    Whitespace,
    /// ` ?[^ ]+| +`: like `whitespace`, and runs of spaces are kept together.
    Spaces,
    /// GPT-2's pattern.
    #[default]
    Gpt2,
    /// GPT-4's cl100k_base pattern.
    Cl100k,
    /// GPT-4o's o200k_base pattern.
    O200k,
    /// cl100k's pattern as Hugging Face reads tiktoken's spelling of it
    /// (digit runs whole).
    Cl100kHf,
    /// Llama 3's pattern.
    Llama3,
}

impl Pretok {
    pub const ALL: [Pretok; 9] = [
        Pretok::None,
        Pretok::Lines,
        Pretok::Whitespace,
        Pretok::Spaces,
        Pretok::Gpt2,
        Pretok::Cl100k,
        Pretok::O200k,
        Pretok::Cl100kHf,
        Pretok::Llama3,
    ];
    pub const NAMES: &'static [&'static str] = &[
        "none",
        "lines",
        "whitespace",
        "spaces",
        "gpt2",
        "cl100k",
        "o200k",
        "cl100k-hf",
        "llama3",
    ];

    pub fn name(self) -> &'static str {
        match self {
            Pretok::None => "none",
            Pretok::Lines => "lines",
            Pretok::Whitespace => "whitespace",
            Pretok::Spaces => "spaces",
            Pretok::Gpt2 => "gpt2",
            Pretok::Cl100k => "cl100k",
            Pretok::O200k => "o200k",
            Pretok::Cl100kHf => "cl100k-hf",
            Pretok::Llama3 => "llama3",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        Pretok::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| unknown("pre-tokenizer", s, Self::NAMES))
    }

    /// The pattern this rule matches with, if it is pattern-based.
    pub fn pattern(self) -> Option<&'static str> {
        match self {
            Pretok::None | Pretok::Lines => None,
            Pretok::Whitespace => Some(WHITESPACE_PATTERN),
            Pretok::Spaces => Some(SPACES_PATTERN),
            Pretok::Gpt2 => Some(GPT2_PATTERN),
            Pretok::Cl100k => Some(CL100K_PATTERN),
            Pretok::O200k => Some(O200K_PATTERN),
            Pretok::Cl100kHf => Some(CL100K_HF_PATTERN),
            Pretok::Llama3 => Some(LLAMA3_PATTERN),
        }
    }

    /// The compiled pattern of a pattern-based rule.
    fn compiled(self) -> Option<&'static Pattern> {
        static WHITESPACE: Pattern = Pattern::new("whitespace", WHITESPACE_PATTERN, false);
        static SPACES: Pattern = Pattern::new("spaces", SPACES_PATTERN, false);
        static GPT2: Pattern =
            Pattern::new("gpt2", GPT2_PATTERN, false).with_ascii_rule(AsciiRule::Gpt2);
        static CL100K: Pattern =
            Pattern::new("cl100k", CL100K_PATTERN, true).with_ascii_rule(AsciiRule::Cl100k {
                digits: Some(3),
                end_first: true,
                long_s: true,
            });
        static O200K: Pattern =
            Pattern::new("o200k", O200K_PATTERN, true).with_ascii_rule(AsciiRule::O200k);
        static CL100K_HF: Pattern = Pattern::new("cl100k-hf", CL100K_HF_PATTERN, true)
            .with_ascii_rule(AsciiRule::Cl100k {
                digits: None,
                end_first: true,
                long_s: true,
            });
        static LLAMA3: Pattern =
            Pattern::new("llama3", LLAMA3_PATTERN, true).with_ascii_rule(AsciiRule::Cl100k {
                digits: Some(3),
                end_first: false,
                long_s: true,
            });
        match self {
            Pretok::None | Pretok::Lines => None,
            Pretok::Whitespace => Some(&WHITESPACE),
            Pretok::Spaces => Some(&SPACES),
            Pretok::Gpt2 => Some(&GPT2),
            Pretok::Cl100k => Some(&CL100K),
            Pretok::O200k => Some(&O200K),
            Pretok::Cl100kHf => Some(&CL100K_HF),
            Pretok::Llama3 => Some(&LLAMA3),
        }
    }

    /// Cut `text` into chunks. The ranges are in order, non-empty, and
    /// together cover `text` exactly.
    pub fn split(self, text: &[u8]) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        self.split_into(text, &mut out);
        out
    }

    /// Like [`Pretok::split`], appending to `out`.
    pub fn split_into(self, text: &[u8], out: &mut Vec<Range<usize>>) {
        self.for_each_chunk(text, |r| out.push(r));
    }

    /// Call `f` with each chunk's range, in order, without collecting them
    /// (a large corpus has millions).
    pub fn for_each_chunk(self, text: &[u8], mut f: impl FnMut(Range<usize>)) {
        match self {
            Pretok::None => {
                if !text.is_empty() {
                    f(0..text.len());
                }
            }
            Pretok::Lines => split_lines(text, &mut f),
            _ => {
                let pattern = self.compiled();
                for_each_utf8_run(text, |start, run| match (run, pattern) {
                    (Ok(s), Some(p)) => split_str(p, s, start, &mut f),
                    (Ok(s), None) => f(start..start + s.len()),
                    (Err(len), _) => f(start..start + len),
                });
            }
        }
    }
}

impl Pretok {
    /// As [`Pretok::for_each_chunk`], for text already known to be UTF-8:
    /// it is not checked again (on text outside ASCII the check costs a
    /// twentieth of encoding).
    pub fn for_each_chunk_str(self, text: &str, mut f: impl FnMut(Range<usize>)) {
        match self.compiled() {
            Some(pattern) => split_str(pattern, text, 0, &mut f),
            // No pattern: whole or by lines, no character looked at.
            None => self.for_each_chunk(text.as_bytes(), f),
        }
    }
}

impl fmt::Display for Pretok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Lines and their breaks (`\n` or `\r\n`) as separate chunks.
fn split_lines(text: &[u8], out: &mut impl FnMut(Range<usize>)) {
    let mut start = 0;
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\n' {
            let break_start = if i > start && text[i - 1] == b'\r' {
                i - 1
            } else {
                i
            };
            if break_start > start {
                out(start..break_start);
            }
            out(break_start..i + 1);
            start = i + 1;
        }
        i += 1;
    }
    if start < text.len() {
        out(start..text.len());
    }
}

/// Call `f` for each maximal run of valid UTF-8 (`Ok(str)`) and each maximal
/// run of invalid bytes (`Err(len)`), with the run's start offset.
pub fn for_each_utf8_run(text: &[u8], mut f: impl FnMut(usize, std::result::Result<&str, usize>)) {
    let mut pos = 0;
    let mut bad_start: Option<usize> = None;
    while pos < text.len() {
        match std::str::from_utf8(&text[pos..]) {
            Ok(s) => {
                if let Some(b) = bad_start.take() {
                    f(b, Err(pos - b));
                }
                f(pos, Ok(s));
                return;
            }
            Err(e) => {
                let good = e.valid_up_to();
                if good > 0 {
                    if let Some(b) = bad_start.take() {
                        f(b, Err(pos - b));
                    }
                    // Safe: from_utf8 vouched for these bytes.
                    let s = std::str::from_utf8(&text[pos..pos + good]).unwrap_or_default();
                    f(pos, Ok(s));
                }
                let bad_len = e.error_len().unwrap_or(text.len() - pos - good);
                bad_start.get_or_insert(pos + good);
                pos += good + bad_len;
            }
        }
    }
    if let Some(b) = bad_start {
        f(b, Err(text.len() - b));
    }
}

/// How digit runs are cut after the pre-tokenizer has run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Digits {
    /// Leave chunks as the pre-tokenizer made them.
    #[default]
    Keep,
    /// Every digit is a chunk of its own (as Llama 1/2 do).
    Single,
    /// Digit runs are cut from their neighbours into groups of up to three,
    /// from the left (as cl100k and o200k do).
    Groups3,
}

impl Digits {
    pub const NAMES: &'static [&'static str] = &["keep", "single", "groups3"];

    pub fn name(self) -> &'static str {
        match self {
            Digits::Keep => "keep",
            Digits::Single => "single",
            Digits::Groups3 => "groups3",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "keep" => Ok(Digits::Keep),
            "single" => Ok(Digits::Single),
            "groups3" => Ok(Digits::Groups3),
            _ => Err(unknown("digit rule", s, Self::NAMES)),
        }
    }

    /// Cut the chunk `range` of `text` by this rule, passing each piece on.
    pub fn cut(self, text: &[u8], range: Range<usize>, f: &mut impl FnMut(Range<usize>)) {
        let group = match self {
            Digits::Keep => return f(range),
            Digits::Single => 1,
            Digits::Groups3 => 3,
        };
        if !text[range.clone()].iter().any(u8::is_ascii_digit) {
            return f(range);
        }
        let mut start = range.start;
        let mut i = range.start;
        while i < range.end {
            if text[i].is_ascii_digit() {
                if start < i {
                    f(start..i);
                }
                let mut j = i;
                while j < range.end && text[j].is_ascii_digit() {
                    j += 1;
                }
                let mut g = i;
                while g < j {
                    let e = (g + group).min(j);
                    f(g..e);
                    g = e;
                }
                start = j;
                i = j;
            } else {
                i += 1;
            }
        }
        if start < range.end {
            f(start..range.end);
        }
    }
}

impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pre-tokenizer followed by a digit rule: how a text becomes chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Chunker {
    pub pretok: Pretok,
    pub digits: Digits,
}

impl Chunker {
    pub fn new(pretok: Pretok, digits: Digits) -> Self {
        Chunker { pretok, digits }
    }

    pub fn for_each_chunk(self, text: &[u8], mut f: impl FnMut(Range<usize>)) {
        if self.digits == Digits::Keep {
            // Chunks by the million: no call per chunk to leave it whole.
            return self.pretok.for_each_chunk(text, f);
        }
        self.pretok
            .for_each_chunk(text, |r| self.digits.cut(text, r, &mut f));
    }

    /// As [`Chunker::for_each_chunk`], for text already known to be UTF-8.
    pub fn for_each_chunk_str(self, text: &str, mut f: impl FnMut(Range<usize>)) {
        if self.digits == Digits::Keep {
            return self.pretok.for_each_chunk_str(text, f);
        }
        let bytes = text.as_bytes();
        self.pretok
            .for_each_chunk_str(text, |r| self.digits.cut(bytes, r, &mut f));
    }

    pub fn split(self, text: &[u8]) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        self.for_each_chunk(text, |r| out.push(r));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pretokenize::splitter::fast_pattern;

    #[test]
    fn the_rewritten_patterns_have_no_lookaround_or_possessives() {
        assert_eq!(
            fast_pattern(GPT2_PATTERN),
            r"'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+$|\s+"
        );
        assert_eq!(
            fast_pattern(CL100K_PATTERN),
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+"
        );
        assert!(fast_pattern(O200K_PATTERN).ends_with(r"|\s*[\r\n]+|\s+"));
        assert_eq!(fast_pattern(WHITESPACE_PATTERN), r" ?\S+");
    }
}
