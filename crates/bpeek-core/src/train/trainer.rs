//! The step-wise training state machine.
//!
//! A round has three visible phases: the pairs are counted, a winner is
//! chosen (with the rivals it tied with), the merge is applied (and the table
//! knows which counts rose, fell, appeared or vanished). The trainer is driven
//! from outside one phase or one merge at a time, and can step back and seek.
//!
//! Counts are live: after the first full count, a merge visits only the
//! places where the winning pair occurs, and at each one only the windows
//! around it change: `(prev, a)` and `(b, next)` lose one, `(prev, ab)` and
//! `(ab, next)` gain one, `(a, b)` itself is gone. The cost of a merge is
//! its number of replacements, however long the chunks are. The changes are
//! gathered by neighbour token, so the pair table is touched once per
//! neighbour, not once per place. Each pair keeps every place it occurs,
//! overlaps included (`a a a a` holds `a a` at three places; replacing left
//! to right takes the first and the third), and the chain says which of
//! them are still current. Undoing a merge replays the same window changes
//! backwards from the places it replaced, so it is exact too.

use crate::encoder::Tokenizer;
use crate::error::Result;
use crate::names::{Mode, Score, TieRule};
use crate::pretokenize::pretok::{Chunker, Digits, Pretok};
use crate::train::chain::{Chain, END, NONE};
use crate::train::corpus::Corpus;
use crate::train::first_count::count_pairs;
use crate::train::packed::{Ahead, Packed};
use crate::train::pairs::{PairTable, WindowBatch};
use crate::train::wordpiece_score::{self, WordPieceScore};
use crate::vocab::Vocab;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

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
    /// The longest token training may make: what the files it is written
    /// to accept back (bpeek's own, or the smaller bound of HF and rank
    /// files).
    pub max_token_bytes: usize,
    /// Keep where each chunk occurrence sits in the text, for showing the
    /// corpus ([`Trainer::segments`]). Headless training goes without: on
    /// prose that list is about twice the size of the text.
    pub text_positions: bool,
    /// Cut each line (with its `\n`) on its own, so that no chunk spans a
    /// line break, as Hugging Face's `train([file])` does.
    pub by_line: bool,
    /// Keep what each merge replaced, so that stepping back is quick.
    /// Headless training never steps back and goes without; stepping back
    /// then counts afresh and replays.
    pub keep_history: bool,
    /// What decides the winner: the count, or WordPiece's score.
    pub score: Score,
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
            max_token_bytes: crate::formats::limits::MAX_TOKEN_BYTES,
            text_positions: true,
            by_line: false,
            keep_history: true,
            score: Score::Count,
        }
    }
}

pub use crate::merge::Merge;

pub use crate::train::choice::{Choice, PairScore, RIVALS_LISTED, StopReason};

/// How a round's winner is chosen, as the config's [`Score`] names it: by
/// the pair table's own order (the count, then the tie rule), or by
/// WordPiece's score, which keeps the tokens' counts beside the table.
#[derive(Debug, Clone)]
enum Scoring {
    Count,
    /// Boxed: the order it keeps is several maps.
    WordPiece(Box<WordPieceScore>),
}

/// How many tied rivals a kept [`Choice`] remembers for each merge.
pub const RIVALS_KEPT: usize = 3;

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

pub use crate::train::pairs::CountChange;

/// A row of the pair table for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRow {
    pub pair: Pair,
    pub count: u64,
    pub change: Option<CountChange>,
    /// With WordPiece's score, the pair's score now.
    pub score: Option<PairScore>,
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
    /// Every count the last merge moved, as the table settled them (a pair
    /// taken out and made afresh comes twice, the later standing): a list,
    /// since headless training never asks and a map cost a hash insert for
    /// each of them.
    changes: Vec<(Pair, CountChange)>,
    /// The same by pair, made the first time one is asked for.
    by_pair: OnceLock<FxHashMap<Pair, CountChange>>,
    /// After an undo, the id and bytes of the token it took away: the pairs
    /// that vanished with it still name it.
    undone: Option<(TokenId, Vec<u8>)>,
}

impl LastMerge {
    fn changes_by_pair(&self) -> &FxHashMap<Pair, CountChange> {
        self.by_pair
            .get_or_init(|| self.changes.iter().copied().collect())
    }
}

