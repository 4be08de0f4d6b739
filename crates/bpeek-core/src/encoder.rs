//! A tokenizer: a pipeline in the manner of Hugging Face `tokenizers`.
//! Special and added tokens are cut out of the text first (normalizing the
//! text between them), a pre-tokenizer cuts the rest into chunks, the model
//! ([`crate::model::Model`]) turns each into ids, and the post-processor's
//! template may put tokens around them; decoding goes back through the model.

use crate::error::{Error, Result};
use crate::merge::Merge;
use crate::model::{Model, NO_TOKEN, RankModel};
use crate::models::byte_index::ByteIndex;
use crate::models::char_bpe::CharBpe;
use crate::models::chunk_cache::ChunkCache;
use crate::models::rank_pairs::pair_ranks;
use crate::models::spm::{Algorithm, KeptWords, NoPiece, SpmModel};
use crate::models::wordpiece::WordPiece;
use crate::names::{Mode, TieRule};
use crate::normalize::added::AddedVocab;
use crate::pipeline::{AddedTokens, Cut, Piece, PreTokenizer};
use crate::pretokenize::pattern_work;
use crate::pretokenize::pretok::{Chunker, Digits, Pretok};
use crate::pretokenize::regex_split::RegexChain;
use crate::token_bytes::TokenBytes;
use crate::vocab::Vocab;
use crate::{Pair, TokenId};
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub use crate::model::MergeSource;
pub use crate::post::Template;
pub use crate::post::chat::ChatTemplate;
pub use crate::specials::SpecialToken;
use crate::specials::Specials;

#[derive(Debug, Clone)]
pub struct Tokenizer {
    pub(crate) name: String,
    pub(crate) vocab: Vocab,
    pub(crate) added: AddedTokens,
    pub(crate) pretok: PreTokenizer,
    pub(crate) model: Model,
    /// The tokens the model's post-processor puts around a text, when
    /// `--add-special-tokens` asks for them.
    pub(crate) template: Option<Arc<Template>>,
    /// The chat template its repository or file carries, if any.
    pub(crate) chat: Option<Arc<ChatTemplate>>,
    /// A file's `truncation` and `padding`, which `encode` applies.
    pub(crate) lengths: Option<Arc<crate::post::length::LengthRules>>,
    /// A byte-level file's decoder steps other than a first `ByteLevel`.
    pub(crate) after_bytes: Option<Arc<crate::decode::ByteLevelChain>>,
    /// What decoding does with special tokens.
    pub(crate) special_decoding: crate::decode::SpecialDecoding,
}

/// One encoded token with what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedToken {
    pub id: TokenId,
    /// Its bytes (char mode: its symbol string, `</w>` included).
    pub bytes: Vec<u8>,
    pub special: bool,
}

/// The merge that made a token: its rank and its two halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MadeBy {
    pub rank: u32,
    pub left: TokenId,
    pub right: TokenId,
}

impl Tokenizer {
    /// A tokenizer from a vocabulary whose merged tokens are exactly `merges`.
    pub fn from_training(vocab: Vocab, chunker: Chunker, tie: TieRule, merges: Vec<Merge>) -> Self {
        let ranks = merges
            .iter()
            .map(|m| (m.pair, (m.rank as u32, m.id)))
            .collect();
        let model = RankModel::new(
            (0..256).collect(),
            tie,
            MergeSource::List,
            merges,
            ranks,
            None,
        );
        Self::with_model("trained", vocab, chunker, Model::Ranks(model))
    }

    /// The 256-token baseline: every byte is a token.
    pub fn bytes_only() -> Self {
        let mut t = Self::from_training(
            Vocab::bytes(),
            Chunker::default(),
            TieRule::First,
            Vec::new(),
        );
        t.name = "bytes".into();
        t
    }

    /// A byte-level tokenizer from a vocabulary (id -> bytes) and a merge
    /// list in rank order (GPT-2 files, Hugging Face).
    pub fn from_merge_list(
        name: &str,
        tokens: Vec<Vec<u8>>,
        merges: &[(TokenId, TokenId)],
        pretok: Pretok,
        specials: Vec<SpecialToken>,
        whole_words: bool,
    ) -> Result<Self> {
        Self::from_merge_list_with(name, tokens, merges, pretok, specials, whole_words, false)
    }

