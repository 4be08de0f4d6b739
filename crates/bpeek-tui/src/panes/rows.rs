//! Laying token text out in rows of screen cells.
//!
//! Text is cut into grapheme clusters over the whole stretch shown, not
//! token by token, so a combining mark stays on its base and a character
//! whose bytes two tokens share is drawn once. Each cluster becomes one
//! span whose width is the width ratatui gives it, so what this module
//! assumes about a row is what ends up in the screen buffer, cell for cell.
//! A cluster that cannot stand alone (a mark with no base) is drawn on a
//! dotted circle; an escape such as `<E0>` is one unit and never cut across
//! rows.

use crate::panes::clusters::{ascii_str, clusters};
use crate::terminal::term_widths;
use crate::theme::Theme;
use bpeek_core::pretokenize::pretok::for_each_utf8_run;
use ratatui::buffer::CellWidth;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::borrow::Cow;
use std::fmt::Write;
use unicode_segmentation::UnicodeSegmentation;

/// A tab always takes this many columns, wherever it is drawn.
pub const TAB_WIDTH: usize = 4;

/// Tokens longer than this are labelled by their first
/// [`LABEL_HEAD_BYTES`] and their length.
pub const LABEL_MOST_BYTES: usize = 64;
pub const LABEL_HEAD_BYTES: usize = 32;

/// The base a lone combining mark is drawn on.
pub const DOTTED_CIRCLE: char = '\u{25CC}';

/// The width ratatui gives `s` when it draws it: the sum of its grapheme
/// clusters' cell widths, zero-width clusters dropped.
pub fn cell_width(s: &str) -> usize {
    if let [b] = s.as_bytes()
        && b.is_ascii_graphic()
    {
        return 1;
    }
    clusters(s).map(|(_, g)| usize::from(g.cell_width())).sum()
}

/// `s` to keep: an ASCII character (most of what is drawn) without
/// allocating.
fn kept(s: &str) -> Cow<'static, str> {
    match s.as_bytes() {
        [b] => ascii_str(*b).map_or_else(|| Cow::Owned(s.to_string()), Cow::Borrowed),
        _ => Cow::Owned(s.to_string()),
    }
}

/// One unit on a row: a grapheme cluster, a glyph or an escape.
struct Unit {
    symbol: Cow<'static, str>,
    style: Style,
    width: usize,
    /// A token separator, which never starts a row.
    separator: bool,
    /// The unit the text cursor is on.
    cursor: bool,
    /// A space a row may break after.
    space: bool,
    /// A token (or the text between char-mode words) starts here: a row
    /// with no space to break at breaks before it, so tokens stay whole.
    starts_token: bool,
    /// The caller's number for the token this unit starts.
    tag: Option<usize>,
}

/// Where a tagged token starts on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub tag: usize,
    pub row: usize,
    pub column: usize,
}

/// The tag of the token drawn at `column` of `row`, among tokens `placed`
/// in reading order on rows whose drawn widths are `widths`: the last one
/// that starts there or before (a token may go on from a row above).
/// None past the end of the row's text.
pub fn tag_under(placed: &[Placed], widths: &[usize], row: usize, column: usize) -> Option<usize> {
    if column >= *widths.get(row)? {
        return None;
    }
    placed
        .iter()
        .take_while(|p| (p.row, p.column) <= (row, column))
        .last()
        .map(|p| p.tag)
}

/// Fills rows of a fixed width with styled units, wrapping at the last
/// space of a row when there is one, so words stay whole.
pub struct Rows {
    width: usize,
    rows: Vec<Line<'static>>,
    units: Vec<Unit>,
    used: usize,
    /// A separator to draw before the next unit, unless a row starts there.
    separator: Option<(&'static str, Style)>,
    cursor_next: bool,
    token_next: bool,
    cursor_row: Option<usize>,
    tag_next: Option<usize>,
    placed: Vec<Placed>,
    /// The columns each tagged token takes at least (see
    /// [`Rows::reserve`]).
    reserved: Vec<usize>,
    /// The tag `reserved[0]` is for.
    reserved_from: usize,
    /// The last tagged token: its row, column and tag.
    last_tag: Option<(usize, usize, usize)>,
    /// Rows wanted at most: laying out stops once this many are finished.
    limit: usize,
}

impl Rows {
    pub fn new(width: usize) -> Self {
        Rows {
            width: width.max(1),
            rows: Vec::new(),
            units: Vec::new(),
            used: 0,
            separator: None,
            cursor_next: false,
            token_next: false,
            cursor_row: None,
            tag_next: None,
            placed: Vec::new(),
            reserved: Vec::new(),
            reserved_from: 0,
            last_tag: None,
            limit: usize::MAX,
        }
    }

