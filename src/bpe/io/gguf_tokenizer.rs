//! The tokenizer a GGUF file's metadata describes.
//!
//! `tokenizer.ggml.model` says which kind: `llama` is SentencePiece-style
//! BPE by score with byte fallback, `gpt2` byte-level BPE from `tokens` and
//! `merges` with the split patterns llama.cpp uses for the preset named in
//! `tokenizer.ggml.pre`, `bert` WordPiece (llama.cpp writes a word's first
//! piece with `▁` in front and the pieces that continue it bare) and `t5`
//! Unigram with the file's precompiled character map. Token types (`1`
//! normal, `2` unknown, `3` control, `4` user defined, `5` unused, `6`
//! byte): control tokens are special (matched in text only where special
//! tokens are allowed), user-defined ones are matched whole in any text.

use crate::bpe::TokenId;
use crate::bpe::added::{AddedToken, AddedVocab, Normalizer};
use crate::bpe::encoder::{SpecialToken, Tokenizer};
use crate::bpe::io::gguf::{Metadata, Value};
use crate::bpe::io::import::byte_level;
use crate::bpe::io::limits::{MAX_ID, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::bpe::pretok::Pretok;
use crate::bpe::regex_split::RegexChain;
use crate::bpe::spm::{Algorithm, ModelSpec, NormalizerSpec, Piece, PieceType, SpmModel};
use crate::bpe::wordpiece::{BertNormalizer, WordPiece, WordPieceSpec, WordSplit, is_cased};
use crate::error::{Error, Result, quoted};
use rustc_hash::FxHashMap;

const MODELS: &str = "llama, gpt2, bert, t5";

/// Build the tokenizer of a file's metadata; errors name the key.
pub fn tokenizer(name: &str, meta: &Metadata) -> Result<Tokenizer> {
    let model = match meta.get("tokenizer.ggml.model") {
        Some(Value::Str(s)) => s.as_str(),
        Some(v) => return Err(wrong_type("tokenizer.ggml.model", v, "a string")),
        None => {
            return Err(Error::input(
                "tokenizer.ggml.model: missing: the file carries no tokenizer",
            ));
        }
    };
    let tokens = tokens(meta)?;
    let kinds = kinds(meta, tokens.len())?;
    match model {
        "llama" => spm(name, meta, tokens, &kinds, Algorithm::Bpe),
        "t5" => spm(name, meta, tokens, &kinds, Algorithm::Unigram),
        "gpt2" => gpt2(name, meta, tokens, &kinds),
        "bert" => bert(name, tokens, &kinds),
        other => Err(Error::input(format!(
            "tokenizer.ggml.model: {} is not supported (bpeek reads {MODELS})",
            quoted(other)
        ))),
    }
}

fn wrong_type(key: &str, v: &Value, want: &str) -> Error {
    Error::input(format!("{key}: {}, expected {want}", v.type_name()))
}

fn tokens(meta: &Metadata) -> Result<&[String]> {
    let key = "tokenizer.ggml.tokens";
    let tokens = match meta.get(key) {
        Some(Value::Strs(t)) => t,
        Some(v) => return Err(wrong_type(key, v, "an array of strings")),
        None => return Err(Error::input(format!("{key}: missing"))),
    };
    if tokens.is_empty() {
        return Err(Error::input(format!("{key}: no tokens")));
    }
    if tokens.len() as u64 > MAX_ID + 1 {
        return Err(Error::input(format!(
            "{key}: {} tokens, more than the limit of {}",
            tokens.len(),
            MAX_ID + 1
        )));
    }
    let mut budget = VocabBudget::default();
    for (i, t) in tokens.iter().enumerate() {
        budget.add(t.len(), MAX_IMPORTED_TOKEN_BYTES, || format!("{key}[{i}]"))?;
    }
    Ok(tokens)
}

/// Each token's type (normal where the file gives none).
fn kinds(meta: &Metadata, n: usize) -> Result<Vec<PieceType>> {
    let key = "tokenizer.ggml.token_type";
    let types = match meta.get(key) {
        None => return Ok(vec![PieceType::Normal; n]),
        Some(Value::Ints(t)) => t,
        Some(v) => return Err(wrong_type(key, v, "an array of integers")),
    };
    if types.len() != n {
        return Err(Error::input(format!(
            "{key}: {} types for {n} tokens",
            types.len()
        )));
    }
    types
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            u64::try_from(t)
                .ok()
                .and_then(PieceType::from_number)
                .ok_or_else(|| {
                    Error::input(format!(
                        "{key}[{i}]: {t} is not a token type (1 normal, 2 unknown, 3 control, 4 user defined, 5 unused, 6 byte)"
                    ))
                })
        })
        .collect()
}

