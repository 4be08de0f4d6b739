//! How a SentencePiece model gives one of its pieces, in its own terms: no
//! merge list made a piece, so a BPE piece is explained by the merges by
//! score that build it from its text, and a Unigram piece by its score
//! beside the best other cut of its text. One line for the fertility view's
//! token line, and a title with lines for the pane a byte-level token's
//! merge tree uses.

use bpeek_core::TokenId;
use bpeek_core::models::spm::explain::{BpeReplay, Cut, replay_bpe, unigram_cuts};
use bpeek_core::models::spm::{Algorithm, PieceType, SpmModel};
use std::ops::Range;

/// What is said of one piece.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    /// One line, after the token's id and bytes.
    pub summary: String,
    /// What the pane is titled, before the tokenizer's name.
    pub title: String,
    /// Indented lines, outermost first.
    pub lines: Vec<(usize, String)>,
}

/// A score as short as it reads: BPE scores are whole numbers (minus the
/// rank), Unigram's log probabilities take two decimals.
pub fn score(s: f64) -> String {
    if s.fract() == 0.0 && s.abs() < 1e15 {
        format!("{}", s as i64)
    } else {
        format!("{s:.2}")
    }
}

/// At most this many symbols are named where merging stops short.
const MOST_PARTS: usize = 8;

/// The story of piece `id` of `model`, `None` when `id` is no piece (an
/// added token). `kind` names the tokenizer's kind, `label` writes text
/// as the panes write tokens, `ellipsis` ends a list cut short.
pub fn story(
    model: &SpmModel,
    id: TokenId,
    kind: &str,
    label: &dyn Fn(&[u8]) -> String,
    ellipsis: &str,
) -> Option<Story> {
    let p = model.pieces().get(id as usize)?;
    let name = label(&p.text);
    let plain = |summary: &str| Story {
        summary: summary.to_string(),
        title: format!("{name}: a {} piece", p.kind.name()),
        lines: vec![(0, summary.to_string())],
    };
    Some(match p.kind {
        PieceType::Byte => plain("byte fallback: a byte of a character the model has no piece for"),
        PieceType::UserDefined => plain("a user-defined symbol, always taken whole"),
        PieceType::Control => plain("a control piece: never made from text"),
        PieceType::Unknown => plain("the unknown piece: characters the model has no piece for"),
        PieceType::Normal | PieceType::Unused => {
            let text = Text {
                model,
                text: &p.text,
                label,
                ellipsis,
            };
            match model.algorithm() {
                Algorithm::Bpe => bpe_story(&text, id, kind, p.score),
                Algorithm::Unigram => unigram_story(&text, id, kind, p.score),
            }
        }
    })
}

/// A piece's text, and how to name its parts.
struct Text<'a> {
    model: &'a SpmModel,
    text: &'a [u8],
    label: &'a dyn Fn(&[u8]) -> String,
    ellipsis: &'a str,
}

impl Text<'_> {
    fn part(&self, span: &Range<usize>) -> String {
        (self.label)(&self.text[span.clone()])
    }

    /// Parts joined with `+`, at most [`MOST_PARTS`] of them named.
    fn join<'s>(&self, spans: impl Iterator<Item = &'s Range<usize>>) -> String {
        let mut named: Vec<String> = spans.map(|s| self.part(s)).collect();
        if named.len() > MOST_PARTS {
            named.truncate(MOST_PARTS);
            named.push(self.ellipsis.to_string());
        }
        named.join(" + ")
    }
}

fn bpe_story(t: &Text, id: TokenId, kind: &str, own: f32) -> Story {
    let name = t.part(&(0..t.text.len()));
    let own = score(own as f64);
    let unused = t.model.kind_of(id) == Some(PieceType::Unused);
    let title = format!(
        "{name}: {}{kind} piece, score {own}",
        if unused { "unused " } else { "" }
    );
    let Some(replay) = replay_bpe(t.model, t.text) else {
        let summary =
            format!("{kind} piece, score {own} (its text is too long to replay its merges)");
        return Story {
            lines: vec![(0, summary.clone())],
            summary,
            title,
        };
    };
    let whole = 0..t.text.len();
    if replay.reaches_whole() {
        let Some(top) = replay.made(&whole) else {
            let summary = format!("{kind} piece, score {own}: one character, no merge makes it");
            return Story {
                lines: vec![(0, "one character: merging starts from characters".into())],
                summary,
                title,
            };
        };
        let halves = format!("{} + {}", t.part(&top.left), t.part(&top.right));
        let summary = if unused {
            format!(
                "unused: merging its text makes it from {halves} (score {own}), but the encoder gives back those two"
            )
        } else {
            format!(
                "made by merging {halves} (score {own}; pairs whose piece scores higher merge first)"
            )
        };
        let mut lines = tree_lines(t, &replay, whole, 0);
        if unused {
            lines.push((0, format!("unused: the encoder gives {halves} instead")));
        }
        return Story {
            summary,
            title,
            lines,
        };
    }
    // sentencepiece's training can keep a piece that merging by score
    // never builds from its own text: say where the merging ends instead.
    let stops = t.join(replay.symbols.iter());
    let summary = format!(
        "{kind} piece, score {own}, never made from its own text: merging it by score stops at {stops}"
    );
    let mut lines = vec![(0, format!("merging its text by score stops at {stops}"))];
    for span in &replay.symbols {
        lines.extend(tree_lines(t, &replay, span.clone(), 1));
    }
    Story {
        summary,
        title,
        lines,
    }
}

