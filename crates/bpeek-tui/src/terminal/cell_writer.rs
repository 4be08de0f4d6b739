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

use crate::terminal::screen::Screen;
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
    // A served class draws a hundred screens a step, row by row: the bytes
    // are gathered in one buffer per thread, not one allocated per call.
    thread_local! {
        static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BYTES.with(|bytes| match bytes.try_borrow_mut() {
        Ok(mut bytes) => {
            bytes.clear();
            write_cells(&mut bytes, content);
            out.write_all(&bytes)
        }
        Err(_) => {
            let mut bytes = Vec::with_capacity(1024);
            write_cells(&mut bytes, content);
            out.write_all(&bytes)
        }
    })
}

fn write_cells<'a>(bytes: &mut Vec<u8>, content: impl Iterator<Item = (u16, u16, &'a Cell)>) {
    let colours = !crossterm::style::Colored::ansi_color_disabled_memoized();
    let mut pen = Pen::PLAIN;
    let mut last: Option<(u16, u16)> = None;
    for (x, y, cell) in content {
        if !matches!(last, Some((lx, ly)) if x == lx + 1 && y == ly) {
            bytes.extend_from_slice(b"\x1b[");
            number(bytes, y as u32 + 1);
            bytes.push(b';');
            number(bytes, x as u32 + 1);
            bytes.push(b'H');
        }
        last = Some((x, y));
        let want = Pen::of(cell, colours);
        if want != pen {
            change(bytes, pen, want);
            pen = want;
        }
        bytes.extend_from_slice(cell.symbol().as_bytes());
    }
    if pen != Pen::PLAIN {
        bytes.extend_from_slice(b"\x1b[0m");
    }
}

/// `n` in decimal.
fn number(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// The parameters of one `CSI … m`, separated by `;` as they are added.
struct Params<'o> {
    out: &'o mut Vec<u8>,
    start: usize,
}

impl Params<'_> {
    fn code(&mut self, n: u32) -> &mut Self {
        if self.out.len() > self.start {
            self.out.push(b';');
        }
        number(self.out, n);
        self
    }
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
    let removed = from.modifier - to.modifier;
    let added = to.modifier - from.modifier;
    let mut offs: [u8; MODIFIER_CODES.len()] = [0; MODIFIER_CODES.len()];
    let mut n_offs = 0;
    for (m, _, off) in MODIFIER_CODES {
        if removed.contains(m) && !offs[..n_offs].contains(&off) {
            offs[n_offs] = off;
            n_offs += 1;
        }
    }
    let offs = &offs[..n_offs];
    // An off code ends every modifier that shares it (22: bold and dim,
    // 25: both blinks): those still wanted go on again.
    let mut on = added;
    for (m, _, off) in MODIFIER_CODES {
        if offs.contains(&off) {
            on |= to.modifier & m;
        }
    }
    let fore = from.fg != to.fg;
    let back = from.bg != to.bg;
    let under = from.underline != to.underline;
    if offs.is_empty() && on.is_empty() && !fore && !back && !under {
        return;
    }
    out.extend_from_slice(b"\x1b[");
    let start = out.len();
    let mut params = Params { out, start };
    for &off in offs {
        params.code(off as u32);
    }
    for (m, set, _) in MODIFIER_CODES {
        if on.contains(m) {
            params.code(set as u32);
        }
    }
    if fore {
        colour(&mut params, to.fg, Layer::Fore);
    }
    if back {
        colour(&mut params, to.bg, Layer::Back);
    }
    if under {
        colour(&mut params, to.underline, Layer::Underline);
    }
    params.out.push(b'm');
}

#[derive(Clone, Copy)]
enum Layer {
    Fore,
    Back,
    Underline,
}

/// The SGR parameters that set `c` on `layer`.
fn colour(params: &mut Params, c: Color, layer: Layer) {
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
        (Color::Reset, _, _) => {
            params.code(reset);
        }
        // Underlines have no short codes.
        (_, Some(i), Layer::Underline) => {
            params.code(58).code(5).code(i);
        }
        (_, Some(i), _) => {
            let base = if i < 8 { extended - 8 } else { extended + 52 };
            params.code(base + i % 8);
        }
        (Color::Indexed(i), _, _) => {
            params.code(extended).code(5).code(i as u32);
        }
        (Color::Rgb(r, g, b), _, _) => {
            params
                .code(extended)
                .code(2)
                .code(r as u32)
                .code(g as u32)
                .code(b as u32);
        }
        _ => {
            params.code(reset);
        }
    }
}

/// crossterm's backend, drawing with [`draw`].
pub struct CompactBackend<W: Write>(CrosstermBackend<W>);

impl<W: Write> CompactBackend<W> {
    pub fn new(writer: W) -> Self {
        CompactBackend(CrosstermBackend::new(writer))
    }
}

impl<W: Write> Screen for CompactBackend<W> {
    fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.send_raw(bytes)
    }
}

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
