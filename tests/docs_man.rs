//! The manual pages in docs/man are the ones `bpeek man` prints, made from
//! the command line's own definitions, so they cannot fall behind an option.
//! Shell completions are not kept: `bpeek completions SHELL` makes them.
//!
//! After a change to an option, write the pages again with
//! `BPEEK_WRITE_DOCS=1 cargo test --release --test docs_man`.

mod run;
mod scratch;
use run::bpeek;
use std::path::PathBuf;

fn page_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("docs/man/{name}.1"))
}

#[test]
fn the_manual_pages_in_the_repository_are_those_bpeek_man_prints() {
    let write = std::env::var_os("BPEEK_WRITE_DOCS").is_some();
    for name in bpeek::cli::man_pages() {
        let command = name.strip_prefix("bpeek-");
        let args: Vec<&str> = std::iter::once("man").chain(command).collect();
        let out = bpeek(&args);
        assert!(out.status.success(), "bpeek {args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(".SH SYNOPSIS"),
            "{name} is a manual page"
        );
        let file = page_file(&name);
        if write {
            std::fs::write(&file, &out.stdout).unwrap();
            continue;
        }
        let kept = std::fs::read(&file).unwrap_or_default();
        assert!(
            kept == out.stdout,
            "{} is not what `bpeek {}` prints: run BPEEK_WRITE_DOCS=1 cargo test --release --test docs_man",
            file.display(),
            args.join(" ")
        );
    }
}

/// What bash's completion offers for the words typed so far (the last
/// one being completed), run as bash runs it: the script `bpeek
/// completions bash` prints is sourced and its function called with
/// COMP_WORDS and COMP_CWORD set, in a folder that holds a file, so file
/// names offered would show.
fn bash_offers(words: &[&str]) -> Vec<String> {
    let dir = scratch::Scratch::new("completions");
    let out = bpeek(&["completions", "bash"]);
    assert!(out.status.success());
    let script = dir.file("bpeek.bash", &out.stdout);
    dir.file("notes.txt", "a file the completion must not offer");
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let run = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; \
         _bpeek bpeek '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let done = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &run])
        .current_dir(dir.path())
        .output()
        .expect("bash runs");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    String::from_utf8_lossy(&done.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_a_named_option_to_its_names() {
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        bash_offers(&["bpeek", "train", "--pretok", ""]),
        names(bpeek::bpe::Pretok::NAMES)
    );
    assert_eq!(
        bash_offers(&["bpeek", "train", "--pretok", "cl"]),
        ["cl100k", "cl100k-hf"]
    );
    assert_eq!(
        bash_offers(&["bpeek", "tui", "--tie", ""]),
        names(bpeek::bpe::TieRule::NAMES)
    );
    assert_eq!(bash_offers(&["bpeek", "--mode", ""]), ["byte", "char"]);
    assert_eq!(
        bash_offers(&["bpeek", "count", "--digits", ""]),
        names(bpeek::bpe::Digits::NAMES)
    );
    assert_eq!(
        bash_offers(&["bpeek", "encode", "--format", ""]),
        ["text", "json", "ids", "u32", "npy"]
    );
    // An option that takes a file still offers files.
    assert_eq!(
        bash_offers(&["bpeek", "train", "--out", "no"]),
        ["notes.txt"]
    );
}

#[test]
fn completions_are_made_for_every_shell_and_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = bpeek(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        for command in ["train", "encode", "fertility", "serve"] {
            assert!(script.contains(command), "{shell} completes {command}");
        }
    }
    // A named option completes to its names, never to file names.
    let out = bpeek(&["completions", "bash"]);
    let script = String::from_utf8_lossy(&out.stdout);
    for (option, names) in [
        ("--tie", bpeek::bpe::TieRule::NAMES),
        ("--pretok", bpeek::bpe::Pretok::NAMES),
        ("--mode", bpeek::bpe::Mode::NAMES),
        ("--digits", bpeek::bpe::Digits::NAMES),
        ("--score", bpeek::bpe::Score::NAMES),
    ] {
        let offered = format!("compgen -W \"{}\"", names.join(" "));
        let case = script
            .split(&format!("{option})"))
            .nth(1)
            .and_then(|rest| rest.split(";;").next())
            .unwrap_or_else(|| panic!("no case for {option}"));
        assert!(case.contains(&offered), "{option}: {case}");
    }
    let out = bpeek(&["man", "no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the pages are bpeek, bpeek-train"));
}
