//! Writing cells to a terminal in few bytes: a served class may be on a
//! slow link.
//!
//! ratatui's crossterm backend sends each change of style as several
//! escape sequences (the attributes one by one, then both colours as
//! 256-colour indices) and ends every call with four resets. The corpus
//! pane changes style at every token, and the wide-cell backend draws a
//! row per call, so that is most of a frame. Here each change of style is
//! one `CSI … m` holding only what changed, the 16 basic colours take
//! their short codes (`31`, `91`: the same colours as palette indices 1
//! and 9), and a call ends with one reset, only if the style is not plain.
//! Like crossterm, each call starts from the plain style and `NO_COLOR`
//! drops colours.

use crate::tui::terminal::screen::Screen;
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use std::io::{self, Write};

/// What a cell looks like, apart from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    underline: Color,
    modifier: Modifier,
}

impl Pen {
    const PLAIN: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        underline: Color::Reset,
        modifier: Modifier::empty(),
    };

    fn of(cell: &Cell, colours: bool) -> Pen {
        if !colours {
            return Pen {
                modifier: cell.modifier,
                ..Pen::PLAIN
            };
        }
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            underline: cell.underline_color,
            modifier: cell.modifier,
        }
    }
}

/// Write `content` to `out`: a cursor move where a cell does not follow
/// the one before, one style change where the style changes.
pub fn draw<'a>(
    out: &mut impl Write,
    content: impl Iterator<Item = (u16, u16, &'a Cell)>,
) -> io::Result<()> {
    let colours = !crossterm::style::Colored::ansi_color_disabled_memoized();
    let mut bytes: Vec<u8> = Vec::with_capacity(1024);
    let mut pen = Pen::PLAIN;
    let mut last: Option<(u16, u16)> = None;
    for (x, y, cell) in content {
        if !matches!(last, Some((lx, ly)) if x == lx + 1 && y == ly) {
            write!(bytes, "\x1b[{};{}H", y + 1, x + 1)?;
        }
        last = Some((x, y));
        let want = Pen::of(cell, colours);
        if want != pen {
            change(&mut bytes, pen, want);
            pen = want;
        }
        bytes.extend_from_slice(cell.symbol().as_bytes());
    }
    if pen != Pen::PLAIN {
        bytes.extend_from_slice(b"\x1b[0m");
    }
    out.write_all(&bytes)
}

/// Each modifier's SGR code on, and off.
const MODIFIER_CODES: [(Modifier, u8, u8); 9] = [
    (Modifier::BOLD, 1, 22),
    (Modifier::DIM, 2, 22),
    (Modifier::ITALIC, 3, 23),
    (Modifier::UNDERLINED, 4, 24),
    (Modifier::SLOW_BLINK, 5, 25),
    (Modifier::RAPID_BLINK, 6, 25),
    (Modifier::REVERSED, 7, 27),
    (Modifier::HIDDEN, 8, 28),
    (Modifier::CROSSED_OUT, 9, 29),
];

/// One `CSI … m` that turns `from` into `to`.
fn change(out: &mut Vec<u8>, from: Pen, to: Pen) {
    let mut codes: Vec<String> = Vec::new();
    let removed = from.modifier - to.modifier;
    let added = to.modifier - from.modifier;
    let mut offs: Vec<u8> = Vec::new();
    for (m, _, off) in MODIFIER_CODES {
        if removed.contains(m) && !offs.contains(&off) {
            offs.push(off);
        }
    }
    // An off code ends every modifier that shares it (22: bold and dim,
    // 25: both blinks): those still wanted go on again.
    let mut on = added;
    for (m, _, off) in MODIFIER_CODES {
        if offs.contains(&off) {
            on |= to.modifier & m;
        }
    }
    codes.extend(offs.iter().map(u8::to_string));
    for (m, set, _) in MODIFIER_CODES {
        if on.contains(m) {
            codes.push(set.to_string());
        }
    }
    if from.fg != to.fg {
        codes.push(colour(to.fg, Layer::Fore));
    }
    if from.bg != to.bg {
        codes.push(colour(to.bg, Layer::Back));
    }
    if from.underline != to.underline {
        codes.push(colour(to.underline, Layer::Underline));
    }
    if !codes.is_empty() {
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(codes.join(";").as_bytes());
        out.push(b'm');
    }
}

#[derive(Clone, Copy)]
enum Layer {
    Fore,
    Back,
    Underline,
}

/// The SGR parameters that set `c` on `layer`.
fn colour(c: Color, layer: Layer) -> String {
    // The palette index of the 16 basic colours, as crossterm maps them.
    let basic = match c {
        Color::Black => Some(0),
        Color::Red => Some(1),
        Color::Green => Some(2),
        Color::Yellow => Some(3),
        Color::Blue => Some(4),
        Color::Magenta => Some(5),
        Color::Cyan => Some(6),
        Color::Gray => Some(7),
        Color::DarkGray => Some(8),
        Color::LightRed => Some(9),
        Color::LightGreen => Some(10),
        Color::LightYellow => Some(11),
        Color::LightBlue => Some(12),
        Color::LightMagenta => Some(13),
        Color::LightCyan => Some(14),
        Color::White => Some(15),
        _ => None,
    };
    let (reset, extended) = match layer {
        Layer::Fore => (39, 38),
        Layer::Back => (49, 48),
        Layer::Underline => (59, 58),
    };
    match (c, basic, layer) {
        (Color::Reset, _, _) => reset.to_string(),
        // Underlines have no short codes.
        (_, Some(i), Layer::Underline) => format!("58;5;{i}"),
        (_, Some(i), _) => {
            let base = if i < 8 { extended - 8 } else { extended + 52 };
            (base + i % 8).to_string()
        }
        (Color::Indexed(i), _, _) => format!("{extended};5;{i}"),
        (Color::Rgb(r, g, b), _, _) => format!("{extended};2;{r};{g};{b}"),
        _ => reset.to_string(),
    }
}

/// crossterm's backend, drawing with [`draw`].
pub struct CompactBackend<W: Write>(CrosstermBackend<W>);

impl<W: Write> CompactBackend<W> {
    pub fn new(writer: W) -> Self {
        CompactBackend(CrosstermBackend::new(writer))
    }
}

impl<W: Write> Screen for CompactBackend<W> {}

impl<W: Write> Backend for CompactBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        draw(&mut self.0, content)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.0.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.0.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.0.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.0.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.0.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.0.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.0.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.0.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.0.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.0)
    }
}
