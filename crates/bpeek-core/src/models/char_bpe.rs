//! BPE by merge rank on characters, with byte fallback: the model of
//! Gemma 4's GGUF files (`tokenizer.ggml.model` `gemma4`). Spaces are
//! written `▁`; the text is cut into runs of newlines and runs of anything
//! else (a run of newlines that is itself a token is taken whole); each
//! piece starts as its characters (a character with no token as its UTF-8
//! bytes, the pieces `<0x00>`..`<0xFF>`), and the adjacent pair with the
//! lowest merge rank merges first, as Hugging Face's BPE model does.
//!
//! The same model reads Hugging Face `tokenizer.json` files of BPE on
//! characters (Llama 2, Mistral): there the text goes through the file's
//! normalizer and Metaspace pre-tokenizer ([`HfText`]) instead, a
//! character with no token and no byte tokens is the unknown token
//! (consecutive ones fused into one if the file says so), and ids go back
//! to text through the file's decoder chain.

use crate::error::{Error, Result};
use crate::merge::apply_ranked;
use crate::models::spm::byte_of_piece;
use crate::pretokenize::hf_text::HfText;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// `▁`, U+2581, which stands for a space in tokens.
const SPACE: &str = "\u{2581}";

#[derive(Debug, Clone)]
pub struct CharBpe {
    /// Each id's text (`▁` as it is).
    texts: Vec<String>,
    ids: FxHashMap<String, TokenId>,
    ranks: FxHashMap<Pair, (u32, TokenId)>,
    /// The id of each byte's `<0xNN>` token.
    byte_ids: Vec<Option<TokenId>>,
    /// Tokens never made from text (control tokens).
    silent: Vec<bool>,
    /// How a Hugging Face file cuts and decodes text, when it is one.
    hf: Option<Box<HfModel>>,
}

/// What a Hugging Face file adds to the model.
#[derive(Debug, Clone)]
pub struct HfModel {
    pub text: HfText,
    /// The unknown token, for a character with no token and no bytes.
    pub unk: Option<TokenId>,
    /// Consecutive unknown characters as one unknown token.
    pub fuse_unk: bool,
    /// A word that is a token is taken whole, before any merge.
    pub ignore_merges: bool,
    /// A character with no token goes as its byte tokens.
    pub byte_fallback: bool,
    /// Put before each character of a word but the first
    /// (`continuing_subword_prefix`).
    pub prefix: String,
    /// Put after the last character of a word (`end_of_word_suffix`).
    pub suffix: String,
    /// Added tokens matched after normalizing, decoded as their normalized
    /// text, as the library decodes them (`Hello` behind a Prepend("▁")
    /// is `▁Hello`, a space when decoded).
    pub decoded_as: FxHashMap<TokenId, String>,
}

impl CharBpe {
    /// Build from each id's text, which ids are byte tokens and which are
    /// silent, and merges `LEFT RIGHT` in rank order; `field` names the
    /// merges in errors.
    pub fn new(
        texts: Vec<String>,
        is_byte: &[bool],
        silent: Vec<bool>,
        merges: &[String],
        field: &str,
    ) -> Result<CharBpe> {
        let mut ids = FxHashMap::with_capacity_and_hasher(texts.len(), Default::default());
        let mut byte_ids = vec![None; 256];
        for (i, t) in texts.iter().enumerate() {
            if is_byte.get(i).copied().unwrap_or(false) {
                if let Some(b) = byte_of_piece(t.as_bytes()) {
                    byte_ids[b as usize] = Some(i as TokenId);
                }
                continue;
            }
            if !t.is_empty() && !silent.get(i).copied().unwrap_or(false) {
                ids.entry(t.clone()).or_insert(i as TokenId);
            }
        }
        let mut pairs = Vec::with_capacity(merges.len());
        for (rank, m) in merges.iter().enumerate() {
            let cut = m
                .char_indices()
                .skip(1)
                .find(|&(_, c)| c == ' ')
                .map(|(at, _)| at);
            let Some(at) = cut else {
                return Err(Error::input(format!(
                    "{field}[{rank}]: not two tokens separated by a space"
                )));
            };
            pairs.push((&m[..at], &m[at + 1..]));
        }
        Self::from_pairs(texts, ids, byte_ids, silent, &pairs, 0, field)
    }