    /// Only the first `limit` rows are wanted: [`lay_out`] stops once they
    /// are finished, so a pane showing the top of a long line pays for the
    /// rows it shows, not for the whole line. Rows past the limit may be
    /// incomplete.
    pub fn with_row_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Whether the rows wanted are all finished.
    pub fn is_full(&self) -> bool {
        self.rows.len() >= self.limit
    }

    /// The next unit pushed is the one the text cursor is on; its row is
    /// given by [`Rows::finish_with_cursor`].
    pub fn mark_cursor(&mut self) {
        self.cursor_next = true;
    }

    /// The next unit pushed starts the token the caller numbers `tag`; where
    /// it lands is given by [`Rows::finish_placed`].
    pub fn tag_next(&mut self, tag: usize) {
        self.tag_next = Some(tag);
    }

    /// Tagged token `from + i` takes at least `columns[i]` columns: blank
    /// columns follow it when its text is narrower, so what is written
    /// under it (its id) fits before the next token starts.
    pub fn reserve(&mut self, from: usize, columns: Vec<usize>) {
        self.reserved_from = from;
        self.reserved = columns;
    }

    /// Rows started so far, the unfinished one included.
    pub fn row_count(&self) -> usize {
        self.rows.len() + usize::from(!self.units.is_empty())
    }

    /// The column the next unit goes to.
    pub fn column(&self) -> usize {
        self.used
    }

    /// The next unit pushed starts a token (see [`Unit::starts_token`]).
    pub fn token_starts(&mut self) {
        self.token_next = true;
    }

    /// Mark a token boundary with `glyph` before the next unit.
    pub fn separate(&mut self, glyph: &'static str, style: Style) {
        self.separator = Some((glyph, style));
    }

    /// Push `s` as one unit: it is never split across rows. Empty or
    /// zero-width text pushes nothing, since the screen could not show it.
    pub fn push(&mut self, s: &str, style: Style) {
        let width = cell_width(s);
        if width == 0 {
            return;
        }
        let cursor = std::mem::take(&mut self.cursor_next);
        let starts_token = std::mem::take(&mut self.token_next);
        let tag = self.tag_next.take();
        if let Some(tag) = tag {
            // The last token's blank columns go before the separator: they
            // are its own.
            self.pad_after_last_tag();
            // A token whose ids need more room than the row has left starts
            // the next row, so that they are written under it whole.
            let want = tag
                .checked_sub(self.reserved_from)
                .and_then(|i| self.reserved.get(i))
                .copied()
                .unwrap_or(0);
            let separator = self.separator.map_or(0, |(glyph, _)| cell_width(glyph));
            if self.used > 0
                && self.used + separator + width.max(want) > self.width
                && want <= self.width
            {
                self.wrap_before(true);
            }
        }
        if let Some((glyph, sep_style)) = self.separator.take() {
            self.push_unit(Unit {
                symbol: Cow::Borrowed(glyph),
                style: sep_style,
                width: cell_width(glyph),
                separator: true,
                cursor: false,
                space: false,
                starts_token: false,
                tag: None,
            });
        }
        self.push_unit(Unit {
            symbol: kept(s),
            style,
            width,
            separator: false,
            cursor,
            space: s == " ",
            starts_token: starts_token || tag.is_some(),
            tag,
        });
    }

    /// Blank columns after the last tagged token, up to what it reserved,
    /// if it is on this row.
    fn pad_after_last_tag(&mut self) {
        let Some((row, column, tag)) = self.last_tag else {
            return;
        };
        let want = tag
            .checked_sub(self.reserved_from)
            .and_then(|i| self.reserved.get(i))
            .copied()
            .unwrap_or(0);
        if row != self.rows.len() || self.used >= column + want {
            return;
        }
        // Never onto a row of its own: a row's edge already ends the token.
        let pad = (column + want - self.used).min(self.width - self.used);
        if pad == 0 {
            return;
        }
        // A blank a row may break at, like a space, but not a separator.
        let separator = self.separator.take();
        self.push_unit(Unit {
            symbol: Cow::Owned(" ".repeat(pad)),
            style: Style::new(),
            width: pad,
            separator: false,
            cursor: false,
            space: true,
            starts_token: false,
            tag: None,
        });
        self.separator = separator;
    }

