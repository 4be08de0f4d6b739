//! Files: tokenizers, traces, and writing them safely.

pub mod atomic;
pub mod builtin;
pub mod byte_unicode;
pub mod files;
pub mod hf_export;
pub mod import;
pub mod limits;
pub mod load;
pub mod tiktoken_export;
pub mod tokenizer_file;
pub mod trace_file;
