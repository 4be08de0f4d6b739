//! Configurations side by side in the explorer (`bpeek tui --compare`):
//! one corpus, one column per configuration, every column moved to the
//! same point of training.
//!
//! The focused column's trainer is the app's own ([`App::loaded`]), so the
//! corpus pane, the encode box and every training key work on it as they
//! do without a comparison; the other columns follow it to the
//! comparison's target after each action. A column that can go no further
//! stays where it stopped while the others go on, and a step with the
//! focused column stopped moves the target on for the rest.
//!
//! This is the comparison's state; what changes it is in
//! `update/compare.rs`, reached through [`crate::Action`]s.

use crate::app::{App, Loaded};
use crate::class::ColumnKey;
use crate::class::columns::ClaimHold;
pub use crate::compare_unigram::UnigramColumn;
use crate::mark::Mark;
use crate::options::args::TrainingOptions;
use crate::options::compare::{MOST, differing, is_unigram};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::compare::MergeBytes;
use bpeek_core::train::unigram::UnigramTrainer;
use bpeek_core::{Mode, Score, TieRule, Trainer};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One configuration of the comparison.
#[derive(Debug)]
pub struct Column {
    pub options: TrainingOptions,
    /// The options in which it differs from the other columns.
    pub title: String,
    /// The same, one option a part (`tie lex`), so a narrow column can
    /// break its title between options, never inside one.
    pub parts: Vec<String>,
    /// Its corpus and trainer; `None` for the focused column, whose trainer
    /// is the app's own.
    pub loaded: Option<Loaded>,
    /// In a class: the claim this session holds on taking the column to
    /// a target for the class (while it moves there, others wait for it).
    pub(crate) claim: Option<(ColumnKey, ClaimHold)>,
    /// A Unigram column's runs; `None` for a BPE column.
    pub unigram: Option<UnigramColumn>,
    /// Its cut of the encode box's text.
    pub cut: crate::compare_cuts::EncodeCut,
}

impl Column {
    fn new(
        options: TrainingOptions,
        loaded: Option<Loaded>,
        unigram: Option<UnigramColumn>,
    ) -> Self {
        Column {
            options,
            title: String::new(),
            parts: Vec::new(),
            loaded,
            claim: None,
            unigram,
            cut: Default::default(),
        }
    }

    /// A BPE column, on its trainer (`None`: the app's own).
    pub(crate) fn bpe(options: TrainingOptions, loaded: Option<Loaded>) -> Self {
        Column::new(options, loaded, None)
    }

    /// A column of either kind, from its trainer as handed over.
    pub(crate) fn of(options: TrainingOptions, trainer: ColumnTrainer) -> Self {
        match trainer {
            ColumnTrainer::Bpe(t) => Column::bpe(options, Some(Loaded::shared(t))),
            ColumnTrainer::Unigram(t) => {
                let u = UnigramColumn::new(&options, t);
                Column::new(options, None, Some(u))
            }
        }
    }

    pub fn is_unigram(&self) -> bool {
        self.unigram.is_some()
    }
}

#[derive(Debug)]
pub struct Comparison {
    pub columns: Vec<Column>,
    pub focused: usize,
    /// Where every column is taken (as far as each can go).
    pub target: Mark,
    /// Where the focused column stood after the last action: when it
    /// moves, the target moves with it.
    pub(crate) seen: Mark,
    /// Each column's merges as bytes, kept up to date with its trainer.
    pub lists: Vec<Vec<MergeBytes>>,
    /// The first rank where the lists part, among the ranks all reach.
    pub first: Option<usize>,
    /// How many times each column's list holds each merge: kept as the
    /// lists grow and shrink, so a step costs the same at merge 50 000 as
    /// at merge 5.
    pub(crate) holders: FxHashMap<MergeBytes, [u32; MOST]>,
    /// A job was taking the focused column somewhere at the last refresh:
    /// its target stays the comparison's when the focused column stops
    /// short of it.
    pub(crate) in_job: bool,
    /// Some column is still on its way to the target (a long move goes on
    /// between frames).
    pub behind: bool,
    /// Every column still on its way waits for another session of the
    /// class to take its configuration there: looked at now and then, not
    /// moved here.
    pub waiting: bool,
}

