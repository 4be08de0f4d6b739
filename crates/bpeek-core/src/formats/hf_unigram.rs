//! Hugging Face `tokenizer.json` files whose model is `Unigram`, read into
//! the SentencePiece engine.
//!
//! A pipeline of SentencePiece's own shape (NFC, NFD, NFKC, NFKD or
//! Lowercase steps, then `Precompiled`, SentencePiece's character map; the
//! `Metaspace` pre-tokenizer with `▁`; the `Metaspace` decoder)
//! runs in the SentencePiece normalizer, special tokens matched in the text
//! before it (with `--allow-special`) and other added tokens matched whole
//! as user-defined pieces. Any other pipeline (T5's `Replace` and
//! `WhitespaceSplit`, say) runs as the file's steps ([`hf_pipeline`]), each
//! word segmented on its own, and added tokens are matched whole before it.
//! As in the library, every piece is a node of the lattice: a special
//! token's piece (`<s>`, or `<S>` behind Lowercase) is made from its text
//! where that is the best cut, and left out when decoding.

use crate::encoder::Tokenizer;
use crate::error::{Error, Result, quoted};
use crate::formats::hf_file::HfFile;
use crate::formats::hf_pipeline;
use crate::formats::limits::{MAX_ID, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::models::spm::TextStep;
use crate::models::spm::{
    Algorithm, HfMetaspace, ModelSpec, NormalizerSpec, Piece, PieceType, SpmModel,
};
use crate::normalize::added::{AddedToken, AddedVocab, Normalizer};
use crate::pretokenize::hf_text::HfText;
use base64::Engine;
use serde_json::Value;

const SPACE_MARK: &str = "\u{2581}";

/// A Hugging Face `tokenizer.json` whose `model.type` is `Unigram`.
pub fn hugging_face(name: &str, file: HfFile) -> Result<Tokenizer> {
    let model = file.model;
    let list = model
        .get("vocab")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("model.vocab is missing or not a list of [piece, score]"))?;
    if list.len() as u64 > MAX_ID + 1 {
        return Err(Error::input(format!(
            "model.vocab: more than {} pieces",
            MAX_ID + 1
        )));
    }
    let byte_fallback = byte_fallback(model)?;
    let unk_id = unknown_id(model, list.len())?;
    let (mut pieces, scores) = read_pieces(list, unk_id, byte_fallback)?;
    // The pipeline of SentencePiece's own shape (steps, a character map,
    // one Metaspace) runs in the SentencePiece normalizer; any other runs
    // as the file's steps, word by word.
    let simple = sentencepiece_shaped(&file)
        .filter(|_| specials_fit_layout(&file) && !adds_beyond(&file, list.len()));
    let general = match simple {
        Some(_) => None,
        None => Some(hf_pipeline::read(&file, "Unigram")?),
    };
    let added = file.added;
    let mut scores = scores;
    let unk_surface = mark_added_pieces(
        (&mut pieces, &mut scores),
        &added,
        unk_id,
        general.is_some(),
    )?;
    let read = ReadModel {
        pieces,
        scores,
        byte_fallback,
        unk_surface,
    };
    match simple {
        Some(((steps, charsmap), (prepend, split))) => {
            let model = sentencepiece_model(read, steps, charsmap, prepend, split)?;
            // Special tokens are matched as written here (see
            // `specials_fit_layout`), and so decode as written.
            let mut tok = Tokenizer::from_sentencepiece(name, model);
            let tokens: Vec<_> = added.iter().map(|(_, t)| t.clone()).collect();
            tok.skip_as_the_library(&tokens, &Normalizer::None);
            Ok(tok.with_added(specials_first(added)))
        }
        None => file_pipeline(name, read, general.unwrap_or_default(), added),
    }
}

