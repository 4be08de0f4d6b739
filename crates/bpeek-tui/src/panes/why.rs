//! The round said in words: why the chosen pair (or a selected merge) won,
//! and what the last merge did to the corpus. The pane with the focus shows
//! it under its rows, so it is read where the eye already is.

use crate::app::App;
use crate::view::widths::{truncate, width};
use bpeek_core::train::trainer::{Choice, PairScore};
use bpeek_core::{Phase, TieRule, Trainer};
use unicode_segmentation::UnicodeSegmentation;

/// A chunk quoted in a sentence is cut to this many columns.
const QUOTE_WIDTH: usize = 24;

/// Joins the halves of a pair in a sentence: [`wrap`] never breaks a
/// row there and draws it as a space, so a pair is read on one row. A
/// control character, so no token label (which escapes them) holds one.
const KEEP: char = '\u{1}';

/// `a + b`, kept on one row.
fn pair(a: &str, b: &str) -> String {
    format!("{a}{KEEP}+{KEEP}{b}")
}

/// The sentence for the current round, if there is something to explain.
pub fn line(app: &App) -> Option<String> {
    sentence(app, false).map(|s| s.replace(KEEP, " "))
}

/// The sentence as rows of at most `cols` columns, no pair cut in two.
/// Where the whole of it takes more than `most` rows it is said briefly:
/// the tied pairs counted but not listed, the tie rule without the chunk
/// it met first in, so that the pane does not cut it.
pub fn rows(app: &App, cols: usize, most: usize) -> Option<Vec<String>> {
    if let Some(u) = &app.unigram {
        return crate::panes::unigram_why::rows(app, u, cols, most);
    }
    let rows = wrap(&sentence(app, false)?, cols);
    if rows.len() <= most {
        return Some(rows);
    }
    sentence(app, true).map(|s| wrap(&s, cols))
}

/// The sentence, `brief` or whole (see [`rows`]).
fn sentence(app: &App, brief: bool) -> Option<String> {
    let trainer = app.trainer();
    if let Some(rank) = app.selected_merge() {
        let merge = trainer.merges().get(rank)?;
        let choice = trainer.choice_of(rank)?;
        let overlap = (merge.replacements < merge.count).then(|| {
            format!(
                "count {} but {} replacements: the pair overlaps itself, and merging left to right replaces {}",
                merge.count, merge.replacements, merge.replacements
            )
        });
        let name = crate::update::merge_name(rank);
        return Some(format!("{name}: {}", wins(app, choice, overlap, brief)));
    }
    match trainer.phase() {
        Phase::Chosen(choice) => Some(wins(app, choice, overlap_now(app, choice), brief)),
        Phase::Merged => merged(app),
        Phase::Counted => None,
    }
}

/// `l + l wins: count 14, tied with 3 others (...); tie rule "first": ...`
fn wins(app: &App, choice: &Choice, overlap: Option<String>, brief: bool) -> String {
    let tok = |id| label(app, id);
    let (a, b) = choice.pair;
    let mut out = format!("{} wins: ", pair(&tok(a), &tok(b)));
    if let Some(score) = choice.score {
        return scored(app, choice, score, overlap, out, brief);
    }
    match overlap {
        Some(o) => out.push_str(&o),
        None => out.push_str(&format!("count {}", choice.count)),
    }
    if choice.rivals_total == 0 {
        match choice.next_best {
            Some(next) => out.push_str(&format!(", next best {next}")),
            None => out.push_str(", no other pair left"),
        }
        return out;
    }
    out.push_str(&format!(", tied with {}", rivals(app, choice, brief)));
    out.push_str(&tie_rule(app, choice, brief));
    out
}

/// `g + s wins: score 0.0500 = 5 / (20 x 5); the most frequent pair u + g
/// scores only 0.0278 = 20 / (36 x 20)`: with WordPiece's score the count
/// alone does not decide, so the pair the count would have taken is named
/// with its score.
fn scored(
    app: &App,
    choice: &Choice,
    score: PairScore,
    overlap: Option<String>,
    mut out: String,
    brief: bool,
) -> String {
    let tok = |id| label(app, id);
    out.push_str(&format!("score {}", score.said()));
    if let Some(o) = overlap {
        out.push_str(&format!(" ({o})"));
    }
    if choice.rivals_total > 0 && brief {
        out.push_str(&format!(
            ", tied in score with {}",
            rivals(app, choice, brief)
        ));
    } else if choice.rivals_total > 0 {
        // Equal scores go to the pair met first in the table's order,
        // which is by count, then by the tie rule.
        out.push_str(&format!(
            ", tied in score with {}: the higher count wins, then{}",
            rivals(app, choice, brief),
            tie_rule(app, choice, brief).trim_start_matches(';')
        ));
    }
    match choice.most_frequent {
        Some(((a, b), f)) => out.push_str(&format!(
            "; the most frequent pair {} scores only {}",
            pair(&tok(a), &tok(b)),
            f.said()
        )),
        None if brief => {}
        None => out.push_str("; it is also the most frequent pair"),
    }
    out
}

