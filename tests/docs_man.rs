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
