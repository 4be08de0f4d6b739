//! What every front end shares, below all of them: the training options
//! and how a corpus and its trainer are built from them. The command line,
//! the explorer and the server all use this; it uses none of them.

pub mod args;
pub mod compare;
pub mod count_files;
pub mod input;
pub mod unigram;

use args::TrainingOptions;
use bpeek_core::formats::same_file::Role;
use std::path::Path;

/// The files `training` reads (the corpus and the count files), for checking that no output of the run is one of them.
pub fn input_roles(training: &TrainingOptions) -> Vec<Role> {
    let mut roles = Vec::new();
    if let (Some(c), None) = (&training.corpus, &training.corpus_name) {
        roles.push(Role::reads("the corpus", c));
    }
    // A folder or glob that finds nothing is reported when it is read.
    let counts = count_files::expand(&training.counts).unwrap_or_default();
    roles.extend(counts.iter().map(|p| Role::reads("a count file", p)));
    roles
}

/// The tokenizer files `--tokenizer` names (`FILE.tiktoken:PRETOK` names
/// its file before the colon, `LABEL=FILE` after the label); built-in
/// names are no files.
pub fn tokenizer_roles(tokenizers: &[String]) -> Vec<Role> {
    tokenizers
        .iter()
        .map(|t| {
            let (_, t) = bpeek_core::formats::load::split_label(t);
            let file = if Path::new(t).exists() {
                t
            } else {
                t.rsplit_once(':').map_or(t, |(f, _)| f)
            };
            Role::reads(format!("--tokenizer {file}"), file)
        })
        .collect()
}