    /// [`Tokenizer::from_merge_list`]; with `missing_bytes_ok`, a byte the
    /// vocabulary has no token for is dropped from the text (as Hugging
    /// Face and llama.cpp do) rather than the vocabulary refused.
    pub fn from_merge_list_with(
        name: &str,
        tokens: Vec<Vec<u8>>,
        merges: &[(TokenId, TokenId)],
        pretok: Pretok,
        specials: Vec<SpecialToken>,
        whole_words: bool,
        missing_bytes_ok: bool,
    ) -> Result<Self> {
        let (vocab, by_bytes) = Self::byte_vocab(tokens)?;
        let byte_ids = if missing_bytes_ok {
            (0..=255u8)
                .map(|b| by_bytes.get(&[b]).unwrap_or(NO_TOKEN))
                .collect()
        } else {
            Self::byte_ids(&by_bytes)?
        };
        let mut ranks = FxHashMap::with_capacity_and_hasher(merges.len(), Default::default());
        let mut list = Vec::with_capacity(merges.len());
        let mut joined = Vec::new();
        for (rank, &(a, b)) in merges.iter().enumerate() {
            for id in [a, b] {
                if !vocab.contains(id) {
                    return Err(Error::input(format!(
                        "merge {rank}: id {id} is not in the vocabulary"
                    )));
                }
            }
            joined.clear();
            joined.extend_from_slice(vocab.token_bytes(a));
            joined.extend_from_slice(vocab.token_bytes(b));
            let Some(id) = by_bytes.get(&joined) else {
                return Err(Error::input(format!(
                    "merge {rank}: the result {:?} is not in the vocabulary",
                    crate::display::token_text(&joined)
                )));
            };
            ranks.entry((a, b)).or_insert((rank as u32, id));
            list.push(Merge {
                rank,
                pair: (a, b),
                id,
                count: 0,
                replacements: 0,
            });
        }
        let model = RankModel::new(
            byte_ids,
            TieRule::First,
            MergeSource::List,
            list,
            ranks,
            whole_words.then_some(by_bytes),
        );
        let mut t = Self::with_model(
            name,
            vocab,
            Chunker::new(pretok, Default::default()),
            Model::Ranks(model),
        );
        t.added.set_specials(Specials::new(specials));
        Ok(t)
    }

    /// A tokenizer from tiktoken-style ranks: `tokens[r]` is the token of
    /// rank (and id) `r`.
    pub fn from_ranks(
        name: &str,
        tokens: Vec<Vec<u8>>,
        pretok: Pretok,
        specials: Vec<SpecialToken>,
    ) -> Result<Self> {
        let (vocab, by_bytes) = Self::byte_vocab(tokens)?;
        let byte_ids = Self::byte_ids(&by_bytes)?;
        let ranks = pair_ranks(
            vocab.len(),
            |id| vocab.token_bytes(id),
            &byte_ids,
            |bytes| by_bytes.get(bytes),
        );
        Ok(Self::ranked(
            name, vocab, byte_ids, ranks, by_bytes, pretok, specials,
        ))
    }

    /// A tokenizer from tiktoken-style ranks whose pairs are already known
    /// (the built-in tokenizers, derived at build time by [`pair_ranks`]):
    /// each entry is a pair and the token it makes.
    pub fn from_ranks_and_pairs(
        name: &str,
        tokens: impl Into<TokenBytes>,
        pairs: impl ExactSizeIterator<Item = (Pair, TokenId)>,
        pretok: Pretok,
        specials: Vec<SpecialToken>,
    ) -> Result<Self> {
        let (vocab, by_bytes) = Self::byte_vocab(tokens)?;
        let byte_ids = Self::byte_ids(&by_bytes)?;
        let mut ranks = FxHashMap::with_capacity_and_hasher(pairs.len(), Default::default());
        for (pair, id) in pairs {
            if !vocab.contains(id) {
                return Err(Error::input(format!(
                    "pair {pair:?} makes id {id}, which is not in the vocabulary"
                )));
            }
            ranks.insert(pair, (id, id));
        }
        Ok(Self::ranked(
            name, vocab, byte_ids, ranks, by_bytes, pretok, specials,
        ))
    }

