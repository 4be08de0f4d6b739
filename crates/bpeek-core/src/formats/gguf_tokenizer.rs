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

use crate::TokenId;
use crate::encoder::{SpecialToken, Tokenizer};
use crate::error::{Error, Result, quoted};
use crate::formats::gguf::{Metadata, Value};
use crate::formats::import::{Lenient, byte_level};
use crate::formats::limits::{MAX_ID, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::models::char_bpe::CharBpe;
use crate::models::spm::{Algorithm, ModelSpec, NormalizerSpec, Piece, PieceType, SpmModel};
use crate::models::wordpiece::{WordPiece, WordPieceSpec, WordSplit};
use crate::normalize::added::{AddedToken, AddedVocab, Normalizer};
use crate::normalize::llama_wpm::WpmText;
use crate::pretokenize::pretok::{self, Pretok, QWEN2_PATTERN};
use crate::pretokenize::regex_split::RegexChain;
use rustc_hash::FxHashMap;

const MODELS: &str = "llama, gpt2, bert, t5, gemma4";

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
    let mut tok = by_model(name, meta, model, tokens, &kinds)?;
    if let Some(t) = template(meta, model, tokens.len()) {
        tok.set_template(t);
    }
    Ok(tok)
}

/// What llama.cpp puts around a text when asked for special tokens: BOS,
/// EOS and (BERT) SEP, by its defaults for each tokenizer model and
/// pre-tokenizer name, which `tokenizer.ggml.add_bos_token`,
/// `add_eos_token` and `add_sep_token` override.
fn template(meta: &Metadata, model: &str, size: usize) -> Option<crate::Template> {
    use crate::Template;
    let pre = match meta.get("tokenizer.ggml.pre") {
        Some(Value::Str(s)) => s.as_str(),
        _ => "default",
    };
    // llama.cpp's defaults (llama-vocab.cpp, `load`).
    let (mut bos, mut eos, mut sep) = match model {
        "llama" | "gemma4" => (true, false, false),
        "bert" => (true, false, true),
        "t5" => (false, true, false),
        "gpt2" => match pre {
            "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "falcon-h1" | "pixtral"
            | "midm-2.0" | "lfm2" | "jina-v5-nano" | "tekken" | "chameleon" => (true, false, false),
            "jina-v1-en" | "jina-v2-code" | "roberta-bpe" => (false, false, true),
            _ => (false, false, false),
        },
        _ => return None,
    };
    let flag = |key: &str, default: bool| match meta.get(key) {
        Some(Value::Bool(b)) => *b,
        _ => default,
    };
    bos = flag("tokenizer.ggml.add_bos_token", bos) || model == "gemma4";
    eos = flag("tokenizer.ggml.add_eos_token", eos);
    sep = flag("tokenizer.ggml.add_sep_token", sep);
    // The ids llama.cpp takes when the file does not say them.
    let default = |key: &str| -> Option<u64> {
        match (model, key.rsplit('.').next().unwrap_or_default()) {
            ("llama", "bos_token_id") => Some(1),
            ("llama", "eos_token_id") => Some(2),
            ("bert", "bos_token_id") => Some(101),
            ("bert", "seperator_token_id") => Some(102),
            ("gpt2", "bos_token_id" | "eos_token_id") => Some(11),
            ("t5", "eos_token_id") => Some(1),
            _ => None,
        }
    };
    let id = |key: &str| -> std::result::Result<TokenId, String> {
        let n = match meta.get(key) {
            Some(Value::UInt(n)) => Some(*n),
            Some(Value::Int(n)) if *n >= 0 => Some(*n as u64),
            Some(_) => None,
            None => default(key),
        };
        match n {
            Some(n) if (n as usize) < size => Ok(n as TokenId),
            _ => Err(format!(
                "{key} is missing or not a token, and the text needs it"
            )),
        }
    };
    let build = || -> std::result::Result<Template, String> {
        let mut before = Vec::new();
        let mut after = Vec::new();
        if bos {
            before.push(id("tokenizer.ggml.bos_token_id")?);
        }
        match model {
            // BERT's [SEP] always ends the text.
            "bert" => after.push(id("tokenizer.ggml.seperator_token_id")?),
            _ if sep => {
                return Err(
                    "tokenizer.ggml.add_sep_token: a separator after a BPE text is not supported"
                        .into(),
                );
            }
            _ => {}
        }
        if eos && model != "bert" {
            after.push(id("tokenizer.ggml.eos_token_id")?);
        }
        Ok(Template::Around { before, after })
    };
    Some(build().unwrap_or_else(Template::Unsupported))
}

