//! The built binary in a real terminal (tmux): raw mode, the alternate
//! screen, keys and the shell screen coming back on quit.

use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of our own, killed when the test ends however it ends.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    /// A server named for the test, so tests can run side by side.
    fn start(name: &str, width: u16, height: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required in CI (.ci/run installs it)"
            );
            eprintln!("note: tmux is not installed; skipping the real-terminal test");
            return None;
        }
        let tmux = Tmux {
            socket: std::env::temp_dir()
                .join(format!("bpeek-e2e-{name}-{}.sock", std::process::id())),
        };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            "-s",
            "e2e",
            "sh",
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        // Typing before the first prompt would mix the two on one line.
        tmux.wait_for("the shell's prompt", |s| {
            s.lines().any(|l| matches!(l.trim_end(), "$" | "#"))
        });
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .env("PS1", "$ ")
            .output()
            .expect("tmux runs")
    }

    /// Send keys by tmux name (`Enter`, `Escape`) or as literal text.
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    fn text(&self, text: &str) {
        assert!(
            self.run(&["send-keys", "-t", "e2e", "-l", text])
                .status
                .success()
        );
    }

    fn screen(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-t", "e2e"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait until the screen satisfies `ok`; fail with the screen if it
    /// never does.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen is:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_file(&self.socket);
    }
}

#[test]
fn a_class_steps_through_the_play_corpus_in_a_real_terminal() {
    let Some(tmux) = Tmux::start("play", 100, 30) else {
        return;
    };
    tmux.text("echo shell-was-here");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the shell", |s| s.lines().any(|l| l == "shell-was-here"));

    let command = format!(
        "{} tui --corpus-name play --pretok whitespace --tie first",
        env!("CARGO_BIN_EXE_bpeek")
    );
    tmux.text(&command);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the explorer", |s| s.contains("Merges 0"));
    assert!(screen.contains("Corpus: play"), "{screen}");
    assert!(
        !screen.contains("shell-was-here"),
        "the alternate screen hides the shell:\n{screen}"
    );

    tmux.keys(&["n"]);
    tmux.wait_for("merge 1", |s| s.contains("Merges 1"));
    tmux.keys(&["n"]);
    let screen = tmux.wait_for("merge 2", |s| s.contains("Merges 2"));
    assert!(screen.contains("p + l → pl "), "{screen}");
    assert!(screen.contains("pl + a → pla "), "{screen}");

    tmux.keys(&["p"]);
    let screen = tmux.wait_for("the undo", |s| s.contains("Merges 1"));
    assert!(screen.contains("p + l → pl "), "{screen}");
    assert!(!screen.contains("→ pla"), "pla is gone:\n{screen}");

    tmux.keys(&["e"]);
    tmux.wait_for("editing", |s| s.contains("Encode: editing"));
    tmux.text("played");
    // With the one merge p + l: pl a y e d.
    tmux.wait_for("the token count", |s| {
        s.contains("6 bytes · 6 chars · 5 tokens")
    });

    tmux.keys(&["Escape"]);
    tmux.wait_for("editing to end", |s| !s.contains("Encode: editing"));
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the shell to come back", |s| {
        s.lines().any(|l| l == "shell-was-here")
    });
    assert!(!screen.contains("Merges"), "{screen}");
    assert!(
        screen.contains("--tie first"),
        "the command line is still there:\n{screen}"
    );
    // A shell that reads lines again means raw mode is off.
    tmux.text("echo $((6 * 7))");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the shell to answer", |s| s.lines().any(|l| l == "42"));
}

#[test]
fn the_fertility_view_loads_real_tokenizers_without_stalling() {
    let Some(tmux) = Tmux::start("fertility", 80, 24) else {
        return;
    };
    let command = format!("NO_COLOR=1 {} tui --ascii", env!("CARGO_BIN_EXE_bpeek"));
    tmux.text(&command);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the explorer", |s| s.contains("Merges 0"));
    tmux.keys(&["f"]);
    // Keys are answered while the tokenizers load: the panel moves on.
    tmux.keys(&["Tab"]);
    tmux.wait_for("the scripts panel", |s| s.contains("[Scripts]"));
    tmux.keys(&["BTab"]);
    let screen = tmux.wait_for("the loads to finish", |s| {
        s.contains("[Cost]") && !s.contains("loading") && s.contains(" o200k ")
    });
    let russian = screen.lines().find(|l| l.contains("Russian"));
    assert!(
        russian.is_some_and(|r| r.contains("5.61    2.52    1.28")),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the shell to come back", |s| !s.contains("Fertility"));
}

/// Wait for the screen to settle: the same twice running, nothing loading.
fn settled(tmux: &Tmux) -> String {
    let mut before = tmux.screen();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        sleep(Duration::from_millis(300));
        let now = tmux.screen();
        if now == before && !now.contains("loading") || Instant::now() > deadline {
            return now;
        }
        before = now;
    }
}

