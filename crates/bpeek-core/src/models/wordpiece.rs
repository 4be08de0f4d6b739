//! WordPiece, as BERT and Hugging Face `tokenizers` encode with it:
//! normalize (see [`BertNormalizer`]), cut into words at whitespace and
//! punctuation, then cut each word greedily from the left, the longest
//! piece in the vocabulary first; pieces after the first of a word carry a
//! prefix (`##`). A word with any part no piece matches, or longer than
//! `max_input_chars_per_word` characters, is one unknown token.
//! BERT's normalizer and punctuation are in
//! [`bert_text`](crate::normalize::bert_text).

use crate::TokenId;
use crate::error::{Error, Result};
pub use crate::normalize::bert_text::{BertNormalizer, is_bert_punctuation};
use crate::normalize::bert_text::{bert_normalize, cleanup};
use crate::normalize::llama_wpm::{WpmText, is_wpm_single, is_wpm_whitespace, wpm_normalize};
use regex_automata::meta::Regex;
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;
use std::sync::OnceLock;

/// How a normalized text is cut into words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordSplit {
    /// At whitespace (dropped) and around each punctuation character
    /// (HF `BertPreTokenizer`).
    Bert,
    /// At whitespace only (HF `WhitespaceSplit`).
    Whitespace,
    /// Runs of word characters and runs of other non-space characters
    /// (HF `Whitespace`, `\w+|[^\w\s]+`).
    WordsAndSymbols,
    /// No pre-tokenizer: the whole text is one word.
    Whole,
    /// llama.cpp's WPM rules for BERT vocabularies in GGUF files: its own
    /// normalizer in place of `BertNormalizer`, then words at whitespace
    /// and around each punctuation character, ASCII symbol and CJK
    /// ideograph.
    Llama(WpmText),
}

impl WordSplit {
    pub fn name(self) -> &'static str {
        match self {
            WordSplit::Bert => "BertPreTokenizer",
            WordSplit::Whitespace => "WhitespaceSplit",
            WordSplit::WordsAndSymbols => "Whitespace",
            WordSplit::Whole => "none",
            WordSplit::Llama(_) => "llama.cpp WPM",
        }
    }
}

/// Everything a WordPiece file says that encoding and decoding need.
#[derive(Debug, Clone)]
pub struct WordPieceSpec {
    /// The text of each id; an empty string is an id no token uses.
    pub pieces: Vec<String>,
    pub unk_token: String,
    pub prefix: String,
    pub max_input_chars_per_word: usize,
    pub normalizer: Option<BertNormalizer>,
    pub split: WordSplit,
    /// Ids of special tokens (never made from text by the model).
    pub special: Vec<TokenId>,
    /// Whether decoding tidies spaces before punctuation and in English
    /// contractions (HF's WordPiece decoder `cleanup`).
    pub cleanup: bool,
}

/// A WordPiece model, ready to encode.
#[derive(Debug, Clone)]
pub struct WordPiece {
    pieces: Vec<String>,
    ids: FxHashMap<String, TokenId>,
    unk_id: TokenId,
    prefix: String,
    max_chars: usize,
    normalizer: Option<BertNormalizer>,
    split: WordSplit,
    special: FxHashSet<TokenId>,
    cleanup: bool,
    /// WordLevel: a word is one token or unknown, never cut.
    whole_words: bool,
    /// A Hugging Face file's own normalizer and pre-tokenizer steps, when
    /// they are other than one BertNormalizer and one word split.
    text: Option<Box<crate::pretokenize::hf_text::HfText>>,
    /// Added tokens matched after normalizing, decoded as their normalized
    /// text as the library decodes them (`Hello` behind Lowercase: `hello`).
    decoded_as: FxHashMap<TokenId, String>,
    /// A file's decoder chain, when it is other than one `WordPiece`
    /// decoder (a `Sequence`, `CTC`): the token texts go through it.
    decoder: Option<Vec<crate::decode::steps::DecodeStep>>,
}

/// One step of cutting a word: the piece taken and the longer ones tried
/// before it that are not in the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub id: TokenId,
    /// The piece as the vocabulary writes it (`##aff`).
    pub piece: String,
    /// How many longer candidates were tried first at this place.
    pub tried: usize,
}

