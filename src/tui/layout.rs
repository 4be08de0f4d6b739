//! Where each pane goes for a given screen size. The view draws into these
//! rectangles and `update` uses them to know how far a page scrolls.
//!
//! ```text
//! wide (72+ columns, 18+ rows)          compact (smaller)
//! +- status ----------------------+     +- status ---------+
//! | corpus         | pairs        |     | corpus           |
//! |                |--------------|     |------------------|
//! |                | merges       |     | focused side pane|
//! |-------------------------------|     |------------------|
//! | encode box                    |     | footer           |
//! +- footer ----------------------+     +------------------+
//! ```

use crate::tui::app::{App, Focus};
use ratatui::layout::{Constraint, Layout, Rect};

/// Below this the screen shows a short message instead of panes.
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
const WIDE_MIN_WIDTH: u16 = 72;
const WIDE_MIN_HEIGHT: u16 = 18;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Panes {
    pub status: Rect,
    pub corpus: Rect,
    pub pairs: Option<Rect>,
    pub merges: Option<Rect>,
    pub encode: Option<Rect>,
    pub footer: Rect,
}

pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

pub fn panes(area: Rect, app: &App) -> Panes {
    let [status, main, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    if area.width >= WIDE_MIN_WIDTH && area.height >= WIDE_MIN_HEIGHT {
        let encode_height = match area.height {
            h if h >= 36 => 10,
            h if h >= 28 => 7,
            _ => 5,
        };
        let [top, encode] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(encode_height)]).areas(main);
        let [corpus, side] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(top);
        let [pairs, merges] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(side);
        Panes {
            status,
            corpus,
            pairs: Some(pairs),
            merges: Some(merges),
            encode: Some(encode),
            footer,
        }
    } else {
        let [corpus, side] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(main);
        let mut panes = Panes {
            status,
            corpus,
            footer,
            ..Panes::default()
        };
        match app.focus {
            Focus::Merges => panes.merges = Some(side),
            Focus::Encode => panes.encode = Some(side),
            Focus::Pairs | Focus::Corpus => panes.pairs = Some(side),
        }
        panes
    }
}

/// The inside of a bordered pane.
pub fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        y: r.y + 1,
        width: r.width.saturating_sub(2),
        height: r.height.saturating_sub(2),
    }
}

/// The panes for the app's current screen size.
pub fn for_app(app: &App) -> Panes {
    panes(Rect::new(0, 0, app.size.0, app.size.1), app)
}