/// The merges under `span`, one a line: `▁the = ▁t (score -5) + he
/// (score -3)`.
fn tree_lines(
    t: &Text,
    replay: &BpeReplay,
    span: Range<usize>,
    depth: usize,
) -> Vec<(usize, String)> {
    let scored = |span: &Range<usize>| {
        let part = t.part(span);
        let piece = t
            .model
            .normal
            .get(&t.text[span.clone()])
            .and_then(|&id| t.model.pieces().get(id as usize));
        match piece {
            Some(p) => format!("{part} (score {})", score(p.score as f64)),
            None => format!("{part} (no piece)"),
        }
    };
    replay
        .tree(span)
        .into_iter()
        .map(|(d, m)| {
            (
                depth + d,
                format!(
                    "{} = {} + {}",
                    t.part(&m.span()),
                    scored(&m.left),
                    scored(&m.right)
                ),
            )
        })
        .collect()
}

fn unigram_story(t: &Text, id: TokenId, kind: &str, own: f32) -> Story {
    let name = t.part(&(0..t.text.len()));
    let own = score(own as f64);
    let cuts = unigram_cuts(t.model, t.text);
    let cut_of = |c: &Cut| t.join(c.pieces.iter().map(|(s, _)| s));
    let parts = |c: &Cut| -> Vec<(usize, String)> {
        c.pieces
            .iter()
            .zip(&c.scores)
            .map(|((span, piece), s)| {
                let unknown = if *piece == t.model.unk_id() {
                    " (no piece: unknown)"
                } else {
                    ""
                };
                (
                    1,
                    format!("{}{unknown} (score {})", t.part(span), score(*s)),
                )
            })
            .collect()
    };
    if t.model.kind_of(id) == Some(PieceType::Unused) {
        let summary = format!("unused: never given (score {own})");
        let mut lines = vec![(0, summary.clone())];
        if let Some(best) = &cuts.best {
            lines.push((
                0,
                format!("its text is cut {} = {}", cut_of(best), score(best.total)),
            ));
            lines.extend(parts(best));
        }
        return Story {
            summary,
            title: format!("{name}: unused {kind} piece"),
            lines,
        };
    }
    let title = format!("{name}: {kind} piece, score {own}");
    let alone = match cuts.whole {
        Some((_, s)) => score(s),
        None => own.clone(),
    };
    let mut lines = vec![(0, format!("as one piece: {name} = {alone}"))];
    let wins_alone = cuts.best.as_ref().is_some_and(|b| b.pieces.len() == 1);
    let summary = match (&cuts.best, &cuts.other) {
        (Some(best), _) if !wins_alone => {
            lines.push((
                0,
                format!(
                    "best cut: {} = {}, so its own text is not given as this piece",
                    cut_of(best),
                    score(best.total)
                ),
            ));
            lines.extend(parts(best));
            format!(
                "score {own}; as one piece {alone}, but {} totals {} and wins: its own text is not cut to it",
                cut_of(best),
                score(best.total)
            )
        }
        (_, Some(other)) => {
            lines.push((
                0,
                format!("next best cut: {} = {}", cut_of(other), score(other.total)),
            ));
            lines.extend(parts(other));
            lines.push((0, "the cut with the highest total wins".into()));
            format!(
                "score {own}; as one piece {alone}, the next best cut {} totals {}",
                cut_of(other),
                score(other.total)
            )
        }
        _ => {
            lines.push((0, "one character: no other cut".into()));
            format!("score {own}; one character: no other cut")
        }
    };
    Story {
        summary,
        title,
        lines,
    }
}