    /// A built-in tokenizer from the tables its build laid out, read in
    /// place: its tokens, `token_slots` and `pair_slots` (hash tables of
    /// the ids by bytes and by pair, see
    /// [`crate::models::laid_tables`]) and `byte_pairs` (the rank and id
    /// of each pair of two bytes). Nothing is built but the few small
    /// tables: the process that encodes one text does not pay for hash
    /// maps of every token and pair. `None` if a table is damaged.
    pub(crate) fn from_laid_tables(
        name: &str,
        tokens: TokenBytes,
        token_slots: &'static [u8],
        pair_slots: &'static [u8],
        byte_pairs: &'static [u8],
        pretok: Pretok,
        specials: Vec<SpecialToken>,
    ) -> Option<Self> {
        let by_bytes = ByteIndex::laid(&tokens, token_slots)?;
        let byte_ids = Self::byte_ids(&by_bytes).ok()?;
        let model = RankModel::laid(byte_ids, pair_slots, byte_pairs, by_bytes)?;
        let mut t = Self::with_model(
            name,
            Vocab::from_tokens(tokens),
            Chunker::new(pretok, Default::default()),
            Model::Ranks(model),
        );
        t.added.set_specials(Specials::new(specials));
        Some(t)
    }

    fn ranked(
        name: &str,
        vocab: Vocab,
        byte_ids: Vec<TokenId>,
        ranks: FxHashMap<Pair, (u32, TokenId)>,
        by_bytes: ByteIndex,
        pretok: Pretok,
        specials: Vec<SpecialToken>,
    ) -> Self {
        let model = RankModel::new(
            byte_ids,
            TieRule::First,
            MergeSource::Ranks,
            Vec::new(),
            ranks,
            Some(by_bytes),
        );
        let mut t = Self::with_model(
            name,
            vocab,
            Chunker::new(pretok, Default::default()),
            Model::Ranks(model),
        );
        t.added.set_specials(Specials::new(specials));
        t
    }

    /// A tokenizer that encodes and decodes with a SentencePiece model. Its
    /// vocabulary is the model's pieces, each standing for its text (`▁` as
    /// it is; a byte piece `<0xE3>` for its one byte).
    pub fn from_sentencepiece(name: &str, model: SpmModel) -> Self {
        let tokens = model.pieces().iter().map(SpmModel::token_bytes).collect();
        Self::with_piece_model(name, tokens, Model::SentencePiece(Arc::new(model)), None)
    }

    /// The tokenizer with `added` tokens matched whole in the text before
    /// its model sees it.
    pub fn with_added(mut self, added: Option<AddedVocab>) -> Self {
        self.added.set_hf(added);
        self
    }

    /// A tokenizer that encodes and decodes with a WordPiece model; `added`
    /// are the tokens matched whole in the text before it is normalized.
    pub fn from_wordpiece(name: &str, model: WordPiece, added: Option<AddedVocab>) -> Self {
        let tokens = model
            .pieces()
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect();
        Self::with_piece_model(name, tokens, Model::WordPiece(Arc::new(model)), added)
    }

    /// A tokenizer that encodes and decodes with BPE on characters; `added`
    /// are the tokens matched whole in the text.
    pub fn from_char_bpe(
        name: &str,
        model: CharBpe,
        size: usize,
        added: Option<AddedVocab>,
    ) -> Self {
        let tokens = (0..size as TokenId)
            .map(|id| model.token_bytes(id))
            .collect();
        Self::with_piece_model(name, tokens, Model::CharBpe(Arc::new(model)), added)
    }

    /// A tokenizer of a model of its own, whose pieces are `tokens`; no
    /// chunks are cut before it.
    fn with_piece_model(
        name: &str,
        tokens: Vec<Vec<u8>>,
        model: Model,
        added: Option<AddedVocab>,
    ) -> Self {
        let chunker = Chunker::new(Pretok::None, Default::default());
        Self::with_model(name, Vocab::from_tokens(tokens), chunker, model).with_added(added)
    }

    /// A tokenizer of `model` cutting text by `chunker`, with nothing
    /// around it (no special or added tokens, no template).
    fn with_model(name: &str, vocab: Vocab, chunker: Chunker, model: Model) -> Self {
        // Byte-level ranks write every token, special ones too, as
        // tiktoken's `decode` does; the other models leave out their own
        // control tokens until their reader says which to leave out.
        let special_decoding = match model {
            Model::Ranks(_) => crate::decode::SpecialDecoding::default(),
            _ => crate::decode::SpecialDecoding::ModelOwn(
                "this tokenizer: its model leaves its control tokens out",
            ),
        };
        Tokenizer {
            name: name.into(),
            vocab,
            added: AddedTokens::default(),
            pretok: PreTokenizer::new(chunker),
            model,
            template: None,
            chat: None,
            lengths: None,
            after_bytes: None,
            special_decoding,
        }
    }

    /// Give the tokenizer the template its file's post-processor sets.
    pub fn set_template(&mut self, template: Template) {
        self.template = Some(Arc::new(template));
    }

