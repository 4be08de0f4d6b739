//! Decoding: ids back to the bytes they stand for. Each model decodes its
//! own pieces (SentencePiece's marks, WordPiece's `##`, a character BPE's
//! decoder chain, see [`steps`]); byte-level ranks concatenate bytes.

pub mod steps;

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::error::{Error, Result};
use crate::formats::byte_unicode;
use crate::model::Model;
use crate::names::Mode;
use crate::normalize::added::{AddedToken, AddedVocab, Normalizer};
use crate::vocab::{CONTINUING, END_OF_WORD};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::sync::Arc;

/// A byte-level file's decoder: a `Sequence` with `ByteLevel` first runs
/// the rest of its steps on the text the bytes make (`on_tokens` false);
/// any other decoder runs all its steps on the tokens' byte-level
/// spellings, as the library runs them (no steps: no decoder, the
/// spellings joined by spaces).
#[derive(Debug, Clone, PartialEq)]
pub struct ByteLevelChain {
    pub steps: Vec<steps::DecodeStep>,
    pub on_tokens: bool,
}

/// What decoding does with special tokens, by the format a tokenizer
/// came from.
#[derive(Debug, Clone, PartialEq)]
pub enum SpecialDecoding {
    /// The ids decoding leaves out unless asked to keep them, as the
    /// library's `decode(ids, skip_special_tokens=True)` leaves them out
    /// (Hugging Face files); every other id, special or not, decodes
    /// through the model. Empty for formats whose reference writes every
    /// token (tiktoken's `decode`).
    Skips(Arc<FxHashSet<TokenId>>),
    /// The model leaves out its own control tokens and no reference
    /// library offers to keep them: keeping them is refused, saying why.
    ModelOwn(&'static str),
}

impl Default for SpecialDecoding {
    fn default() -> Self {
        SpecialDecoding::Skips(Arc::default())
    }
}

/// The added tokens the library's `decode` leaves out by default. It
/// looks each token up by the text it decodes as, which for a token
/// matched after normalizing is its normalized text: a special token
/// `[Mask]` behind Lowercase decodes as `[mask]`, which is no special
/// token's text, and so is kept; `normalize` gives that text.
pub fn skipped_by_default<'a>(
    tokens: impl IntoIterator<Item = &'a AddedToken> + Clone,
    normalize: impl Fn(&str) -> String,
) -> FxHashSet<TokenId> {
    let special_texts: FxHashSet<&str> = tokens
        .clone()
        .into_iter()
        .filter(|t| t.special)
        .map(|t| t.text.as_str())
        .collect();
    tokens
        .into_iter()
        .filter(|t| {
            let decoded = match t.normalized {
                true => normalize(&t.text),
                false => t.text.clone(),
            };
            special_texts.contains(decoded.as_str())
        })
        .map(|t| t.id)
        .collect()
}

impl Tokenizer {
    /// The bytes the ids stand for, concatenated (char mode: words joined by
    /// single spaces), special tokens left out where the format's
    /// reference leaves them out by default.
    pub fn decode_bytes(&self, ids: &[TokenId]) -> Result<Vec<u8>> {
        self.decode_bytes_with(ids, true)
    }

    /// [`Tokenizer::decode_bytes`], with `skip_special_tokens` false
    /// keeping the special tokens, as the library's `decode(ids,
    /// skip_special_tokens=False)` keeps them (an error for a format whose
    /// model leaves them out with no way to keep them).
    pub fn decode_bytes_with(&self, ids: &[TokenId], skip_special_tokens: bool) -> Result<Vec<u8>> {
        for (i, &id) in ids.iter().enumerate() {
            if !self.contains(id) {
                return Err(Error::input(format!(
                    "id {id} (argument {}) is out of range: this tokenizer has ids 0-{}",
                    i + 1,
                    self.id_limit().saturating_sub(1)
                )));
            }
        }
        let kept: Cow<[TokenId]> = match (&self.special_decoding, skip_special_tokens) {
            (SpecialDecoding::Skips(skips), true) if !skips.is_empty() => Cow::Owned(
                ids.iter()
                    .copied()
                    .filter(|id| !skips.contains(id))
                    .collect(),
            ),
            (SpecialDecoding::ModelOwn(why), false) => {
                return Err(Error::input(format!(
                    "keeping special tokens when decoding is not supported for {why}"
                )));
            }
            _ => Cow::Borrowed(ids),
        };
        let own_specials = matches!(self.special_decoding, SpecialDecoding::ModelOwn(_));
        Ok(self.decode_kept(&kept, own_specials))
    }

