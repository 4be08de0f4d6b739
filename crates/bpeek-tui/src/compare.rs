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

use crate::app::{App, Loaded};
use crate::job::move_until;
use crate::mark::{Mark, PhaseName};
use crate::options::args::TrainingOptions;
use crate::options::compare::{MOST, differing};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::compare::{MergeBytes, first_difference, merges_as_bytes};
use bpeek_core::{Mode, Score, TieRule, Trainer};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::time::Instant;

/// One configuration of the comparison.
#[derive(Debug)]
pub struct Column {
    pub options: TrainingOptions,
    /// The options in which it differs from the other columns.
    pub title: String,
    /// Its corpus and trainer; `None` for the focused column, whose trainer
    /// is the app's own.
    pub loaded: Option<Loaded>,
}

#[derive(Debug)]
pub struct Comparison {
    pub columns: Vec<Column>,
    pub focused: usize,
    /// Where every column is taken (as far as each can go).
    pub target: Mark,
    /// Where the focused column stood after the last action: when it
    /// moves, the target moves with it.
    seen: Mark,
    /// Each column's merges as bytes, kept up to date with its trainer.
    pub lists: Vec<Vec<MergeBytes>>,
    /// The first rank where the lists part, among the ranks all reach.
    pub first: Option<usize>,
    /// How many times each column's list holds each merge: kept as the
    /// lists grow and shrink, so a step costs the same at merge 50 000 as
    /// at merge 5.
    holders: FxHashMap<MergeBytes, [u32; MOST]>,
    /// A job was taking the focused column somewhere at the last refresh:
    /// its target stays the comparison's when the focused column stops
    /// short of it.
    in_job: bool,
    /// Some column is still on its way to the target (a long move goes on
    /// between frames).
    pub behind: bool,
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
    fn new(options: TrainingOptions, mark: Mark, others: Vec<(TrainingOptions, Loaded)>) -> Self {
        let mut columns = vec![Column {
            options,
            title: String::new(),
            loaded: None,
        }];
        columns.extend(others.into_iter().map(|(options, loaded)| Column {
            options,
            title: String::new(),
            loaded: Some(loaded),
        }));
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
        };
        c.retitle();
        c
    }

    fn retitle(&mut self) {
        let options: Vec<TrainingOptions> =
            self.columns.iter().map(|c| c.options.clone()).collect();
        for (column, title) in self.columns.iter_mut().zip(differing(&options)) {
            // Narrow columns have no room for the dashes.
            let words: Vec<&str> = title.iter().map(|t| t.trim_start_matches("--")).collect();
            column.title = words.join(" ");
        }
    }

    /// Whether column `i`'s merge at `rank` is in no other column's list.
    pub fn alone(&self, i: usize, rank: usize) -> bool {
        let Some(m) = self.lists.get(i).and_then(|l| l.get(rank)) else {
            return false;
        };
        self.holders
            .get(m)
            .is_some_and(|counts| counts.iter().enumerate().all(|(j, &k)| (j == i) == (k > 0)))
    }

    /// Column `i`'s letter: `A`, `B`, ...
    pub fn name(i: usize) -> char {
        (b'A' + i as u8) as char
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

/// Start a comparison of the app's configuration with `others`, each
/// counted on the app's corpus (a server counts them once for every
/// session, as it counts the first).
pub fn start(app: &mut App, others: Vec<(TrainingOptions, Arc<Trainer>)>) {
    let others = others
        .into_iter()
        .map(|(o, t)| (o, Loaded::shared(t)))
        .collect();
    let mark = Mark::of(app.trainer());
    app.compare = Some(Comparison::new(app.options.clone(), mark, others));
    refresh(app, Instant::now() + crate::job::SLICE);
}

/// The configurations `--compare` names (each the command's `base`
/// options changed), counted on the corpus: the corpus's name, and each
/// configuration with its trainer, the first for the app itself. The
/// corpus is read once.
pub fn count_all(
    base: &TrainingOptions,
    given: &[String],
) -> Result<(String, Vec<(TrainingOptions, Trainer)>)> {
    let configs = crate::options::compare::configurations(base, given)?;
    for (g, o) in given.iter().zip(&configs) {
        crate::options::input::trainer_config(o)
            .map_err(|e| e.context(format!("--compare {}", bpeek_core::error::quoted(g))))?;
    }
    if !base.counts.is_empty() {
        return Err(Error::input(
            "--compare trains on a text: give a corpus, not --counts",
        ));
    }
    let (name, first) = crate::options::input::build_trainer(&configs[0])?;
    let text = first.corpus().text().to_vec();
    let mut out = vec![(configs[0].clone(), first)];
    for o in &configs[1..] {
        let config = crate::options::input::trainer_config(o)?;
        let t = crate::options::input::trainer_for_text(o, &name, text.clone(), config)?;
        out.push((o.clone(), t));
    }
    Ok((name, out))
}

/// The explorer comparing the configurations `--compare` names, the
/// first focused.
pub fn app(base: &TrainingOptions, given: &[String], theme: crate::theme::Theme) -> Result<App> {
    let (name, mut all) = count_all(base, given)?;
    let rest: Vec<_> = all.drain(1..).map(|(o, t)| (o, Arc::new(t))).collect();
    let (first_options, first) = all.pop().expect("two configurations at least");
    let mut app = App::from_built(&first_options, name, first, theme);
    start(&mut app, rest);
    Ok(app)
}

/// The explorer comparing the configurations `given` (each `base`
/// changed) on `text`, counted here, the first focused.
pub fn app_on_text(
    base: &TrainingOptions,
    given: &[String],
    name: &str,
    text: &[u8],
    theme: crate::theme::Theme,
) -> Result<App> {
    let configs = crate::options::compare::configurations(base, given)?;
    let mut built = Vec::with_capacity(configs.len());
    for (g, o) in given.iter().zip(&configs) {
        let config = crate::options::input::trainer_config(o)
            .map_err(|e| e.context(format!("--compare {}", bpeek_core::error::quoted(g))))?;
        let t = crate::options::input::trainer_for_text(o, name, text.to_vec(), config)?;
        built.push((o.clone(), Arc::new(t)));
    }
    let rest = built.split_off(1);
    let (first_options, first) = built.pop().expect("two configurations at least");
    let mut app = App::from_built(&first_options, name.to_string(), first, theme);
    start(&mut app, rest);
    Ok(app)
}

/// The app's corpus counted again with options `o`.
fn counted(app: &App, o: &TrainingOptions) -> Result<Loaded> {
    let trainer = app.trainer();
    if !trainer.corpus().has_text() {
        return Err(Error::input(
            "comparing configurations needs a corpus text, not counted chunks",
        ));
    }
    let config = crate::options::input::trainer_config(o)?;
    let text = trainer.corpus().text().to_vec();
    let t = crate::options::input::trainer_for_text(o, app.corpus_name(), text, config)?;
    Ok(Loaded::new(t))
}

/// Add a column: the focused configuration with one option changed.
pub fn add(app: &mut App, change: Change) {
    let count = app.compare.as_ref().map_or(1, |c| c.columns.len());
    if count >= MOST {
        app.notice = Some(format!(
            "a comparison holds {MOST} configurations at most (O drops the focused one)"
        ));
        return;
    }
    let options = match change.apply(&app.options) {
        Ok(o) => o,
        Err(why) => {
            app.notice = Some(format!("no column added: {why}"));
            return;
        }
    };
    let loaded = match counted(app, &options) {
        Ok(l) => l,
        Err(e) => {
            app.notice = Some(format!("no column added: {e}"));
            return;
        }
    };
    match app.compare.as_mut() {
        None => {
            let mark = Mark::of(app.trainer());
            app.compare = Some(Comparison::new(
                app.options.clone(),
                mark,
                vec![(options, loaded)],
            ));
        }
        Some(c) => {
            c.columns.push(Column {
                options,
                title: String::new(),
                loaded: Some(loaded),
            });
            c.lists.push(Vec::new());
            c.retitle();
        }
    }
    if let Some(c) = &app.compare {
        let n = c.columns.len() - 1;
        app.notice = Some(format!(
            "column {} added: {}",
            Comparison::name(n),
            c.columns[n].title
        ));
    }
    refresh(app, Instant::now() + crate::job::SLICE);
}

/// Drop the focused column; with one left, the comparison ends.
pub fn drop_focused(app: &mut App) {
    let Some(mut c) = app.compare.take() else {
        return;
    };
    let gone = c.focused;
    let next = if gone + 1 < c.columns.len() {
        gone + 1
    } else {
        gone - 1
    };
    let incoming = c.columns[next]
        .loaded
        .take()
        .expect("a column not focused has its trainer");
    let outgoing = std::mem::replace(app.loaded_mut(), incoming);
    app.options = c.columns[next].options.clone();
    c.columns.remove(gone);
    c.lists.remove(gone);
    for counts in c.holders.values_mut() {
        counts.copy_within(gone + 1.., gone);
        counts[MOST - 1] = 0;
    }
    c.holders.retain(|_, counts| counts.iter().any(|&k| k > 0));
    c.first = first_difference(&c.lists);
    c.focused = if next > gone { next - 1 } else { next };
    app.jobs
        .work
        .push(crate::job::Work::new(move || drop(outgoing)));
    app.notice = Some(format!("column {} dropped", Comparison::name(gone)));
    if c.columns.len() > 1 {
        c.retitle();
        c.seen = Mark::of(app.trainer());
        app.compare = Some(c);
        refresh(app, Instant::now() + crate::job::SLICE);
    }
    app.scroll.corpus = Default::default();
}

/// Focus column `to`: its trainer becomes the app's own.
pub fn focus(app: &mut App, to: usize) {
    let Some(mut c) = app.compare.take() else {
        return;
    };
    if to != c.focused && to < c.columns.len() {
        let incoming = c.columns[to]
            .loaded
            .take()
            .expect("a column not focused has its trainer");
        let outgoing = std::mem::replace(app.loaded_mut(), incoming);
        c.columns[c.focused].loaded = Some(outgoing);
        c.focused = to;
        c.seen = Mark::of(app.trainer());
        app.options = c.columns[to].options.clone();
        app.scroll.corpus = Default::default();
        app.scroll.merge_cursor = None;
        app.scroll.pairs = 0;
    }
    app.compare = Some(c);
}

/// A step asked for while the focused column can go no further: the
/// others go on, if any can. True if the step was taken this way.
pub fn step_past_focused(app: &mut App) -> bool {
    if app.training_end().is_none() {
        return false;
    }
    let Some(c) = app.compare.as_ref() else {
        return false;
    };
    let target = c.target.merges;
    let any_goes_on = (0..c.columns.len())
        .filter(|&i| i != c.focused)
        .filter_map(|i| trainer_of(app, i))
        .any(|t| t.merges().len() >= target && can_go_on(t));
    if !any_goes_on {
        return false;
    }
    let c = app.compare.as_mut().expect("checked above");
    c.target = Mark {
        merges: target + 1,
        phase: Some(PhaseName::Merged),
    };
    true
}

/// An undo asked for while the target is past the focused column (which
/// stopped): the others step back first. True if it was taken this way.
pub fn undo_past_focused(app: &mut App) -> bool {
    let here = app.trainer().merges().len();
    let Some(c) = app.compare.as_mut() else {
        return false;
    };
    if c.target.merges <= here {
        return false;
    }
    c.target = Mark {
        merges: c.target.merges - 1,
        phase: Some(PhaseName::Merged),
    };
    true
}

fn can_go_on(t: &Trainer) -> bool {
    t.stop_reason().is_none()
        && match t.phase() {
            bpeek_core::Phase::Chosen(_) => true,
            _ => t.peek_choice().is_ok(),
        }
}

/// After every action: move the target with the focused column (or to
/// where a job takes it), move the other columns toward it until
/// `deadline`, and bring the merge lists and their differences up to date.
pub fn refresh(app: &mut App, deadline: Instant) {
    let Some(mut c) = app.compare.take() else {
        return;
    };
    let here = Mark::of(app.trainer());
    let job_target = app.jobs.current.as_ref().and_then(|j| j.target);
    if let Some(t) = job_target {
        c.target = t;
        c.in_job = true;
    } else if c.in_job {
        c.in_job = false;
    } else if here != c.seen {
        c.target = here;
    }
    c.seen = here;
    let mut behind = false;
    for (i, column) in c.columns.iter_mut().enumerate() {
        if i == c.focused {
            continue;
        }
        if let Some(loaded) = column.loaded.as_mut() {
            let trainer = Arc::make_mut(&mut loaded.trainer);
            if !move_until(trainer, c.target, deadline) {
                behind = true;
            }
        }
    }
    c.behind = behind;
    // The lowest rank any list changed at: the first difference below it
    // stands.
    let mut lowest = usize::MAX;
    for i in 0..c.columns.len() {
        let trainer = if i == c.focused {
            app.trainer()
        } else {
            match c.columns[i].loaded.as_ref() {
                Some(l) => &*l.trainer,
                None => continue,
            }
        };
        let n = trainer.merges().len();
        let list = &mut c.lists[i];
        if list.len() == n {
            continue;
        }
        lowest = lowest.min(n.min(list.len()));
        if list.len() > n {
            for m in list.drain(n..) {
                if let Some(counts) = c.holders.get_mut(&m) {
                    counts[i] -= 1;
                    if counts.iter().all(|&k| k == 0) {
                        c.holders.remove(&m);
                    }
                }
            }
        } else {
            let from = list.len();
            for m in merges_as_bytes(trainer, from) {
                c.holders.entry(m.clone()).or_default()[i] += 1;
                list.push(m);
            }
        }
    }
    let stands = c.first.is_some_and(|r| r < lowest);
    if lowest != usize::MAX && !stands {
        c.first = first_difference(&c.lists);
    }
    app.compare = Some(c);
}
