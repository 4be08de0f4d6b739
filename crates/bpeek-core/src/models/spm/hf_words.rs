//! A SentencePiece-family model (Unigram) behind a Hugging Face file's own
//! pipeline: the file's normalizer and pre-tokenizer steps cut the text
//! into words ([`HfText`]), each word is segmented on its own, and ids go
//! back to text through the file's decoder steps.

use super::unknown_runs::{NoPiece, Runs, no_piece_at};
use super::{Algorithm, KeptWords, PieceType, SpmModel, bpe, unigram};
use crate::TokenId;
use crate::pretokenize::hf_text::HfText;
use std::ops::Range;

impl SpmModel {
    /// The model with a file's whole pipeline in place of its own
    /// normalizer.
    pub fn with_hf_text(mut self, text: HfText) -> Self {
        self.hf_text = Some(Box::new(text));
        self
    }

    /// The model with every piece a node of the Unigram lattice, as the
    /// library's Unigram model makes them: the pieces of special tokens
    /// (`<s>`), the unknown piece and byte pieces are made from their text
    /// where it is the best cut, and still decode as their kinds do.
    pub fn with_every_piece_in_lattice(mut self) -> Self {
        let mut trie = super::trie::TrieBuilder::new();
        for (id, p) in self.pieces.iter().enumerate() {
            if p.kind != PieceType::Unused {
                trie.insert(&p.text, id as TokenId);
            }
        }
        self.trie = trie.build();
        self.every_piece_in_lattice = true;
        self
    }

    /// Encode a piece of a text cut at added tokens; `at_start` says
    /// whether it starts the whole text. With `spans`, the byte range of
    /// `text` each id stands for. A model with no unknown piece fails on a
    /// character no piece covers, as the library does.
    pub fn encode_piece(
        &self,
        text: &[u8],
        at_start: bool,
        out: &mut Vec<TokenId>,
        spans: Option<&mut Vec<Range<usize>>>,
    ) -> Result<(), NoPiece> {
        match &self.hf_text {
            Some(steps) => self.encode_words(steps, text, at_start, out, spans),
            None => self.encode(text, out, spans),
        }
    }

    /// [`SpmModel::encode_piece`] without spans, finding the words met
    /// in texts encoded before in `kept` (BPE on the model's own
    /// normalizer only: the others encode as they would without it).
    pub fn encode_piece_in(
        &self,
        text: &[u8],
        at_start: bool,
        out: &mut Vec<TokenId>,
        kept: &mut KeptWords,
    ) -> Result<(), NoPiece> {
        if self.hf_text.is_some() || !self.steps.is_empty() {
            return self.encode_piece(text, at_start, out, None);
        }
        let norm = self.normalizer.normalize_text(text);
        self.ids_of(&norm, kept, out)
            .map_err(|at| self.no_piece_in(text, at))
    }

    fn encode_words(
        &self,
        steps: &HfText,
        text: &[u8],
        at_start: bool,
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) -> Result<(), NoPiece> {
        let text = String::from_utf8_lossy(text);
        let mut words = crate::pretokenize::word_ranges::StepWords::default();
        steps.words_into(&text, at_start, true, &mut words);
        for word in &words.words {
            let norm = words.text[word.range.clone()].as_bytes();
            let from = &words.from[word.range.clone()];
            let span = |r: &Range<usize>| {
                if r.is_empty() {
                    let at = from.get(r.start).map_or(0, |f| f.start);
                    at..at
                } else {
                    from[r.start].start..from[r.end - 1].end
                }
            };
            let pieces = match self.algorithm {
                Algorithm::Bpe => bpe::encode(self, norm),
                Algorithm::Unigram => unigram::encode(self, norm)
                    .map_err(|at| no_piece_at(norm, at).moved_to(span(&(at..at + 1)).start))?,
            };
            let mut runs = Runs::default();
            let mut emit = |id, w: Range<usize>| {
                out.push(id);
                if let Some(s) = spans.as_deref_mut() {
                    s.push(span(&w));
                }
            };
            for (w, id) in pieces {
                runs.cut(self, norm, w, id, &mut emit);
            }
            runs.end(self, norm, &mut emit);
        }
        Ok(())
    }

    /// The text of `ids` through the file's decoder steps, every piece as
    /// its text (the caller has left out the special tokens the library's
    /// `decode` leaves out).
    pub(super) fn decode_hf(
        &self,
        steps: &HfText,
        ids: &[TokenId],
        other: impl Fn(TokenId) -> Vec<u8>,
    ) -> Vec<u8> {
        let tokens = ids
            .iter()
            .map(|&id| match self.pieces.get(id as usize) {
                Some(p) => String::from_utf8_lossy(&p.text).into_owned(),
                None => String::from_utf8_lossy(&other(id)).into_owned(),
            })
            .collect();
        steps.decode(tokens).into_bytes()
    }
}
