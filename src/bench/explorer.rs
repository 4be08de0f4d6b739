//! `bpeek bench --tui`: how fast the explorer steps and draws, and how many
//! bytes one step sends to the terminal. Printed, never asserted.

use crate::bench::figures::{self, put};
use bpeek_core::corpora;
use bpeek_core::error::{Error, Result};
use bpeek_core::{Trainer, TrainerConfig};
use bpeek_tui::action::Action;
use bpeek_tui::app::App;
use bpeek_tui::runner::draw;
use bpeek_tui::terminal::cell_writer::CompactBackend;
use bpeek_tui::terminal::wide_cells::WideCellBackend;
use bpeek_tui::theme::Theme;
use bpeek_tui::update::update;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Counts the bytes written to it and throws them away.
#[derive(Clone, Default)]
pub struct ByteCounter(Arc<Mutex<usize>>);

impl ByteCounter {
    /// Bytes written since the last call.
    pub fn take(&self) -> usize {
        std::mem::take(&mut *self.0.lock().expect("counter lock"))
    }
}

impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        *self.0.lock().expect("counter lock") += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A terminal of a fixed size whose output is only counted.
pub fn counting_terminal(
    width: u16,
    height: u16,
) -> Result<(
    Terminal<WideCellBackend<CompactBackend<ByteCounter>>>,
    ByteCounter,
)> {
    let counter = ByteCounter::default();
    // The backend the explorer draws with, so the bytes are the real ones.
    let terminal = Terminal::with_options(
        WideCellBackend::new(counter.clone()),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, width, height)),
        },
    )
    .map_err(|e| Error::failure(format!("terminal: {e}")))?;
    Ok((terminal, counter))
}

/// Bytes the first frame and each of `steps` steps send at `width`x`height`.
pub fn bytes_per_step(
    app: &mut App,
    width: u16,
    height: u16,
    steps: usize,
) -> Result<(usize, Vec<usize>)> {
    let (mut terminal, counter) = counting_terminal(width, height)?;
    update(app, Action::Resize(width, height));
    draw(&mut terminal, app)?;
    let first = counter.take();
    let mut per_step = Vec::with_capacity(steps);
    for _ in 0..steps {
        update(app, Action::Step);
        draw(&mut terminal, app)?;
        per_step.push(counter.take());
    }
    Ok((first, per_step))
}

pub fn run(source: &str, text: Vec<u8>, config: TrainerConfig, merges: usize) -> Result<()> {
    crate::say!("full-screen view, 80x24, bytes sent to the terminal:");
    for colour in [true, false] {
        let c = corpora::default_corpus();
        let trainer = Trainer::new(c.text.as_bytes().to_vec(), TrainerConfig::default())?;
        let mut app = App::from_trainer(c.name, trainer, Theme::new(colour, false));
        let (first, mut steps) = bytes_per_step(&mut app, 80, 24, 20)?;
        steps.sort_unstable();
        let look = if colour { "colour" } else { "no_colour" };
        put(&["bytes_80x24", look, "first_frame"], first);
        put(
            &["bytes_80x24", look, "median_per_step"],
            steps[steps.len() / 2],
        );
        put(
            &["bytes_80x24", look, "largest_per_step"],
            steps[steps.len() - 1],
        );
        crate::say!(
            "  {} corpus, colour {}: first frame {first} B; per step (20 steps) median {} B, largest {} B",
            c.name,
            if colour { "on" } else { "off" },
            steps[steps.len() / 2],
            steps[steps.len() - 1]
        );
    }

    crate::say!(
        "full-screen view on {source}, {:.1} MB:",
        text.len() as f64 / 1e6
    );
    let t = Instant::now();
    let trainer = Trainer::new(text, config)?;
    let mut app = App::from_trainer("bench", trainer, Theme::new(true, false));
    let built = t.elapsed();
    let (mut terminal, counter) = counting_terminal(80, 24)?;
    update(&mut app, Action::Resize(80, 24));
    update(
        &mut app,
        Action::Paste("The tokenizer learns merges.".into()),
    );
    update(&mut app, Action::StopEditing);
    let t = Instant::now();
    draw(&mut terminal, &mut app)?;
    let first_frame = t.elapsed();
    counter.take();
    put(&["tui", "open_ms"], figures::ms(built));
    put(&["tui", "first_frame_ms"], figures::ms(first_frame));
    crate::say!(
        "  open (chunk, count, line index): {}; first frame: {}",
        ms(built),
        ms(first_frame)
    );

    let mut step_times = Vec::with_capacity(merges);
    let mut frame_times = Vec::with_capacity(merges);
    let mut bytes = Vec::with_capacity(merges);
    for _ in 0..merges {
        let t = Instant::now();
        update(&mut app, Action::Step);
        step_times.push(t.elapsed());
        if app.trainer().stop_reason().is_some() {
            break;
        }
        let t = Instant::now();
        draw(&mut terminal, &mut app)?;
        frame_times.push(t.elapsed());
        bytes.push(counter.take());
    }
    report(&["tui", "step_update"], "step (update)", &mut step_times)?;
    report(&["tui", "frame_draw"], "frame (draw)", &mut frame_times)?;
    bytes.sort_unstable();
    if !bytes.is_empty() {
        put(&["tui", "bytes_per_step_median"], bytes[bytes.len() / 2]);
        put(&["tui", "bytes_per_step_largest"], bytes[bytes.len() - 1]);
        crate::say!(
            "  bytes per step at 80x24: median {} B, largest {} B",
            bytes[bytes.len() / 2],
            bytes[bytes.len() - 1]
        );
    }
    long_actions(&mut app, &mut terminal)?;
    big_paste(&mut app, &mut terminal)?;
    fertility_paste(&mut app, &mut terminal)
}

