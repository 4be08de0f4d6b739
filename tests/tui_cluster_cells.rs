//! Every grapheme cluster keeps all of its characters on a real terminal.
//!
//! tmux, like xterm, gives each code point its own width: a spacing vowel
//! sign takes a cell, a skin tone is an emoji of its own. ratatui counts a
//! cluster whole. The explorer leaves room after a cluster the terminal
//! draws wider, and learns the terminal's widths from its answers to a few
//! probes. Here tmux itself is the reference: it measures every cluster
//! of each class (every mark after a base, every skin tone, flags, joined
//! emoji, keycaps, variation selectors, Hangul jamo), and the explorer's
//! screen in tmux must show each of them whole, in every pane that draws
//! text.

mod tmux;

use bpeek::tui::terminal::term_widths::TermWidths;
use std::fmt::Write;
use tmux::{TempDir, Tmux};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Clusters of every class the segmentation rules name, beyond marks.
fn sequences() -> Vec<String> {
    let mut out: Vec<String> = [
        "\u{1F9D1}\u{200D}\u{1F4BB}",
        "\u{1F9D1}\u{1F3FF}\u{200D}\u{1F4BB}",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
        "\u{1F1EB}\u{1F1F7}",
        "\u{1F1EF}\u{1F1F5}",
        "\u{1F1EB}",
        "#\u{FE0F}\u{20E3}",
        "1\u{FE0F}\u{20E3}",
        "\u{2764}\u{FE0F}",
        "\u{263A}\u{FE0F}",
        "\u{2764}\u{FE0E}",
        "\u{1F600}\u{FE0E}",
        "\u{1112}\u{1161}\u{11AB}",
        "\u{1100}\u{1161}",
        "\u{0600}1",
        "\u{0E01}\u{0E33}",
        "\u{0E40}\u{0E01}",
        "\u{0EA5}\u{0EB2}",
        "\u{0EAB}\u{0EBC}\u{0EB8}",
        "\u{1780}\u{17B6}",
        "\u{1000}\u{102C}",
        "\u{0915}\u{094D}\u{0937}\u{093F}",
        "\u{0D15}\u{0D4D}\u{0D37}\u{0D3E}",
    ]
    .map(String::from)
    .to_vec();
    for modifier in '\u{1F3FB}'..='\u{1F3FF}' {
        out.push(format!("\u{1F44D}{modifier}"));
    }
    out
}

/// A base and each mark there is: every code point `unicode-width` gives
/// no cells that a cluster keeps on its base.
fn marks() -> Vec<String> {
    let mut out = Vec::new();
    for c in (0..0x30000).filter_map(char::from_u32) {
        if c.width() == Some(0) && !c.is_control() && c != '\u{200D}' {
            let cluster = format!("a{c}");
            if unicode_segmentation::UnicodeSegmentation::graphemes(cluster.as_str(), true).count()
                == 1
            {
                out.push(cluster);
            }
        }
    }
    out
}

