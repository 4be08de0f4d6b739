//! The vocabulary: what each token id stands for.
//!
//! Byte mode: ids 0-255 are the byte values. Char mode: id 0 is `[UNK]`, id 1
//! the end-of-word marker `</w>`, then the training alphabet in code point
//! order. Merged tokens follow in rank order in both modes.

use crate::names::Mode;
use crate::token_bytes::TokenBytes;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;

pub const UNK: &str = "[UNK]";
pub const END_OF_WORD: &str = "</w>";
pub const UNK_ID: TokenId = 0;
pub const END_OF_WORD_ID: TokenId = 1;

#[derive(Debug, Clone)]
pub struct Vocab {
    mode: Mode,
    /// The bytes of each token (char mode: the UTF-8 of its symbol string).
    bytes: TokenBytes,
    /// How many base symbols each token is made of: a position measure that
    /// keeps its order under merging, used to find a pair's first occurrence.
    units: Vec<u32>,
    /// How many corpus bytes each token covers (`</w>` covers none).
    corpus_len: Vec<u32>,
    /// Char mode: whether the token ends with the end-of-word marker.
    ends_word: Vec<bool>,
    /// Char mode: the id of each alphabet character.
    alphabet: FxHashMap<char, TokenId>,
    /// Char mode with WordPiece's symbols: the id of each character as it
    /// stands after a word's first (`##c`). Empty otherwise.
    continuing: FxHashMap<char, TokenId>,
    base: usize,
    /// Whether `units`, `corpus_len` and `ends_word` are left empty and
    /// read off the bytes instead (a byte-level vocabulary read whole,
    /// where they are each token's length and `false`: making them took a
    /// tenth of the time a built-in tokenizer took to load).
    lens_from_bytes: bool,
}

/// What WordPiece puts before a symbol that continues a word.
pub const CONTINUING: &str = "##";

impl Vocab {
    /// The 256 byte tokens.
    pub fn bytes() -> Self {
        Vocab {
            mode: Mode::Byte,
            bytes: (0..=255u8).map(|b| vec![b]).collect::<Vec<_>>().into(),
            units: vec![1; 256],
            corpus_len: vec![1; 256],
            ends_word: vec![false; 256],
            alphabet: FxHashMap::default(),
            continuing: FxHashMap::default(),
            base: 256,
            lens_from_bytes: false,
        }
    }

    /// A byte-level vocabulary given as the bytes of each id (imported
    /// tokenizers). Empty entries are ids this vocabulary does not use.
    pub fn from_tokens(tokens: impl Into<TokenBytes>) -> Self {
        let tokens = tokens.into();
        let n = tokens.len();
        Vocab {
            mode: Mode::Byte,
            units: Vec::new(),
            corpus_len: Vec::new(),
            ends_word: Vec::new(),
            bytes: tokens,
            alphabet: FxHashMap::default(),
            continuing: FxHashMap::default(),
            base: n,
            lens_from_bytes: true,
        }
    }

    /// `[UNK]`, `</w>` and the given characters, sorted and de-duplicated.
    pub fn chars(chars: impl IntoIterator<Item = char>) -> Self {
        let mut alphabet: Vec<char> = chars.into_iter().collect();
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut v = Vocab {
            mode: Mode::Char,
            bytes: vec![UNK.as_bytes().to_vec(), END_OF_WORD.as_bytes().to_vec()].into(),
            units: vec![1, 1],
            corpus_len: vec![0, 0],
            ends_word: vec![false, true],
            alphabet: FxHashMap::default(),
            continuing: FxHashMap::default(),
            base: 0,
            lens_from_bytes: false,
        };
        for c in alphabet {
            let id = v.bytes.len() as TokenId;
            v.alphabet.insert(c, id);
            let mut buf = [0u8; 4];
            v.bytes.push(c.encode_utf8(&mut buf).as_bytes());
            v.units.push(1);
            v.corpus_len.push(c.len_utf8() as u32);
            v.ends_word.push(false);
        }
        v.base = v.bytes.len();
        v
    }

