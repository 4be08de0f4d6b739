//! How a token was built: the merge that made it, the merges that made its
//! halves, and so on down to bytes (or characters), each with its rank.

use super::merge_number::Numbering;
use bpeek_core::encoder::MadeBy;
use bpeek_core::{TokenId, Tokenizer};

/// The tree of one token, one line per merge, outermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeTree {
    /// What the tree is of: `·played, rank 412 of the trained merges`.
    pub title: String,
    /// Each merge as `(depth, ·play = ·pl (90) + ay (33))`.
    pub lines: Vec<(usize, String)>,
    pub scroll: usize,
}

/// At most this many lines: a token of a few dozen bytes fits.
const MAX_LINES: usize = 200;

/// The tree of `id`: `made_by` says which merge made a token, `label`
/// how to write one, `numbering` how a merge is numbered.
pub fn build(
    id: TokenId,
    made_by: &dyn Fn(TokenId) -> Option<MadeBy>,
    label: &dyn Fn(TokenId) -> String,
    numbering: Numbering,
    source: &str,
) -> MergeTree {
    let rank = |id| {
        made_by(id)
            .map(|m| format!(" ({})", numbering.number(m.rank as usize)))
            .unwrap_or_default()
    };
    let mut lines = Vec::new();
    let mut stack = vec![(id, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        if lines.len() >= MAX_LINES {
            break;
        }
        let Some(m) = made_by(id) else { continue };
        lines.push((
            depth,
            format!(
                "{} = {}{} + {}{}",
                label(id),
                label(m.left),
                rank(m.left),
                label(m.right),
                rank(m.right)
            ),
        ));
        // Left half first when popped.
        stack.push((m.right, depth + 1));
        stack.push((m.left, depth + 1));
    }
    let title = match made_by(id) {
        Some(m) => format!(
            "{}, {} of {source}",
            label(id),
            numbering.name(m.rank as usize)
        ),
        None => format!("{}: a base token of {source}, made by no merge", label(id)),
    };
    MergeTree {
        title,
        lines,
        scroll: 0,
    }
}

/// The tree of token `id` of a loaded tokenizer; a SentencePiece piece,
/// made by no merge list, is told by its model (see
/// [`super::piece_story`]).
pub fn of_token(
    tok: &Tokenizer,
    id: TokenId,
    label: &dyn Fn(&[u8]) -> String,
    ellipsis: &str,
    source: &str,
) -> MergeTree {
    let story = tok
        .sentencepiece()
        .and_then(|m| super::piece_story::story(m, id, tok.kind(), label, ellipsis));
    match story {
        Some(s) => MergeTree {
            title: format!("{} ({source})", s.title),
            lines: s.lines,
            scroll: 0,
        },
        None => build(
            id,
            &|id| tok.made_by(id),
            &|id| label(&tok.describe(id).bytes),
            Numbering::of(tok),
            source,
        ),
    }
}