impl WordPiece {
    /// The model as WordLevel: each word one token, or the unknown token.
    pub fn with_whole_words(mut self) -> Self {
        self.whole_words = true;
        self
    }

    /// The model decoding the ids of `decoded_as` as their texts there.
    pub fn with_decoded_as(mut self, decoded_as: FxHashMap<TokenId, String>) -> Self {
        self.decoded_as = decoded_as;
        self
    }

    /// The model with a file's own normalizer and pre-tokenizer steps in
    /// place of `normalizer` and `split`.
    pub fn with_text(mut self, text: crate::pretokenize::hf_text::HfText) -> Self {
        self.text = Some(Box::new(text));
        self
    }

    /// The model decoding through a file's decoder chain.
    pub fn with_decoder(mut self, steps: Vec<crate::decode::steps::DecodeStep>) -> Self {
        self.decoder = Some(steps);
        self
    }

    /// Whether this is WordLevel (words never cut).
    pub fn whole_words(&self) -> bool {
        self.whole_words
    }

    /// Build the tables; errors name the field.
    pub fn new(spec: WordPieceSpec) -> Result<WordPiece> {
        let mut ids = FxHashMap::default();
        for (i, p) in spec.pieces.iter().enumerate() {
            if !p.is_empty() {
                // A text listed twice: the later id wins, as in HF.
                ids.insert(p.clone(), i as TokenId);
            }
        }
        let Some(&unk_id) = ids.get(&spec.unk_token) else {
            return Err(Error::input(format!(
                "unk_token {:?} is not in the vocabulary (every WordPiece model needs its unknown token)",
                spec.unk_token
            )));
        };
        if spec.max_input_chars_per_word == 0 {
            return Err(Error::input(
                "max_input_chars_per_word is 0: no word could ever be read",
            ));
        }
        Ok(WordPiece {
            pieces: spec.pieces,
            ids,
            unk_id,
            prefix: spec.prefix,
            max_chars: spec.max_input_chars_per_word,
            normalizer: spec.normalizer,
            split: spec.split,
            special: spec.special.into_iter().collect(),
            cleanup: spec.cleanup,
            whole_words: false,
            text: None,
            decoded_as: FxHashMap::default(),
            decoder: None,
        })
    }

    pub fn pieces(&self) -> &[String] {
        &self.pieces
    }

    pub fn unk_id(&self) -> TokenId {
        self.unk_id
    }

    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn max_chars(&self) -> usize {
        self.max_chars
    }

    pub fn normalizer(&self) -> Option<BertNormalizer> {
        self.normalizer
    }

    pub fn split(&self) -> WordSplit {
        self.split
    }

    pub fn is_special(&self, id: TokenId) -> bool {
        self.special.contains(&id)
    }

    /// The id of a piece's text, if it is one.
    pub fn id_of(&self, piece: &str) -> Option<TokenId> {
        self.ids.get(piece).copied()
    }

    /// The normalized text and, for each of its bytes, the byte range of
    /// `text` it came from.
    pub fn normalize(&self, text: &str) -> (String, Vec<Range<usize>>) {
        let mut chars: Vec<(char, Range<usize>)> = text
            .char_indices()
            .map(|(i, c)| (c, i..i + c.len_utf8()))
            .collect();
        if let WordSplit::Llama(n) = self.split {
            chars = wpm_normalize(n, &chars);
        } else if let Some(n) = self.normalizer {
            chars = bert_normalize(n, chars);
        }
        let mut out = String::with_capacity(text.len());
        let mut from = Vec::with_capacity(text.len());
        for (c, r) in chars {
            out.push(c);
            from.extend(std::iter::repeat_n(r, c.len_utf8()));
        }
        (out, from)
    }

