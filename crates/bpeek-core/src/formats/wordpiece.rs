//! WordPiece files: BERT's `vocab.txt` and Hugging Face `tokenizer.json`
//! files whose model is `WordPiece`.
//!
//! A `vocab.txt` is one token per line, the id its line number (from 0),
//! trailing whitespace not part of the token. It says nothing of how text
//! is normalized: as common tools do, the vocabulary decides. If no token
//! but the `[BRACKETED]` special ones has an uppercase letter, it is
//! uncased (BERT uncased: text lowercased and accents stripped); otherwise
//! cased (text kept as written). `[UNK]`, `[SEP]`, `[CLS]`, `[PAD]` and
//! `[MASK]` are matched whole in the text where they are in the vocabulary.

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::error::{Error, Result, quoted};
use crate::formats::hf_fields::vocab_ids;
use crate::formats::hf_file::{Family, HfFile};
use crate::formats::hf_pipeline;
use crate::formats::limits::{MAX_ID, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::models::wordpiece::{BertNormalizer, WordPiece, WordPieceSpec, WordSplit, is_cased};
use crate::normalize::added::{AddedToken, AddedVocab, Normalizer};
use crate::pretokenize::hf_text::HfText;
use serde_json::Value;

/// The special tokens BERT's tools match whole, where the vocabulary has them.
const BERT_SPECIALS: [&str; 5] = ["[UNK]", "[SEP]", "[CLS]", "[PAD]", "[MASK]"];

/// Whether a text file reads as a WordPiece vocabulary: no line holds
/// whitespace inside it, and one of them is `[UNK]`.
pub fn looks_like_vocab_txt(text: &str) -> bool {
    let mut unk = false;
    for line in text.lines() {
        let token = line.trim_end();
        if token.chars().any(char::is_whitespace) {
            return false;
        }
        unk |= token == "[UNK]";
    }
    unk
}

/// BERT's `vocab.txt`.
pub fn vocab_txt(name: &str, text: &str) -> Result<Tokenizer> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut pieces = Vec::new();
    let mut budget = VocabBudget::default();
    for (i, line) in text.lines().enumerate() {
        if i as u64 > MAX_ID {
            return Err(Error::input(format!(
                "line {}: more than {} tokens (ids go up to {MAX_ID})",
                i + 1,
                MAX_ID + 1
            )));
        }
        let token = line.trim_end();
        budget.add(token.len(), MAX_IMPORTED_TOKEN_BYTES, || {
            format!("line {}", i + 1)
        })?;
        pieces.push(token.to_string());
    }
    if !pieces.iter().any(|p| p == "[UNK]") {
        return Err(Error::input(
            "no line is [UNK]: a WordPiece vocabulary needs its unknown token",
        ));
    }
    let lowercase = !is_cased(&pieces);
    let mut specials = Vec::new();
    for s in BERT_SPECIALS {
        // The last line of a text listed twice is the one used.
        if let Some(id) = pieces.iter().rposition(|p| p == s) {
            specials.push(AddedToken {
                text: s.to_string(),
                id: id as TokenId,
                special: true,
                single_word: false,
                lstrip: false,
                rstrip: false,
                normalized: false,
            });
        }
    }
    let model = WordPiece::new(WordPieceSpec {
        pieces,
        unk_token: "[UNK]".into(),
        prefix: "##".into(),
        max_input_chars_per_word: 100,
        normalizer: Some(BertNormalizer::bert(lowercase)),
        split: WordSplit::Bert,
        special: specials.iter().map(|t| t.id).collect(),
        cleanup: true,
    })?;
    // The library's BertWordPieceTokenizer adds these as special tokens,
    // which its `decode` leaves out by default.
    let mut tok = Tokenizer::from_wordpiece(name, model, None);
    tok.skip_as_the_library(&specials, &Normalizer::None);
    Ok(tok.with_added(Some(AddedVocab::new(specials, Normalizer::None))))
}

