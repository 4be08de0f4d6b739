//! The keys listed in docs/explorer.md are the key table's own rows, the
//! rows help and the footer are drawn from, so the page cannot promise a
//! key the explorer does not have or leave out one it has.
//!
//! After a change to the key table, write the list again with
//! `BPEEK_WRITE_DOCS=1 cargo test --release --test docs_keys`.

use bpeek::tui::keymap::{Section, help_rows};
use std::fmt::Write;
use std::path::PathBuf;

const BEGIN: &str = "<!-- keys:begin -->";
const END: &str = "<!-- keys:end -->";

fn explorer_page() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/explorer.md")
}

/// The key list as Markdown: one table per section of help, in help's order.
fn key_list() -> String {
    let rows = help_rows();
    let mut out = String::new();
    for section in Section::ORDER {
        write!(out, "\n### {}\n\n", section.title()).unwrap();
        if section == Section::Class {
            out.push_str("Listed in help only in a class (`bpeek serve`).\n\n");
        }
        out.push_str("| Keys | What they do |\n|---|---|\n");
        for (keys, help, _) in rows.iter().filter(|(_, _, s)| *s == section) {
            let keys: Vec<String> = keys.split(' ').map(|k| format!("`{k}`")).collect();
            writeln!(out, "| {} | {} |", cell(&keys.join(" ")), cell(help)).unwrap();
        }
    }
    out.push('\n');
    out
}

/// A `|` would end the table cell early.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[test]
fn every_key_of_the_table_has_a_section_on_the_page() {
    for (keys, help, section) in help_rows() {
        assert!(
            Section::ORDER.contains(&section),
            "{keys} ({help}) is in a section the page does not list"
        );
    }
}

#[test]
fn the_explorer_page_lists_the_keys_of_the_key_table() {
    let path = explorer_page();
    let page = std::fs::read_to_string(&path).unwrap();
    let start = page
        .find(BEGIN)
        .unwrap_or_else(|| panic!("docs/explorer.md has no {BEGIN} line"))
        + BEGIN.len();
    let end = start
        + page[start..]
            .find(END)
            .unwrap_or_else(|| panic!("docs/explorer.md has no {END} line after {BEGIN}"));
    let want = key_list();
    if page[start..end] == want {
        return;
    }
    if std::env::var("BPEEK_WRITE_DOCS").is_ok_and(|v| v == "1") {
        let written = format!("{}{want}{}", &page[..start], &page[end..]);
        std::fs::write(&path, written).unwrap();
        return;
    }
    panic!(
        "the key list in docs/explorer.md differs from the key table (src/tui/keymap.rs); \
         run `BPEEK_WRITE_DOCS=1 cargo test --release --test docs_keys` to write it again"
    );
}