/// tmux's cells for each cluster, measured in tmux: each written at the
/// start of a row, then the cursor's column asked for.
fn measured_in_tmux(tmux: &Tmux, clusters: &[String]) -> Vec<usize> {
    let dir = TempDir::new("cluster-cells");
    let list = dir.path().join("clusters");
    let answers = dir.path().join("answers");
    std::fs::write(&list, clusters.join("\n")).unwrap();
    let script = dir.path().join("measure.py");
    std::fs::write(
        &script,
        "import os, sys, termios, tty\n\
         clusters = open(sys.argv[1], encoding='utf-8').read().split('\\n')\n\
         fd = sys.stdin.fileno(); old = termios.tcgetattr(fd); tty.setraw(fd)\n\
         out = []\n\
         try:\n\
         \x20   for c in clusters:\n\
         \x20       os.write(1, ('\\x1b[3;1H\\x1b[2K' + c + '\\x1b[6n').encode())\n\
         \x20       got = b''\n\
         \x20       while not got.endswith(b'R'):\n\
         \x20           got += os.read(fd, 1)\n\
         \x20       out.append(str(int(got.split(b';')[1][:-1]) - 1))\n\
         finally:\n\
         \x20   termios.tcsetattr(fd, termios.TCSADRAIN, old)\n\
         open(sys.argv[2] + '.part', 'w').write('\\n'.join(out))\n\
         os.rename(sys.argv[2] + '.part', sys.argv[2])\n",
    )
    .unwrap();
    let term = tmux.open("measure", 100, 10);
    term.command(&format!(
        "python3 {} {} {}",
        script.display(),
        list.display(),
        answers.display()
    ));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !answers.exists() {
        assert!(std::time::Instant::now() < deadline, "{}", term.screen());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let text = std::fs::read_to_string(&answers).unwrap();
    text.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn the_usual_widths_are_tmuxs_for_every_mark_and_emoji_sequence() {
    let Some(tmux) = Tmux::start("cluster-cells") else {
        return;
    };
    let mut clusters = marks();
    clusters.extend(sequences());
    let measured = measured_in_tmux(&tmux, &clusters);
    assert_eq!(measured.len(), clusters.len());
    let widths = TermWidths::default();
    let mut wrong = String::new();
    for (cluster, &tmux_cells) in clusters.iter().zip(&measured) {
        // The room the explorer leaves: ratatui's count, or more.
        let room = cluster.width().max(widths.cells(cluster));
        // Never less than tmux takes (something would be covered), and
        // more only where ratatui itself counts more.
        if room < tmux_cells || (room > tmux_cells && room > cluster.width()) {
            let codes: Vec<String> = cluster
                .chars()
                .map(|c| format!("{:04X}", c as u32))
                .collect();
            let _ = writeln!(wrong, "{codes:?}: tmux {tmux_cells}, room {room}");
        }
    }
    assert!(wrong.is_empty(), "clusters given the wrong room:\n{wrong}");
}

/// A corpus of a sample of every class: the spacing marks of the scripts
/// of India, Sri Lanka and South-East Asia, and every sequence above.
fn sampler() -> String {
    let mut words: Vec<String> = [
        "பழமையான",
        "മലയാളം",
        "কোথায়",
        "ಕನ್ನಡ",
        "සිංහල",
        "ଓଡ଼ିଆ",
        "ລາວ",
        "ភាសា",
        "မြန်မာ",
        "ไทยทำ",
    ]
    .map(String::from)
    .to_vec();
    words.extend(sequences());
    words.join(" ")
}

fn clusters_of(text: &str) -> Vec<&str> {
    text.split(' ').collect()
}

fn start_explorer<'t>(
    tmux: &'t Tmux,
    width: u16,
    height: u16,
    env: &str,
    corpus: &str,
) -> tmux::Term<'t> {
    let term = tmux.open(&format!("e{width}{}", env.len()), width, height);
    term.command(&format!(
        "{env} {} tui {corpus}",
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term
}

#[test]
fn every_cluster_is_whole_in_the_corpus_pane_the_encode_box_and_the_fertility_strip() {
    let Some(tmux) = Tmux::start("cluster-panes") else {
        return;
    };
    let dir = TempDir::new("cluster-panes");
    let corpus = dir.path().join("sampler.txt");
    let text = sampler();
    std::fs::write(&corpus, format!("{text}\n")).unwrap();
    let corpus = corpus.display().to_string();
    for (width, height, env) in [
        (120, 40, ""),
        (80, 24, "NO_COLOR=1"),
        (120, 40, "TERM=linux"),
    ] {
        let term = start_explorer(&tmux, width, height, env, &corpus);
        let missing = |screen: &str| -> Vec<String> {
            clusters_of(&text)
                .into_iter()
                .filter(|c| !screen.contains(c))
                .map(String::from)
                .collect()
        };
        let screen = term.wait_still("the corpus", std::time::Duration::from_millis(300), |_| {
            true
        });
        assert_eq!(
            missing(&screen),
            Vec::<String>::new(),
            "corpus pane at {width}x{height} {env}:\n{screen}"
        );
        term.keys(&["e"]);
        term.paste(&text);
        let screen = term.wait_still("the paste", std::time::Duration::from_millis(300), |s| {
            s.contains("Encode: editing")
        });
        let encode_rows: String = screen
            .lines()
            .filter(|l| !l.contains("││"))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            missing(&encode_rows),
            Vec::<String>::new(),
            "encode box at {width}x{height} {env}:\n{screen}"
        );
        term.keys(&["Escape"]);
        // Esc and a key at once would be Alt and the key.
        term.wait_for("editing to end", |s| !s.contains("Encode: editing"));
        term.keys(&["f"]);
        let screen = term.wait_still(
            "the fertility view",
            std::time::Duration::from_millis(300),
            |s| s.contains("Fertility"),
        );
        // The strip shows the start of the text: what fits is whole.
        let strip = screen
            .lines()
            .skip_while(|l| !l.contains("token 1/"))
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let shown: Vec<&str> = clusters_of(&text)
            .into_iter()
            .take_while(|c| strip.contains(c))
            .collect();
        assert!(
            shown.len() >= 3,
            "the strip at {width}x{height} {env}:\n{screen}"
        );
        term.keys(&["f"]);
        term.keys(&["q"]);
        term.wait_for("the shell", |s| !s.contains("Merges"));
    }
}
