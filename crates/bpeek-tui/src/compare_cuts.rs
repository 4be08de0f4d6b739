//! Each compare column's cut of the encode box's text (`e` types it): the
//! tokens the column's tokenizer makes of it now, BPE or Unigram, shown
//! in one row of the column. Worked out after an action that changed the
//! text or the column's training, not at every frame.

use bpeek_core::Tokenizer;

/// The most bytes of the text a column cuts: its row shows far fewer.
pub const MOST_BYTES: usize = 4096;

/// What a column's cut was worked out for: the text, and where its
/// training stood.
type CutKey = (String, u64);

#[derive(Debug, Clone, Default)]
pub struct EncodeCut {
    key: Option<CutKey>,
    /// The tokens, as the tables write tokens.
    pub tokens: Vec<String>,
}

impl EncodeCut {
    /// Cut `text` with the tokenizer `make` builds, each token written by
    /// `label`, unless it was cut at this `state` already.
    pub fn update(
        &mut self,
        text: &str,
        state: u64,
        make: impl FnOnce() -> Option<Tokenizer>,
        label: impl Fn(&[u8]) -> String,
    ) {
        let text = head(text);
        if self
            .key
            .as_ref()
            .is_some_and(|(t, s)| t == text && *s == state)
        {
            return;
        }
        self.tokens = match make() {
            Some(tok) => tok
                .encode(text, false)
                .into_iter()
                .map(|id| label(tok.bytes_of(id)))
                .collect(),
            None => Vec::new(),
        };
        self.key = Some((text.to_string(), state));
    }

    /// No text: nothing to show.
    pub fn clear(&mut self) {
        self.key = None;
        self.tokens.clear();
    }

    pub fn is_shown(&self) -> bool {
        self.key.is_some()
    }
}

/// The first [`MOST_BYTES`] of `text`, cut at a character.
fn head(text: &str) -> &str {
    if text.len() <= MOST_BYTES {
        return text;
    }
    let mut end = MOST_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The row a column shows: its token count and its tokens.
pub fn row(cut: &EncodeCut, bar: &str) -> String {
    format!("{} tok: {}", cut.tokens.len(), cut.tokens.join(bar))
}