#[derive(Debug, Clone)]
pub struct Trainer {
    config: TrainerConfig,
    /// Never changed once counted, so clones share it: every student of a
    /// class steps through the same corpus.
    corpus: Arc<Corpus>,
    vocab: Vocab,
    chain: Chain,
    table: PairTable,
    /// Every round made, in rank order: the one stack a step pushes and a
    /// step back pops (the vocabulary's merged tokens follow it).
    rounds: Vec<Round>,
    phase: Phase,
    last: LastMerge,
    stop: Option<StopReason>,
    tokens: u64,
    /// How a round's winner is chosen (see [`Scoring`]).
    scoring: Scoring,
    /// Scratch space for the window changes of a merge or undo, by the
    /// token on the left and on the right of the rewritten places.
    batch: Box<[WindowBatch; 2]>,
}

/// One round of training as it was made: the merge, the choice that made
/// it (rivals cut to [`RIVALS_KEPT`], so a merge made long ago can still say
/// why it won), and where it replaced (with a history kept). A round reads
/// as its [`Merge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub merge: Merge,
    pub choice: Choice,
    replaced: Replaced,
}

impl std::ops::Deref for Round {
    type Target = Merge;

    fn deref(&self) -> &Merge {
        &self.merge
    }
}

/// Where one merge replaced its pair (ascending positions of the left
/// halves) and the chunks it changed (ascending); empty without a history.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Replaced {
    positions: Packed,
    chunks: Vec<u32>,
}

/// The way a seek goes from the merges made to the merges wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekPlan {
    /// Already there (at most a chosen pair is put back).
    Stay,
    /// Step forward.
    Forward,
    /// Undo merges back.
    Undo,
    /// Count afresh at merge 0, then step forward.
    Replay,
}

/// How much more a replacement costs than counting one position afresh,
/// for choosing between undoing back and recounting then replaying.
const REPLACEMENT_COST: u64 = 16;

/// How many places ahead a merge asks for the chain cells it will read.
const PREFETCH: usize = 48;

/// Lay the base symbols of every chunk of `corpus` out in `chain`, in the
/// room it has.
fn lay_out(chain: &mut Chain, corpus: &Corpus, vocab: &Vocab) {
    let n = corpus.chunks().len();
    match vocab.mode() {
        Mode::Byte => {
            let positions = corpus.chunks().iter().map(|c| c.len as usize + 1).sum();
            let bytes = |i| corpus.chunk_bytes(i).iter().map(|&b| b as TokenId);
            chain.fill(positions, (0..n).map(bytes));
        }
        Mode::Char => {
            let word = |i| std::str::from_utf8(corpus.chunk_bytes(i)).unwrap_or_default();
            // Each symbol (each character, and `</w>` unless the symbols
            // are WordPiece's) and the end mark.
            let positions = (0..n)
                .map(|i| word(i).chars().count() + 2 - vocab.has_continuing() as usize)
                .sum();
            chain.fill(positions, (0..n).map(|i| vocab.word_symbols(word(i))));
        }
    }
}

/// The chunk of each of a run of positions walked in order, and its
/// frequency, kept while the run stays in one chunk.
#[derive(Default)]
struct ChunkCursor {
    chunk: u32,
    span: Range<u32>,
    freq: u64,
}

impl ChunkCursor {
    #[inline]
    fn find(&mut self, pos: u32, chain: &Chain, corpus: &Corpus) -> (u32, u64) {
        if !self.span.contains(&pos) {
            self.chunk = chain.chunk_of(pos);
            self.span = chain.chunk_span(self.chunk);
            self.freq = corpus.chunks()[self.chunk as usize].freq;
        }
        (self.chunk, self.freq)
    }
}

impl Trainer {
    /// Cut `text` into chunks and count every pair: the `Counted` phase of
    /// round 0.
    pub fn new(text: Vec<u8>, config: TrainerConfig) -> Result<Self> {
        let corpus = Corpus::new(
            text,
            config.mode,
            config.chunker(),
            config.text_positions,
            config.by_line,
        )?;
        Self::from_corpus(corpus, config)
    }

