//! The short words a SentencePiece BPE model has merged, with their pieces,
//! kept through one text or a batch of texts so that a word met again is
//! not merged again.
//!
//! Every word's bytes and pieces live in two arrays that grow together, and
//! the table holds only where each word is in them: a new word costs no
//! allocation of its own, and emptying the table (when it is full) frees
//! nothing word by word. On a text of ever new words (a log of request
//! ids) that was a fifth of the time.

use super::SpmModel;
use super::short_word::{SHORT_WORD, ShortWords};
use crate::TokenId;
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// The most words kept: the table is emptied when it reaches this, so that
/// a text of ever new words costs no more than a text of a few.
const CACHED_WORDS: usize = 1 << 16;

/// A piece of a word: where it ends in the word, and its id.
pub type WordPiece = (u32, TokenId);

/// Short words met so far, and their pieces.
#[derive(Default)]
pub struct KeptWords {
    table: HashTable<Kept>,
    /// The words' bytes, one after another.
    bytes: Vec<u8>,
    /// The words' pieces, one word's after another's.
    pieces: Vec<WordPiece>,
    /// Where new words of up to [`SHORT_WORD`] bytes are merged.
    scratch: ShortWords,
}

/// Where one kept word is: its bytes in `bytes`, its pieces in `pieces`.
#[derive(Clone, Copy)]
struct Kept {
    hash: u64,
    bytes: u32,
    len: u32,
    pieces: u32,
    count: u32,
}

impl KeptWords {
    /// The pieces of `word`, merged now if it was not met before: here if
    /// it is short, else by `merge_longer` (which pushes them onto the
    /// vector it is given).
    pub(super) fn pieces_of(
        &mut self,
        model: &SpmModel,
        word: &[u8],
        merge_longer: impl FnOnce(&[u8], &mut Vec<WordPiece>),
    ) -> &[WordPiece] {
        let hash = rustc_hash::FxBuildHasher.hash_one(word);
        let bytes = &self.bytes;
        let found = self
            .table
            .find(hash, |k| k.hash == hash && word_of(bytes, k) == word)
            .copied();
        let kept = match found {
            Some(kept) => kept,
            None => self.keep(model, word, hash, merge_longer),
        };
        &self.pieces[kept.pieces as usize..(kept.pieces + kept.count) as usize]
    }

    /// Merge a new word and keep it (emptying the table first if full).
    fn keep(
        &mut self,
        model: &SpmModel,
        word: &[u8],
        hash: u64,
        merge_longer: impl FnOnce(&[u8], &mut Vec<WordPiece>),
    ) -> Kept {
        if self.table.len() >= CACHED_WORDS {
            self.table.clear();
            self.bytes.clear();
            self.pieces.clear();
        }
        let first = self.pieces.len();
        if word.len() <= SHORT_WORD {
            self.scratch.merge(model, word, &mut self.pieces);
        } else {
            merge_longer(word, &mut self.pieces);
        }
        let kept = Kept {
            hash,
            bytes: self.bytes.len() as u32,
            len: word.len() as u32,
            pieces: first as u32,
            count: (self.pieces.len() - first) as u32,
        };
        self.bytes.extend_from_slice(word);
        self.table.insert_unique(hash, kept, |k| k.hash);
        kept
    }
}

fn word_of<'a>(bytes: &'a [u8], k: &Kept) -> &'a [u8] {
    &bytes[k.bytes as usize..(k.bytes + k.len) as usize]
}