/// The fertility view with 1 MB pasted and five tokenizers (trained,
/// bytes, gpt2, cl100k, o200k): measuring it between frames, then keys.
fn fertility_paste<B: bpeek_tui::terminal::screen::Screen>(
    app: &mut App,
    terminal: &mut Terminal<B>,
) -> Result<()> {
    let corpus = String::from_utf8_lossy(app.trainer().corpus().text()).into_owned();
    let mut text = String::with_capacity(1_000_000);
    while text.len() < 1_000_000 && !corpus.is_empty() {
        text.push_str(&corpus[..corpus.len().min(1_000_000 - text.len())]);
        while !text.is_char_boundary(text.len()) {
            text.pop();
        }
    }
    crate::say!(
        "fertility view with {:.1} MB pasted, five tokenizers (trained, bytes, gpt2, cl100k, o200k):",
        text.len() as f64 / 1e6
    );
    update(app, Action::ClearEncode);
    update(app, Action::Paste(text));
    update(app, Action::StopEditing);
    while app.encode.encoding() {
        update(app, Action::EncodeMore);
    }
    for spec in ["gpt2", "cl100k", "o200k"] {
        update(
            app,
            Action::Loaded(bpeek_tui::fertility::tokenizers::LoadDone::now(spec)),
        );
    }
    let t = Instant::now();
    update(app, Action::ToggleFertility);
    draw(terminal, app)?;
    let opened = t.elapsed();
    let mut slices = vec![opened];
    let all = Instant::now();
    while app.fert.behind {
        let t = Instant::now();
        update(app, Action::MeasureMore);
        draw(terminal, app)?;
        slices.push(t.elapsed());
    }
    put(
        &["fertility_paste", "measured_ms"],
        figures::ms(all.elapsed() + opened),
    );
    crate::say!(
        "  measured in {} slices between frames, {} in all",
        slices.len(),
        ms(all.elapsed() + opened)
    );
    report(
        &["fertility_paste", "slice"],
        "open or measuring slice (update and frame)",
        &mut slices,
    )?;
    let keys = [
        Action::NextTokenizer,
        Action::NextToken,
        Action::Scroll(bpeek_tui::action::Scroll::Down),
        Action::NextPanel,
    ];
    let mut times = Vec::new();
    for i in 0..40 {
        let t = Instant::now();
        update(app, keys[i % keys.len()].clone());
        draw(terminal, app)?;
        times.push(t.elapsed());
    }
    report(
        &["fertility_paste", "key"],
        "key: tokenizer, token, row, panel (update and frame)",
        &mut times,
    )?;
    update(app, Action::ToggleFertility);
    Ok(())
}

