//! Styles and glyphs. Every distinction is made with a modifier (bold,
//! reverse, underline) or a glyph first; colour only adds to it, so the
//! screen says the same under NO_COLOR.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

/// How a token is marked in the corpus and the encode box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    None,
    /// An occurrence of the pair chosen in this round.
    Chosen,
    /// A token the last merge made.
    Applied,
    /// The token of the merge selected in the merge list.
    Selected,
    /// A later token built on the selected merge.
    Inside,
}

const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The glyphs the screen uses, in Unicode or ASCII.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Glyphs {
    pub space: &'static str,
    pub tab: &'static str,
    pub newline: &'static str,
    pub carriage_return: &'static str,
    pub separator: &'static str,
    pub arrow: &'static str,
    pub up: &'static str,
    pub down: &'static str,
    pub ellipsis: &'static str,
    pub infinity: &'static str,
    pub winner: &'static str,
    pub tie: &'static str,
    pub dot: &'static str,
    pub playing: &'static str,
    pub cursor: &'static str,
    /// Char mode's end-of-word symbol `</w>`, drawn after its word.
    pub end_of_word: &'static str,
    /// A token boundary inside a character that tokens share.
    pub fragment: &'static str,
    /// A student's own vote on a ballot.
    pub vote: &'static str,
}

const UNICODE_GLYPHS: Glyphs = Glyphs {
    space: "·",
    tab: "→",
    newline: "↵",
    carriage_return: "␍",
    separator: "│",
    arrow: "→",
    up: "▲",
    down: "▼",
    ellipsis: "…",
    infinity: "∞",
    winner: "►",
    tie: "=",
    dot: "·",
    playing: "▶",
    cursor: "█",
    end_of_word: "⌟",
    fragment: "┊",
    vote: "✓",
};

/// ASCII has no character that text cannot hold, so each glyph here is
/// one that text seldom holds where it stands. A space is `_`: `.` (the
/// glyph it replaced) ends every sentence right before a space, so
/// `five. She` read `five..She`; `~` is the ellipsis below; `_` sits on
/// the baseline like a gap and is rare in prose. Running text draws it
/// dim (see [`Theme::glyph`]) and a literal `_` plain, and the tables,
/// which draw a token as one string, write a literal `_` as `\_` (see
/// `panes::rows::label`), so the two never read alike.
const ASCII_GLYPHS: Glyphs = Glyphs {
    space: "_",
    tab: ">",
    newline: "$",
    carriage_return: "<",
    separator: "|",
    arrow: "->",
    up: "^",
    down: "v",
    ellipsis: "~",
    infinity: "inf",
    winner: ">",
    tie: "=",
    dot: ",",
    playing: ">",
    cursor: "#",
    end_of_word: "]",
    fragment: ":",
    vote: "*",
};

/// The colours a terminal can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Palette {
    /// 256 colours (or more): mid-tone colours that read on dark and light
    /// backgrounds alike.
    Wide,
    /// The 16 basic colours (TERM=linux, plain xterm).
    Basic,
}

impl Palette {
    /// What the terminal the environment describes can show.
    pub fn from_env() -> Self {
        let term = std::env::var("TERM").unwrap_or_default();
        let colorterm = std::env::var("COLORTERM").unwrap_or_default();
        if term.contains("256color") || matches!(colorterm.as_str(), "truecolor" | "24bit") {
            Palette::Wide
        } else {
            Palette::Basic
        }
    }

    /// Token colours, taken in turn so neighbouring tokens always differ.
    pub fn tokens(self) -> &'static [Color] {
        match self {
            // Blue, green, orange, purple, teal, rose: none too light for a
            // white background or too dark for a black one.
            Palette::Wide => &[
                Color::Indexed(33),
                Color::Indexed(34),
                Color::Indexed(166),
                Color::Indexed(135),
                Color::Indexed(37),
                Color::Indexed(168),
            ],
            Palette::Basic => &[
                Color::Blue,
                Color::Green,
                Color::Red,
                Color::Magenta,
                Color::Cyan,
                Color::Yellow,
            ],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    pub colour: bool,
    pub ascii: bool,
    pub glyphs: Glyphs,
    pub palette: Palette,
}

impl Theme {
    pub fn new(colour: bool, ascii: bool) -> Self {
        Theme {
            colour,
            ascii,
            glyphs: if ascii { ASCII_GLYPHS } else { UNICODE_GLYPHS },
            palette: Palette::Wide,
        }
    }

