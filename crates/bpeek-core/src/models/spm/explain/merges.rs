//! A SentencePiece BPE piece explained by replaying the model's merging on
//! the piece's own text, recording each merge: the steps are the model's
//! (see [`super::super::bpe`]), kept one by one instead of only their end.

use crate::TokenId;
use crate::models::spm::SpmModel;
use crate::models::spm::normalize::one_char_len;
use std::ops::Range;

/// Two neighbouring symbols of the text that became the piece `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    pub left: Range<usize>,
    pub right: Range<usize>,
    pub id: TokenId,
    pub score: f32,
}

impl Merge {
    /// The text the merge made.
    pub fn span(&self) -> Range<usize> {
        self.left.start..self.right.end
    }
}

/// The model's merging run on one text.
#[derive(Debug, Clone, PartialEq)]
pub struct BpeReplay {
    /// Every merge, in the order the model makes them.
    pub merges: Vec<Merge>,
    /// The symbols left when no neighbouring pair makes a piece.
    pub symbols: Vec<Range<usize>>,
}

/// Texts longer than this are not replayed: each merge rescans the
/// symbols, and no real piece comes near it.
pub const MOST_CHARS: usize = 1024;

impl BpeReplay {
    /// Whether the merging ends in the whole text as one symbol.
    pub fn reaches_whole(&self) -> bool {
        self.symbols.len() == 1
    }

    /// The merge that made the symbol `span`, if a merge made it.
    pub fn made(&self, span: &Range<usize>) -> Option<&Merge> {
        // A span is made at most once: symbols never overlap.
        self.merges.iter().find(|m| m.span() == *span)
    }

    /// The merges under the symbol `span`, outermost first, each with its
    /// depth below it; a symbol's left half comes before its right.
    pub fn tree(&self, span: Range<usize>) -> Vec<(usize, &Merge)> {
        let mut out = Vec::new();
        let mut stack = vec![(span, 0)];
        while let Some((span, depth)) = stack.pop() {
            let Some(m) = self.made(&span) else { continue };
            out.push((depth, m));
            stack.push((m.right.clone(), depth + 1));
            stack.push((m.left.clone(), depth + 1));
        }
        out
    }
}

struct Symbol {
    span: Range<usize>,
    /// A user-defined symbol: matched whole and never merged.
    frozen: bool,
}

