//! SentencePiece models, as the `sentencepiece` library encodes and decodes
//! with them: normalize (see [`normalize`]), cut into pieces by BPE or
//! Unigram, then give an unknown character as its UTF-8 bytes (`<0xE3>`
//! pieces, with byte fallback) or as the unknown piece (a run of unknown
//! characters as one).
//!
//! The model is read from a `.model` file by
//! [`crate::formats::sentencepiece`].

mod bpe;
pub mod explain;
mod hf_words;
mod kept_words;
pub mod normalize;
mod piece_filter;
mod short_word;
pub mod trie;
mod unigram;
mod unknown_runs;

use crate::TokenId;
use crate::error::{Error, Result};
pub use kept_words::KeptWords;
use normalize::{CharsMap, Normalizer, SPACE, valid_char_len};
use rustc_hash::FxHashMap;
use std::ops::Range;
use trie::{Trie, TrieBuilder};
pub use unknown_runs::NoPiece;

/// How a model cuts text into pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Unigram,
    Bpe,
}

impl Algorithm {
    /// The kind of tokenizer, in words: `sentencepiece unigram`, ...
    pub fn kind(self) -> &'static str {
        match self {
            Algorithm::Unigram => "sentencepiece unigram",
            Algorithm::Bpe => "sentencepiece bpe",
        }
    }
}

/// What a piece is (`ModelProto.SentencePiece.Type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceType {
    Normal,
    /// The unknown piece (`<unk>`).
    Unknown,
    /// `<s>`, `</s>` and the like: never made from text.
    Control,
    /// Matched whole in the text, never normalized or split.
    UserDefined,
    /// In the vocabulary but never given.
    Unused,
    /// `<0x00>`..`<0xFF>`: one byte of an unknown character.
    Byte,
}

impl PieceType {
    /// The type of the file's number, if it is one.
    pub fn from_number(n: u64) -> Option<PieceType> {
        Some(match n {
            1 => PieceType::Normal,
            2 => PieceType::Unknown,
            3 => PieceType::Control,
            4 => PieceType::UserDefined,
            5 => PieceType::Unused,
            6 => PieceType::Byte,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            PieceType::Normal => "normal",
            PieceType::Unknown => "unknown",
            PieceType::Control => "control",
            PieceType::UserDefined => "user-defined",
            PieceType::Unused => "unused",
            PieceType::Byte => "byte",
        }
    }
}

/// One piece of the vocabulary; its id is its place in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub text: Vec<u8>,
    pub score: f32,
    pub kind: PieceType,
}

/// The normalizer settings of a model file.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalizerSpec {
    /// The rule's name (`nmt_nfkc`, `identity`, ...), for showing only.
    pub name: String,
    pub precompiled_charsmap: Vec<u8>,
    pub add_dummy_prefix: bool,
    pub remove_extra_whitespaces: bool,
    pub escape_whitespaces: bool,
    /// The dummy prefix only where the text does not start with a space.
    pub prefix_unless_space: bool,
}

impl Default for NormalizerSpec {
    fn default() -> Self {
        NormalizerSpec {
            name: String::new(),
            precompiled_charsmap: Vec::new(),
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
            prefix_unless_space: false,
        }
    }
}

/// Everything a model file says that encoding and decoding need.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    pub pieces: Vec<Piece>,
    pub algorithm: Algorithm,
    pub byte_fallback: bool,
    pub split_digits: bool,
    pub treat_whitespace_as_suffix: bool,
    /// What the unknown piece decodes to (default ` ⁇ `).
    pub unk_surface: Option<Vec<u8>>,
    pub normalizer: NormalizerSpec,
}

pub use crate::normalize::text_step::TextStep;

/// Apply `steps` to `text`: the result and, for each of its bytes and its
/// end, the offset in `text` it came from. The text is cut before each
/// ASCII or whitespace character (which nothing composes with), and each
/// part normalized on its own; a part's bytes all come from its start.
fn apply_steps(steps: &[TextStep], text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len() + 1);
    let mut start = 0;
    let flush = |part: &str, at: usize, out: &mut String, map: &mut Vec<usize>| {
        let mut t = part.to_string();
        for s in steps {
            t = s.apply(&t);
        }
        map.extend(std::iter::repeat_n(at, t.len()));
        out.push_str(&t);
    };
    for (i, c) in text.char_indices() {
        if i > start && (c.is_ascii() || c.is_whitespace()) {
            flush(&text[start..i], start, &mut out, &mut map);
            start = i;
        }
    }
    if start < text.len() {
        flush(&text[start..], start, &mut out, &mut map);
    }
    map.push(text.len());
    (out, map)
}