    /// Build from each id's text, which ids are byte tokens and which are
    /// silent, and merges as (left, right) in rank order; a merge makes
    /// the left text and the right one less its first `prefix_len` bytes
    /// (the continuing-subword prefix, as Hugging Face joins them).
    pub fn with_pairs(
        texts: Vec<String>,
        is_byte: &[bool],
        silent: Vec<bool>,
        merges: &[(String, String)],
        prefix_len: usize,
        field: &str,
    ) -> Result<CharBpe> {
        let mut ids = FxHashMap::with_capacity_and_hasher(texts.len(), Default::default());
        let mut byte_ids = vec![None; 256];
        for (i, t) in texts.iter().enumerate() {
            if is_byte.get(i).copied().unwrap_or(false) {
                if let Some(b) = byte_of_piece(t.as_bytes()) {
                    byte_ids[b as usize] = Some(i as TokenId);
                }
                continue;
            }
            if !t.is_empty() && !silent.get(i).copied().unwrap_or(false) {
                ids.entry(t.clone()).or_insert(i as TokenId);
            }
        }
        Self::from_pairs(texts, ids, byte_ids, silent, merges, prefix_len, field)
    }

    fn from_pairs<S: AsRef<str>>(
        texts: Vec<String>,
        ids: FxHashMap<String, TokenId>,
        byte_ids: Vec<Option<TokenId>>,
        silent: Vec<bool>,
        merges: &[(S, S)],
        prefix_len: usize,
        field: &str,
    ) -> Result<CharBpe> {
        let mut ranks = FxHashMap::with_capacity_and_hasher(merges.len(), Default::default());
        let mut joined = String::new();
        for (rank, (a, b)) in merges.iter().enumerate() {
            let (a, b) = (a.as_ref(), b.as_ref());
            // Written out only for a refusal: a quarter of a million merges
            // are read at every load.
            let m = || format!("{a} {b}");
            let (Some(&left), Some(&right)) = (ids.get(a), ids.get(b)) else {
                return Err(Error::input(format!(
                    "{field}[{rank}]: a half of {:?} is not a token",
                    m()
                )));
            };
            let Some(tail) = b.get(prefix_len..) else {
                return Err(Error::input(format!(
                    "{field}[{rank}]: the right half of {:?} is shorter than the continuing-subword prefix",
                    m()
                )));
            };
            joined.clear();
            joined.push_str(a);
            joined.push_str(tail);
            let Some(&made) = ids.get(joined.as_str()) else {
                return Err(Error::input(format!(
                    "{field}[{rank}]: {:?} makes {joined:?}, which is not a token",
                    m()
                )));
            };
            ranks.entry((left, right)).or_insert((rank as u32, made));
        }
        Ok(CharBpe {
            texts,
            ids,
            ranks,
            byte_ids,
            silent,
            hf: None,
        })
    }

    /// Which ids decode to nothing (special tokens).
    pub fn with_silent(mut self, silent: Vec<bool>) -> Self {
        self.silent = silent;
        self
    }

    /// The model as a Hugging Face file uses it.
    pub fn with_hf(mut self, hf: HfModel) -> Self {
        self.hf = Some(Box::new(hf));
        self
    }

    /// What a Hugging Face file adds, if the model comes from one.
    pub fn hf(&self) -> Option<&HfModel> {
        self.hf.as_deref()
    }

    /// The bytes a token stands for: its text, or a byte token's one byte.
    pub fn token_bytes(&self, id: TokenId) -> Vec<u8> {
        let t = self.texts.get(id as usize).map_or("", String::as_str);
        if let Some(b) = byte_of_piece(t.as_bytes())
            && self.byte_ids[b as usize] == Some(id)
        {
            return vec![b];
        }
        t.as_bytes().to_vec()
    }

    pub fn byte_fallback(&self) -> bool {
        if let Some(hf) = &self.hf {
            return hf.byte_fallback;
        }
        self.byte_ids.iter().all(Option::is_some)
    }

    /// The merge that made `id`: its rank and halves, found in the table.
    pub fn made_by(&self, id: TokenId) -> Option<(u32, TokenId, TokenId)> {
        self.ranks
            .iter()
            .filter(|(_, (_, made))| *made == id)
            .map(|(&(a, b), &(rank, _))| (rank, a, b))
            .min()
    }

    /// Encode `text`, appending ids to `out`; with `spans`, the byte range
    /// of `text` each id stands for.
    pub fn encode(
        &self,
        text: &str,
        out: &mut Vec<TokenId>,
        spans: Option<&mut Vec<Range<usize>>>,
    ) {
        self.encode_piece(text, true, out, spans)
    }