/// The changes the add-a-column prompt offers, each of one option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Pretok,
    Tie,
    Digits,
    Mode,
    Score,
}

impl Change {
    /// The focused column's options with this one option changed to its
    /// next value.
    pub fn apply(self, o: &TrainingOptions) -> std::result::Result<TrainingOptions, &'static str> {
        let mut o = o.clone();
        let next = |names: &[&'static str], now: &str| {
            let i = names.iter().position(|n| *n == now).unwrap_or(0);
            names[(i + 1) % names.len()]
        };
        match self {
            Change::Pretok | Change::Digits if o.mode == Mode::Char => {
                return Err("char mode has no pre-tokenizer or digit rule to change");
            }
            Change::Pretok => {
                let now = o.pretok.unwrap_or_default();
                o.pretok =
                    bpeek_core::Pretok::parse(next(bpeek_core::Pretok::NAMES, now.name())).ok();
            }
            Change::Digits => {
                o.digits =
                    bpeek_core::Digits::parse(next(bpeek_core::Digits::NAMES, o.digits.name()))
                        .unwrap_or_default();
            }
            Change::Tie => {
                o.tie = TieRule::parse(next(TieRule::NAMES, o.tie.name())).unwrap_or_default();
            }
            Change::Mode => {
                o.mode = match o.mode {
                    Mode::Byte => Mode::Char,
                    Mode::Char => Mode::Byte,
                };
                if o.mode == Mode::Char {
                    o.pretok = None;
                    o.digits = Default::default();
                }
            }
            Change::Score => {
                o.score = match o.score {
                    Score::Count => Score::WordPiece,
                    Score::WordPiece => Score::Count,
                };
            }
        }
        Ok(o)
    }
}

impl Comparison {
    /// A comparison of the app's own trainer (trained with `options`)
    /// with the `others`, each already counted on the same corpus.
    pub(crate) fn new(options: TrainingOptions, mark: Mark, others: Vec<Column>) -> Self {
        let mut columns = vec![Column::bpe(options, None)];
        columns.extend(others);
        let mut c = Comparison {
            lists: vec![Vec::new(); columns.len()],
            holders: FxHashMap::default(),
            columns,
            focused: 0,
            target: mark,
            seen: mark,
            first: None,
            in_job: false,
            behind: false,
            waiting: false,
        };
        c.retitle();
        c
    }

    pub(crate) fn retitle(&mut self) {
        let options: Vec<TrainingOptions> =
            self.columns.iter().map(|c| c.options.clone()).collect();
        for (column, title) in self.columns.iter_mut().zip(differing(&options)) {
            // Narrow columns have no room for the dashes.
            let words: Vec<String> = title
                .iter()
                .map(|t| t.trim_start_matches("--").to_string())
                .collect();
            column.title = words.join(" ");
            column.parts = words;
        }
    }

    /// Whether column `i`'s merge at `rank` is in no other column's list.
    pub fn alone(&self, i: usize, rank: usize) -> bool {
        // With one BPE column there is no other list to miss it.
        if self.bpe_count() < 2 {
            return false;
        }
        let Some(m) = self.lists.get(i).and_then(|l| l.get(rank)) else {
            return false;
        };
        self.holders
            .get(m)
            .is_some_and(|counts| counts.iter().enumerate().all(|(j, &k)| (j == i) == (k > 0)))
    }

    /// How many columns are BPE ones (the others are Unigram columns).
    pub fn bpe_count(&self) -> usize {
        self.columns.iter().filter(|c| !c.is_unigram()).count()
    }

    /// Column `i`'s letter: `A`, `B`, ...
    pub fn name(i: usize) -> char {
        (b'A' + i as u8) as char
    }
}

/// A column's trainer as it is handed over and as a class shares it: a
/// BPE trainer, or a Unigram one (seeded, or trained to a size).
#[derive(Debug, Clone)]
pub enum ColumnTrainer {
    Bpe(Arc<Trainer>),
    Unigram(Arc<UnigramTrainer>),
}