/// How Hugging Face's `Metaspace` differs from sentencepiece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HfMetaspace {
    /// The normalized text is cut before each `▁` and the words encoded
    /// one by one.
    pub split: bool,
    /// Decoding drops every `▁` of the first token, not only its first.
    pub first_marks_dropped: bool,
}

/// The unknown piece's id in a model that has none: no piece has it.
pub const NO_UNKNOWN: TokenId = TokenId::MAX;

/// A SentencePiece model, ready to encode.
#[derive(Debug, Clone)]
pub struct SpmModel {
    pub algorithm: Algorithm,
    pub pieces: Vec<Piece>,
    normalizer: Normalizer,
    normalizer_name: String,
    byte_fallback: bool,
    split_digits: bool,
    pub unk_id: TokenId,
    /// The id of each byte's piece (with byte fallback).
    byte_ids: Vec<TokenId>,
    /// Normal, user-defined and unused pieces by their text.
    pub normal: FxHashMap<Vec<u8>, TokenId>,
    /// Unknown, control and byte pieces by their text.
    reserved: FxHashMap<Vec<u8>, TokenId>,
    /// User-defined symbols, matched whole (longest first).
    pub user: Option<Trie>,
    /// The normal, user-defined and unused pieces (Unigram).
    pub trie: Trie,
    pub max_score: f32,
    unk_surface: Vec<u8>,
    /// Each piece's score in double precision, where Unigram sums them so
    /// (Hugging Face files).
    pub exact_scores: Option<Vec<f64>>,
    /// What each piece adds to a Unigram path's score, as the library
    /// that made the model computes it (NaN for a piece never taken), and
    /// what an unknown character adds.
    pub lattice: unigram::Lattice,
    /// Hugging Face's `Metaspace`, where the model comes from a
    /// `tokenizer.json`.
    word_split: Option<HfMetaspace>,
    /// Hugging Face normalizer steps applied first, in order.
    steps: Vec<TextStep>,
    /// A Hugging Face file's whole pipeline, where it is more than
    /// `steps`, a character map and one `Metaspace`: the text is cut into
    /// words by it and each word segmented on its own.
    pub hf_text: Option<Box<crate::pretokenize::hf_text::HfText>>,
    /// No piece has `▁` right after another character, so BPE never
    /// merges across the start of a word: words can be cut apart first
    /// (and each distinct one encoded once).
    pub words_apart: bool,
    /// Every piece, whatever its kind, is a node of the Unigram lattice
    /// (Hugging Face files: the library's model knows no kinds).
    pub(super) every_piece_in_lattice: bool,
    /// Some text is both a normal piece and a reserved one (the reserved
    /// id wins): a merged piece's id is then looked up again.
    reserved_overlaps_normal: bool,
    /// [`SpmModel::piece_to_id`] of each ASCII character, looked up once.
    ascii_ids: [TokenId; 128],
    /// Turns away most texts that are not in `normal` without a lookup.
    normal_filter: piece_filter::PieceFilter,
}

/// Whether a piece holds `▁` right after a character that is not one.
fn joins_before_space(piece: &[u8]) -> bool {
    const SPACE: &[u8] = "\u{2581}".as_bytes();
    (1..piece.len()).any(|i| piece[i..].starts_with(SPACE) && !piece[..i].ends_with(SPACE))
}

/// The bytes a byte piece `<0xNN>` stands for.
pub fn byte_of_piece(piece: &[u8]) -> Option<u8> {
    let hex = piece.strip_prefix(b"<0x")?.strip_suffix(b">")?;
    if hex.len() != 2
        || !hex
            .iter()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(b))
    {
        return None;
    }
    u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

/// The tables [`SpmModel::new`] builds from the pieces, as it checks them.
struct PieceTables {
    normal: FxHashMap<Vec<u8>, TokenId>,
    reserved: FxHashMap<Vec<u8>, TokenId>,
    unk_id: Option<TokenId>,
    byte_ids: Vec<TokenId>,
    user: TrieBuilder,
    trie: TrieBuilder,
    /// The lowest and highest score of a normal piece.
    min_score: f32,
    max_score: f32,
}

