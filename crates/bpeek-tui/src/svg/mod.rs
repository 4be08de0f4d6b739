//! The screen as a picture: a drawn frame (a ratatui [`Buffer`]) written
//! as one self-contained SVG file, for slides and handouts.
//!
//! Every cell is a box of [`CELL_WIDTH`] x [`CELL_HEIGHT`] pixels. Cells
//! of one colour behind the text become one rectangle; cells of one look
//! in a row become one `<text>` element whose glyphs are each placed at
//! their own column, so columns line up as they do on the terminal
//! whatever the font's own advance. A glyph of two columns (CJK, most
//! emoji) takes its cell and the one after it.

pub mod colour;

use colour::{Colours, Layer};
use ratatui::buffer::{Buffer, Cell};
use ratatui::style::Modifier;
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// A cell's width in pixels.
pub const CELL_WIDTH: u32 = 9;
/// A cell's height in pixels.
pub const CELL_HEIGHT: u32 = 18;
/// The font size in pixels: a monospace font's advance at 15 px is about
/// 9 px, the cell's width.
const FONT_SIZE: u32 = 15;
/// Where the text's baseline sits below the top of its row.
const BASELINE: u32 = 14;
/// Fonts to draw in, the first the reader has.
const FONTS: &str = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";

/// How a cell's text looks, its colours resolved (reversed video swapped).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Look {
    fg: String,
    bg: String,
    bold: bool,
    italic: bool,
    underline: bool,
    crossed: bool,
    dim: bool,
    hidden: bool,
}

impl Look {
    fn of(cell: &Cell, colours: &Colours) -> Look {
        let m = cell.modifier;
        let (mut fg, mut bg) = (
            colours.hex(cell.fg, Layer::Fore),
            colours.hex(cell.bg, Layer::Back),
        );
        if m.contains(Modifier::REVERSED) {
            std::mem::swap(&mut fg, &mut bg);
        }
        Look {
            fg,
            bg,
            bold: m.contains(Modifier::BOLD),
            italic: m.contains(Modifier::ITALIC),
            underline: m.contains(Modifier::UNDERLINED),
            crossed: m.contains(Modifier::CROSSED_OUT),
            dim: m.contains(Modifier::DIM),
            hidden: m.contains(Modifier::HIDDEN),
        }
    }

    /// A blank in this look draws nothing but its background.
    fn blank_shows(&self) -> bool {
        (self.underline || self.crossed) && !self.hidden
    }

    /// The attributes of a `<text>` in this look.
    fn attributes(&self) -> String {
        let mut out = format!(" fill=\"{}\"", self.fg);
        if self.bold {
            out += " font-weight=\"bold\"";
        }
        if self.italic {
            out += " font-style=\"italic\"";
        }
        match (self.underline, self.crossed) {
            (true, true) => out += " text-decoration=\"underline line-through\"",
            (true, false) => out += " text-decoration=\"underline\"",
            (false, true) => out += " text-decoration=\"line-through\"",
            (false, false) => {}
        }
        if self.dim {
            out += " fill-opacity=\"0.6\"";
        }
        out
    }
}

/// `buffer` as an SVG document, drawn in `colours`.
pub fn screen(buffer: &Buffer, colours: &Colours) -> String {
    let area = buffer.area;
    let (w, h) = (
        u32::from(area.width) * CELL_WIDTH,
        u32::from(area.height) * CELL_HEIGHT,
    );
    let bg = colours.hex(ratatui::style::Color::Reset, Layer::Back);
    let mut out = String::new();
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONTS}\" font-size=\"{FONT_SIZE}\">"
    );
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"{bg}\"/>");
    out += "<g shape-rendering=\"crispEdges\">\n";
    for y in 0..area.height {
        backgrounds(&mut out, buffer, colours, y, &bg);
    }
    out += "</g>\n";
    for y in 0..area.height {
        texts(&mut out, buffer, colours, y);
    }
    out += "</svg>\n";
    out
}