/// Whether the special tokens can be matched before the SentencePiece
/// normalizer of the file's own shape runs: each is matched in the text as
/// given (`normalized: false`, as trainers make them), and the text after
/// one needs no other `▁` in front than before it (not Metaspace's
/// `prepend_scheme: "first"`, which puts one only before the first piece).
fn specials_fit_layout(file: &HfFile) -> bool {
    let specials = file.added.iter().filter(|(_, t)| t.special);
    let mut specials = specials.peekable();
    if specials.peek().is_none() {
        return true;
    }
    specials.all(|(_, t)| !t.normalized) && !prepends_first_only(file.pre_tokenizer)
}

/// Whether a Metaspace step (alone or in a Sequence) has
/// `prepend_scheme: "first"`.
fn prepends_first_only(p: &Value) -> bool {
    match p.get("type").and_then(Value::as_str) {
        Some("Metaspace") => p.get("prepend_scheme").and_then(Value::as_str) == Some("first"),
        Some("Sequence") => p
            .get("pretokenizers")
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(prepends_first_only)),
        _ => false,
    }
}

/// The special tokens, matched in the text before the model's own
/// normalizer (with `--allow-special`), as the library matches them; the
/// other added tokens are the model's user-defined pieces.
fn specials_first(added: Vec<(String, AddedToken)>) -> Option<AddedVocab> {
    let specials: Vec<_> = added
        .into_iter()
        .map(|(_, t)| t)
        .filter(|t| t.special)
        .collect();
    (!specials.is_empty()).then(|| AddedVocab::new(specials, Normalizer::None))
}

/// `model.byte_fallback`: false when missing.
fn byte_fallback(model: &Value) -> Result<bool> {
    match model.get("byte_fallback") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(Error::input(format!(
            "model.byte_fallback: {other} is not true or false"
        ))),
    }
}

/// `model.unk_id`, the id of one of the `pieces` pieces, or none (`null`:
/// the library then fails on a character no piece covers).
fn unknown_id(model: &Value, pieces: usize) -> Result<Option<usize>> {
    Ok(match model.get("unk_id") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| (n as usize) < pieces)
                .ok_or_else(|| {
                    Error::input(format!(
                        "model.unk_id: {v} is not the id of a piece (0..{pieces})"
                    ))
                })? as usize,
        ),
    })
}

/// The `[piece, score]` entries of `model.vocab` as pieces, with their
/// scores as written (the pieces keep them as `f32`).
fn read_pieces(
    list: &[Value],
    unk_id: Option<usize>,
    byte_fallback: bool,
) -> Result<(Vec<Piece>, Vec<f64>)> {
    let mut budget = VocabBudget::default();
    let mut pieces = Vec::with_capacity(list.len());
    let mut scores = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        let place = || format!("model.vocab[{i}]");
        let (Some(text), Some(score)) = (
            entry.get(0).and_then(Value::as_str),
            entry.get(1).and_then(Value::as_f64),
        ) else {
            return Err(Error::input(format!(
                "{}: expected [piece, score]",
                place()
            )));
        };
        budget.add(text.len(), MAX_IMPORTED_TOKEN_BYTES, place)?;
        let kind = if Some(i) == unk_id {
            PieceType::Unknown
        } else if byte_fallback && crate::models::spm::byte_of_piece(text.as_bytes()).is_some() {
            PieceType::Byte
        } else {
            PieceType::Normal
        };
        scores.push(score);
        pieces.push(Piece {
            text: text.as_bytes().to_vec(),
            score: score as f32,
            kind,
        });
    }
    Ok((pieces, scores))
}

/// The normalizer's steps and character map and the Metaspace's prepend
/// and split, when the file's pipeline has SentencePiece's own shape.
type SentencepieceShape = ((Vec<TextStep>, Vec<u8>), (bool, bool));

/// The pipeline, when it has SentencePiece's own shape.
fn sentencepiece_shaped(file: &HfFile) -> Option<SentencepieceShape> {
    match (
        normalizer(file.normalizer, "normalizer"),
        pre_tokenizer(file.pre_tokenizer, "pre_tokenizer"),
        decoder(file.decoder, "decoder"),
    ) {
        (Ok(n), Ok(p), Ok(())) => Some((n, p)),
        _ => None,
    }
}

