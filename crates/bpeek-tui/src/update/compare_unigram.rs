//! The Unigram columns of a comparison, after every action: each asked
//! for the BPE columns' vocabulary size, a finished run taken in, a new
//! run started on another thread (or, in a class, taken from the session
//! that trained it).

use crate::app::App;
use crate::class::{ColumnClaim, ColumnKey};
use crate::compare::{ColumnTrainer, Comparison};
use crate::compare_unigram::size_of_bpe;

/// The size the Unigram columns follow: column A's vocabulary (the
/// leftmost BPE column), as the status line counts it.
pub(super) fn bpe_size(app: &App, c: &Comparison) -> usize {
    let Some(i) = c.columns.iter().position(|col| !col.is_unigram()) else {
        return 0;
    };
    let column = &c.columns[i];
    let trainer = match (&column.loaded, i == c.focused) {
        (_, true) => app.trainer(),
        (Some(l), false) => &l.trainer,
        (None, false) => return 0,
    };
    size_of_bpe(trainer, &column.options)
}

/// Bring every Unigram column on toward `size`; true while one of them
/// trains elsewhere (its thread, or another session of the class).
pub(super) fn refresh_unigram(
    app: &mut App,
    c: &mut Comparison,
    size: usize,
    bpe_moving: bool,
) -> bool {
    // While a go-to or the BPE columns are on their way, the size is not
    // the one they stop at: no run starts for a size passed on the way.
    let settled = !bpe_moving && app.jobs.current.is_none();
    let mut elsewhere = false;
    let mut started = Vec::new();
    for column in c.columns.iter_mut() {
        let Some(u) = column.unigram.as_mut() else {
            continue;
        };
        u.want(size);
        let key = unigram_key(app, &column.options, u.wanted);
        if let Some(shown) = u.collect()
            && let (Some((k, _)), Some(class)) = (column.claim.take(), app.classroom.as_ref())
        {
            // Trained for the class too: the others take it.
            class.link.keep_column(k, &ColumnTrainer::Unigram(shown));
        }
        if u.ready() || u.refused.is_some() {
            column.claim = None;
            continue;
        }
        if u.training() {
            u.cancel_stale();
            elsewhere = true;
            continue;
        }
        if !settled {
            elsewhere = true;
            continue;
        }
        if let (Some(k), Some(class)) = (key, app.classroom.as_ref()) {
            // Never waited for here: a busy claim is looked at again.
            match class.link.claim_column(&k, None) {
                ColumnClaim::Kept(ColumnTrainer::Unigram(t)) => {
                    u.take(t);
                    column.claim = None;
                    continue;
                }
                ColumnClaim::Busy => {
                    column.claim = None;
                    elsewhere = true;
                    continue;
                }
                ColumnClaim::Yours(hold) => column.claim = Some((k, hold)),
                // A key names one kind of column: never met.
                ColumnClaim::Kept(ColumnTrainer::Bpe(_)) => {}
            }
        }
        if let Some(work) = u.start() {
            started.push(work);
            elsewhere = true;
        }
    }
    app.jobs.work.extend(started);
    elsewhere
}

/// The class's name for a Unigram column trained to `size` on the app's
/// corpus, where the class may share it.
fn unigram_key(
    app: &App,
    options: &crate::options::args::TrainingOptions,
    size: usize,
) -> Option<ColumnKey> {
    app.classroom.as_ref()?;
    let corpus = app.corpus_name();
    if super::training::is_typed(corpus) {
        return None;
    }
    let mut options = options.clone();
    options.vocab_size = Some(size);
    Some(ColumnKey {
        corpus: corpus.to_string(),
        options,
        at: None,
    })
}
