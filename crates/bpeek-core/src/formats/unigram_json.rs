//! Writing a trained Unigram vocabulary as a Hugging Face `tokenizer.json`
//! (model `Unigram`) that `tokenizers` loads and encodes with bpeek's ids.
//!
//! With the space marker the pipeline is sentencepiece's: runs of spaces
//! become one and the text is stripped (`Replace`, `Strip`), `Metaspace`
//! marks each word with `▁` and cuts before it. Without it
//! (`--mode char`) words are cut at whitespace (`WhitespaceSplit`) and
//! written as they are. Scores are the pieces' log-probabilities; the
//! unknown and byte pieces score 0, as sentencepiece writes them.

use crate::train::unigram::config::WordMarks;
use crate::train::unigram::vocabulary::UnigramVocabulary;
use serde_json::{Value, json};

fn normalizer(marks: WordMarks) -> Value {
    match marks {
        WordMarks::Space => json!({
            "type": "Sequence",
            "normalizers": [
                {"type": "Strip", "strip_left": true, "strip_right": true},
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            ],
        }),
        WordMarks::None => Value::Null,
    }
}

fn metaspace(kind: &str) -> Value {
    json!({"type": kind, "replacement": "\u{2581}", "prepend_scheme": "always", "split": true})
}

fn pre_tokenizer(marks: WordMarks) -> Value {
    match marks {
        WordMarks::Space => metaspace("Metaspace"),
        WordMarks::None => json!({"type": "WhitespaceSplit"}),
    }
}

fn decoder(v: &UnigramVocabulary) -> Value {
    let mut steps = Vec::new();
    if v.byte_fallback {
        steps.push(json!({"type": "ByteFallback"}));
        steps.push(json!({"type": "Fuse"}));
    }
    if v.marks == WordMarks::Space {
        steps.push(metaspace("Metaspace"));
    }
    match steps.len() {
        0 => Value::Null,
        1 => steps.remove(0),
        _ => json!({"type": "Sequence", "decoders": steps}),
    }
}

/// `v` as a `tokenizer.json` value.
pub fn to_json(v: &UnigramVocabulary) -> Value {
    let mut vocab: Vec<Value> = v.reserved().into_iter().map(|t| json!([t, 0.0])).collect();
    vocab.extend(v.pieces.iter().map(|(t, logp)| json!([t, logp])));
    json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": [{
            "id": 0,
            "content": crate::train::unigram::vocabulary::UNK,
            "single_word": false,
            "lstrip": false,
            "rstrip": false,
            "normalized": false,
            "special": true,
        }],
        "normalizer": normalizer(v.marks),
        "pre_tokenizer": pre_tokenizer(v.marks),
        "post_processor": null,
        "decoder": decoder(v),
        "model": {
            "type": "Unigram",
            "unk_id": 0,
            "vocab": vocab,
            "byte_fallback": v.byte_fallback,
        },
    })
}

/// The tokenizer `v` is, as `tokenizers` and `bpeek encode` read its
/// `tokenizer.json`: what the explorer encodes with while training goes.
pub fn tokenizer(v: &UnigramVocabulary, name: &str) -> crate::error::Result<crate::Tokenizer> {
    crate::formats::hf_file::read(name, &to_json(v))
}
