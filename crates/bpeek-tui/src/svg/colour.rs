//! Terminal colours as SVG colours. A terminal picks its own default
//! colours and its own shades for the 16 named ones; a picture has to
//! choose, so it takes those of a common dark terminal (xterm's shades).

use ratatui::style::Color;

/// The colours a picture of the screen is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colours {
    /// What `Color::Reset` is as a foreground.
    pub fg: [u8; 3],
    /// What `Color::Reset` is as a background.
    pub bg: [u8; 3],
    /// The 16 named colours, in the terminal's order (black .. white).
    pub named: [[u8; 3]; 16],
}

/// xterm's default shades of the 16 named colours.
const XTERM: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0xcd, 0x00, 0x00],
    [0x00, 0xcd, 0x00],
    [0xcd, 0xcd, 0x00],
    [0x00, 0x00, 0xee],
    [0xcd, 0x00, 0xcd],
    [0x00, 0xcd, 0xcd],
    [0xe5, 0xe5, 0xe5],
    [0x7f, 0x7f, 0x7f],
    [0xff, 0x00, 0x00],
    [0x00, 0xff, 0x00],
    [0xff, 0xff, 0x00],
    [0x5c, 0x5c, 0xff],
    [0xff, 0x00, 0xff],
    [0x00, 0xff, 0xff],
    [0xff, 0xff, 0xff],
];

impl Default for Colours {
    /// Light text on a near-black screen, as most terminals start.
    fn default() -> Self {
        Colours {
            fg: [0xe5, 0xe5, 0xe5],
            bg: [0x1c, 0x1c, 0x1c],
            named: XTERM,
        }
    }
}

/// Whether a colour is drawn as text or behind it: `Reset` means a
/// different default for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Fore,
    Back,
}

impl Colours {
    /// The red, green and blue of `colour` drawn on `layer`.
    pub fn rgb(&self, colour: Color, layer: Layer) -> [u8; 3] {
        match colour {
            Color::Reset => match layer {
                Layer::Fore => self.fg,
                Layer::Back => self.bg,
            },
            Color::Rgb(r, g, b) => [r, g, b],
            Color::Indexed(i) => self.indexed(i),
            named => self.named[named_index(named)],
        }
    }

    /// One of the 256 indexed colours: the 16 named ones, a 6x6x6 cube,
    /// then 24 greys (xterm's levels).
    fn indexed(&self, i: u8) -> [u8; 3] {
        match i {
            0..=15 => self.named[usize::from(i)],
            16..=231 => {
                let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
                let n = i - 16;
                [level(n / 36), level(n / 6 % 6), level(n % 6)]
            }
            _ => {
                let grey = 8 + 10 * (i - 232);
                [grey, grey, grey]
            }
        }
    }

    /// `colour` on `layer` as `#rrggbb`.
    pub fn hex(&self, colour: Color, layer: Layer) -> String {
        let [r, g, b] = self.rgb(colour, layer);
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// Where a named colour sits among the 16.
fn named_index(colour: Color) -> usize {
    match colour {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        // White, and the colours handled before this is asked.
        _ => 15,
    }
}
