//! The step-wise training state machine.
//!
//! A round has three visible phases: the pairs are counted, a winner is
//! chosen (with the rivals it tied with), the merge is applied (and the table
//! knows which counts rose, fell, appeared or vanished). The trainer is driven
//! from outside one phase or one merge at a time, and can step back and seek.
//!
//! Counts are live: after the first full count, a merge only touches the
//! chunks that contain the winning pair, and each changed pair moves in the
//! ordered table in O(log n). Undoing a merge is exact because the merged id
//! is new: every occurrence of it came from that merge, so splitting it back
//! restores the chunk.

use crate::bpe::corpus::Corpus;
use crate::bpe::encoder::Tokenizer;
use crate::bpe::merge::{merge_pair, pairs_of, split_token};
use crate::bpe::names::{Mode, TieRule};
use crate::bpe::pairs::PairTable;
use crate::bpe::pretok::{Chunker, Digits, Pretok};
use crate::bpe::vocab::{END_OF_WORD_ID, Vocab};
use crate::bpe::{Pair, TokenId};
use crate::error::Result;
use rustc_hash::FxHashMap;
use std::fmt;
use std::ops::Range;

/// How many tied rivals a choice lists by name (all are counted).
pub const RIVALS_LISTED: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainerConfig {
    pub mode: Mode,
    pub pretok: Pretok,
    /// How digit runs are cut after the pre-tokenizer (byte mode).
    pub digits: Digits,
    pub tie: TieRule,
    /// Stop when the best count falls below this.
    pub min_count: u64,
    /// Stop after this many merges.
    pub max_merges: Option<usize>,
}

impl TrainerConfig {
    pub fn chunker(&self) -> Chunker {
        Chunker::new(self.pretok, self.digits)
    }
}

impl Default for TrainerConfig {
    fn default() -> Self {
        TrainerConfig {
            mode: Mode::Byte,
            pretok: Pretok::default(),
            digits: Digits::Keep,
            tie: TieRule::First,
            min_count: 1,
            max_merges: None,
        }
    }
}

/// One merge as training made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub rank: usize,
    pub pair: Pair,
    pub id: TokenId,
    /// The pair's count (overlapping windows) when it won.
    pub count: u64,
    /// How many times it was replaced (left to right, no overlap).
    pub replacements: u64,
}

/// Why training stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The merge budget (or target vocabulary size) was reached.
    Budget,
    /// The best pair's count fell below the minimum count.
    MinCount { best: u64, min: u64 },
    /// Every chunk is a single token.
    NoPairs,
}

impl StopReason {
    /// A few words, for a status line.
    pub fn short(self) -> &'static str {
        match self {
            StopReason::Budget => "merge budget reached",
            StopReason::MinCount { .. } => "best count below minimum",
            StopReason::NoPairs => "no pairs left",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            StopReason::Budget => "budget",
            StopReason::MinCount { .. } => "min_count",
            StopReason::NoPairs => "no_pairs",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Budget => f.write_str("merge budget reached"),
            StopReason::MinCount { best, min } => {
                write!(f, "best pair count {best} is below the minimum count {min}")
            }
            StopReason::NoPairs => f.write_str("no pairs left: every chunk is one token"),
        }
    }
}

/// The winner of a round and the pairs that had the same count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub pair: Pair,
    pub count: u64,
    /// Tied rivals in selection order (at most [`RIVALS_LISTED`]).
    pub rivals: Vec<Pair>,
    /// How many rivals there are in all.
    pub rivals_total: usize,
}

/// Where the current round stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// The pair table is up to date; no winner chosen yet.
    Counted,
    /// The winner is chosen but not yet applied.
    Chosen(Choice),
    /// The last merge was applied; its changes are visible.
    Merged,
}

impl Phase {
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Counted => "counted",
            Phase::Chosen(_) => "chosen",
            Phase::Merged => "merged",
        }
    }
}

/// How one pair's count moved in the last merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountChange {
    pub before: u64,
    pub after: u64,
}

