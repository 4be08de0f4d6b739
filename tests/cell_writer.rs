//! The explorer writes cells with short escape sequences of its own. A
//! terminal (vt100) fed its bytes must show exactly what it shows when fed
//! ratatui's crossterm backend, on random screens changing in random ways.

use bpeek::tui::terminal::cell_writer;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const COLOURS: [Color; 12] = [
    Color::Reset,
    Color::Black,
    Color::Red,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightCyan,
    Color::White,
    Color::Indexed(135),
    Color::Indexed(3),
    Color::Rgb(10, 200, 30),
    Color::Reset,
];

const MODIFIERS: [Modifier; 5] = [
    Modifier::BOLD,
    Modifier::DIM,
    Modifier::ITALIC,
    Modifier::UNDERLINED,
    Modifier::REVERSED,
];

fn random_buffer(rng: &mut Rng, area: Rect) -> Buffer {
    let mut buf = Buffer::empty(area);
    for y in 0..area.height {
        for x in 0..area.width {
            let mut modifier = Modifier::empty();
            for m in MODIFIERS {
                if rng.below(4) == 0 {
                    modifier |= m;
                }
            }
            let style = Style::new()
                .fg(COLOURS[rng.below(COLOURS.len())])
                .bg(COLOURS[rng.below(COLOURS.len())])
                .add_modifier(modifier);
            // Runs of one style, as tokens make them.
            let keep = x > 0 && rng.below(3) > 0;
            let style = if keep { buf[(x - 1, y)].style() } else { style };
            let symbol = ["a", "b", " ", "x", "Z", "7"][rng.below(6)];
            buf[(x, y)].set_symbol(symbol).set_style(style);
        }
    }
    buf
}

/// Draw `frames` one after another, each as the changes from the one
/// before and a call per row (as the wide-cell backend does), with
/// `write`, and return what the terminal shows and how many bytes it took.
fn show(
    frames: &[Buffer],
    mut write: impl FnMut(&mut Vec<u8>, Vec<(u16, u16, &ratatui::buffer::Cell)>),
) -> (vt100::Parser, usize) {
    let area = frames[0].area;
    let size = |n: u16| std::num::NonZeroU16::new(n).unwrap();
    let mut parser = vt100::Parser::new(size(area.height), size(area.width), 0);
    let mut sent = 0;
    let mut before = Buffer::empty(area);
    for frame in frames {
        let changes = before.diff(frame);
        for y in 0..area.height {
            let row: Vec<_> = changes.iter().copied().filter(|c| c.1 == y).collect();
            let mut bytes = Vec::new();
            write(&mut bytes, row);
            sent += bytes.len();
            parser.process(&bytes);
        }
        before = frame.clone();
    }
    (parser, sent)
}

#[test]
fn the_screen_is_what_crossterm_would_show_in_fewer_bytes() {
    let area = Rect::new(0, 0, 23, 5);
    let (mut ours, mut theirs) = (0, 0);
    for seed in 1..200u64 {
        let mut rng = Rng(seed * 0x9E37_79B9_7F4A_7C15);
        let frames: Vec<Buffer> = (0..4).map(|_| random_buffer(&mut rng, area)).collect();
        let (compact, n) = show(&frames, |out, row| {
            cell_writer::draw(out, row.into_iter()).unwrap();
        });
        let (reference, m) = show(&frames, |out, row| {
            CrosstermBackend::new(out).draw(row.into_iter()).unwrap();
        });
        ours += n;
        theirs += m;
        for y in 0..area.height {
            for x in 0..area.width {
                let a = compact.screen().cell(y, x).unwrap();
                let b = reference.screen().cell(y, x).unwrap();
                let look = |c: &vt100::Cell| {
                    (
                        c.contents().to_string(),
                        c.fgcolor(),
                        c.bgcolor(),
                        [c.bold(), c.dim(), c.italic(), c.underline(), c.inverse()],
                    )
                };
                assert_eq!(look(a), look(b), "seed {seed}, cell ({x}, {y})");
            }
        }
        // Each call leaves the terminal in the plain style, as crossterm's.
        let mut probe = compact;
        probe.process(b"\x1b[1;1Hq");
        let q = probe.screen().cell(0, 0).unwrap();
        assert_eq!(q.fgcolor(), vt100::Color::Default);
        assert!(!q.bold() && !q.underline() && !q.inverse());
    }
    assert!(ours * 10 < theirs * 8, "{ours} bytes against {theirs}");
}

/// A random screen of plain, wide (`界`) and uncertain (`😀`, `é` as two
/// code points) text, in runs of one style.
fn random_mixed_buffer(rng: &mut Rng, area: Rect) -> Buffer {
    let mut buf = Buffer::empty(area);
    for y in 0..area.height {
        let mut x = 0;
        while x < area.width {
            let piece = ["a", "b", " ", "界", "😀", "e\u{301}", "xy", "  "][rng.below(8)];
            let style = Style::new()
                .fg(COLOURS[rng.below(COLOURS.len())])
                .add_modifier(MODIFIERS[rng.below(MODIFIERS.len())]);
            let (end, _) = buf.set_stringn(x, y, piece, (area.width - x) as usize, style);
            x = end.max(x + 1);
        }
    }
    buf
}

#[test]
fn the_served_backend_shows_every_frame_whole_through_wide_and_uncertain_text() {
    use bpeek::serve::screen::{Out, Outbox, RemoteScreen};
    use bpeek::tui::terminal::wide_cells::WideCellBackend;
    let area = Rect::new(0, 0, 17, 6);
    for seed in 1..150u64 {
        let mut rng = Rng(seed * 0x9E37_79B9_7F4A_7C15);
        let (outbox, mut rx) = Outbox::new();
        let mut backend = WideCellBackend::over(RemoteScreen::new(outbox, area.width, area.height));
        let size = |n: u16| std::num::NonZeroU16::new(n).unwrap();
        let mut vt = vt100::Parser::new(size(area.height), size(area.width), 0);
        let mut before = Buffer::empty(area);
        for step in 0..5 {
            let mut frame = random_mixed_buffer(&mut rng, area);
            // Some frames change only a few rows, as most steps do.
            if step % 2 == 1 {
                for y in 0..area.height {
                    if rng.below(3) > 0 {
                        for x in 0..area.width {
                            frame[(x, y)] = before[(x, y)].clone();
                        }
                    }
                }
            }
            backend.draw(before.diff(&frame).into_iter()).unwrap();
            Backend::flush(&mut backend).unwrap();
            while let Ok(out) = rx.try_recv() {
                if let Out::Bytes(bytes) = out {
                    vt.process(&bytes);
                }
            }
            for y in 0..area.height {
                let shown: String = (0..area.width)
                    .map(|x| vt.screen().cell(y, x).unwrap().contents().to_string())
                    .map(|s| if s.is_empty() { " ".to_string() } else { s })
                    .collect();
                let want: String = (0..area.width)
                    .filter(|&x| {
                        // The cell after a wide glyph is covered by it.
                        x == 0
                            || ratatui::buffer::CellWidth::cell_width(frame[(x - 1, y)].symbol())
                                < 2
                    })
                    .map(|x| frame[(x, y)].symbol().to_string())
                    .collect();
                let shown = shown.replace("界 ", "界").replace("😀 ", "😀");
                assert_eq!(
                    shown.trim_end(),
                    want.trim_end(),
                    "seed {seed}, step {step}, row {y}"
                );
            }
            before = frame;
        }
    }
}