    /// [`CharBpe::encode`] for a piece of a text cut at added tokens;
    /// `at_start` says whether it starts the whole text.
    pub fn encode_piece(
        &self,
        text: &str,
        at_start: bool,
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) {
        if let Some(hf) = &self.hf {
            return self.encode_hf(hf, text, at_start, out, spans);
        }
        // The text with spaces as `▁`, and where each of its bytes came from.
        let mut esc = String::with_capacity(text.len() + 8);
        let mut from: Vec<Range<usize>> = Vec::with_capacity(text.len() + 8);
        for (i, c) in text.char_indices() {
            let r = i..i + c.len_utf8();
            if c == ' ' {
                esc.push_str(SPACE);
            } else {
                esc.push(c);
            }
            let n = if c == ' ' { SPACE.len() } else { c.len_utf8() };
            from.extend(std::iter::repeat_n(r, n));
        }
        let mut symbols = Vec::new();
        let mut lens: Vec<usize> = Vec::new();
        for piece in newline_runs(&esc) {
            let s = &esc[piece.clone()];
            symbols.clear();
            lens.clear();
            if s.bytes().all(|b| b == b'\n')
                && let Some(&id) = self.ids.get(s)
            {
                symbols.push(id);
            } else {
                for c in s.chars() {
                    let mut buf = [0u8; 4];
                    let c = c.encode_utf8(&mut buf);
                    match self.ids.get(&*c) {
                        Some(&id) => symbols.push(id),
                        None => {
                            for &b in c.as_bytes() {
                                if let Some(id) = self.byte_ids[b as usize] {
                                    symbols.push(id);
                                }
                            }
                        }
                    }
                }
                apply_ranked(&mut symbols, |p| self.ranks.get(&p).copied());
            }
            out.extend_from_slice(&symbols);
            if let Some(sp) = spans.as_deref_mut() {
                let mut at = piece.start;
                for &id in &symbols {
                    let len = self.token_bytes(id).len().max(1);
                    let end = (at + len).min(piece.end);
                    let r = if at < end {
                        from[at].start..from[end - 1].end
                    } else {
                        let p = from.get(at).map_or(text.len(), |r| r.start);
                        p..p
                    };
                    sp.push(r);
                    at = end;
                }
            }
        }
    }

    /// [`CharBpe::encode`] for a Hugging Face file: each word of the
    /// normalized text merged on its own.
    fn encode_hf(
        &self,
        hf: &HfModel,
        text: &str,
        at_start: bool,
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) {
        // Where each byte came from is read for spans alone.
        let mut words = crate::pretokenize::word_ranges::StepWords::default();
        hf.text
            .words_into(text, at_start, spans.is_some(), &mut words);
        let mut symbols: Vec<TokenId> = Vec::new();
        // Bytes of the word each symbol stands for, for its span.
        let mut lens: Vec<usize> = Vec::new();
        let mut piece = String::new();
        // Each distinct word is merged once: its symbols and their lengths
        // depend on its text alone (spans are made from them again).
        let mut kept: FxHashMap<&str, Range<usize>> = FxHashMap::default();
        let (mut kept_ids, mut kept_lens) = (Vec::new(), Vec::new());
        for word in &words.words {
            let s = &words.text[word.range.clone()];
            let from = words.from.get(word.range.clone()).unwrap_or_default();
            symbols.clear();
            lens.clear();
            match kept.get(s) {
                Some(r) => {
                    symbols.extend_from_slice(&kept_ids[r.clone()]);
                    lens.extend_from_slice(&kept_lens[r.clone()]);
                }
                None => {
                    self.word_symbols(hf, s, &mut symbols, &mut lens, &mut piece);
                    let start = kept_ids.len();
                    kept_ids.extend_from_slice(&symbols);
                    kept_lens.extend_from_slice(&lens);
                    kept.insert(s, start..kept_ids.len());
                }
            }
            out.extend_from_slice(&symbols);
            if let Some(sp) = spans.as_deref_mut() {
                let mut at = 0;
                for &len in &lens {
                    let end = (at + len).min(s.len());
                    let r = if at < end {
                        from[at].start..from[end - 1].end
                    } else {
                        let p = from
                            .get(at)
                            .map_or_else(|| from.last().map_or(text.len(), |r| r.end), |r| r.start);
                        p..p
                    };
                    sp.push(r);
                    at = end;
                }
            }
        }
    }