    fn push_unit(&mut self, unit: Unit) {
        let tag = unit.tag;
        if self.used + unit.width > self.width && self.used > 0 {
            self.wrap_before(unit.starts_token || unit.separator);
        }
        if unit.separator && self.used == 0 {
            // A row's edge already shows the boundary.
            return;
        }
        self.used += unit.width;
        self.units.push(unit);
        if let Some(tag) = tag {
            self.last_tag = Some((
                self.rows.len(),
                self.used - self.units.last().map_or(0, |u| u.width),
                tag,
            ));
        }
    }

    /// Start a new row, carrying the unfinished word over if the row has a
    /// space to break at, or else the unfinished token if one started on
    /// this row after its first unit.
    /// When the unit that does not fit starts a token (`token_next`), the
    /// row already ends at a token's end.
    fn wrap_before(&mut self, token_next: bool) {
        let at = match self.units.iter().rposition(|u| u.space) {
            Some(i) => Some(i + 1),
            None if token_next => None,
            None => self
                .units
                .iter()
                .rposition(|u| u.starts_token)
                .filter(|&i| i > 0)
                // The separator before the token goes with it (and is
                // dropped at the row's start).
                .map(|i| {
                    if self.units[i - 1].separator {
                        i - 1
                    } else {
                        i
                    }
                }),
        };
        let mut carry = match at {
            Some(i) if i < self.units.len() => self.units.split_off(i),
            _ => Vec::new(),
        };
        let separators = carry.iter().take_while(|u| u.separator).count();
        carry.drain(..separators);
        self.end_row();
        self.used = 0;
        for u in &carry {
            if let Some(tag) = u.tag {
                self.last_tag = Some((self.rows.len(), self.used, tag));
            }
            self.used += u.width;
        }
        self.units = carry;
    }

    /// End the current row, even if it is empty.
    pub fn end_row(&mut self) {
        if self.units.iter().any(|u| u.cursor) {
            self.cursor_row = Some(self.rows.len());
        }
        let row = self.rows.len();
        let mut column = 0;
        for u in &self.units {
            if let Some(tag) = u.tag {
                self.placed.push(Placed { tag, row, column });
            }
            column += u.width;
        }
        // One span per unit: ratatui cuts each span into clusters on its
        // own, so a unit can never merge with its neighbour.
        let spans: Vec<Span<'static>> = self
            .units
            .drain(..)
            .map(|u| Span::styled(u.symbol, u.style))
            .collect();
        self.rows.push(Line::from(spans));
        self.used = 0;
    }

    /// The rows, the last one included if it holds anything.
    pub fn finish(self) -> Vec<Line<'static>> {
        self.finish_with_cursor().0
    }

    /// The rows and the row the cursor is on, if one was marked.
    pub fn finish_with_cursor(self) -> (Vec<Line<'static>>, Option<usize>) {
        let (rows, cursor, _) = self.finish_placed();
        (rows, cursor)
    }

    /// The rows, the cursor's row and where each tagged token starts.
    pub fn finish_placed(mut self) -> (Vec<Line<'static>>, Option<usize>, Vec<Placed>) {
        if !self.units.is_empty() || self.rows.is_empty() {
            self.end_row();
        }
        (self.rows, self.cursor_row, self.placed)
    }
}

/// How text is shown.
#[derive(Debug, Clone, Copy)]
pub struct TextLook<'a> {
    pub theme: &'a Theme,
    /// Spaces, tabs and line breaks as glyphs.
    pub whitespace: bool,
    /// Bytes that are not whole characters as `<E0>`, token by token,
    /// rather than the character drawn once across the tokens sharing it.
    pub hex: bool,
    /// A separator between tokens: each token then stands alone, and a
    /// combining mark that starts a token is drawn on a dotted circle.
    pub separators: bool,
    /// A line break ends the row (otherwise it is only a glyph or nothing).
    pub line_breaks: bool,
}