    /// Give the tokenizer the chat template its repository carries.
    pub fn set_chat(&mut self, chat: ChatTemplate) {
        self.chat = Some(Arc::new(chat));
    }

    /// The chat template, if its repository or file carries one.
    pub fn chat(&self) -> Option<&ChatTemplate> {
        self.chat.as_deref()
    }

    /// Make `text` a special token standing for the existing id `id`
    /// (a token a repository's config marks special).
    pub fn add_special_at(&mut self, text: &str, id: TokenId) {
        if !self.added.specials().has_text(text) {
            self.added.specials_mut().push(SpecialToken {
                text: text.into(),
                id,
            });
        }
    }

    /// The template around a text, if the file says one.
    pub fn template(&self) -> Option<&Template> {
        self.template.as_deref()
    }

    /// [`Tokenizer::encode`], with the tokens the model's post-processor
    /// puts around the text when `add_special` is set (`--add-special-tokens`):
    /// an error if the file's post-processor is one bpeek does not read.
    pub fn encode_for_model(
        &self,
        text: &[u8],
        allow_special: bool,
        add_special: bool,
    ) -> Result<Vec<TokenId>> {
        let ids = self.encode_bytes(text, allow_special)?;
        self.around(ids, add_special)
    }

    /// A cache for encoding many texts of about `bytes` bytes in all, one
    /// after another, with [`Tokenizer::encode_for_model_in`]: byte-level
    /// BPE by rank keeps chunks, when the texts are long enough together to
    /// pay for its tables; SentencePiece BPE keeps words.
    pub fn encode_cache(&self, bytes: usize) -> EncodeCache {
        let chunks = matches!(self.model, Model::Ranks(_))
            && self.mode() == Mode::Byte
            && bytes >= crate::model::CACHE_FROM;
        let words =
            matches!(&self.model, Model::SentencePiece(m) if m.algorithm() == Algorithm::Bpe);
        EncodeCache(if chunks {
            Kept::Chunks(ChunkCache::for_text(bytes))
        } else if words {
            Kept::Words(KeptWords::default())
        } else {
            Kept::Nothing
        })
    }

    /// [`Tokenizer::encode_for_model`], finding the chunks met in the
    /// texts encoded before with `cache` (made by this tokenizer's
    /// [`Tokenizer::encode_cache`]) in it: the same ids, found sooner.
    pub fn encode_for_model_in(
        &self,
        text: &[u8],
        allow_special: bool,
        add_special: bool,
        cache: &mut EncodeCache,
    ) -> Result<Vec<TokenId>> {
        let ids =
            self.watched(|| self.encode_bytes_unwatched(text, allow_special, Some(cache)))??;
        self.around(ids, add_special)
    }

    /// [`Tokenizer::encode_for_model_in`], the ids put after those in
    /// `out`: a caller gathering many texts' ids in one vector makes no
    /// vector per text. On an error `out` is as it was.
    pub fn encode_for_model_onto(
        &self,
        text: &[u8],
        allow_special: bool,
        add_special: bool,
        cache: &mut EncodeCache,
        out: &mut Vec<TokenId>,
    ) -> Result<()> {
        if add_special && self.template.is_some() {
            let ids = self.encode_for_model_in(text, allow_special, add_special, cache)?;
            out.extend_from_slice(&ids);
            return Ok(());
        }
        let before = out.len();
        let got = self.watched(|| self.encode_bytes_onto(text, allow_special, cache, out));
        if !matches!(got, Ok(Ok(()))) {
            out.truncate(before);
        }
        got?
    }

    /// [`Tokenizer::encode_bytes_unwatched`] with a cache, onto `out`.
    fn encode_bytes_onto(
        &self,
        text: &[u8],
        allow_special: bool,
        cache: &mut EncodeCache,
        out: &mut Vec<TokenId>,
    ) -> Result<()> {
        let whole = match self.mode() {
            Mode::Char => Some(std::str::from_utf8(text).map_err(|e| not_utf8(&e))?),
            Mode::Byte => None,
        };
        self.encode_pieces_onto(text, whole, allow_special, Some(cache), out);
        Ok(())
    }

    /// `ids`, with the template's tokens around them when `add_special`.
    pub(crate) fn around(&self, ids: Vec<TokenId>, add_special: bool) -> Result<Vec<TokenId>> {
        if !add_special {
            return Ok(ids);
        }
        match self.template.as_deref() {
            None => Ok(ids),
            Some(template) => template.around(ids),
        }
    }