/// Go to a merge and back as the loop runs them: a slice of the job, then
/// a frame, until it is done. The longest of these is the longest the
/// screen goes without answering a key.
fn long_actions<B: bpeek_tui::terminal::screen::Screen>(
    app: &mut App,
    terminal: &mut Terminal<B>,
) -> Result<()> {
    let made = app.trainer().merges().len();
    if made == 0 {
        return Ok(());
    }
    app.trainer_mut().seek(0);
    crate::say!(
        "long actions, each slice (update) and the frame after it (budget {}):",
        ms(bpeek_tui::job::SLICE)
    );
    let mut go = |app: &mut App, keys: &str, what: &str| -> Result<()> {
        let from = app.trainer().merges().len();
        for c in keys.chars() {
            let action = match c {
                'g' => Action::OpenGoto,
                'r' => Action::Reset,
                '\n' => Action::PromptSubmit,
                d => Action::PromptType(d),
            };
            let t = Instant::now();
            update(app, action);
            draw(terminal, app)?;
            if c == '\n' || c == 'r' {
                let mut gaps = vec![t.elapsed()];
                let all = Instant::now();
                run_job(app, terminal, &mut gaps)?;
                let key = slug(what);
                put(&["long_actions", &key, "from"], from);
                put(&["long_actions", &key, "to"], app.trainer().merges().len());
                put(
                    &["long_actions", &key, "all_ms"],
                    figures::ms(all.elapsed() + gaps[0]),
                );
                crate::say!(
                    "  {what} ({from} -> {}): {} in all",
                    app.trainer().merges().len(),
                    ms(all.elapsed() + gaps[0])
                );
                report(
                    &["long_actions", &key, "slice_and_frame"],
                    "  slice and frame",
                    &mut gaps,
                )?;
            }
        }
        Ok(())
    };
    go(app, &format!("g{made}\n"), "go to, forward")?;
    go(app, &format!("g{}\n", made / 2), "go to, back")?;
    go(app, "r", "reset")
}

/// Run the job under way to its end as the loop would, timing each slice
/// and frame (work for another thread runs on one; the loop looks at it
/// every so often).
fn run_job<B: bpeek_tui::terminal::screen::Screen>(
    app: &mut App,
    terminal: &mut Terminal<B>,
    gaps: &mut Vec<Duration>,
) -> Result<()> {
    let mut threads = Vec::new();
    while app.jobs.current.is_some() {
        for work in app.take_work() {
            threads.push(std::thread::spawn(move || work.run()));
        }
        if app.jobs.current.as_ref().is_some_and(|j| j.is_away()) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let t = Instant::now();
        update(app, Action::JobMore);
        draw(terminal, app)?;
        gaps.push(t.elapsed());
    }
    for t in threads {
        let _ = t.join();
    }
    Ok(())
}

/// A large paste in the encode box: the paste itself, then keystrokes and
/// steps with it there, each an update and a frame.
fn big_paste<B: bpeek_tui::terminal::screen::Screen>(
    app: &mut App,
    terminal: &mut Terminal<B>,
) -> Result<()> {
    let corpus = String::from_utf8_lossy(app.trainer().corpus().text()).into_owned();
    let mut text = String::with_capacity(5_000_000);
    while text.len() < 5_000_000 && !corpus.is_empty() {
        text.push_str(&corpus[..corpus.len().min(5_000_000 - text.len())]);
        while !text.is_char_boundary(text.len()) {
            text.pop();
        }
    }
    put(
        &["big_paste", "megabytes"],
        figures::round(text.len() as f64 / 1e6, 3),
    );
    crate::say!(
        "encode box holding {:.1} MB of the same text:",
        text.len() as f64 / 1e6
    );
    update(app, Action::ClearEncode);
    let t = Instant::now();
    update(app, Action::Paste(text));
    draw(terminal, app)?;
    let pasted = t.elapsed();
    // The rest is encoded a part at a time between frames, as the loop does.
    let mut parts = Vec::new();
    let all = Instant::now();
    while app.encode.encoding() {
        let t = Instant::now();
        update(app, Action::EncodeMore);
        draw(terminal, app)?;
        parts.push(t.elapsed());
    }
    put(&["big_paste", "paste_ms"], figures::ms(pasted));
    put(&["big_paste", "parts"], parts.len());
    put(&["big_paste", "all_ms"], figures::ms(all.elapsed()));
    crate::say!(
        "  paste (update and frame): {}; then {} parts between frames, {} in all",
        ms(pasted),
        parts.len(),
        ms(all.elapsed())
    );
    report(
        &["big_paste", "part"],
        "part of the encoding (update and frame)",
        &mut parts,
    )?;
    let mut at_end = Vec::new();
    let mut inside = Vec::new();
    for i in 0..20 {
        let t = Instant::now();
        update(app, Action::Type(if i % 2 == 0 { 'x' } else { ' ' }));
        draw(terminal, app)?;
        at_end.push(t.elapsed());
    }
    for _ in 0..200 {
        update(
            app,
            Action::MoveCursor(bpeek_tui::panes::encode_box::Move::Up),
        );
    }
    for i in 0..20 {
        let t = Instant::now();
        update(app, Action::Type(if i % 2 == 0 { 'y' } else { ' ' }));
        draw(terminal, app)?;
        inside.push(t.elapsed());
    }
    update(app, Action::StopEditing);
    let mut steps = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        update(app, Action::Step);
        draw(terminal, app)?;
        steps.push(t.elapsed());
    }
    report(
        &["big_paste", "keystroke_at_end"],
        "keystroke at the end (update and frame)",
        &mut at_end,
    )?;
    report(
        &["big_paste", "keystroke_200_lines_up"],
        "keystroke 200 lines up (update and frame)",
        &mut inside,
    )?;
    report(
        &["big_paste", "step"],
        "step (update and frame)",
        &mut steps,
    )?;
    Ok(())
}