/// One stretch of text in one style.
#[derive(Debug, Clone, Copy)]
pub struct Piece<'a> {
    pub bytes: &'a [u8],
    pub style: Style,
    /// A new token starts here (pieces of one token share a style but do
    /// not make a boundary).
    pub token_start: bool,
    /// The text cursor is on this piece's first character.
    pub cursor: bool,
    /// Draw the end-of-word mark after it (char mode's `</w>`).
    pub end_of_word: bool,
    /// Text that belongs to no token (the spaces between char-mode words):
    /// no separator is drawn on either side of it.
    pub gap: bool,
    /// A number for the token this piece starts, to find where it lands.
    pub tag: Option<usize>,
}

impl<'a> Piece<'a> {
    pub fn token(bytes: &'a [u8], style: Style) -> Self {
        Piece {
            bytes,
            style,
            token_start: true,
            cursor: false,
            end_of_word: false,
            gap: false,
            tag: None,
        }
    }

    pub fn gap(bytes: &'a [u8]) -> Self {
        Piece {
            gap: true,
            ..Piece::token(bytes, Style::new())
        }
    }
}

/// Lay `pieces` out on `rows` as one stretch of text.
pub fn lay_out(rows: &mut Rows, pieces: &[Piece], look: &TextLook) {
    if look.hex {
        // Every token stands alone, its partial characters in hex.
        for (i, p) in pieces.iter().enumerate() {
            if rows.is_full() {
                return;
            }
            let after_gap = i > 0 && pieces[i - 1].gap;
            let boundary = p.token_start && i > 0 && !p.gap && !after_gap;
            if p.bytes.is_empty() {
                // A lone `</w>`: its separator, then its mark, as without hex.
                if p.end_of_word {
                    if look.separators && boundary {
                        rows.separate(look.theme.glyphs.separator, look.theme.glyph());
                    }
                    if p.token_start {
                        rows.token_starts();
                    }
                    end_of_word(rows, p.style, look);
                }
                continue;
            }
            let mut part = Part {
                bytes: p.bytes,
                style: p.style,
                tag: p.tag,
                boundary,
                starts_token: p.token_start,
                cursor: p.cursor,
                cursor_marked: false,
            };
            part.draw(rows, look);
            if p.end_of_word {
                end_of_word(rows, p.style, look);
            }
        }
        return;
    }
    let mut all = Vec::with_capacity(pieces.iter().map(|p| p.bytes.len()).sum());
    let mut starts = Vec::with_capacity(pieces.len());
    for p in pieces {
        starts.push(all.len());
        all.extend_from_slice(p.bytes);
    }
    let stretch = Stretch {
        pieces,
        starts: &starts,
        all: &all,
    };
    // Pieces that hold no bytes (a lone `</w>`) are drawn where they fall.
    let mut next_empty = 0;
    let mut flush_empty = |rows: &mut Rows, upto: usize| {
        while next_empty < pieces.len() && starts[next_empty] <= upto {
            let p = &pieces[next_empty];
            if p.bytes.is_empty() && p.end_of_word {
                if look.separators && p.token_start && next_empty > 0 && !pieces[next_empty - 1].gap
                {
                    rows.separate(look.theme.glyphs.separator, look.theme.glyph());
                }
                if p.token_start {
                    rows.token_starts();
                }
                end_of_word(rows, p.style, look);
            }
            next_empty += 1;
        }
    };
    for_each_utf8_run(&all, |start, run| match run {
        Ok(s) => {
            for (i, cluster) in clusters(s) {
                if rows.is_full() {
                    return;
                }
                let at = start + i;
                flush_empty(rows, at);
                stretch.cluster(rows, at, at + cluster.len(), look);
            }
        }
        Err(len) => {
            for at in start..start + len {
                if rows.is_full() {
                    return;
                }
                flush_empty(rows, at);
                let p = stretch.piece_at(at);
                let mut part = Part {
                    bytes: &all[at..at + 1],
                    style: pieces[p].style,
                    tag: stretch.tag_at(at),
                    boundary: stretch.separates(at),
                    starts_token: stretch.starts_piece(at),
                    cursor: stretch.is_cursor(at),
                    cursor_marked: false,
                };
                part.draw(rows, look);
                stretch.end_of_word_after(rows, at + 1, look);
            }
        }
    });
    flush_empty(rows, all.len());
}