/// A row of the pair table for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRow {
    pub pair: Pair,
    pub count: u64,
    pub change: Option<CountChange>,
}

/// One token of the current segmentation, placed in the corpus text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub start: usize,
    pub end: usize,
    pub id: TokenId,
    /// The first token of its chunk (merges never cross into it).
    pub chunk_start: bool,
}

/// What the last applied merge changed.
#[derive(Debug, Clone, Default)]
struct LastMerge {
    changes: FxHashMap<Pair, CountChange>,
}

#[derive(Debug, Clone)]
pub struct Trainer {
    config: TrainerConfig,
    corpus: Corpus,
    vocab: Vocab,
    initial: Vec<Vec<TokenId>>,
    symbols: Vec<Vec<TokenId>>,
    table: PairTable,
    merges: Vec<Merge>,
    /// For each merge, the chunks it changed (ascending).
    touched: Vec<Vec<u32>>,
    phase: Phase,
    last: LastMerge,
    stop: Option<StopReason>,
    tokens: u64,
    scratch: Scratch,
}

#[derive(Debug, Clone, Default)]
struct Scratch {
    after: Vec<TokenId>,
    before_pairs: Vec<Pair>,
    after_pairs: Vec<Pair>,
    delta: FxHashMap<Pair, i64>,
}

impl Trainer {
    /// Cut `text` into chunks and count every pair: the `Counted` phase of
    /// round 0.
    pub fn new(text: Vec<u8>, config: TrainerConfig) -> Result<Self> {
        let corpus = Corpus::new(text, config.mode, config.chunker())?;
        let (vocab, initial) = match config.mode {
            Mode::Byte => {
                let initial = (0..corpus.chunks().len())
                    .map(|i| {
                        corpus
                            .chunk_bytes(i)
                            .iter()
                            .map(|&b| b as TokenId)
                            .collect()
                    })
                    .collect();
                (Vocab::bytes(), initial)
            }
            Mode::Char => {
                let text = std::str::from_utf8(corpus.text()).unwrap_or_default();
                let vocab = Vocab::chars(text.chars().filter(|c| !c.is_whitespace()));
                let initial = (0..corpus.chunks().len())
                    .map(|i| {
                        let word = std::str::from_utf8(corpus.chunk_bytes(i)).unwrap_or_default();
                        let mut ids: Vec<TokenId> =
                            word.chars().map(|c| vocab.char_id(c)).collect();
                        ids.push(END_OF_WORD_ID);
                        ids
                    })
                    .collect();
                (vocab, initial)
            }
        };
        let mut trainer = Trainer {
            table: PairTable::new(config.tie),
            config,
            corpus,
            vocab,
            symbols: Vec::new(),
            initial,
            merges: Vec::new(),
            touched: Vec::new(),
            phase: Phase::Counted,
            last: LastMerge::default(),
            stop: None,
            tokens: 0,
            scratch: Scratch::default(),
        };
        trainer.recount();
        Ok(trainer)
    }

    /// Back to merge 0 with a full count from the initial symbols.
    fn recount(&mut self) {
        self.symbols = self.initial.clone();
        self.vocab.truncate_merges(0);
        self.merges.clear();
        self.touched.clear();
        self.phase = Phase::Counted;
        self.last = LastMerge::default();
        self.stop = None;
        let mut table = PairTable::new(self.config.tie);
        let mut tokens = 0u64;
        for (c, syms) in self.symbols.iter().enumerate() {
            let freq = self.corpus.chunks()[c].freq;
            tokens += freq * syms.len() as u64;
            let mut offset = 0u64;
            for (i, pair) in pairs_of(syms).enumerate() {
                let stat = table.entry(pair);
                if stat.count == 0 {
                    stat.first = (c as u64) << 32 | offset;
                }
                stat.count += freq;
                stat.chunks.insert(c as u32);
                offset += self.vocab.units(syms[i]) as u64;
            }
        }
        table.reorder_all();
        self.table = table;
        self.tokens = tokens;
    }

