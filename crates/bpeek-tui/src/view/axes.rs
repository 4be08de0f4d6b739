//! The axes of the token charts (the compression curve and the compared
//! curves): a y axis of corpus tokens, labelled at its top and bottom,
//! that starts at 0 or shows where it is cut, and an x axis of merge
//! numbers under the plot.
//!
//! ```text
//! 2958┤█▄▁                     3012┤AB
//!     │████▆▄▂▁                    │  AAB
//!    0┤████████▇▆▅▄▃▂▁             ≈    BB&A
//!     0   ▲       merge 30     2000┤       &AA
//!                                  0      merge 30
//! ```

use crate::theme::Theme;
use crate::view::widths::{fit_titles, width};
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

const EIGHTHS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
const ASCII_LEVELS: [&str; 9] = [" ", " ", ".", ".", "o", "o", "O", "O", "#"];

/// The frame of a chart of one curve, `width` columns wide: its title, and
/// the counts `right` on the right while they fit (a narrow pane drops the
/// counts before it cuts the title).
pub fn curve_block(t: &Theme, title: &str, right: &str, width: u16) -> Block<'static> {
    let (title, right) = fit_titles(&[title], right, &[], width as usize, t.glyphs.ellipsis);
    let block = Block::bordered()
        .border_set(t.border())
        .border_style(t.border_style(false))
        .title(Line::styled(format!(" {title} "), t.title(false)));
    if right.is_empty() {
        return block;
    }
    block.title_top(Line::raw(format!(" {right} ")).right_aligned())
}

/// Bars a column each, in eighths of a row: each of `values` on `axis`,
/// as high as the `gutter` has rows, after its labels; the column `marked`
/// drawn as the winner is, the others as headings. A count above 0 shows
/// at least a sliver.
pub fn bar_lines(
    t: &Theme,
    axis: &YAxis,
    gutter: &[String],
    values: impl Iterator<Item = u64>,
    marked: usize,
) -> Vec<Line<'static>> {
    let chart_h = gutter.len();
    let eighths: Vec<usize> = values
        .map(|v| {
            let e = (axis.share(v) * (chart_h * 8) as f64).round() as usize;
            if v > 0 { e.max(1) } else { e }
        })
        .collect();
    let levels = if t.ascii { &ASCII_LEVELS } else { &EIGHTHS };
    let mut lines = Vec::with_capacity(chart_h);
    for (row, label) in gutter.iter().enumerate() {
        let floor = (chart_h - 1 - row) * 8;
        let mut spans = vec![Span::styled(label.clone(), t.dim())];
        spans.extend(eighths.iter().enumerate().map(|(c, &e)| {
            let style = if c == marked { t.winner() } else { t.heading() };
            Span::styled(levels[e.saturating_sub(floor).min(8)], style)
        }));
        lines.push(Line::from(spans));
    }
    lines
}

/// Where a y axis starts and ends, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YAxis {
    pub low: u64,
    pub high: u64,
}

impl YAxis {
    /// From 0 to `most`: a fall of 4% is drawn as 4% of the height.
    pub fn from_zero(most: u64) -> Self {
        YAxis {
            low: 0,
            high: most.max(1),
        }
    }

    /// For curves between `least` and `most`: from 0 while that leaves the
    /// curves at least half the height, else cut at a round number at or
    /// below `least`, so curves a little apart are drawn apart.
    pub fn fitted(least: u64, most: u64) -> Self {
        if least <= most / 2 {
            return YAxis::from_zero(most);
        }
        // A tenth of the span's order, so the curves keep most rows.
        let unit = 10u64.pow((most - least).max(1).ilog10().saturating_sub(1));
        YAxis {
            low: least / unit * unit,
            high: most.max(1),
        }
    }

    /// Whether the axis leaves out the counts below its bottom.
    pub fn is_cut(&self) -> bool {
        self.low > 0
    }

    /// Where `v` stands between the bottom (0.0) and the top (1.0).
    pub fn share(&self, v: u64) -> f64 {
        let span = self.high.saturating_sub(self.low).max(1) as f64;
        (v.saturating_sub(self.low) as f64 / span).clamp(0.0, 1.0)
    }
}

/// The characters axes are drawn with.
pub struct AxisGlyphs {
    /// A labelled value on the y axis.
    pub tick: &'static str,
    /// The y axis between labels.
    pub line: &'static str,
    /// The break in a cut y axis.
    pub cut: &'static str,
    /// The multiplication sign.
    pub times: &'static str,
}

pub fn glyphs(ascii: bool) -> AxisGlyphs {
    if ascii {
        AxisGlyphs {
            tick: "+",
            line: "|",
            cut: "~",
            times: "x",
        }
    } else {
        AxisGlyphs {
            tick: "┤",
            line: "│",
            cut: "≈",
            times: "×",
        }
    }
}

/// A token count as an axis label: whole up to 99,999, then `123.4k`,
/// `41.2M`.
pub fn count_label(v: u64) -> String {
    if v < 100_000 {
        v.to_string()
    } else {
        bpeek_core::embedding::short_count(v)
    }
}

