//! Reading tokenizers made elsewhere: tiktoken rank files, GPT-2's
//! `encoder.json` + `vocab.bpe`, and Hugging Face `tokenizer.json` files
//! whose model is byte-level BPE.

use crate::TokenId;
use crate::decode::ByteLevelChain;
use crate::encoder::{SpecialToken, Tokenizer};
use crate::error::{Error, Result, quoted};
use crate::formats::byte_unicode;
use crate::formats::hf_export;
use crate::formats::hf_fields::vocab_ids;
use crate::formats::hf_file::HfFile;
use crate::formats::hf_pipeline;
use crate::formats::limits::{self, MAX_IMPORTED_TOKEN_BYTES, VocabBudget};
use crate::formats::rank_lines;
use crate::normalize::added::{AddedToken, AddedVocab, Normalizer};
use crate::pretokenize::hf_pretok::PreStep;
use crate::pretokenize::hf_text::HfText;
use crate::pretokenize::pretok::{CL100K_PATTERN, Digits, Pretok};
use rustc_hash::FxHashMap;
use serde_json::Value;

/// A `.tiktoken` file: one `BASE64 RANK` per line, read as tiktoken reads
/// it (see [`rank_lines`]). Rank files carry no pre-tokenizer, so the
/// caller names one. An empty token (Whisper's last line, `= 50256`)
/// leaves its rank unused.
pub fn tiktoken(name: &str, text: &str, pretok: Pretok) -> Result<Tokenizer> {
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    // The line that gave each rank, to name both lines of a rank given twice.
    let mut given_on: Vec<usize> = Vec::new();
    let mut budget = VocabBudget::default();
    for entry in rank_lines::read(text)? {
        let line_no = entry.line_no;
        let rank = limits::id(entry.rank, || format!("line {line_no}"))? as usize;
        budget.add(entry.bytes.len(), MAX_IMPORTED_TOKEN_BYTES, || {
            format!("line {line_no}")
        })?;
        if tokens.len() <= rank {
            tokens.resize(rank + 1, Vec::new());
            given_on.resize(rank + 1, 0);
        }
        if given_on[rank] != 0 {
            return Err(Error::input(format!(
                "line {line_no}: rank {rank} is given twice (line {} gave it first)",
                given_on[rank]
            )));
        }
        given_on[rank] = line_no;
        tokens[rank] = entry.bytes;
    }
    if tokens.iter().all(Vec::is_empty) {
        return Err(Error::input("no ranks in the file"));
    }
    Tokenizer::from_ranks(name, tokens, pretok, Vec::new())
}

/// GPT-2's `encoder.json` (token string -> id) and `vocab.bpe` (merges).
pub fn gpt2_files(name: &str, encoder_json: &str, vocab_bpe: &str) -> Result<Tokenizer> {
    let encoder_json = encoder_json
        .strip_prefix('\u{feff}')
        .unwrap_or(encoder_json);
    let vocab_bpe = vocab_bpe.strip_prefix('\u{feff}').unwrap_or(vocab_bpe);
    let encoder: serde_json::Map<String, Value> = serde_json::from_str(encoder_json)
        .map_err(|e| Error::input(format!("encoder.json: malformed JSON: {e}")))?;
    let mut vocab = vocab_ids(&encoder, "encoder.json")?;
    let mut merges = Vec::new();
    for (i, line) in vocab_bpe.lines().enumerate() {
        if i == 0 && line.starts_with("#version") || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(' ');
        let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(Error::input(format!(
                "vocab.bpe line {}: expected two tokens separated by a space",
                i + 1
            )));
        };
        merges.push((
            a.to_string(),
            b.to_string(),
            format!("vocab.bpe line {}", i + 1),
        ));
    }
    let specials = take_specials(&mut vocab, |t| t == "<|endoftext|>");
    byte_level(
        name,
        vocab,
        merges,
        Pretok::Gpt2,
        specials,
        false,
        Lenient::No,
    )
}