    /// The words of a normalized text, as byte ranges of it.
    pub fn words(&self, norm: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        match self.split {
            WordSplit::Bert | WordSplit::Whitespace => {
                let mut start = None;
                for (i, c) in norm.char_indices() {
                    if c.is_whitespace() {
                        if let Some(s) = start.take() {
                            out.push(s..i);
                        }
                    } else if self.split == WordSplit::Bert && is_bert_punctuation(c) {
                        if let Some(s) = start.take() {
                            out.push(s..i);
                        }
                        out.push(i..i + c.len_utf8());
                    } else if start.is_none() {
                        start = Some(i);
                    }
                }
                if let Some(s) = start {
                    out.push(s..norm.len());
                }
            }
            WordSplit::WordsAndSymbols => {
                static RE: OnceLock<Regex> = OnceLock::new();
                let re =
                    RE.get_or_init(|| Regex::new(r"\w+|[^\w\s]+").expect("the pattern compiles"));
                out.extend(re.find_iter(norm).map(|m| m.range()));
            }
            WordSplit::Llama(_) => {
                let mut start = None;
                for (i, c) in norm.char_indices() {
                    let single = is_wpm_single(c);
                    if is_wpm_whitespace(c) || single {
                        if let Some(s) = start.take() {
                            out.push(s..i);
                        }
                        if single {
                            out.push(i..i + c.len_utf8());
                        }
                    } else if start.is_none() {
                        start = Some(i);
                    }
                }
                if let Some(s) = start {
                    out.push(s..norm.len());
                }
            }
            WordSplit::Whole if norm.is_empty() => {}
            WordSplit::Whole => out.push(0..norm.len()),
        }
        out
    }

    /// Cut one word, longest match first; each step with how many longer
    /// candidates failed before it. `None` when some part has no piece
    /// (the word is then the unknown token).
    pub fn steps(&self, word: &str) -> Option<Vec<Step>> {
        if self.whole_words {
            let &id = self.ids.get(word)?;
            return Some(vec![Step {
                id,
                piece: word.to_string(),
                tried: 0,
            }]);
        }
        if word.chars().count() > self.max_chars {
            return None;
        }
        let mut steps = Vec::new();
        let mut start = 0;
        let mut candidate = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut tried = 0;
            let found = loop {
                if end <= start {
                    break None;
                }
                candidate.clear();
                if start > 0 {
                    candidate.push_str(&self.prefix);
                }
                candidate.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(candidate.as_str()) {
                    break Some(id);
                }
                tried += 1;
                let last = word[start..end]
                    .chars()
                    .next_back()
                    .map_or(1, char::len_utf8);
                end -= last;
            };
            let id = found?;
            steps.push(Step {
                id,
                piece: candidate.clone(),
                tried,
            });
            start = end;
        }
        Some(steps)
    }

    /// Encode `text`, appending the ids to `out`; with `spans`, also the
    /// byte range of `text` each id stands for.
    pub fn encode(
        &self,
        text: &str,
        out: &mut Vec<TokenId>,
        spans: Option<&mut Vec<Range<usize>>>,
    ) {
        self.encode_piece(text, true, out, spans)
    }

    /// [`WordPiece::encode`] for a piece of a text cut at added tokens;
    /// `at_start` says whether it starts the whole text.
    pub fn encode_piece(
        &self,
        text: &str,
        at_start: bool,
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) {
        if let Some(steps) = &self.text {
            // Where each byte came from is read for spans alone.
            let mut words = crate::pretokenize::word_ranges::StepWords::default();
            steps.words_into(text, at_start, spans.is_some(), &mut words);
            for w in &words.words {
                let (norm, from) = (&words.text, &words.from);
                self.encode_word(norm, w.range.clone(), from, out, spans.as_deref_mut());
            }
            return;
        }
        let (norm, from) = self.normalize(text);
        for w in self.words(&norm) {
            self.encode_word(&norm, w, &from, out, spans.as_deref_mut());
        }
    }

    /// Encode the word `norm[w]`; `from` says where each byte of `norm`
    /// came from.
    fn encode_word(
        &self,
        norm: &str,
        w: Range<usize>,
        from: &[Range<usize>],
        out: &mut Vec<TokenId>,
        mut spans: Option<&mut Vec<Range<usize>>>,
    ) {
        {
            let word = &norm[w.clone()];
            let span = |r: Range<usize>| -> Range<usize> {
                if r.is_empty() {
                    return from[r.start].start..from[r.start].start;
                }
                from[r.start].start..from[r.end - 1].end
            };
            match self.steps(word) {
                Some(steps) => {
                    let mut at = w.start;
                    for s in steps {
                        out.push(s.id);
                        let len = if at == w.start {
                            s.piece.len()
                        } else {
                            s.piece.len() - self.prefix.len()
                        };
                        if let Some(sp) = spans.as_deref_mut() {
                            sp.push(span(at..at + len));
                        }
                        at += len;
                    }
                }
                None => {
                    out.push(self.unk_id);
                    if let Some(sp) = spans {
                        sp.push(span(w));
                    }
                }
            }
        }
    }

    /// Decode as HF's WordPiece decoder does: pieces joined by spaces, a
    /// piece with the prefix joined to the one before without it; with
    /// cleanup, each piece with its space loses that space before `.`,
    /// `?`, `!`, `,` and in English contractions. With `own_specials`
    /// the special tokens are left out (else the caller has left out what
    /// it leaves out); `other` gives ids that are not pieces.
    pub fn decode(
        &self,
        ids: &[TokenId],
        own_specials: bool,
        other: impl Fn(TokenId) -> Vec<u8>,
    ) -> Vec<u8> {
        let left_out = |id: &TokenId| own_specials && self.special.contains(id);
        if let Some(steps) = &self.decoder {
            let tokens = ids
                .iter()
                .filter(|id| !left_out(id))
                .map(
                    |&id| match self.decoded_as.get(&id).or(self.pieces.get(id as usize)) {
                        Some(p) => p.clone(),
                        None => String::from_utf8_lossy(&other(id)).into_owned(),
                    },
                )
                .collect();
            return crate::decode::steps::run(steps, tokens).into_bytes();
        }
        let mut text = String::new();
        let mut first = true;
        let mut token = String::new();
        for &id in ids {
            if left_out(&id) {
                continue;
            }
            let owned;
            let piece: &str = match self.decoded_as.get(&id).or(self.pieces.get(id as usize)) {
                Some(p) => p,
                None => {
                    owned = String::from_utf8_lossy(&other(id)).into_owned();
                    &owned
                }
            };
            token.clear();
            if !first && !self.prefix.is_empty() && piece.starts_with(&self.prefix) {
                token.push_str(&piece[self.prefix.len()..]);
            } else {
                if !first {
                    token.push(' ');
                }
                token.push_str(piece);
            }
            first = false;
            if self.cleanup {
                text.push_str(&cleanup(&token));
            } else {
                text.push_str(&token);
            }
        }
        text.into_bytes()
    }
}

