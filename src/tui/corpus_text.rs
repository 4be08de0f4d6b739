//! Turning token bytes into screen rows: whitespace glyphs, `<E6>` hex for
//! bytes that are not whole characters, token styles, and wrapping by
//! display width (wide characters take two columns and are never split).

use crate::bpe::pretok::for_each_utf8_run;
use crate::bpe::trainer::Segment;
use crate::bpe::{Pair, TokenId, Trainer};
use crate::tui::app::{App, Boundaries, InputMode};
use crate::tui::lines::LineIndex;
use crate::tui::theme::{Mark, Theme};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::fmt::Write;
use unicode_width::UnicodeWidthChar;

pub const TAB_WIDTH: usize = 4;

/// One character on a row.
struct Cell {
    c: char,
    style: Style,
    width: usize,
    /// A token separator, which never starts a row.
    separator: bool,
    /// The cell the text cursor is on.
    cursor: bool,
}

/// Fills rows of a fixed width with styled text, wrapping as it goes: at
/// the last space of a row when there is one, so words stay whole.
pub struct Rows {
    width: usize,
    rows: Vec<Line<'static>>,
    cells: Vec<Cell>,
    used: usize,
    /// A separator to draw before the next character, unless a row starts
    /// or ends there.
    separator: Option<(&'static str, Style)>,
    /// The next character is where the text cursor is.
    cursor_next: bool,
    /// The row the cursor cell ended up on.
    cursor_row: Option<usize>,
}

impl Rows {
    pub fn new(width: usize) -> Self {
        Rows {
            width: width.max(1),
            rows: Vec::new(),
            cells: Vec::new(),
            used: 0,
            separator: None,
            cursor_next: false,
            cursor_row: None,
        }
    }

    /// The next character pushed is the one the text cursor is on; its row
    /// is given by [`Rows::finish_with_cursor`].
    pub fn mark_cursor(&mut self) {
        self.cursor_next = true;
    }

    /// Rows started so far, the unfinished one included.
    pub fn row_count(&self) -> usize {
        self.rows.len() + usize::from(!self.cells.is_empty())
    }

    /// The column the next character goes to.
    pub fn column(&self) -> usize {
        self.used
    }

    pub fn push(&mut self, s: &str, style: Style) {
        for c in s.chars() {
            self.push_char(c, style);
        }
    }

    /// Mark a token boundary with `glyph` before the next character.
    pub fn separate(&mut self, glyph: &'static str, style: Style) {
        self.separator = Some((glyph, style));
    }

    fn push_char(&mut self, c: char, style: Style) {
        if let Some((glyph, sep_style)) = self.separator.take() {
            for g in glyph.chars() {
                self.push_cell(Cell {
                    c: g,
                    style: sep_style,
                    width: g.width().unwrap_or(0),
                    separator: true,
                    cursor: false,
                });
            }
        }
        let cursor = std::mem::take(&mut self.cursor_next);
        self.push_cell(Cell {
            c,
            style,
            width: c.width().unwrap_or(0),
            separator: false,
            cursor,
        });
    }

    fn push_cell(&mut self, cell: Cell) {
        if self.used + cell.width > self.width && self.used > 0 {
            self.wrap();
        }
        if cell.separator && self.used == 0 {
            // A row's edge already shows the boundary.
            return;
        }
        self.used += cell.width;
        self.cells.push(cell);
    }

    /// Start a new row, carrying the unfinished word over if the row has a
    /// space to break at.
    fn wrap(&mut self) {
        let mut carry = match self.cells.iter().rposition(|cell| cell.c == ' ') {
            Some(i) if i + 1 < self.cells.len() => self.cells.split_off(i + 1),
            _ => Vec::new(),
        };
        let separators = carry.iter().take_while(|cell| cell.separator).count();
        carry.drain(..separators);
        self.end_row();
        self.used = carry.iter().map(|cell| cell.width).sum();
        self.cells = carry;
    }

    /// End the current row, even if it is empty.
    pub fn end_row(&mut self) {
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut text = String::new();
        let mut style = None;
        if self.cells.iter().any(|cell| cell.cursor) {
            self.cursor_row = Some(self.rows.len());
        }
        for Cell { c, style: s, .. } in self.cells.drain(..) {
            if style.is_some_and(|st| st != s) {
                spans.push(Span::styled(
                    std::mem::take(&mut text),
                    style.unwrap_or_default(),
                ));
            }
            style = Some(s);
            text.push(c);
        }
        if !text.is_empty() {
            spans.push(Span::styled(text, style.unwrap_or_default()));
        }
        self.rows.push(Line::from(spans));
        self.used = 0;
    }

    /// The rows, the last one included if it holds anything.
    pub fn finish(self) -> Vec<Line<'static>> {
        self.finish_with_cursor().0
    }

    /// The rows and the row the cursor is on, if one was marked.
    pub fn finish_with_cursor(mut self) -> (Vec<Line<'static>>, Option<usize>) {
        if !self.cells.is_empty() || self.rows.is_empty() {
            self.end_row();
        }
        (self.rows, self.cursor_row)
    }
}

