//! The built binary in a real terminal (tmux): raw mode, the alternate
//! screen, keys and the shell screen coming back on quit.

mod tmux;
mod wait;

use std::path::Path;
use std::thread::sleep;
use std::time::{Duration, Instant};
use tmux::{TempDir, Term, Tmux};

#[test]
fn a_class_steps_through_the_play_corpus_in_a_real_terminal() {
    let Some(tmux) = Tmux::start("play") else {
        return;
    };
    let term = tmux.open("e2e", 100, 30);
    term.text("echo shell-was-here");
    term.keys(&["Enter"]);
    term.wait_for("the shell", |s| s.lines().any(|l| l == "shell-was-here"));

    let command = format!(
        "{} tui --corpus-name play --pretok whitespace --tie first",
        env!("CARGO_BIN_EXE_bpeek")
    );
    term.text(&command);
    term.keys(&["Enter"]);
    let screen = term.wait_for("the explorer", |s| s.contains("Merges 0"));
    assert!(screen.contains("Corpus: play"), "{screen}");
    assert!(
        !screen.contains("shell-was-here"),
        "the alternate screen hides the shell:\n{screen}"
    );

    term.keys(&["n"]);
    term.wait_for("merge 1", |s| s.contains("Merges 1"));
    term.keys(&["n"]);
    let screen = term.wait_for("merge 2", |s| s.contains("Merges 2"));
    assert!(screen.contains("p + l → pl "), "{screen}");
    assert!(screen.contains("pl + a → pla "), "{screen}");

    term.keys(&["p"]);
    let screen = term.wait_for("the undo", |s| s.contains("Merges 1"));
    assert!(screen.contains("p + l → pl "), "{screen}");
    assert!(!screen.contains("→ pla"), "pla is gone:\n{screen}");

    term.keys(&["e"]);
    term.wait_for("editing", |s| s.contains("Encode: editing"));
    term.text("played");
    // With the one merge p + l: pl a y e d.
    term.wait_for("the token count", |s| {
        s.contains("6 bytes · 6 chars · 5 tokens")
    });

    term.keys(&["Escape"]);
    term.wait_for("editing to end", |s| !s.contains("Encode: editing"));
    term.keys(&["q"]);
    let screen = term.wait_for("the shell to come back", |s| {
        s.lines().any(|l| l == "shell-was-here")
    });
    assert!(!screen.contains("Merges"), "{screen}");
    // The command line may wrap, however long the path to the program.
    assert!(
        screen.replace('\n', "").contains("--tie first"),
        "the command line is still there:\n{screen}"
    );
    // A shell that reads lines again means raw mode is off.
    term.text("echo $((6 * 7))");
    term.keys(&["Enter"]);
    term.wait_for("the shell to answer", |s| s.lines().any(|l| l == "42"));
}

#[test]
fn the_fertility_view_loads_real_tokenizers_without_stalling() {
    let Some(tmux) = Tmux::start("fertility") else {
        return;
    };
    let term = tmux.open("e2e", 80, 24);
    let command = format!("NO_COLOR=1 {} tui --ascii", env!("CARGO_BIN_EXE_bpeek"));
    term.text(&command);
    term.keys(&["Enter"]);
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term.keys(&["f"]);
    // Keys are answered while the tokenizers load: the panel moves on.
    term.keys(&["Tab"]);
    term.wait_for("the scripts panel", |s| s.contains("[Scripts]"));
    term.keys(&["BTab"]);
    let screen = term.wait_for("the loads to finish", |s| {
        s.contains("[Cost]") && !s.contains("loading") && s.contains(" o200k ")
    });
    let russian = screen.lines().find(|l| l.contains("Russian"));
    assert!(
        russian.is_some_and(|r| r.contains("5.61    2.52    1.28")),
        "{screen}"
    );
    term.keys(&["q"]);
    term.wait_for("the shell to come back", |s| !s.contains("Fertility"));
}

/// Wait for the screen to settle: unchanged for 300 ms, nothing loading.
fn settled(term: &Term<'_>) -> String {
    term.wait_still("the screen to settle", Duration::from_millis(300), |s| {
        !s.contains("loading")
    })
}

/// Press `key`, which changes the screen, and check that the screen then
/// shows what a full redraw (Ctrl-L) shows: no cell is left over from the
/// screen before. `output` records what the explorer writes.
fn press_and_check(term: &Term<'_>, output: &Path, key: &str) {
    let before = term.screen();
    term.keys(&[key]);
    term.wait_for(&format!("{key} to change the screen"), |s| s != before);
    assert_no_stale_cells(term, output, key);
}