    /// Whether decoding can keep special tokens: `None` where it can, the
    /// reason where the format cannot.
    pub fn keep_special_refused(&self) -> Option<&'static str> {
        match self.special_decoding {
            SpecialDecoding::ModelOwn(why) => Some(why),
            SpecialDecoding::Skips(_) => None,
        }
    }

    /// Set what decoding does with special tokens.
    pub fn set_special_decoding(&mut self, how: SpecialDecoding) {
        self.special_decoding = how;
    }

    /// Leave out, by default, the added `tokens` a Hugging Face file's
    /// `decode` leaves out, their text normalized by `normalizer` where
    /// they are matched normalized (see [`skipped_by_default`]).
    pub(crate) fn skip_as_the_library(&mut self, tokens: &[AddedToken], normalizer: &Normalizer) {
        let skips = skipped_by_default(tokens, |t| normalizer.apply(t).into_owned());
        self.special_decoding = SpecialDecoding::Skips(Arc::new(skips));
    }

    /// The bytes of ids already checked, with nothing more left out than
    /// the model's own control tokens when `own_specials`.
    fn decode_kept(&self, ids: &[TokenId], own_specials: bool) -> Vec<u8> {
        // The library decodes an added token matched after normalizing as
        // its normalized text (`Hello` behind a Prepend("▁") is `▁Hello`).
        let normalized: FxHashMap<TokenId, String> = match self.added.hf() {
            Some(added) => added
                .tokens()
                .iter()
                .filter(|t| t.normalized)
                .map(|t| (t.id, added.normalizer().apply(&t.text).into_owned()))
                .collect(),
            None => FxHashMap::default(),
        };
        let bytes_of = |id| match normalized.get(&id) {
            Some(text) => text.as_bytes().to_vec(),
            None => self.bytes_of(id).to_vec(),
        };
        match &self.model {
            Model::SentencePiece(m) => m.decode(ids, own_specials, bytes_of),
            Model::WordPiece(m) => m.decode(ids, own_specials, bytes_of),
            Model::CharBpe(m) => m.decode(ids, bytes_of),
            Model::Ranks(_) => {
                if let Some(chain) = self.after_bytes.as_deref()
                    && chain.on_tokens
                {
                    let tokens = self.byte_level_tokens(ids, own_specials);
                    return steps::run(&chain.steps, tokens).into_bytes();
                }
                let bytes = match self.added.hf() {
                    Some(added) if self.mode() == Mode::Byte => {
                        self.concatenate_hf(ids, added, own_specials)
                    }
                    _ => self.concatenate(ids),
                };
                match &self.after_bytes {
                    // The library's ByteLevel decoder hands on the text
                    // the bytes make (lossily) as one token.
                    Some(after) => {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        steps::run(&after.steps, vec![text]).into_bytes()
                    }
                    None => bytes,
                }
            }
        }
    }

    /// Decode a byte-level file through `chain` (none for a lone
    /// `ByteLevel` decoder, which joins the bytes).
    pub fn set_decoder_after_bytes(&mut self, chain: ByteLevelChain) {
        let joins_bytes = chain.steps.is_empty() && !chain.on_tokens;
        self.after_bytes = (!joins_bytes).then(|| std::sync::Arc::new(chain));
    }

    /// Whether a byte-level file's decoder does more than join the bytes
    /// (steps after or instead of `ByteLevel`, or no decoder at all), so
    /// that decoding need not give back the text's bytes.
    pub fn decodes_through_steps(&self) -> bool {
        self.after_bytes.is_some()
    }

    /// The texts of `ids` as the library hands them to its decoder: a
    /// model token as its byte-level spelling, an added token as its text
    /// (normalized first when it is matched normalized); special tokens
    /// are left out with `own_specials`.
    fn byte_level_tokens(&self, ids: &[TokenId], own_specials: bool) -> Vec<String> {
        let added = self.added.hf();
        let by_id: FxHashMap<TokenId, &AddedToken> = added
            .map(|a| a.tokens().iter().map(|t| (t.id, t)).collect())
            .unwrap_or_default();
        let alphabet = byte_unicode::byte_chars();
        let mut out = Vec::with_capacity(ids.len());
        for &id in ids {
            match (by_id.get(&id), added) {
                (Some(t), _) if own_specials && t.special => {}
                (Some(t), Some(added)) if t.normalized => {
                    out.push(added.normalizer().apply(&t.text).into_owned())
                }
                (Some(t), _) => out.push(t.text.clone()),
                (None, _) if own_specials && self.describe_is_special(id) => {}
                (None, _) => out.push(
                    self.bytes_of(id)
                        .iter()
                        .map(|&b| alphabet[b as usize])
                        .collect(),
                ),
            }
        }
        out
    }

    /// A Hugging Face byte-level file, decoded as the library's `decode`
    /// does (the tokens it leaves out already left out, or with
    /// `own_specials` the special tokens, as GGUF files leave their
    /// control tokens out): an added token stands
    /// for its text (normalized first when it is matched normalized), read
    /// through the byte-level alphabet when every character of it is in
    /// that alphabet, else as its own UTF-8 (so `naïve` gives `na`, the
    /// lone byte 0xEF, `ve`).
    fn concatenate_hf(&self, ids: &[TokenId], added: &AddedVocab, own_specials: bool) -> Vec<u8> {
        let by_id: FxHashMap<TokenId, &AddedToken> =
            added.tokens().iter().map(|t| (t.id, t)).collect();
        let mut out = Vec::new();
        for &id in ids {
            match by_id.get(&id) {
                Some(t) if own_specials && t.special => {}
                Some(t) => {
                    let text = match t.normalized {
                        true => added.normalizer().apply(&t.text),
                        false => Cow::Borrowed(t.text.as_str()),
                    };
                    match byte_unicode::decode(&text) {
                        Ok(bytes) => out.extend_from_slice(&bytes),
                        Err(_) => out.extend_from_slice(text.as_bytes()),
                    }
                }
                None => out.extend_from_slice(&self.describe(id).bytes),
            }
        }
        out
    }

    /// The bytes of known ids, concatenated (char mode: words joined by
    /// single spaces).
    fn concatenate(&self, ids: &[TokenId]) -> Vec<u8> {
        let mut out = Vec::new();
        for &id in ids {
            let token = self.describe(id);
            if self.mode() == Mode::Char && !token.special && self.vocab.has_continuing() {
                // WordPiece's symbols: `##` joins a token to the one before;
                // any other token starts a word.
                match token.bytes.strip_prefix(CONTINUING.as_bytes()) {
                    Some(rest) => out.extend_from_slice(rest),
                    None => {
                        if !out.is_empty() {
                            out.push(b' ');
                        }
                        out.extend_from_slice(&token.bytes);
                    }
                }
            } else if self.mode() == Mode::Char && !token.special && self.vocab.ends_word(id) {
                out.extend_from_slice(&token.bytes[..token.bytes.len() - END_OF_WORD.len()]);
                out.push(b' ');
            } else {
                out.extend_from_slice(&token.bytes);
            }
        }
        if self.mode() == Mode::Char && out.last() == Some(&b' ') {
            out.pop();
        }
        out
    }

    /// Decode to text; bytes that are not valid UTF-8 are written as `<XX>`.
    pub fn decode(&self, ids: &[TokenId]) -> Result<String> {
        self.decode_with(ids, true)
    }

    /// [`Tokenizer::decode`], keeping special tokens when
    /// `skip_special_tokens` is false (see [`Tokenizer::decode_bytes_with`]).
    pub fn decode_with(&self, ids: &[TokenId], skip_special_tokens: bool) -> Result<String> {
        let bytes = self.decode_bytes_with(ids, skip_special_tokens)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => crate::display::token_text(e.as_bytes()),
        })
    }
}