/// A Hugging Face `tokenizer.json`, of any family bpeek reads, with its
/// template.
pub fn hugging_face(name: &str, doc: &Value) -> Result<Tokenizer> {
    crate::formats::hf_file::read(name, doc)
}

/// A Hugging Face byte-level BPE file.
pub(crate) fn byte_level_bpe(name: &str, file: HfFile) -> Result<Tokenizer> {
    let model = file.model;
    refuse_id_changing_parts(&file)?;
    let text = byte_level_text(&file)?;
    let vocab_obj = model
        .get("vocab")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::input("model.vocab is missing or not an object"))?;
    let mut vocab = vocab_ids(vocab_obj, "model.vocab")?;
    let merges = hf_merges(model)?;
    let added = file.added;
    let specials = hf_specials(&mut vocab, &added)?;
    let whole = model
        .get("ignore_merges")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut tok = byte_level(
        name,
        vocab,
        merges,
        text.pretok,
        specials,
        whole,
        Lenient::MissingBytes,
    )?;
    tok.set_digits(text.digits);
    tok.set_decoder_after_bytes(decoder_after_bytes(file.decoder)?);
    if let Some(list) = text.patterns {
        // Oniguruma's classes, as the library reads the patterns.
        let list = list
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let path = format!("pre_tokenizer: split pattern {i}");
                crate::formats::regex_check::oniguruma_source(p, &path)
            })
            .collect::<Result<Vec<String>>>()?;
        let list: Vec<&str> = list.iter().map(String::as_str).collect();
        tok.set_split(crate::pretokenize::regex_split::RegexChain::new(
            "pre_tokenizer",
            &list,
        )?);
    }
    let mut normalizer = text.normalizer;
    if let Some(mut steps) = text.steps {
        let tokens: Vec<_> = added.iter().map(|(_, t)| t.clone()).collect();
        normalizer = hf_pipeline::added_normalizer(&mut steps, &tokens);
        tok.set_hf_text(steps);
    }
    let tokens: Vec<_> = added.iter().map(|(_, t)| t.clone()).collect();
    tok.skip_as_the_library(&tokens, &normalizer);
    if !added.is_empty() || normalizer != Normalizer::None {
        tok.set_added(AddedVocab::new(
            added.into_iter().map(|(_, t)| t).collect(),
            normalizer,
        ));
    }
    Ok(tok)
}

/// How a byte-level file's text is normalized and cut before BPE: by
/// bpeek's fast paths, or (`steps`) as the file's own steps.
struct ByteLevelText {
    normalizer: Normalizer,
    pretok: Pretok,
    digits: Digits,
    /// `Split` patterns to run as written.
    patterns: Option<Vec<String>>,
    steps: Option<HfText>,
}

/// The normalizer and pre-tokenizer of a byte-level file: NFC and
/// ByteLevel after Split steps have fast paths; any other normalizer and
/// pre-tokenizer runs as the file's steps, which must write bytes as
/// ByteLevel does.
fn byte_level_text(file: &HfFile) -> Result<ByteLevelText> {
    let fast = (
        hf_normalizer(file.normalizer),
        hf_pretok(file.pre_tokenizer),
    );
    let text = |normalizer, pretok, digits, patterns, steps| ByteLevelText {
        normalizer,
        pretok,
        digits,
        patterns,
        steps,
    };
    Ok(match fast {
        (Ok(n), Ok(HfCut::Known(p, d))) => text(n, p, d, None, None),
        (Ok(n), Ok(HfCut::Patterns(list))) => text(n, Pretok::None, Digits::Keep, Some(list), None),
        _ => {
            let steps = hf_pipeline::read_text(file, "byte-level BPE")?;
            if !steps
                .pre_tokenizer
                .iter()
                .any(|s| matches!(s, PreStep::ByteLevel { .. }))
            {
                return Err(Error::input(
                    "pre_tokenizer: no ByteLevel step; bpeek reads byte-level BPE whose pre-tokenizer writes bytes as ByteLevel does",
                ));
            }
            text(
                Normalizer::None,
                Pretok::None,
                Digits::Keep,
                None,
                Some(steps),
            )
        }
    })
}