fn assert_no_stale_cells(term: &Term<'_>, output: &Path, after: &str) {
    let before = settled(term);
    let written = || std::fs::metadata(output).map_or(0, |m| m.len());
    let drawn = written();
    term.keys(&["C-l"]);
    // The redraw has reached the terminal once the explorer wrote again.
    wait::wait_until("the explorer to redraw after Ctrl-L", || written() > drawn);
    let redrawn = settled(term);
    assert_eq!(before, redrawn, "after {after}, stale cells remained");
}

#[test]
fn hindi_is_drawn_whole_and_leaves_nothing_behind() {
    let Some(tmux) = Tmux::start("hindi") else {
        return;
    };
    let term = tmux.open("e2e", 100, 30);
    let dir = TempDir::new("hindi");
    let output = dir.path().join("output");
    term.record_output(&output);
    let command = format!(
        "{} tui {}/corpora/samples/hi-hindi.txt",
        env!("CARGO_BIN_EXE_bpeek"),
        env!("CARGO_MANIFEST_DIR")
    );
    term.text(&command);
    term.keys(&["Enter"]);
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term.text("g60");
    term.keys(&["Enter"]);
    // The vowel signs and viramas, tokens of their own, are all there.
    let screen = term.wait_for("merge 60", |s| s.contains("Merges 60"));
    assert!(screen.contains("हमारे शहर का पुस्तकालय"), "{screen}");

    term.paste("नमस्ते दुनिया");
    // A frame reaches the terminal row by row: wait for the whole of it.
    term.wait_for("the paste", |s| {
        s.contains("Encode: editing") && s.contains("नमस्ते दुनिया")
    });
    term.keys(&["Escape"]);
    for key in ["f", "T", "f", "f", "Tab", "Tab", "f"] {
        press_and_check(&term, &output, key);
    }
    term.resize(80, 24);
    assert_no_stale_cells(&term, &output, "a resize");
    // Out of editing each token is as wide as its id above it, so the
    // text is spaced out, but every cluster is still drawn whole.
    let screen = term.screen();
    assert!(
        screen.contains("स्ते") && screen.contains("दुनिया"),
        "{screen}"
    );
    term.keys(&["q"]);
    term.wait_for("the shell to come back", |s| !s.contains("Merges"));
}

#[test]
fn a_lesson_plays_zooms_and_is_recorded_in_a_real_terminal() {
    let Some(tmux) = Tmux::start("lesson") else {
        return;
    };
    let term = tmux.open("e2e", 80, 24);
    let dir = TempDir::new("e2e");
    let record = dir.path().join("recorded.lesson");
    let command = format!(
        "{} tui --lesson classic --record {}",
        env!("CARGO_BIN_EXE_bpeek"),
        record.display()
    );
    term.text(&command);
    term.keys(&["Enter"]);
    term.wait_for("the lesson", |s| s.contains("lesson 0/8  Seven words"));
    term.keys(&["Space"]);
    let screen = term.wait_for("step 1", |s| s.contains("lesson 1/8"));
    assert!(
        screen.contains("l + o wins: count 5, tied with 1 other"),
        "{screen}"
    );
    term.keys(&["Space"]);
    term.wait_for("step 2", |s| {
        s.contains("lesson 2/8") && s.contains("(38 → 33)")
    });

    // Zoom: the corpus pane alone, status line and footer kept.
    term.keys(&["z"]);
    let screen = term.wait_for("the zoom", |s| !s.contains("Merges"));
    assert!(screen.contains("Corpus: low"), "{screen}");
    assert!(
        screen.lines().next().unwrap().contains("merge 1/10"),
        "{screen}"
    );
    assert!(screen.contains("lesson 2/8"), "{screen}");
    term.keys(&["Tab"]);
    let screen = term.wait_for("the pairs zoomed", |s| s.contains("Pairs 10"));
    assert!(!screen.contains("Corpus: low"), "{screen}");
    term.keys(&["z"]);
    term.wait_for("the panes back", |s| {
        s.contains("Merges 1") && s.contains("Corpus: low")
    });

    term.keys(&["Left"]);
    term.wait_for("one step back", |s| s.contains("lesson 1/8"));
    term.keys(&["q"]);
    term.wait_for("the shell to come back", |s| !s.contains("lesson 1/8"));
    let deadline = Instant::now() + Duration::from_secs(15);
    while !record.exists() && Instant::now() < deadline {
        sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&record).expect("the recording is written on quit");
    let steps: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        steps,
        [
            "corpus low",
            "options --mode char --merges 10",
            "phase chosen",
            "step 1",
            "step 0 chosen"
        ]
    );
}

