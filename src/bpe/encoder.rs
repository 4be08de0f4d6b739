//! A trained tokenizer: merges replayed by rank within each chunk to encode,
//! bytes concatenated to decode.

use crate::bpe::merge::apply_ranked;
use crate::bpe::names::{Mode, TieRule};
use crate::bpe::pretok::Pretok;
use crate::bpe::trainer::Merge;
use crate::bpe::vocab::{END_OF_WORD, END_OF_WORD_ID, Vocab};
use crate::bpe::{Pair, TokenId};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;

/// A special token such as `<|endoftext|>`, with its own id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialToken {
    pub text: String,
    pub id: TokenId,
}

#[derive(Debug, Clone)]
pub struct Tokenizer {
    vocab: Vocab,
    pretok: Pretok,
    tie: TieRule,
    merges: Vec<Merge>,
    ranks: FxHashMap<Pair, (u32, TokenId)>,
    specials: Vec<SpecialToken>,
}

/// One encoded token with what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedToken {
    pub id: TokenId,
    /// Its bytes (char mode: its symbol string, `</w>` included).
    pub bytes: Vec<u8>,
    pub special: bool,
}

impl Tokenizer {
    /// A tokenizer from a vocabulary whose merged tokens are exactly `merges`.
    pub fn from_training(vocab: Vocab, pretok: Pretok, tie: TieRule, merges: Vec<Merge>) -> Self {
        let ranks = merges
            .iter()
            .map(|m| (m.pair, (m.rank as u32, m.id)))
            .collect();
        Tokenizer {
            vocab,
            pretok,
            tie,
            merges,
            ranks,
            specials: Vec::new(),
        }
    }

    /// Add special tokens, numbered after the last merged token.
    pub fn with_specials(mut self, texts: &[String]) -> Self {
        for t in texts {
            if !self.specials.iter().any(|s| &s.text == t) {
                let id = (self.vocab.len() + self.specials.len()) as TokenId;
                self.specials.push(SpecialToken {
                    text: t.clone(),
                    id,
                });
            }
        }
        self
    }

    pub(crate) fn set_specials(&mut self, specials: Vec<SpecialToken>) {
        self.specials = specials;
    }

    pub fn mode(&self) -> Mode {
        self.vocab.mode()
    }

    pub fn pretok(&self) -> Pretok {
        self.pretok
    }

