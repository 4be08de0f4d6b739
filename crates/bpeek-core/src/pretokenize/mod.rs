//! Cutting a text into the chunks a model sees: the built-in patterns and
//! their fast paths, regex splits, Hugging Face pre-tokenizer steps, and the
//! work bound on a file's own patterns.

pub mod ascii_cuts;
pub mod ascii_window;
pub mod hf_pretok;
pub mod hf_text;
pub mod pattern_work;
pub mod pretok;
pub mod regex_split;
pub mod splitter;
pub mod steps_spans;
pub mod unicode_cuts;
pub mod word_ranges;