/// Whether an added token has an id past the model's `pieces` pieces (the
/// library's `add_tokens` of a text the vocabulary lacks): such tokens are
/// matched only as added tokens, before the file's own steps.
fn adds_beyond(file: &HfFile, pieces: usize) -> bool {
    file.added.iter().any(|(_, t)| t.id as usize >= pieces)
}

/// Checks each added token against the piece of its id and gives the
/// piece its kind: special tokens are control pieces; others are matched
/// whole before the file's steps (`general`) or are user-defined pieces.
/// An added token past the vocabulary, at the next id, becomes a piece
/// no cut makes (its score NaN): control when special, else unused,
/// decoded as its text. Gives the text decoding writes for the unknown
/// piece: decoding drops special tokens (as `decode` does by default) and
/// writes the unknown piece as its text otherwise.
fn mark_added_pieces(
    (pieces, scores): (&mut Vec<Piece>, &mut Vec<f64>),
    added: &[(String, AddedToken)],
    unk_id: Option<usize>,
    general: bool,
) -> Result<Vec<u8>> {
    let mut unk_surface = unk_id.map_or_else(Vec::new, |id| pieces[id].text.clone());
    for (place, t) in added {
        if Some(t.id as usize) == unk_id && t.special {
            unk_surface.clear();
        }
        if t.id as usize == pieces.len() && !t.text.is_empty() {
            pieces.push(Piece {
                text: t.text.as_bytes().to_vec(),
                score: 0.0,
                kind: if t.special {
                    PieceType::Control
                } else {
                    PieceType::Unused
                },
            });
            scores.push(f64::NAN);
            continue;
        }
        let Some(p) = pieces.get_mut(t.id as usize) else {
            return Err(Error::input(format!(
                "{place}: id {} is not a piece of model.vocab",
                t.id
            )));
        };
        if p.text != t.text.as_bytes() {
            return Err(Error::input(format!(
                "{place}: added token {:?} has id {}, which model.vocab gives to {:?}",
                t.text,
                t.id,
                String::from_utf8_lossy(&p.text)
            )));
        }
        if p.kind == PieceType::Normal {
            p.kind = if t.special {
                PieceType::Control
            } else if general {
                // Matched whole before the steps run, as added tokens.
                PieceType::Normal
            } else {
                PieceType::UserDefined
            };
        }
    }
    Ok(unk_surface)
}

/// What the file gives the model, whatever its pipeline.
struct ReadModel {
    pieces: Vec<Piece>,
    scores: Vec<f64>,
    byte_fallback: bool,
    unk_surface: Vec<u8>,
}

impl ReadModel {
    /// The model's spec, with `normalizer`.
    fn spec(self, normalizer: NormalizerSpec) -> (ModelSpec, Vec<f64>) {
        let spec = ModelSpec {
            pieces: self.pieces,
            algorithm: Algorithm::Unigram,
            byte_fallback: self.byte_fallback,
            split_digits: false,
            treat_whitespace_as_suffix: false,
            unk_surface: Some(self.unk_surface),
            normalizer,
        };
        (spec, self.scores)
    }
}

