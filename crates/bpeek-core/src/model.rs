//! The model at the heart of a tokenizer, one of four families as in Hugging
//! Face `tokenizers`: BPE by rank on bytes (or on a trained char-mode
//! vocabulary), BPE on characters, SentencePiece, WordPiece (WordLevel
//! included). The text steps around it are in [`crate::pipeline`].
//!
//! A merge list gives each pair its rank directly. A tiktoken rank file has
//! no merge list: there a pair's rank is the rank of the token its two
//! halves make, and a chunk that is itself a token is taken whole, as
//! tiktoken does.

use crate::encoder::MadeBy;
use crate::merge::{Merge, apply_ranked};
use crate::models::byte_index::ByteIndex;
use crate::models::char_bpe::CharBpe;
use crate::models::chunk_cache::ChunkCache;
use crate::models::laid_tables;
use crate::models::spm::{PieceType, SpmModel};
use crate::models::wordpiece::{WordPiece, WordSplit};
use crate::names::{Mode, TieRule};
use crate::normalize::added::AddedVocab;
use crate::pipeline::PreTokenizer;
use crate::vocab::Vocab;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;
use std::sync::{Arc, LazyLock, OnceLock};

/// Where a tokenizer's merges come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeSource {
    /// An ordered merge list (trained here, GPT-2 files, Hugging Face).
    List,
    /// Token ranks only (tiktoken): a pair's rank is its result's rank.
    Ranks,
}

/// What turns a text's pieces into ids and ids back into text.
#[derive(Debug, Clone)]
pub enum Model {
    /// Merges by rank within each chunk (byte-level BPE, and the char-mode
    /// tokenizers trained here).
    Ranks(RankModel),
    /// BPE on characters (GGUF `gemma4`, Hugging Face BPE without ByteLevel).
    CharBpe(Arc<CharBpe>),
    /// A SentencePiece model (the vocabulary holds its pieces).
    SentencePiece(Arc<SpmModel>),
    /// A WordPiece or WordLevel model (the vocabulary holds its pieces,
    /// `##` included).
    WordPiece(Arc<WordPiece>),
}

/// In the byte table: no token for this byte.
pub(crate) const NO_TOKEN: TokenId = TokenId::MAX;

/// Texts from this long on are encoded with a [`ChunkCache`] (below it,
/// setting up the table would cost more than it saves).
pub(crate) const CACHE_FROM: usize = 1 << 16;

/// BPE by merge rank: the merges, each pair's rank, and the id of each byte.
#[derive(Debug, Clone)]
pub struct RankModel {
    /// The id of each single byte (byte mode).
    byte_ids: Vec<TokenId>,
    /// Whether some byte has no token of its own (found once: asked for
    /// every text, and a batch has many short ones).
    drops_bytes: bool,
    tie: TieRule,
    source: MergeSource,
    merges: Vec<Merge>,
    ranks: PairRanks,
    /// The rank and result of every pair of two single-byte tokens, by the
    /// two bytes, made the first time a long text is encoded: most of a
    /// short chunk's look-ups are of these, and outside ASCII most chunks
    /// are short and new.
    byte_pairs: OnceLock<Arc<[(u32, TokenId)]>>,
    /// Tokens by their bytes, for taking a chunk whole (rank files only).
    whole: Option<ByteIndex>,
}

/// Each pair's rank and the id it makes: a map, or the table the build
/// laid out for a built-in tokenizer (a rank file's, where a pair's rank is
/// the id it makes), read in place.
#[derive(Debug, Clone)]
enum PairRanks {
    Map(FxHashMap<Pair, (u32, TokenId)>),
    Laid(Box<LaidPairs>),
}

/// A built-in tokenizer's pair tables, as the build laid them out.
#[derive(Debug, Clone)]
struct LaidPairs {
    slots: &'static [u8],
    /// The rank and id of each pair of two bytes (little-endian `rank,
    /// id` by the two bytes), read instead of looking up 65,536 pairs.
    byte_pairs: &'static [u8],
    /// The pairs as a map, made only if asked for.
    map: OnceLock<FxHashMap<Pair, (u32, TokenId)>>,
}

impl PairRanks {
    #[inline]
    fn get(&self, (left, right): Pair) -> Option<(u32, TokenId)> {
        match self {
            PairRanks::Map(m) => m.get(&(left, right)).copied(),
            PairRanks::Laid(laid) => {
                laid_tables::find_pair(laid.slots, left, right).map(|id| (id, id))
            }
        }
    }

