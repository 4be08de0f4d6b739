//! The edges of shards cut anywhere. A shard's text is counted only
//! between its first and last places to cut (where a chunk starts whatever
//! came before: see [`first_cut`]); the text before the first and after
//! the last is kept apart, uncounted, with the shard's number and length.
//! Joining the tail of shard `n` to the head of shard `n + 1` gives text
//! from one place to cut to the next, which chunks as the whole corpus
//! does there: so shards cut at any byte (mid-line, mid-character) sum to
//! the whole text's counts and first places.
//!
//! Neighbouring shards form a run; summing count files joins runs that
//! meet, and the whole corpus is one run from shard 0 whose head (the
//! corpus's start) and tail (its end) are counted last.

use crate::Mode;
use crate::error::{Error, Result};
use crate::pretokenize::pretok::{Chunker, Pretok};

/// Bytes of one shard's text, with the shard and the offset in it where
/// they start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgePiece {
    pub shard: u64,
    pub offset: u64,
    pub bytes: Vec<u8>,
}

/// A stretch of the corpus kept at a run's edge, as the pieces of the
/// shards it spans, in corpus order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeText {
    pub pieces: Vec<EdgePiece>,
}

impl EdgeText {
    fn of(shard: u64, offset: u64, bytes: Vec<u8>) -> Self {
        let pieces = if bytes.is_empty() {
            Vec::new()
        } else {
            vec![EdgePiece {
                shard,
                offset,
                bytes,
            }]
        };
        EdgeText { pieces }
    }

    /// This text followed by `next`.
    fn then(mut self, next: EdgeText) -> Self {
        self.pieces.extend(next.pieces);
        self
    }

    pub fn len(&self) -> u64 {
        self.pieces.iter().map(|p| p.bytes.len() as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.iter().all(|p| p.bytes.is_empty())
    }

    /// The text's bytes, end to end.
    pub fn bytes(&self) -> Vec<u8> {
        self.pieces
            .iter()
            .flat_map(|p| p.bytes.iter().copied())
            .collect()
    }

    /// The shard and offset of byte `at` of [`EdgeText::bytes`].
    pub fn place_of(&self, at: u64) -> (u64, u64) {
        let mut before = 0u64;
        for p in &self.pieces {
            let len = p.bytes.len() as u64;
            if at < before + len {
                return (p.shard, p.offset + (at - before));
            }
            before += len;
        }
        // Only a chunk's start is asked for, which lies inside the text.
        self.pieces
            .last()
            .map_or((0, 0), |p| (p.shard, p.offset + p.bytes.len() as u64))
    }
}

/// Neighbouring shards counted, from `first` to `last`: what was counted
/// lies between the head and the tail, kept apart here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardRun {
    pub first: u64,
    pub last: u64,
    /// Bytes of text in the run's shards.
    pub bytes: u64,
    /// The text from the run's start to its first place to cut; all of it
    /// when there is no such place (`cut` false).
    pub head: EdgeText,
    /// The text from the run's last place to cut to its end.
    pub tail: EdgeText,
    /// Whether the run holds a place to cut.
    pub cut: bool,
}

/// Where one shard's own text was cut for counting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardCut {
    /// The shard's bytes.
    pub len: u64,
    /// Its text before the first place to cut (all of it when `cut` is false).
    pub head: Vec<u8>,
    /// Its text from the last place to cut.
    pub tail: Vec<u8>,
    pub cut: bool,
}

impl ShardCut {
    /// Shard `text` cut at its first and last places to cut, and the range
    /// between them, which is counted.
    pub fn of(text: &[u8], rule: CutRule) -> (ShardCut, std::ops::Range<usize>) {
        match (rule.first_cut(text, 0), rule.last_cut(text)) {
            (Some(a), Some(b)) => (
                ShardCut {
                    len: text.len() as u64,
                    head: text[..a].to_vec(),
                    tail: text[b..].to_vec(),
                    cut: true,
                },
                a..b,
            ),
            _ => (
                ShardCut {
                    len: text.len() as u64,
                    head: text.to_vec(),
                    tail: Vec::new(),
                    cut: false,
                },
                0..0,
            ),
        }
    }

    /// The run of this one shard, numbered `shard`.
    pub fn into_run(self, shard: u64) -> ShardRun {
        let tail_at = self.len - self.tail.len() as u64;
        ShardRun {
            first: shard,
            last: shard,
            bytes: self.len,
            head: EdgeText::of(shard, 0, self.head),
            tail: EdgeText::of(shard, tail_at, self.tail),
            cut: self.cut,
        }
    }
}

