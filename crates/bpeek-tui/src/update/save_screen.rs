//! `S`: the screen as an SVG picture, in the current directory.

use crate::app::App;
use crate::svg::{self, colour::Colours};
use std::path::Path;

/// Why nothing is written in a class: every explorer of a class runs on
/// the server, whose disk is not the student's (nor a place to fill).
pub const REFUSED_IN_CLASS: &str = "in a class the explorer runs on the server, so S writes no file there; \
     the teacher can draw a lesson's screens with bpeek tui --lesson L --snapshot DIR";

/// `S`: the screen in the current directory.
pub fn save(app: &mut App) {
    save_in(app, Path::new("."));
}

/// The screen as `bpeek-screen-MERGES-N.svg` in `dir` (in Unigram mode
/// `bpeek-screen-step-STEP-N.svg`), drawn at the terminal's size by the
/// view that draws the terminal's frames.
pub fn save_in(app: &mut App, dir: &Path) {
    if app.classroom.is_some() {
        app.notice = Some(REFUSED_IN_CLASS.into());
        return;
    }
    let (width, height) = app.size;
    let picture = svg::screen(
        &crate::snapshot::screen(app, width, height),
        &Colours::default(),
    );
    let stem = match &app.unigram {
        Some(u) => format!("bpeek-screen-step-{}", u.trainer.step_count()),
        None => format!("bpeek-screen-{}", app.trainer().merges().len()),
    };
    let written = super::new_files::write_new(dir, &stem, &[("svg", picture.as_bytes())]);
    app.notice = Some(match written {
        Ok(names) => format!("saved the screen as {}", names.join(", ")),
        Err(e) => format!("cannot save the screen: {e}"),
    });
}