    fn map(&self) -> &FxHashMap<Pair, (u32, TokenId)> {
        match self {
            PairRanks::Map(m) => m,
            PairRanks::Laid(laid) => laid.map.get_or_init(|| {
                laid_tables::pairs(laid.slots)
                    .map(|(pair, id)| (pair, (id, id)))
                    .collect()
            }),
        }
    }
}

/// The rank model of a tokenizer whose model is another: no bytes, no
/// merges.
static NO_RANKS: LazyLock<RankModel> = LazyLock::new(|| {
    RankModel::new(
        Vec::new(),
        TieRule::First,
        MergeSource::List,
        Vec::new(),
        FxHashMap::default(),
        None,
    )
});

impl Model {
    /// The merges by rank, or (another model) none.
    pub fn ranks(&self) -> &RankModel {
        match self {
            Model::Ranks(m) => m,
            Model::CharBpe(_) | Model::SentencePiece(_) | Model::WordPiece(_) => &NO_RANKS,
        }
    }

    /// Whether a model of its own encodes, so that tokens are pieces of
    /// normalized text rather than merges of bytes.
    pub fn is_piece_model(&self) -> bool {
        match self {
            Model::Ranks(_) => false,
            Model::CharBpe(_) | Model::SentencePiece(_) | Model::WordPiece(_) => true,
        }
    }

    /// What kind of model this is, in words, for a vocabulary in `mode`.
    pub fn kind(&self, mode: Mode) -> &'static str {
        match self {
            Model::WordPiece(w) if w.whole_words() => "wordlevel",
            Model::WordPiece(_) => "wordpiece",
            Model::CharBpe(_) => "bpe on characters",
            Model::SentencePiece(m) => m.algorithm().kind(),
            Model::Ranks(_) => match mode {
                Mode::Char => "char-level BPE",
                Mode::Byte => "byte-level BPE",
            },
        }
    }

    /// What sets the model apart, each part after `, ` on `out`.
    pub fn detail(&self, out: &mut String) {
        match self {
            Model::SentencePiece(m) => {
                if !m.normalizer_name().is_empty() {
                    *out += ", ";
                    *out += m.normalizer_name();
                }
                if m.byte_fallback() {
                    *out += ", byte fallback";
                }
                if m.split_digits() {
                    *out += ", digits split";
                }
            }
            Model::CharBpe(m) => {
                if m.byte_fallback() {
                    *out += ", byte fallback";
                }
            }
            Model::WordPiece(w) => match w.normalizer() {
                _ if matches!(w.split(), WordSplit::Llama(t) if t.lowercase) => *out += ", uncased",
                _ if matches!(w.split(), WordSplit::Llama(_)) => *out += ", cased",
                Some(n) if n.lowercase => *out += ", uncased",
                Some(_) => *out += ", cased",
                None => {}
            },
            Model::Ranks(_) => {}
        }
    }

    /// Whether `id` stands for text the model could not read, for a
    /// vocabulary in `mode`.
    pub fn is_unknown(&self, id: TokenId, mode: Mode) -> bool {
        match self {
            Model::WordPiece(w) => id == w.unk_id(),
            Model::SentencePiece(m) => id == m.unk_id(),
            // A Hugging Face file's unknown token, which a character with
            // no token (and no byte fallback) becomes.
            Model::CharBpe(m) => m.hf().and_then(|h| h.unk) == Some(id),
            Model::Ranks(_) => mode == Mode::Char && id == crate::vocab::UNK_ID,
        }
    }

    /// Whether the model counts `id` as special; `added` are the
    /// tokenizer's added tokens.
    pub fn is_special(&self, id: TokenId, added: Option<&AddedVocab>) -> bool {
        match self {
            Model::SentencePiece(m) => m.kind_of(id) == Some(PieceType::Control),
            Model::WordPiece(w) => w.is_special(id),
            Model::CharBpe(_) => {
                added.is_some_and(|a| a.tokens().iter().any(|t| t.id == id && t.special))
            }
            Model::Ranks(_) => false,
        }
    }
}

impl RankModel {
    pub fn new(
        byte_ids: Vec<TokenId>,
        tie: TieRule,
        source: MergeSource,
        merges: Vec<Merge>,
        ranks: FxHashMap<Pair, (u32, TokenId)>,
        whole: Option<ByteIndex>,
    ) -> Self {
        RankModel {
            drops_bytes: byte_ids.contains(&NO_TOKEN),
            byte_ids,
            tie,
            source,
            merges,
            ranks: PairRanks::Map(ranks),
            byte_pairs: OnceLock::new(),
            whole,
        }
    }

