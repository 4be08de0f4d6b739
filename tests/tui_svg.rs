//! The screen as an SVG picture: the writer (escaping, colours, wide
//! characters, reversed video), `bpeek tui --lesson L --snapshot DIR`
//! against the screens the explorer draws for the same steps, the
//! pictures drawn by librsvg, and `S` in a real terminal.

mod common;
mod scratch;
mod tmux;

use bpeek::tui::snapshot;
use bpeek::tui::svg::colour::Colours;
use bpeek::tui::svg::{self, CELL_HEIGHT, CELL_WIDTH};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use scratch::Scratch;
use std::path::Path;
use std::process::Command;
use unicode_width::UnicodeWidthStr;

/// The value of attribute `name` in the tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = tag
        .match_indices(&key)
        .find(|&(i, _)| i == 0 || tag[..i].ends_with(' '))?
        .0
        + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// XML's five entities back to their characters.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The screen an SVG shows, read back as text, one string per row (a
/// wide glyph once), as `common::rows_of` reads a test terminal: each
/// `<text>` glyph goes to the cell its x and y fall in.
fn svg_rows(svg: &str) -> Vec<String> {
    let head = &svg[svg.find("<svg ").expect("an <svg> element")..];
    let number = |tag: &str, name: &str| -> u32 {
        attribute(tag, name)
            .unwrap_or_else(|| panic!("no {name} in {tag}"))
            .parse()
            .unwrap()
    };
    let cols = (number(head, "width") / CELL_WIDTH) as usize;
    let rows = (number(head, "height") / CELL_HEIGHT) as usize;
    let mut grid = vec![vec![None::<String>; cols]; rows];
    for part in svg.split("<text ").skip(1) {
        let (tag, rest) = part.split_once('>').unwrap();
        let body = unescape(&rest[..rest.find("</text>").unwrap()]);
        let xs: Vec<u32> = attribute(tag, "x")
            .unwrap()
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        assert!(
            xs.iter().all(|x| x % CELL_WIDTH == 0),
            "off the grid: {tag}"
        );
        let row = &mut grid[(number(tag, "y") / CELL_HEIGHT) as usize];
        let chars: Vec<char> = body.chars().collect();
        if xs.len() == chars.len() {
            for (x, c) in xs.iter().zip(chars) {
                row[(x / CELL_WIDTH) as usize] = Some(c.to_string());
            }
        } else {
            assert_eq!(xs.len(), 1, "one x per character, or one glyph: {tag}");
            row[(xs[0] / CELL_WIDTH) as usize] = Some(body);
        }
    }
    grid.iter()
        .map(|cells| {
            let mut line = String::new();
            let mut x = 0;
            while x < cells.len() {
                let glyph = cells[x].as_deref().unwrap_or(" ");
                line.push_str(glyph);
                x += glyph.width().max(1);
            }
            line
        })
        .collect()
}

/// A one-row screen of `width` with `text` at its start in `style`.
fn row(width: u16, text: &str, style: Style) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, width, 1));
    buf.set_string(0, 0, text, style);
    buf
}

fn picture(buf: &Buffer) -> String {
    svg::screen(buf, &Colours::default())
}

#[test]
fn xml_s_special_characters_are_escaped_and_read_back() {
    let text = r#"if a<b && c>"d" 'e'"#;
    let svg = picture(&row(30, text, Style::default()));
    assert!(
        svg.contains("a&lt;b &amp;&amp; c&gt;&quot;d&quot; &apos;e&apos;"),
        "{svg}"
    );
    assert_eq!(svg_rows(&svg), [format!("{text:<30}")]);
}

#[test]
fn control_characters_are_never_written_raw() {
    let mut buf = row(4, "a", Style::default());
    buf[(1, 0)].set_symbol("\u{7}");
    buf[(2, 0)].set_symbol("\u{1b}");
    buf[(3, 0)].set_symbol("\u{9b}");
    let svg = picture(&buf);
    assert!(!svg.chars().any(|c| c.is_control() && c != '\n'), "{svg:?}");
    assert_eq!(svg_rows(&svg), ["a\u{fffd}\u{fffd}\u{fffd}"]);
}