fn flag(meta: &Metadata, key: &str, default: bool) -> Result<bool> {
    match meta.get(key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(wrong_type(key, v, "a bool")),
    }
}

/// SentencePiece-style models: `llama` (BPE by score) and `t5` (Unigram).
fn spm(
    name: &str,
    meta: &Metadata,
    tokens: &[String],
    kinds: &[PieceType],
    algorithm: Algorithm,
) -> Result<Tokenizer> {
    let key = "tokenizer.ggml.scores";
    let scores: Vec<f32> = match meta.get(key) {
        None => vec![0.0; tokens.len()],
        Some(Value::Floats(s)) if s.len() == tokens.len() => s.clone(),
        Some(Value::Floats(s)) => {
            return Err(Error::input(format!(
                "{key}: {} scores for {} tokens",
                s.len(),
                tokens.len()
            )));
        }
        Some(v) => return Err(wrong_type(key, v, "an array of floats")),
    };
    let pieces: Vec<Piece> = tokens
        .iter()
        .zip(kinds)
        .zip(&scores)
        .map(|((t, &kind), &score)| Piece {
            text: t.as_bytes().to_vec(),
            score,
            kind,
        })
        .collect();
    let charsmap = match meta.get("tokenizer.ggml.precompiled_charsmap") {
        None => Vec::new(),
        Some(Value::Bytes(b)) => b.clone(),
        Some(v) => {
            return Err(wrong_type(
                "tokenizer.ggml.precompiled_charsmap",
                v,
                "an array of bytes",
            ));
        }
    };
    let unigram = algorithm == Algorithm::Unigram;
    let spec = ModelSpec {
        byte_fallback: kinds.contains(&PieceType::Byte),
        pieces,
        algorithm,
        split_digits: false,
        treat_whitespace_as_suffix: false,
        unk_surface: None,
        normalizer: NormalizerSpec {
            name: String::new(),
            precompiled_charsmap: charsmap,
            add_dummy_prefix: flag(meta, "tokenizer.ggml.add_space_prefix", true)?,
            // llama.cpp keeps runs of spaces for llama models; T5's
            // normalizer folds them unless the file says otherwise.
            remove_extra_whitespaces: unigram
                && flag(meta, "tokenizer.ggml.remove_extra_whitespaces", true)?,
            escape_whitespaces: true,
        },
    };
    let model = SpmModel::new(spec).map_err(|e| e.context("tokenizer.ggml.tokens"))?;
    Ok(Tokenizer::from_sentencepiece(name, model))
}

const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";
const GPT2_ONLY: &[&str] = &[GPT2];
const LLAMA3: &[&str] = &[
    r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
];

