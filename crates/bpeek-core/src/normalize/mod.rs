//! The text before it is cut: Unicode normalizers, BERT's text rules (as
//! Hugging Face and as llama.cpp apply them), added
//! tokens matched before the normalizer, and a text that keeps where each
//! byte came from.

pub mod added;
pub mod bert_text;
pub mod llama_wpm;
pub mod mapped;
pub mod text_step;