/// Where a chunk starts whatever came before, told by the bytes around
/// the place: the places a shard is counted from and to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutRule {
    /// After any line break (each line is cut on its own).
    AfterLineBreak,
    /// After a line break that follows a visible ASCII character and
    /// precedes an ASCII letter or digit: no whitespace pre-tokenizer
    /// joins such a line to the one before, and a run of whitespace is
    /// never cut short at the place.
    BeforeLine,
    /// After ASCII whitespace (char mode cuts words at whitespace).
    AfterSpace,
    /// At a space after a byte other than a space (`--pretok spaces`:
    /// `[^ ]+` ends there and ` +` never starts before it).
    BeforeSpace,
    /// Nowhere: the pre-tokenizer can make a chunk of any stretch.
    Nowhere,
}

impl CutRule {
    pub fn of(mode: Mode, chunker: Chunker, by_line: bool) -> Self {
        match mode {
            Mode::Char => CutRule::AfterSpace,
            Mode::Byte if by_line => CutRule::AfterLineBreak,
            Mode::Byte if cuts_before_lines(chunker.pretok) => CutRule::BeforeLine,
            Mode::Byte if chunker.pretok == Pretok::Spaces => CutRule::BeforeSpace,
            Mode::Byte => CutRule::Nowhere,
        }
    }

    /// Whether `at` (0 < at <= len) is a place to cut, told by bytes of
    /// `text` alone.
    fn is_cut(self, text: &[u8], at: usize) -> bool {
        let before = |k: usize| at.checked_sub(k).and_then(|i| text.get(i)).copied();
        match self {
            CutRule::AfterLineBreak => before(1) == Some(b'\n'),
            CutRule::BeforeLine => {
                before(1) == Some(b'\n')
                    && before(2).is_some_and(|b| b.is_ascii_graphic())
                    && text.get(at).is_some_and(|b| b.is_ascii_alphanumeric())
            }
            CutRule::AfterSpace => before(1).is_some_and(|b| b" \t\n\x0b\x0c\r".contains(&b)),
            CutRule::BeforeSpace => {
                text.get(at) == Some(&b' ') && before(1).is_some_and(|b| b != b' ')
            }
            CutRule::Nowhere => false,
        }
    }

    /// The first place to cut at or after `from` (never the text's start).
    pub fn first_cut(self, text: &[u8], from: usize) -> Option<usize> {
        (from.max(1)..=text.len()).find(|&at| self.is_cut(text, at))
    }

    /// The last place to cut in `text` (never its start).
    pub fn last_cut(self, text: &[u8]) -> Option<usize> {
        (1..=text.len()).rev().find(|&at| self.is_cut(text, at))
    }
}

/// Pre-tokenizers that never make a chunk that crosses from a line break
/// into a line that starts with an ASCII letter or digit.
pub fn cuts_before_lines(pretok: Pretok) -> bool {
    matches!(
        pretok,
        Pretok::Gpt2
            | Pretok::Cl100k
            | Pretok::O200k
            | Pretok::Cl100kHf
            | Pretok::Llama3
            | Pretok::Whitespace
            | Pretok::Lines
    )
}

/// `a` then `b`, its neighbour: the tail of `a` and the head of `b` meet,
/// and where both hold a place to cut the text between is handed to
/// `count` (it lies between two places to cut).
fn join(
    a: ShardRun,
    b: ShardRun,
    count: &mut dyn FnMut(EdgeText) -> Result<()>,
) -> Result<ShardRun> {
    let bytes = a
        .bytes
        .checked_add(b.bytes)
        .ok_or_else(|| Error::input("the shards hold more than 2^64 - 1 bytes of text"))?;
    let (head, tail) = match (a.cut, b.cut) {
        (true, true) => {
            count(a.tail.then(b.head))?;
            (a.head, b.tail)
        }
        (true, false) => (a.head, a.tail.then(b.head)),
        (false, true) => (a.head.then(b.head), b.tail),
        (false, false) => (a.head.then(b.head), EdgeText::default()),
    };
    Ok(ShardRun {
        first: a.first,
        last: b.last,
        bytes,
        head,
        tail,
        cut: a.cut || b.cut,
    })
}

/// Shards as `a-b` or `a`.
fn shards_named(first: u64, last: u64) -> String {
    if first == last {
        format!("shard {first}")
    } else {
        format!("shards {first}-{last}")
    }
}

/// The runs of shards some counts hold: in shard order, none overlapping,
/// none meeting (runs that meet are joined).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardRuns {
    runs: Vec<ShardRun>,
}

impl ShardRuns {
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    pub fn runs(&self) -> &[ShardRun] {
        &self.runs
    }

