//! Where each token of a byte-level Hugging Face file run as its own steps
//! stands in the text: the steps may put a space in front or change the
//! text (NFKC, Lowercase), so tokens cannot be laid end to end on it as
//! other byte-level tokens are; each byte of each word knows the input it
//! came from instead.

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::formats::byte_unicode;
use crate::pretokenize::word_ranges::StepWords;
use std::ops::Range;

impl Tokenizer {
    /// Encode a piece of a text cut at added tokens with the file's own
    /// steps; `at_start` says whether it starts the whole text. Each id's
    /// byte range of `text` goes to `spans` (empty for a byte the steps
    /// put in).
    pub fn encode_steps_piece(
        &self,
        text: &str,
        at_start: bool,
        out: &mut Vec<TokenId>,
        spans: &mut Vec<Range<usize>>,
    ) {
        let Some(steps) = self.hf_steps() else {
            return;
        };
        let drops = self.drops_bytes();
        let mut symbols = Vec::new();
        let mut words = StepWords::default();
        steps.words_into(text, at_start, true, &mut words);
        let (mut bytes, mut source) = (Vec::new(), Vec::new());
        for word in &words.words {
            let mapped = &words.text[word.range.clone()];
            let from = &words.from[word.range.clone()];
            // Each byte-level character is one byte of the chunk.
            bytes.clear();
            source.clear();
            match byte_unicode::decode_into(mapped, &mut bytes) {
                Ok(()) => source.extend(mapped.char_indices().map(|(i, _)| from[i].clone())),
                Err(_) => {
                    bytes.clear();
                    bytes.extend_from_slice(mapped.as_bytes());
                    source.extend_from_slice(from);
                }
            }
            self.chunk_ids(&bytes, drops, &mut symbols);
            let mut at = 0;
            for &id in &symbols {
                let end = (at + self.vocab().token_bytes(id).len().max(1)).min(bytes.len());
                spans.push(if at < end {
                    source[at].start..source[end - 1].end
                } else {
                    let p = source.last().map_or(0, |r| r.end);
                    p..p
                });
                at = end;
            }
            out.extend_from_slice(&symbols);
        }
    }
}
