//! A SentencePiece-family model (Unigram) behind a Hugging Face file's own
//! pipeline: the file's normalizer and pre-tokenizer steps cut the text
//! into words ([`HfText`]), each word is segmented on its own, and ids go
//! back to text through the file's decoder steps.

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

    /// Whether a cut of `text` to `id` is given as its bytes: with byte
    /// fallback, characters no piece covers are. A run of unknown cuts is
    /// one unknown token, and the library looks its whole text up: the
    /// unknown piece made from its own text (`<unk>`) alone stays itself.
    /// (One such piece followed by unknown characters is given as itself
    /// and their bytes, where the library gives the bytes of all.)
    pub(super) fn as_bytes(&self, id: TokenId, text: &[u8], prev_unknown: bool) -> bool {
        self.byte_fallback
            && id == self.unk_id
            && (prev_unknown
                || !(self.every_piece_in_lattice && text == self.pieces[id as usize].text))
    }

    /// Encode a piece of a text cut at added tokens; `at_start` says
    /// whether it starts the whole text. With `spans`, the byte range of
    /// `text` each id stands for.
    pub fn encode_piece(
        &self,
        text: &[u8],
        at_start: bool,
        out: &mut Vec<TokenId>,
        spans: Option<&mut Vec<Range<usize>>>,
    ) {
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
    ) {
        if self.hf_text.is_some() || !self.steps.is_empty() {
            return self.encode_piece(text, at_start, out, None);
        }
        let norm = self.normalizer.normalize_text(text);
        self.ids_of(&norm, kept, out);
    }

    fn encode_words(
        &self,
        steps: &HfText,
        text: &[u8],
        at_start: bool,
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) {
        let text = String::from_utf8_lossy(text);
        for word in steps.words(&text, at_start) {
            let (norm, from) = (word.text.text.as_bytes(), &word.text.from);
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
                Algorithm::Unigram => unigram::encode(self, norm),
            };
            // A run of unknown characters is one unknown piece, or their
            // bytes with byte fallback.
            let mut prev_unknown = false;
            for (w, id) in pieces {
                let unknown = id == self.unk_id;
                let as_bytes = self.as_bytes(id, &norm[w.clone()], prev_unknown);
                if as_bytes {
                    for (k, &b) in norm[w.clone()].iter().enumerate() {
                        out.push(self.byte_ids[b as usize]);
                        if let Some(s) = spans.as_deref_mut() {
                            let whole = span(&w);
                            s.push(if k + 1 == w.len() {
                                whole
                            } else {
                                whole.start..whole.start
                            });
                        }
                    }
                } else if unknown && prev_unknown {
                    if let Some(last) = spans.as_deref_mut().and_then(|s| s.last_mut()) {
                        last.end = span(&w).end;
                    }
                } else {
                    out.push(id);
                    if let Some(s) = spans.as_deref_mut() {
                        s.push(span(&w));
                    }
                }
                prev_unknown = unknown;
            }
        }
    }

    /// The text of `ids` through the file's decoder steps; control pieces
    /// (special tokens) are left out, as `decode` leaves them out.
    pub(super) fn decode_hf(
        &self,
        steps: &HfText,
        ids: &[TokenId],
        other: impl Fn(TokenId) -> Vec<u8>,
    ) -> Vec<u8> {
        let tokens =
            ids.iter()
                .filter_map(|&id| match self.pieces.get(id as usize) {
                    Some(p) if p.kind == PieceType::Control => None,
                    Some(p) if p.kind == PieceType::Unknown => (!self.unk_surface.is_empty())
                        .then(|| String::from_utf8_lossy(&p.text).into()),
                    Some(p) => Some(String::from_utf8_lossy(&p.text).into_owned()),
                    None => Some(String::from_utf8_lossy(&other(id)).into_owned()),
                })
                .collect();
        steps.decode(tokens).into_bytes()
    }
}