    /// Change the merge budget (e.g. once a target vocabulary size can be
    /// turned into a number of merges).
    pub fn set_max_merges(&mut self, max: Option<usize>) {
        self.config.max_merges = max;
        self.stop = None;
    }

    pub fn config(&self) -> &TrainerConfig {
        &self.config
    }

    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    pub fn pairs(&self) -> &PairTable {
        &self.table
    }

    pub fn merges(&self) -> &[Merge] {
        &self.merges
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Set once a step found nothing to merge; cleared by stepping back.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop
    }

    /// Tokens the whole corpus is cut into now (every occurrence counted).
    pub fn corpus_tokens(&self) -> u64 {
        self.tokens
    }

    /// The current tokens of distinct chunk `i`.
    pub fn chunk_symbols(&self, i: usize) -> &[TokenId] {
        &self.symbols[i]
    }

    /// The chunks that merge `rank` changed.
    pub fn chunks_changed_by(&self, rank: usize) -> &[u32] {
        self.touched.get(rank).map_or(&[], |v| v.as_slice())
    }

    /// How `pair`'s count moved in the last merge, if it did.
    pub fn change_of(&self, pair: Pair) -> Option<CountChange> {
        self.last.changes.get(&pair).copied()
    }

    /// Every pair whose count the last merge changed, the vanished included.
    pub fn last_changes(&self) -> impl Iterator<Item = (Pair, CountChange)> + '_ {
        self.last.changes.iter().map(|(p, c)| (*p, *c))
    }

    /// The first `k` rows of the pair table in selection order.
    pub fn top_pairs(&self, k: usize) -> Vec<PairRow> {
        self.table
            .iter()
            .take(k)
            .map(|(pair, count)| PairRow {
                pair,
                count,
                change: self.change_of(pair),
            })
            .collect()
    }

    /// The pair that would win now and everything tied with it, or why
    /// training has to stop.
    pub fn peek_choice(&self) -> std::result::Result<Choice, StopReason> {
        if let Some(max) = self.config.max_merges
            && self.merges.len() >= max
        {
            return Err(StopReason::Budget);
        }
        let Some((pair, count)) = self.table.best() else {
            return Err(StopReason::NoPairs);
        };
        if count < self.config.min_count {
            return Err(StopReason::MinCount {
                best: count,
                min: self.config.min_count,
            });
        }
        let mut rivals = Vec::new();
        let mut rivals_total = 0;
        for (p, c) in self.table.iter().skip(1) {
            if c != count {
                break;
            }
            if rivals.len() < RIVALS_LISTED {
                rivals.push(p);
            }
            rivals_total += 1;
        }
        Ok(Choice {
            pair,
            count,
            rivals,
            rivals_total,
        })
    }

    /// Move one phase forward: counted -> chosen -> merged -> counted.
    /// Returns the stop reason if there is nothing left to choose.
    pub fn advance(&mut self) -> std::result::Result<(), StopReason> {
        match std::mem::replace(&mut self.phase, Phase::Counted) {
            Phase::Counted => match self.peek_choice() {
                Ok(choice) => {
                    self.phase = Phase::Chosen(choice);
                    Ok(())
                }
                Err(reason) => {
                    self.stop = Some(reason);
                    Err(reason)
                }
            },
            Phase::Chosen(choice) => {
                self.apply(choice.pair, choice.count);
                Ok(())
            }
            Phase::Merged => Ok(()),
        }
    }

    /// Finish the current round: choose (unless chosen) and apply one merge.
    pub fn step(&mut self) -> std::result::Result<&Merge, StopReason> {
        let choice = match std::mem::replace(&mut self.phase, Phase::Counted) {
            Phase::Chosen(choice) => choice,
            _ => match self.peek_choice() {
                Ok(choice) => choice,
                Err(reason) => {
                    self.stop = Some(reason);
                    return Err(reason);
                }
            },
        };
        self.apply(choice.pair, choice.count);
        Ok(self.merges.last().expect("a merge was just applied"))
    }

    /// Run until a stop condition; returns it.
    pub fn run(&mut self) -> StopReason {
        loop {
            if let Err(reason) = self.step() {
                return reason;
            }
        }
    }

    /// Step back one merge (or out of the `chosen` phase). Returns false at
    /// merge 0 with nothing chosen.
    pub fn undo(&mut self) -> bool {
        self.stop = None;
        if matches!(self.phase, Phase::Chosen(_)) {
            self.phase = Phase::Counted;
            return true;
        }
        let Some(merge) = self.merges.pop() else {
            self.phase = Phase::Counted;
            return false;
        };
        let chunks = self.touched.pop().unwrap_or_default();
        self.transform(&chunks, |before, out| {
            split_token(before, merge.pair, merge.id, out)
        });
        self.vocab.pop_merge();
        self.tokens += merge.replacements;
        self.phase = Phase::Counted;
        true
    }

    /// Go to the state after exactly `n` merges (or as far as training can
    /// go), in the `merged` phase if `n > 0`. Returns the merge count reached.
    pub fn seek(&mut self, n: usize) -> usize {
        let current = self.merges.len();
        if n < current {
            if n < current - n {
                self.recount();
            } else {
                while self.merges.len() > n {
                    self.undo();
                }
            }
        }
        self.stop = None;
        if matches!(self.phase, Phase::Chosen(_)) {
            self.phase = Phase::Counted;
        }
        while self.merges.len() < n {
            if self.step().is_err() {
                break;
            }
        }
        self.merges.len()
    }

    /// Apply the merge of `pair`, counted `count` times, as the next rank.
    fn apply(&mut self, pair: Pair, count: u64) {
        let chunks: Vec<u32> = self
            .table
            .get(pair)
            .map(|s| s.chunks.iter().copied().collect())
            .unwrap_or_default();
        let id = self.vocab.push_merge(pair);
        let replacements = self.transform(&chunks, |before, out| merge_pair(before, pair, id, out));
        self.tokens -= replacements;
        self.merges.push(Merge {
            rank: self.merges.len(),
            pair,
            id,
            count,
            replacements,
        });
        self.touched.push(chunks);
        self.phase = Phase::Merged;
    }

    /// Rewrite each chunk in `chunks` (ascending) with `f`, and bring the
    /// pair table up to date with the difference. Returns the weighted
    /// number of rewrites `f` reported.
    fn transform(
        &mut self,
        chunks: &[u32],
        f: impl Fn(&[TokenId], &mut Vec<TokenId>) -> usize,
    ) -> u64 {
        let mut s = std::mem::take(&mut self.scratch);
        s.delta.clear();
        let mut rewrites = 0u64;
        for &c in chunks {
            let freq = self.corpus.chunks()[c as usize].freq;
            let before = &self.symbols[c as usize];
            rewrites += f(before, &mut s.after) as u64 * freq;
            s.before_pairs.clear();
            s.before_pairs.extend(pairs_of(before));
            s.before_pairs.sort_unstable();
            s.after_pairs.clear();
            s.after_pairs.extend(pairs_of(&s.after));
            s.after_pairs.sort_unstable();
            for_each_count_difference(&s.before_pairs, &s.after_pairs, |pair, b, a| {
                *s.delta.entry(pair).or_insert(0) += (a as i64 - b as i64) * freq as i64;
                if b == 0 {
                    self.table.entry(pair).chunks.insert(c);
                } else if a == 0 {
                    self.table.entry(pair).chunks.remove(&c);
                }
            });
            std::mem::swap(&mut self.symbols[c as usize], &mut s.after);
        }
        self.last.changes.clear();
        let mut offsets = FirstOffsets::default();
        for (&pair, &d) in &s.delta {
            self.table.unlink(pair);
            let before = self.table.count(pair);
            let after = (before as i64 + d) as u64;
            let first = if self.config.tie == TieRule::First && after > 0 {
                self.first_place(pair, chunks, &mut offsets)
            } else {
                0
            };
            let stat = self.table.entry(pair);
            stat.count = after;
            stat.first = first;
            self.table.relink(pair);
            self.last
                .changes
                .insert(pair, CountChange { before, after });
        }
        self.scratch = s;
        rewrites
    }

    /// Where `pair` first occurs now, given that only `changed` chunks moved.
    fn first_place(&self, pair: Pair, changed: &[u32], offsets: &mut FirstOffsets) -> u64 {
        let Some(stat) = self.table.get(pair) else {
            return 0;
        };
        let Some(&chunk) = stat.chunks.first() else {
            return 0;
        };
        let old_chunk = (stat.first >> 32) as u32;
        if stat.count > 0 && chunk == old_chunk && changed.binary_search(&chunk).is_err() {
            return stat.first;
        }
        let offset = offsets.find(chunk, &self.symbols[chunk as usize], &self.vocab, pair);
        (chunk as u64) << 32 | offset as u64
    }

    /// The tokens covering the corpus byte range `range`, in text order.
    /// In char mode the whitespace between words belongs to no token.
    pub fn segments(&self, range: Range<usize>) -> Vec<Segment> {
        let mut out = Vec::new();
        for occ in self.corpus.occurrences_in(range.clone()) {
            let mut pos = occ.start as usize;
            for (i, &id) in self.symbols[occ.chunk as usize].iter().enumerate() {
                let end = pos + self.vocab.corpus_len(id) as usize;
                let overlaps = end > range.start || (end == pos && pos >= range.start);
                if overlaps && pos < range.end {
                    out.push(Segment {
                        start: pos,
                        end,
                        id,
                        chunk_start: i == 0,
                    });
                }
                pos = end;
            }
        }
        out
    }

    /// A tokenizer with the merges made so far.
    pub fn tokenizer(&self) -> Tokenizer {
        Tokenizer::from_training(
            self.vocab.clone(),
            self.config.chunker(),
            self.config.tie,
            self.merges.clone(),
        )
    }
}

