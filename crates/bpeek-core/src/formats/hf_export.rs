//! Writing a trained byte-mode tokenizer as a Hugging Face `tokenizer.json`
//! that HF `tokenizers` loads and that encodes and decodes as bpeek does.
//!
//! The pre-tokenizer becomes HF's `Split` (behaviour `Isolated`, so the
//! text between matches is kept as pieces, as bpeek keeps it) followed by
//! `ByteLevel` without its own pattern; a digit rule is a second `Split`.
//! Ids are bpeek's: byte `b` is id `b`, merge `r` is `256 + r`, special
//! tokens follow as HF added tokens.
//!
//! Patterns are written in the spelling HF's regex engine (Oniguruma) reads
//! as tiktoken's engine does: Oniguruma takes `{1,3}+` for "one to three,
//! repeated", not for a possessive `{1,3}`, so that quantifier is written
//! plainly (a possessive count there changes no match).

use crate::Pretok;
use crate::encoder::{MergeSource, Tokenizer};
use crate::error::{Error, Result};
use crate::formats::byte_unicode::byte_chars;
use crate::names::Mode;
use crate::pretokenize::pretok::{Chunker, Digits};
use serde_json::{Map, Value, json};

/// Why `mode` and `chunker` cannot be written for HF, if they cannot.
pub fn check(mode: Mode, _chunker: Chunker) -> Result<()> {
    if mode == Mode::Char {
        return Err(Error::input(
            "--out-format hf: char mode cannot be written as a Hugging Face BPE model that encodes identically: HF's end_of_word_suffix joins `</w>` to the last character of a word (one starting symbol `e</w>`), while char mode keeps `</w>` a symbol of its own that merges pair with, so the same merges would cut words differently",
        ));
    }
    Ok(())
}

/// The pattern of `pretok` as HF's `Split` should be given it.
pub fn hf_pattern(pretok: Pretok) -> Option<String> {
    match pretok {
        Pretok::None => None,
        // A line and its break are separate pieces: the break is the match.
        Pretok::Lines => Some(r"\r?\n".to_string()),
        other => other.pattern().map(|p| p.replace("{1,3}+", "{1,3}")),
    }
}

fn split(pattern: &str) -> Value {
    json!({
        "type": "Split",
        "pattern": { "Regex": pattern },
        "behavior": "Isolated",
        "invert": false,
    })
}

fn byte_level() -> Value {
    json!({
        "type": "ByteLevel",
        "add_prefix_space": false,
        "trim_offsets": false,
        "use_regex": false,
    })
}

/// HF's pre-tokenizer for `chunker`.
fn pre_tokenizer(chunker: Chunker) -> Value {
    let mut steps = Vec::new();
    if let Some(p) = hf_pattern(chunker.pretok) {
        steps.push(split(&p));
    }
    match chunker.digits {
        Digits::Keep => {}
        Digits::Single => steps.push(split("[0-9]")),
        Digits::Groups3 => steps.push(split("[0-9]{1,3}")),
    }
    steps.push(byte_level());
    if steps.len() == 1 {
        return steps.remove(0);
    }
    json!({ "type": "Sequence", "pretokenizers": steps })
}

/// `tok` as a Hugging Face `tokenizer.json` value.
pub fn to_json(tok: &Tokenizer) -> Result<Value> {
    check(tok.mode(), tok.chunker())?;
    if tok.source() != MergeSource::List {
        return Err(Error::input(
            "--out-format hf: this tokenizer has token ranks, not a merge list",
        ));
    }
    let chars = byte_chars();
    let text_of = |bytes: &[u8]| -> String { bytes.iter().map(|&b| chars[b as usize]).collect() };
    let vocab_tok = tok.vocab();
    let mut vocab = Map::new();
    for id in 0..vocab_tok.len() as u32 {
        let text = text_of(vocab_tok.token_bytes(id));
        if let Some(other) = vocab.insert(text.clone(), json!(id)) {
            return Err(Error::input(format!(
                "--out-format hf: tokens {other} and {id} have the same bytes ({text}); a tokenizer.json vocabulary maps each token text to one id"
            )));
        }
    }
    let merges: Vec<Value> = tok
        .merges()
        .iter()
        .map(|m| {
            let left = text_of(vocab_tok.token_bytes(m.pair.0));
            let right = text_of(vocab_tok.token_bytes(m.pair.1));
            json!(format!("{left} {right}"))
        })
        .collect();
    let mut added = Vec::new();
    for s in tok.specials() {
        if let Some(other) = vocab.get(&s.text) {
            return Err(Error::input(format!(
                "--out-format hf: special token {:?} has the text of token {other} in HF's byte-level spelling",
                s.text
            )));
        }
        vocab.insert(s.text.clone(), json!(s.id));
        added.push(json!({
            "id": s.id,
            "content": s.text,
            "single_word": false,
            "lstrip": false,
            "rstrip": false,
            "normalized": false,
            "special": true,
        }));
    }
    Ok(json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": added,
        "normalizer": null,
        "pre_tokenizer": pre_tokenizer(tok.chunker()),
        "post_processor": null,
        "decoder": {
            "type": "ByteLevel",
            "add_prefix_space": false,
            "trim_offsets": false,
            "use_regex": false,
        },
        "model": {
            "type": "BPE",
            "dropout": null,
            "unk_token": null,
            "continuing_subword_prefix": null,
            "end_of_word_suffix": null,
            "fuse_unk": false,
            "byte_fallback": false,
            "ignore_merges": false,
            "vocab": vocab,
            "merges": merges,
        },
    }))
}