/// A model whose pipeline runs as the file's steps (`text`), each word
/// segmented on its own, with the added tokens matched whole before it.
fn file_pipeline(
    name: &str,
    read: ReadModel,
    mut text: HfText,
    added: Vec<(String, AddedToken)>,
) -> Result<Tokenizer> {
    let tokens: Vec<_> = added.iter().map(|(_, t)| t.clone()).collect();
    let added_normalizer = hf_pipeline::added_normalizer(&mut text, &tokens);
    let (spec, scores) = read.spec(NormalizerSpec {
        name: String::new(),
        precompiled_charsmap: Vec::new(),
        add_dummy_prefix: false,
        remove_extra_whitespaces: false,
        escape_whitespaces: false,
        prefix_unless_space: false,
    });
    let model = SpmModel::new_unknown_optional(spec)
        .map_err(|e| e.context("model"))?
        .with_exact_scores(scores)
        .with_hf_text(text)
        .with_every_piece_in_lattice();
    let added: Vec<_> = added.into_iter().map(|(_, t)| t).collect();
    let mut tok = Tokenizer::from_sentencepiece(name, model);
    tok.skip_as_the_library(&added, &added_normalizer);
    let added = (!added.is_empty()).then(|| AddedVocab::new(added, added_normalizer));
    Ok(tok.with_added(added))
}

/// A model whose pipeline of SentencePiece's own shape runs in the
/// SentencePiece normalizer: `steps`, then `charsmap` (empty for none),
/// then the Metaspace.
fn sentencepiece_model(
    read: ReadModel,
    steps: Vec<TextStep>,
    charsmap: Vec<u8>,
    prepend: bool,
    split: bool,
) -> Result<SpmModel> {
    let (spec, scores) = read.spec(NormalizerSpec {
        name: if charsmap.is_empty() {
            String::new()
        } else {
            "precompiled".into()
        },
        precompiled_charsmap: charsmap,
        add_dummy_prefix: prepend,
        remove_extra_whitespaces: false,
        escape_whitespaces: true,
        prefix_unless_space: true,
    });
    let model = SpmModel::new_unknown_optional(spec)
        .map_err(|e| e.context("model"))?
        .with_exact_scores(scores)
        .with_steps(steps)
        .with_metaspace(HfMetaspace {
            split,
            first_marks_dropped: prepend,
        })
        .with_every_piece_in_lattice();
    Ok(model)
}

fn type_of<'a>(v: &'a Value, path: &str) -> Result<&'a str> {
    v.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::input(format!("{path}: no \"type\"")))
}

fn unsupported(path: &str, kind: &str, what: &str) -> Error {
    Error::input(format!(
        "{path}: type {} is not supported with Unigram ({what})",
        quoted(kind)
    ))
}

/// The normalizer: its steps before the character map, and the map
/// (empty for none).
fn normalizer(n: &Value, path: &str) -> Result<(Vec<TextStep>, Vec<u8>)> {
    if n.is_null() {
        return Ok((Vec::new(), Vec::new()));
    }
    const WHAT: &str = "bpeek reads NFC, NFD, NFKC, NFKD, Lowercase and Precompiled (last), in a Sequence or alone, or none";
    let step = |s: TextStep| Ok((vec![s], Vec::new()));
    match type_of(n, path)? {
        "NFC" => step(TextStep::Nfc),
        "NFD" => step(TextStep::Nfd),
        "NFKC" => step(TextStep::Nfkc),
        "NFKD" => step(TextStep::Nfkd),
        "Lowercase" => step(TextStep::Lowercase),
        "Precompiled" => {
            let text = n
                .get("precompiled_charsmap")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    Error::input(format!("{path}.precompiled_charsmap: expected base64 text"))
                })?;
            let map = base64::engine::general_purpose::STANDARD
                .decode(text)
                .map_err(|e| Error::input(format!("{path}.precompiled_charsmap: {e}")))?;
            Ok((Vec::new(), map))
        }
        "Sequence" => {
            let list = n.get("normalizers").and_then(Value::as_array);
            let list =
                list.ok_or_else(|| Error::input(format!("{path}.normalizers: expected a list")))?;
            let mut map = Vec::new();
            let mut steps = Vec::new();
            for (i, step) in list.iter().enumerate() {
                let (more, got) = normalizer(step, &format!("{path}.normalizers[{i}]"))?;
                if !map.is_empty() && (!got.is_empty() || !more.is_empty()) {
                    return Err(Error::input(format!(
                        "{path}.normalizers[{i}]: a step after Precompiled is not supported (Precompiled must be last)"
                    )));
                }
                steps.extend(more);
                if !got.is_empty() {
                    map = got;
                }
            }
            Ok((steps, map))
        }
        other => Err(unsupported(path, other, WHAT)),
    }
}

