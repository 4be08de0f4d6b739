//! The models of the panes: what each pane shows, worked out from the
//! trainer and the view state, with nothing drawn (the drawing is in
//! [`crate::view`]).

pub mod changed;
pub mod chat_turn;
pub mod chunk_table;
pub mod clusters;
pub mod corpus_text;
pub mod curve;
pub mod encode_box;
pub mod lattice_rows;
pub mod lines;
pub mod merge_number;
pub mod merge_tree;
pub mod piece_story;
pub mod piece_table;
pub mod places;
pub mod rows;
pub mod shared_rows;
pub mod unigram_why;
pub mod vocab_search;
pub mod why;