/// Write token bytes to `rows` the way the screen shows them.
pub fn push_bytes(rows: &mut Rows, bytes: &[u8], style: Style, theme: &Theme, whitespace: bool) {
    let glyph = style.patch(theme.glyph()).add_modifier(Modifier::DIM);
    let g = &theme.glyphs;
    for_each_utf8_run(bytes, |start, run| match run {
        Ok(s) => {
            for c in s.chars() {
                match c {
                    ' ' if whitespace => rows.push(g.space, glyph),
                    '\t' if whitespace => rows.push(g.tab, glyph),
                    '\t' => {
                        let n = TAB_WIDTH - rows.column() % TAB_WIDTH;
                        rows.push(&" ".repeat(n), style);
                    }
                    '\n' if whitespace => rows.push(g.newline, glyph),
                    '\r' if whitespace => rows.push(g.carriage_return, glyph),
                    '\n' | '\r' => {}
                    c if c.is_control() => {
                        let mut esc = String::new();
                        let _ = write!(esc, "\\u{{{:x}}}", c as u32);
                        rows.push(&esc, glyph);
                    }
                    c => rows.push_char(c, style),
                }
            }
        }
        Err(len) => {
            let mut hex = String::new();
            for b in &bytes[start..start + len] {
                let _ = write!(hex, "<{b:02X}>");
            }
            rows.push(&hex, style);
        }
    });
}

/// What the corpus pane highlights.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    None,
    /// The pair chosen in this round: its occurrences.
    Pair(Pair),
    /// The token the last merge made.
    Applied(TokenId),
    /// The merge selected in the merge list, and for every id whether it is
    /// built on that merge.
    Selected {
        id: TokenId,
        built_on: Vec<bool>,
    },
}

impl Target {
    pub fn of(app: &App) -> Target {
        let trainer = app.trainer();
        if let Some(rank) = app.selected_merge() {
            let merges = trainer.merges();
            let id = merges[rank].id;
            let mut built_on = vec![false; trainer.vocab().len()];
            built_on[id as usize] = true;
            for m in &merges[rank + 1..] {
                built_on[m.id as usize] =
                    built_on[m.pair.0 as usize] || built_on[m.pair.1 as usize];
            }
            return Target::Selected { id, built_on };
        }
        match trainer.phase() {
            crate::bpe::Phase::Chosen(choice) => Target::Pair(choice.pair),
            crate::bpe::Phase::Merged => trainer
                .merges()
                .last()
                .map_or(Target::None, |m| Target::Applied(m.id)),
            crate::bpe::Phase::Counted => Target::None,
        }
    }

    fn mark_of(&self, id: TokenId) -> Mark {
        match self {
            Target::Applied(t) if *t == id => Mark::Applied,
            Target::Selected { id: t, .. } if *t == id => Mark::Selected,
            Target::Selected { built_on, .. } if built_on.get(id as usize) == Some(&true) => {
                Mark::Inside
            }
            _ => Mark::None,
        }
    }
}

/// Everything needed to draw corpus lines, taken from the app once a frame.
pub struct CorpusLook<'a> {
    pub trainer: &'a Trainer,
    pub lines: &'a LineIndex,
    pub theme: &'a Theme,
    pub whitespace: bool,
    pub separators: bool,
    pub target: Target,
}

impl<'a> CorpusLook<'a> {
    pub fn of(app: &'a App) -> Self {
        CorpusLook {
            trainer: app.trainer(),
            lines: app.lines(),
            theme: &app.theme,
            whitespace: app.show_whitespace,
            separators: app.boundaries == Boundaries::Separators,
            target: if matches!(app.input, InputMode::Help) {
                Target::None
            } else {
                Target::of(app)
            },
        }
    }

    /// Line `i` of the corpus as rows `width` columns wide.
    pub fn line_rows(&self, i: usize, width: usize) -> Vec<Line<'static>> {
        let range = self.lines.range(i);
        let text = self.trainer.corpus().text();
        let segments = self.trainer.segments(range.clone());
        let marks = self.marks(&segments);
        let mut rows = Rows::new(width);
        let mut pos = range.start;
        let mut parity = false;
        let mut prev_end = None;
        for (seg, mark) in segments.iter().zip(marks) {
            let start = seg.start.max(range.start);
            let end = seg.end.min(range.end);
            if start == end {
                continue;
            }
            if pos < start {
                push_bytes(
                    &mut rows,
                    &text[pos..start],
                    Style::new(),
                    self.theme,
                    self.whitespace,
                );
            }
            if self.separators && prev_end == Some(start) {
                rows.separate(self.theme.glyphs.separator, self.theme.glyph());
            }
            let style = self.theme.token(parity, mark);
            push_bytes(
                &mut rows,
                &text[start..end],
                style,
                self.theme,
                self.whitespace,
            );
            parity = !parity;
            pos = end;
            prev_end = Some(end);
        }
        if pos < range.end {
            push_bytes(
                &mut rows,
                &text[pos..range.end],
                Style::new(),
                self.theme,
                self.whitespace,
            );
        }
        rows.finish()
    }

    pub fn line_height(&self, i: usize, width: usize) -> usize {
        self.line_rows(i, width).len()
    }

    /// The mark of each segment; chosen-pair occurrences are found left to
    /// right without overlap, as the merge will replace them.
    fn marks(&self, segments: &[Segment]) -> Vec<Mark> {
        let mut marks: Vec<Mark> = segments.iter().map(|s| self.target.mark_of(s.id)).collect();
        if let Target::Pair((a, b)) = self.target {
            let mut i = 0;
            while i + 1 < segments.len() {
                let (l, r) = (&segments[i], &segments[i + 1]);
                if l.id == a && r.id == b && !r.chunk_start && l.end == r.start {
                    marks[i] = Mark::Chosen;
                    marks[i + 1] = Mark::Chosen;
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
        marks
    }
}