/// The y axis beside a plot `rows` high, a string per row, all as wide:
/// the top value by the first row and the bottom value by the last, the
/// axis line between; a cut axis has its break mark just above the bottom
/// (on the bottom row itself when there are only two rows).
pub fn y_gutter(axis: &YAxis, rows: usize, g: &AxisGlyphs) -> Vec<String> {
    let (top, bottom) = (count_label(axis.high), count_label(axis.low));
    let label_w = width(&top).max(width(&bottom));
    let blank = " ".repeat(label_w);
    (0..rows)
        .map(|row| {
            let last = row + 1 == rows;
            match row {
                0 => format!("{top:>label_w$}{}", g.tick),
                _ if last && axis.is_cut() && rows == 2 => format!("{bottom:>label_w$}{}", g.cut),
                _ if last => format!("{bottom:>label_w$}{}", g.tick),
                _ if axis.is_cut() && row + 2 == rows => format!("{blank}{}", g.cut),
                _ => format!("{blank}{}", g.line),
            }
        })
        .collect()
}

/// The x axis under a plot `plot_w` columns wide whose merges run from 0
/// in the first column to `n` in column `last_col`: `0` at the left,
/// `merge N` ending under `last_col` (`N` alone where the word does not
/// fit), and `up` under column `mark` where it is clear of both.
pub fn x_row(plot_w: usize, last_col: usize, n: usize, mark: Option<usize>, up: &str) -> String {
    let mut cells: Vec<String> = vec![" ".to_string(); plot_w];
    let mut put = |at: usize, text: &str| {
        for (k, c) in text.chars().enumerate() {
            if let Some(cell) = cells.get_mut(at + k) {
                *cell = c.to_string();
            }
        }
    };
    put(0, "0");
    // The last label ends under its column, a blank after the `0`.
    let ending_under = |text: &str| (last_col + 1).checked_sub(text.len()).filter(|s| *s >= 2);
    let worded = format!("merge {n}");
    let number = n.to_string();
    let right = match (ending_under(&worded), ending_under(&number)) {
        (Some(s), _) => Some((s, worded)),
        (None, Some(s)) => Some((s, number)),
        _ if 2 + number.len() <= plot_w => Some((2, number)),
        _ => None,
    };
    let (start, end) = match &right {
        Some((s, text)) => {
            put(*s, text);
            (*s, s + text.len())
        }
        None => (plot_w, plot_w),
    };
    if let Some(m) = mark {
        let clear = m >= 2 && (m + 1 < start || m > end) && m < plot_w;
        if clear {
            cells[m] = up.to_string();
        }
    }
    cells.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axis_starts_at_zero_unless_the_curves_keep_to_its_top_half() {
        assert_eq!(YAxis::fitted(1000, 2958), YAxis { low: 0, high: 2958 });
        // 1761 to 2958: cut at 1700, a round number below the lowest.
        assert_eq!(
            YAxis::fitted(1761, 2958),
            YAxis {
                low: 1700,
                high: 2958
            }
        );
        assert_eq!(YAxis::fitted(2013, 2958).low, 2010);
        assert_eq!(YAxis::fitted(2041, 2058).low, 2041);
        assert!(YAxis::fitted(2013, 2958).is_cut());
        assert!(!YAxis::from_zero(2958).is_cut());
        assert_eq!(YAxis::from_zero(0).share(0), 0.0);
    }

    #[test]
    fn the_y_axis_names_its_top_and_bottom_and_marks_a_cut() {
        let g = glyphs(true);
        assert_eq!(
            y_gutter(&YAxis::from_zero(2958), 4, &g),
            ["2958+", "    |", "    |", "   0+"]
        );
        let cut = YAxis {
            low: 2000,
            high: 2958,
        };
        assert_eq!(y_gutter(&cut, 4, &g), ["2958+", "    |", "    ~", "2000+"]);
        assert_eq!(y_gutter(&cut, 2, &g), ["2958+", "2000~"]);
        assert_eq!(y_gutter(&cut, 1, &g), ["2958+"]);
    }

    #[test]
    fn the_x_axis_names_the_first_and_last_merge() {
        assert_eq!(x_row(20, 19, 30, None, "^"), "0           merge 30");
        assert_eq!(x_row(20, 19, 30, Some(6), "^"), "0     ^     merge 30");
        // Few merges, one column each: the number under its column.
        assert_eq!(x_row(20, 3, 3, None, "^"), "0  3                ");
        assert_eq!(x_row(8, 7, 123, Some(7), "^"), "0    123");
        // The mark never covers a label, nor touches one.
        assert_eq!(x_row(20, 19, 30, Some(1), "^"), "0           merge 30");
        assert_eq!(x_row(20, 19, 30, Some(11), "^"), "0           merge 30");
        assert_eq!(x_row(20, 19, 30, Some(19), "^"), "0           merge 30");
        assert_eq!(x_row(20, 19, 30, Some(10), "^"), "0         ^ merge 30");
    }
}