/// The split patterns llama.cpp uses for a `tokenizer.ggml.pre` preset,
/// and whether a piece that is itself a token is taken whole.
fn preset(pre: &str) -> Option<(&'static [&'static str], bool)> {
    const QWEN2: &[&str] = &[
        r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ];
    const QWEN35: &[&str] = &[
        r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ];
    const DEEPSEEK_LLM: &[&str] = &[
        "[\r\n]",
        r"\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
        r"\s?[!-/:-~！-／：-～‘-‟　-。]+",
        r"\s+$",
        r"[一-龥ࠀ-一가-퟿]+",
        r"\p{N}+",
    ];
    const DEEPSEEK_CODER: &[&str] = &[
        "[\r\n]",
        r"\s?\p{L}+",
        r"\s?\p{P}+",
        r"[一-龥ࠀ-一가-퟿]+",
        r"\p{N}",
    ];
    const DEEPSEEK3: &[&str] = &[
        r"\p{N}{1,3}",
        r"[一-龥぀-ゟ゠-ヿ]+",
        "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
    ];
    const FALCON: &[&str] = &[r"[\p{P}\$\+<=>\^~\|`]+", GPT2, r"[0-9][0-9][0-9]"];
    const STARCODER: &[&str] = &[r"\p{N}", GPT2];
    const BLOOM: &[&str] = &[r" ?[^(\s|.,!?…。，、।۔،)]+"];
    const VIKING: &[&str] = &[r" ?[^(\s|.,!?…。，、।۔،)]+", r"\p{N}"];
    const TEKKEN: &[&str] = &[
        r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ];
    const GPT4O: &[&str] = &[
        r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ];
    const DEFAULT: &[&str] = &[
        r"[\p{P}\$\+<=>\^~\|]+",
        GPT2,
        r"\p{N}+",
        r"[0-9][0-9][0-9]",
    ];
    Some(match pre {
        "default" => (DEFAULT, false),
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral" | "midm-2.0"
        | "lfm2" | "jina-v5-nano" => (LLAMA3, true),
        "dbrx" | "smaug-bpe" => (LLAMA3, false),
        "chatglm-bpe" => (LLAMA3, false),
        "glm4" | "glm5" => (LLAMA3, true),
        "deepseek-llm" => (DEEPSEEK_LLM, false),
        "deepseek-coder" => (DEEPSEEK_CODER, false),
        "deepseek-v3" | "hunyuan-dense" | "joyai-llm" | "hy_v4" => (DEEPSEEK3, false),
        "falcon" => (FALCON, false),
        "starcoder" | "refact" | "command-r" | "smollm" | "codeshell" | "exaone" | "minerva-7b" => {
            (STARCODER, false)
        }
        "gpt-2" | "phi-2" | "jina-es" | "jina-de" | "gigachat" | "jina-v2-es" | "jina-v2-de"
        | "a.x-4.0" | "mellum" | "modern-bert" | "jina-v1-en" | "jina-v2-code" | "roberta-bpe"
        | "mpt" | "olmo" | "jais" | "trillion" | "granite-docling" | "exaone4" => {
            (GPT2_ONLY, false)
        }
        "qwen2" | "deepseek-r1-qwen" | "kormo" | "f2llmv2" | "stablelm2" | "megrez" | "hunyuan" => {
            (QWEN2, false)
        }
        "qwen35" => (QWEN35, false),
        "poro-chat" | "bloom" | "gpt3-finnish" => (BLOOM, false),
        "viking" => (VIKING, false),
        "tekken" => (TEKKEN, true),
        "gpt-4o" | "llama4" | "kanana2" | "talkie" | "minimax-m2" => (GPT4O, false),
        _ => return None,
    })
}

