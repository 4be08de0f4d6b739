//! How far the long action under way has got, in words: merges made or
//! undone of how many, bytes read, or how long the count has run.

use crate::app::App;
use crate::job::{Away, Job, Run, Stage};

/// The line the footer (or the opening screen) shows for the job under
/// way, if there is one.
pub fn text(app: &App) -> Option<String> {
    let job = app.jobs.current.as_ref()?;
    let dots = app.theme.glyphs.ellipsis;
    let how = match &job.run {
        Run::Here { target } => {
            let here = app.trainer().merges().len();
            let total = job.from.abs_diff(target.merges);
            let done = job.from.abs_diff(here).min(total);
            let verb = if target.merges >= job.from {
                "made"
            } else {
                "undone"
            };
            format!("{done} of {total} merges {verb}")
        }
        Run::Steps { target } => {
            let here = app
                .unigram
                .as_ref()
                .map_or(job.from, |u| u.trainer.step_count());
            let total = job.from.abs_diff(*target);
            let done = job.from.abs_diff(here).min(total);
            let verb = if *target >= job.from {
                "made"
            } else {
                "undone"
            };
            format!("{done} of {total} steps {verb}")
        }
        Run::Replay(away) | Run::Open(away) => away_text(job, away),
    };
    Some(format!("{}: {how}{dots}", job.what))
}

fn away_text(job: &Job, away: &Away) -> String {
    let (done, total) = away.progress.counts();
    let seconds = away.started.elapsed().as_secs();
    match away.progress.stage() {
        // A device, a pipe or a FIFO has no size to read towards.
        Stage::Reading if total == 0 && done == 0 => format!("waiting for input ({seconds} s)"),
        Stage::Reading if total == 0 => format!("read {:.1} MB", done as f64 / 1e6),
        Stage::Reading => format!(
            "read {:.1} of {:.1} MB",
            done as f64 / 1e6,
            total as f64 / 1e6
        ),
        Stage::Counting if job.is_opening() => {
            format!("cutting into chunks and counting pairs ({seconds} s)")
        }
        Stage::Counting => format!("counting pairs afresh at merge 0 ({seconds} s)"),
        Stage::Replaying => format!("merge {done} of {total} made again from merge 0"),
    }
}