    /// The BPE-on-characters model this tokenizer encodes with, if it is one.
    pub fn char_bpe(&self) -> Option<&CharBpe> {
        match &self.model {
            Model::CharBpe(m) => Some(m),
            Model::Ranks(_) | Model::SentencePiece(_) | Model::WordPiece(_) => None,
        }
    }

    /// The WordPiece model this tokenizer encodes with, if it is one.
    pub fn wordpiece(&self) -> Option<&WordPiece> {
        match &self.model {
            Model::WordPiece(m) => Some(m),
            Model::Ranks(_) | Model::SentencePiece(_) | Model::CharBpe(_) => None,
        }
    }

    /// Whether a model of its own (SentencePiece, WordPiece) encodes, so
    /// that tokens are pieces of normalized text rather than merges of bytes.
    pub fn is_piece_model(&self) -> bool {
        self.model.is_piece_model()
    }

    /// The SentencePiece model this tokenizer encodes with, if it is one.
    pub fn sentencepiece(&self) -> Option<&SpmModel> {
        match &self.model {
            Model::SentencePiece(m) => Some(m),
            Model::Ranks(_) | Model::WordPiece(_) | Model::CharBpe(_) => None,
        }
    }

    /// The model: merges by rank, BPE on characters, SentencePiece or
    /// WordPiece.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The pre-tokenizer that cuts text for a byte-level model.
    pub fn pre_tokenizer(&self) -> &PreTokenizer {
        &self.pretok
    }

