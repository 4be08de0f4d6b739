//! How many cells a terminal gives a grapheme cluster.
//!
//! ratatui lays rows out by the widths `unicode-width` gives a whole
//! cluster: one cell for `யா` (its vowel sign is a mark), two for `👍🏽`
//! and for `🧑‍💻`. Many terminals count code points instead, each by its
//! own width: tmux and xterm give `யா` two cells (the vowel sign is a
//! spacing mark there), `👍🏽` four (the skin tone is an emoji of its own).
//! A cluster placed by ratatui's count then spills into the next cell,
//! and whatever is drawn there covers it: the vowel sign or the skin tone
//! vanishes.
//!
//! So the explorer asks the terminal. At the start it writes a few probe
//! clusters, one for each way terminals differ, each followed by a
//! cursor position request; each answer says how many cells that cluster
//! took. Until the answers come (and for a terminal that never answers)
//! the widths are those of tmux and xterm, the most common way. The layout
//! of token text then leaves room after a cluster the terminal draws
//! wider than ratatui counts it (see [`extra_cells`]), and the backend
//! writes nothing over that room.

use std::cell::Cell;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The ways terminals differ in the cells they give a cluster, each as
/// the terminal answered its probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TermWidths {
    /// Cells a spacing vowel sign that `unicode-width` counts as a mark
    /// takes after its base (`ா` in `யா`): 1 in tmux and xterm, 0 where
    /// the cluster is measured whole.
    pub spacing_mark: u8,
    /// Cells an emoji modifier (a skin tone) takes after its emoji: 2
    /// where each emoji is drawn on its own, 0 where the pair is one.
    pub emoji_modifier: u8,
    /// Whether a character after a zero-width joiner takes no cells of
    /// its own (`🧑‍💻` in two cells, as tmux draws it) or its own width.
    pub joined_is_free: bool,
    /// Whether a text character followed by the emoji variation selector
    /// (`❤️`) takes two cells, as an emoji does, or stays at one.
    pub selector_widens: bool,
    /// Cells each regional indicator of a flag takes: 1 or 2.
    pub regional_indicator: u8,
}

impl Default for TermWidths {
    /// tmux's and xterm's widths: each code point by its own width.
    fn default() -> Self {
        TermWidths {
            spacing_mark: 1,
            emoji_modifier: 2,
            joined_is_free: true,
            selector_widens: false,
            regional_indicator: 1,
        }
    }
}

/// One probe: a cluster written on its own row, and what its answer sets.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    pub text: &'static str,
    learn: fn(&mut TermWidths, usize),
}

/// The probes, in the order they are written: probe `i` on screen row
/// [`FIRST_PROBE_ROW`]` + i` (1-based), so its answer names its row and
/// cannot be read as a key (a function key's report names row 1).
pub const PROBES: [Probe; 5] = [
    Probe {
        text: "\u{0BAF}\u{0BBE}",
        learn: |w, cells| w.spacing_mark = u8::from(cells >= 2),
    },
    Probe {
        text: "\u{1F44D}\u{1F3FD}",
        learn: |w, cells| w.emoji_modifier = if cells >= 4 { 2 } else { 0 },
    },
    Probe {
        text: "\u{1F9D1}\u{200D}\u{1F4BB}",
        learn: |w, cells| w.joined_is_free = cells <= 2,
    },
    Probe {
        text: "\u{2764}\u{FE0F}",
        learn: |w, cells| w.selector_widens = cells >= 2,
    },
    Probe {
        text: "\u{1F1EB}\u{1F1F7}",
        learn: |w, cells| w.regional_indicator = if cells >= 4 { 2 } else { 1 },
    },
];

/// The screen row (1-based) of the first probe.
pub const FIRST_PROBE_ROW: u16 = 2;

/// The bytes that probe a terminal: each probe at the start of its row,
/// a cursor position request after it, then the screen erased.
pub fn probe_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    for (i, probe) in PROBES.iter().enumerate() {
        let row = usize::from(FIRST_PROBE_ROW) + i;
        out.extend_from_slice(format!("\x1b[{row};1H{}\x1b[6n", probe.text).as_bytes());
    }
    out.extend_from_slice(b"\x1b[H\x1b[2J");
    out
}