impl ColumnTrainer {
    /// The very same trainer.
    pub fn same(&self, other: &ColumnTrainer) -> bool {
        match (self, other) {
            (ColumnTrainer::Bpe(a), ColumnTrainer::Bpe(b)) => Arc::ptr_eq(a, b),
            (ColumnTrainer::Unigram(a), ColumnTrainer::Unigram(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl From<Arc<Trainer>> for ColumnTrainer {
    fn from(t: Arc<Trainer>) -> Self {
        ColumnTrainer::Bpe(t)
    }
}

/// Configurations already trained on the app's corpus, each with its
/// options, for [`crate::Action::Compare`] (a server trains them once for
/// every session, as it trains the first).
#[derive(Clone)]
pub struct Trained(pub Vec<(TrainingOptions, ColumnTrainer)>);

impl PartialEq for Trained {
    /// The same options and the very same trainers.
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|((a, s), (b, t))| a == b && s.same(t))
    }
}

impl Eq for Trained {}

impl std::fmt::Debug for Trained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Trained({} configurations)", self.0.len())
    }
}

/// Column `i`'s trainer: the app's own for the focused column.
pub fn trainer_of(app: &App, i: usize) -> Option<&Trainer> {
    let c = app.compare.as_ref()?;
    if i == c.focused {
        return Some(app.trainer());
    }
    Some(&c.columns.get(i)?.loaded.as_ref()?.trainer)
}

/// What [`count_all`] gives: the corpus's name, the first configuration
/// with its trainer, and the other columns.
pub type Counted = (
    String,
    (TrainingOptions, Trainer),
    Vec<(TrainingOptions, ColumnTrainer)>,
);

/// The configurations `--compare` names (each the command's `base`
/// options changed), counted on the corpus: the corpus's name, the first
/// configuration (the app's own) with its trainer, and the others (a
/// Unigram one seeded). The corpus is read once.
pub fn count_all(base: &TrainingOptions, given: &[String]) -> Result<Counted> {
    let configs = crate::options::compare::configurations(base, given)?;
    for (g, o) in given.iter().zip(&configs) {
        let place = || format!("--compare {}", bpeek_core::error::quoted(g));
        if is_unigram(o) {
            continue;
        }
        crate::options::input::trainer_config(o).map_err(|e| e.context(place()))?;
    }
    if is_unigram(&configs[0]) {
        return Err(first_is_unigram(&given[0]));
    }
    if !base.counts.is_empty() {
        return Err(Error::input(
            "--compare trains on a text: give a corpus, not --counts",
        ));
    }
    let (name, first) = crate::options::input::build_trainer(&configs[0])?;
    let text = first.corpus().text().to_vec();
    let rest = columns_on_text(&configs[1..], &name, &text)?;
    Ok((name, (configs[0].clone(), first), rest))
}

/// The first `--compare` is the configuration the explorer steps; a
/// Unigram column follows a BPE one.
pub fn first_is_unigram(given: &str) -> Error {
    Error::input(format!(
        "--compare {}: the first configuration is the one the explorer steps, and a Unigram column follows the BPE columns' vocabulary size; give a BPE configuration first (\"\" for the command's own)",
        bpeek_core::error::quoted(given)
    ))
}

/// The configurations `configs` on the corpus `text`: BPE ones counted,
/// Unigram ones seeded (each trains to its size once on screen).
pub fn columns_on_text(
    configs: &[TrainingOptions],
    name: &str,
    text: &[u8],
) -> Result<Vec<(TrainingOptions, ColumnTrainer)>> {
    let mut out = Vec::with_capacity(configs.len());
    for o in configs {
        let trainer = if is_unigram(o) {
            ColumnTrainer::Unigram(Arc::new(crate::compare_unigram::seeded(o, name, text)?))
        } else {
            let config = crate::options::input::trainer_config(o)?;
            let t = crate::options::input::trainer_for_text(o, name, text.to_vec(), config)?;
            ColumnTrainer::Bpe(Arc::new(t))
        };
        out.push((o.clone(), trainer));
    }
    Ok(out)
}
