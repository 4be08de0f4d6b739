//! The explorer opened on a comparison (`bpeek tui --compare`, and the
//! side-by-side benchmark): the configurations trained, the first focused,
//! the rest handed to it through [`Action::Compare`].

use crate::action::Action;
use crate::app::App;
use crate::compare::{Trained, count_all};
use crate::options::args::TrainingOptions;
use crate::theme::Theme;
use bpeek_core::error::Result;

/// The explorer comparing the configurations `--compare` names, the
/// first focused.
pub fn app(base: &TrainingOptions, given: &[String], theme: Theme) -> Result<App> {
    let (name, (first_options, first), rest) = count_all(base, given)?;
    let mut app = App::from_built(&first_options, name, first, theme);
    crate::update(&mut app, Action::Compare(Trained(rest)));
    Ok(app)
}

/// The explorer comparing the configurations `given` (each `base`
/// changed) on `text`, counted here, the first focused.
pub fn app_on_text(
    base: &TrainingOptions,
    given: &[String],
    name: &str,
    text: &[u8],
    theme: Theme,
) -> Result<App> {
    let configs = crate::options::compare::configurations(base, given)?;
    if crate::options::compare::is_unigram(&configs[0]) {
        return Err(crate::compare::first_is_unigram(&given[0]));
    }
    for (g, o) in given.iter().zip(&configs) {
        if !crate::options::compare::is_unigram(o) {
            crate::options::input::trainer_config(o)
                .map_err(|e| e.context(format!("--compare {}", bpeek_core::error::quoted(g))))?;
        }
    }
    let config = crate::options::input::trainer_config(&configs[0])?;
    let first = crate::options::input::trainer_for_text(&configs[0], name, text.to_vec(), config)?;
    let rest = crate::compare::columns_on_text(&configs[1..], name, text)?;
    let mut app = App::from_built(&configs[0], name.to_string(), first, theme);
    crate::update(&mut app, Action::Compare(Trained(rest)));
    Ok(app)
}