/// `3 others (a + b, c + d, e + f)`: the rivals tied with the winner.
fn rivals(app: &App, choice: &Choice, brief: bool) -> String {
    let tok = |id| label(app, id);
    let others = plural(choice.rivals_total as u64, "other");
    if brief {
        return others;
    }
    let mut listed: Vec<String> = choice
        .rivals
        .iter()
        .take(3)
        .map(|&(a, b)| pair(&tok(a), &tok(b)))
        .collect();
    if choice.rivals_total > listed.len() {
        listed.push(app.theme.glyphs.ellipsis.to_string());
    }
    format!("{others} ({})", listed.join(", "))
}

/// `; tie rule "first": met first, in " still" (line 4)`.
fn tie_rule(app: &App, choice: &Choice, brief: bool) -> String {
    let trainer = app.trainer();
    let mut out = String::new();
    match trainer.config().tie {
        TieRule::Lex => out.push_str("; tie rule \"lex\": smallest pair"),
        TieRule::Hf => out
            .push_str("; tie rule \"hf\": smallest pair in Hugging Face's numbering of the bytes"),
        TieRule::First => {
            out.push_str("; tie rule \"first\": met first");
            if let Some(c) = choice.first_chunk.filter(|_| !brief) {
                out.push_str(&where_met(app, c));
            }
        }
    }
    out
}

/// `, in " still" (line 4)`: the chunk and the line it first appears on.
fn where_met(app: &App, chunk: u32) -> String {
    let trainer = app.trainer();
    let corpus = trainer.corpus();
    let quoted = quote(app, corpus.chunk_bytes(chunk as usize));
    let start = corpus.chunks()[chunk as usize].start as usize;
    let line = app.lines().line_of(start) + 1;
    format!(", in {quoted} (line {line})")
}

/// A chunk in quotes, cut to [`QUOTE_WIDTH`] columns. Only its start is
/// looked at: a chunk can be the whole corpus (`--pretok none`), and
/// quoting all of it would cost a frame many times over.
fn quote(app: &App, chunk: &[u8]) -> String {
    let ellipsis = app.theme.glyphs.ellipsis;
    // Four bytes a column is room for any character that takes a column.
    let head = &chunk[..chunk.len().min(QUOTE_WIDTH * 4)];
    let text = String::from_utf8_lossy(head);
    let quoted = truncate(&format!("{text:?}"), QUOTE_WIDTH, ellipsis);
    if head.len() < chunk.len() && !quoted.ends_with(ellipsis) {
        format!("{quoted}{ellipsis}")
    } else {
        quoted
    }
}

/// In the chosen phase, for a pair of one token twice: the places a merge
/// will replace differ from the count when the pair overlaps itself.
fn overlap_now(app: &App, choice: &Choice) -> Option<String> {
    let (a, b) = choice.pair;
    if a != b {
        return None;
    }
    let trainer = app.trainer();
    let mut replacements = 0u64;
    let mut example: Option<(usize, u64, u64)> = None;
    for c in trainer.chunks_holding(choice.pair) {
        let (windows, replaced) = count_in(trainer, c as usize, a);
        let freq = trainer.corpus().chunks()[c as usize].freq;
        replacements += replaced * freq;
        if example.is_none() && replaced < windows {
            example = Some((c as usize, windows, replaced));
        }
    }
    let (c, windows, replaced) = example?;
    let quoted = quote(app, trainer.corpus().chunk_bytes(c));
    Some(format!(
        "count {} but {replacements} replacements: {quoted} holds {windows} overlapping pairs, merging left to right replaces {replaced}",
        choice.count
    ))
}