/// A Hugging Face `tokenizer.json` whose `model.type` is `WordPiece`.
pub fn hugging_face(name: &str, file: HfFile) -> Result<Tokenizer> {
    let model = file.model;
    // WordLevel is WordPiece that never cuts a word: a word is a token or
    // the unknown token.
    let level = file.family == Family::WordLevel;
    let unk_token = str_field(model, "unk_token", if level { "<unk>" } else { "[UNK]" })?;
    let prefix = continuing_prefix(&file, level)?;
    let max_chars = match model.get("max_input_chars_per_word") {
        None | Some(Value::Null) => 100,
        Some(v) => v.as_u64().filter(|&n| n > 0).ok_or_else(|| {
            Error::input("model.max_input_chars_per_word: expected a whole number above 0")
        })? as usize,
    };
    let mut pieces = vocab_pieces(model)?;
    let added_normalized = file.added.iter().any(|(_, t)| t.normalized);
    let (normalizer, split, mut steps) = word_text(&file, level, added_normalized)?;
    // One WordPiece decoder (or none) decodes on the model's own path; any
    // other chain runs step by step over the token texts.
    let (cleanup, chain) = match file.decoder {
        Value::Null if level => (false, None),
        // Without a decoder the library joins the tokens with spaces,
        // `##` and all.
        Value::Null => (false, Some(Vec::new())),
        d => match decoder_cleanup(d, &prefix) {
            Ok(cleanup) => (cleanup, None),
            Err(_) => {
                let kind = if level { "WordLevel" } else { "WordPiece" };
                (false, Some(hf_pipeline::read_decoder(&file, kind)?))
            }
        },
    };
    let special = place_added_tokens(&mut pieces, &file.added)?;
    let added: Vec<AddedToken> = file.added.into_iter().map(|(_, t)| t).collect();
    // Added tokens matched in normalized text take the normalizer from
    // the steps, as the library normalizes the text between them first.
    let added_normalizer = match &mut steps {
        Some(steps) => hf_pipeline::added_normalizer(steps, &added),
        None => Normalizer::None,
    };
    let wp = WordPiece::new(WordPieceSpec {
        pieces,
        unk_token,
        prefix,
        max_input_chars_per_word: max_chars,
        normalizer,
        split,
        special,
        cleanup,
    })
    .map_err(|e| e.context("model"))?;
    let wp = if level { wp.with_whole_words() } else { wp };
    let wp = match steps {
        Some(steps) => wp.with_text(steps),
        None => wp,
    };
    let decoded_as = added
        .iter()
        .filter(|t| t.normalized)
        .map(|t| (t.id, added_normalizer.apply(&t.text).into_owned()))
        .collect();
    let wp = wp.with_decoded_as(decoded_as);
    let wp = match chain {
        Some(steps) => wp.with_decoder(steps),
        None => wp,
    };
    let mut tok = Tokenizer::from_wordpiece(name, wp, None);
    tok.skip_as_the_library(&added, &added_normalizer);
    let added = (!added.is_empty()).then(|| AddedVocab::new(added, added_normalizer));
    Ok(tok.with_added(added))
}

/// The string `model.FIELD`, `default` when missing.
fn str_field(model: &Value, field: &str, default: &str) -> Result<String> {
    match model.get(field) {
        None | Some(Value::Null) => Ok(default.to_string()),
        Some(Value::String(s)) if s.len() <= MAX_IMPORTED_TOKEN_BYTES => Ok(s.clone()),
        Some(_) => Err(Error::input(format!(
            "model.{field}: expected a string of at most {MAX_IMPORTED_TOKEN_BYTES} bytes"
        ))),
    }
}

/// What marks a piece that continues a word: the model's
/// `continuing_subword_prefix`, or for WordLevel (`level`) the decoder's
/// prefix (none without a decoder: Hugging Face then joins tokens with
/// spaces).
fn continuing_prefix(file: &HfFile, level: bool) -> Result<String> {
    if !level {
        return str_field(file.model, "continuing_subword_prefix", "##");
    }
    Ok(match file.decoder {
        Value::Null => String::new(),
        d => d
            .get("prefix")
            .and_then(Value::as_str)
            .unwrap_or("##")
            .to_string(),
    })
}

/// `model.vocab` as each id's piece (empty for an id with none).
fn vocab_pieces(model: &Value) -> Result<Vec<String>> {
    let vocab_obj = model
        .get("vocab")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input("model.vocab is missing or not an object"))?;
    let vocab = vocab_ids(vocab_obj, "model.vocab")?;
    let size = vocab.values().max().map_or(0, |&m| m as usize + 1);
    let mut pieces = vec![String::new(); size];
    for (text, &id) in &vocab {
        pieces[id as usize] = text.clone();
    }
    Ok(pieces)
}

/// How text is normalized and cut into words: one BertNormalizer and one
/// word split run on their own fast path; anything else runs as the
/// file's steps, and so does a file with added tokens matched after
/// normalizing (the steps' normalizer then moves to the added tokens).
fn word_text(
    file: &HfFile,
    level: bool,
    added_normalized: bool,
) -> Result<(Option<BertNormalizer>, WordSplit, Option<HfText>)> {
    let simple = (
        bert_normalizer(file.normalizer),
        word_split(file.pre_tokenizer),
    );
    Ok(match simple {
        (Ok(n), Ok(s)) if !added_normalized || n.is_none() => (n, s, None),
        _ => {
            let kind = if level { "WordLevel" } else { "WordPiece" };
            let steps = hf_pipeline::read_text(file, kind)?;
            (None, WordSplit::Whole, Some(steps))
        }
    })
}

