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

use crate::action::Toggle;
use crate::app::{App, Focus};
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
    /// Above the footer while a lesson plays: its caption.
    pub caption: Option<Rect>,
    /// Under the merge list when there is room, and in the zoomed merge
    /// list: corpus tokens against merges.
    pub curve: Option<Rect>,
    /// Under the focused pane, joined to its border: the round in words.
    pub why: Option<Rect>,
    /// With configurations side by side: the row saying where their merge
    /// lists part (the columns themselves take the merge list's place).
    pub difference: Option<Rect>,
    pub footer: Rect,
}

pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

pub fn panes(area: Rect, app: &App) -> Panes {
    // A lesson's caption takes a row above the footer (two when long).
    let caption_rows = match &app.lesson {
        Some(lesson) if area.height >= MIN_HEIGHT + 2 => {
            let text = lesson.bar_text();
            if crate::view::widths::width(&text) > area.width as usize {
                2
            } else {
                1
            }
        }
        _ => 0,
    };
    let grid = Rect {
        height: area.height - caption_rows,
        ..area
    };
    let mut panes = if app.compare.is_some() && !app.fert.open {
        compare_grid(grid, app.shows(Toggle::Zoom))
    } else {
        pane_grid(grid, app)
    };
    if caption_rows > 0 {
        panes.caption = Some(Rect {
            y: panes.footer.y,
            height: caption_rows,
            ..panes.footer
        });
        panes.footer.y += caption_rows;
    }
    if app.compare.is_some() && !app.fert.open {
        // Zoom shows the columns' curves in the corpus pane's place, with
        // every row it has.
        if !app.shows(Toggle::Zoom) {
            add_why(&mut panes, app);
        }
        return panes;
    }
    if app.shows(Toggle::Zoom) {
        zoom(&mut panes, app.focus);
    }
    add_curve(&mut panes, area, app);
    add_why(&mut panes, app);
    panes
}

/// The focused pane takes the whole body; the others are not drawn.
fn zoom(panes: &mut Panes, focus: Focus) {
    let body = Rect {
        y: panes.status.y + 1,
        height: panes.footer.y.saturating_sub(panes.status.y + 1),
        ..panes.status
    };
    panes.corpus = body;
    panes.pairs = None;
    panes.merges = None;
    panes.encode = None;
    match focus {
        Focus::Corpus => {}
        Focus::Pairs => panes.pairs = Some(body),
        Focus::Merges => panes.merges = Some(body),
        Focus::Encode => panes.encode = Some(body),
    }
}

/// The curve is drawn at this size and larger, or in the zoomed merge list.
const CURVE_MIN_WIDTH: u16 = 120;
const CURVE_MIN_HEIGHT: u16 = 40;

/// Take the bottom of the merge list for the compression curve.
fn add_curve(panes: &mut Panes, area: Rect, app: &App) {
    let zoomed = app.shows(Toggle::Zoom) && app.focus == Focus::Merges;
    let roomy = area.width >= CURVE_MIN_WIDTH && area.height >= CURVE_MIN_HEIGHT;
    if app.fert.open || !(zoomed || roomy && !app.shows(Toggle::Zoom)) {
        return;
    }
    let Some(merges) = panes.merges.as_mut() else {
        return;
    };
    let height = if zoomed {
        (merges.height / 3).max(7)
    } else {
        7
    };
    if merges.height < height + PANE_MIN_ROWS {
        return;
    }
    merges.height -= height;
    panes.curve = Some(Rect {
        y: merges.y + merges.height,
        height,
        ..*merges
    });
}

/// Rows of the why text a pane shows at most: enough for the longest
/// sentence (a tie with its rivals and where the winner was met) at 80
/// columns.
const WHY_MAX_ROWS: u16 = 6;
/// A pane keeps at least this many rows (borders included) for its own.
const PANE_MIN_ROWS: u16 = 4;
/// A focused pair table or merge list keeps this many rows of its list
/// when the screen has them, so a projector at 80x24 still shows a tie's
/// rivals.
const FOCUSED_LIST_ROWS: u16 = 6;
/// Borders and the column header around a list.
const LIST_FRAME_ROWS: u16 = 3;

/// Rows the why text takes under a pane `width` wide: its wrapped lines
/// and the border below them; none when there is no text.
fn why_rows(app: &App, width: u16) -> u16 {
    if app.fert.open || app.input == crate::app::InputMode::Help {
        return 0;
    }
    match crate::panes::why::rows(app, width.saturating_sub(2) as usize, WHY_MAX_ROWS as usize) {
        Some(rows) => (rows.len() as u16).clamp(1, WHY_MAX_ROWS) + 1,
        None => 0,
    }
}