/// Press `key`, which changes the screen, and check that the screen then
/// shows what a full redraw (Ctrl-L) shows: no cell is left over from the
/// screen before.
fn press_and_check(tmux: &Tmux, key: &str) {
    let before = tmux.screen();
    tmux.keys(&[key]);
    tmux.wait_for(&format!("{key} to change the screen"), |s| s != before);
    assert_no_stale_cells(tmux, key);
}

fn assert_no_stale_cells(tmux: &Tmux, after: &str) {
    let before = settled(tmux);
    tmux.keys(&["C-l"]);
    sleep(Duration::from_millis(300));
    let redrawn = settled(tmux);
    assert_eq!(before, redrawn, "after {after}, stale cells remained");
}

#[test]
fn hindi_is_drawn_whole_and_leaves_nothing_behind() {
    let Some(tmux) = Tmux::start("hindi", 100, 30) else {
        return;
    };
    let command = format!(
        "{} tui {}/corpora/samples/hi-hindi.txt",
        env!("CARGO_BIN_EXE_bpeek"),
        env!("CARGO_MANIFEST_DIR")
    );
    tmux.text(&command);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the explorer", |s| s.contains("Merges 0"));
    tmux.text("g60");
    tmux.keys(&["Enter"]);
    // The vowel signs and viramas, tokens of their own, are all there.
    let screen = tmux.wait_for("merge 60", |s| s.contains("Merges 60"));
    assert!(screen.contains("हमारे शहर का पुस्तकालय"), "{screen}");

    assert!(tmux.run(&["set-buffer", "नमस्ते दुनिया"]).status.success());
    assert!(
        tmux.run(&["paste-buffer", "-p", "-t", "e2e"])
            .status
            .success()
    );
    // A frame reaches the terminal row by row: wait for the whole of it.
    tmux.wait_for("the paste", |s| {
        s.contains("Encode: editing") && s.contains("नमस्ते दुनिया")
    });
    tmux.keys(&["Escape"]);
    for key in ["f", "T", "f", "f", "Tab", "Tab", "f"] {
        press_and_check(&tmux, key);
    }
    assert!(
        tmux.run(&["resize-window", "-t", "e2e", "-x", "80", "-y", "24"])
            .status
            .success()
    );
    assert_no_stale_cells(&tmux, "a resize");
    // Out of editing each token is as wide as its id above it, so the
    // text is spaced out, but every cluster is still drawn whole.
    let screen = tmux.screen();
    assert!(
        screen.contains("स्ते") && screen.contains("दुनिया"),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the shell to come back", |s| !s.contains("Merges"));
}

#[test]
fn a_lesson_plays_zooms_and_is_recorded_in_a_real_terminal() {
    let Some(tmux) = Tmux::start("lesson", 80, 24) else {
        return;
    };
    let record = std::env::temp_dir().join(format!("bpeek-e2e-{}.lesson", std::process::id()));
    let _ = std::fs::remove_file(&record);
    let command = format!(
        "{} tui --lesson classic --record {}",
        env!("CARGO_BIN_EXE_bpeek"),
        record.display()
    );
    tmux.text(&command);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the lesson", |s| s.contains("lesson 0/8  Seven words"));
    tmux.keys(&["Space"]);
    let screen = tmux.wait_for("step 1", |s| s.contains("lesson 1/8"));
    assert!(
        screen.contains("l + o wins: count 5, tied with 1 other"),
        "{screen}"
    );
    tmux.keys(&["Space"]);
    tmux.wait_for("step 2", |s| {
        s.contains("lesson 2/8") && s.contains("(38 → 33)")
    });

    // Zoom: the corpus pane alone, status line and footer kept.
    tmux.keys(&["z"]);
    let screen = tmux.wait_for("the zoom", |s| !s.contains("Merges"));
    assert!(screen.contains("Corpus: low"), "{screen}");
    assert!(
        screen.lines().next().unwrap().contains("merge 1/10"),
        "{screen}"
    );
    assert!(screen.contains("lesson 2/8"), "{screen}");
    tmux.keys(&["Tab"]);
    let screen = tmux.wait_for("the pairs zoomed", |s| s.contains("Pairs 10"));
    assert!(!screen.contains("Corpus: low"), "{screen}");
    tmux.keys(&["z"]);
    tmux.wait_for("the panes back", |s| {
        s.contains("Merges 1") && s.contains("Corpus: low")
    });

    tmux.keys(&["Left"]);
    tmux.wait_for("one step back", |s| s.contains("lesson 1/8"));
    tmux.keys(&["q"]);
    tmux.wait_for("the shell to come back", |s| !s.contains("lesson 1/8"));
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
            "step 0",
            "phase chosen"
        ]
    );
    let _ = std::fs::remove_file(&record);
}