/// Byte-level BPE: tokens as GPT-2's printable stand-ins for bytes, merges
/// as `LEFT RIGHT`.
fn gpt2(name: &str, meta: &Metadata, tokens: &[String], kinds: &[PieceType]) -> Result<Tokenizer> {
    let pre_key = "tokenizer.ggml.pre";
    let pre = match meta.get(pre_key) {
        None => "default",
        Some(Value::Str(s)) => s.as_str(),
        Some(v) => return Err(wrong_type(pre_key, v, "a string")),
    };
    let Some((patterns, whole)) = preset(pre) else {
        return Err(Error::input(format!(
            "{pre_key}: the preset {} is not one bpeek knows the split patterns of",
            quoted(pre)
        )));
    };
    let merges_key = "tokenizer.ggml.merges";
    let raw = match meta.get(merges_key) {
        Some(Value::Strs(m)) => m,
        Some(v) => return Err(wrong_type(merges_key, v, "an array of strings")),
        None => return Err(Error::input(format!("{merges_key}: missing"))),
    };
    let mut vocab: FxHashMap<String, TokenId> = FxHashMap::default();
    let mut specials = Vec::new();
    let mut added = Vec::new();
    for (i, (t, &kind)) in tokens.iter().zip(kinds).enumerate() {
        let id = i as TokenId;
        if t.is_empty() {
            continue;
        }
        if matches!(kind, PieceType::Control | PieceType::UserDefined) {
            specials.push(SpecialToken {
                text: t.clone(),
                id,
            });
            added.push(AddedToken {
                text: t.clone(),
                id,
                special: kind == PieceType::Control,
                single_word: false,
                lstrip: false,
                rstrip: false,
                normalized: false,
            });
            continue;
        }
        if vocab.insert(t.clone(), id).is_some() {
            return Err(Error::input(format!(
                "tokenizer.ggml.tokens[{i}]: {} appears twice",
                quoted(t)
            )));
        }
    }
    let mut merges = Vec::with_capacity(raw.len());
    for (i, m) in raw.iter().enumerate() {
        // The first space after the first character divides the pair.
        let cut = m
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == ' ')
            .map(|(at, _)| at);
        let Some(at) = cut else {
            return Err(Error::input(format!(
                "{merges_key}[{i}]: {} is not two tokens separated by a space",
                quoted(m)
            )));
        };
        merges.push((
            m[..at].to_string(),
            m[at + 1..].to_string(),
            format!("{merges_key}[{i}]"),
        ));
    }
    // The two presets bpeek has a hand-cut splitter for.
    let fast = if patterns == GPT2_ONLY {
        Some(Pretok::Gpt2)
    } else if patterns == LLAMA3 {
        Some(Pretok::Llama3)
    } else {
        None
    };
    let mut tok = byte_level(
        name,
        vocab,
        merges,
        fast.unwrap_or(Pretok::None),
        specials,
        whole,
    )
    .map_err(|e| e.context("tokenizer.ggml.tokens"))?;
    if fast.is_none() {
        tok.set_split(RegexChain::new(pre, patterns)?);
    }
    if !added.is_empty() {
        tok.set_added(AddedVocab::new(added, Normalizer::None));
    }
    Ok(tok)
}

/// WordPiece, its pieces written back the way BERT's vocabulary has them.
fn bert(name: &str, tokens: &[String], kinds: &[PieceType]) -> Result<Tokenizer> {
    let mut pieces = Vec::with_capacity(tokens.len());
    let mut special = Vec::new();
    let mut added = Vec::new();
    for (i, (t, &kind)) in tokens.iter().zip(kinds).enumerate() {
        let id = i as TokenId;
        if matches!(kind, PieceType::Control | PieceType::UserDefined | PieceType::Unknown)
            || (t.starts_with('[') && t.ends_with(']'))
        {
            pieces.push(t.clone());
            if kind != PieceType::Unknown && t != "[UNK]" {
                special.push(id);
                added.push(AddedToken {
                    text: t.clone(),
                    id,
                    special: true,
                    single_word: false,
                    lstrip: false,
                    rstrip: false,
                    normalized: false,
                });
            }
        } else if let Some(word) = t.strip_prefix('\u{2581}') {
            pieces.push(word.to_string());
        } else {
            pieces.push(format!("##{t}"));
        }
    }
    let lowercase = !is_cased(&pieces);
    let model = WordPiece::new(WordPieceSpec {
        pieces,
        unk_token: "[UNK]".into(),
        prefix: "##".into(),
        max_input_chars_per_word: 100,
        normalizer: Some(BertNormalizer::bert(lowercase)),
        split: WordSplit::Bert,
        special,
        cleanup: true,
    })
    .map_err(|e| e.context("tokenizer.ggml.tokens"))?;
    Ok(Tokenizer::from_wordpiece(
        name,
        model,
        Some(AddedVocab::new(added, Normalizer::None)),
    ))
}
