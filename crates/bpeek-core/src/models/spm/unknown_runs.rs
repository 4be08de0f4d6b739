//! What the cuts of a normalized text become where characters no piece
//! covers meet: a run of unknown cuts is one token. sentencepiece gives it
//! as the unknown piece, or as the bytes of each character with byte
//! fallback. Hugging Face's Unigram looks the run's whole text up first
//! (so `<unk>` made from its own text stays itself, while `<unk>` followed
//! by `é` is one run whose bytes are given), and a model of its with no
//! unknown piece fails on the character instead ([`NoPiece`]).

use super::SpmModel;
use super::normalize::SPACE;
use super::normalize::one_char_len;
use crate::TokenId;
use crate::error::{Error, quoted};
use std::ops::Range;

/// A character no piece covers, in a model with no unknown piece (a Hugging
/// Face Unigram file with `unk_id: null`): the library's `encode` fails on
/// it, and so does bpeek's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoPiece {
    /// Where the character starts, in bytes of the text encoded.
    pub at: usize,
    /// The character as the normalizer left it.
    pub normalized: char,
}

impl NoPiece {
    /// The character at `at` of the text it came from.
    pub fn moved_to(self, at: usize) -> NoPiece {
        NoPiece { at, ..self }
    }

    /// The refusal, naming the character of `text` at the place (and what
    /// normalizing made of it, where that differs); `text_at` is where
    /// `text` starts in the whole text, when it is a part of it (not text
    /// normalized around added tokens).
    pub fn error(&self, text: &[u8], text_at: Option<usize>) -> Error {
        let given = text
            .get(self.at..)
            .and_then(|rest| {
                String::from_utf8_lossy(&rest[..rest.len().min(4)])
                    .chars()
                    .next()
            })
            .unwrap_or(self.normalized);
        let normalized = if given == self.normalized {
            String::new()
        } else {
            format!(", {} once normalized", quoted(&self.normalized.to_string()))
        };
        let place = match text_at {
            Some(start) => format!("at byte {} of the text", start + self.at),
            None => format!(
                "at byte {} of the text normalized around the added tokens",
                self.at
            ),
        };
        Error::input(format!(
            "no piece covers {} (U+{:04X}{normalized}) {place}, and model.unk_id is null: the \
             library's encode fails on it too",
            quoted(&given.to_string()),
            given as u32,
        ))
    }
}

/// The first character of `norm` at `at`, for a [`NoPiece`].
pub(super) fn no_piece_at(norm: &[u8], at: usize) -> NoPiece {
    let len = one_char_len(&norm[at..]);
    let normalized = std::str::from_utf8(&norm[at..at + len])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    NoPiece { at, normalized }
}

/// The cuts of one normalized text in order, a run of unknown ones held
/// back until it ends. Each token goes to `emit` with the range of the
/// text it stands for (a byte that is not the last of its character: an
/// empty range where the character starts).
#[derive(Default)]
pub(super) struct Runs {
    run: Option<Range<usize>>,
}

impl Runs {
    /// Take the cut `w` of `norm`, whose piece is `id`.
    #[inline]
    pub fn cut(
        &mut self,
        model: &SpmModel,
        norm: &[u8],
        w: Range<usize>,
        id: TokenId,
        emit: &mut impl FnMut(TokenId, Range<usize>),
    ) {
        if self.run.is_some() && model.word_starts_at(norm, w.start) {
            // Words are encoded one by one: no run goes on into the next.
            self.end(model, norm, emit);
        }
        if id == model.unk_id {
            match &mut self.run {
                Some(run) => run.end = w.end,
                None => self.run = Some(w),
            }
            return;
        }
        self.end(model, norm, emit);
        emit(id, w);
    }

    /// The text is over: give the run held back, if any.
    pub fn end(
        &mut self,
        model: &SpmModel,
        norm: &[u8],
        emit: &mut impl FnMut(TokenId, Range<usize>),
    ) {
        let Some(run) = self.run.take() else {
            return;
        };
        if model.every_piece_in_lattice
            && let Some(id) = model.model_piece(&norm[run.clone()])
        {
            return emit(id, run);
        }
        if !model.byte_fallback {
            return emit(model.unk_id, run);
        }
        let mut at = run.start;
        while at < run.end {
            let len = one_char_len(&norm[at..]);
            for (k, &b) in norm[at..at + len].iter().enumerate() {
                let span = if k + 1 == len { at..at + len } else { at..at };
                emit(model.byte_ids[b as usize], span);
            }
            at += len;
        }
    }
}

impl SpmModel {
    /// Whether a word starts at `at` of `norm`, where the model cuts the
    /// normalized text into words before each `▁` (Hugging Face's
    /// `Metaspace` with `split`).
    fn word_starts_at(&self, norm: &[u8], at: usize) -> bool {
        self.word_split.is_some_and(|m| m.split) && at > 0 && norm[at..].starts_with(SPACE)
    }

    /// The id of the model's own piece whose text is `text`, as Hugging
    /// Face's Unigram looks a run of unknown cuts up: added tokens past
    /// the vocabulary (their scores NaN) are not the model's.
    fn model_piece(&self, text: &[u8]) -> Option<TokenId> {
        let id = *self.normal.get(text).or_else(|| self.reserved.get(text))?;
        let score = self.lattice.scores.get(id as usize)?;
        (!score.is_nan()).then_some(id)
    }
}
