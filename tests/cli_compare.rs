//! `bpeek train --compare`: configurations trained side by side on one
//! corpus. Each column must be the run `bpeek train` makes with those
//! options alone, and the first difference and the merges only one list
//! has must be what the separate runs' lists say.

mod common;
mod scratch;

use common::{bpeek, json_of};
use scratch::Scratch;
use serde_json::Value;

/// The merges of a separate byte-mode run, each as the bytes of its two
/// halves (ids above 255 are the tokens of earlier merges).
fn halves_of_a_run(report: &Value) -> Vec<(Vec<u8>, Vec<u8>)> {
    let merges = report["merges"].as_array().unwrap();
    let bytes_of = |id: u64| -> Vec<u8> {
        if id < 256 {
            vec![id as u8]
        } else {
            serde_json::from_value(merges[id as usize - 256]["bytes"].clone()).unwrap()
        }
    };
    merges
        .iter()
        .map(|m| {
            let pair = m["pair"].as_array().unwrap();
            (
                bytes_of(pair[0].as_u64().unwrap()),
                bytes_of(pair[1].as_u64().unwrap()),
            )
        })
        .collect()
}

fn halves_of_a_column(column: &Value) -> Vec<(Vec<u8>, Vec<u8>)> {
    column["merges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::from_value(m["bytes"].clone()).unwrap())
        .collect()
}

fn random_corpus(seed: u64) -> String {
    let mut s = seed;
    let words = [
        "the", "then", "than", "ten", "net", "tent", "a", "an", " ", "  ", "\n", "10", "2024",
    ];
    (0..3000)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            words[(s % words.len() as u64) as usize]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn each_column_is_the_run_its_options_make_alone() {
    let dir = Scratch::new("compare");
    let configurations = [
        ["", "--pretok none", "--tie lex"],
        ["--digits single", "--digits groups3", "--pretok whitespace"],
        ["--min-count 3", "--by-line", ""],
    ];
    for (seed, options) in configurations.iter().enumerate() {
        let corpus = dir.join(format!("corpus-{seed}.txt"));
        std::fs::write(&corpus, random_corpus(seed as u64 + 7)).unwrap();
        let corpus = corpus.to_str().unwrap();
        let mut args = vec!["train", corpus, "--merges", "40", "--format", "json"];
        for o in options {
            args.extend(["--compare", o]);
        }
        let compared = json_of(&bpeek(&args));
        let columns = compared["columns"].as_array().unwrap();
        assert_eq!(columns.len(), 3);
        let mut lists = Vec::new();
        for (column, o) in columns.iter().zip(options) {
            let mut alone = vec!["train", corpus, "--merges", "40", "--format", "json"];
            alone.extend(o.split_whitespace());
            let alone = json_of(&bpeek(&alone));
            let halves = halves_of_a_run(&alone);
            assert_eq!(halves_of_a_column(column), halves, "{o:?}");
            let counts = |v: &Value| -> Vec<u64> {
                v["merges"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["count"].as_u64().unwrap())
                    .collect()
            };
            assert_eq!(counts(column), counts(&alone), "{o:?}");
            assert_eq!(column["stop"], alone["stop"], "{o:?}");
            lists.push(halves);
        }
        // The first rank the lists part, read off the separate runs.
        let shortest = lists.iter().map(Vec::len).min().unwrap();
        let first = (0..shortest).find(|&r| lists.iter().any(|l| l[r] != lists[0][r]));
        match first {
            Some(r) => assert_eq!(compared["first_difference"]["rank"], r, "{options:?}"),
            None => assert!(compared["first_difference"].is_null(), "{options:?}"),
        }
        for (i, column) in columns.iter().enumerate() {
            for (r, m) in column["merges"].as_array().unwrap().iter().enumerate() {
                let elsewhere = lists
                    .iter()
                    .enumerate()
                    .any(|(j, l)| j != i && l.contains(&lists[i][r]));
                assert_eq!(
                    m["only_here"], !elsewhere,
                    "{options:?} column {i} rank {r}"
                );
            }
        }
    }
}

#[test]
fn the_text_says_where_the_lists_part_and_names_what_differs() {
    let out = bpeek(&[
        "train",
        "--merges",
        "12",
        "--compare",
        "",
        "--compare",
        "--pretok none",
        "--compare",
        "--mode char",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  A  --mode byte --pretok gpt2"), "{text}");
    assert!(text.contains("  B  --mode byte --pretok none"), "{text}");
    assert!(text.contains("  C  --mode char"), "{text}");
    // On the bakery corpus gpt2 merges h + e first, none e + space.
    assert!(
        text.contains("from merge 0 on: A merges \"h\" + \"e\", B merges \"e\" + \" \""),
        "{text}"
    );
    assert!(text.contains("    0> "), "{text}");
    assert!(text.contains("stopped: budget"), "{text}");
}

#[test]
fn a_configuration_that_stops_early_says_so_in_its_column() {
    let out = bpeek(&[
        "train",
        "--merges",
        "30",
        "--compare",
        "",
        "--compare",
        "--merges 5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The two agree on their first five merges; B stops there.
    assert!(
        text.contains("the lists hold the same 5 first merges"),
        "{text}"
    );
    let row = text
        .lines()
        .find(|l| l.starts_with("    5 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("stopped: budget"), "{row}");
    assert!(text.contains("B: 5 merges, merge budget reached"), "{text}");
}

#[test]
fn what_cannot_be_compared_is_refused_with_exit_2() {
    for (args, says) in [
        (vec!["train", "--compare", "--tie lex"], "two to four"),
        (
            vec!["train", "--compare", "", "--compare", "--pretok nine"],
            "--compare '--pretok nine': invalid value 'nine'",
        ),
        (
            vec!["train", "--compare", "", "--compare", "other.txt"],
            "the command's corpus",
        ),
        (
            vec![
                "train",
                "--compare",
                "",
                "--compare",
                "--mode char --digits single",
            ],
            "--compare '--mode char --digits single': --digits applies to byte mode only",
        ),
    ] {
        let out = bpeek(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A Unigram column (`--compare "--model unigram"`) is the explorer's and
/// the class's: the options are read, and what they cannot mean is
/// refused by name with exit 2, before any screen opens.
#[test]
fn a_unigram_column_is_taken_by_the_explorer_and_its_wrong_options_refused() {
    let tui = |given: &[&str]| {
        let mut args = vec!["tui"];
        for g in given {
            args.extend(["--compare", g]);
        }
        bpeek(&args)
    };
    // Read and counted: only the missing terminal stops it here.
    for given in [
        &["", "--model unigram"][..],
        &[
            "",
            "--pretok none",
            "--model unigram --vocab-size 300 --mode char",
        ],
        &[
            "",
            "--model unigram",
            "--model unigram --shrinking-factor 0.5",
        ],
    ] {
        let out = tui(given);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{given:?}: {err}");
        assert!(
            err.contains("the explorer needs a terminal"),
            "{given:?}: {err}"
        );
    }
    let refused = [
        (
            tui(&["", "--model unigram --tie lex"]),
            "--compare '--model unigram --tie lex': --model unigram takes no --tie",
        ),
        (
            tui(&["--model unigram", ""]),
            "the first configuration is the one the explorer steps",
        ),
        (
            tui(&["", "--seed-size 5"]),
            "--seed-size is an option of Unigram training: add --model unigram",
        ),
        (
            tui(&["", "--model unigram --shrinking-factor 1.5"]),
            "--shrinking-factor 1.5: must be above 0 and below 1",
        ),
        (
            bpeek(&["train", "--compare", "", "--compare", "--model unigram"]),
            "train compares BPE merge lists",
        ),
        (
            bpeek(&[
                "tui",
                "--model",
                "unigram",
                "--compare",
                "",
                "--compare",
                "",
            ]),
            "a Unigram column follows BPE columns",
        ),
    ];
    for (out, says) in refused {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{says}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(says), "{says}: {err}");
    }
}
