//! The shape of the code, kept as docs/architecture.md describes it: the
//! crates' arrows point one way, the engine stays free of front ends, and
//! every source file is in the code map (docs/code-map.md), which is made
//! from the files' own first lines.
//!
//! After adding, moving or describing a file anew, write the map again:
//! `BPEEK_WRITE_MAP=1 cargo test --release --test architecture`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's packages, lowest layer first, with the folder of each.
const LAYERS: [(&str, &str); 6] = [
    ("bpeek-core", "crates/bpeek-core"),
    ("bpeek-counts", "crates/bpeek-counts"),
    ("bpeek-tui", "crates/bpeek-tui"),
    ("bpeek-serve", "crates/bpeek-serve"),
    ("bpeek-py", "crates/bpeek-py"),
    ("bpeek", "."),
];

/// The `[dependencies]` names of the package whose manifest is `toml`
/// (the workspace's manifests write one dependency per line).
fn dependencies(toml: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_deps = false;
    for line in toml.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps
            && let Some((name, _)) = line.split_once(['.', ' ', '='])
            && !name.is_empty()
            && !name.starts_with('#')
        {
            names.push(name.to_string());
        }
    }
    names
}

fn manifest(folder: &str) -> String {
    let path = root().join(folder).join("Cargo.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn each_crate_uses_only_the_crates_below_it() {
    for (i, (name, folder)) in LAYERS.iter().enumerate() {
        let below: Vec<&str> = LAYERS[..i].iter().map(|(n, _)| *n).collect();
        for dep in dependencies(&manifest(folder)) {
            if dep.starts_with("bpeek") {
                assert!(
                    below.contains(&dep.as_str()),
                    "{name} depends on {dep}, which is not below it"
                );
            }
        }
    }
}

#[test]
fn the_engine_knows_no_terminal_command_line_socket_or_parquet() {
    let deps = dependencies(&manifest("crates/bpeek-core"));
    for front_end in [
        "clap",
        "ratatui",
        "crossterm",
        "tokio",
        "russh",
        "parquet",
        "signal-hook",
        "pyo3",
    ] {
        assert!(
            !deps.iter().any(|d| d == front_end),
            "bpeek-core depends on {front_end}"
        );
    }
    let deps = dependencies(&manifest("crates/bpeek-tui"));
    for server in ["tokio", "russh", "parquet"] {
        assert!(
            !deps.iter().any(|d| d == server),
            "bpeek-tui depends on {server}"
        );
    }
}

/// Every `.rs` file under `dir`, as paths from the repository's root.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root()).unwrap().to_path_buf());
        }
    }
}

/// The first sentence of a file's `//!` comment (its first line of one,
/// for `main.rs` its first `///` before `fn main`).
fn first_line(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root().join(path)).ok()?;
    let mut lines = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("//!") {
            Some(rest) if rest.trim().is_empty() && !lines.is_empty() => break,
            Some(rest) => lines.push(rest.trim().to_string()),
            None if lines.is_empty() => continue,
            None => break,
        }
    }
    let joined = lines.join(" ");
    let sentence = match joined.find(". ") {
        Some(end) => &joined[..=end],
        None => joined.as_str(),
    };
    (!sentence.trim().is_empty()).then(|| sentence.trim().to_string())
}

/// The code map, made from the files: per package, each file with the
/// first sentence of its comment.
fn code_map() -> (String, Vec<String>) {
    let mut by_package: BTreeMap<usize, Vec<(PathBuf, Option<String>)>> = BTreeMap::new();
    for (i, (_, folder)) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        sources(&root().join(folder).join("src"), &mut files);
        if *folder != "." {
            let build = Path::new(folder).join("build.rs");
            if root().join(&build).exists() {
                files.push(build);
            }
        }
        files.sort();
        by_package.insert(
            i,
            files
                .into_iter()
                .map(|f| (f.clone(), first_line(&f)))
                .collect(),
        );
    }
    let mut map = String::from(
        "# Code map\n\nEvery source file, by crate, with the first sentence of its own\n\
         comment. Made from the code by `tests/architecture.rs`; write it again\n\
         with `BPEEK_WRITE_MAP=1 cargo test --release --test architecture`.\n\
         [architecture.md](architecture.md) tells how the parts fit.\n",
    );
    let mut undescribed = Vec::new();
    for (i, files) in &by_package {
        map.push_str(&format!("\n## {}\n\n", LAYERS[*i].0));
        for (file, line) in files {
            let line = line.clone().unwrap_or_else(|| {
                undescribed.push(file.display().to_string());
                String::new()
            });
            map.push_str(&format!("- `{}`: {line}\n", file.display()));
        }
    }
    (map, undescribed)
}

#[test]
fn every_source_file_is_in_the_code_map_and_says_what_it_is() {
    let (map, undescribed) = code_map();
    assert!(
        undescribed.is_empty(),
        "files without a `//!` comment saying what they are: {undescribed:?}"
    );
    let path = root().join("docs/code-map.md");
    if std::env::var_os("BPEEK_WRITE_MAP").is_some() {
        std::fs::write(&path, &map).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == map,
        "docs/code-map.md is not the map of the code as it is; write it again with \
         `BPEEK_WRITE_MAP=1 cargo test --release --test architecture`"
    );
}

#[test]
fn the_architecture_names_every_folder_of_source() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let mut files = Vec::new();
    for (_, folder) in LAYERS {
        sources(&root().join(folder).join("src"), &mut files);
    }
    let mut folders: Vec<String> = files
        .iter()
        .filter_map(|f| f.parent())
        .map(|p| p.display().to_string())
        .collect();
    folders.sort();
    folders.dedup();
    let missing: Vec<&String> = folders
        .iter()
        .filter(|f| !doc.contains(&format!("{f}/")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name these folders: {missing:?}"
    );
}