/// The times of `what` (figures under `key`): how many, median, slowest.
pub(crate) fn report(key: &[&str], what: &str, times: &mut [Duration]) -> Result<()> {
    if times.is_empty() {
        return Ok(());
    }
    times.sort_unstable();
    let at = |name: &'static str| [key, &[name]].concat();
    put(&at("timed"), times.len());
    put(&at("median_ms"), figures::ms(times[times.len() / 2]));
    put(&at("slowest_ms"), figures::ms(times[times.len() - 1]));
    crate::say!(
        "  {what}: {} timed; median {}, slowest {}",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
    Ok(())
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

/// The explorer's times on one corpus, at 80x24.
pub struct ExplorerTimes {
    pub first_frame: Duration,
    /// Each step (the update that applies one merge).
    pub steps: Vec<Duration>,
    /// Each frame drawn after a step.
    pub frames: Vec<Duration>,
    /// Each step back, from the last merge down.
    pub undos: Vec<Duration>,
    /// Seeking from the merges made back to merge 0, then forward to them
    /// all again, then to half of them.
    pub seeks: [(usize, usize, Duration); 3],
}

/// Step the explorer over `trainer` up to `merges` merges, drawing a frame
/// after each, then step back `undos` times and seek.
pub fn explorer_times(trainer: Trainer, merges: usize, undos: usize) -> Result<ExplorerTimes> {
    let mut app = App::from_trainer("bench", trainer, Theme::new(true, false));
    let (mut terminal, counter) = counting_terminal(80, 24)?;
    update(&mut app, Action::Resize(80, 24));
    let t = Instant::now();
    draw(&mut terminal, &mut app)?;
    let first_frame = t.elapsed();
    counter.take();
    let mut steps = Vec::with_capacity(merges);
    let mut frames = Vec::with_capacity(merges);
    for _ in 0..merges {
        let t = Instant::now();
        update(&mut app, Action::Step);
        steps.push(t.elapsed());
        if app.trainer().stop_reason().is_some() {
            break;
        }
        let t = Instant::now();
        draw(&mut terminal, &mut app)?;
        frames.push(t.elapsed());
        counter.take();
    }
    let made = app.trainer().merges().len();
    let mut back = Vec::with_capacity(undos);
    for _ in 0..undos.min(made) {
        let t = Instant::now();
        update(&mut app, Action::Undo);
        back.push(t.elapsed());
    }
    let mut seek = |to: usize| {
        let from = app.trainer().merges().len();
        let t = Instant::now();
        app.trainer_mut().seek(to);
        (from, to, t.elapsed())
    };
    let seeks = [seek(0), seek(made), seek(made / 2)];
    Ok(ExplorerTimes {
        first_frame,
        steps,
        frames,
        undos: back,
        seeks,
    })
}

/// `go to, forward` as a figure's name: `go_to_forward`.
fn slug(what: &str) -> String {
    what.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}
