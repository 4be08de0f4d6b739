//! The compare columns: every change to a comparison, from the actions
//! that add, drop and focus columns to the refresh after every action that
//! takes the other columns where the focused one went.

use crate::action::Action;
use crate::app::{App, InputMode, Loaded};
use crate::class::{ColumnClaim, ColumnKey};
use crate::compare::{Change, Column, ColumnTrainer, Comparison, Trained, trainer_of};
use crate::job::move_until;
use crate::mark::{Mark, PhaseName};
use crate::options::args::TrainingOptions;
use crate::options::compare::MOST;
use bpeek_core::Trainer;
use bpeek_core::error::{Error, Result};
use bpeek_core::train::compare::{MergeBytes, first_difference, merges_as_bytes};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The compare columns.
pub(super) fn update_compare(app: &mut App, action: Action) {
    match action {
        Action::FocusColumn(next) => focus_column(app, next),
        // A full comparison says so at the first key, not after the second.
        Action::OpenAddColumn if full(app) => app.notice = Some(full_notice()),
        Action::OpenAddColumn => app.input = InputMode::AddColumn,
        Action::AddColumn(change) => {
            app.input = InputMode::Normal;
            add(app, change);
        }
        Action::DropColumn => drop_focused(app),
        Action::Compare(others) => start(app, others),
        // The refresh after every action moves the columns on.
        Action::CompareMore => {}
        other => unreachable!("not a compare action: {other:?}"),
    }
}

/// Training keys the comparison answers itself: a step or undo past a
/// focused column that stopped moves the others; a change of corpus is
/// not one a comparison can make. True if it took the action.
pub(super) fn compare_first(app: &mut App, action: &Action) -> bool {
    match action {
        Action::Step | Action::Tick if step_past_focused(app) => true,
        Action::Undo if undo_past_focused(app) => true,
        Action::NextCorpus | Action::PrevCorpus | Action::TrainOnTyped => {
            app.notice = Some(
                "every column trains on this corpus: start bpeek again with another corpus file (bpeek tui FILE) to compare on it"
                    .into(),
            );
            true
        }
        _ => false,
    }
}

/// Focus the next (or previous) BPE column: a Unigram column follows
/// them and is never the explorer's own.
fn focus_column(app: &mut App, next: bool) {
    let Some(c) = app.compare.as_ref() else {
        return;
    };
    let n = c.columns.len();
    let to = (1..n)
        .map(|k| {
            if next {
                (c.focused + k) % n
            } else {
                (c.focused + n - k) % n
            }
        })
        .find(|&i| !c.columns[i].is_unigram());
    match to {
        Some(to) => focus(app, to),
        None => app.notice = Some(UNIGRAM_NOT_FOCUSED.into()),
    }
}

/// Why the focus never goes to a Unigram column.
const UNIGRAM_NOT_FOCUSED: &str = "a Unigram column follows the BPE columns' vocabulary size and takes no training keys; the focus stays on a BPE column";

/// Start comparing the app's configuration with `others`, each trained on
/// the app's corpus.
fn start(app: &mut App, others: Trained) {
    let others = others
        .0
        .into_iter()
        .map(|(o, t)| Column::of(o, t))
        .collect();
    let mark = Mark::of(app.trainer());
    app.compare = Some(Comparison::new(app.options.clone(), mark, others));
    refresh(app, Instant::now() + crate::job::SLICE);
}

/// The longest a session waits for another to count a column it adds
/// too; past it, it counts the column itself.
const COUNT_WAIT: Duration = Duration::from_secs(30);

/// The app's corpus counted again with options `o`.
fn counted(app: &App, o: &TrainingOptions) -> Result<Loaded> {
    let trainer = app.trainer();
    if !trainer.corpus().has_text() {
        return Err(Error::input(
            "comparing configurations needs a corpus text, not counted chunks",
        ));
    }
    let key = column_key(app, o, None);
    let link = app.classroom.as_ref().map(|c| &c.link);
    // Held while counting: students adding the same column at once wait
    // for the first instead of counting it too.
    let _claim = match key.as_ref().zip(link) {
        Some((k, l)) => match l.claim_column(k, Some(COUNT_WAIT)) {
            ColumnClaim::Kept(ColumnTrainer::Bpe(counted)) => return Ok(Loaded::shared(counted)),
            // A key names one kind of column: never met.
            ColumnClaim::Kept(ColumnTrainer::Unigram(_)) => None,
            ColumnClaim::Yours(hold) => Some(hold),
            ColumnClaim::Busy => None,
        },
        None => None,
    };
    let config = crate::options::input::trainer_config(o)?;
    let text = trainer.corpus().text().to_vec();
    let t = crate::options::input::trainer_for_text(o, app.corpus_name(), text, config)?;
    let loaded = Loaded::new(t);
    if let (Some(k), Some(l)) = (key, link) {
        l.keep_column(k, &ColumnTrainer::Bpe(Arc::clone(&loaded.trainer)));
    }
    Ok(loaded)
}

