//! Files: tokenizers, traces, and writing them safely.

pub mod atomic;
pub mod builtin;
pub mod byte_unicode;
pub mod files;
pub mod gguf;
pub mod gguf_tokenizer;
pub mod hf_char_bpe;
pub mod hf_export;
pub mod hf_fields;
pub mod hf_file;
pub mod hf_pipeline;
pub mod hf_template;
pub mod hf_unigram;
pub mod import;
pub mod limits;
pub mod load;
pub mod rank_lines;
pub mod regex_check;
pub mod same_file;
pub mod sentencepiece;
pub mod tekken;
pub mod tiktoken_export;
pub mod tokenizer_file;
pub mod trace_file;
pub mod wordpiece;