    /// What kind of tokenizer this is, in words: `byte-level BPE`,
    /// `char-level BPE`, `sentencepiece unigram`, `sentencepiece bpe`.
    pub fn kind(&self) -> &'static str {
        self.model.kind(self.mode())
    }

    /// [`Tokenizer::kind`] with what sets it apart: a SentencePiece
    /// model's normalizer and byte fallback (`sentencepiece unigram,
    /// nmt_nfkc, byte fallback`).
    pub fn kind_detail(&self) -> String {
        let mut out = self.kind().to_string();
        self.model.detail(&mut out);
        out
    }

    /// Whether `id` stands for text the tokenizer could not read: `[UNK]`
    /// (char mode) or a SentencePiece model's unknown piece.
    pub fn is_unknown(&self, id: TokenId) -> bool {
        self.model.is_unknown(id, self.mode())
    }

    fn byte_vocab(tokens: impl Into<TokenBytes>) -> Result<(Vocab, ByteIndex)> {
        let tokens = tokens.into();
        let by_bytes = ByteIndex::new(&tokens).map_err(|id| {
            Error::input(format!(
                "token {id} ({:?}) appears twice in the vocabulary",
                crate::display::token_text(tokens.token(id))
            ))
        })?;
        Ok((Vocab::from_tokens(tokens), by_bytes))
    }

    fn byte_ids(by_bytes: &ByteIndex) -> Result<Vec<TokenId>> {
        (0..=255u8)
            .map(|b| {
                by_bytes.get(&[b]).ok_or_else(|| {
                    Error::input(format!("the vocabulary has no token for the byte 0x{b:02X}, so not every text can be encoded"))
                })
            })
            .collect()
    }

    /// Add special tokens, numbered after the last ordinary token.
    pub fn with_specials(mut self, texts: &[String]) -> Self {
        for t in texts {
            if !self.added.specials().has_text(t) {
                let id = (self.vocab.len() + self.added.specials().len()) as TokenId;
                self.added.specials_mut().push(SpecialToken {
                    text: t.clone(),
                    id,
                });
            }
        }
        self
    }

    /// Match `added` tokens and normalize the text between them as Hugging
    /// Face does, before pre-tokenizing (files from HF).
    pub fn set_added(&mut self, added: AddedVocab) {
        self.added.set_hf(Some(added));
    }

    /// The added tokens and normalizer of a file from HF, if it has any.
    pub fn added(&self) -> Option<&AddedVocab> {
        self.added.hf()
    }

    /// Whether encoding may change the text (a file's own normalizer or
    /// pre-tokenizer steps: a space put in front, letters lowercased), so
    /// that decoding gives back another text.
    pub fn rewrites_text(&self) -> bool {
        self.pretok.hf_text().is_some()
    }

    /// Whether text is cut into chunks by the chunker's named rule alone
    /// and each chunk merged by rank (no split patterns of a file's own,
    /// no other model), and whether a chunk that is a token is taken whole
    /// first: what cutting a text into parts relies on.
    pub fn chunks_by_rule(&self) -> (bool, bool) {
        let by_rule = self.pretok.by_rule() && !self.model.is_piece_model();
        (by_rule, self.model.ranks().takes_whole())
    }

    /// A Hugging Face byte-level file's own steps, where it runs them.
    pub fn hf_steps(&self) -> Option<&crate::pretokenize::hf_text::HfText> {
        self.pretok.hf_text()
    }

    /// Whether some byte has no token of its own (some GGUF files).
    pub fn drops_bytes(&self) -> bool {
        self.model.ranks().drops_bytes()
    }

    /// How many bytes of `text` encoding drops: the bytes of the text the
    /// model is given (after the file's normalizer) that have no token of
    /// their own, as the library drops them (zero where every byte has a
    /// token).
    pub fn dropped_bytes(&self, text: &str) -> usize {
        let ranks = self.model.ranks();
        if !ranks.drops_bytes() {
            return 0;
        }
        // A file's normalizer is with its added tokens or in its steps.
        let text = match self.added.hf() {
            Some(added) => added.normalizer().apply(text),
            None => std::borrow::Cow::Borrowed(text),
        };
        let count = |t: &str| t.bytes().filter(|&b| !ranks.has_byte(b)).count();
        match self.hf_steps() {
            Some(steps) => count(&steps.normalize(&text).text),
            None => count(&text),
        }
    }

    /// Cut and normalize text by a Hugging Face file's own steps.
    pub fn set_hf_text(&mut self, text: crate::pretokenize::hf_text::HfText) {
        self.pretok.set_cut(Cut::HfText(Arc::new(text)));
    }

    /// Pre-tokenize with `chain` instead of a named rule.
    pub fn set_split(&mut self, chain: RegexChain) {
        self.pretok.set_cut(Cut::Split(Arc::new(chain)));
    }

    /// The split patterns this tokenizer pre-tokenizes with, if it has its own.
    pub fn split_patterns(&self) -> Option<&RegexChain> {
        self.pretok.split()
    }

    /// Cut digit runs by `digits` after the pre-tokenizer (files that say so).
    pub fn set_digits(&mut self, digits: Digits) {
        self.pretok.rule_mut().digits = digits;
    }

    pub fn set_specials(&mut self, specials: Vec<SpecialToken>) {
        self.added.set_specials(Specials::new(specials));
    }

    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// A short name: `trained`, `bytes`, `gpt2`, a file name, ...
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn mode(&self) -> Mode {
        self.vocab.mode()
    }

    pub fn pretok(&self) -> Pretok {
        self.pretok.rule().pretok
    }

    pub fn chunker(&self) -> Chunker {
        self.pretok.rule()
    }

    pub fn tie(&self) -> TieRule {
        self.model.ranks().tie()
    }

    pub fn source(&self) -> MergeSource {
        self.model.ranks().source()
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// The ordered merge list (empty for rank files: see [`Tokenizer::made_by`]).
    pub fn merges(&self) -> &[Merge] {
        self.model.ranks().merges()
    }

    /// Every pair this tokenizer merges, with its rank and the id it makes.
    pub fn ranked_pairs(&self) -> &FxHashMap<Pair, (u32, TokenId)> {
        self.model.ranks().ranked_pairs()
    }

    pub fn specials(&self) -> &[SpecialToken] {
        self.added.specials().as_slice()
    }

    /// Every id this tokenizer can produce: ordinary and special, each id
    /// once (a file's special tokens often hold ids inside the vocabulary).
    pub fn vocab_size(&self) -> usize {
        let mut beyond: Vec<TokenId> = self
            .specials()
            .iter()
            .map(|s| s.id)
            .filter(|&id| id as usize >= self.vocab.len())
            .collect();
        beyond.sort_unstable();
        beyond.dedup();
        self.vocab.len() + beyond.len()
    }

    /// The largest id plus one.
    pub fn id_limit(&self) -> usize {
        self.vocab.len().max(self.added.specials().id_limit())
    }

    /// [`Tokenizer::encode`], or the refusal of a regex of the file's that
    /// would take more than linear work on `text` (see
    /// [`crate::pretokenize::pattern_work`]), naming the tokenizer, the field and
    /// the pattern.
    pub fn try_encode(&self, text: &str, allow_special: bool) -> Result<Vec<TokenId>> {
        self.watched(|| self.encode(text, allow_special))
    }

    /// Run `f`; if a regex of the file's refused a text inside it, that
    /// refusal (naming this tokenizer) instead of what `f` made.
    pub fn watched<T>(&self, f: impl FnOnce() -> T) -> Result<T> {
        crate::pretokenize::pattern_work::watch(f).map_err(|e| e.context(self.name()))
    }

    /// Encode text. Text that looks like a special token is ordinary text
    /// unless `allow_special` is set. A regex of the file's that would take
    /// more than linear work on `text` gives no tokens for the part it was
    /// to cut, and its refusal goes to the
    /// [`crate::pretokenize::pattern_work::watch`] around: text from outside is
    /// encoded with [`Tokenizer::try_encode`].
    pub fn encode(&self, text: &str, allow_special: bool) -> Vec<TokenId> {
        self.encode_in(text, allow_special, None)
    }

    /// [`Tokenizer::encode`] with the chunks `cache` kept from texts before.
    fn encode_in(
        &self,
        text: &str,
        allow_special: bool,
        cache: Option<&mut EncodeCache>,
    ) -> Vec<TokenId> {
        self.encode_pieces(text.as_bytes(), Some(text), allow_special, cache)
    }

    /// The ids of `bytes`, the added tokens matched and the text between
    /// them encoded; `whole` is `bytes` as a string when it is one, so a
    /// piece of it is not checked for UTF-8 again.
    fn encode_pieces(
        &self,
        bytes: &[u8],
        whole: Option<&str>,
        allow_special: bool,
        cache: Option<&mut EncodeCache>,
    ) -> Vec<TokenId> {
        // Room for the ids of text of four bytes a token (most text takes
        // more), up to a million: growing from nothing cost a few copies of
        // every short text's ids.
        let mut ids = crate::large_pages::vec_with_capacity((bytes.len() / 4 + 4).min(1 << 20));
        self.encode_pieces_onto(bytes, whole, allow_special, cache, &mut ids);
        ids
    }

    /// [`Tokenizer::encode_pieces`], the ids put after those in `ids`.
    fn encode_pieces_onto(
        &self,
        bytes: &[u8],
        whole: Option<&str>,
        allow_special: bool,
        mut cache: Option<&mut EncodeCache>,
        ids: &mut Vec<TokenId>,
    ) {
        // Whether a piece starts the text (nothing came before it).
        let mut first = true;
        self.added.for_each_piece(bytes, allow_special, |piece| {
            match piece {
                Piece::Special(id) => ids.push(id),
                Piece::Text(t) => {
                    // The piece as the string it is a part of (pieces are cut
                    // at whole characters); checked once more if it were not
                    // a part of `whole`.
                    let s = whole.and_then(|text| {
                        (t.as_ptr() as usize)
                            .checked_sub(text.as_ptr() as usize)
                            .and_then(|start| text.get(start..start + t.len()))
                            .filter(|s| s.as_ptr() == t.as_ptr())
                    });
                    let got = self.encode_ordinary(t, s, first, cache.as_deref_mut(), ids);
                    if let Err(missing) = got {
                        let start = t.as_ptr() as usize - bytes.as_ptr() as usize;
                        pattern_work::note(missing.error(t, Some(start)));
                    }
                }
                Piece::Normalized(t) => {
                    let got = self.encode_ordinary(
                        t.as_bytes(),
                        Some(&t),
                        first,
                        cache.as_deref_mut(),
                        ids,
                    );
                    if let Err(missing) = got {
                        pattern_work::note(missing.error(t.as_bytes(), None));
                    }
                }
            }
            first = false;
        });
    }

    /// Encode raw bytes. Byte mode takes any bytes; char mode needs UTF-8.
    /// A regex of the file's that would take more than linear work on the
    /// text is refused as in [`Tokenizer::try_encode`].
    pub fn encode_bytes(&self, text: &[u8], allow_special: bool) -> Result<Vec<TokenId>> {
        self.watched(|| self.encode_bytes_unwatched(text, allow_special, None))?
    }

    fn encode_bytes_unwatched(
        &self,
        text: &[u8],
        allow_special: bool,
        cache: Option<&mut EncodeCache>,
    ) -> Result<Vec<TokenId>> {
        match self.mode() {
            Mode::Char => {
                let s = std::str::from_utf8(text).map_err(|e| not_utf8(&e))?;
                Ok(self.encode_in(s, allow_special, cache))
            }
            Mode::Byte => Ok(self.encode_pieces(text, None, allow_special, cache)),
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
        EncodedToken {
            id,
            bytes: self.bytes_of(id).to_vec(),
            special: self.describe_is_special(id),
        }
    }

    /// Whether `id` is one of the special (added) tokens.
    pub fn describe_is_special(&self, id: TokenId) -> bool {
        self.special(id).is_some() || self.model.is_special(id, self.added.hf())
    }

    /// The bytes token `id` stands for (char mode: its symbol string),
    /// as [`Tokenizer::describe`] gives them, without a copy.
    pub fn bytes_of(&self, id: TokenId) -> &[u8] {
        match self.special(id) {
            Some(s) => s.text.as_bytes(),
            None => self.vocab.token_bytes(id),
        }
    }

    pub fn contains(&self, id: TokenId) -> bool {
        self.vocab.contains(id) || self.special(id).is_some()
    }

    fn special(&self, id: TokenId) -> Option<&SpecialToken> {
        self.added.specials().get(id)
    }

    /// The merge that made token `id`, if it was made by one. For rank
    /// files this is recovered by merging the token's own bytes with only the
    /// ranks below its own: the two parts left are its halves.
    pub fn made_by(&self, id: TokenId) -> Option<MadeBy> {
        let special = self.special(id).is_some();
        self.model.ranks().made_by(id, &self.vocab, special)
    }

    /// Encode text with no special tokens in it; `at_start` says whether
    /// it starts the whole text (a Metaspace with prepend scheme `first`
    /// puts its mark only there).
    /// `as_str` is `text` as a string, when the caller has one: it is
    /// then not checked for UTF-8 again.
    fn encode_ordinary(
        &self,
        text: &[u8],
        as_str: Option<&str>,
        at_start: bool,
        cache: Option<&mut EncodeCache>,
        out: &mut Vec<TokenId>,
    ) -> std::result::Result<(), NoPiece> {
        match &self.model {
            Model::SentencePiece(m) => {
                return match cache.and_then(EncodeCache::words) {
                    Some(kept) => m.encode_piece_in(text, at_start, out, kept),
                    None => m.encode_piece(text, at_start, out, None),
                };
            }
            Model::WordPiece(m) => {
                m.encode_piece(&String::from_utf8_lossy(text), at_start, out, None)
            }
            Model::CharBpe(m) => {
                m.encode_piece(&String::from_utf8_lossy(text), at_start, out, None)
            }
            Model::Ranks(m) => match self.mode() {
                Mode::Byte => match cache.and_then(EncodeCache::chunks) {
                    Some(cache) => {
                        m.encode_bytes_in(&self.pretok, text, as_str, at_start, Some(cache), out)
                    }
                    None => m.encode_bytes(&self.pretok, text, as_str, at_start, out),
                },
                Mode::Char => m.encode_words(&self.vocab, text, out),
            },
        }
        Ok(())
    }

    /// The ids of one chunk of a byte-level tokenizer, in `symbols`;
    /// `drops_bytes` says whether some byte has no token (then it is
    /// dropped, as llama.cpp does).
    #[inline]
    pub fn chunk_ids(&self, chunk: &[u8], drops_bytes: bool, symbols: &mut Vec<TokenId>) {
        self.model.ranks().chunk_ids(chunk, drops_bytes, symbols);
    }
}

/// The refusal of text that is not UTF-8 by a char-mode tokenizer.
fn not_utf8(e: &std::str::Utf8Error) -> Error {
    Error::input(format!(
        "invalid UTF-8 at byte offset {} (a char-mode tokenizer needs UTF-8 text)",
        e.valid_up_to()
    ))
}

/// Chunks and their ids kept from one text to the next while a tokenizer
/// encodes many texts (a batch, the lines of `encode --lines`): made by
/// [`Tokenizer::encode_cache`], used only with that tokenizer.
pub struct EncodeCache(Kept);

/// What an [`EncodeCache`] keeps, by the kind of model.
enum Kept {
    Nothing,
    /// Byte-level BPE by rank: chunks and their ids.
    Chunks(ChunkCache),
    /// SentencePiece BPE: short words and their pieces.
    Words(KeptWords),
}

impl EncodeCache {
    fn chunks(&mut self) -> Option<&mut ChunkCache> {
        match &mut self.0 {
            Kept::Chunks(c) => Some(c),
            Kept::Nothing | Kept::Words(_) => None,
        }
    }

    fn words(&mut self) -> Option<&mut KeptWords> {
        match &mut self.0 {
            Kept::Words(w) => Some(w),
            Kept::Nothing | Kept::Chunks(_) => None,
        }
    }
}