/// Whether a vocabulary is cased: some token (not a `[BRACKETED]` special
/// one) has an uppercase letter. BERT's uncased vocabularies have none.
pub fn is_cased(pieces: &[String]) -> bool {
    pieces
        .iter()
        .filter(|p| !(p.starts_with('[') && p.ends_with(']')))
        .any(|p| p.chars().any(char::is_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(pieces: &[&str], lowercase: bool) -> WordPiece {
        WordPiece::new(WordPieceSpec {
            pieces: pieces.iter().map(|s| s.to_string()).collect(),
            unk_token: "[UNK]".into(),
            prefix: "##".into(),
            max_input_chars_per_word: 100,
            normalizer: Some(BertNormalizer::bert(lowercase)),
            split: WordSplit::Bert,
            special: vec![0],
            cleanup: true,
        })
        .unwrap()
    }

    #[test]
    fn longest_match_first_with_the_prefix() {
        let m = model(&["[UNK]", "un", "##aff", "##able", "##a", "u", "!"], true);
        let mut ids = Vec::new();
        let mut spans = Vec::new();
        m.encode("Unaffable!  xyz", &mut ids, Some(&mut spans));
        assert_eq!(ids, [1, 2, 3, 6, 0]);
        assert_eq!(spans, [0..2, 2..5, 5..9, 9..10, 12..15]);
        let steps = m.steps("unaffable").unwrap();
        let pieces: Vec<&str> = steps.iter().map(|s| s.piece.as_str()).collect();
        assert_eq!(pieces, ["un", "##aff", "##able"]);
        assert_eq!(
            String::from_utf8(m.decode(&ids, true, |_| Vec::new())).unwrap(),
            "unaffable!"
        );
    }
}