/// The pieces of one stretch and where each starts in their concatenation.
struct Stretch<'s, 'a> {
    pieces: &'s [Piece<'a>],
    starts: &'s [usize],
    all: &'s [u8],
}

impl Stretch<'_, '_> {
    /// The pieces that start at byte `at`.
    fn starting_at(&self, at: usize) -> impl Iterator<Item = &Piece<'_>> {
        let from = self.starts.partition_point(|&s| s < at);
        let to = self.starts.partition_point(|&s| s <= at);
        self.pieces[from..to].iter().filter(|p| !p.bytes.is_empty())
    }

    /// The non-empty piece holding byte `at`.
    fn piece_at(&self, at: usize) -> usize {
        let mut i = self.starts.partition_point(|&s| s <= at).saturating_sub(1);
        while i > 0 && self.pieces[i].bytes.is_empty() {
            i -= 1;
        }
        i
    }

    /// The tag of the piece that starts at byte `at`, if one does.
    fn tag_at(&self, at: usize) -> Option<usize> {
        let p = self.piece_at(at);
        (self.starts[p] == at)
            .then_some(self.pieces[p].tag)
            .flatten()
    }

    /// A token boundary (not the stretch's start) falls just before `at`.
    fn is_boundary(&self, at: usize) -> bool {
        at > 0 && self.starting_at(at).any(|p| p.token_start)
    }

    /// A separator goes before `at`: a boundary between two tokens.
    /// A token or a gap starts at byte `at`.
    fn starts_piece(&self, at: usize) -> bool {
        self.starting_at(at).any(|p| p.token_start)
    }

    fn separates(&self, at: usize) -> bool {
        at > 0
            && self.starting_at(at).any(|p| p.token_start && !p.gap)
            && !self.pieces[self.piece_at(at - 1)].gap
    }

    fn is_cursor(&self, at: usize) -> bool {
        self.starting_at(at).any(|p| p.cursor)
    }

    /// Draw the end-of-word mark of the piece that ends at `end`, if it has
    /// one.
    fn end_of_word_after(&self, rows: &mut Rows, end: usize, look: &TextLook) {
        if end == 0 {
            return;
        }
        let i = self.piece_at(end - 1);
        let p = &self.pieces[i];
        if p.end_of_word && self.starts[i] + p.bytes.len() == end {
            end_of_word(rows, p.style, look);
        }
    }

    /// Draw the cluster `start..end` of the stretch.
    fn cluster(&self, rows: &mut Rows, start: usize, end: usize, look: &TextLook) {
        let inner: Vec<usize> = (start + 1..end).filter(|&b| self.is_boundary(b)).collect();
        // The cluster is whole UTF-8, so a cut is between characters when
        // the byte after it starts one.
        let on_chars = inner.iter().all(|&b| self.all[b] & 0xC0 != 0x80);
        if inner.is_empty() || (look.separators && on_chars) {
            // Each token's part of the cluster on its own.
            let cuts = std::iter::once(start).chain(inner.iter().copied());
            let ends = inner.iter().copied().chain(std::iter::once(end));
            for (from, to) in cuts.zip(ends) {
                let piece = self.piece_at(from);
                // Inside a piece (most clusters), no piece starts here:
                // no tag, no separator, no cursor.
                let starts_here = self.starts[piece] == from;
                let mut part = Part {
                    bytes: &self.all[from..to],
                    style: self.pieces[piece].style,
                    tag: starts_here.then_some(self.pieces[piece].tag).flatten(),
                    boundary: starts_here && self.separates(from),
                    starts_token: starts_here && self.starts_piece(from),
                    cursor: (starts_here && self.is_cursor(from))
                        || (from + 1..to).any(|b| self.is_cursor(b)),
                    cursor_marked: false,
                };
                part.draw(rows, look);
                self.end_of_word_after(rows, to, look);
            }
            return;
        }
        // Tokens share this cluster: draw it once, marked as split, and
        // where boundaries are drawn, a fragment mark after it. It takes
        // the mark of any token in it (a pair of bytes across two
        // characters marks both characters, not the first one's half).
        let marks = Modifier::REVERSED | Modifier::BOLD;
        let first = (self.piece_at(start)..=self.piece_at(end - 1))
            .map(|i| self.pieces[i].style)
            .find(|s| s.add_modifier.intersects(marks))
            .unwrap_or(self.pieces[self.piece_at(start)].style);
        let mut part = Part {
            bytes: &self.all[start..end],
            style: first.patch(look.theme.fragment()),
            tag: self.tag_at(start),
            boundary: self.separates(start),
            starts_token: self.starts_piece(start),
            cursor: (start..end).any(|b| self.is_cursor(b)),
            cursor_marked: false,
        };
        part.draw(rows, look);
        if look.separators {
            rows.separate(look.theme.glyphs.fragment, look.theme.glyph());
        }
        self.end_of_word_after(rows, end, look);
    }
}