/// Gives each added token its id's piece (which must be its text where
/// model.vocab has one): the ids of the special ones.
fn place_added_tokens(
    pieces: &mut Vec<String>,
    added: &[(String, AddedToken)],
) -> Result<Vec<TokenId>> {
    let mut special = Vec::new();
    for (place, t) in added {
        let at = t.id as usize;
        if at >= pieces.len() {
            pieces.resize(at + 1, String::new());
        }
        if pieces[at].is_empty() {
            pieces[at] = t.text.clone();
        } else if pieces[at] != t.text {
            return Err(Error::input(format!(
                "{place}: added token {:?} has id {}, which model.vocab gives to {:?}",
                t.text, t.id, pieces[at]
            )));
        }
        if t.special {
            special.push(t.id);
        }
    }
    Ok(special)
}

/// The normalizer: none, or a `BertNormalizer` (alone or the one step of
/// a `Sequence`).
fn bert_normalizer(n: &Value) -> Result<Option<BertNormalizer>> {
    let kind = n.get("type").and_then(Value::as_str);
    let n = match kind {
        None if n.is_null() => return Ok(None),
        Some("Sequence") => match n.get("normalizers").and_then(Value::as_array) {
            Some(list) if list.is_empty() => return Ok(None),
            Some(list) if list.len() == 1 => return bert_normalizer(&list[0]),
            _ => {
                return Err(Error::input(
                    "normalizer: a Sequence of several steps is not supported with WordPiece (bpeek applies one BertNormalizer or none)",
                ));
            }
        },
        Some("BertNormalizer") => n,
        other => {
            return Err(Error::input(format!(
                "normalizer: type {} is not supported with WordPiece (bpeek applies BertNormalizer or none)",
                quoted(other.unwrap_or("unnamed"))
            )));
        }
    };
    let flag = |field: &str, default: bool| -> Result<Option<bool>> {
        match n.get(field) {
            None => Ok(Some(default)),
            Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(Error::input(format!(
                "normalizer.{field}: {other} is not true, false or null"
            ))),
        }
    };
    let lowercase = flag("lowercase", true)?.unwrap_or(true);
    Ok(Some(BertNormalizer {
        clean_text: flag("clean_text", true)?.unwrap_or(true),
        handle_chinese_chars: flag("handle_chinese_chars", true)?.unwrap_or(true),
        // null: strip accents where the text is lowercased.
        strip_accents: flag("strip_accents", lowercase)?.unwrap_or(lowercase),
        lowercase,
    }))
}

/// How the pre-tokenizer cuts words.
fn word_split(p: &Value) -> Result<WordSplit> {
    let kind = p.get("type").and_then(Value::as_str);
    match kind {
        None if p.is_null() => Ok(WordSplit::Whole),
        Some("BertPreTokenizer") => Ok(WordSplit::Bert),
        Some("WhitespaceSplit") => Ok(WordSplit::Whitespace),
        Some("Whitespace") => Ok(WordSplit::WordsAndSymbols),
        Some("Sequence") => match p.get("pretokenizers").and_then(Value::as_array) {
            Some(list) if list.len() == 1 => word_split(&list[0]),
            _ => Err(Error::input(
                "pre_tokenizer: a Sequence of several steps is not supported with WordPiece (BertPreTokenizer, Whitespace, WhitespaceSplit or none)",
            )),
        },
        other => Err(Error::input(format!(
            "pre_tokenizer: type {} is not supported with WordPiece (BertPreTokenizer, Whitespace, WhitespaceSplit or none)",
            quoted(other.unwrap_or("unnamed"))
        ))),
    }
}

/// The decoder: none or `WordPiece` with the model's prefix; whether it
/// cleans up spaces.
fn decoder_cleanup(d: &Value, prefix: &str) -> Result<bool> {
    if d.is_null() {
        return Ok(true);
    }
    match d.get("type").and_then(Value::as_str) {
        Some("WordPiece") => {
            let own = d.get("prefix").and_then(Value::as_str).unwrap_or("##");
            if own != prefix {
                return Err(Error::input(format!(
                    "decoder.prefix {} differs from model.continuing_subword_prefix {}",
                    quoted(own),
                    quoted(prefix)
                )));
            }
            Ok(d.get("cleanup").and_then(Value::as_bool).unwrap_or(true))
        }
        other => Err(Error::input(format!(
            "decoder: type {} is not supported with WordPiece (decoder WordPiece or none)",
            quoted(other.unwrap_or("unnamed"))
        ))),
    }
}
