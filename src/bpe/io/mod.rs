//! Files: tokenizers, traces, and writing them safely.

pub mod atomic;
pub mod builtin;
pub mod tokenizer_file;
pub mod trace_file;