/// First unit offsets of pairs in long chunks, computed once per chunk.
#[derive(Default)]
struct FirstOffsets {
    by_chunk: FxHashMap<u32, FxHashMap<Pair, u32>>,
}

impl FirstOffsets {
    const SCAN_LIMIT: usize = 256;

    fn find(&mut self, chunk: u32, symbols: &[TokenId], vocab: &Vocab, pair: Pair) -> u32 {
        if symbols.len() <= Self::SCAN_LIMIT {
            return scan_first(symbols, vocab, pair);
        }
        let map = self.by_chunk.entry(chunk).or_insert_with(|| {
            let mut map = FxHashMap::default();
            let mut offset = 0u32;
            for w in symbols.windows(2) {
                map.entry((w[0], w[1])).or_insert(offset);
                offset += vocab.units(w[0]);
            }
            map
        });
        map.get(&pair).copied().unwrap_or(0)
    }
}

fn scan_first(symbols: &[TokenId], vocab: &Vocab, pair: Pair) -> u32 {
    let mut offset = 0u32;
    for w in symbols.windows(2) {
        if (w[0], w[1]) == pair {
            return offset;
        }
        offset += vocab.units(w[0]);
    }
    0
}

/// Walk two sorted pair lists and report each pair whose number of
/// occurrences differs, with both numbers.
fn for_each_count_difference(
    before: &[Pair],
    after: &[Pair],
    mut f: impl FnMut(Pair, usize, usize),
) {
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < after.len() {
        let pair = match (before.get(i), after.get(j)) {
            (Some(b), Some(a)) => *b.min(a),
            (Some(b), None) => *b,
            (None, Some(a)) => *a,
            (None, None) => break,
        };
        let mut b = 0;
        while before.get(i) == Some(&pair) {
            b += 1;
            i += 1;
        }
        let mut a = 0;
        while after.get(j) == Some(&pair) {
            a += 1;
            j += 1;
        }
        if a != b {
            f(pair, b, a);
        }
    }
}
