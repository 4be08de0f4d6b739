//! `bpeek bench --tui --compare ... --compare ...`: configurations side by
//! side at 80x24, on the bundled corpus and on the bench's text. A step
//! is every column moved to the next merge (a slice at a time between
//! frames, as the loop runs it); it is set against the first
//! configuration stepping alone. Printed, never asserted.

use crate::bench::explorer::{counting_terminal, report};
use crate::bench::figures::{self, put};
use bpeek_core::corpora;
use bpeek_core::error::Result;
use bpeek_tui::action::Action;
use bpeek_tui::app::App;
use bpeek_tui::options::args::TrainingOptions;
use bpeek_tui::runner::draw;
use bpeek_tui::theme::Theme;
use bpeek_tui::update::update;
use std::time::{Duration, Instant};

pub fn run(
    source: &str,
    text: &[u8],
    base: &TrainingOptions,
    given: &[String],
    merges: usize,
) -> Result<()> {
    let bundled = corpora::default_corpus();
    let texts = [
        ("bundled", bundled.name, bundled.text.as_bytes()),
        ("text", source, text),
    ];
    for (key, name, text) in texts {
        crate::say!(
            "{} configurations side by side on {name}, {:.1} MB, 80x24, up to {merges} merges:",
            given.len(),
            text.len() as f64 / 1e6
        );
        // Each configuration stepping alone: the slowest of them is as
        // fast as all of them together can be.
        let configs = bpeek_tui::options::compare::configurations(base, given)?;
        if let Some(i) = configs
            .iter()
            .position(bpeek_tui::options::compare::is_unigram)
        {
            return Err(bpeek_core::error::Error::input(format!(
                "--compare {}: the side-by-side benchmark times BPE columns stepping; a Unigram column trains on another thread",
                bpeek_core::error::quoted(&given[i])
            )));
        }
        let mut alone = Vec::with_capacity(configs.len());
        for (i, o) in configs.iter().enumerate() {
            let trainer = bpeek_tui::options::input::trainer_for_text(
                o,
                name,
                text.to_vec(),
                bpeek_tui::options::input::trainer_config(o)?,
            )?;
            let mut app = App::from_built(o, name.to_string(), trainer, Theme::new(true, false));
            let mut steps = step_and_draw(&mut app, merges)?.steps;
            let letter = bpeek_tui::compare::Comparison::name(i).to_string();
            let what = format!("column {letter} alone ({}): step", given[i]);
            report(&[key, "alone", &letter, "step"], &what, &mut steps)?;
            alone.push(median(&steps).unwrap_or_default());
        }
        let t = Instant::now();
        let mut app =
            bpeek_tui::comparing::app_on_text(base, given, name, text, Theme::new(true, false))?;
        put(&[key, "compare", "open_ms"], figures::ms(t.elapsed()));
        crate::say!(
            "  open (every column counted): {:.0} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        let mut side = step_and_draw(&mut app, merges)?;
        report(
            &[key, "compare", "step"],
            "all columns: step (every column moved)",
            &mut side.steps,
        )?;
        report(
            &[key, "compare", "update"],
            "all columns: one update (a key or a slice)",
            &mut side.updates,
        )?;
        report(
            &[key, "compare", "frame"],
            "all columns: frame (draw)",
            &mut side.frames,
        )?;
        if let Some(s) = median(&side.steps) {
            let ratio = |d: Duration| s.as_secs_f64() / d.as_secs_f64().max(1e-9);
            let slowest = alone.iter().copied().max().unwrap_or_default();
            let sum: Duration = alone.iter().sum();
            put(
                &[key, "compare", "step_vs_first"],
                figures::round(ratio(alone[0]), 2),
            );
            put(
                &[key, "compare", "step_vs_slowest"],
                figures::round(ratio(slowest), 2),
            );
            put(
                &[key, "compare", "step_vs_sum"],
                figures::round(ratio(sum), 2),
            );
            crate::say!(
                "  a step of all columns (medians): {:.2}x column A's alone, {:.2}x the slowest column's alone, {:.2}x all columns' alone summed",
                ratio(alone[0]),
                ratio(slowest),
                ratio(sum)
            );
        }
    }
    Ok(())
}

/// How long each step took (update, then slices until every column has
/// caught up), each update on the way, and each frame.
struct Times {
    steps: Vec<Duration>,
    updates: Vec<Duration>,
    frames: Vec<Duration>,
}

fn step_and_draw(app: &mut App, merges: usize) -> Result<Times> {
    let (mut terminal, _counter) = counting_terminal(80, 24)?;
    update(app, Action::Resize(80, 24));
    draw(&mut terminal, app)?;
    let mut times = Times {
        steps: Vec::with_capacity(merges),
        updates: Vec::new(),
        frames: Vec::with_capacity(merges),
    };
    for _ in 0..merges {
        let before = app.trainer().merges().len();
        let mut step = Duration::ZERO;
        let mut action = Action::Step;
        loop {
            let t = Instant::now();
            update(app, action);
            let took = t.elapsed();
            step += took;
            times.updates.push(took);
            let t = Instant::now();
            draw(&mut terminal, app)?;
            times.frames.push(t.elapsed());
            if !app.compare.as_ref().is_some_and(|c| c.behind) {
                break;
            }
            action = Action::CompareMore;
        }
        times.steps.push(step);
        if app.trainer().merges().len() == before {
            break;
        }
    }
    Ok(times)
}

fn median(times: &[Duration]) -> Option<Duration> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied()
}
