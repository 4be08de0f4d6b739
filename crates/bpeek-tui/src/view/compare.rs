//! Configurations side by side: one column per configuration (what it
//! merges next, its pair table's head, its merge list with the first rank
//! where the lists part and the merges no other list holds), the first
//! difference in words, and the corpus-token curves of all columns in one
//! chart.

use crate::app::{App, Focus};
use crate::compare::{Comparison, trainer_of};
use crate::layout::inner;
use crate::view::axes::{YAxis, count_label, glyphs, x_row, y_gutter};
use crate::view::widths::{fit_left, width};
use bpeek_core::train::compare::MergeBytes;
use bpeek_core::{Phase, Trainer};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

/// The mark of the rank where the lists part, and of a merge that no
/// other list holds: characters, so they show without colour too.
pub const PART_MARK: char = '>';
pub const ONLY_MARK: char = '*';

/// The chart's mark where curves meet in one cell.
pub const SEVERAL_MARK: char = '&';
const SEVERAL: usize = usize::MAX;

/// Pair rows under each column's next merge, when there is room.
const PAIR_ROWS: usize = 3;

pub fn draw_columns(frame: &mut Frame, area: Rect, app: &App) {
    let Some(c) = app.compare.as_ref() else {
        return;
    };
    let n = c.columns.len() as u32;
    let rects = Layout::horizontal((0..n).map(|_| Constraint::Ratio(1, n))).split(area);
    for (i, rect) in rects.iter().enumerate() {
        if let Some(trainer) = trainer_of(app, i) {
            draw_column(frame, *rect, app, c, i, trainer);
        } else if c.columns[i].is_unigram() {
            let title = title_rows(c, i, rect.width.saturating_sub(2) as usize);
            crate::view::compare_unigram::draw_column(frame, *rect, app, c, i, title);
        }
    }
}

/// `a + b` as the tables show tokens of column `t`'s trainer (`e+⌟` in
/// char mode, as the other panes draw it).
fn pair_label(app: &App, t: &Trainer, (a, b): &MergeBytes) -> String {
    let label = |bytes: &[u8]| crate::view::trained_label(app, t, bytes);
    format!("{}+{}", label(a), label(b))
}

/// How a column's frame is lit: its title when it is the focused column,
/// its border when the merge pane has the keys as well.
pub struct ColumnLight {
    pub title: bool,
    pub border: bool,
}

/// Draws a column's border and title in `area`. Gives the body inside it
/// and the lines it starts with (what the title had no room for, under
/// it: a column is never told by a cut title), or nothing when the body
/// is too small to hold a line.
pub fn column_frame(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    (title, rest): (String, Vec<String>),
    light: ColumnLight,
) -> Option<(Rect, Vec<Line<'static>>)> {
    let theme = &app.theme;
    let block = Block::bordered()
        .border_set(theme.border())
        .border_style(theme.border_style(light.border))
        .title(Line::styled(title, theme.title(light.title)));
    let body = inner(area);
    frame.render_widget(block, area);
    if body.width < 4 || body.height == 0 {
        return None;
    }
    let lines = rest
        .into_iter()
        .map(|r| Line::styled(r, theme.heading()))
        .collect();
    Some((body, lines))
}