impl TermWidths {
    /// Take a cursor position report (1-based `row` and `col`): if it
    /// answers a probe, learn from it. True if the widths changed.
    pub fn learn(&mut self, row: u16, col: u16) -> bool {
        let Some(i) = row.checked_sub(FIRST_PROBE_ROW) else {
            return false;
        };
        let Some(probe) = PROBES.get(usize::from(i)) else {
            return false;
        };
        let before = *self;
        (probe.learn)(self, usize::from(col.saturating_sub(1)));
        *self != before
    }

    /// The cells the terminal gives `cluster`, written at the start of a
    /// cell.
    pub fn cells(&self, cluster: &str) -> usize {
        let mut cells = 0;
        let mut after_joiner = false;
        let mut previous_width = 0;
        for (i, c) in cluster.chars().enumerate() {
            let own = c.width().unwrap_or(0);
            let w = if after_joiner && self.joined_is_free {
                0
            } else if i > 0 && is_emoji_modifier(c) {
                usize::from(self.emoji_modifier)
            } else if c == '\u{FE0F}' {
                usize::from(self.selector_widens && previous_width == 1)
            } else if is_regional_indicator(c) {
                usize::from(self.regional_indicator)
            } else if own == 0 && i > 0 && is_spacing_mark(c) {
                usize::from(self.spacing_mark) * spacing_mark_width(c)
            } else {
                own
            };
            after_joiner = c == '\u{200D}';
            previous_width = w;
            cells += w;
        }
        cells
    }
}

/// The cells the terminal takes for `cluster` beyond the ones ratatui
/// counts: room the layout leaves after it, so nothing covers it.
pub fn extra_cells(widths: &TermWidths, cluster: &str) -> usize {
    let counted = cluster.width();
    if counted == 0 {
        return 0;
    }
    widths.cells(cluster).saturating_sub(counted)
}