    /// `[UNK]`, `</w>` (never used), then each character that starts one
    /// of `words` and each that stands after a word's first, written with
    /// WordPiece's `##` (`hugs` is `h ##u ##g ##s`), each set in code
    /// point order: the symbols the Hugging Face course's WordPiece
    /// training starts from.
    pub fn wordpiece_chars<'w>(words: impl IntoIterator<Item = &'w str>) -> Self {
        let mut first: Vec<char> = Vec::new();
        let mut rest: Vec<char> = Vec::new();
        for word in words {
            let mut chars = word.chars();
            first.extend(chars.next());
            rest.extend(chars);
        }
        let mut v = Vocab::chars(first);
        rest.sort_unstable();
        rest.dedup();
        for c in rest {
            let id = v.bytes.len() as TokenId;
            v.continuing.insert(c, id);
            v.bytes.push(format!("{CONTINUING}{c}").as_bytes());
            v.units.push(1);
            v.corpus_len.push(c.len_utf8() as u32);
            v.ends_word.push(false);
        }
        v.base = v.bytes.len();
        v
    }

    /// Whether the symbols are WordPiece's (`##` before a continuing one).
    pub fn has_continuing(&self) -> bool {
        !self.continuing.is_empty()
    }

    /// Char mode with WordPiece's symbols: the id of `c` after a word's
    /// first character, `[UNK]` if it was never seen there.
    pub fn continuing_id(&self, c: char) -> TokenId {
        self.continuing.get(&c).copied().unwrap_or(UNK_ID)
    }

    /// A word's symbols before any merge: its characters (WordPiece's:
    /// the first as it is, the others as `##c`; otherwise each character
    /// and `</w>`).
    pub fn word_symbols(&self, word: &str) -> Vec<TokenId> {
        if self.has_continuing() {
            let mut chars = word.chars();
            let first = chars.next().map(|c| self.char_id(c));
            first
                .into_iter()
                .chain(chars.map(|c| self.continuing_id(c)))
                .collect()
        } else {
            word.chars()
                .map(|c| self.char_id(c))
                .chain(std::iter::once(END_OF_WORD_ID))
                .collect()
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Ids below this are base symbols; merges start here.
    pub fn base_size(&self) -> usize {
        self.base
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn contains(&self, id: TokenId) -> bool {
        self.bytes.get(id).is_some_and(|b| !b.is_empty())
    }

    /// The bytes of token `id` (char mode: its symbol string).
    pub fn token_bytes(&self, id: TokenId) -> &[u8] {
        self.bytes.token(id)
    }

    pub fn units(&self, id: TokenId) -> u32 {
        match self.lens_from_bytes {
            true => self.bytes.token(id).len() as u32,
            false => self.units[id as usize],
        }
    }

    pub fn corpus_len(&self, id: TokenId) -> u32 {
        match self.lens_from_bytes {
            true => self.bytes.token(id).len() as u32,
            false => self.corpus_len[id as usize],
        }
    }

    /// Make `units`, `corpus_len` and `ends_word` for every token before
    /// they change.
    fn own_lens(&mut self) {
        if self.lens_from_bytes {
            self.units = self.bytes.iter().map(|t| t.len() as u32).collect();
            self.corpus_len = self.units.clone();
            self.ends_word = vec![false; self.units.len()];
            self.lens_from_bytes = false;
        }
    }

    /// Char mode: the id of a character, `[UNK]` if it was never seen.
    pub fn char_id(&self, c: char) -> TokenId {
        self.alphabet.get(&c).copied().unwrap_or(UNK_ID)
    }

    /// The alphabet in id order (char mode; empty in byte mode).
    pub fn alphabet(&self) -> Vec<char> {
        let mut chars: Vec<(TokenId, char)> = self.alphabet.iter().map(|(c, i)| (*i, *c)).collect();
        chars.sort_unstable();
        chars.into_iter().map(|(_, c)| c).collect()
    }

    /// The bytes of the token merging `pair` makes: the two halves' bytes
    /// (WordPiece's symbols: `##g + ##s` is `##gs`, `h + ##u` is `hu`).
    pub fn joined(&self, (a, b): Pair) -> Vec<u8> {
        let mut joined = self.bytes.token(a).to_vec();
        let right = self.bytes.token(b);
        let right = match self.has_continuing() {
            true => right.strip_prefix(CONTINUING.as_bytes()).unwrap_or(right),
            false => right,
        };
        joined.extend_from_slice(right);
        joined
    }

    /// Add the token made by merging `pair`; returns its id.
    pub fn push_merge(&mut self, (a, b): Pair) -> TokenId {
        self.own_lens();
        let id = self.bytes.len() as TokenId;
        // As `joined` makes them, without a copy of its own.
        let skip = match self.has_continuing() {
            true if self.bytes.token(b).starts_with(CONTINUING.as_bytes()) => CONTINUING.len(),
            _ => 0,
        };
        self.bytes.push_joined(a, b, skip);
        self.units
            .push(self.units[a as usize] + self.units[b as usize]);
        self.corpus_len
            .push(self.corpus_len[a as usize] + self.corpus_len[b as usize]);
        self.ends_word.push(self.ends_word[b as usize]);
        id
    }

    /// Remove the most recent merged token.
    pub fn pop_merge(&mut self) {
        self.own_lens();
        if self.bytes.len() > self.base {
            self.bytes.pop();
            self.units.pop();
            self.corpus_len.pop();
            self.ends_word.pop();
        }
    }

    /// Keep only the base symbols and the first `merges` merged tokens.
    pub fn truncate_merges(&mut self, merges: usize) {
        self.own_lens();
        let keep = self.base + merges;
        self.bytes.truncate(keep);
        self.units.truncate(keep);
        self.corpus_len.truncate(keep);
        self.ends_word.truncate(keep);
    }

    /// Char mode: whether the token ends a word (ends with `</w>`).
    pub fn ends_word(&self, id: TokenId) -> bool {
        !self.lens_from_bytes && self.ends_word[id as usize]
    }
}