    /// The same theme with the colours of `palette`.
    pub fn with_palette(self, palette: Palette) -> Self {
        Theme { palette, ..self }
    }

    /// No colour, Unicode glyphs: what the render tests look at.
    pub fn plain() -> Self {
        Theme::new(false, false)
    }

    pub fn border(&self) -> border::Set<'static> {
        if self.ascii {
            ASCII_BORDER
        } else {
            border::PLAIN
        }
    }

    fn fg(&self, style: Style, colour: Color) -> Style {
        if self.colour { style.fg(colour) } else { style }
    }

    /// A token, by its place among its neighbours (`odd`) and its mark.
    /// Every mark is told apart by modifiers alone; colour only adds to
    /// them, so a terminal that shows no colour still shows every boundary.
    pub fn token(&self, odd: bool, mark: Mark) -> Style {
        self.token_at(usize::from(odd), mark)
    }

    /// The colour of the `i`th token of a stretch, if colour is on.
    pub fn token_colour(&self, i: usize) -> Option<Color> {
        let colours = self.palette.tokens();
        self.colour.then(|| colours[i % colours.len()])
    }

    /// The `i`th token of a stretch: odd ones underlined, and with colour
    /// on, each in the next colour of the palette, so neighbours differ in
    /// colour as well.
    ///
    /// Without colour the marks must still differ on a projector, where
    /// italic is seldom seen: the two in reverse video (chosen, just made)
    /// differ by bold, and the selected merge's token is never in reverse
    /// video but bold and underlined, every one of its tokens (the
    /// alternating underline is left off the two marks that are not in
    /// reverse, so that it cannot make a later token look selected).
    pub fn token_at(&self, i: usize, mark: Mark) -> Style {
        let mut base = Style::new();
        let alternates = !matches!(mark, Mark::Selected | Mark::Inside);
        if alternates && i % 2 == 1 {
            base = base.add_modifier(Modifier::UNDERLINED);
        }
        if mark == Mark::None
            && let Some(colour) = self.token_colour(i)
        {
            base = base.fg(colour);
        }
        let (modifiers, colour) = match mark {
            Mark::None => return base,
            Mark::Chosen => (Modifier::REVERSED, Color::Yellow),
            Mark::Applied => (Modifier::REVERSED | Modifier::BOLD, Color::Green),
            Mark::Selected => (
                Modifier::BOLD | Modifier::UNDERLINED | Modifier::ITALIC,
                Color::Magenta,
            ),
            Mark::Inside => (Modifier::BOLD, Color::Magenta),
        };
        // Under reverse video the foreground colour becomes the background.
        self.fg(base.add_modifier(modifiers), colour)
    }

    /// What each mark looks like without colour, as the glossary says it.
    pub fn mark_look(mark: Mark) -> &'static str {
        match mark {
            Mark::None => "plain",
            Mark::Chosen => "reverse",
            Mark::Applied => "bold reverse",
            Mark::Selected => "bold underline",
            Mark::Inside => "bold",
        }
    }

    /// A character whose bytes two or more tokens share, drawn once.
    pub fn fragment(&self) -> Style {
        self.fg(
            Style::new().add_modifier(Modifier::ITALIC | Modifier::DIM),
            Color::LightMagenta,
        )
    }

    /// Glyphs that stand for whitespace or escapes, not for text.
    pub fn glyph(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::DIM), Color::DarkGray)
    }

    pub fn dim(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::DIM), Color::DarkGray)
    }

    pub fn heading(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn border_style(&self, focused: bool) -> Style {
        if focused {
            self.fg(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
        } else {
            self.dim()
        }
    }

    /// A pane title; the focused one is in reverse video.
    pub fn title(&self, focused: bool) -> Style {
        if focused {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    /// The row under the cursor of a focused list.
    pub fn cursor_row(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn winner(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }

    pub fn rise(&self) -> Style {
        self.fg(Style::new(), Color::Green)
    }

    pub fn fall(&self) -> Style {
        self.fg(Style::new(), Color::Red)
    }

    /// A pair the last merge took away: struck through, kept for its count.
    pub fn gone(&self) -> Style {
        Style::new().add_modifier(Modifier::CROSSED_OUT)
    }

    pub fn fresh(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
    }

    pub fn key(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
    }

    pub fn notice(&self) -> Style {
        self.fg(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }

    pub fn status(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }
}
