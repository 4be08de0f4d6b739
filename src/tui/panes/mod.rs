//! The models of the panes: what each pane shows, worked out from the
//! trainer and the view state, with nothing drawn (the drawing is in
//! [`crate::tui::view`]).

pub mod changed;
pub mod chunk_table;
pub(crate) mod clusters;
pub mod corpus_text;
pub mod curve;
pub mod encode_box;
pub(crate) mod lines;
pub(crate) mod merge_tree;
pub mod piece_story;
pub mod places;
pub mod rows;
pub(crate) mod shared_rows;
pub mod vocab_search;
pub mod why;