#[test]
fn a_paste_that_never_ends_gives_the_keyboard_back() {
    let Some(tmux) = Tmux::start("unended-paste") else {
        return;
    };
    let term = tmux.open("t", 100, 30);
    term.command(&format!(
        "{} tui --corpus-name play; echo exit-$?",
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term.keys(&["e"]);
    term.wait_for("the encode box", |s| s.contains("Encode: editing"));
    // The start of a bracketed paste, and never its end: after a second
    // without a byte the paste is taken as ended, and its text shows.
    term.text("\u{1b}[200~abc");
    term.wait_for("the unended paste given up", |s| s.contains("│abc "));
    term.text(" typed");
    term.wait_for("the paste and the keys after it", |s| {
        s.contains("abc typed")
    });
    term.keys(&["Escape"]);
    term.keys(&["q"]);
    term.wait_for_line("exit-0");
}

#[test]
fn a_corpus_that_is_not_a_file_opens_behind_the_opening_screen() {
    let Some(tmux) = Tmux::start("not-a-file") else {
        return;
    };
    let term = tmux.open("t", 100, 30);
    let dir = tmux::TempDir::new("not-a-file");
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let bpeek = env!("CARGO_BIN_EXE_bpeek");
    // A FIFO no one writes to: the screen opens, waits, and q quits.
    term.command(&format!("{bpeek} tui {}; echo exit-$?", fifo.display()));
    term.wait_for("the opening screen", |s| s.contains("waiting for input"));
    term.keys(&["q"]);
    term.wait_for_line("exit-0");
    // A device that never ends: read up to the bound, then said.
    term.clear();
    term.command(&format!("{bpeek} tui /dev/zero; echo exit-$?"));
    let screen = term.wait_for_line("exit-2");
    assert!(
        screen.contains("/dev/zero: the explorer reads at most 1 GiB of corpus"),
        "{screen}"
    );
}

/// Where `text` first shows on `screen`, as SGR counts it (from 1).
fn sgr_place(screen: &str, text: &str) -> (usize, usize) {
    for (y, row) in screen.lines().enumerate() {
        if let Some(byte) = row.find(text) {
            return (row[..byte].chars().count() + 1, y + 1);
        }
    }
    panic!("{text:?} is not on the screen:\n{screen}");
}

#[test]
fn clicks_select_in_a_real_terminal_and_the_mouse_is_given_back() {
    let Some(tmux) = Tmux::start("mouse") else {
        return;
    };
    let term = tmux.open("t", 80, 24);
    let modes = "#{mouse_standard_flag}#{mouse_sgr_flag}";
    term.command(&format!(
        "{} tui --corpus-name play --pretok whitespace --tie first; echo exit-$?",
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    assert_eq!(term.display(modes), "11", "presses, in SGR's form");
    for _ in 0..6 {
        term.keys(&["n"]);
    }
    let screen = term.wait_for("six merges", |s| s.contains("Merges 6"));
    // What the terminal sends for a click on the row of merge 3 (merges
    // are counted from 1).
    let (x, y) = sgr_place(&screen, "pla + y");
    term.text(&format!("\u{1b}[<0;{x};{y}M\u{1b}[<0;{x};{y}m"));
    term.wait_for("merge 3 selected", |s| {
        s.contains("play selected") && s.contains("merge 3: pla + y wins")
    });
    // A click on the 'r' of "replay", a byte no merge made.
    let (x, y) = sgr_place(&screen, "replay of");
    term.text(&format!("\u{1b}[<0;{x};{y}M"));
    term.wait_for("the byte's notice", |s| {
        s.contains("r (id 114): a base token, made by no merge")
    });
    term.keys(&["q"]);
    term.wait_for_line("exit-0");
    assert_eq!(
        term.display(modes),
        "00",
        "the mouse is the terminal's again"
    );

    // Without the mouse the terminal keeps it all along.
    term.command(&format!(
        "{} tui --no-mouse --corpus-name play; echo no-mouse-exit-$?",
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    assert_eq!(term.display(modes), "00");
    term.keys(&["q"]);
    term.wait_for_line("no-mouse-exit-0");
}
