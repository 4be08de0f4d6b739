//! The vocabulary, searchable: every token of the encode box's tokenizer
//! (the merges so far, or a real tokenizer's), filtered by what is typed.

use bpeek_core::TokenId;
use bpeek_core::encoder::Tokenizer;

/// What is typed and what it matches.
#[derive(Debug, Clone, Default)]
pub struct VocabSearch {
    pub query: String,
    /// The ids that match, in id order (rank order for BPE).
    pub matches: Vec<TokenId>,
    /// Tokens in the vocabulary searched.
    pub total: usize,
    /// The selected row of `matches`.
    pub cursor: usize,
    /// The first row shown.
    pub top: usize,
}

impl VocabSearch {
    /// Search `tok` for `query` again from the first match.
    pub fn refresh(&mut self, tok: &Tokenizer) {
        let (matches, total) = search(tok, &self.query);
        self.matches = matches;
        self.total = total;
        self.cursor = 0;
        self.top = 0;
    }

    pub fn selected(&self) -> Option<TokenId> {
        self.matches.get(self.cursor).copied()
    }

    /// Move the cursor by `by` rows, within the matches.
    pub fn move_by(&mut self, by: isize) {
        let last = self.matches.len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(by).min(last);
    }

    /// Keep the cursor among the `rows` shown.
    pub fn scroll_to_cursor(&mut self, rows: usize) {
        let rows = rows.max(1);
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + rows {
            self.top = self.cursor + 1 - rows;
        }
    }
}

/// The bytes a query stands for: the space glyph `·` is a space, `↵` a
/// line break and `→` a tab, as the screen draws them.
pub fn needle(query: &str) -> Vec<u8> {
    query
        .replace(['·', '.'], " ")
        .replace('↵', "\n")
        .replace('→', "\t")
        .into_bytes()
}

/// The ids of `tok` whose bytes hold `query` (every id for an empty one;
/// a number also finds the token of that id, first), and how many tokens
/// there are.
pub fn search(tok: &Tokenizer, query: &str) -> (Vec<TokenId>, usize) {
    let ids = (0..tok.id_limit() as TokenId).filter(|&id| tok.contains(id));
    let total = ids.clone().count();
    if query.is_empty() {
        return (ids.collect(), total);
    }
    // `.` stands for a space only in the ASCII look; a literal dot is
    // searched as typed too.
    let needles = [needle(query), query.as_bytes().to_vec()];
    let by_id: Option<TokenId> = query.parse().ok().filter(|&id| tok.contains(id));
    let mut out: Vec<TokenId> = by_id.into_iter().collect();
    out.extend(ids.filter(|&id| {
        Some(id) != by_id && {
            let bytes = tok.bytes_of(id);
            needles.iter().any(|n| contains(bytes, n))
        }
    }));
    (out, total)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}