/// Whether the pre-tokenizer puts a `▁` in front of the text, and
/// whether it cuts words at each `▁`.
fn pre_tokenizer(p: &Value, path: &str) -> Result<(bool, bool)> {
    const WHAT: &str = "bpeek reads Metaspace, alone or as the one step of a Sequence";
    if p.is_null() {
        return Err(Error::input(format!(
            "{path}: none; bpeek reads Unigram files with a Metaspace pre-tokenizer"
        )));
    }
    match type_of(p, path)? {
        "Metaspace" => {
            metaspace_mark(p, path)?;
            let split = match p.get("split") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(Error::input(format!(
                        "{path}.split: {other} is not true or false"
                    )));
                }
            };
            let prepend = match p.get("prepend_scheme") {
                None | Some(Value::Null) => Ok(p
                    .get("add_prefix_space")
                    .and_then(Value::as_bool)
                    .unwrap_or(true)),
                Some(Value::String(s)) if s == "first" || s == "always" => Ok(true),
                Some(Value::String(s)) if s == "never" => Ok(false),
                Some(other) => Err(Error::input(format!(
                    "{path}.prepend_scheme: {other} is not \"first\", \"always\" or \"never\""
                ))),
            }?;
            Ok((prepend, split))
        }
        "Sequence" => match p.get("pretokenizers").and_then(Value::as_array) {
            Some(list) if list.len() == 1 => {
                pre_tokenizer(&list[0], &format!("{path}.pretokenizers[0]"))
            }
            Some(list) => {
                for (i, step) in list.iter().enumerate() {
                    let kind = type_of(step, &format!("{path}.pretokenizers[{i}]"))?;
                    if kind != "Metaspace" {
                        return Err(unsupported(
                            &format!("{path}.pretokenizers[{i}]"),
                            kind,
                            WHAT,
                        ));
                    }
                }
                Err(Error::input(format!(
                    "{path}: a Sequence of {} steps is not supported with Unigram ({WHAT})",
                    list.len()
                )))
            }
            None => Err(Error::input(format!(
                "{path}.pretokenizers: expected a list"
            ))),
        },
        other => Err(unsupported(path, other, WHAT)),
    }
}

/// A Metaspace step must use `▁`.
fn metaspace_mark(p: &Value, path: &str) -> Result<()> {
    match p.get("replacement").and_then(Value::as_str) {
        None | Some(SPACE_MARK) => Ok(()),
        Some(other) => Err(Error::input(format!(
            "{path}.replacement: {} is not supported (bpeek reads \"\u{2581}\")",
            quoted(other)
        ))),
    }
}

/// The decoder: `Metaspace`, alone or in a `Sequence` of them. No decoder
/// (the library then joins the pieces with spaces, `▁` as it is) and an
/// empty `Sequence` (pieces joined as they are) run as the file's steps.
fn decoder(d: &Value, path: &str) -> Result<()> {
    const WHAT: &str = "bpeek reads Metaspace here";
    if d.is_null() {
        return Err(unsupported(path, "none", WHAT));
    }
    match type_of(d, path)? {
        "Metaspace" => metaspace_mark(d, path),
        "Sequence" => {
            let list = d
                .get("decoders")
                .and_then(Value::as_array)
                .ok_or_else(|| Error::input(format!("{path}.decoders: expected a list")))?;
            if list.is_empty() {
                return Err(unsupported(path, "empty Sequence", WHAT));
            }
            for (i, step) in list.iter().enumerate() {
                decoder(step, &format!("{path}.decoders[{i}]"))?;
            }
            Ok(())
        }
        other => Err(unsupported(path, other, WHAT)),
    }
}