    /// [`Trainer::new`] on a corpus already counted, made with the mode,
    /// chunker and line rule of `config` (by [`Corpus::count_stream`], say).
    pub fn from_corpus(corpus: Corpus, config: TrainerConfig) -> Result<Self> {
        let positions: usize = corpus.chunks().iter().map(|c| c.len as usize + 2).sum();
        if positions >= u32::MAX as usize {
            return Err(crate::error::Error::input(
                "corpus has too many distinct chunk bytes (over 4 GiB)",
            ));
        }
        let vocab = match config.mode {
            Mode::Byte => Vocab::bytes(),
            Mode::Char if config.score == Score::WordPiece => {
                let words = (0..corpus.chunks().len())
                    .map(|i| std::str::from_utf8(corpus.chunk_bytes(i)).unwrap_or_default());
                Vocab::wordpiece_chars(words)
            }
            Mode::Char => {
                let text = std::str::from_utf8(corpus.text()).unwrap_or_default();
                Vocab::chars(text.chars().filter(|c| !c.is_whitespace()))
            }
        };
        // Laid out by the count below, once.
        let chain = Chain::default();
        let mut trainer = Trainer {
            table: PairTable::new(config.tie),
            config,
            corpus: Arc::new(corpus),
            vocab,
            chain,
            rounds: Vec::new(),
            phase: Phase::Counted,
            last: LastMerge::default(),
            stop: None,
            tokens: 0,
            scoring: Scoring::Count,
            batch: Box::default(),
        };
        trainer.recount();
        Ok(trainer)
    }

    /// Back to merge 0 with a full count from the base symbols.
    fn recount(&mut self) {
        // What the merges made goes before the count makes its own.
        self.table = PairTable::new(self.config.tie);
        self.rounds.clear();
        lay_out(&mut self.chain, &self.corpus, &self.vocab);
        self.vocab.truncate_merges(0);
        self.phase = Phase::Counted;
        self.last = LastMerge::default();
        self.stop = None;
        let (counts, tokens) = count_pairs(&self.chain, &self.corpus);
        self.table = PairTable::from_counts(self.config.tie, counts);
        self.tokens = tokens;
        self.scoring = match self.config.score {
            Score::Count => Scoring::Count,
            Score::WordPiece => Scoring::WordPiece(Box::new(WordPieceScore::of(
                &self.chain,
                &self.corpus,
                &mut self.table,
                self.config.min_count,
            ))),
        };
    }

    /// Change the merge budget (e.g. once a target vocabulary size can be
    /// turned into a number of merges).
    pub fn set_max_token_bytes(&mut self, max: usize) {
        self.config.max_token_bytes = max;
    }

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