fn by_model(
    name: &str,
    meta: &Metadata,
    model: &str,
    tokens: &[String],
    kinds: &[PieceType],
) -> Result<Tokenizer> {
    match model {
        "llama" => spm(name, meta, tokens, kinds, Algorithm::Bpe),
        "t5" => spm(name, meta, tokens, kinds, Algorithm::Unigram),
        "gpt2" => gpt2(name, meta, tokens, kinds),
        "bert" => bert(name, meta, tokens, kinds),
        "gemma4" => gemma4(name, meta, tokens, kinds),
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
    // The unknown piece is the one `unknown_token_id` names (llama.cpp's
    // default 0 for llama); other pieces typed unknown (padding some files
    // add) are never made from text, like control pieces.
    let unk_key = "tokenizer.ggml.unknown_token_id";
    let unk = match meta.get(unk_key) {
        None => kinds
            .iter()
            .position(|&k| k == PieceType::Unknown)
            .unwrap_or(0),
        Some(Value::UInt(n)) if (*n as usize) < tokens.len() => *n as usize,
        Some(Value::Int(n)) if *n >= 0 && (*n as usize) < tokens.len() => *n as usize,
        Some(v) => {
            return Err(Error::input(format!(
                "{unk_key}: {v:?} is not the id of one of the {} tokens",
                tokens.len()
            )));
        }
    };
    let pieces: Vec<Piece> = tokens
        .iter()
        .zip(kinds)
        .zip(&scores)
        .enumerate()
        .map(|(i, ((t, &kind), &score))| Piece {
            text: t.as_bytes().to_vec(),
            score,
            kind: match kind {
                _ if i == unk => PieceType::Unknown,
                PieceType::Unknown => PieceType::Control,
                k => k,
            },
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
    // llama.cpp's defaults: a space in front for llama models, none for T5;
    // runs of spaces kept unless the file says to fold them (only T5 reads
    // that). Folding puts a space before every word, the first one too.
    let remove_extra_whitespaces =
        unigram && flag(meta, "tokenizer.ggml.remove_extra_whitespaces", false)?;
    let add_dummy_prefix =
        flag(meta, "tokenizer.ggml.add_space_prefix", !unigram)? || remove_extra_whitespaces;
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
            add_dummy_prefix,
            remove_extra_whitespaces,
            escape_whitespaces: true,
            prefix_unless_space: false,
        },
    };
    let mut model = SpmModel::new(spec).map_err(|e| e.context("tokenizer.ggml.tokens"))?;
    if unigram {
        model = model.with_llama_sums();
    }
    Ok(Tokenizer::from_sentencepiece(name, model))
}

const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";
const GPT2_ONLY: &[&str] = &[GPT2];
const QWEN2: &[&str] = &[QWEN2_PATTERN];
const LLAMA3: &[&str] = &[
    r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
];

/// The split patterns llama.cpp uses for a `tokenizer.ggml.pre` preset,
/// and whether a piece that is itself a token is taken whole.
fn preset(pre: &str) -> Option<(&'static [&'static str], bool)> {
    const QWEN35: &[&str] = &[
        r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ];
    // Written with escapes: some of these letters have canonical
    // equivalents, and an editor that normalizes would reverse a range.
    const DEEPSEEK_LLM: &[&str] = &[
        "[\\r\\n]",
        "\\s?[A-Za-z\u{B5}\u{C0}-\u{D6}\u{D8}-\u{F6}\u{F8}-\u{1BA}\u{1BC}-\u{1BF}\u{1C4}-\u{293}\u{295}-\u{2AF}\u{370}-\u{373}\u{376}\u{377}\u{37B}-\u{37D}\u{37F}\u{386}\u{388}-\u{38A}\u{38C}\u{38E}-\u{3A1}\u{3A3}-\u{3F5}\u{3F7}-\u{481}\u{48A}-\u{52F}\u{531}-\u{556}\u{10A0}-\u{10C5}\u{13A0}-\u{13F5}\u{13F8}-\u{13FD}\u{1C90}-\u{1CBA}\u{1CBD}-\u{1CBF}\u{1D00}-\u{1D2B}\u{1D6B}-\u{1D77}\u{1D79}-\u{1D9A}\u{1E00}-\u{1F15}\u{1F18}-\u{1F1D}\u{1F20}-\u{1F45}\u{1F48}-\u{1F4D}\u{1F50}-\u{1F57}\u{1F59}\u{1F5B}\u{1F5D}\u{1F5F}-\u{1F7D}\u{1F80}-\u{1FB4}\u{1FB6}-\u{1FBC}\u{1FBE}\u{1FC2}-\u{1FC4}\u{1FC6}-\u{1FCC}\u{1FD0}-\u{1FD3}\u{1FD6}-\u{1FDB}\u{1FE0}-\u{1FEC}\u{1FF2}-\u{1FF4}\u{1FF6}-\u{1FFC}\u{2102}\u{2107}\u{210A}-\u{2113}\u{2115}\u{2119}-\u{211D}\u{2124}\u{2126}\u{2128}\u{212A}-\u{212D}\u{212F}-\u{2134}\u{2139}\u{213C}-\u{213F}\u{2145}-\u{2149}\u{214E}\u{2183}\u{2184}\u{2C00}-\u{2C7B}\u{2C7E}-\u{2CE4}\u{2CEB}-\u{2CEE}\u{2CF2}\u{2CF3}\u{A640}-\u{A66D}\u{A680}-\u{A69B}\u{A722}-\u{A76F}\u{A771}-\u{A787}\u{A78B}-\u{A78E}\u{AB70}-\u{ABBF}\u{FB00}-\u{FB06}\u{FB13}-\u{FB17}\u{FF21}-\u{FF3A}\u{FF41}-\u{FF5A}\u{10400}-\u{1044F}\u{104B0}-\u{104D3}\u{104D8}-\u{104FB}\u{10C80}-\u{10CB2}\u{10CC0}-\u{10CF2}\u{118A0}-\u{118DF}\u{1E900}-\u{1E943}]+",
        "\\s?[!-/:-~\u{FF01}-\u{FF0F}\u{FF1A}-\u{FF5E}\u{2018}-\u{201F}\u{3000}-\u{3002}]+",
        "\\s+$",
        "[\u{4E00}-\u{9FA5}\u{800}-\u{4E00}\u{AC00}-\u{D7FF}]+",
        "\\p{N}+",
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
    const DEFAULT: &[&str] = &[r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"];
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
    let mut vocab: FxHashMap<String, TokenId> =
        FxHashMap::with_capacity_and_hasher(tokens.len(), Default::default());
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
        // Where the merge is, for an error: written out only if one is found.
        merges.push((m[..at].to_string(), m[at + 1..].to_string(), String::new()));
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
        Lenient::Gguf,
    )
    .map_err(|e| e.context("tokenizer.ggml.tokens"))?;
    if patterns == QWEN2 {
        // Llama 3's hand-cut splitter, a digit at a time.
        tok.set_split(RegexChain::by_hand(pre, &pretok::QWEN2));
    } else if fast.is_none() {
        tok.set_split(RegexChain::new(pre, patterns)?);
    }
    if !added.is_empty() {
        tok.set_added(AddedVocab::new(added, Normalizer::None));
    }
    Ok(tok)
}

/// BPE by merge rank on characters with byte fallback (Gemma 4).
fn gemma4(
    name: &str,
    meta: &Metadata,
    tokens: &[String],
    kinds: &[PieceType],
) -> Result<Tokenizer> {
    let merges_key = "tokenizer.ggml.merges";
    let merges = match meta.get(merges_key) {
        Some(Value::Strs(m)) => m,
        Some(v) => return Err(wrong_type(merges_key, v, "an array of strings")),
        None => return Err(Error::input(format!("{merges_key}: missing"))),
    };
    let is_byte: Vec<bool> = kinds.iter().map(|&k| k == PieceType::Byte).collect();
    let silent: Vec<bool> = kinds.iter().map(|&k| k == PieceType::Control).collect();
    let added: Vec<AddedToken> = tokens
        .iter()
        .zip(kinds)
        .enumerate()
        .filter(|(_, (t, k))| {
            !t.is_empty() && matches!(k, PieceType::Control | PieceType::UserDefined)
        })
        .map(|(i, (t, &k))| AddedToken {
            text: t.clone(),
            id: i as TokenId,
            special: k == PieceType::Control,
            single_word: false,
            lstrip: false,
            rstrip: false,
            normalized: false,
        })
        .collect();
    let model = CharBpe::new(tokens.to_vec(), &is_byte, silent, merges, merges_key)?;
    Ok(Tokenizer::from_char_bpe(
        name,
        model,
        tokens.len(),
        (!added.is_empty()).then(|| AddedVocab::new(added, Normalizer::None)),
    ))
}

/// WordPiece, its pieces written back the way BERT's vocabulary has them,
/// with llama.cpp's own text rules (its WPM tokenizer's).
fn bert(name: &str, meta: &Metadata, tokens: &[String], kinds: &[PieceType]) -> Result<Tokenizer> {
    let mut pieces = Vec::with_capacity(tokens.len());
    let mut special = Vec::new();
    let mut added = Vec::new();
    for (i, (t, &kind)) in tokens.iter().zip(kinds).enumerate() {
        let id = i as TokenId;
        if matches!(
            kind,
            PieceType::Control | PieceType::UserDefined | PieceType::Unknown
        ) || (t.starts_with('[') && t.ends_with(']'))
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
    // llama.cpp lowercases and strips accents unless the file says not to;
    // accents follow lowercasing where only that is given.
    let lowercase = flag(meta, "tokenizer.ggml.normalizer.lowercase", true)?;
    let text = WpmText {
        lowercase,
        strip_accents: flag(meta, "tokenizer.ggml.normalizer.strip_accents", lowercase)?,
    };
    let model = WordPiece::new(WordPieceSpec {
        pieces,
        unk_token: "[UNK]".into(),
        prefix: "##".into(),
        // llama.cpp cuts a word of any length.
        max_input_chars_per_word: usize::MAX,
        normalizer: None,
        split: WordSplit::Llama(text),
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