/// Run the model's BPE merging on `text` (a normalized text, such as a
/// piece's own), keeping every merge. `None` for a text of more than
/// [`MOST_CHARS`] characters.
///
/// The text starts as characters (a user-defined symbol as one frozen
/// symbol); the neighbouring pair whose concatenation is a piece with the
/// highest score merges, the leftmost of equal scores, until no pair makes
/// a piece. An unused piece merges like any other here: the encoder gives
/// it back as its halves only when it is left at the end.
pub fn replay_bpe(model: &SpmModel, text: &[u8]) -> Option<BpeReplay> {
    let mut symbols = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if symbols.len() == MOST_CHARS {
            return None;
        }
        let rest = &text[at..];
        let (len, frozen) = match model.user.as_ref().and_then(|u| u.longest(rest)) {
            Some(len) => (len, true),
            None => (one_char_len(rest), false),
        };
        symbols.push(Symbol {
            span: at..at + len,
            frozen,
        });
        at += len;
    }
    let pair = |l: &Symbol, r: &Symbol| -> Option<(f32, TokenId)> {
        if l.frozen || r.frozen {
            return None;
        }
        let id = *model.normal.get(&text[l.span.start..r.span.end])?;
        Some((model.pieces[id as usize].score, id))
    };
    // pairs[i]: what symbols i and i + 1 make, kept up to date by hand so
    // that each merge looks up two pairs, not all of them.
    let mut pairs: Vec<Option<(f32, TokenId)>> =
        symbols.windows(2).map(|w| pair(&w[0], &w[1])).collect();
    let mut merges = Vec::new();
    loop {
        let mut best: Option<(usize, f32, TokenId)> = None;
        for (i, p) in pairs.iter().enumerate() {
            if let Some((score, id)) = *p
                && best.is_none_or(|(_, s, _)| score.total_cmp(&s).is_gt())
            {
                best = Some((i, score, id));
            }
        }
        let Some((i, score, id)) = best else { break };
        let right = symbols.remove(i + 1);
        let left = std::mem::replace(&mut symbols[i].span, 0..0);
        symbols[i].span = left.start..right.span.end;
        merges.push(Merge {
            left,
            right: right.span,
            id,
            score,
        });
        pairs.remove(i);
        if i > 0 {
            pairs[i - 1] = pair(&symbols[i - 1], &symbols[i]);
        }
        if i + 1 < symbols.len() {
            pairs[i] = pair(&symbols[i], &symbols[i + 1]);
        }
    }
    Some(BpeReplay {
        merges,
        symbols: symbols.into_iter().map(|s| s.span).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::random_models::{Rng, model_of, piece, random_model};
    use super::*;
    use crate::models::spm::{Algorithm, PieceType, bpe};

    /// `▁the` as the module's documentation tells it: `he` (-3.1) merges
    /// before `▁t` (-5.2), then the two make `▁the`.
    #[test]
    fn a_piece_is_built_by_its_higher_scoring_pairs_first() {
        let model = model_of(
            vec![
                piece("<unk>", 0.0, PieceType::Unknown),
                piece("\u{2581}the", -7.0, PieceType::Normal),
                piece("he", -3.1, PieceType::Normal),
                piece("\u{2581}t", -5.2, PieceType::Normal),
                piece("\u{2581}", -10.0, PieceType::Normal),
                piece("t", -10.0, PieceType::Normal),
                piece("h", -10.0, PieceType::Normal),
                piece("e", -10.0, PieceType::Normal),
            ],
            Algorithm::Bpe,
        );
        let text = "\u{2581}the".as_bytes();
        let replay = replay_bpe(&model, text).unwrap();
        assert!(replay.reaches_whole());
        let said = |span: Range<usize>| String::from_utf8_lossy(&text[span]).into_owned();
        let tree: Vec<(usize, String)> = replay
            .tree(0..text.len())
            .into_iter()
            .map(|(depth, m)| {
                let line = format!(
                    "{} = {} + {}",
                    said(m.span()),
                    said(m.left.clone()),
                    said(m.right.clone())
                );
                (depth, line)
            })
            .collect();
        assert_eq!(
            tree,
            [
                (0, "▁the = ▁t + he".to_string()),
                (1, "▁t = ▁ + t".to_string()),
                (1, "he = h + e".to_string()),
            ]
        );
        // In the order made: `he` scores higher than `▁t`.
        let made: Vec<TokenId> = replay.merges.iter().map(|m| m.id).collect();
        assert_eq!(made, [2, 3, 1]);
    }

    /// A piece whose text merges into something else first is not made
    /// from its text, and the replay says where the merging stops.
    #[test]
    fn an_unreachable_piece_ends_in_more_than_one_symbol() {
        let model = model_of(
            vec![
                piece("<unk>", 0.0, PieceType::Unknown),
                piece("abcd", -1.0, PieceType::Normal),
                piece("ab", -3.0, PieceType::Normal),
                piece("cd", -3.0, PieceType::Normal),
                piece("bc", -2.0, PieceType::Normal),
            ],
            Algorithm::Bpe,
        );
        // a b c d: `bc` (-2) merges first, and neither `abc` nor `bcd` is
        // a piece, so `ab` and `cd` never get their turn.
        let replay = replay_bpe(&model, b"abcd").unwrap();
        assert!(!replay.reaches_whole());
        assert_eq!(replay.symbols, [0..1, 1..3, 3..4]);
        assert_eq!(replay.tree(0..4), []);
        assert_eq!(replay.tree(1..3).len(), 1);
        assert_eq!(bpe::encode(&model, b"abcd").len(), 3);
    }

    #[test]
    fn empty_and_overlong_texts_are_no_trouble() {
        let mut rng = Rng(7);
        let model = random_model(&mut rng, Algorithm::Bpe);
        let empty = replay_bpe(&model, b"").unwrap();
        assert!(empty.merges.is_empty() && !empty.reaches_whole());
        assert!(replay_bpe(&model, &vec![b'a'; MOST_CHARS + 1]).is_none());
        assert!(replay_bpe(&model, &vec![b'a'; MOST_CHARS]).is_some());
    }

    /// On random small models, the replay of every piece's text ends
    /// where the model's own encoder ends, and each recorded merge joins
    /// two neighbours into the piece named.
    #[test]
    fn the_replay_ends_where_the_encoder_ends() {
        let mut rng = Rng(0x5eed);
        let mut reached = 0;
        let mut stopped = 0;
        for _ in 0..300 {
            let model = random_model(&mut rng, Algorithm::Bpe);
            let has_unused = model.pieces.iter().any(|p| p.kind == PieceType::Unused);
            for (id, p) in model.pieces.iter().enumerate() {
                if !matches!(p.kind, PieceType::Normal | PieceType::Unused) {
                    continue;
                }
                let text = &p.text[..];
                let replay = replay_bpe(&model, text).unwrap();
                let encoded = bpe::encode(&model, text);
                for m in &replay.merges {
                    assert_eq!(m.left.end, m.right.start);
                    assert_eq!(model.pieces[m.id as usize].text, &text[m.span()]);
                    assert_eq!(m.score, model.pieces[m.id as usize].score);
                }
                let whole = [(0..text.len(), id as TokenId)];
                if replay.reaches_whole() {
                    reached += 1;
                    let last = replay.merges.last().map(|m| m.id);
                    if text.len() > one_char_len(text) {
                        assert_eq!(last, Some(id as TokenId), "{:?}", p.text);
                        assert_eq!(replay.tree(0..text.len())[0].1.id, id as TokenId);
                    }
                    // The encoder gives the piece whole, unless it is
                    // unused and so given back as its halves.
                    assert_eq!(
                        encoded == whole,
                        p.kind == PieceType::Normal || replay.merges.is_empty(),
                        "{:?}: {encoded:?}",
                        String::from_utf8_lossy(text)
                    );
                } else {
                    stopped += 1;
                    assert_ne!(encoded, whole);
                    if !has_unused {
                        let spans: Vec<Range<usize>> =
                            encoded.into_iter().map(|(span, _)| span).collect();
                        assert_eq!(spans, replay.symbols);
                    }
                }
            }
        }
        assert!(reached > 100 && stopped > 20, "{reached} {stopped}");
    }
}