    /// The merges made, in rank order, each a [`Round`] that also keeps
    /// the choice that made it.
    pub fn merges(&self) -> &[Round] {
        &self.rounds
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
    pub fn chunk_symbols(&self, i: usize) -> Vec<TokenId> {
        self.chain.tokens(i as u32, &self.vocab)
    }

    /// Where in the text (a byte offset) the round first stands: the
    /// chosen pair's first place in the chosen phase, the last merge's
    /// first replacement in the merged phase (with a history kept). A
    /// chunk's places are those of its first appearance, which is also the
    /// first place in the text of any chunk holding them, since chunks are
    /// numbered in the order they first appear.
    pub fn first_place(&self) -> Option<usize> {
        let pos = match &self.phase {
            Phase::Chosen(choice) => self.table.get(choice.pair)?.first,
            Phase::Merged => self.rounds.last()?.replaced.positions.first()?,
            Phase::Counted => return None,
        };
        let c = self.chain.chunk_of(pos);
        let start = self.corpus.chunks()[c as usize].start as usize;
        Some(match self.config.mode {
            // A chunk's positions are its bytes.
            Mode::Byte => start + (pos - self.chain.chunk_range(c).start) as usize,
            Mode::Char => start,
        })
    }

    /// Every place where `pair` stands now, as (chunk, byte offset in the
    /// chunk), ascending; overlapping places (`a a a`) each count. In char
    /// mode, where positions are not bytes, one place per chunk, at 0.
    pub fn places_of_pair(&self, pair: Pair) -> Vec<(u32, u32)> {
        let Some(stat) = self.table.get(pair) else {
            return Vec::new();
        };
        let standing = stat
            .places()
            .filter(|&p| self.chain.pair_at(p, &self.vocab) == Some(pair));
        self.in_chunks(standing.collect())
    }

    /// Every place merge `rank` replaced, as [`Trainer::places_of_pair`]
    /// gives them (none without a history).
    pub fn places_of_merge(&self, rank: usize) -> Vec<(u32, u32)> {
        self.rounds.get(rank).map_or_else(Vec::new, |r| {
            self.in_chunks(r.replaced.positions.iter().collect())
        })
    }

    fn in_chunks(&self, mut positions: Vec<u32>) -> Vec<(u32, u32)> {
        positions.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(positions.len());
        for p in positions {
            let chunk = self.chain.chunk_of(p);
            let place = match self.config.mode {
                Mode::Byte => (chunk, p - self.chain.chunk_range(chunk).start),
                Mode::Char => (chunk, 0),
            };
            if out.last() != Some(&place) {
                out.push(place);
            }
        }
        out
    }

    /// The distinct chunks that hold `pair` now, ascending.
    pub fn chunks_holding(&self, pair: Pair) -> Vec<u32> {
        let Some(stat) = self.table.get(pair) else {
            return Vec::new();
        };
        let mut places: Vec<u32> = stat.places().collect();
        if !places.is_sorted() {
            places.sort_unstable();
        }
        let mut chunks: Vec<u32> = Vec::new();
        for p in places {
            if self.chain.pair_at(p, &self.vocab) == Some(pair) {
                let chunk = self.chain.chunk_of(p);
                if chunks.last() != Some(&chunk) {
                    chunks.push(chunk);
                }
            }
        }
        chunks
    }

    /// The chunks that merge `rank` changed.
    pub fn chunks_changed_by(&self, rank: usize) -> &[u32] {
        self.rounds
            .get(rank)
            .map_or(&[], |r| r.replaced.chunks.as_slice())
    }

    /// The choice that made merge `rank`: its count, the next best count,
    /// its tied rivals (at most [`RIVALS_KEPT`] listed) and where it was met
    /// first.
    pub fn choice_of(&self, rank: usize) -> Option<&Choice> {
        self.rounds.get(rank).map(|r| &r.choice)
    }

    /// How `pair`'s count moved in the last merge, if it did.
    pub fn change_of(&self, pair: Pair) -> Option<CountChange> {
        self.last.changes_by_pair().get(&pair).copied()
    }

    /// The bytes of token `id`, also for the token the last undo took away
    /// (the pairs that vanished with it name it); empty for any other id
    /// outside the vocabulary.
    pub fn token_bytes(&self, id: TokenId) -> &[u8] {
        if self.vocab.contains(id) {
            return self.vocab.token_bytes(id);
        }
        match &self.last.undone {
            Some((undone, bytes)) if *undone == id => bytes,
            _ => &[],
        }
    }

    /// Every pair whose count the last merge changed, the vanished included.
    pub fn last_changes(&self) -> impl Iterator<Item = (Pair, CountChange)> + '_ {
        self.last.changes_by_pair().iter().map(|(p, c)| (*p, *c))
    }

    /// The first `k` rows of the pair table in selection order: by count,
    /// or with WordPiece's score by score, so that the first row is always
    /// the pair that merges next.
    pub fn top_pairs(&self, k: usize) -> Vec<PairRow> {
        if let Scoring::WordPiece(wp) = &self.scoring {
            return wordpiece_score::top(wp, k)
                .into_iter()
                .map(|(pair, score)| PairRow {
                    pair,
                    count: score.count,
                    change: self.change_of(pair),
                    score: Some(score),
                })
                .collect();
        }
        self.table
            .iter()
            .take(k)
            .map(|(pair, count)| PairRow {
                pair,
                count,
                change: self.change_of(pair),
                score: None,
            })
            .collect()
    }

