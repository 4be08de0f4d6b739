//! What the screen's words, marks and colours mean: the last section of
//! the help overlay, in the glyphs the screen is drawn with.

use crate::app::App;

/// The section's heading.
pub const TITLE: &str = "What the screen shows";

/// Each entry: what is seen, and what it means.
pub fn rows(app: &App) -> Vec<(String, &'static str)> {
    if app.unigram.is_some() {
        return unigram_rows(app);
    }
    let g = &app.theme.glyphs;
    let colour = app.theme.colour;
    #[rustfmt::skip]
    let mut rows = vec![
        ("counted".to_string(), "phase: every pair of neighbouring tokens is counted"),
        ("chosen".to_string(), "phase: the pair to merge is picked (ties by the tie rule)"),
        ("merged".to_string(), "phase: each place of that pair becomes the new token"),
        (g.winner.to_string(), "the pair that wins this round"),
        (g.tie.to_string(), "a pair tied with the winner, which the tie rule passed over"),
        (g.space.to_string(), "a space (w shows whitespace as glyphs), drawn dim"),
        (format!("\\{}", g.space), "the space glyph's own character in a token's text"),
        (g.end_of_word.to_string(), "char mode: the end of a word (</w>)"),
        (g.separator.to_string(), "a token boundary (b shows them)"),
        (g.fragment.to_string(), "a boundary inside a character that tokens share"),
        ("cnt count".to_string(), "how often the pair stood side by side when merged"),
        ("rep repl".to_string(), "how many places the merge replaced"),
        ("B/tok".to_string(), "bytes per token: higher is cheaper text"),
        ("premium".to_string(), "tokens against the same text in English (1.00: as cheap)"),
        ("trained".to_string(), "the tokenizer being trained here, at its current merge"),
        ("[UNK]".to_string(), "char mode: a character never seen in training"),
        (format!("merge 5/{}", g.infinity), "merges made, of the budget (no budget: until no pair is left)"),
        ("merge 5".to_string(), "the fifth merge: merges are counted from 1 everywhere (# in a merge list)"),
        ("rank 674".to_string(), "a rank file's merge (gpt2, cl100k, o200k, tiktoken): the id of the token it makes"),
        ("id 674".to_string(), "a token's number in its vocabulary"),
        (format!("{}{}", times_glyph(app), 55), "chunks: how many times the chunk stands in the corpus"),
        ("new gone".to_string(), "pairs: made by the last merge, or left with no place"),
        (format!("{}3 {}2", g.up, g.down), "pairs: how much the last merge raised or lowered the count"),
        ("?".to_string(), "merges: the chosen pair's id and replacements, before it is merged"),
        ("*".to_string(), "compare: a merge that no other column's list holds"),
        (g.playing.to_string(), "autoplay is on, at the rate beside it"),
    ];
    // Every mark is told apart without colour; colour only adds to it.
    let (chosen, made, selected, inside) = if colour {
        ("yellow", "green", "magenta", "bold magenta")
    } else {
        use crate::theme::{Mark, Theme};
        (
            Theme::mark_look(Mark::Chosen),
            Theme::mark_look(Mark::Applied),
            Theme::mark_look(Mark::Selected),
            Theme::mark_look(Mark::Inside),
        )
    };
    rows.extend([
        (chosen.to_string(), "the chosen pair, everywhere it stands"),
        (made.to_string(), "the token just made"),
        (selected.to_string(), "the selected merge's token"),
        (
            inside.to_string(),
            "a later token built on the selected one",
        ),
        (
            "underline".to_string(),
            "every other token, so that neighbours differ",
        ),
    ]);
    rows
}

/// The words and marks of Unigram mode.
fn unigram_rows(app: &App) -> Vec<(String, &'static str)> {
    let g = &app.theme.glyphs;
    let changed = crate::view::unigram_words::changed_glyph(app);
    #[rustfmt::skip]
    let rows = vec![
        ("seeded".to_string(), "step 0: every character and the most frequent substrings, each with its count"),
        ("EM 1/2".to_string(), "an EM iteration: expected counts from each word's lattice give the probabilities"),
        ("scored".to_string(), "each piece's loss if removed: the corpus loss without it, less the loss now"),
        ("pruned".to_string(), "the pieces that cost least removed (single characters are kept)"),
        (format!("813 {} 270 pieces", g.arrow), "pieces now, and the vocabulary size training stops at"),
        ("loss".to_string(), "the corpus loss: minus the log-probability of each word's best cut, summed over the corpus"),
        ("tok".to_string(), "the tokens of the corpus cut by the pieces now"),
        (changed.to_string(), "words: a cut the last prune changed"),
        (format!("{}55", times_glyph(app)), "words: how many times the word stands in the corpus"),
        ("goes".to_string(), "pieces: the coming prune takes it"),
        ("-".to_string(), "pieces: not scored yet this round"),
        ("exp 0.31".to_string(), "removed: an EM iteration dropped it, expected fewer than half a time"),
        ("uses".to_string(), "removed: word occurrences whose best cut had the piece"),
        (g.space.to_string(), "a space (w shows whitespace as glyphs), drawn dim"),
        ("trained".to_string(), "the Unigram vocabulary being trained, at the current step"),
        (g.playing.to_string(), "autoplay is on, at the rate beside it"),
    ];
    rows
}

/// The mark before a chunk's count (`×55`), as the chunks pane draws it.
fn times_glyph(app: &App) -> &'static str {
    if app.theme.ascii { "x" } else { "×" }
}

/// The section as lines `width` columns wide: each term, and its meaning
/// wrapped beside it (never cut).
pub fn lines(app: &App, width: usize) -> Vec<(String, String)> {
    let rows = rows(app);
    let term_width = rows
        .iter()
        .map(|(t, _)| crate::panes::rows::cell_width(t))
        .max()
        .unwrap_or(0);
    let room = width.saturating_sub(term_width + 1).max(12);
    let mut out = Vec::new();
    for (term, meaning) in rows {
        let wrapped = crate::panes::why::wrap(meaning, room);
        for (k, line) in wrapped.into_iter().enumerate() {
            let label = if k == 0 { term.as_str() } else { "" };
            let pad = term_width.saturating_sub(crate::panes::rows::cell_width(label));
            out.push((format!("{label}{} ", " ".repeat(pad)), line));
        }
    }
    out
}
