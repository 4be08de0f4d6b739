//! The explorer in Unigram mode: the trainer it steps and where its panes
//! stand. The BPE panes' state stays in [`super::App`]; a Unigram app
//! holds this beside it, and the views and updates branch on it.

use super::App;
use crate::action::Toggle;
use crate::options::args::TrainingOptions;
use crate::theme::Theme;
use bpeek_core::error::Result;
use bpeek_core::train::unigram::UnigramTrainer;
use std::sync::Arc;

impl App {
    /// The explorer in Unigram mode on the corpus the options name. The
    /// BPE trainer it holds beside is an empty stand-in that no pane shows.
    pub fn unigram(options: &TrainingOptions, theme: Theme) -> Result<App> {
        let (name, trainer) = crate::options::unigram::explorer_trainer(options)?;
        Ok(App::from_unigram(options, name, trainer, theme))
    }

    /// [`App::unigram`] on a trainer built already.
    pub fn from_unigram(
        options: &TrainingOptions,
        name: String,
        trainer: impl Into<Arc<UnigramTrainer>>,
        theme: Theme,
    ) -> App {
        let config = crate::options::input::trainer_config(&TrainingOptions::default())
            .expect("the default options are valid");
        let stand_in = bpeek_core::Trainer::new(Vec::new(), config).expect("an empty corpus");
        let mut app = App::from_built(options, name, stand_in, theme);
        app.shown.set(Toggle::ChunkTable, false);
        app.unigram = Some(UnigramView::shared(trainer.into()));
        app
    }
}

/// What the piece table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PieceSort {
    /// Highest probability first.
    #[default]
    Probability,
    /// Lowest loss if removed first (the pieces the next prune takes),
    /// unscored pieces last.
    Loss,
    /// By text.
    Text,
}

impl PieceSort {
    pub const ORDER: [PieceSort; 3] = [PieceSort::Probability, PieceSort::Loss, PieceSort::Text];

    pub fn name(self) -> &'static str {
        match self {
            PieceSort::Probability => "probability",
            PieceSort::Loss => "loss if removed",
            PieceSort::Text => "text",
        }
    }

    /// The next sort in [`PieceSort::ORDER`].
    pub fn next(self) -> PieceSort {
        let i = PieceSort::ORDER
            .iter()
            .position(|&s| s == self)
            .unwrap_or(0);
        PieceSort::ORDER[(i + 1) % PieceSort::ORDER.len()]
    }
}

/// The words whose cut changed since the last prune, for the step count
/// they were found at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedCuts {
    pub at_step: usize,
    /// The round of that prune, and each word's mark; `None` before the
    /// first prune.
    pub words: Option<(usize, Vec<bool>)>,
}

#[derive(Debug, Clone)]
pub struct UnigramView {
    /// Shared as the BPE trainer is: a follower shows the teacher's.
    pub trainer: Arc<UnigramTrainer>,
    pub sort: PieceSort,
    /// The selected row of the piece table.
    pub piece_row: usize,
    /// The selected row of the removal list (0: the newest removal).
    pub removal_row: usize,
    /// The selected word of the corpus pane (a word's index).
    pub word: usize,
    /// The lattice of the selected word is open over the panes.
    pub lattice: bool,
    /// Kept up to date by `update` after every action.
    pub changed: ChangedCuts,
}

impl UnigramView {
    pub fn new(trainer: UnigramTrainer) -> Self {
        UnigramView::shared(Arc::new(trainer))
    }

    pub fn shared(trainer: Arc<UnigramTrainer>) -> Self {
        let mut view = UnigramView {
            trainer,
            sort: PieceSort::default(),
            piece_row: 0,
            removal_row: 0,
            word: 0,
            lattice: false,
            changed: ChangedCuts {
                at_step: usize::MAX,
                words: None,
            },
        };
        view.refresh_changed();
        view
    }

    /// The trainer to move: copied first if another explorer shares it.
    pub fn trainer_mut(&mut self) -> &mut UnigramTrainer {
        Arc::make_mut(&mut self.trainer)
    }

    /// Find the changed cuts again if training moved since they were found.
    pub fn refresh_changed(&mut self) {
        let at = self.trainer.step_count();
        if self.changed.at_step != at {
            self.changed = ChangedCuts {
                at_step: at,
                words: self.trainer.cuts_changed_since_last_prune(),
            };
        }
    }

    /// Whether word `i`'s cut changed since the last prune.
    pub fn cut_changed(&self, i: usize) -> bool {
        self.changed
            .words
            .as_ref()
            .is_some_and(|(_, w)| w.get(i).copied().unwrap_or(false))
    }
}