/// The cells of row `y`, left to right, as (column, cell, columns taken):
/// the cell a wide glyph covers is passed over.
fn cells_of(buffer: &Buffer, y: u16) -> Vec<(u16, &Cell, u16)> {
    let area = buffer.area;
    let mut out = Vec::new();
    let mut x = 0;
    while x < area.width {
        let cell = &buffer[(area.x + x, area.y + y)];
        let span = (cell.symbol().width() as u16)
            .clamp(1, 2)
            .min(area.width - x);
        out.push((x, cell, span));
        x += span;
    }
    out
}

/// One rectangle for each run of cells on row `y` whose background is
/// not the screen's own.
fn backgrounds(out: &mut String, buffer: &Buffer, colours: &Colours, y: u16, screen_bg: &str) {
    let mut run: Option<(u16, u16, String)> = None;
    let cells = cells_of(buffer, y);
    let looks = cells.iter().map(|&(x, cell, span)| {
        let bg = Look::of(cell, colours).bg;
        (x, span, bg)
    });
    for (x, span, bg) in looks.chain([(buffer.area.width, 0, screen_bg.to_string())]) {
        match &mut run {
            Some((_, width, colour)) if *colour == bg => *width += span,
            _ => {
                if let Some((start, width, colour)) = run.take()
                    && colour != screen_bg
                {
                    rect(out, start, y, width, &colour);
                }
                run = Some((x, span, bg));
            }
        }
    }
}

fn rect(out: &mut String, x: u16, y: u16, width: u16, colour: &str) {
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{CELL_HEIGHT}\" fill=\"{colour}\"/>",
        u32::from(x) * CELL_WIDTH,
        u32::from(y) * CELL_HEIGHT,
        u32::from(width) * CELL_WIDTH,
    );
}

/// Glyphs of one look side by side on a row: (column, glyph), and the
/// blanks met since its last glyph (written only if another glyph of the
/// look follows them).
struct Run {
    look: Look,
    glyphs: Vec<(u16, String)>,
    blanks: Vec<(u16, String)>,
}

impl Run {
    fn new(look: Look) -> Run {
        Run {
            look,
            glyphs: Vec::new(),
            blanks: Vec::new(),
        }
    }

    fn push(&mut self, x: u16, glyph: String) {
        self.glyphs.append(&mut self.blanks);
        self.glyphs.push((x, glyph));
    }
}

/// The text of row `y`: one `<text>` for each run of glyphs of one look.
/// A glyph of several characters (a letter and its accents) has a
/// `<text>` of its own, so that every character of a run is one column.
fn texts(out: &mut String, buffer: &Buffer, colours: &Colours, y: u16) {
    let mut run: Option<Run> = None;
    for (x, cell, _) in cells_of(buffer, y) {
        let look = Look::of(cell, colours);
        let glyph = safe_text(cell.symbol());
        let blank = glyph.trim().is_empty() && !look.blank_shows();
        let alone = glyph.chars().count() > 1;
        let same = run.as_ref().is_some_and(|r| r.look == look && !alone);
        if same && blank {
            if let Some(r) = run.as_mut() {
                r.blanks.push((x, glyph));
            }
            continue;
        }
        if !same && let Some(r) = run.take() {
            text(out, &r, y);
        }
        if blank || look.hidden {
            continue;
        }
        run.get_or_insert_with(|| Run::new(look)).push(x, glyph);
        if alone && let Some(r) = run.take() {
            text(out, &r, y);
        }
    }
    if let Some(r) = run {
        text(out, &r, y);
    }
}

fn text(out: &mut String, run: &Run, y: u16) {
    let xs: Vec<String> = run
        .glyphs
        .iter()
        .map(|(x, _)| (u32::from(*x) * CELL_WIDTH).to_string())
        .collect();
    let body: String = run.glyphs.iter().map(|(_, g)| escape(g)).collect();
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\"{} xml:space=\"preserve\">{body}</text>",
        xs.join(" "),
        u32::from(y) * CELL_HEIGHT + BASELINE,
        run.look.attributes(),
    );
}

/// `symbol` with every character XML may not hold, and every control
/// character, replaced by U+FFFD; an empty symbol is a blank.
fn safe_text(symbol: &str) -> String {
    if symbol.is_empty() {
        return " ".into();
    }
    symbol
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}

/// `text` with XML's five special characters as entities.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&apos;",
            c => out.push(c),
        }
    }
    out
}