/// `model.merges`, each with its place for errors.
fn hf_merges(model: &Value) -> Result<Vec<(String, String, String)>> {
    let raw_merges = model
        .get("merges")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::input("model.merges is missing or not a list"))?;
    let mut merges = Vec::with_capacity(raw_merges.len());
    for (i, m) in raw_merges.iter().enumerate() {
        let (a, b) = crate::formats::hf_char_bpe::merge_pair(m, i)?;
        merges.push((a, b, format!("model.merges[{i}]")));
    }
    Ok(merges)
}

/// The added tokens that are not ordinary tokens, as special tokens: a
/// special token also written in `vocab` with the same id leaves it. An
/// added token's id must be its id in `vocab`, and no ordinary token's.
fn hf_specials(
    vocab: &mut FxHashMap<String, TokenId>,
    added: &[(String, AddedToken)],
) -> Result<Vec<SpecialToken>> {
    let mut specials = Vec::with_capacity(added.len());
    for (place, token) in added {
        let (text, id) = (&token.text, token.id);
        match vocab.get(text) {
            // A special token written in the vocabulary too, with the same id.
            Some(&own) if own == id && token.special => {
                vocab.remove(text);
            }
            // An added token that is an ordinary token already.
            Some(&own) if own == id => continue,
            Some(&own) => {
                return Err(Error::input(format!(
                    "{place}: added token {text:?} has id {id}, but model.vocab gives it id {own}"
                )));
            }
            None => {}
        }
        specials.push(SpecialToken {
            text: text.clone(),
            id,
        });
    }
    let ordinary: FxHashMap<TokenId, &String> = vocab.iter().map(|(t, &i)| (i, t)).collect();
    for s in &specials {
        if let Some(token) = ordinary.get(&s.id) {
            return Err(Error::input(format!(
                "added_tokens: {:?} has id {}, which is the id of the ordinary token {token:?}",
                s.text, s.id
            )));
        }
    }
    Ok(specials)
}

/// How a byte-level file decodes: nothing more for a `ByteLevel` decoder;
/// for a `Sequence` that starts with `ByteLevel`, the rest of its steps on
/// the text the bytes make (which the library ends with that text as one
/// token); for any other decoder, every step on the tokens' byte-level
/// spellings (`ByteLevel` among them where it comes later), and with no
/// decoder those spellings joined by spaces, as the library joins them.
fn decoder_after_bytes(d: &Value) -> Result<ByteLevelChain> {
    let name = d.get("type").and_then(Value::as_str);
    let list = d.get("decoders").and_then(Value::as_array);
    let kind = |s: &Value| s.get("type").and_then(Value::as_str) == Some("ByteLevel");
    let on_tokens = |steps| ByteLevelChain {
        steps,
        on_tokens: true,
    };
    match (d, name, list) {
        (Value::Null, ..) => Ok(on_tokens(Vec::new())),
        (_, Some("ByteLevel"), _) => Ok(ByteLevelChain {
            steps: Vec::new(),
            on_tokens: false,
        }),
        (_, Some("Sequence"), Some(list))
            if list.first().is_some_and(kind) && !list[1..].iter().any(kind) =>
        {
            let mut steps = Vec::new();
            for (i, s) in list.iter().enumerate().skip(1) {
                let path = format!("decoder.decoders[{i}]");
                hf_pipeline::decoder(s, &path, "byte-level BPE", &mut steps)?;
            }
            Ok(ByteLevelChain {
                steps,
                on_tokens: false,
            })
        }
        (_, Some("Sequence"), Some(list)) => {
            let mut steps = Vec::new();
            for (i, s) in list.iter().enumerate() {
                let path = format!("decoder.decoders[{i}]");
                if kind(s) {
                    steps.push(crate::decode::steps::DecodeStep::ByteLevel);
                } else {
                    hf_pipeline::decoder(s, &path, "byte-level BPE", &mut steps)?;
                }
            }
            // An empty chain still joins the tokens with nothing between.
            if steps.is_empty() {
                steps.push(crate::decode::steps::DecodeStep::Fuse);
            }
            Ok(on_tokens(steps))
        }
        _ => Ok(on_tokens(hf_pipeline::decoder_steps(
            d,
            "decoder",
            "byte-level BPE",
        )?)),
    }
}