    pub fn tie(&self) -> TieRule {
        self.tie
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    pub fn merges(&self) -> &[Merge] {
        &self.merges
    }

    pub fn specials(&self) -> &[SpecialToken] {
        &self.specials
    }

    /// Every id this tokenizer can produce: base, merged and special.
    pub fn vocab_size(&self) -> usize {
        self.vocab.len() + self.specials.len()
    }

    /// Encode text. Text that looks like a special token is ordinary text
    /// unless `allow_special` is set.
    pub fn encode(&self, text: &str, allow_special: bool) -> Vec<TokenId> {
        let mut ids = Vec::new();
        self.for_each_piece(text.as_bytes(), allow_special, |piece| match piece {
            Piece::Special(id) => ids.push(id),
            Piece::Text(t) => self.encode_ordinary(t, &mut ids),
        });
        ids
    }

    /// Encode raw bytes. Byte mode takes any bytes; char mode needs UTF-8.
    pub fn encode_bytes(&self, text: &[u8], allow_special: bool) -> Result<Vec<TokenId>> {
        match self.mode() {
            Mode::Char => {
                let s = std::str::from_utf8(text).map_err(|e| {
                    Error::input(format!(
                        "invalid UTF-8 at byte offset {} (a char-mode tokenizer needs UTF-8 text)",
                        e.valid_up_to()
                    ))
                })?;
                Ok(self.encode(s, allow_special))
            }
            Mode::Byte => {
                let mut ids = Vec::new();
                self.for_each_piece(text, allow_special, |piece| match piece {
                    Piece::Special(id) => ids.push(id),
                    Piece::Text(t) => self.encode_ordinary(t, &mut ids),
                });
                Ok(ids)
            }
        }
    }

    /// Encode and describe each token.
    pub fn encode_detailed(&self, text: &[u8], allow_special: bool) -> Result<Vec<EncodedToken>> {
        let ids = self.encode_bytes(text, allow_special)?;
        Ok(ids.into_iter().map(|id| self.describe(id)).collect())
    }

    /// What token `id` stands for. Panics on an unknown id: check with
    /// [`Tokenizer::contains`] first.
    pub fn describe(&self, id: TokenId) -> EncodedToken {
        if let Some(s) = self.special(id) {
            return EncodedToken {
                id,
                bytes: s.text.as_bytes().to_vec(),
                special: true,
            };
        }
        EncodedToken {
            id,
            bytes: self.vocab.token_bytes(id).to_vec(),
            special: false,
        }
    }

    pub fn contains(&self, id: TokenId) -> bool {
        self.vocab.contains(id) || self.special(id).is_some()
    }

    fn special(&self, id: TokenId) -> Option<&SpecialToken> {
        self.specials.iter().find(|s| s.id == id)
    }

    /// Encode text with no special tokens in it.
    fn encode_ordinary(&self, text: &[u8], out: &mut Vec<TokenId>) {
        let rank_of = |p: Pair| self.ranks.get(&p).copied();
        match self.mode() {
            Mode::Byte => {
                let mut symbols = Vec::new();
                for r in self.pretok.split(text) {
                    symbols.clear();
                    symbols.extend(text[r].iter().map(|&b| b as TokenId));
                    apply_ranked(&mut symbols, rank_of);
                    out.extend_from_slice(&symbols);
                }
            }
            Mode::Char => {
                let s = String::from_utf8_lossy(text);
                for word in s.split(char::is_whitespace).filter(|w| !w.is_empty()) {
                    let mut symbols: Vec<TokenId> =
                        word.chars().map(|c| self.vocab.char_id(c)).collect();
                    symbols.push(END_OF_WORD_ID);
                    apply_ranked(&mut symbols, rank_of);
                    out.extend_from_slice(&symbols);
                }
            }
        }
    }

    /// Split `text` at the special tokens (leftmost, longest first) when
    /// they are allowed.
    fn for_each_piece<'t>(
        &self,
        text: &'t [u8],
        allow_special: bool,
        mut f: impl FnMut(Piece<'t>),
    ) {
        if !allow_special || self.specials.is_empty() {
            f(Piece::Text(text));
            return;
        }
        let mut start = 0;
        let mut i = 0;
        while i < text.len() {
            let hit = self
                .specials
                .iter()
                .filter(|s| !s.text.is_empty() && text[i..].starts_with(s.text.as_bytes()))
                .max_by_key(|s| s.text.len());
            if let Some(s) = hit {
                if start < i {
                    f(Piece::Text(&text[start..i]));
                }
                f(Piece::Special(s.id));
                i += s.text.len();
                start = i;
            } else {
                i += 1;
            }
        }
        if start < text.len() {
            f(Piece::Text(&text[start..]));
        }
    }

    /// The bytes the ids stand for, concatenated (char mode: words joined by
    /// single spaces).
    pub fn decode_bytes(&self, ids: &[TokenId]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for (i, &id) in ids.iter().enumerate() {
            if !self.contains(id) {
                return Err(Error::input(format!(
                    "id {id} (argument {}) is out of range: this tokenizer has ids 0-{}",
                    i + 1,
                    self.vocab_size().saturating_sub(1)
                )));
            }
            let token = self.describe(id);
            if self.mode() == Mode::Char && !token.special && self.vocab.ends_word(id) {
                out.extend_from_slice(&token.bytes[..token.bytes.len() - END_OF_WORD.len()]);
                out.push(b' ');
            } else {
                out.extend_from_slice(&token.bytes);
            }
        }
        if self.mode() == Mode::Char && out.last() == Some(&b' ') {
            out.pop();
        }
        Ok(out)
    }

    /// Decode to text; bytes that are not valid UTF-8 are written as `<XX>`.
    pub fn decode(&self, ids: &[TokenId]) -> Result<String> {
        let bytes = self.decode_bytes(ids)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => crate::bpe::display::token_text(e.as_bytes()),
        })
    }
}

enum Piece<'t> {
    Text(&'t [u8]),
    Special(TokenId),
}