    /// The model of a built-in tokenizer, from the tables the build laid
    /// out: `pair_slots` (see [`laid_tables`]) and `byte_pairs` (`rank,
    /// id` by two bytes); `None` if they are not such tables.
    pub fn laid(
        byte_ids: Vec<TokenId>,
        pair_slots: &'static [u8],
        byte_pairs: &'static [u8],
        whole: ByteIndex,
    ) -> Option<Self> {
        let well_formed = laid_tables::well_formed(pair_slots, laid_tables::PAIR_SLOT)
            && byte_pairs.len() == 8 << 16;
        well_formed.then(|| RankModel {
            drops_bytes: byte_ids.contains(&NO_TOKEN),
            byte_ids,
            tie: TieRule::First,
            source: MergeSource::Ranks,
            merges: Vec::new(),
            ranks: PairRanks::Laid(Box::new(LaidPairs {
                slots: pair_slots,
                byte_pairs,
                map: OnceLock::new(),
            })),
            byte_pairs: OnceLock::new(),
            whole: Some(whole),
        })
    }

    pub fn tie(&self) -> TieRule {
        self.tie
    }

    pub fn source(&self) -> MergeSource {
        self.source
    }

    /// The ordered merge list (empty for rank files).
    pub fn merges(&self) -> &[Merge] {
        &self.merges
    }

    /// Every pair merged, with its rank and the id it makes.
    pub fn ranked_pairs(&self) -> &FxHashMap<Pair, (u32, TokenId)> {
        self.ranks.map()
    }

    /// Whether a chunk that is a token is taken whole first.
    pub fn takes_whole(&self) -> bool {
        self.whole.is_some()
    }

    /// Whether some byte has no token of its own (some GGUF files).
    pub fn drops_bytes(&self) -> bool {
        self.drops_bytes
    }

    /// Whether byte `b` has a token of its own (else it is dropped).
    pub fn has_byte(&self, b: u8) -> bool {
        self.byte_ids[b as usize] != NO_TOKEN
    }

    /// The merge that made token `id` of `vocab` (`special` if it is a
    /// special token), if one did. For rank files this is recovered by
    /// merging the token's own bytes with only the ranks below its own: the
    /// two parts left are its halves.
    pub fn made_by(&self, id: TokenId, vocab: &Vocab, special: bool) -> Option<MadeBy> {
        match self.source {
            MergeSource::List => {
                let m = self.merges.iter().find(|m| m.id == id)?;
                Some(MadeBy {
                    rank: m.rank as u32,
                    left: m.pair.0,
                    right: m.pair.1,
                })
            }
            MergeSource::Ranks => {
                let bytes = vocab.token_bytes(id);
                if bytes.len() < 2 || special {
                    return None;
                }
                let mut symbols: Vec<TokenId> =
                    bytes.iter().map(|&b| self.byte_ids[b as usize]).collect();
                apply_ranked(&mut symbols, |p| self.ranks.get(p).filter(|(r, _)| *r < id));
                match symbols[..] {
                    [left, right] => Some(MadeBy {
                        rank: id,
                        left,
                        right,
                    }),
                    _ => None,
                }
            }
        }
    }

    /// Encode char-mode text: each whitespace-separated word merged by rank.
    pub fn encode_words(&self, vocab: &Vocab, text: &[u8], out: &mut Vec<TokenId>) {
        let s = String::from_utf8_lossy(text);
        for word in s.split(char::is_whitespace).filter(|w| !w.is_empty()) {
            // With WordPiece's symbols the merges are applied in
            // order too (WordPiece itself would take the longest
            // token from the start of the word).
            let mut symbols = vocab.word_symbols(word);
            apply_ranked(&mut symbols, |p: Pair| self.ranks.get(p));
            out.extend_from_slice(&symbols);
        }
    }

    /// Encode byte-level text: cut into chunks by `pretok`, each chunk
    /// merged by rank. `as_str` is `text` as a string, when the caller has
    /// one; `at_start` says whether it starts the whole text.
    pub fn encode_bytes(
        &self,
        pretok: &PreTokenizer,
        text: &[u8],
        as_str: Option<&str>,
        at_start: bool,
        out: &mut Vec<TokenId>,
    ) {
        let mut own = (text.len() >= CACHE_FROM).then(|| ChunkCache::for_text(text.len()));
        self.encode_bytes_in(pretok, text, as_str, at_start, own.as_mut(), out);
    }