fn is_emoji_modifier(c: char) -> bool {
    ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

fn is_regional_indicator(c: char) -> bool {
    ('\u{1F1E6}'..='\u{1F1FF}').contains(&c)
}

/// Spacing marks (general category Mc) that `unicode-width` counts as
/// zero: they extend a cluster, yet most terminals give them a cell of
/// their own. The table is checked against every code point in the tests.
const ZERO_WIDTH_SPACING_MARKS: &[(char, char)] = &[
    ('\u{09BE}', '\u{09BE}'),
    ('\u{09D7}', '\u{09D7}'),
    ('\u{0B3E}', '\u{0B3E}'),
    ('\u{0B57}', '\u{0B57}'),
    ('\u{0BBE}', '\u{0BBE}'),
    ('\u{0BD7}', '\u{0BD7}'),
    ('\u{0CC0}', '\u{0CC0}'),
    ('\u{0CC2}', '\u{0CC2}'),
    ('\u{0CC7}', '\u{0CC8}'),
    ('\u{0CCA}', '\u{0CCB}'),
    ('\u{0CD5}', '\u{0CD6}'),
    ('\u{0D3E}', '\u{0D3E}'),
    ('\u{0D57}', '\u{0D57}'),
    ('\u{0DCF}', '\u{0DCF}'),
    ('\u{0DDF}', '\u{0DDF}'),
    ('\u{1715}', '\u{1715}'),
    ('\u{1734}', '\u{1734}'),
    ('\u{1B35}', '\u{1B35}'),
    ('\u{1B3B}', '\u{1B3B}'),
    ('\u{1B3D}', '\u{1B3D}'),
    ('\u{1B43}', '\u{1B44}'),
    ('\u{1BAA}', '\u{1BAA}'),
    ('\u{1BF2}', '\u{1BF3}'),
    ('\u{302E}', '\u{302F}'),
    ('\u{A953}', '\u{A953}'),
    ('\u{A9C0}', '\u{A9C0}'),
    ('\u{111C0}', '\u{111C0}'),
    ('\u{11235}', '\u{11235}'),
    ('\u{1133E}', '\u{1133E}'),
    ('\u{1134D}', '\u{1134D}'),
    ('\u{11357}', '\u{11357}'),
    ('\u{114B0}', '\u{114B0}'),
    ('\u{114BD}', '\u{114BD}'),
    ('\u{115AF}', '\u{115AF}'),
    ('\u{116B6}', '\u{116B6}'),
    ('\u{11930}', '\u{11930}'),
    ('\u{1193D}', '\u{1193D}'),
    ('\u{16FF0}', '\u{16FF1}'),
    ('\u{1D165}', '\u{1D166}'),
    ('\u{1D16D}', '\u{1D172}'),
];

pub fn is_spacing_mark(c: char) -> bool {
    ZERO_WIDTH_SPACING_MARKS
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A spacing mark of a wide script (Hangul's tone marks, Khitan's vowel
/// marks) takes two cells where it takes any.
fn spacing_mark_width(c: char) -> usize {
    if matches!(c, '\u{302E}'..='\u{302F}' | '\u{16FF0}'..='\u{16FF1}') {
        2
    } else {
        1
    }
}

thread_local! {
    /// The widths of the terminal being drawn on, on this thread.
    static DRAWING_FOR: Cell<TermWidths> = Cell::new(TermWidths::default());
}

/// The widths of the terminal the current frame is drawn for.
pub fn current() -> TermWidths {
    DRAWING_FOR.with(Cell::get)
}

/// Run `draw` with `widths` as the terminal's widths on this thread.
pub fn drawing_for<R>(widths: TermWidths, draw: impl FnOnce() -> R) -> R {
    let before = DRAWING_FOR.with(|w| w.replace(widths));
    let result = draw();
    DRAWING_FOR.with(|w| w.set(before));
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_widths_count_code_points() {
        let w = TermWidths::default();
        assert_eq!(w.cells("\u{0BAF}\u{0BBE}"), 2, "யா");
        assert_eq!(w.cells("\u{1F44D}\u{1F3FD}"), 4, "👍🏽");
        assert_eq!(w.cells("\u{1F9D1}\u{1F3FF}\u{200D}\u{1F4BB}"), 4, "🧑🏿‍💻");
        assert_eq!(w.cells("\u{2764}\u{FE0F}"), 1, "❤️");
        assert_eq!(w.cells("\u{1F1EB}\u{1F1F7}"), 2, "🇫🇷");
        assert_eq!(w.cells("#\u{FE0F}\u{20E3}"), 1, "#️⃣");
        assert_eq!(w.cells("\u{0915}\u{094D}\u{0937}\u{093F}"), 3, "क्षि");
        assert_eq!(w.cells("\u{1112}\u{1161}\u{11AB}"), 2, "한 as jamo");
        assert_eq!(w.cells("\u{0E01}\u{0E49}"), 1, "ก้");
    }

    #[test]
    fn a_terminal_that_measures_clusters_whole_is_learnt_from_its_answers() {
        let mut w = TermWidths::default();
        // Each probe took as many cells as unicode-width gives it.
        for (i, probe) in PROBES.iter().enumerate() {
            let row = FIRST_PROBE_ROW + i as u16;
            w.learn(row, probe.text.width() as u16 + 1);
        }
        for cluster in [
            "\u{0BAF}\u{0BBE}",
            "\u{1F44D}\u{1F3FD}",
            "\u{1F9D1}\u{1F3FF}\u{200D}\u{1F4BB}",
            "\u{2764}\u{FE0F}",
            "\u{1F1EB}\u{1F1F7}",
            "#\u{FE0F}\u{20E3}",
        ] {
            assert_eq!(w.cells(cluster), cluster.width(), "{cluster}");
        }
    }

    #[test]
    fn reports_that_answer_no_probe_are_ignored() {
        let mut w = TermWidths::default();
        assert!(!w.learn(1, 5), "row 1 is a function key's report");
        assert!(!w.learn(FIRST_PROBE_ROW + PROBES.len() as u16, 3));
        assert!(!w.learn(u16::MAX, u16::MAX));
        assert_eq!(w, TermWidths::default());
    }

    #[test]
    fn the_spacing_mark_table_is_every_mark_unicode_width_counts_as_zero() {
        // Every code point with a spacing mark's combining class behaviour:
        // a mark (unicode-normalization's test) of zero width that is no
        // nonspacing mark, i.e. one drawn beside its base.
        for (lo, hi) in ZERO_WIDTH_SPACING_MARKS {
            for c in *lo..=*hi {
                assert_eq!(c.width(), Some(0), "{:04X}", c as u32);
                assert!(
                    unicode_normalization::char::is_combining_mark(c),
                    "{:04X}",
                    c as u32
                );
            }
        }
        let sorted = ZERO_WIDTH_SPACING_MARKS.windows(2).all(|p| p[0].1 < p[1].0);
        assert!(sorted, "the table is searched by halves");
    }
}