#[test]
fn colours_are_xterm_s_and_reset_is_the_picture_s_own() {
    let cases = [
        (Color::Red, "#cd0000"),
        (Color::LightBlue, "#5c5cff"),
        (Color::Gray, "#e5e5e5"),
        (Color::DarkGray, "#7f7f7f"),
        (Color::Indexed(1), "#cd0000"),
        // The 6x6x6 cube and the greys, as xterm's 256-colour table has them.
        (Color::Indexed(33), "#0087ff"),
        (Color::Indexed(166), "#d75f00"),
        (Color::Indexed(196), "#ff0000"),
        (Color::Indexed(232), "#080808"),
        (Color::Indexed(244), "#808080"),
        (Color::Rgb(1, 2, 254), "#0102fe"),
    ];
    for (colour, hex) in cases {
        let svg = picture(&row(3, "ab", Style::default().fg(colour).bg(colour)));
        assert!(
            svg.contains(&format!("fill=\"{hex}\" xml:space")),
            "{colour:?}: {svg}"
        );
        assert!(
            svg.contains(&format!("width=\"18\" height=\"18\" fill=\"{hex}\"")),
            "{colour:?} behind the text: {svg}"
        );
    }
    let plain = picture(&row(3, "ab", Style::default()));
    let defaults = Colours::default();
    let hex = |[r, g, b]: [u8; 3]| format!("#{r:02x}{g:02x}{b:02x}");
    assert!(plain.contains(&format!("fill=\"{}\" xml:space", hex(defaults.fg))));
    // The screen's own background is drawn once, under everything.
    assert_eq!(plain.matches("<rect").count(), 1, "{plain}");
    assert!(plain.contains(&format!("fill=\"{}\"/>", hex(defaults.bg))));
}

#[test]
fn reversed_video_swaps_the_colours() {
    let style = Style::default()
        .fg(Color::Red)
        .add_modifier(Modifier::REVERSED);
    let svg = picture(&row(4, "hi", style));
    // The red goes behind the two letters, the screen's black onto them.
    assert!(
        svg.contains("<rect x=\"0\" y=\"0\" width=\"18\" height=\"18\" fill=\"#cd0000\"/>"),
        "{svg}"
    );
    assert!(
        svg.contains("<text x=\"0 9\" y=\"14\" fill=\"#1c1c1c\" xml:space=\"preserve\">hi</text>"),
        "{svg}"
    );
}

#[test]
fn bold_italic_underline_and_dim_are_attributes() {
    let style = Style::default()
        .add_modifier(Modifier::BOLD | Modifier::ITALIC | Modifier::UNDERLINED | Modifier::DIM);
    let svg = picture(&row(4, "x y", style));
    let tag = svg.split("<text ").nth(1).unwrap();
    for want in [
        "font-weight=\"bold\"",
        "font-style=\"italic\"",
        "text-decoration=\"underline\"",
        "fill-opacity=\"0.6\"",
    ] {
        assert!(tag.contains(want), "{want}: {tag}");
    }
    // An underlined blank still shows its line, so it stays in the run.
    assert!(tag.contains("x=\"0 9 18\""), "{tag}");
}

#[test]
fn a_wide_glyph_spans_two_cells_and_the_next_column_lines_up() {
    let svg = picture(&row(8, "中文ab", Style::default()));
    assert!(
        svg.contains("<text x=\"0 18 36 45\" y=\"14\""),
        "each glyph at its own column: {svg}"
    );
    assert!(svg.contains(">中文ab</text>"), "{svg}");
    assert_eq!(svg_rows(&svg), ["中文ab  "]);
    // A letter with its accent as two characters is one glyph of its own.
    let svg = picture(&row(3, "e\u{301}z", Style::default()));
    assert!(svg.contains("<text x=\"0\" y=\"14\""), "{svg}");
    assert_eq!(svg_rows(&svg), ["e\u{301}z "]);
}