fn draw_column(frame: &mut Frame, area: Rect, app: &App, c: &Comparison, i: usize, t: &Trainer) {
    let theme = &app.theme;
    let focused = i == c.focused;
    let title = title_rows(c, i, area.width.saturating_sub(2) as usize);
    let light = ColumnLight {
        title: focused,
        border: focused && app.focus == Focus::Merges,
    };
    let Some((body, mut lines)) = column_frame(frame, area, app, title, light) else {
        return;
    };
    let w = body.width as usize;
    lines.push(next_line(app, c, t, w));
    if let Some(row) = cut_line(app, c, i, w) {
        lines.push(row);
    }
    let rows = body.height as usize;
    // The merge list keeps at least half the rows.
    let pair_rows = PAIR_ROWS.min(rows.saturating_sub(2) / 2);
    let vocab = t.vocab();
    for row in t.top_pairs(pair_rows) {
        let bytes = (
            vocab.token_bytes(row.pair.0).to_vec(),
            vocab.token_bytes(row.pair.1).to_vec(),
        );
        let text = format!("{:>6} {}", row.count, pair_label(app, t, &bytes));
        lines.push(Line::styled(
            fit_left(&text, w, theme.glyphs.ellipsis),
            theme.dim(),
        ));
    }
    let list = &c.lists[i];
    lines.push(Line::styled(
        fit_left(&format!("merges {}", list.len()), w, ""),
        theme.heading(),
    ));
    let visible = rows.saturating_sub(lines.len());
    let rank_w = list.len().max(1).to_string().len();
    // The rows end at the newest merge, or hold the selected rank (every
    // column shows the same ranks, so a rank is read across).
    let selected = match (app.focus, app.scroll.merge_cursor) {
        (Focus::Merges, Some(r)) => Some(r),
        _ => None,
    };
    let longest = c.lists.iter().map(Vec::len).max().unwrap_or(0);
    let first = match selected {
        Some(s) => s
            .saturating_sub(visible / 2)
            .min(longest.saturating_sub(visible)),
        None => longest.saturating_sub(visible),
    };
    for rank in first..first + visible {
        let line = match list.get(rank) {
            Some(m) => {
                let part = if c.first == Some(rank) {
                    PART_MARK
                } else {
                    ' '
                };
                let alone = c.alone(i, rank);
                let star = if alone { ONLY_MARK } else { ' ' };
                // Merges are counted from 1, as the status line counts them.
                let number = rank + 1;
                let text = format!("{part}{number:>rank_w$}{star}{}", pair_label(app, t, m));
                let mut style = Style::new();
                if alone {
                    style = theme.fresh();
                }
                if c.first == Some(rank) {
                    style = style.add_modifier(Modifier::BOLD);
                }
                if selected == Some(rank) {
                    style = theme.cursor_row();
                }
                Line::styled(fit_left(&text, w, theme.glyphs.ellipsis), style)
            }
            None if rank == list.len() && rank < longest => {
                Line::styled(fit_left("(stopped)", w, ""), theme.dim())
            }
            None => Line::default(),
        };
        lines.push(line);
    }
    crate::view::put_lines(frame, body, &lines);
}

/// Column `i`'s title in a border `room` columns wide, its options whole,
/// and the options it has no room for as rows of at most `room - 2`
/// columns (the body's width), one option never broken across two.
fn title_rows(c: &Comparison, i: usize, room: usize) -> (String, Vec<String>) {
    let mut title = format!(" {}", Comparison::name(i));
    let mut parts = c.columns[i].parts.iter().peekable();
    while let Some(p) = parts.next_if(|p| width(&title) + width(p) + 2 <= room) {
        title = format!("{title} {p}");
    }
    title.push(' ');
    let body = room.saturating_sub(2).max(1);
    let mut rows: Vec<String> = Vec::new();
    for p in parts {
        match rows.last_mut() {
            Some(row) if width(row) + 1 + width(p) <= body => {
                row.push(' ');
                row.push_str(p);
            }
            _ => rows.extend(crate::panes::why::wrap(p, body)),
        }
    }
    (title, rows)
}

/// What the column does next: the pair it chose or would choose, or why
/// it stopped while the others go on.
fn next_line(app: &App, c: &Comparison, t: &Trainer, w: usize) -> Line<'static> {
    let theme = &app.theme;
    let here = t.merges().len();
    let stop = t.stop_reason().or_else(|| match t.phase() {
        Phase::Chosen(_) => None,
        _ => t.peek_choice().err(),
    });
    let pair_of = |a, b| {
        let v = t.vocab();
        pair_label(
            app,
            t,
            &(v.token_bytes(a).to_vec(), v.token_bytes(b).to_vec()),
        )
    };
    let (text, style) = match (t.phase(), stop) {
        (Phase::Chosen(choice), _) => (
            format!(
                "{} {} {}",
                theme.glyphs.winner,
                pair_of(choice.pair.0, choice.pair.1),
                choice.count
            ),
            theme.winner(),
        ),
        (_, Some(reason)) => {
            let more = if c.target.merges > here {
                ", others go on"
            } else {
                ""
            };
            (
                format!("stopped at {here}{more}: {}", reason.short()),
                theme.notice(),
            )
        }
        (_, None) => match t.peek_choice() {
            Ok(choice) => (
                format!(
                    "next {} {}",
                    pair_of(choice.pair.0, choice.pair.1),
                    choice.count
                ),
                Style::new(),
            ),
            Err(_) => (String::new(), Style::new()),
        },
    };
    Line::styled(fit_left(&text, w, theme.glyphs.ellipsis), style)
}