    /// The 0-based place of each of `pairs` in the order of
    /// [`Trainer::top_pairs`] (`None` for a pair not counted now).
    pub fn ranks_of(&self, pairs: &[Pair]) -> Vec<Option<usize>> {
        if let Scoring::WordPiece(wp) = &self.scoring {
            return wordpiece_score::ranks(wp, pairs);
        }
        let wanted: rustc_hash::FxHashSet<Pair> = pairs.iter().copied().collect();
        let at: FxHashMap<Pair, usize> = self
            .table
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| wanted.contains(p))
            .map(|(i, (p, _))| (p, i))
            .collect();
        pairs.iter().map(|p| at.get(p).copied()).collect()
    }

    /// With WordPiece's score, `pair`'s score now (`None` without the
    /// score, or for a pair not counted now).
    pub fn pair_score(&self, pair: Pair) -> Option<PairScore> {
        let Scoring::WordPiece(wp) = &self.scoring else {
            return None;
        };
        let count = self.table.count(pair);
        (count > 0).then(|| wp.score_of(pair, count))
    }

    /// The pair that would win now and everything tied with it, or why
    /// training has to stop.
    pub fn peek_choice(&self) -> std::result::Result<Choice, StopReason> {
        self.choose(RIVALS_LISTED)
    }

    /// [`Trainer::peek_choice`], listing at most `listed` tied rivals: a
    /// step that applies its choice at once keeps [`RIVALS_KEPT`] of them,
    /// and walking the order for more costs a good part of a late round.
    fn choose(&self, listed: usize) -> std::result::Result<Choice, StopReason> {
        if let Some(max) = self.config.max_merges
            && self.rounds.len() >= max
        {
            return Err(StopReason::Budget);
        }
        if let Scoring::WordPiece(wp) = &self.scoring {
            return self.choose_by_score(wp, listed);
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
        let bytes = self.vocab.token_bytes(pair.0).len() + self.vocab.token_bytes(pair.1).len();
        if bytes > self.config.max_token_bytes {
            return Err(StopReason::TokenTooLong {
                bytes,
                max: self.config.max_token_bytes,
            });
        }
        let ties = self.table.ties_with_best(listed);
        Ok(Choice {
            pair,
            count,
            rivals: ties.rivals,
            rivals_total: ties.total,
            next_best: ties.next_best,
            first_chunk: self.table.get(pair).map(|s| self.chain.chunk_of(s.first)),
            score: None,
            most_frequent: None,
        })
    }

    /// How often token `id` stands in the corpus as it is now cut (kept
    /// with WordPiece's score only; 0 otherwise).
    pub fn symbol_count(&self, id: TokenId) -> u64 {
        match &self.scoring {
            Scoring::WordPiece(wp) => wp.count(id),
            Scoring::Count => 0,
        }
    }

    /// The winner by WordPiece's score, from what this trainer holds.
    fn choose_by_score(
        &self,
        wp: &WordPieceScore,
        listed: usize,
    ) -> std::result::Result<Choice, StopReason> {
        let token_len = |id| self.token_bytes(id).len();
        let chunk_of = |pair| self.table.get(pair).map(|s| self.chain.chunk_of(s.first));
        wordpiece_score::choose(
            wp,
            &wordpiece_score::Round {
                table: &self.table,
                min_count: self.config.min_count,
                max_token_bytes: self.config.max_token_bytes,
                token_len: &token_len,
                chunk_of: &chunk_of,
                listed,
            },
        )
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
                self.apply(choice);
                Ok(())
            }
            Phase::Merged => Ok(()),
        }
    }

    /// Finish the current round: choose (unless chosen) and apply one merge.
    pub fn step(&mut self) -> std::result::Result<&Merge, StopReason> {
        let choice = match std::mem::replace(&mut self.phase, Phase::Counted) {
            Phase::Chosen(choice) => choice,
            _ => match self.choose(RIVALS_KEPT) {
                Ok(choice) => choice,
                Err(reason) => {
                    self.stop = Some(reason);
                    return Err(reason);
                }
            },
        };
        self.apply(choice);
        Ok(self.rounds.last().expect("a merge was just applied"))
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
        if !self.config.keep_history {
            // Nothing kept to step back with: count afresh and replay.
            let Some(n) = self.rounds.len().checked_sub(1) else {
                self.phase = Phase::Counted;
                return false;
            };
            self.recount();
            while self.rounds.len() < n && self.step().is_ok() {}
            self.stop = None;
            self.phase = Phase::Counted;
            return true;
        }
        let Some(Round {
            merge, replaced, ..
        }) = self.rounds.pop()
        else {
            self.phase = Phase::Counted;
            return false;
        };
        let (a, b) = merge.pair;
        let id = merge.id;
        let (ua, ub) = (self.vocab.units(a), self.vocab.units(b));
        let [left, right] = &mut *self.batch;
        let mut chunk = ChunkCursor::default();
        // Right to left, the mirror of the merge: each replacement's
        // neighbours are as the merge left them.
        for (i, ahead) in Ahead::<_, PREFETCH>::new(replaced.positions.iter_rev()) {
            if let Some(ahead) = ahead {
                self.chain.prefetch(ahead.saturating_sub(2));
                self.chain.prefetch(ahead + 3);
                self.chain.prefetch_chunk_of(ahead);
            }
            let (j, n) = (i + ua, i + ua + ub);
            let (_, freq) = chunk.find(i, &self.chain, &self.corpus);
            let p = self.chain.left(i);
            if p != NONE {
                // (x, ab) at p becomes (x, a).
                left.record(self.chain.at(p), p, freq, true);
            }
            let after = self.chain.at(n);
            if after != END {
                // (ab, y) at i becomes (b, y) at j.
                right.record(after, j, freq, true);
            }
            self.chain.split(i, j, n, a, b);
        }
        let table = &mut self.table;
        left.drain(|x, weight, places| {
            let lowest = places.first().unwrap_or_default();
            table.lose((x, id), weight, places.len() as u32, lowest);
            table.gain((x, a), weight, places);
        });
        right.drain(|y, weight, places| {
            let lowest = places.first().unwrap_or_default() - ua;
            table.lose((id, y), weight, places.len() as u32, lowest);
            table.gain((b, y), weight, places);
        });
        table.gain(merge.pair, merge.replacements, replaced.positions);
        self.settle();
        self.last.undone = Some((id, self.vocab.token_bytes(id).to_vec()));
        self.vocab.pop_merge();
        self.tokens += merge.replacements;
        if let Scoring::WordPiece(wp) = &mut self.scoring {
            wp.unmerged(merge.pair, merge.id, merge.replacements, &mut self.table);
        }
        self.phase = Phase::Counted;
        true
    }

    /// [`Trainer::undo`], leaving the pair changes that the steps forward
    /// showed at the state it reaches: those of the merge now last (none
    /// at merge 0), not the undo's own, so a screen drawn after a step back
    /// is the one drawn there on the way forward. Taking back a choice
    /// changes no counts.
    pub fn step_back(&mut self) -> bool {
        let chosen = matches!(self.phase, Phase::Chosen(_));
        if !self.undo() {
            return false;
        }
        if !chosen {
            self.show_last_merge_again();
        }
        true
    }

    /// Make the last merge again, so its changes are the ones shown.
    fn show_last_merge_again(&mut self) {
        if !self.config.keep_history {
            // The undo replayed from merge 0: its last step left them.
            return;
        }
        let Some(choice) = self.rounds.last().map(|r| r.choice.clone()) else {
            self.last = LastMerge::default();
            return;
        };
        self.undo();
        self.apply(choice);
        self.phase = Phase::Counted;
    }

    /// Go to the state after exactly `n` merges (or as far as training can
    /// go), in the `merged` phase if `n > 0`. Returns the merge count reached.
    ///
    /// Going back, it undoes merges or recounts from merge 0 and replays,
    /// whichever touches fewer places: the replacements to undo, against a
    /// fresh count of every position plus the replacements to redo.
    pub fn seek(&mut self, n: usize) -> usize {
        if n < self.rounds.len() && self.replay_is_cheaper(n) {
            self.recount();
        }
        while self.rounds.len() > n {
            self.undo();
        }
        self.stop = None;
        if matches!(self.phase, Phase::Chosen(_)) {
            self.phase = Phase::Counted;
        }
        while self.rounds.len() < n {
            if self.step().is_err() {
                break;
            }
        }
        self.rounds.len()
    }

    /// How [`Trainer::seek`] would go to merge `n` from here, so a caller
    /// can do the same work a part at a time (a replay starts from a fresh
    /// count at merge 0, then steps).
    pub fn seek_plan(&self, n: usize) -> SeekPlan {
        let here = self.rounds.len();
        if n > here {
            SeekPlan::Forward
        } else if n == here {
            SeekPlan::Stay
        } else if self.replay_is_cheaper(n) {
            SeekPlan::Replay
        } else {
            SeekPlan::Undo
        }
    }

    fn replay_is_cheaper(&self, n: usize) -> bool {
        if !self.config.keep_history {
            return true;
        }
        let replacements = |rounds: &[Round]| {
            rounds
                .iter()
                .map(|r| r.replaced.positions.len() as u64)
                .sum::<u64>()
        };
        let undo = replacements(&self.rounds[n..]) * REPLACEMENT_COST;
        let replay = self.chain.len() as u64 + replacements(&self.rounds[..n]) * REPLACEMENT_COST;
        replay < undo
    }

    fn settle(&mut self) {
        self.last.undone = None;
        self.last.by_pair = OnceLock::new();
        self.table
            .settle(&mut self.last.changes, &self.chain, &self.vocab);
    }

    /// Apply the merge of `pair`, counted `count` times, as the next rank:
    /// left to right at each place it occurs, skipping the places an earlier
    /// replacement has taken (the overlaps).
    fn apply(&mut self, mut choice: Choice) {
        let (pair, count) = (choice.pair, choice.count);
        choice.rivals.truncate(RIVALS_KEPT);
        // Kept for every merge: without its spare room.
        choice.rivals.shrink_to_fit();
        // Every place goes: the ones skipped as overlaps (`a a a`) are the
        // right halves of replacements.
        let places = self.table.take(pair);
        let id = self.vocab.push_merge(pair);
        let (a, b) = pair;
        let (ua, ub) = (self.vocab.units(a), self.vocab.units(b));
        let keep = self.config.keep_history;
        let mut replaced = Replaced::default();
        let mut replacements = 0u64;
        let [left, right] = &mut *self.batch;
        let mut chunk = ChunkCursor::default();
        // The weight, number and lowest of the places of (b, a) that go
        // before a replacement that follows straight on.
        let mut chained = (0u64, 0u32, u32::MAX);
        for (i, ahead) in Ahead::<_, PREFETCH>::new(places.iter()) {
            if let Some(ahead) = ahead {
                // The cells before and after are read too (the tokens on
                // either side).
                self.chain.prefetch(ahead.saturating_sub(2));
                self.chain.prefetch(ahead + 3);
                self.chain.prefetch_chunk_of(ahead);
            }
            if self.chain.at(i) != a || self.chain.at(i + ua) != b {
                continue;
            }
            let (j, n) = (i + ua, i + ua + ub);
            let (chunk, freq) = chunk.find(i, &self.chain, &self.corpus);
            let p = self.chain.left(i);
            if p != NONE {
                // (x, a) at p becomes (x, ab).
                left.record(self.chain.at(p), p, freq, false);
            }
            let after = self.chain.at(n);
            if after == a && self.chain.at(n + ua) == b {
                // The next replacement is at `n`: (b, a) at j goes, and
                // (ab, a) at i would go with it, so it is not recorded (a
                // run of the pair would leave its list all gone places).
                chained.0 += freq;
                chained.1 += 1;
                chained.2 = chained.2.min(j);
            } else if after != END {
                // (b, y) at j becomes (ab, y) at i.
                right.record(after, i, freq, false);
            }
            self.chain.join(i, j, n, id);
            if keep {
                replaced.positions.push(i);
                if replaced.chunks.last() != Some(&chunk) {
                    replaced.chunks.push(chunk);
                }
            }
            replacements += freq;
        }
        // The pair merged is out of the table already: windows of it that
        // overlapped a replacement (`a a a`) are not taken out again.
        let table = &mut self.table;
        left.drain(|x, weight, places| {
            // A new token on the left is a replacement followed straight
            // on: its (ab, a) was never counted.
            if (x, a) != pair && x != id {
                let lowest = places.first().unwrap_or_default();
                table.lose((x, a), weight, places.len() as u32, lowest);
            }
            table.gain((x, id), weight, places);
        });
        if chained.1 > 0 && (b, a) != pair {
            table.lose((b, a), chained.0, chained.1, chained.2);
        }
        right.drain(|y, weight, places| {
            if (b, y) != pair {
                let lowest = places.first().unwrap_or_default() + ua;
                table.lose((b, y), weight, places.len() as u32, lowest);
            }
            table.gain((id, y), weight, places);
        });
        self.settle();
        self.tokens -= replacements;
        if let Scoring::WordPiece(wp) = &mut self.scoring {
            wp.merged(pair, id, replacements, &mut self.table);
        }
        let merge = Merge {
            rank: self.rounds.len(),
            pair,
            id,
            count,
            replacements,
        };
        self.rounds.push(Round {
            merge,
            choice,
            replaced,
        });
        self.phase = Phase::Merged;
    }

    /// The tokens covering the corpus byte range `range`, in text order.
    /// In char mode the whitespace between words belongs to no token.
    ///
    /// In byte mode a chunk's positions are its bytes, so the walk starts at
    /// the token covering `range.start`: the cost follows the range, not the
    /// length of the chunks it falls in.
    pub fn segments(&self, range: Range<usize>) -> Vec<Segment> {
        let mut out = Vec::new();
        for occ in self.corpus.occurrences_in(range.clone()) {
            let c = occ.chunk;
            let first = self.chain.chunk_range(c).start;
            let (from, mut pos) = match self.config.mode {
                Mode::Byte => {
                    let len = self.corpus.chunks()[c as usize].len as usize;
                    let offset = range.start.saturating_sub(occ.start as usize);
                    let from = self
                        .chain
                        .owner(first + offset.min(len.saturating_sub(1)) as u32);
                    (from, occ.start as usize + (from - first) as usize)
                }
                Mode::Char => (first, occ.start as usize),
            };
            for (at, id) in self.chain.tokens_from(from, &self.vocab) {
                let end = pos + self.vocab.corpus_len(id) as usize;
                // A token that covers no text (char mode's `</w>`) belongs
                // where it stands, the very end of the range included.
                let empty = end == pos;
                if pos > range.end || (pos == range.end && !empty) {
                    break;
                }
                let overlaps = end > range.start || (empty && pos >= range.start);
                if overlaps {
                    out.push(Segment {
                        start: pos,
                        end,
                        id,
                        chunk_start: at == first,
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
            self.rounds.iter().map(|r| r.merge.clone()).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rolls;
    use crate::train::pairs::Ties;

    /// The winner's ties as a walk over every pair in selection order
    /// finds them: the rivals listed, how many, and the next count.
    fn walked(table: &PairTable, count: u64) -> Ties {
        let mut ties = Ties::default();
        for (p, c) in table.iter().skip(1) {
            if c != count {
                ties.next_best = Some(c);
                break;
            }
            if ties.rivals.len() < RIVALS_LISTED {
                ties.rivals.push(p);
            }
            ties.total += 1;
        }
        ties
    }

    /// Texts of few letters tie thousands of pairs at low counts, where
    /// the table keeps some counts in unsorted buckets: at every round of
    /// training, for every tie rule, the ties counted without a walk are
    /// those the walk finds.
    #[test]
    fn the_winners_ties_are_those_a_walk_over_every_pair_finds() {
        let mut roll = rolls(0x7135);
        for tie in [TieRule::First, TieRule::Lex, TieRule::Hf] {
            for round in 0..6 {
                let letters = 2 + roll(20) as u8;
                let text: Vec<u8> = (0..2000 + roll(6000))
                    .map(|_| match roll(8) {
                        0 => b' ',
                        1 => b'\n',
                        _ => b'a' + roll(u64::from(letters)) as u8,
                    })
                    .collect();
                let config = TrainerConfig {
                    tie,
                    by_line: round % 2 == 0,
                    pretok: if round % 3 == 0 {
                        Pretok::None
                    } else {
                        Pretok::Gpt2
                    },
                    text_positions: false,
                    keep_history: false,
                    ..TrainerConfig::default()
                };
                let mut t = Trainer::new(text, config).unwrap();
                let mut merges = 0;
                while let Some((_, count)) = t.table.best() {
                    let ties = t.table.ties_with_best(RIVALS_LISTED);
                    assert_eq!(
                        ties,
                        walked(&t.table, count),
                        "{tie} round {round} merge {merges}"
                    );
                    if t.step().is_err() {
                        break;
                    }
                    merges += 1;
                }
                assert!(merges > 100, "{merges}");
            }
        }
    }
}