    /// Each run's first and last shard and the bytes kept at its edges.
    pub fn spans(&self) -> Vec<(u64, u64, u64)> {
        self.runs
            .iter()
            .map(|r| (r.first, r.last, r.head.len() + r.tail.len()))
            .collect()
    }

    /// Bytes of text in every shard.
    pub fn bytes(&self) -> u64 {
        self.runs
            .iter()
            .fold(0u64, |s, r| s.saturating_add(r.bytes))
    }

    /// Add `run`, joining it to the runs it meets; the text between places
    /// to cut that joining makes whole goes to `count`. A shard already
    /// held is refused, naming it.
    pub fn add(
        &mut self,
        run: ShardRun,
        count: &mut dyn FnMut(EdgeText) -> Result<()>,
    ) -> Result<()> {
        let at = self.runs.partition_point(|r| r.first < run.first);
        let overlaps = |r: &ShardRun| r.first <= run.last && run.first <= r.last;
        if let Some(r) = self.runs[at.saturating_sub(1)..]
            .iter()
            .take(2)
            .find(|r| overlaps(r))
        {
            let (from, to) = (r.first.max(run.first), r.last.min(run.last));
            return Err(Error::input(format!(
                "{} counted twice (give each part its own --shard: the number of its first shard in the corpus)",
                shards_named(from, to)
            )));
        }
        let mut run = run;
        if at < self.runs.len() && run.last.checked_add(1) == Some(self.runs[at].first) {
            let next = self.runs.remove(at);
            run = join(run, next, count)?;
        }
        if at > 0 && self.runs[at - 1].last.checked_add(1) == Some(run.first) {
            let before = self.runs.remove(at - 1);
            run = join(before, run, count)?;
            self.runs.insert(at - 1, run);
        } else {
            self.runs.insert(at, run);
        }
        Ok(())
    }

