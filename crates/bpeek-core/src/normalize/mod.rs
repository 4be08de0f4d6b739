//! The text before it is cut: Unicode normalizers, BERT's text rules, added
//! tokens matched before the normalizer, and a text that keeps where each
//! byte came from.

pub mod added;
pub mod bert_text;
pub mod mapped;
pub mod text_step;