/// Refuse the parts of a Hugging Face file that would change the ids bpeek
/// computes, rather than silently ignore them.
fn refuse_id_changing_parts(file: &HfFile) -> Result<()> {
    let model = file.model;
    decoder_after_bytes(file.decoder)?;
    for field in ["continuing_subword_prefix", "end_of_word_suffix"] {
        if let Some(v) = model.get(field).and_then(Value::as_str)
            && !v.is_empty()
        {
            return Err(Error::input(format!(
                "model.{field} {} is not supported: it changes the tokens, and bpeek does not apply it",
                quoted(v)
            )));
        }
    }
    if model
        .get("dropout")
        .and_then(Value::as_f64)
        .is_some_and(|d| d > 0.0)
    {
        return Err(Error::input(
            "model.dropout is not supported: it makes the ids random, and bpeek encodes exactly",
        ));
    }
    Ok(())
}

/// The normalizer of a Hugging Face file, if bpeek applies it: none, an
/// empty `Sequence`, or NFC (alone or as the only kind of step).
fn hf_normalizer(n: &Value) -> Result<Normalizer> {
    if n.is_null() {
        return Ok(Normalizer::None);
    }
    let name = n.get("type").and_then(Value::as_str).unwrap_or("unnamed");
    let steps: Vec<&str> = n
        .get("normalizers")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|s| s.get("type").and_then(Value::as_str).unwrap_or("unnamed"))
                .collect()
        })
        .unwrap_or_default();
    match (name, steps.as_slice()) {
        ("NFC", _) => return Ok(Normalizer::Nfc),
        ("Sequence", []) => return Ok(Normalizer::None),
        ("Sequence", steps) if steps.iter().all(|s| *s == "NFC") => return Ok(Normalizer::Nfc),
        _ => {}
    }
    let named = if steps.is_empty() {
        quoted(name)
    } else {
        format!("{} ({})", quoted(name), steps.join(", "))
    };
    Err(Error::input(format!(
        "normalizer {named} is not supported: it changes the text before it is tokenized, and bpeek does not apply it (files load without a normalizer or with NFC)"
    )))
}

/// HF's own spelling of the GPT-2 pattern (ByteLevel's built-in one). It
/// cuts as GPT-2's: its `\s+` tail is reached only where `\s` would match
/// the same single character.
const HF_GPT2_PATTERN: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

/// The pre-tokenizer whose cuts a `Split` pattern makes in HF, read the way
/// HF's regex engine reads it.
fn known_split(pattern: &str) -> Option<Pretok> {
    if pattern == HF_GPT2_PATTERN {
        return Some(Pretok::Gpt2);
    }
    if pattern == CL100K_PATTERN {
        // tiktoken's spelling: HF reads `\p{N}{1,3}+` as runs of any length.
        return Some(Pretok::Cl100kHf);
    }
    Pretok::ALL
        .into_iter()
        .find(|&p| hf_export::hf_pattern(p).as_deref() == Some(pattern))
}

/// A digit rule written as a `Split` (the way `train --out-format hf`
/// writes one).
fn known_digit_split(pattern: &str) -> Option<Digits> {
    match pattern {
        "[0-9]" => Some(Digits::Single),
        "[0-9]{1,3}" => Some(Digits::Groups3),
        _ => None,
    }
}

