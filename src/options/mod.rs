//! What every front end shares, below all of them: the training options
//! and how a corpus and its trainer are built from them. The command line,
//! the explorer and the server all use this; it uses none of them.

pub mod args;
pub mod compare;
pub mod count_files;
pub mod input;