    /// The symbols of one word `s` of a Hugging Face file's text, merged,
    /// in `symbols`, and the bytes of the word each stands for in `lens`
    /// (both empty on entry); `piece` is a buffer to spell pieces in.
    fn word_symbols(
        &self,
        hf: &HfModel,
        s: &str,
        symbols: &mut Vec<TokenId>,
        lens: &mut Vec<usize>,
        piece: &mut String,
    ) {
        let whole = if hf.ignore_merges {
            self.ids.get(s)
        } else {
            None
        };
        if let Some(&id) = whole {
            symbols.push(id);
            lens.push(s.len());
        } else {
            let mut last_unknown = false;
            let mut chars = s.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                let last = chars.peek().is_none();
                piece.clear();
                if i > 0 {
                    piece.push_str(&hf.prefix);
                }
                piece.push(c);
                if last {
                    piece.push_str(&hf.suffix);
                }
                if let Some(&id) = self.ids.get(piece.as_str()) {
                    symbols.push(id);
                    lens.push(c.len_utf8());
                    last_unknown = false;
                    continue;
                }
                // The library falls back on the bytes of the piece it
                // looked up, prefix and suffix included.
                let bytes: Option<Vec<TokenId>> = if hf.byte_fallback {
                    piece.bytes().map(|b| self.byte_ids[b as usize]).collect()
                } else {
                    None
                };
                match (bytes, hf.unk) {
                    (Some(b), _) => {
                        let n = b.len();
                        symbols.extend(b);
                        // Each byte token one byte of the character,
                        // as far as the character goes.
                        lens.extend((0..n).map(|k| usize::from(k < c.len_utf8())));
                        last_unknown = false;
                    }
                    (None, Some(unk)) => {
                        if last_unknown && hf.fuse_unk {
                            if let Some(n) = lens.last_mut() {
                                *n += c.len_utf8();
                            }
                        } else {
                            symbols.push(unk);
                            lens.push(c.len_utf8());
                        }
                        last_unknown = true;
                    }
                    // No token, no bytes, no unknown token: dropped.
                    (None, None) => {}
                }
            }
            self.merge_symbols(symbols, lens, hf.prefix.len());
        }
    }

    /// Merge `symbols` by rank, keeping `lens` (the bytes each stands for)
    /// in step: a merged token's text is its left half's and its right
    /// half's less the prefix, so lengths say which symbols each took.
    fn merge_symbols(&self, symbols: &mut Vec<TokenId>, lens: &mut Vec<usize>, prefix_len: usize) {
        if symbols.len() < 2 {
            return;
        }
        let text_len = |id: TokenId| self.texts.get(id as usize).map_or(0, String::len);
        let first: Vec<(usize, usize)> = symbols
            .iter()
            .zip(lens.iter())
            .map(|(&id, &n)| (text_len(id), n))
            .collect();
        apply_ranked(symbols, |p| self.ranks.get(&p).copied());
        lens.clear();
        let mut parts = first.into_iter();
        for &id in symbols.iter() {
            let target = text_len(id);
            let Some((mut got, mut bytes)) = parts.next() else {
                lens.push(0);
                continue;
            };
            while got < target {
                let Some((more, n)) = parts.next() else { break };
                got += more.saturating_sub(prefix_len);
                bytes += n;
            }
            lens.push(bytes);
        }
    }

    /// The text of `ids`: tokens' texts and bytes joined, `▁` as a space,
    /// silent tokens left out; bytes that make no character are U+FFFD.
    /// `other` gives ids that are not tokens of the model. A Hugging Face
    /// file's tokens, all of them, go through its decoder chain instead.
    pub fn decode(&self, ids: &[TokenId], other: impl Fn(TokenId) -> Vec<u8>) -> Vec<u8> {
        if let Some(hf) = &self.hf {
            // The caller has left out the special tokens the library's
            // `decode` leaves out.
            let tokens = ids
                .iter()
                .map(
                    |&id| match hf.decoded_as.get(&id).or(self.texts.get(id as usize)) {
                        Some(t) => t.clone(),
                        None => String::from_utf8_lossy(&other(id)).into_owned(),
                    },
                )
                .collect();
            return hf.text.decode(tokens).into_bytes();
        }
        let mut bytes = Vec::new();
        for &id in ids {
            if (id as usize) < self.texts.len() {
                if self.silent.get(id as usize).copied().unwrap_or(false) {
                    continue;
                }
                bytes.extend(self.token_bytes(id));
            } else {
                bytes.extend(other(id));
            }
        }
        String::from_utf8_lossy(&bytes)
            .replace(SPACE, " ")
            .into_bytes()
    }

    /// The id of a token's text, if it is one.
    pub fn id_of(&self, text: &str) -> Option<TokenId> {
        self.ids.get(text).copied()
    }
}

/// Runs of newlines and runs of anything else.
fn newline_runs(s: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut start = 0;
    for i in 1..=b.len() {
        if i == b.len() || (b[i] == b'\n') != (b[start] == b'\n') {
            if start < i {
                out.push(start..i);
            }
            start = i;
        }
    }
    out
}
