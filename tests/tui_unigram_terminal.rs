//! The explorer in Unigram mode, the built binary in a real terminal
//! (tmux) at 80x24: steps, the lattice, a refused key, and the shell
//! screen back on quit.

mod tmux;

use tmux::Tmux;

#[test]
fn unigram_training_steps_in_a_real_terminal_and_gives_the_shell_back() {
    let Some(tmux) = Tmux::start("unigram") else {
        return;
    };
    let term = tmux.open("unigram", 80, 24);
    term.text("echo shell-was-here");
    term.keys(&["Enter"]);
    term.wait_for("the shell", |s| s.lines().any(|l| l == "shell-was-here"));
    let command = format!(
        "{} tui --corpus-name low --mode char --model unigram --vocab-size 8",
        env!("CARGO_BIN_EXE_bpeek")
    );
    term.text(&command);
    term.keys(&["Enter"]);
    term.wait_for("the explorer", |s| s.contains("round 0 seeded"));
    term.keys(&["n", "n", "n"]);
    let screen = term.wait_for("the scoring", |s| s.contains("round 0 scored"));
    assert!(screen.contains("if removed"), "{screen}");
    term.keys(&["n"]);
    let screen = term.wait_for("the prune", |s| s.contains("round 1 pruned"));
    assert!(
        !screen.contains("Removed 0"),
        "a prune removes pieces:\n{screen}"
    );
    term.keys(&["Enter"]);
    term.wait_for("the lattice", |s| s.contains("Lattice of low"));
    term.keys(&["Escape"]);
    term.wait_for("the lattice to close", |s| !s.contains("Lattice of"));
    term.keys(&["c"]);
    term.wait_for("the refusal", |s| s.contains("not in Unigram mode"));
    term.keys(&["q"]);
    let screen = term.wait_for("the shell to come back", |s| {
        s.lines().any(|l| l == "shell-was-here")
    });
    assert!(!screen.contains("Pieces"), "{screen}");
    term.text("echo $((6 * 7))");
    term.keys(&["Enter"]);
    term.wait_for("the shell to answer", |s| s.lines().any(|l| l == "42"));
}