/// The first difference in words: `from merge 7 on: A merges ·t+he, B
/// merges e+·`.
pub fn difference_text(app: &App) -> Option<String> {
    let c = app.compare.as_ref()?;
    Some(match c.first {
        Some(r) => {
            let each: Vec<String> = c
                .lists
                .iter()
                .enumerate()
                .filter_map(|(i, l)| {
                    let m = l.get(r)?;
                    Some(format!(
                        "{} merges {}",
                        Comparison::name(i),
                        pair_label(app, trainer_of(app, i)?, m)
                    ))
                })
                .collect();
            format!("{PART_MARK} from merge {} on: {}", r + 1, each.join(", "))
        }
        None if c.bpe_count() < 2 => {
            let leader = c.columns.iter().position(|col| !col.is_unigram());
            format!(
                "Unigram beside BPE at {}'s vocabulary size (z: tokens by vocabulary size)",
                Comparison::name(leader.unwrap_or(0))
            )
        }
        None => {
            let shortest = c
                .lists
                .iter()
                .zip(&c.columns)
                .filter(|(_, col)| !col.is_unigram())
                .map(|(l, _)| l.len())
                .min()
                .unwrap_or(0);
            format!(
                "the lists hold the same {shortest} first merges ({ONLY_MARK}: in one list only)"
            )
        }
    })
}

pub fn draw_difference(frame: &mut Frame, area: Rect, app: &App) {
    let Some(text) = difference_text(app) else {
        return;
    };
    let text = fit_left(&text, area.width as usize, app.theme.glyphs.ellipsis);
    crate::view::put_lines(frame, area, &[Line::styled(text, app.theme.heading())]);
}

/// Each column's letter, in the colour its curve is drawn in.
pub(crate) fn column_style(app: &App, i: usize) -> Style {
    match app.theme.token_colour(i) {
        Some(colour) => Style::new().fg(colour),
        None => Style::new(),
    }
}

/// The frame of a chart of the columns' curves: its title, each column's
/// name and tokens now on the right with the mark of columns that meet,
/// and, if the token axis is cut, where it starts, said under the chart
/// where the axis is.
pub(crate) fn curves_block(
    app: &App,
    title: &str,
    now: &[u64],
    cut: Option<u64>,
) -> Block<'static> {
    let theme = &app.theme;
    let mut right: Vec<Span> = Vec::new();
    for (i, tokens) in now.iter().enumerate() {
        right.push(Span::styled(
            format!(" {}", Comparison::name(i)),
            column_style(app, i),
        ));
        right.push(Span::raw(format!(" {tokens}")));
    }
    right.push(Span::raw(format!(" {SEVERAL_MARK} met ")));
    let mut block = Block::bordered()
        .border_set(theme.border())
        .border_style(theme.border_style(app.focus == Focus::Corpus))
        .title(Line::styled(
            format!(" {title} "),
            theme.title(app.focus == Focus::Corpus),
        ))
        .title_top(Line::from(right).right_aligned());
    if let Some(low) = cut {
        block = block.title_bottom(Line::styled(
            format!(
                " {} the token axis is cut: it starts at {}, not 0 ",
                glyphs(theme.ascii).cut,
                count_label(low)
            ),
            theme.heading(),
        ));
    }
    block
}