impl PieceTables {
    fn new() -> Self {
        PieceTables {
            normal: FxHashMap::default(),
            reserved: FxHashMap::default(),
            unk_id: None,
            byte_ids: vec![TokenId::MAX; 256],
            user: TrieBuilder::new(),
            trie: TrieBuilder::new(),
            min_score: f32::MAX,
            max_score: f32::MIN_POSITIVE,
        }
    }

    /// Piece `i`: not empty, not a second piece of its text among the
    /// normal (or the reserved) pieces, and then by its kind.
    fn add(&mut self, i: usize, p: &Piece, byte_fallback: bool) -> Result<()> {
        let id = i as TokenId;
        let field = || format!("pieces[{i}]");
        if p.text.is_empty() {
            return Err(Error::input(format!("{}.piece: a piece is empty", field())));
        }
        let is_normal = matches!(
            p.kind,
            PieceType::Normal | PieceType::UserDefined | PieceType::Unused
        );
        let table = if is_normal {
            &mut self.normal
        } else {
            &mut self.reserved
        };
        if table.insert(p.text.clone(), id).is_some() {
            return Err(Error::input(format!(
                "{}.piece: {:?} appears twice",
                field(),
                String::from_utf8_lossy(&p.text)
            )));
        }
        if is_normal {
            self.trie.insert(&p.text, id);
        }
        self.add_by_kind(i, p, byte_fallback)
    }

    /// What piece `i`'s kind adds: a normal piece's score, a user-defined
    /// piece to match whole, the one unknown piece, a byte piece.
    fn add_by_kind(&mut self, i: usize, p: &Piece, byte_fallback: bool) -> Result<()> {
        let id = i as TokenId;
        let field = || format!("pieces[{i}]");
        match p.kind {
            PieceType::Normal => {
                self.min_score = self.min_score.min(p.score);
                self.max_score = self.max_score.max(p.score);
            }
            PieceType::UserDefined => self.user.insert(&p.text, id),
            PieceType::Unknown => {
                if let Some(first) = self.unk_id {
                    return Err(Error::input(format!(
                        "{}.type: a second unknown piece (the first is pieces[{first}])",
                        field()
                    )));
                }
                self.unk_id = Some(id);
            }
            PieceType::Byte => {
                if !byte_fallback {
                    return Err(Error::input(format!(
                        "{}: a byte piece {:?}, but trainer_spec.byte_fallback is off",
                        field(),
                        String::from_utf8_lossy(&p.text)
                    )));
                }
                let Some(b) = byte_of_piece(&p.text) else {
                    return Err(Error::input(format!(
                        "{}.piece: {:?} is typed byte but is not <0x00>..<0xFF>",
                        field(),
                        String::from_utf8_lossy(&p.text)
                    )));
                };
                self.byte_ids[b as usize] = id;
            }
            PieceType::Control | PieceType::Unused => {}
        }
        Ok(())
    }

    /// Once every piece is in: the unknown piece's id, after checking that
    /// there is one (when `unknown_needed`; [`NO_UNKNOWN`] for none), every
    /// byte has a piece with `byte_fallback`, and some piece can cut text.
    fn check_complete(&self, byte_fallback: bool, unknown_needed: bool) -> Result<TokenId> {
        let unk_id = match self.unk_id {
            Some(id) => id,
            None if !unknown_needed => NO_UNKNOWN,
            None => {
                return Err(Error::input(
                    "pieces: no piece has type UNKNOWN (sentencepiece needs one)",
                ));
            }
        };
        if byte_fallback && let Some(b) = self.byte_ids.iter().position(|&id| id == TokenId::MAX) {
            return Err(Error::input(format!(
                "pieces: trainer_spec.byte_fallback is on but there is no byte piece <0x{b:02X}>"
            )));
        }
        if self.normal.is_empty() {
            return Err(Error::input(
                "pieces: no normal, user-defined or unused piece to cut text into",
            ));
        }
        Ok(unk_id)
    }
}

impl SpmModel {
    /// Check the pieces as sentencepiece does when it loads a model, and
    /// build the tables. Errors name the field.
    pub fn new(spec: ModelSpec) -> Result<SpmModel> {
        Self::build(spec, true)
    }

    /// [`SpmModel::new`] for a model that may have no unknown piece (a
    /// Hugging Face Unigram file with `unk_id: null`): a character no
    /// piece covers then fails the encoding, as [`NoPiece`].
    pub fn new_unknown_optional(spec: ModelSpec) -> Result<SpmModel> {
        Self::build(spec, false)
    }

