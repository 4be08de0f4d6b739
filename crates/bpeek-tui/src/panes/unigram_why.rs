//! Unigram mode's why sentence: why the selected piece goes or stays, in
//! the trainer's numbers (`·th goes: removing it costs 0.31 of 11,204;
//! ·the stays: 412`), or, with no piece selected, what the last step did.

use crate::app::unigram::UnigramView;
use crate::app::{App, Focus};
use crate::panes::piece_table;
use bpeek_core::embedding::thousands;
use bpeek_core::train::unigram::{
    PieceId, PieceScore, StepDetail, UnigramPhase, UnigramTrainer, Verdict,
};

/// The sentence wrapped to `cols`, at most `most` rows (the brief form if
/// the whole one takes more); `None` when there is nothing to say.
pub fn rows(app: &App, u: &UnigramView, cols: usize, most: usize) -> Option<Vec<String>> {
    let space = app.theme.glyphs.space;
    let whole = sentence(app, u, space, false)?;
    let rows = crate::panes::why::wrap(&whole, cols);
    if rows.len() <= most {
        return Some(rows);
    }
    sentence(app, u, space, true).map(|s| crate::panes::why::wrap(&s, cols))
}

fn sentence(app: &App, u: &UnigramView, space: &str, brief: bool) -> Option<String> {
    let t = &u.trainer;
    match app.focus {
        Focus::Pairs => {
            let rows = piece_table::rows(t, u.sort);
            let row = rows.get(u.piece_row)?;
            Some(piece_sentence(t, row.piece, space, brief))
        }
        Focus::Merges => {
            let (_, gone) = t.gone().nth(u.removal_row)?;
            Some(piece_sentence(t, gone.piece(), space, brief))
        }
        Focus::Corpus => Some(step_sentence(t, space)),
        Focus::Encode => None,
    }
}

/// An expected count to two places, cut rather than rounded: a count
/// below one half never reads 0.50.
pub fn expected_count(expected: f64) -> String {
    format!("{:.2}", (expected * 100.0).floor() / 100.0)
}

/// The loss of the corpus now, as the sentence gives it: whole units.
fn loss_now(t: &UnigramTrainer) -> String {
    thousands(t.last_step().loss.round().max(0.0) as u64)
}

fn name(t: &UnigramTrainer, piece: PieceId, space: &str) -> String {
    piece_table::label(t.pieces().text(piece), space)
}

/// `·the stays: 412`: a piece and its score, the other side of the edge.
fn other(t: &UnigramTrainer, s: Option<PieceScore>, verb: &str, space: &str) -> String {
    match s {
        Some(s) => format!(
            "; {} {verb}: {:.2}",
            name(t, s.piece, space),
            s.loss_increase
        ),
        None => String::new(),
    }
}

/// Why `piece` goes or stays.
pub fn piece_sentence(t: &UnigramTrainer, piece: PieceId, space: &str, brief: bool) -> String {
    let me = name(t, piece, space);
    match t.verdict(piece) {
        Verdict::SingleCharacter => {
            format!("{me} stays: a single character is never removed (every word must stay cut)")
        }
        Verdict::NotScored => {
            let round = t.last_step().round;
            format!(
                "{me} stays for now: round {round} is not scored yet (the scoring finds each piece's loss if removed)"
            )
        }
        Verdict::Scored { score, goes, .. } => {
            let edge = t.prune_edge();
            let verb = if goes { "goes" } else { "stays" };
            let cost = if goes { "costs" } else { "would cost" };
            let mut s = format!(
                "{me} {verb}: removing it {cost} {:.2} of {}",
                score.loss_increase,
                loss_now(t)
            );
            let beside = if goes {
                other(t, edge.and_then(|e| e.first_kept), "stays", space)
            } else {
                other(t, edge.and_then(|e| e.last_going), "goes", space)
            };
            s.push_str(&beside);
            if !brief {
                s.push_str(&format!(
                    " ({} of {} word{} use it)",
                    score.uses,
                    thousands(t.words().iter().map(|(_, c)| c).sum()),
                    if t.words().len() == 1 { "" } else { "s" }
                ));
            }
            s
        }
        Verdict::Dropped { round, expected } => format!(
            "{me} went in round {round}: an EM iteration expected it {} times, below one half, and dropped it before scoring",
            expected_count(expected)
        ),
        Verdict::Removed {
            round,
            score,
            threshold,
        } => {
            let mut s = format!(
                "{me} went in round {round}: removing it cost {:.2}",
                score.loss_increase
            );
            if let Some(th) = threshold {
                s.push_str(&format!(", the lowest kept cost {th:.2}"));
            }
            if !brief {
                s.push_str(&format!(
                    " ({} use{} of it in the best cuts then)",
                    score.uses,
                    if score.uses == 1 { "" } else { "s" }
                ));
            }
            s
        }
    }
}

/// What the last step did, in words.
pub fn step_sentence(t: &UnigramTrainer, space: &str) -> String {
    let step = t.last_step();
    let n = t.step_count();
    let loss = loss_now(t);
    let tokens = thousands(step.tokens);
    match &step.detail {
        StepDetail::Seeded => format!(
            "step 0, seeded: {} pieces (every character and the most frequent substrings, each with its count's share); loss {loss}, {tokens} tokens",
            step.pieces
        ),
        StepDetail::Estimated { dropped, .. } => {
            let it = match step.phase {
                UnigramPhase::Estimated { iteration } => iteration,
                _ => 0,
            };
            let drops = match dropped.len() {
                0 => String::new(),
                d => format!(
                    "; {} piece{} expected below one half dropped",
                    thousands(d as u64),
                    if d == 1 { "" } else { "s" }
                ),
            };
            format!(
                "step {n}, round {} EM {it}/{}: each piece's probability from its expected count over every cut{drops}; loss {loss}, {tokens} tokens",
                step.round,
                t.config().em_iterations
            )
        }
        StepDetail::Scored { .. } => {
            let edge = t.prune_edge();
            let going = edge.map_or(0, |e| e.going);
            format!(
                "step {n}, round {} scored: each piece's loss if removed; the prune takes the {going} lowest{}{}",
                step.round,
                other(t, edge.and_then(|e| e.last_going), "goes", space),
                other(t, edge.and_then(|e| e.first_kept), "stays", space)
            )
        }
        StepDetail::Pruned { removed } => format!(
            "step {n}, pruned: {} pieces removed, {} kept; loss {loss}, {tokens} tokens (marked words changed their cut)",
            removed.len(),
            step.pieces
        ),
    }
}
