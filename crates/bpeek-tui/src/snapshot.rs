//! Screens drawn without a terminal: the explorer rendered into a buffer
//! of a chosen size, as `S` saves it and as `bpeek tui --lesson L
//! --snapshot DIR` writes one picture per step of a lesson (slides made
//! from the lesson, no screen opened, no raw mode).

use crate::action::Action;
use crate::app::App;
use crate::fertility::tokenizers::LoadDone;
use crate::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::lesson::Lesson;
use crate::options::args::{GlyphChoice, TrainingOptions, TuiArgs};
use crate::svg::{self, colour::Colours};
use crate::theme::{Palette, Theme};
use crate::update::update;
use bpeek_core::error::{Error, Result};
use bpeek_core::formats::atomic::{Output, commit_all};
use bpeek_core::formats::same_file::{Role, refuse_outputs_over_inputs};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::path::Path;

/// The size snapshots are drawn at when `--size` is not given.
pub const DEFAULT_SIZE: (u16, u16) = (100, 30);
/// The largest size a snapshot is drawn at: a screen wider or taller
/// than any projector shows is a typing error.
pub const MOST_SIZE: (u16, u16) = (400, 200);

/// `--size COLSxROWS`, within the explorer's smallest screen and
/// [`MOST_SIZE`].
pub fn parse_size(text: &str) -> std::result::Result<(u16, u16), String> {
    let (cols, rows) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text:?}: expected COLSxROWS, e.g. 100x30"))?;
    let number = |s: &str, what: &str| {
        s.trim()
            .parse::<u16>()
            .map_err(|_| format!("{text:?}: {what} {s:?} is not a whole number"))
    };
    let (cols, rows) = (number(cols, "columns")?, number(rows, "rows")?);
    if cols < MIN_WIDTH || rows < MIN_HEIGHT {
        return Err(format!(
            "{cols}x{rows} is smaller than the explorer's smallest screen, {MIN_WIDTH}x{MIN_HEIGHT}"
        ));
    }
    let (most_cols, most_rows) = MOST_SIZE;
    if cols > most_cols || rows > most_rows {
        return Err(format!(
            "{cols}x{rows} is larger than {most_cols}x{most_rows}, the largest snapshot drawn"
        ));
    }
    Ok((cols, rows))
}

/// The screen `app` shows on a terminal of `width` x `height`, drawn by
/// the same view the terminal's frames are.
pub fn screen(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal =
        Terminal::new(TestBackend::new(width, height)).expect("a test backend always opens");
    let frame = terminal
        .draw(|frame| crate::view::draw(frame, app))
        .expect("a test backend never fails to draw");
    frame.buffer.clone()
}

/// Bring `app` to rest: tokenizers asked for are loaded here and now,
/// the long action under way and the encode box's text are finished.
pub fn settle(app: &mut App) {
    for spec in app.toks.take_requests() {
        update(app, Action::Loaded(LoadDone::now(&spec)));
    }
    crate::finish_jobs(app);
    while app.encode.encoding() {
        update(app, Action::EncodeMore);
    }
}

/// The file a lesson's step `i` (from 0) is written to.
pub fn step_file(i: usize) -> String {
    format!("step-{:03}.svg", i + 1)
}

/// Write one SVG a step of `app`'s lesson into the folder `dir`, each
/// drawn at `size`; the number of files written.
pub fn lesson_steps(app: &mut App, dir: &Path, size: (u16, u16)) -> Result<usize> {
    let steps = app.lesson.as_ref().map_or(0, |l| l.steps.len());
    update(app, Action::Resize(size.0, size.1));
    settle(app);
    let colours = Colours::default();
    for i in 0..steps {
        update(app, Action::LessonNext);
        settle(app);
        let picture = svg::screen(&screen(app, size.0, size.1), &colours);
        let mut out = Output::create(&dir.join(step_file(i)))?;
        out.writer()?
            .write_all(picture.as_bytes())
            .map_err(|e| out.write_error(&e))?;
        commit_all(vec![&mut out])?;
    }
    Ok(steps)
}

/// How a picture is drawn: in colour unless `--color never` or NO_COLOR
/// says otherwise, in the wide palette and with Unicode borders unless
/// ASCII is asked for by name (a picture has every colour and glyph, not
/// the terminal's).
fn picture_theme(args: &TuiArgs) -> Theme {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colour = args.screen.color.resolve("xterm-256color", no_color);
    let ascii = args.screen.ascii || args.screen.glyphs == GlyphChoice::Ascii;
    Theme::new(colour, ascii).with_palette(Palette::Wide)
}

/// `bpeek tui --lesson L --snapshot DIR`: every step of `lesson`, trained
/// with `training`, as a picture in `dir`.
pub fn run(args: &TuiArgs, dir: &Path, lesson: Lesson, training: &TrainingOptions) -> Result<()> {
    if !args.screen.compare.is_empty() {
        return Err(Error::input(
            "--compare: a lesson trains one configuration; give --compare without --lesson",
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::input(format!(
            "--snapshot {}: cannot make the folder: {e}",
            dir.display()
        ))
    })?;
    let mut roles = crate::options::input_roles(training);
    roles.extend(crate::options::tokenizer_roles(&args.screen.tokenizers));
    roles.extend(args.lesson.iter().map(|l| Role::reads("the lesson", l)));
    for i in 0..lesson.steps.len() {
        roles.push(Role::writes("--snapshot", dir.join(step_file(i))));
    }
    refuse_outputs_over_inputs(&roles)?;
    for spec in &args.screen.tokenizers {
        bpeek_core::formats::load::check(spec)?;
    }
    let mut app = if training.unigram.is_unigram() {
        App::unigram(training, picture_theme(args))?
    } else {
        App::from_options(training, picture_theme(args))?
    };
    app.lesson = Some(lesson);
    for spec in &args.screen.tokenizers {
        app.add_tokenizer(spec);
    }
    let size = args.size.unwrap_or(DEFAULT_SIZE);
    let written = lesson_steps(&mut app, dir, size)?;
    eprintln!(
        "wrote {written} screens of {}x{} to {}",
        size.0,
        size.1,
        dir.display()
    );
    Ok(())
}