    fn build(spec: ModelSpec, unknown_needed: bool) -> Result<SpmModel> {
        let mut tables = PieceTables::new();
        for (i, p) in spec.pieces.iter().enumerate() {
            tables.add(i, p, spec.byte_fallback)?;
        }
        let unk_id = tables.check_complete(spec.byte_fallback, unknown_needed)?;
        let PieceTables {
            normal,
            reserved,
            byte_ids,
            user,
            trie,
            min_score,
            max_score,
            ..
        } = tables;
        let map = if spec.normalizer.precompiled_charsmap.is_empty() {
            None
        } else {
            Some(CharsMap::parse(
                &spec.normalizer.precompiled_charsmap,
                "normalizer_spec.precompiled_charsmap",
            )?)
        };
        let user = (!user.is_empty()).then(|| user.build());
        let trie = trie.build();
        // An unused piece is given back as the two symbols that last made
        // it anywhere in the text, which ties words together.
        let words_apart = !normal.keys().any(|p| joins_before_space(p))
            && !spec.pieces.iter().any(|p| p.kind == PieceType::Unused);
        let reserved_overlaps_normal = reserved.keys().any(|k| normal.contains_key(k));
        let normal_filter = piece_filter::PieceFilter::of(normal.keys().map(Vec::as_slice));
        let n = &spec.normalizer;
        let lattice = unigram::Lattice::single(&spec.pieces, min_score);
        let mut model = SpmModel {
            algorithm: spec.algorithm,
            normalizer: Normalizer {
                map,
                user: user.clone(),
                add_dummy_prefix: n.add_dummy_prefix,
                remove_extra_whitespaces: n.remove_extra_whitespaces,
                escape_whitespaces: n.escape_whitespaces,
                treat_whitespace_as_suffix: spec.treat_whitespace_as_suffix,
                prefix_unless_space: n.prefix_unless_space,
            },
            normalizer_name: n.name.clone(),
            byte_fallback: spec.byte_fallback,
            split_digits: spec.split_digits,
            unk_id,
            byte_ids,
            normal,
            reserved,
            user,
            trie,
            max_score,
            unk_surface: spec
                .unk_surface
                .unwrap_or_else(|| " \u{2047} ".as_bytes().to_vec()),
            pieces: spec.pieces,
            words_apart,
            exact_scores: None,
            lattice,
            word_split: None,
            steps: Vec::new(),
            hf_text: None,
            every_piece_in_lattice: false,
            reserved_overlaps_normal,
            ascii_ids: [0; 128],
            normal_filter,
        };
        for b in 0..128u8 {
            model.ascii_ids[b as usize] = model.piece_to_id(&[b]);
        }
        Ok(model)
    }

    /// Sum Unigram scores in double precision, these being the scores
    /// (one per piece), as Hugging Face does.
    pub fn with_exact_scores(mut self, scores: Vec<f64>) -> Self {
        if scores.len() == self.pieces.len() {
            self.lattice = unigram::Lattice::double(&self.pieces, &scores, self.max_score);
            self.exact_scores = Some(scores);
        }
        self
    }

    /// Sum Unigram scores as llama.cpp does (see [`unigram::Lattice::llama`]).
    pub fn with_llama_sums(mut self) -> Self {
        self.lattice = unigram::Lattice::llama(&self.pieces);
        self
    }

    /// Normalize with these steps before the character map.
    pub fn with_steps(mut self, steps: Vec<TextStep>) -> Self {
        self.steps = steps;
        self
    }

    /// Encode and decode as Hugging Face's `Metaspace` does.
    pub fn with_metaspace(mut self, m: HfMetaspace) -> Self {
        self.word_split = Some(m);
        self
    }

