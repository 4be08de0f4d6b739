//! Drawing: one file per pane, each a function of `&App` that draws into a
//! rectangle it is given. Nothing here changes the model.

pub mod axes;
pub mod caption;
pub mod chunks;
pub mod compare;
pub mod compare_sizes;
pub mod compare_unigram;
pub mod corpus;
pub mod curve;
pub mod encode;
pub mod fertility;
pub mod footer;
pub mod help;
pub mod lattice;
pub mod merges;
pub mod opening;
pub mod pairs;
pub mod pane_frame;
pub mod picker;
pub mod pieces;
pub mod progress;
pub mod removals;
pub mod shared_frame;
pub mod short_names;
pub mod status;
pub mod too_small;
pub mod tree;
pub mod unigram;
pub mod unigram_curve;
pub mod unigram_status;
pub mod unigram_words;
pub mod vocab;
pub mod why;
pub mod widths;

use crate::action::Toggle;
use crate::app::{App, Focus, InputMode};
use crate::layout;
use pane_frame::PaneFrame;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if app.opening_job() {
        opening::draw(frame, area, app);
        return;
    }
    if layout::too_small(area) {
        too_small::draw(frame, area, app);
        return;
    }
    let panes = layout::panes(area, app);
    status::draw(frame, panes.status, app);
    if app.fert.open {
        let body = ratatui::layout::Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(2),
            ..area
        };
        fertility::draw(frame, body, app);
        tree::draw(frame, body, app);
        footer::draw(frame, panes.footer, app);
        if app.input == InputMode::Help {
            help::draw(frame, area, app);
        }
        picker::draw(frame, area, app);
        return;
    }
    match &app.unigram {
        Some(u) => unigram::draw(frame, &panes, app, u),
        None => draw_bpe_panes(frame, &panes, app),
    }
    if let Some(r) = panes.encode {
        encode::draw(frame, r, app);
    }
    if let Some(r) = panes.why {
        why::draw(frame, r, app);
    }
    let body = Rect {
        y: area.y + 1,
        height: panes.footer.y.saturating_sub(area.y + 1),
        ..area
    };
    vocab::draw(frame, body, app);
    tree::draw(frame, area, app);
    if let Some(u) = app.unigram.as_ref().filter(|u| u.lattice) {
        lattice::draw(frame, body, app, u);
    }
    if let Some(r) = panes.caption {
        caption::draw(frame, r, app);
    }
    footer::draw(frame, panes.footer, app);
    if app.input == InputMode::Help {
        help::draw(frame, area, app);
    }
    picker::draw(frame, area, app);
}

/// The panes of BPE training: the corpus (or the chunk table), the pair
/// table, the merge list (or the columns side by side) and the curve.
fn draw_bpe_panes(frame: &mut Frame, panes: &layout::Panes, app: &App) {
    let comparing = app.compare.is_some();
    if comparing && app.shows(Toggle::Zoom) {
        compare::draw_curves(frame, panes.corpus, app);
    } else if comparing && app.shows(Toggle::ChunkTable) {
        chunks::draw(frame, panes.corpus, app);
    } else if comparing {
        corpus::draw(frame, panes.corpus, app);
    } else if (!app.shows(Toggle::Zoom) || app.focus == Focus::Corpus)
        && app.shows(Toggle::ChunkTable)
    {
        chunks::draw(frame, panes.corpus, app);
    } else if !app.shows(Toggle::Zoom) || app.focus == Focus::Corpus {
        corpus::draw(frame, panes.corpus, app);
    }
    if let Some(r) = panes.pairs {
        pairs::draw(frame, r, app);
    }
    if let Some(r) = panes.merges {
        if comparing {
            compare::draw_columns(frame, r, app);
        } else {
            merges::draw(frame, r, app);
        }
    }
    if let Some(r) = panes.difference {
        compare::draw_difference(frame, r, app);
    }
    if let Some(r) = panes.curve {
        curve::draw(frame, r, app);
    }
}

/// The bordered frame of a pane, its title marked when it has the focus.
/// Titles that do not fit the pane's `width` are shortened by whole items
/// (see [`widths::fit_titles`]), never cut into misleading text.
pub fn pane_block<'a>(
    app: &App,
    pane: Focus,
    title: String,
    right: String,
    width: u16,
) -> PaneFrame<'a> {
    pane_block_parts(app, pane, &[&title], right, width)
}

/// [`pane_block`] with a title in parts, the first kept longest (see
/// [`widths::fit_titles`]).
pub fn pane_block_parts<'a>(
    app: &App,
    pane: Focus,
    title: &[&str],
    right: String,
    width: u16,
) -> PaneFrame<'a> {
    let focused = app.focus == pane && !matches!(app.input, InputMode::Help);
    let t = &app.theme;
    let dot = format!(" {} ", t.glyphs.dot);
    let (title, right) = widths::fit_titles(
        title,
        &right,
        &[", ", &dot],
        width as usize,
        t.glyphs.ellipsis,
    );
    let mut block = PaneFrame::new(t.border(), t.border_style(focused))
        .title(Line::styled(format!(" {title} "), t.title(focused)));
    if !right.is_empty() {
        // What the right title says counts (`3 new, 1 gone`): never dim.
        block = block.title(
            Line::styled(format!(" {right} "), ratatui::style::Style::reset()).right_aligned(),
        );
    }
    block
}

/// A token as the tables show it (see [`crate::panes::rows::label`]).
pub fn token_label(app: &App, id: bpeek_core::TokenId) -> String {
    trained_label(app, app.trainer(), app.trainer().token_bytes(id))
}

/// Bytes of a token of `trainer` as the tables show them: in char mode
/// with the end-of-word glyph (see [`crate::panes::rows::word_label`]).
pub fn trained_label(app: &App, trainer: &bpeek_core::Trainer, bytes: &[u8]) -> String {
    let char_mode = trainer.config().mode == bpeek_core::Mode::Char;
    crate::panes::rows::word_label(bytes, &app.theme, char_mode)
}

/// Whether any of `lines` holds right-to-left text: the screen shows it in
/// logical order (first letter leftmost), and says so.
pub fn shows_right_to_left(lines: &[Line]) -> bool {
    lines
        .iter()
        .flat_map(|l| l.spans.iter())
        .any(|s| s.content.chars().any(bpeek_core::script::is_right_to_left))
}

/// What the screen says under right-to-left text.
pub const LOGICAL_ORDER: &str = "right-to-left text in logical order";

/// Lines, one per row of `area` from its top, each cut at its width: what
/// a `Paragraph` without wrapping draws, at a fraction of its cost for
/// the left-aligned lines that are nearly all of them.
pub fn put_lines(frame: &mut Frame, area: Rect, lines: &[Line]) {
    use ratatui::layout::Alignment;
    use ratatui::widgets::{Paragraph, Widget};
    let area = area.intersection(frame.area());
    let buf = frame.buffer_mut();
    for (line, y) in lines.iter().zip(area.top()..area.bottom()) {
        if matches!(line.alignment, None | Some(Alignment::Left)) {
            buf.set_line(area.x, y, line, area.width);
        } else {
            let row = Rect {
                y,
                height: 1,
                ..area
            };
            Paragraph::new(line.clone()).render(row, buf);
        }
    }
}
