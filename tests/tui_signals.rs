//! Signals to the explorer in a real terminal under `sh`: an ending signal
//! gives the shell back its terminal exactly as it was, and a suspend gives
//! it back until `fg` takes it over again.

mod tmux;

use tmux::{TempDir, Tmux, kill};

fn explorer() -> String {
    format!(
        "{} tui --corpus-name play --pretok whitespace",
        env!("CARGO_BIN_EXE_bpeek")
    )
}

/// Save `stty -a` into `file` of `dir` and wait until it is written.
fn save_tty(term: &tmux::Term, dir: &TempDir, file: &str) -> String {
    term.command(&format!(
        "stty -a > {}/{file}; echo saved-{file}",
        dir.path().display()
    ));
    term.wait_for_line(&format!("saved-{file}"));
    dir.read(file)
}

/// The shell reads lines again: what is typed is echoed and answered.
fn assert_shell_answers(term: &tmux::Term, tag: &str) {
    term.clear();
    term.command(&format!("echo {tag}-$((6 * 7))"));
    let screen = term.wait_for_line(&format!("{tag}-42"));
    let typed = format!(" echo {tag}-$((6 * 7))");
    // `sh` prompts with `$ `, or `# ` for root.
    assert!(
        screen
            .lines()
            .any(|l| l.trim_end() == format!("${typed}") || l.trim_end() == format!("#{typed}")),
        "the prompt is back and the typed line echoes:\n{screen}"
    );
}

#[test]
fn an_ending_signal_restores_the_terminal_and_exits_with_128_plus_its_number() {
    let Some(tmux) = Tmux::start("signals") else {
        return;
    };
    let term = tmux.open("t", 100, 30);
    let dir = TempDir::new("signals");
    let before = save_tty(&term, &dir, "before");
    for (signal, number) in [
        ("INT", 2),
        ("TERM", 15),
        ("HUP", 1),
        ("QUIT", 3),
        ("USR1", 10),
        ("ALRM", 14),
        ("USR2", 12),
        ("PROF", 27),
    ] {
        term.clear();
        term.command(&format!("{}; echo exit-$?", explorer()));
        term.wait_for("the explorer", |s| s.contains("Merges 0"));
        kill(signal, term.child_pid());
        let screen = term.wait_for_line(&format!("exit-{}", 128 + number));
        assert!(
            !screen.contains("Merges"),
            "SIG{signal}: the alternate screen is left:\n{screen}"
        );
        let after = save_tty(&term, &dir, &format!("after-{signal}"));
        assert_eq!(before, after, "SIG{signal}: stty -a before and after");
        assert_shell_answers(&term, &format!("typed-after-{signal}"));
    }
}

#[test]
fn ctrl_z_and_kill_tstp_suspend_and_fg_takes_the_screen_back() {
    let Some(tmux) = Tmux::start("suspend") else {
        return;
    };
    let term = tmux.open("t", 100, 30);
    let dir = TempDir::new("suspend");
    let before = save_tty(&term, &dir, "before");
    term.command(&explorer());
    term.wait_for("the explorer", |s| s.contains("Merges 0"));
    term.keys(&["n"]);
    term.wait_for("merge 1", |s| s.contains("Merges 1"));

    // Ctrl-Z: the shell is back, in the state it left the terminal in.
    term.keys(&["C-z"]);
    term.wait_for("the shell", |s| {
        s.contains("Stopped") && !s.contains("Merges")
    });
    let suspended = save_tty(&term, &dir, "after-ctrl-z");
    assert_eq!(before, suspended, "stty -a while suspended by Ctrl-Z");
    assert_shell_answers(&term, "typed-while-suspended");

    // fg: raw mode and the screen again, where training was.
    term.command("fg");
    term.wait_for("the explorer again", |s| s.contains("Merges 1"));
    term.keys(&["n"]);
    let screen = term.wait_for("merge 2", |s| s.contains("Merges 2"));
    assert!(
        !screen.lines().any(|l| l.starts_with('n')),
        "keys are read in raw mode, not echoed:\n{screen}"
    );

    // kill -TSTP from elsewhere does the same.
    kill("TSTP", term.child_pid());
    term.wait_for("the shell", |s| !s.contains("Merges"));
    let suspended = save_tty(&term, &dir, "after-tstp");
    assert_eq!(before, suspended, "stty -a while suspended by SIGTSTP");
    term.command("fg");
    term.wait_for("the explorer redrawn", |s| s.contains("Merges 2"));
    term.keys(&["n"]);
    term.wait_for("merge 3", |s| s.contains("Merges 3"));

    term.keys(&["q"]);
    term.wait_for("the shell after quitting", |s| !s.contains("Merges"));
    term.command("echo exit-$?");
    term.wait_for_line("exit-0");
    let after = save_tty(&term, &dir, "after-quit");
    assert_eq!(before, after, "stty -a after quitting");
}

#[test]
fn ctrl_c_or_a_signal_after_a_flood_of_typing_ends_at_once_and_leaves_the_screen_clean() {
    let Some(tmux) = Tmux::start("flood") else {
        return;
    };
    let term = tmux.open("t", 100, 30);
    let dir = TempDir::new("flood");
    let before = save_tty(&term, &dir, "before");
    let chunk = "abcdefg ".repeat(125);
    for (ending, code) in [("C-c", 0), ("TERM", 143), ("INT", 130)] {
        term.clear();
        term.command(&format!("{}; echo exit-$?", explorer()));
        term.wait_for("the explorer", |s| s.contains("Merges 0"));
        term.keys(&["e"]);
        term.wait_for("the encode box", |s| s.contains("editing"));
        // 32,000 characters typed, far more than the explorer works
        // through before the end is asked for.
        for _ in 0..32 {
            term.text(&chunk);
        }
        if ending == "C-c" {
            term.keys(&["C-c"]);
        } else {
            kill(ending, term.child_pid());
        }
        // Without the end acting ahead of the queue this takes minutes
        // and the wait fails.
        let screen = term.wait_for_line(&format!("exit-{code}"));
        assert!(
            !screen.contains("Encode") && !screen.contains("Merges") && !screen.contains('│'),
            "{ending}: no part of a frame is left on the shell's screen:\n{screen}"
        );
        if ending == "C-c" {
            // Everything typed came before Ctrl-C, so the explorer read it all.
            assert!(
                !screen.contains("abcdefg"),
                "nothing typed reaches the shell:\n{screen}"
            );
        } else {
            // A signal may come while the terminal still holds typing the
            // explorer never read: the shell gets it, as with any program.
            // Its line is cleared, and the typing is waited out.
            term.wait_still(
                "the typing to be echoed",
                std::time::Duration::from_millis(300),
                |_| true,
            );
            term.keys(&["C-c"]);
        }
        let after = save_tty(&term, &dir, &format!("after-{ending}"));
        assert_eq!(before, after, "{ending}: stty -a before and after");
    }
}
