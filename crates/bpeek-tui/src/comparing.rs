//! The explorer opened on a comparison (`bpeek tui --compare`, and the
//! side-by-side benchmark): the configurations trained, the first focused,
//! the rest handed to it through [`Action::Compare`].

use crate::action::Action;
use crate::app::App;
use crate::compare::{Trained, count_all};
use crate::options::args::TrainingOptions;
use crate::theme::Theme;
use bpeek_core::error::Result;
use std::sync::Arc;

/// The explorer comparing the configurations `--compare` names, the
/// first focused.
pub fn app(base: &TrainingOptions, given: &[String], theme: Theme) -> Result<App> {
    let (name, mut all) = count_all(base, given)?;
    let rest: Vec<_> = all.drain(1..).map(|(o, t)| (o, Arc::new(t))).collect();
    let (first_options, first) = all.pop().expect("two configurations at least");
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
    crate::update(&mut app, Action::Compare(Trained(rest)));
    Ok(app)
}