/// Take the rows the why text needs from the bottom of the focused pane.
fn add_why(panes: &mut Panes, app: &App) {
    if app.fert.open || app.input == crate::app::InputMode::Help {
        return;
    }
    let pane = match app.focus {
        Focus::Corpus => Some(&mut panes.corpus),
        Focus::Pairs => panes.pairs.as_mut(),
        Focus::Merges => panes.merges.as_mut(),
        Focus::Encode => panes.encode.as_mut(),
    };
    let Some(pane) = pane else {
        return;
    };
    // The text and the pane's bottom border below it; in a small pane the
    // text is cut to the rows it can have. A focused list keeps its rows
    // first when the pane was sized for both.
    let keep = match app.focus {
        Focus::Pairs | Focus::Merges if !app.shows(Toggle::Zoom) => {
            (LIST_FRAME_ROWS + FOCUSED_LIST_ROWS).min(pane.height.saturating_sub(2))
        }
        _ => PANE_MIN_ROWS,
    }
    .max(PANE_MIN_ROWS);
    let room = pane.height.saturating_sub(keep + 1);
    // The sentence is said briefly where the room is short for all of it.
    let most = WHY_MAX_ROWS.min(room) as usize;
    let Some(rows) = crate::panes::why::rows(app, pane.width.saturating_sub(2) as usize, most)
    else {
        return;
    };
    let rows = (rows.len() as u16).clamp(1, WHY_MAX_ROWS).min(room);
    if rows == 0 {
        return;
    }
    let taken = rows + 1;
    pane.height -= taken;
    panes.why = Some(Rect {
        y: pane.y + pane.height,
        height: taken,
        ..*pane
    });
}

/// The panes side by side as the screen size allows.
/// Configurations side by side:
///
/// ```text
/// +- status -------------------------------+
/// | corpus (the focused column's cut)      |
/// |----------------------------------------|
/// | A --pretok gpt2 | B --pretok none | ... |
/// |  next, pairs,   |                 |     |
/// |  merges         |                 |     |
/// |----------------------------------------|
/// | from merge 7 on: A merges ...          |
/// +- footer -------------------------------+
/// ```
fn compare_grid(area: Rect, curves: bool) -> Panes {
    let [status, main, difference, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    // The curves want height to tell apart; the corpus pane a third.
    let share = if curves { 2 } else { 3 };
    let corpus_rows = (main.height / share)
        .max(PANE_MIN_ROWS + 1)
        .min(main.height);
    let [corpus, columns] =
        Layout::vertical([Constraint::Length(corpus_rows), Constraint::Min(0)]).areas(main);
    Panes {
        status,
        corpus,
        merges: Some(columns),
        difference: Some(difference),
        footer,
        ..Panes::default()
    }
}

fn pane_grid(area: Rect, app: &App) -> Panes {
    let [status, main, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    if area.width >= WIDE_MIN_WIDTH && area.height >= WIDE_MIN_HEIGHT {
        let encode_height = match area.height {
            // An empty encode box says in one row how to fill it.
            _ if encode_box_is_idle(app) => 3,
            h if h >= 36 => 10,
            h if h >= 28 => 7,
            _ => 5,
        };
        let [top, encode] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(encode_height)]).areas(main);
        let [corpus, side] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(top);
        let pairs_height = side_split(side, app);
        let [pairs, merges] =
            Layout::vertical([Constraint::Length(pairs_height), Constraint::Min(0)]).areas(side);
        Panes {
            difference: None,
            status,
            corpus,
            pairs: Some(pairs),
            merges: Some(merges),
            encode: Some(encode),
            why: None,
            curve: None,
            caption: None,
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

/// Whether the encode box has nothing to show: no text, not being typed in,
/// not focused.
fn encode_box_is_idle(app: &App) -> bool {
    app.encode.text.is_empty()
        && app.focus != Focus::Encode
        && app.input != crate::app::InputMode::Editing
}

/// Rows of the side column that go to the pair table; the merge list has
/// the rest. Half each, unless the focused one needs more for its list and
/// its why text.
fn side_split(side: Rect, app: &App) -> u16 {
    let half = side.height / 2;
    let want = LIST_FRAME_ROWS + FOCUSED_LIST_ROWS + why_rows(app, side.width);
    let most = side.height.saturating_sub(PANE_MIN_ROWS);
    match app.focus {
        Focus::Pairs if !app.fert.open => want.clamp(half, most.max(half)),
        Focus::Merges if !app.fert.open => {
            side.height - want.clamp(side.height - half, most.max(side.height - half))
        }
        _ => half,
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

/// How the overlay sits on a screen: its rectangle, its columns, and how
/// far it can scroll. The key table alone decides it, so scrolling can be
/// bounded without drawing.
pub struct HelpGeometry {
    pub rect: Rect,
    pub two_columns: bool,
    pub col_width: usize,
    /// Lines of the left column; the rest go right.
    pub split: usize,
    pub body_height: u16,
    pub max_scroll: u16,
}

pub fn help_geometry(app: &App, area: Rect) -> HelpGeometry {
    let two_columns = area.width >= 78;
    let col_width = if two_columns {
        (area.width.saturating_sub(4) / 2) as usize
    } else {
        area.width.saturating_sub(4) as usize
    };
    // Rows are wrapped to the column, so the width changes the count.
    let (lines, headings) = crate::view::help::sections(app, col_width);
    let count = lines.len();
    let split = if two_columns {
        // Split at the section heading that balances the columns best, so
        // no section breaks across them.
        headings
            .into_iter()
            .filter(|&i| i > 0)
            .min_by_key(|&i| i.max(count - i))
            .unwrap_or(count)
    } else {
        count
    };
    let body_height = split.max(count - split) as u16;
    let height = (body_height + 2).min(area.height);
    let rect = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    HelpGeometry {
        rect,
        two_columns,
        col_width,
        split,
        body_height,
        max_scroll: body_height.saturating_sub(height.saturating_sub(2)),
    }
}