    /// Hand each piece of a normalized text to `f`, in order, as a byte
    /// range of it and its id; word by word where the model splits words.
    /// The pieces are not gathered first: a long text's would cost more
    /// than its ids.
    /// BPE finds short words in `kept` and keeps the new ones there.
    fn each_cut(
        &self,
        norm: &[u8],
        kept: &mut KeptWords,
        mut f: impl FnMut(Range<usize>, TokenId),
    ) -> std::result::Result<(), usize> {
        let mut run = |part: &[u8], start: usize| {
            let mut moved = |w: Range<usize>, id| f(w.start + start..w.end + start, id);
            match self.algorithm {
                Algorithm::Bpe => bpe::each_piece_in(self, part, kept, &mut moved),
                Algorithm::Unigram => {
                    let pieces = unigram::encode(self, part).map_err(|at| at + start)?;
                    for (w, id) in pieces {
                        moved(w, id);
                    }
                }
            }
            Ok(())
        };
        if !self.word_split.is_some_and(|m| m.split) {
            return run(norm, 0);
        }
        let mut start = 0;
        let mut at = 1;
        while start < norm.len() {
            while at < norm.len() && !norm[at..].starts_with(SPACE) {
                at += 1;
            }
            run(&norm[start..at], start)?;
            start = at;
            at += 1;
        }
        Ok(())
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    pub fn byte_fallback(&self) -> bool {
        self.byte_fallback
    }

    pub fn split_digits(&self) -> bool {
        self.split_digits
    }

    /// The normalization rule's name as the file gives it (may be empty).
    pub fn normalizer_name(&self) -> &str {
        &self.normalizer_name
    }

    /// The unknown piece's id ([`NO_UNKNOWN`] when the model has none).
    pub fn unk_id(&self) -> TokenId {
        self.unk_id
    }

    /// Whether the model has an unknown piece.
    pub fn has_unknown(&self) -> bool {
        self.unk_id != NO_UNKNOWN
    }

    /// The piece's type, if `id` is a piece.
    pub fn kind_of(&self, id: TokenId) -> Option<PieceType> {
        self.pieces.get(id as usize).map(|p| p.kind)
    }

    /// The bytes a piece stands for as a token: its text (`▁` as it is),
    /// or the one byte of a byte piece.
    pub fn token_bytes(p: &Piece) -> Vec<u8> {
        match (p.kind, byte_of_piece(&p.text)) {
            (PieceType::Byte, Some(b)) => vec![b],
            _ => p.text.clone(),
        }
    }

    /// The id of a piece's text, as sentencepiece looks it up (the unknown
    /// piece if it is none).
    /// [`SpmModel::piece_to_id`] of one character, without a lookup for
    /// an ASCII one.
    pub fn char_to_id(&self, ch: &[u8]) -> TokenId {
        match ch {
            &[b] if b < 128 => self.ascii_ids[b as usize],
            _ => self.piece_to_id(ch),
        }
    }

    pub fn piece_to_id(&self, piece: &[u8]) -> TokenId {
        self.reserved
            .get(piece)
            .or_else(|| self.normal.get(piece))
            .copied()
            .unwrap_or(self.unk_id)
    }

    /// The normalized text and, for each of its bytes and its end, the
    /// offset in `text` it came from.
    pub fn normalize(&self, text: &[u8]) -> (Vec<u8>, Vec<usize>) {
        if !self.steps.is_empty()
            && let Ok(s) = std::str::from_utf8(text)
        {
            let (pre, map) = apply_steps(&self.steps, s);
            let (norm, to_pre) = self.normalizer.normalize(pre.as_bytes());
            let to_orig = to_pre.into_iter().map(|i| map[i]).collect();
            return (norm, to_orig);
        }
        self.normalizer.normalize(text)
    }

    /// The ids of a normalized text, as [`SpmModel::encode`] gives them;
    /// the place in it of a character a model with no unknown piece fails
    /// on.
    fn ids_of(
        &self,
        norm: &[u8],
        kept: &mut KeptWords,
        out: &mut Vec<TokenId>,
    ) -> std::result::Result<(), usize> {
        let mut runs = unknown_runs::Runs::default();
        let mut emit = |id, _| out.push(id);
        self.each_cut(norm, kept, |w, id| runs.cut(self, norm, w, id, &mut emit))?;
        runs.end(self, norm, &mut emit);
        Ok(())
    }

    /// Encode `text`, appending the ids to `out`; with `spans`, also the
    /// byte range of `text` each id stands for (empty for all but the last
    /// byte of an unknown character given as bytes). A model with no
    /// unknown piece fails on a character no piece covers, as the library
    /// does.
    pub fn encode(
        &self,
        text: &[u8],
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) -> std::result::Result<(), NoPiece> {
        if spans.is_none() && self.steps.is_empty() {
            let norm = self.normalizer.normalize_text(text);
            return self
                .ids_of(&norm, &mut KeptWords::default(), out)
                .map_err(|at| self.no_piece_in(text, at));
        }
        let (norm, to_orig) = self.normalize(text);
        let mut runs = unknown_runs::Runs::default();
        let mut emit = |id, w: Range<usize>| {
            out.push(id);
            if let Some(s) = spans.as_deref_mut() {
                s.push(to_orig[w.start]..to_orig[w.end]);
            }
        };
        self.each_cut(&norm, &mut KeptWords::default(), |w, id| {
            runs.cut(self, &norm, w, id, &mut emit)
        })
        .map_err(|at| unknown_runs::no_piece_at(&norm, at).moved_to(to_orig[at]))?;
        runs.end(self, &norm, &mut emit);
        Ok(())
    }

    /// The [`NoPiece`] of `text` whose normalized text fails at `at`: the
    /// text is normalized once more, with the place each byte came from.
    #[cold]
    fn no_piece_in(&self, text: &[u8], at: usize) -> NoPiece {
        let (norm, to_orig) = self.normalize(text);
        unknown_runs::no_piece_at(&norm, at).moved_to(to_orig[at])
    }

    /// Decode as sentencepiece does: `▁` becomes a space, the first one
    /// is dropped where the encoder added it, control pieces vanish, the
    /// unknown piece reads ` ⁇ `, and byte pieces join into UTF-8 (each
    /// byte that is no part of a character becomes U+FFFD). `other` gives
    /// the text of ids that are not pieces (added special tokens). Without
    /// `own_specials` (a Hugging Face file, whose special tokens the caller
    /// has left out where the library leaves them out) control pieces and
    /// the unknown piece are written as any piece is.
    pub fn decode(
        &self,
        ids: &[TokenId],
        own_specials: bool,
        other: impl Fn(TokenId) -> Vec<u8>,
    ) -> Vec<u8> {
        if let Some(text) = &self.hf_text {
            return self.decode_hf(text, ids, other);
        }
        let n = &self.normalizer;
        let mut text: Vec<u8> = Vec::new();
        let mut bytes: Vec<u8> = Vec::new();
        let mut at_start = true;
        let mut start_space_seen = false;
        let mut seen_piece = false;
        let flush = |bytes: &mut Vec<u8>, text: &mut Vec<u8>| {
            let mut at = 0;
            while at < bytes.len() {
                match valid_char_len(&bytes[at..]) {
                    Some(len) => {
                        text.extend_from_slice(&bytes[at..at + len]);
                        at += len;
                    }
                    None => {
                        text.extend_from_slice("\u{FFFD}".as_bytes());
                        at += 1;
                    }
                }
            }
            bytes.clear();
        };
        for &id in ids {
            let Some(p) = self.pieces.get(id as usize) else {
                flush(&mut bytes, &mut text);
                text.extend_from_slice(&other(id));
                continue;
            };
            if p.kind == PieceType::Byte {
                bytes.extend(byte_of_piece(&p.text));
                continue;
            }
            flush(&mut bytes, &mut text);
            if start_space_seen || !text.is_empty() {
                at_start = false;
            }
            start_space_seen = false;
            let first_piece = !seen_piece;
            let kind = match p.kind {
                PieceType::Control | PieceType::Unknown if !own_specials => PieceType::Normal,
                kind => kind,
            };
            if kind != PieceType::Control
                && !(kind == PieceType::Unknown && self.unk_surface.is_empty())
            {
                seen_piece = true;
            }
            match kind {
                PieceType::Control => {}
                PieceType::Unknown => text.extend_from_slice(&self.unk_surface),
                _ if self
                    .word_split
                    .is_some_and(|d| !d.first_marks_dropped || !first_piece) =>
                {
                    replace_space_marks(&p.text, &mut text);
                }
                _ if self.word_split.is_some() => {
                    let mut piece = &p.text[..];
                    while let Some(i) = piece.windows(SPACE.len()).position(|w| w == SPACE) {
                        text.extend_from_slice(&piece[..i]);
                        piece = &piece[i + SPACE.len()..];
                    }
                    text.extend_from_slice(piece);
                }
                _ => {
                    let mut piece = &p.text[..];
                    if at_start
                        && (n.add_dummy_prefix || n.remove_extra_whitespaces)
                        && let Some(rest) = piece.strip_prefix(SPACE)
                    {
                        piece = rest;
                        start_space_seen = !n.remove_extra_whitespaces;
                    }
                    replace_space_marks(piece, &mut text);
                }
            }
        }
        flush(&mut bytes, &mut text);
        text
    }
}

/// Append `piece` with each `▁` as a space.
fn replace_space_marks(mut piece: &[u8], out: &mut Vec<u8>) {
    while let Some(i) = piece.windows(SPACE.len()).position(|w| w == SPACE) {
        out.extend_from_slice(&piece[..i]);
        out.push(b' ');
        piece = &piece[i + SPACE.len()..];
    }
    out.extend_from_slice(piece);
}
