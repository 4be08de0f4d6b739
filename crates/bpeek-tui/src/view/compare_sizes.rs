//! The compare chart when a Unigram column stands beside BPE columns:
//! corpus tokens against vocabulary size, on one chart. A BPE column's
//! curve runs from its first vocabulary (bytes or characters) up to its
//! vocabulary now, falling as merges grow it; a Unigram column's points
//! are the sizes its run passed through on the way down from its seeds
//! (the seeding, each prune, each estimate that dropped pieces), its
//! tokens rising as pieces go. Seeds are many more than a BPE vocabulary
//! has, so the size axis is logarithmic.

use crate::app::App;
use crate::compare::{Comparison, trainer_of};
use crate::layout::inner;
use crate::view::axes::{YAxis, glyphs, y_gutter};
use crate::view::compare::{SEVERAL_MARK, column_style, curves_block};
use crate::view::widths::{fit_left, width};
use bpeek_core::train::unigram::UnigramTrainer;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// One column's points: (vocabulary size, corpus tokens), by size, and
/// whether they are a curve (every size between) or single points.
pub struct SizePoints {
    pub points: Vec<(u64, u64)>,
    pub curve: bool,
}

/// A BPE column's curve: size `first + m` after merge `m`.
fn bpe_points(app: &App, c: &Comparison, i: usize) -> Option<SizePoints> {
    let t = trainer_of(app, i)?;
    let tokens = crate::panes::curve::tokens_by_merge(t);
    let now = crate::compare_unigram::size_of_bpe(t, &c.columns[i].options) as u64;
    let first = now - t.merges().len() as u64;
    let points = tokens
        .into_iter()
        .enumerate()
        .map(|(m, k)| (first + m as u64, k))
        .collect();
    Some(SizePoints {
        points,
        curve: true,
    })
}

/// A Unigram run's points: the size after each step that changed it (the
/// reserved pieces counted, as its vocabulary size counts them), the last
/// tokens at each size.
pub fn unigram_points(t: &UnigramTrainer) -> Vec<(u64, u64)> {
    let reserved = t.config().reserved() as u64;
    let mut points: Vec<(u64, u64)> = Vec::new();
    for s in t.steps() {
        let size = reserved + s.pieces as u64;
        match points.last_mut() {
            Some(last) if last.0 == size => last.1 = s.tokens,
            _ => points.push((size, s.tokens)),
        }
    }
    points.reverse();
    points
}

fn all_points(app: &App, c: &Comparison) -> Vec<SizePoints> {
    (0..c.columns.len())
        .filter_map(|i| match c.columns[i].unigram.as_ref() {
            Some(u) => Some(SizePoints {
                points: unigram_points(&u.shown),
                curve: false,
            }),
            None => bpe_points(app, c, i),
        })
        .collect()
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, c: &Comparison) {
    let theme = &app.theme;
    let all = all_points(app, c);
    let values = || all.iter().flat_map(|p| p.points.iter());
    let most = values().map(|p| p.1).max().unwrap_or(0);
    let least = values().map(|p| p.1).min().unwrap_or(0);
    let small = values().map(|p| p.0).min().unwrap_or(1).max(1);
    let large = values().map(|p| p.0).max().unwrap_or(1).max(small);
    let axis = YAxis::fitted(least, most);
    let now: Vec<u64> = all
        .iter()
        .enumerate()
        .map(|(i, p)| match c.columns[i].unigram.as_ref() {
            Some(u) => u.shown.last_step().tokens,
            None => p.points.last().map_or(0, |x| x.1),
        })
        .collect();
    let cut = axis.is_cut().then_some(axis.low);
    let block = curves_block(app, "Corpus tokens by vocabulary size", &now, cut);
    let g = glyphs(theme.ascii);
    let body = inner(area);
    frame.render_widget(block, area);
    let (w, h) = (body.width as usize, body.height as usize);
    if w < 12 || h < 3 {
        return;
    }
    let chart_h = h - 1;
    let gutter = y_gutter(&axis, chart_h, &g);
    let gutter_w = gutter.first().map_or(0, |s| width(s));
    let plot_w = w.saturating_sub(gutter_w).max(2);
    let scale = LogScale {
        small,
        large,
        plot_w,
    };
    let grid = size_grid(&all, &axis, &scale, chart_h);
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    for (row, label) in grid.iter().zip(gutter) {
        let mut spans = vec![Span::styled(label, theme.dim())];
        for cell in row {
            spans.push(match cell {
                Some(usize::MAX) => Span::raw(SEVERAL_MARK.to_string()),
                Some(i) => Span::styled(Comparison::name(*i).to_string(), column_style(app, *i)),
                None => Span::raw(" "),
            });
        }
        lines.push(Line::from(spans));
    }
    let x_axis = size_row(plot_w, small, large);
    lines.push(Line::styled(
        format!("{}{x_axis}", " ".repeat(gutter_w)),
        theme.dim(),
    ));
    crate::view::put_lines(frame, body, &lines);
}

/// Sizes from `small` in the first column to `large` in the last, spaced
/// by their logarithm.
pub struct LogScale {
    pub small: u64,
    pub large: u64,
    pub plot_w: usize,
}

impl LogScale {
    /// The cell column of `size`.
    pub fn column(&self, size: u64) -> usize {
        let last = (self.plot_w - 1) as f64;
        if self.large <= self.small {
            return 0;
        }
        let span = (self.large as f64 / self.small as f64).ln();
        let at = (size.max(self.small) as f64 / self.small as f64).ln() / span;
        ((at * last).round() as usize).min(self.plot_w - 1)
    }
}

/// Which column's curve or points pass through each cell; `usize::MAX`
/// where several meet.
fn size_grid(
    all: &[SizePoints],
    axis: &YAxis,
    scale: &LogScale,
    rows: usize,
) -> Vec<Vec<Option<usize>>> {
    let mut grid: Vec<Vec<Option<usize>>> = vec![vec![None; scale.plot_w]; rows];
    let row_of = |tokens: u64| {
        let y = ((1.0 - axis.share(tokens)) * (rows - 1) as f64).round() as usize;
        y.min(rows - 1)
    };
    for (i, p) in all.iter().enumerate() {
        // A curve has a point at every size: one cell a column is enough
        // (the last size that falls in it).
        let mut cells: Vec<(usize, usize)> = p
            .points
            .iter()
            .map(|&(size, tokens)| (scale.column(size), row_of(tokens)))
            .collect();
        if p.curve {
            cells.dedup_by_key(|c| c.0);
        }
        for (x, y) in cells {
            let cell = &mut grid[y][x];
            *cell = match *cell {
                Some(j) if j != i => Some(usize::MAX),
                _ => Some(i),
            };
        }
    }
    grid
}

/// The size axis: the smallest size at the left, the largest at the
/// right, `log` between where it fits.
fn size_row(plot_w: usize, small: u64, large: u64) -> String {
    let left = small.to_string();
    let right = format!("vocab {large}");
    let right = if width(&left) + 1 + width(&right) <= plot_w {
        right
    } else {
        large.to_string()
    };
    let gap = plot_w.saturating_sub(width(&left) + width(&right));
    let middle = if gap >= 7 {
        let word = "(log)";
        let before = (gap - word.len()) / 2;
        format!(
            "{}{word}{}",
            " ".repeat(before),
            " ".repeat(gap - word.len() - before)
        )
    } else {
        " ".repeat(gap)
    };
    fit_left(&format!("{left}{middle}{right}"), plot_w, "")
}