/// The windows of `(id, id)` in chunk `c`, and how many a left-to-right
/// merge replaces.
fn count_in(trainer: &Trainer, c: usize, id: bpeek_core::TokenId) -> (u64, u64) {
    let symbols = trainer.chunk_symbols(c);
    let windows = symbols
        .windows(2)
        .filter(|w| w[0] == id && w[1] == id)
        .count() as u64;
    let mut replaced = 0;
    let mut i = 0;
    while i + 1 < symbols.len() {
        if symbols[i] == id && symbols[i + 1] == id {
            replaced += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    (windows, replaced)
}

/// `merge 5 made ll: the corpus lost 12 tokens (1200 → 1188), ...`
fn merged(app: &App) -> Option<String> {
    let trainer = app.trainer();
    let merge = trainer.merges().last()?;
    let after = trainer.corpus_tokens();
    let before = after + merge.replacements;
    // The source's bytes, as the status line counts them: a corpus read
    // from count files holds each distinct chunk once, not the text.
    let bytes = trainer.corpus().source_len() as f64;
    let per = |tokens: u64| {
        if tokens == 0 {
            0.0
        } else {
            bytes / tokens as f64
        }
    };
    let arrow = app.theme.glyphs.arrow;
    let vocab = trainer.vocab().len() + app.specials().len();
    let (old, new) = (per(before), per(after));
    Some(format!(
        "{} made {}: the corpus lost {} ({before} {arrow} {after}), vocabulary now {vocab}, bytes per token {old:.3} {arrow} {new:.3} ({:+.3})",
        crate::update::merge_name(merge.rank),
        label(app, merge.id),
        plural(merge.replacements, "token"),
        new - old
    ))
}

/// `text` cut into rows of at most `cols` columns at spaces (a word longer
/// than a row is cut between characters). One pass: a label can be long.
/// A pair's halves, joined by [`KEEP`], are one word.
pub fn wrap(text: &str, cols: usize) -> Vec<String> {
    let cols = cols.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let mut used = 0;
    for kept in text.split(' ') {
        let word: std::borrow::Cow<str> = if kept.contains(KEEP) {
            kept.replace(KEEP, " ").into()
        } else {
            kept.into()
        };
        let word = word.as_ref();
        let w = width(word);
        if !row.is_empty() && used + 1 + w > cols {
            rows.push(std::mem::take(&mut row));
            used = 0;
        }
        if !row.is_empty() {
            row.push(' ');
            used += 1;
        }
        if used + w <= cols {
            row.push_str(word);
            used += w;
            continue;
        }
        for g in word.graphemes(true) {
            let gw = width(g);
            if used > 0 && used + gw > cols {
                rows.push(std::mem::take(&mut row));
                used = 0;
            }
            row.push_str(g);
            used += gw;
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// A token as the tables write it.
fn label(app: &App, id: bpeek_core::TokenId) -> String {
    crate::view::token_label(app, id)
}

/// `1 token`, `2 tokens`.
pub(crate) fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::{truncate, width, wrap};

    /// Wrapping the obvious way: append each word, then cut the row while
    /// it is too wide (slow on a long word, but plainly right).
    fn wrap_slowly(text: &str, cols: usize) -> Vec<String> {
        let mut rows: Vec<String> = Vec::new();
        let mut row = String::new();
        for word in text.split(' ') {
            if !row.is_empty() && width(&row) + 1 + width(word) > cols {
                rows.push(std::mem::take(&mut row));
            }
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(word);
            while width(&row) > cols {
                let head = truncate(&row, cols, "");
                let rest = row[head.len()..].to_string();
                rows.push(head);
                row = rest;
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
        rows
    }

    #[test]
    fn wraps_as_the_obvious_way_does() {
        let words = [
            "a",
            "bb",
            "ccc",
            "",
            "日本語",
            "e\u{301}",
            "x".repeat(23).leak(),
            "·",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for k in 0..(seed % 12) {
                if k > 0 {
                    text.push(' ');
                }
                text.push_str(words[((seed >> (4 * k)) % words.len() as u64) as usize]);
            }
            for cols in 2..30 {
                assert_eq!(
                    wrap(&text, cols),
                    wrap_slowly(&text, cols),
                    "{text:?} in {cols}"
                );
            }
        }
    }

    #[test]
    fn a_long_word_is_cut_into_full_rows() {
        let rows = wrap(&"ab".repeat(5000), 7);
        assert_eq!(rows.len(), 10000 / 7 + 1);
        assert!(rows[..rows.len() - 1].iter().all(|r| r.len() == 7));
    }
}