/// How a Hugging Face byte-level file cuts text: one of bpeek's own
/// pre-tokenizers (and a digit rule), or its `Split` patterns as written,
/// when one of them is not a pattern bpeek has a fast path for.
enum HfCut {
    Known(Pretok, Digits),
    Patterns(Vec<String>),
}

/// The pre-tokenizer a Hugging Face file describes.
fn hf_pretok(p: &Value) -> Result<HfCut> {
    let mut cut = CutReader::default();
    for (i, step) in pretok_steps(p)?.iter().enumerate() {
        let place = format!("pre_tokenizer step {i}");
        match step.get("type").and_then(Value::as_str) {
            Some("Split") => cut.split(step, &place)?,
            Some("ByteLevel") => cut.byte_level(p, step, &place)?,
            Some(other) => {
                return Err(Error::input(format!(
                    "{place}: {} is not supported",
                    quoted(other)
                )));
            }
            None => {}
        }
    }
    cut.finish()
}

/// The steps of a pre-tokenizer: itself if ByteLevel, or a Sequence's.
fn pretok_steps(p: &Value) -> Result<Vec<Value>> {
    let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "ByteLevel" => Ok(vec![p.clone()]),
        "Sequence" => Ok(p
            .get("pretokenizers")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()),
        "" => Err(Error::input(
            "pre_tokenizer is missing: only byte-level BPE is supported",
        )),
        other => Err(Error::input(format!(
            "pre_tokenizer {} is not supported: bpeek reads byte-level BPE (ByteLevel)",
            quoted(other)
        ))),
    }
}

/// What the pre-tokenizer's steps have said so far.
#[derive(Default)]
struct CutReader {
    pretok: Option<Pretok>,
    digits: Digits,
    byte_level: bool,
    patterns: Vec<String>,
    /// A pattern with no fast path: all run as written (see regex_split).
    unknown: bool,
}

impl CutReader {
    /// A `Split` step: an isolating Regex, before ByteLevel.
    fn split(&mut self, step: &Value, place: &str) -> Result<()> {
        if self.byte_level {
            return Err(Error::input(format!(
                "{place}: a Split after ByteLevel is not supported"
            )));
        }
        let pattern = split_pattern(step, place)?;
        self.patterns.push(pattern.to_string());
        if self.pretok.is_none()
            && self.digits == Digits::Keep
            && let Some(known) = known_split(pattern)
        {
            self.pretok = Some(known);
        } else if self.digits == Digits::Keep
            && let Some(d) = known_digit_split(pattern)
        {
            self.digits = d;
        } else {
            // Any other pattern runs as written (see regex_split).
            self.unknown = true;
        }
        Ok(())
    }

    /// A `ByteLevel` step of pre-tokenizer `p`: with no prefix space, and
    /// cutting by its regex only where no Split cut before.
    fn byte_level(&mut self, p: &Value, step: &Value, place: &str) -> Result<()> {
        if p.get("add_prefix_space").and_then(Value::as_bool) == Some(true)
            || step.get("add_prefix_space").and_then(Value::as_bool) == Some(true)
        {
            return Err(Error::input(
                "pre_tokenizer: ByteLevel with add_prefix_space is not supported",
            ));
        }
        if step.get("use_regex").and_then(Value::as_bool) != Some(false) {
            if self.pretok.is_some() || self.digits != Digits::Keep {
                return Err(Error::input(format!(
                    "{place}: ByteLevel with use_regex after a Split cuts twice, which bpeek does not do"
                )));
            }
            self.pretok = Some(Pretok::Gpt2);
        }
        self.byte_level = true;
        Ok(())
    }

    fn finish(self) -> Result<HfCut> {
        if !self.byte_level {
            return Err(Error::input(
                "pre_tokenizer: not byte-level (no ByteLevel step)",
            ));
        }
        if self.unknown {
            return Ok(HfCut::Patterns(self.patterns));
        }
        Ok(HfCut::Known(
            self.pretok.unwrap_or(Pretok::None),
            self.digits,
        ))
    }
}

