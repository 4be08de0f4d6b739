//! Lessons: their steps forward and back, and the commands they run.

use super::*;

/// Run the lesson's next step.
pub(super) fn lesson_next(app: &mut App) {
    let Some(lesson) = app.lesson.as_mut() else {
        return;
    };
    let next = lesson.at.map_or(0, |i| i + 1);
    if next >= lesson.steps.len() {
        app.notice = Some("end of the lesson (Left goes back)".into());
        return;
    }
    let before = lesson.at;
    lesson.at = Some(next);
    let command = lesson.steps[next].command.clone();
    app.autoplay.on = false;
    let origin = here(app);
    let what = format!("lesson step {}", next + 1);
    run_lesson_script(app, vec![command], what, Some(origin), Some(before));
}

/// Back one lesson step: the steps up to it run again from merge 0, so
/// the screen is what it was when the class first saw it.
pub(super) fn lesson_back(app: &mut App) {
    let Some(lesson) = app.lesson.as_mut() else {
        return;
    };
    let Some(at) = lesson.at else {
        app.notice = Some("at the start of the lesson".into());
        return;
    };
    let back = at.checked_sub(1);
    lesson.at = back;
    let shown = &lesson.steps[..back.map_or(0, |b| b + 1)];
    let commands = if app.unigram.is_some() {
        // A Unigram step back restores the step's pieces exactly: going
        // straight to the last step shown gives the same screen, without
        // running every EM iteration again from the seeding.
        let last = shown.iter().rev().find(|s| s.command.target().is_some());
        vec![last.map_or(lesson::Command::Step(0), |s| s.command.clone())]
    } else {
        let mut commands = vec![lesson::Command::Step(0)];
        commands.extend(shown.iter().map(|s| s.command.clone()));
        commands
    };
    app.autoplay.on = false;
    let origin = here(app);
    let what = match back {
        Some(b) => format!("lesson: back to step {}", b + 1),
        None => "lesson: back to the start".to_string(),
    };
    run_lesson_script(app, commands, what, Some(origin), Some(Some(at)));
}

/// Run lesson commands in order; a go-to among them becomes a job that
/// runs the rest once it is there. `origin` and `lesson_at` are where Esc
/// takes training and the lesson back to.
pub(super) fn run_lesson_script(
    app: &mut App,
    commands: Vec<lesson::Command>,
    what: String,
    origin: Option<Mark>,
    lesson_at: Option<Option<usize>>,
) {
    let mut rest = commands.into_iter();
    while let Some(command) = rest.next() {
        let Some(target) = command.target() else {
            run_lesson_command(app, &command);
            continue;
        };
        let (mut job, work) = match &app.unigram {
            Some(u) => {
                let from = u.trainer.step_count();
                let back_to = origin.map(|o| o.merges);
                (Job::unigram_steps(from, target.merges, what, back_to), None)
            }
            None => Job::seek(app.trainer(), target, what, origin),
        };
        job.then = rest.collect();
        job.lesson_at = lesson_at;
        start_job(app, job, work);
        return;
    }
}

/// Where training stands, as a lesson's go-to marks it: the merges made,
/// or in Unigram mode the steps.
fn here(app: &App) -> Mark {
    match &app.unigram {
        Some(u) => Mark::seek(u.trainer.step_count()),
        None => Mark::of(app.trainer()),
    }
}

pub(super) fn run_lesson_command(app: &mut App, command: &lesson::Command) {
    match command {
        lesson::Command::Step(n) | lesson::Command::StepTo(n, _) => goto(app, *n),
        lesson::Command::Phase(want) => {
            // At most two phases on: counted -> chosen -> merged.
            for _ in 0..2 {
                if crate::mark::PhaseName::of(app.trainer().phase()) == *want {
                    break;
                }
                if *want == lesson::PhaseName::Counted
                    && matches!(app.trainer().phase(), Phase::Chosen(_))
                {
                    app.trainer_mut().undo();
                    break;
                }
                if let Err(reason) = app.trainer_mut().advance() {
                    app.notice = Some(format!("training stopped: {reason}"));
                    break;
                }
            }
        }
        lesson::Command::Say => {}
    }
}