#[test]
fn sizes_are_checked_against_the_explorer_s_smallest_screen() {
    assert_eq!(snapshot::parse_size("80x24"), Ok((80, 24)));
    assert_eq!(snapshot::parse_size("40X12"), Ok((40, 12)));
    for (bad, why) in [
        (
            "39x24",
            "smaller than the explorer's smallest screen, 40x12",
        ),
        ("80x11", "smaller"),
        ("401x50", "larger than 400x200"),
        ("80", "expected COLSxROWS"),
        ("80x", "rows \"\" is not a whole number"),
        ("ax24", "columns \"a\" is not a whole number"),
        ("99999999x24", "not a whole number"),
    ] {
        let e = snapshot::parse_size(bad).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

// The command line.

fn bpeek(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

/// The screens of every step of bundled lesson `name` as the explorer
/// draws them at `width` x `height`, as text.
fn lesson_screens(name: &str, width: u16, height: u16) -> Vec<Vec<String>> {
    use bpeek::tui::theme::{Palette, Theme};
    let (lesson, _) = bpeek::tui::load_lesson(name).unwrap();
    let options = lesson.training_options(None).unwrap();
    let theme = Theme::new(true, false).with_palette(Palette::Wide);
    let mut app = bpeek::tui::App::from_options(&options, theme).unwrap();
    app.lesson = Some(lesson);
    bpeek::tui::update(&mut app, bpeek::tui::Action::Resize(width, height));
    let steps = app.lesson.as_ref().unwrap().steps.len();
    (0..steps)
        .map(|_| {
            bpeek::tui::update(&mut app, bpeek::tui::Action::LessonNext);
            snapshot::settle(&mut app);
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
            terminal.draw(|f| bpeek::tui::view::draw(f, &app)).unwrap();
            common::rows_of(terminal.backend())
        })
        .collect()
}

#[test]
fn a_lesson_s_snapshots_are_its_steps_screens() {
    let dir = Scratch::new("snapshot");
    let out_dir = dir.join("slides");
    let out = bpeek(&[
        "tui",
        "--lesson",
        "classic",
        "--color",
        "always",
        "--snapshot",
        out_dir.to_str().unwrap(),
        "--size",
        "80x24",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = lesson_screens("classic", 80, 24);
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let names: Vec<String> = (1..=expected.len())
        .map(|i| format!("step-{i:03}.svg"))
        .collect();
    assert_eq!(files, names, "one picture a step");
    for (i, (name, screen)) in names.iter().zip(&expected).enumerate() {
        let svg = std::fs::read_to_string(out_dir.join(name)).unwrap();
        assert_eq!(&svg_rows(&svg), screen, "{name}");
        // The caption bar says which step it is.
        let step = format!("lesson {}/{}", i + 1, expected.len());
        assert!(
            screen.iter().any(|r| r.contains(&step)),
            "{name}: {screen:?}"
        );
    }
    // Nothing was written to the terminal: no escape sequence on stdout.
    assert!(!out.stdout.contains(&0x1b), "{:?}", out.stdout);
}

#[test]
fn the_snapshot_options_say_what_they_need() {
    let dir = Scratch::new("snapshot-errors");
    let target = dir.join("x");
    let target = target.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "tui",
                "--lesson",
                "classic",
                "--snapshot",
                target,
                "--compare",
                "",
            ],
            "--compare: a lesson trains one configuration",
        ),
        (&["tui", "--snapshot", target], "--lesson"),
        (
            &["tui", "--lesson", "classic", "--size", "80x24"],
            "--snapshot",
        ),
        (
            &[
                "tui",
                "--lesson",
                "classic",
                "--snapshot",
                target,
                "--size",
                "30x10",
            ],
            "smaller than the explorer's smallest screen",
        ),
        (
            &[
                "tui",
                "--lesson",
                "classic",
                "--snapshot",
                target,
                "--size",
                "80x24x2",
            ],
            "not a whole number",
        ),
    ];
    for (args, want) in cases {
        let out = bpeek(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!Path::new(target).exists(), "nothing made on a refusal");
}

/// Whether `rsvg-convert` is here; in CI it must be (.ci/run installs it).
fn rsvg_convert() -> bool {
    if Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok()
    {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "rsvg-convert is required in CI (.ci/run installs librsvg2-bin)"
    );
    eprintln!("note: rsvg-convert is not installed; skipping the drawing test");
    false
}

/// The width and height a PNG file says it has (its IHDR chunk).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn librsvg_draws_a_snapshot_at_its_cells_size() {
    if !rsvg_convert() {
        return;
    }
    let dir = Scratch::new("snapshot-png");
    let slides = dir.join("slides");
    let out = bpeek(&[
        "tui",
        "--lesson",
        "bytes",
        "--snapshot",
        slides.to_str().unwrap(),
        "--size",
        "90x30",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = dir.join("step-001.png");
    let drawn = Command::new("rsvg-convert")
        .arg(slides.join("step-001.svg"))
        .arg("-o")
        .arg(&png)
        .output()
        .unwrap();
    assert!(
        drawn.status.success(),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let size = png_size(&std::fs::read(&png).unwrap());
    assert_eq!(size, (90 * CELL_WIDTH, 30 * CELL_HEIGHT));
}

// The key in a real terminal.

#[test]
fn s_saves_the_screen_as_the_terminal_shows_it() {
    let Some(tmux) = tmux::Tmux::start("svg") else {
        return;
    };
    let dir = Scratch::new("save-screen");
    let term = tmux.open("svg", 80, 24);
    term.command(&format!("cd '{}'", dir.display()));
    term.command(&format!(
        "{} tui --corpus-name play --pretok whitespace",
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term.keys(&["n", "n"]);
    term.wait_for("merge 2", |s| s.contains("Merges 2"));
    term.keys(&["S"]);
    let shown = term.wait_for("the notice", |s| {
        s.contains("saved the screen as bpeek-screen-2-1.svg")
    });
    term.keys(&["S"]);
    term.wait_for("the second notice", |s| {
        s.contains("saved the screen as bpeek-screen-2-2.svg")
    });
    term.keys(&["q"]);
    let svg = std::fs::read_to_string(dir.join("bpeek-screen-2-1.svg")).unwrap();
    let read: Vec<String> = svg_rows(&svg)
        .iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    let shown: Vec<&str> = shown.lines().map(str::trim_end).collect();
    assert_eq!(read.len(), 24);
    // The last row held the notice the key itself brought.
    assert_eq!(read[..23], shown[..23], "the picture is the screen");
    assert!(
        dir.join("bpeek-screen-2-2.svg").exists(),
        "never overwritten"
    );
}

#[test]
fn in_a_class_s_writes_nothing_on_the_server() {
    use bpeek::serve::class::Class;
    use bpeek::serve::incoming::Inbox;
    use bpeek::tui::class::{Classroom, Role};
    let class: std::sync::Arc<Class> = common::class();
    let mut app = common::default_app();
    let seat = class.join(std::net::Ipv4Addr::LOCALHOST.into()).unwrap();
    let (inbox, _rx) = Inbox::new();
    class.start_session(seat.id, Role::Student, inbox).unwrap();
    app.classroom = Some(Classroom::new(Role::Student, class.link(seat.id)));
    let dir = Scratch::new("class-screen");
    bpeek::tui::update::save_screen::save_in(&mut app, &dir);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let notice = app.notice.unwrap();
    assert!(notice.contains("runs on the server"), "{notice}");
}