    /// [`Self::encode_bytes`] with the chunks `cache` holds from texts
    /// encoded before (by this model): many short texts are then encoded
    /// as fast as one long one. A chunk's ids depend on its bytes alone,
    /// so the ids are the same.
    pub fn encode_bytes_in(
        &self,
        pretok: &PreTokenizer,
        text: &[u8],
        as_str: Option<&str>,
        at_start: bool,
        mut cache: Option<&mut ChunkCache>,
        out: &mut Vec<TokenId>,
    ) {
        let mut symbols = Vec::new();
        // Only a vocabulary without every byte (some GGUF files)
        // drops bytes: the others keep the plain, sized copy.
        let drops_bytes = self.drops_bytes();
        let pairs = (cache.is_some() && !drops_bytes).then(|| self.byte_pair_table());
        let each = |chunk: &[u8]| {
            // A chunk of one or two bytes (most of code's
            // punctuation) is its byte or its pair, looked up
            // directly.
            if let Some(pairs) = pairs {
                match *chunk {
                    [a] => return out.push(self.byte_ids[a as usize]),
                    [a, b] => {
                        match pairs[(a as usize) << 8 | b as usize] {
                            (u32::MAX, _) => {
                                out.extend([self.byte_ids[a as usize], self.byte_ids[b as usize]])
                            }
                            (_, id) => out.push(id),
                        }
                        return;
                    }
                    _ => {}
                }
            }
            if let Some(ids) = cache.as_ref().and_then(|c| c.get(chunk)) {
                // One id at a time: a hit is a few ids, and a call
                // to copy memory costs more than they do.
                for &id in ids {
                    out.push(id);
                }
                return;
            }
            match pairs {
                Some(pairs) => self.chunk_ids_by_bytes(chunk, pairs, &mut symbols),
                None => self.chunk_ids(chunk, drops_bytes, &mut symbols),
            }
            out.extend_from_slice(&symbols);
            if let Some(c) = &mut cache {
                c.put(chunk, &symbols);
            }
        };
        pretok.for_each_chunk(text, as_str, at_start, each);
    }

    /// Every pair of two single-byte tokens' rank and result, by the two
    /// bytes (`u32::MAX` for none).
    fn byte_pair_table(&self) -> &[(u32, TokenId)] {
        self.byte_pairs.get_or_init(|| {
            if let PairRanks::Laid(laid) = &self.ranks {
                let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                return laid
                    .byte_pairs
                    .chunks_exact(8)
                    .map(|c| (word(&c[..4]), word(&c[4..])))
                    .collect();
            }
            let mut table = vec![(u32::MAX, 0); 1 << 16];
            for (a, &x) in self.byte_ids.iter().enumerate() {
                for (b, &y) in self.byte_ids.iter().enumerate() {
                    if let Some(r) = self.ranks.get((x, y)) {
                        table[a << 8 | b] = r;
                    }
                }
            }
            table.into()
        })
    }

    /// [`Self::chunk_ids`] for a vocabulary with every byte, its first
    /// pairs' ranks read from `pairs` by their bytes.
    fn chunk_ids_by_bytes(
        &self,
        chunk: &[u8],
        pairs: &[(u32, TokenId)],
        symbols: &mut Vec<TokenId>,
    ) {
        symbols.clear();
        if let Some(whole) = &self.whole
            && let Some(id) = whole.get(chunk)
        {
            symbols.push(id);
            return;
        }
        symbols.extend(chunk.iter().map(|&b| self.byte_ids[b as usize]));
        let first = |i: usize| pairs[(chunk[i] as usize) << 8 | chunk[i + 1] as usize];
        crate::merge::apply_ranked_seeded(symbols, first, |p: Pair| self.ranks.get(p));
    }

    /// The ids of one chunk, in `symbols`; `drops_bytes` says whether some
    /// byte has no token (then it is dropped, as llama.cpp does).
    #[inline]
    pub fn chunk_ids(&self, chunk: &[u8], drops_bytes: bool, symbols: &mut Vec<TokenId>) {
        symbols.clear();
        if let Some(whole) = &self.whole
            && let Some(id) = whole.get(chunk)
        {
            symbols.push(id);
            return;
        }
        let ids = chunk.iter().map(|&b| self.byte_ids[b as usize]);
        if drops_bytes {
            symbols.extend(ids.filter(|&id| id != NO_TOKEN));
        } else {
            symbols.extend(ids);
        }
        apply_ranked(symbols, |p: Pair| self.ranks.get(p));
    }
}