/// The class's name for a column of `options` at `at` on the app's corpus,
/// where the class may share it: in a class, on one of the server's own
/// corpora (a typed one's text differs from session to session).
fn column_key(app: &App, options: &TrainingOptions, at: Option<Mark>) -> Option<ColumnKey> {
    app.classroom.as_ref()?;
    let corpus = app.corpus_name();
    if super::training::is_typed(corpus) {
        return None;
    }
    Some(ColumnKey {
        corpus: corpus.to_string(),
        options: options.clone(),
        at,
    })
}

/// Whether `trainer` stands at `target` (a target without a phase: at its
/// merge, in any phase). A false "no" costs one copy of a shared trainer.
fn stands_at(trainer: &Trainer, target: Mark) -> bool {
    let here = Mark::of(trainer);
    here == target || (target.phase.is_none() && here.merges == target.merges)
}

/// Add a column: the focused configuration with one option changed.
/// Whether the comparison holds as many columns as it can.
fn full(app: &App) -> bool {
    app.compare.as_ref().map_or(1, |c| c.columns.len()) >= MOST
}

fn full_notice() -> String {
    format!("a comparison holds {MOST} configurations at most (O drops the focused one)")
}

pub(super) fn add(app: &mut App, change: Change) {
    if full(app) {
        app.notice = Some(full_notice());
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
                vec![Column::bpe(options, Some(loaded))],
            ));
        }
        Some(c) => {
            c.columns.push(Column::bpe(options, Some(loaded)));
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
pub(super) fn drop_focused(app: &mut App) {
    let Some(mut c) = app.compare.take() else {
        return;
    };
    let gone = c.focused;
    // The nearest BPE column takes the focus: after it, else before.
    let bpe = |i: &usize| !c.columns[*i].is_unigram();
    let Some(next) = (gone + 1..c.columns.len())
        .find(bpe)
        .or_else(|| (0..gone).rev().find(bpe))
    else {
        app.notice = Some(
            "O drops the focused column, and the Unigram columns follow it: it is the last BPE column"
                .into(),
        );
        app.compare = Some(c);
        return;
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
    c.first = first_difference(&bpe_lists(&c));
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
pub(super) fn focus(app: &mut App, to: usize) {
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
pub(super) fn step_past_focused(app: &mut App) -> bool {
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
pub(super) fn undo_past_focused(app: &mut App) -> bool {
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
pub(super) fn refresh(app: &mut App, deadline: Instant) {
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
    let mut waiting = false;
    let link = app.classroom.as_ref().map(|class| &class.link);
    for (i, column) in c.columns.iter_mut().enumerate() {
        if i == c.focused {
            continue;
        }
        let Some(loaded) = column.loaded.as_mut() else {
            continue;
        };
        let key = column_key(app, &column.options, Some(c.target));
        let mine = column.claim.as_ref().map(|(k, _)| k) == key.as_ref();
        if stands_at(&loaded.trainer, c.target) {
            // There already (a key that moves every column took it): a
            // claim on taking it there is answered, and any other claim
            // dropped, so that no other session waits on it for ever.
            if let (Some((k, _)), Some(l), true) = (column.claim.take(), link, mine) {
                l.keep_column(k, &ColumnTrainer::Bpe(Arc::clone(&loaded.trainer)));
            }
            continue;
        }
        if !mine {
            // A claim on another place is given up: this column goes
            // elsewhere now.
            column.claim = None;
        }
        // Another session of the class took this configuration there
        // already (its trainer is shown, none trained again), or is taking
        // it there now (this one waits for it, behind meanwhile).
        if let (Some(k), Some(l), false) = (key.as_ref(), link, mine) {
            match l.claim_column(k, None) {
                ColumnClaim::Kept(ColumnTrainer::Bpe(there)) => {
                    loaded.trainer = there;
                    column.claim = None;
                    continue;
                }
                // A key names one kind of column: never met.
                ColumnClaim::Kept(ColumnTrainer::Unigram(_)) => continue,
                ColumnClaim::Busy => {
                    waiting = true;
                    continue;
                }
                ColumnClaim::Yours(hold) => column.claim = Some((k.clone(), hold)),
            }
        }
        let trainer = Arc::make_mut(&mut loaded.trainer);
        if !move_until(trainer, c.target, deadline) {
            behind = true;
        } else if let (Some(k), Some(l)) = (key, link) {
            l.keep_column(k, &ColumnTrainer::Bpe(Arc::clone(&loaded.trainer)));
            column.claim = None;
        }
    }
    // Unigram columns train on other threads (or wait for the class):
    // looked at now and then, and woken when a run ends.
    let size = super::compare_unigram::bpe_size(app, &c);
    let elsewhere = super::compare_unigram::refresh_unigram(app, &mut c, size, behind || waiting);
    let waiting = waiting || elsewhere;
    c.behind = behind || waiting;
    c.waiting = waiting && !behind;
    update_lists(app, &mut c);
    update_cuts(app, &mut c);
    app.compare = Some(c);
}

/// Bring the BPE columns' merge lists, the merges each holds and the first
/// difference up to date with their trainers.
fn update_lists(app: &App, c: &mut Comparison) {
    // The lowest rank any list changed at: the first difference below it
    // stands.
    let mut lowest = usize::MAX;
    for i in 0..c.columns.len() {
        if c.columns[i].is_unigram() {
            continue;
        }
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
    // A list shorter than the first difference (a column just added, or
    // one waiting for the class) puts it in question too.
    let shortest = bpe_lists(c).iter().map(|l| l.len()).min().unwrap_or(0);
    let stale = c.first.is_some_and(|r| r >= shortest);
    let stands = c.first.is_some_and(|r| r < lowest) && !stale;
    if (lowest != usize::MAX || stale) && !stands {
        c.first = first_difference(&bpe_lists(c));
    }
}

/// The BPE columns' merge lists: a Unigram column has no merges, and its
/// empty list is not compared.
fn bpe_lists(c: &Comparison) -> Vec<&[MergeBytes]> {
    c.lists
        .iter()
        .zip(&c.columns)
        .filter(|(_, column)| !column.is_unigram())
        .map(|(l, _)| l.as_slice())
        .collect()
}

/// Each column's cut of the encode box's text, worked out again where the
/// text or the column's training moved.
fn update_cuts(app: &App, c: &mut Comparison) {
    let text = app.encode.text.as_str();
    for i in 0..c.columns.len() {
        if text.is_empty() {
            c.columns[i].cut.clear();
            continue;
        }
        let theme = &app.theme;
        if let Some(u) = c.columns[i].unigram.as_ref() {
            let shown = Arc::clone(&u.shown);
            // A finished run at a size is the same run whoever trained it;
            // the seeds (never shown finished) stand apart.
            let finished = u64::from(shown.stop_reason().is_some()) << 63;
            let state = shown.config().vocab_size as u64 | finished;
            c.columns[i].cut.update(
                text,
                state,
                || {
                    let v = bpeek_core::train::unigram::UnigramVocabulary::of(&shown).ok()?;
                    bpeek_core::formats::unigram_json::tokenizer(&v, "unigram").ok()
                },
                |b| crate::panes::rows::word_label(b, theme, false),
            );
            continue;
        }
        let held;
        let trainer = match (i == c.focused, c.columns[i].loaded.as_ref()) {
            (true, _) => app.trainer(),
            (false, Some(l)) => {
                held = Arc::clone(&l.trainer);
                &*held
            }
            (false, None) => continue,
        };
        let char_mode = trainer.config().mode == bpeek_core::Mode::Char;
        let state = trainer.merges().len() as u64;
        c.columns[i].cut.update(
            text,
            state,
            || Some(trainer.tokenizer()),
            |b| crate::panes::rows::word_label(b, theme, char_mode),
        );
    }
}