    /// The texts left at the corpus's edges once every shard is here: the
    /// head of shard 0 (the corpus's start) and the tail of the last shard
    /// (its end). Refused, naming the missing shards, unless the runs are
    /// one, from shard 0.
    pub fn finish(self) -> Result<Vec<EdgeText>> {
        let mut missing = Vec::new();
        let mut next = 0u64;
        for r in &self.runs {
            if r.first > next {
                missing.push(shards_named(next, r.first - 1));
            }
            next = r.last.saturating_add(1);
        }
        if !missing.is_empty() {
            let held: Vec<String> = self
                .runs
                .iter()
                .map(|r| shards_named(r.first, r.last))
                .collect();
            let verb = if missing.len() == 1 && !missing[0].starts_with("shards") {
                "is"
            } else {
                "are"
            };
            return Err(Error::input(format!(
                "{} {verb} missing: the counts hold {} (shards are numbered from 0 in corpus order, each once)",
                missing.join(", "),
                held.join(", ")
            )));
        }
        Ok(self
            .runs
            .into_iter()
            .flat_map(|r| [r.head, r.tail])
            .filter(|t| !t.is_empty())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rolls;
    use crate::pretokenize::pretok::Digits;
    use crate::train::chunk_counts::{ChunkCounts, ChunkOptions};
    use crate::train::corpus::Corpus;

    /// Pieces the pre-tokenizers cut differently: runs of spaces, blank
    /// lines, digits, punctuation, contractions and characters of several
    /// bytes, so that random cuts fall inside all of them.
    const PIECES: [&str; 22] = [
        "word",
        " the",
        " ",
        "   ",
        "\n",
        "\n\n",
        " \n",
        "\r\n",
        "1234567",
        "42",
        "!?",
        ".\n",
        "é",
        "日本語",
        "👍🏽",
        "\t",
        "'s",
        "x=2",
        "Ab",
        "  \n ",
        "ா",
        "\nLine",
    ];

    fn random_text(roll: &mut impl FnMut(u64) -> u64, pieces: usize) -> Vec<u8> {
        (0..pieces)
            .flat_map(|_| PIECES[roll(PIECES.len() as u64) as usize].bytes())
            .collect()
    }

    /// Every set of options shards can be counted under.
    fn every_option() -> Vec<ChunkOptions> {
        let mut all = vec![ChunkOptions {
            mode: Mode::Char,
            pretok: Pretok::default(),
            digits: Digits::Keep,
            by_line: false,
        }];
        for pretok in Pretok::ALL {
            for digits in [Digits::Keep, Digits::Single, Digits::Groups3] {
                for by_line in [false, true] {
                    let o = ChunkOptions {
                        mode: Mode::Byte,
                        pretok,
                        digits,
                        by_line,
                    };
                    if o.shard_problem().is_none() {
                        all.push(o);
                    }
                }
            }
        }
        all
    }

    /// The chunks a corpus trains on: bytes and count, in order of first
    /// appearance (what every tie rule reads).
    fn trained_on(corpus: &Corpus) -> Vec<(Vec<u8>, u64)> {
        (0..corpus.chunks().len())
            .map(|i| (corpus.chunk_bytes(i).to_vec(), corpus.chunks()[i].freq))
            .collect()
    }

    /// One shard counted as `bpeek count` does: streamed in small blocks
    /// where the options stream, else whole.
    fn count_shard(text: &[u8], o: ChunkOptions, block: usize) -> (Corpus, ShardCut) {
        let chunker = o.chunker();
        if Corpus::can_stream(o.mode, chunker, o.by_line) {
            return Corpus::count_shard_stream_in_blocks(
                text,
                chunker,
                o.by_line,
                "shard",
                |_| {},
                block,
            )
            .unwrap();
        }
        let (cut, between) = ShardCut::of(text, CutRule::of(o.mode, chunker, o.by_line));
        let corpus =
            Corpus::new(text[between].to_vec(), o.mode, chunker, false, o.by_line).unwrap();
        (corpus, cut)
    }

    /// Shards cut at random bytes (inside characters, inside runs of
    /// spaces and digits), counted one by one and summed in a random order
    /// and grouping, train on what the whole text trains on, for every
    /// pre-tokenizer, digit rule and mode.
    #[test]
    fn shards_cut_at_any_byte_sum_to_the_whole_text() {
        let mut roll = rolls(0x5eed_ed9e);
        for o in every_option() {
            for round in 0..12 {
                let pieces = 1 + roll(300) as usize;
                let text = random_text(&mut roll, pieces);
                let whole =
                    Corpus::new(text.clone(), o.mode, o.chunker(), false, o.by_line).unwrap();
                let mut cuts: Vec<usize> = (0..roll(12))
                    .map(|_| roll(text.len() as u64 + 1) as usize)
                    .collect();
                cuts.extend([0, text.len()]);
                cuts.sort_unstable();
                let mut parts: Vec<ChunkCounts> = cuts
                    .windows(2)
                    .enumerate()
                    .map(|(n, w)| {
                        let (corpus, cut) =
                            count_shard(&text[w[0]..w[1]], o, 1 + roll(40) as usize);
                        let mut part = ChunkCounts::new(o);
                        part.add_shard(&corpus, cut, n as u64).unwrap();
                        part
                    })
                    .collect();
                // Summed in a random order, in two levels.
                let mut sum = ChunkCounts::new(o);
                let mut level = ChunkCounts::new(o);
                while !parts.is_empty() {
                    let part = parts.swap_remove(roll(parts.len() as u64) as usize);
                    level.absorb(&part).unwrap();
                    if roll(3) == 0 {
                        sum.absorb(&level).unwrap();
                        level = ChunkCounts::new(o);
                    }
                }
                sum.absorb(&level).unwrap();
                assert_eq!(sum.source_bytes(), text.len() as u64);
                let summed = sum.into_corpus().unwrap();
                assert_eq!(
                    trained_on(&summed),
                    trained_on(&whole),
                    "{} round {round}: {:?} cut at {cuts:?}",
                    o.describe(),
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    fn one_shard(text: &[u8], n: u64) -> ChunkCounts {
        let o = ChunkOptions {
            mode: Mode::Byte,
            pretok: Pretok::Gpt2,
            digits: Digits::Keep,
            by_line: false,
        };
        let (corpus, cut) = count_shard(text, o, 64);
        let mut part = ChunkCounts::new(o);
        part.add_shard(&corpus, cut, n).unwrap();
        part
    }

    #[test]
    fn a_shard_counted_twice_is_refused_naming_it() {
        let mut sum = one_shard(b"a b\nc d\ne", 0);
        sum.absorb(&one_shard(b"f\ng h", 1)).unwrap();
        let e = sum.absorb(&one_shard(b"x y\nz", 1)).unwrap_err();
        assert!(e.to_string().contains("shard 1 counted twice"), "{e}");
    }

    #[test]
    fn missing_shards_are_refused_naming_them() {
        let mut sum = one_shard(b"a b\nc d\ne", 0);
        sum.absorb(&one_shard(b"f\ng h", 3)).unwrap();
        sum.absorb(&one_shard(b"f\ng h", 4)).unwrap();
        let e = sum.into_corpus().unwrap_err().to_string();
        assert!(e.contains("shards 1-2 are missing"), "{e}");
        assert!(e.contains("the counts hold shard 0, shards 3-4"), "{e}");
        let e = one_shard(b"a b\nc", 2)
            .into_corpus()
            .unwrap_err()
            .to_string();
        assert!(e.contains("shards 0-1 are missing"), "{e}");
    }
}