/// Bytes drawn in one style, as one or more units.
struct Part<'b> {
    bytes: &'b [u8],
    style: Style,
    /// The tag of the token this part starts, if it starts one.
    tag: Option<usize>,
    /// A token boundary comes before it.
    boundary: bool,
    /// It starts a token or the text between words (a row may break
    /// before it).
    starts_token: bool,
    cursor: bool,
    cursor_marked: bool,
}

impl Part<'_> {
    fn draw(&mut self, rows: &mut Rows, look: &TextLook) {
        let bytes = self.bytes;
        for_each_utf8_run(bytes, |start, run| match run {
            Ok(s) => {
                for (_, cluster) in clusters(s) {
                    self.unit(rows, look, cluster);
                }
            }
            Err(len) => {
                for b in &bytes[start..start + len] {
                    let mut hex = String::new();
                    let _ = write!(hex, "<{b:02X}>");
                    self.emit(rows, look, &hex, self.style);
                }
            }
        });
    }

    fn emit(&mut self, rows: &mut Rows, look: &TextLook, symbol: &str, style: Style) {
        if let Some(tag) = self.tag.take() {
            rows.tag_next(tag);
        }
        if std::mem::take(&mut self.starts_token) {
            rows.token_starts();
        }
        if std::mem::take(&mut self.boundary) && look.separators {
            rows.separate(look.theme.glyphs.separator, look.theme.glyph());
        }
        // Every unit of the part the cursor is on is reversed; the first
        // one gives the cursor's row.
        let style = if self.cursor {
            if !std::mem::replace(&mut self.cursor_marked, true) {
                rows.mark_cursor();
            }
            style.add_modifier(ratatui::style::Modifier::REVERSED)
        } else {
            style
        };
        rows.push(symbol, style);
    }

    fn unit(&mut self, rows: &mut Rows, look: &TextLook, cluster: &str) {
        let g = &look.theme.glyphs;
        let glyph = self.style.patch(look.theme.glyph());
        let first = cluster.chars().next().unwrap_or(' ');
        if first.is_whitespace() && first.is_ascii() || first.is_control() {
            // "\r\n" is one cluster; its characters are drawn one by one.
            for c in cluster.chars() {
                match c {
                    ' ' if look.whitespace => self.emit(rows, look, g.space, glyph),
                    ' ' => self.emit(rows, look, " ", self.style),
                    '\t' => {
                        let shown = if look.whitespace { g.tab } else { " " };
                        let pad = " ".repeat(TAB_WIDTH - cell_width(shown));
                        self.emit(rows, look, &format!("{shown}{pad}"), glyph);
                    }
                    '\n' => {
                        if look.whitespace {
                            self.emit(rows, look, g.newline, glyph);
                        } else if self.cursor {
                            // The cursor on a line break: a cell at the line's end.
                            self.emit(rows, look, " ", self.style);
                        }
                        if look.line_breaks {
                            rows.end_row();
                        }
                    }
                    '\r' if look.whitespace => self.emit(rows, look, g.carriage_return, glyph),
                    '\r' => {}
                    c if c.is_control() => {
                        let esc = format!("\\u{{{:x}}}", c as u32);
                        self.emit(rows, look, &esc, glyph);
                    }
                    c => self.emit(rows, look, c.encode_utf8(&mut [0; 4]), self.style),
                }
            }
            return;
        }
        if cell_width(cluster) > 0 {
            match cluster.strip_suffix(JOINER) {
                // A joiner with nothing after it (the text or the strip
                // stops there) would join the next cell the terminal draws.
                Some(head) => {
                    self.emit(rows, look, &with_room(head), self.style);
                    self.emit(rows, look, JOINER_SPELT, glyph);
                }
                None => self.emit(rows, look, &with_room(cluster), self.style),
            }
            return;
        }
        match invisible(cluster) {
            Invisible::OnCircle(s) => self.emit(rows, look, &with_room(&s), self.style),
            Invisible::Spelt(s) => self.emit(rows, look, &s, glyph),
        }
    }
}