/// The Regex of a `Split` step that keeps every piece ("Isolated", not
/// inverted).
fn split_pattern<'a>(step: &'a Value, place: &str) -> Result<&'a str> {
    let behavior = step.get("behavior").and_then(Value::as_str).unwrap_or("");
    let invert = step.get("invert").and_then(Value::as_bool) == Some(true);
    if behavior != "Isolated" || invert {
        return Err(Error::input(format!(
            "{place}: Split with behavior {}{} is not supported (only \"Isolated\", which keeps every piece)",
            quoted(behavior),
            if invert { " and invert" } else { "" }
        )));
    }
    step.pointer("/pattern/Regex")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Error::input(format!(
                "{place}: only a Split with a Regex pattern is supported, not {}",
                step.get("pattern")
                    .map(Value::to_string)
                    .unwrap_or_default()
            ))
        })
}

/// Move the tokens that `is_special` picks out of the vocabulary.
fn take_specials(
    vocab: &mut FxHashMap<String, TokenId>,
    is_special: impl Fn(&str) -> bool,
) -> Vec<SpecialToken> {
    let texts: Vec<String> = vocab.keys().filter(|t| is_special(t)).cloned().collect();
    let mut specials: Vec<SpecialToken> = texts
        .into_iter()
        .map(|t| {
            let id = vocab.remove(&t).unwrap_or_default();
            SpecialToken { text: t, id }
        })
        .collect();
    specials.sort_by_key(|s| s.id);
    specials
}

/// How [`byte_level`] takes a vocabulary that is not a whole byte-level one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lenient {
    /// Every byte has a token and every token is byte-level text.
    No,
    /// Bytes the vocabulary has no token for are dropped from the text
    /// before merging, so their neighbours can merge (Hugging Face files
    /// trained without `initial_alphabet`, as the library reads them).
    MissingBytes,
    /// As [`Lenient::MissingBytes`], and a token not written in byte-level
    /// characters can never be made and is left out (GGUF files, as
    /// llama.cpp reads them).
    Gguf,
}

/// Build a tokenizer from byte-level vocabulary strings and string merges,
/// as lenient as `lenient` says.
pub fn byte_level(
    name: &str,
    vocab: FxHashMap<String, TokenId>,
    merges: Vec<(String, String, String)>,
    pretok: Pretok,
    specials: Vec<SpecialToken>,
    whole_words: bool,
    lenient: Lenient,
) -> Result<Tokenizer> {
    let size = vocab.values().map(|&i| i as usize + 1).max().unwrap_or(0);
    let mut tokens = vec![Vec::new(); size];
    for (text, &id) in &vocab {
        if lenient == Lenient::Gguf && byte_unicode::decode(text).is_err() {
            continue;
        }
        let bytes = byte_unicode::decode(text).map_err(|c| {
            Error::input(format!(
                "token {text:?} (id {id}) has {c:?}, which is not a byte-level character"
            ))
        })?;
        if bytes.is_empty() {
            return Err(Error::input(format!("token id {id} is empty")));
        }
        tokens[id as usize] = bytes;
    }
    let mut pairs = Vec::with_capacity(merges.len());
    for (i, (a, b, place)) in merges.into_iter().enumerate() {
        let id = |s: &str| {
            vocab.get(s).copied().ok_or_else(|| {
                let place = if place.is_empty() {
                    format!("merges[{i}]")
                } else {
                    place.clone()
                };
                Error::input(format!("{place}: token {s:?} is not in the vocabulary"))
            })
        };
        pairs.push((id(&a)?, id(&b)?));
    }
    let missing_bytes_ok = lenient != Lenient::No;
    Tokenizer::from_merge_list_with(
        name,
        tokens,
        &pairs,
        pretok,
        specials,
        whole_words,
        missing_bytes_ok,
    )
}
