//! The main screen in Unigram mode: the panes of BPE training take the
//! Unigram trainer's place for place: the corpus pane shows each word's
//! cut, the pair table the piece table, the merge list the removals, the
//! curve the tokens as pieces go.

use crate::action::Toggle;
use crate::app::unigram::UnigramView;
use crate::app::{App, Focus};
use crate::layout::Panes;
use crate::view::{pieces, removals, unigram_curve, unigram_words};
use ratatui::Frame;

pub fn draw(frame: &mut Frame, panes: &Panes, app: &App, u: &UnigramView) {
    if !app.shows(Toggle::Zoom) || app.focus == Focus::Corpus {
        unigram_words::draw(frame, panes.corpus, app, u);
    }
    if let Some(r) = panes.pairs {
        pieces::draw(frame, r, app, u);
    }
    if let Some(r) = panes.merges {
        removals::draw(frame, r, app, u);
    }
    if let Some(r) = panes.curve {
        unigram_curve::draw(frame, r, app, u);
    }
}