/// `cluster` and the blank cells the terminal covers beyond the ones
/// ratatui counts for it (see [`term_widths`]): without them, the next
/// cell drawn would cover its end.
fn with_room(cluster: &str) -> Cow<'_, str> {
    match term_widths::extra_cells(&term_widths::current(), cluster) {
        0 => Cow::Borrowed(cluster),
        extra => Cow::Owned(format!("{cluster}{}", " ".repeat(extra))),
    }
}

const JOINER: char = '\u{200D}';
const JOINER_SPELT: &str = "<U+200D>";

/// How a cluster with nothing visible is drawn.
enum Invisible {
    /// A mark with no base, on a dotted circle.
    OnCircle(String),
    /// A joiner, a variation selector or another format character, spelt
    /// out: drawn as itself it would join whatever the terminal draws next.
    Spelt(String),
}

fn invisible(cluster: &str) -> Invisible {
    let marks_only = cluster
        .chars()
        .all(unicode_normalization::char::is_combining_mark);
    let on_circle = format!("{DOTTED_CIRCLE}{cluster}");
    if marks_only && on_circle.graphemes(true).count() == 1 {
        return Invisible::OnCircle(on_circle);
    }
    let mut esc = String::new();
    for c in cluster.chars() {
        let _ = write!(esc, "<U+{:04X}>", c as u32);
    }
    Invisible::Spelt(esc)
}

/// The end-of-word mark of char mode, in its token's style.
fn end_of_word(rows: &mut Rows, style: Style, look: &TextLook) {
    rows.push(
        look.theme.glyphs.end_of_word,
        style.patch(look.theme.glyph()),
    );
}

/// A token of a char-mode trainer as a table shows it: its end-of-word
/// symbol `</w>` is drawn as the glyph the running text draws it with, so
/// that one thing has one look on every pane (`low⌟`, never `low</w>`).
pub fn word_label(bytes: &[u8], theme: &Theme, char_mode: bool) -> String {
    match bytes.strip_suffix(b"</w>").filter(|_| char_mode) {
        Some(word) => format!("{}{}", label(word, theme), theme.glyphs.end_of_word),
        None => label(bytes, theme),
    }
}

/// A token as a table shows it, on one line and on its own: control
/// characters escaped, partial characters as `<E0>`, spaces as glyphs, a
/// mark with no base on a dotted circle and an invisible character as
/// `<U+FEFF>`.
pub fn label(bytes: &[u8], theme: &Theme) -> String {
    if bytes.len() > LABEL_MOST_BYTES {
        // No pane has room for more, and a token can be a whole chunk
        // (megabytes with `--pretok none`): say how long it is instead.
        let mut cut = LABEL_HEAD_BYTES;
        while cut > 0 && bytes[cut] & 0xC0 == 0x80 {
            cut -= 1;
        }
        return format!(
            "{}{} ({} bytes)",
            label(&bytes[..cut], theme),
            theme.glyphs.ellipsis,
            bytes.len()
        );
    }
    let text = bpeek_core::display::token_visible(bytes);
    let mut out = String::with_capacity(text.len());
    for cluster in text.graphemes(true) {
        if cluster == " " {
            out.push_str(theme.glyphs.space);
        } else if cluster == theme.glyphs.space {
            // The glyph's own character, written in the text: escaped, so
            // that it never reads as a space.
            out.push('\\');
            out.push_str(cluster);
        } else if cell_width(cluster) > 0 {
            match cluster.strip_suffix(JOINER) {
                Some(head) => {
                    out.push_str(&with_room(head));
                    out.push_str(JOINER_SPELT);
                }
                None => out.push_str(&with_room(cluster)),
            }
        } else {
            match invisible(cluster) {
                Invisible::OnCircle(s) => out.push_str(&with_room(&s)),
                Invisible::Spelt(s) => out.push_str(&s),
            }
        }
    }
    out
}
