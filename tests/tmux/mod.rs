//! Real terminals for tests: a tmux server of the test's own, each terminal
//! a tmux session running `sh` at a size of its choosing.
#![allow(dead_code)] // each test file uses its own part of this

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a test waits for a screen before it fails with that screen.
const PATIENCE: Duration = Duration::from_secs(20);

/// A tmux server, killed (with every terminal in it) when the test ends
/// however it ends.
pub struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    /// A server named for the test, so tests can run side by side; `None`
    /// (and a note) where tmux is not installed, which CI does not allow.
    pub fn start(name: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "tmux is required in CI (.ci/run installs it)"
            );
            eprintln!("note: tmux is not installed; skipping the real-terminal test");
            return None;
        }
        Some(Tmux {
            socket: std::env::temp_dir()
                .join(format!("bpeek-tmux-{name}-{}.sock", std::process::id())),
        })
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

    /// A new terminal of `width` x `height` running `sh`.
    pub fn open(&self, name: &str, width: u16, height: u16) -> Term<'_> {
        let out = self.run(&[
            "new-session",
            "-d",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            "-s",
            name,
            "sh",
        ]);
        assert!(out.status.success(), "tmux new-session: {out:?}");
        let term = Term {
            tmux: self,
            name: name.to_string(),
        };
        // Typing before the first prompt would mix the two on one line.
        term.wait_for("the shell's prompt", |s| {
            s.lines().any(|l| matches!(l.trim_end(), "$" | "#"))
        });
        term
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_file(&self.socket);
    }
}

/// One terminal with a shell in it.
pub struct Term<'a> {
    tmux: &'a Tmux,
    name: String,
}

impl Term<'_> {
    /// Send keys by tmux name (`Enter`, `Escape`, `C-z`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        assert!(self.tmux.run(&args).status.success());
    }

    /// Type `text` literally.
    pub fn text(&self, text: &str) {
        assert!(
            self.tmux
                .run(&["send-keys", "-t", &self.name, "-l", text])
                .status
                .success()
        );
    }

    /// Wait for the shell's prompt, type a command line and press Enter.
    /// (Typed ahead of the prompt, a line would be echoed before the prompt
    /// and its output land beside it.)
    pub fn command(&self, line: &str) {
        let before = self.wait_for("the shell's prompt", |s| {
            let last = s.lines().rev().find(|l| !l.trim().is_empty());
            last.is_some_and(|l| matches!(l.trim_end(), "$" | "#"))
        });
        self.answer(line);
        // The prompt on screen is this one's until the line shows up there:
        // wait for it, so the next command does not take it for a new one.
        self.wait_for("the typed line to show", |s| s != before);
    }

    /// Type a line and press Enter, whatever is asking (a password prompt).
    pub fn answer(&self, line: &str) {
        self.text(line);
        self.keys(&["Enter"]);
    }

    /// Clear the screen and wait until only the prompt is left, so the next
    /// command is not typed ahead of the clearing.
    pub fn clear(&self) {
        self.command("clear");
        self.wait_for("a clear screen", |s| {
            let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
            matches!(lines[..], [l] if matches!(l.trim_end(), "$" | "#"))
        });
    }

    /// Paste `text` the way a terminal does, in bracketed-paste brackets
    /// when the program asked for them.
    pub fn paste(&self, text: &str) {
        assert!(self.tmux.run(&["set-buffer", text]).status.success());
        assert!(
            self.tmux
                .run(&["paste-buffer", "-p", "-t", &self.name])
                .status
                .success()
        );
    }

    /// Resize the terminal to `width` x `height`.
    pub fn resize(&self, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        assert!(
            self.tmux
                .run(&["resize-window", "-t", &self.name, "-x", &w, "-y", &h])
                .status
                .success()
        );
    }

    /// What tmux says of the terminal in `format` (`#{mouse_sgr_flag}`:
    /// the modes the program in it asked for).
    pub fn display(&self, format: &str) -> String {
        let out = self.tmux.run(&["display", "-p", "-t", &self.name, format]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub fn screen(&self) -> String {
        let out = self.tmux.run(&["capture-pane", "-p", "-t", &self.name]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Wait until the screen satisfies `ok`; fail with the screen if it
    /// never does.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "{}: waited for {what}; the screen is:\n{screen}",
                self.name
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Wait until the screen satisfies `ok` and has not changed for
    /// `quiet` (a program done drawing, typing done echoing); fail with the
    /// screen if that does not happen within the patience.
    pub fn wait_still(&self, what: &str, quiet: Duration, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        let mut last = self.screen();
        let mut since = Instant::now();
        loop {
            sleep(Duration::from_millis(20));
            let now = self.screen();
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet && ok(&last) {
                return last;
            }
            assert!(
                Instant::now() < deadline,
                "{}: waited for {what}, still for {quiet:?}; the screen is:\n{last}",
                self.name
            );
        }
    }

    /// From now on copy all the program in the terminal writes to `file`,
    /// whose length then tells whether it has drawn since.
    pub fn record_output(&self, file: &Path) {
        let copy = format!("cat >> '{}'", file.display());
        assert!(
            self.tmux
                .run(&["pipe-pane", "-O", "-t", &self.name, &copy])
                .status
                .success()
        );
    }

    /// Wait for a line that is exactly `line`.
    pub fn wait_for_line(&self, line: &str) -> String {
        self.wait_for(line, |s| s.lines().any(|l| l.trim_end() == line))
    }

    /// The process id of the shell.
    pub fn shell_pid(&self) -> u32 {
        let out = self
            .tmux
            .run(&["display-message", "-p", "-t", &self.name, "#{pane_pid}"]);
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("tmux prints the pane's pid")
    }

    /// The process the shell runs in the foreground (its only child).
    pub fn child_pid(&self) -> u32 {
        let shell = self.shell_pid();
        let path = format!("/proc/{shell}/task/{shell}/children");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let children = std::fs::read_to_string(&path).unwrap_or_default();
            if let Some(pid) = children.split_whitespace().next() {
                return pid.parse().expect("a pid");
            }
            assert!(Instant::now() < deadline, "the shell has no child");
            sleep(Duration::from_millis(50));
        }
    }
}

/// Send signal `name` (`INT`, `TSTP`, ...) to process `pid`.
pub fn kill(name: &str, pid: u32) {
    // The shell's own kill: a fresh machine may have no kill program.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -{name} {pid}"))
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} {pid}");
}

/// A fresh directory for a test's files, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("bpeek-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