/// Corpus tokens against merges for every column in one chart, each
/// column drawn with its own letter (and colour), on a y axis from 0 or
/// cut just below the lowest curve (the cut marked on the axis and said in
/// the title), the merge numbers under it.
pub fn draw_curves(frame: &mut Frame, area: Rect, app: &App) {
    let Some(c) = app.compare.as_ref() else {
        return;
    };
    if c.columns.iter().any(|col| col.is_unigram()) {
        crate::view::compare_sizes::draw(frame, area, app, c);
        return;
    }
    let theme = &app.theme;
    let curves: Vec<Vec<u64>> = (0..c.columns.len())
        .filter_map(|i| trainer_of(app, i))
        .map(crate::panes::curve::tokens_by_merge)
        .collect();
    let most = curves.iter().flatten().copied().max().unwrap_or(0);
    let least = curves.iter().flatten().copied().min().unwrap_or(0);
    let longest = curves.iter().map(|p| p.len() - 1).max().unwrap_or(0);
    let axis = YAxis::fitted(least, most);
    let now: Vec<u64> = curves.iter().map(|p| p[p.len() - 1]).collect();
    let cut = (axis.is_cut() && longest > 0).then_some(axis.low);
    let block = curves_block(app, "Corpus tokens by merge", &now, cut);
    let g = glyphs(theme.ascii);
    let body = inner(area);
    frame.render_widget(block, area);
    let (w, h) = (body.width as usize, body.height as usize);
    if w < 8 || h < 3 {
        return;
    }
    if longest == 0 {
        let words = "no merges yet: each column's curve starts with its first merge";
        crate::view::put_lines(frame, body, &[Line::raw(fit_left(words, w, ""))]);
        return;
    }
    let chart_h = h - 1;
    let gutter = y_gutter(&axis, chart_h, &g);
    let gutter_w = gutter.first().map_or(0, |s| crate::view::widths::width(s));
    let plot_w = w.saturating_sub(gutter_w).max(1);
    let grid = curve_grid(&curves, &axis, plot_w, chart_h, longest);
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    for (row, label) in grid.iter().zip(gutter) {
        let mut spans = vec![Span::styled(label, theme.dim())];
        for cell in row {
            spans.push(match cell {
                Some(SEVERAL) => Span::raw(SEVERAL_MARK.to_string()),
                Some(i) => Span::styled(Comparison::name(*i).to_string(), column_style(app, *i)),
                None => Span::raw(" "),
            });
        }
        lines.push(Line::from(spans));
    }
    let x_axis = x_row(plot_w, plot_w - 1, longest, None, "");
    lines.push(Line::styled(
        format!("{}{x_axis}", " ".repeat(gutter_w)),
        theme.dim(),
    ));
    crate::view::put_lines(frame, body, &lines);
}

/// The cells of the chart, `rows` by `plot_w`: which column's curve
/// passes through each, [`SEVERAL`] where curves meet.
fn curve_grid(
    curves: &[Vec<u64>],
    axis: &YAxis,
    plot_w: usize,
    rows: usize,
    longest: usize,
) -> Vec<Vec<Option<usize>>> {
    let mut grid: Vec<Vec<Option<usize>>> = vec![vec![None; plot_w]; rows];
    let row_of = |tokens: u64| {
        let y = ((1.0 - axis.share(tokens)) * (rows - 1) as f64).round() as usize;
        y.min(rows - 1)
    };
    for (i, points) in curves.iter().enumerate() {
        // The merge each cell column stands for, on one axis for all.
        let merge_at = |x: usize| (x * longest) / plot_w.saturating_sub(1).max(1);
        let cells: Vec<(usize, usize)> = (0..plot_w)
            .filter_map(|x| points.get(merge_at(x)).map(|&t| (x, row_of(t))))
            .collect();
        for (x, y) in cells {
            let cell = &mut grid[y][x];
            // Curves that meet share the cell: neither hides the other.
            *cell = match *cell {
                Some(j) if j != i => Some(SEVERAL),
                _ => Some(i),
            };
        }
    }
    grid
}

/// Column `i`'s cut of the encode box's text, when it has one.
pub(crate) fn cut_line(app: &App, c: &Comparison, i: usize, w: usize) -> Option<Line<'static>> {
    let cut = &c.columns[i].cut;
    if !cut.is_shown() {
        return None;
    }
    let bar = app.theme.glyphs.separator;
    let text = crate::compare_cuts::row(cut, bar);
    Some(Line::styled(
        fit_left(&text, w, app.theme.glyphs.ellipsis),
        app.theme.fresh(),
    ))
}
