//! A word's lattice laid out in rows for the screen: the word's
//! characters at fixed columns, each piece that stands in the word drawn
//! under the characters it covers (`h─u─g`), the best cut in the first
//! row, the other pieces packed into the rows below where they do not
//! overlap.

use bpeek_core::train::unigram::WordLattice;
use unicode_width::UnicodeWidthChar;

/// One piece placed on a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Its first column.
    pub col: usize,
    /// Its characters joined by the joining glyph.
    pub text: String,
    /// The index of its edge in the lattice.
    pub edge: usize,
    pub on_best: bool,
}

/// The rows of `lattice` over `word`, pieces joined by `join` (`─`).
pub fn rows(word: &str, lattice: &WordLattice, join: &str) -> Vec<Vec<Placed>> {
    // The column of each character, by its byte offset; a character and
    // one column of gap each.
    let mut col_at = std::collections::HashMap::new();
    let mut col = 0;
    for (at, c) in word.char_indices() {
        col_at.insert(at, col);
        col += c.width().unwrap_or(1).max(1) + 1;
    }
    col_at.insert(word.len(), col);
    let place = |edge: usize| {
        let e = &lattice.edges[edge];
        let text: Vec<String> = word[e.bytes.clone()].chars().map(String::from).collect();
        Placed {
            col: col_at[&e.bytes.start],
            text: text.join(join),
            edge,
            on_best: lattice.best.contains(&edge),
        }
    };
    let mut out: Vec<Vec<Placed>> = vec![lattice.best.iter().map(|&e| place(e)).collect()];
    // Where each row is free from (the column after its last piece's gap).
    let mut free_from: Vec<usize> = Vec::new();
    for edge in (0..lattice.edges.len()).filter(|e| !lattice.best.contains(e)) {
        let p = place(edge);
        let end = col_at[&lattice.edges[edge].bytes.end];
        match free_from.iter().position(|&f| f <= p.col) {
            Some(r) => {
                free_from[r] = end;
                out[r + 1].push(p);
            }
            None => {
                free_from.push(end);
                out.push(vec![p]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpeek_core::train::unigram::{UnigramConfig, UnigramTrainer, WordMarks};

    #[test]
    fn the_best_cut_is_the_first_row_and_no_two_pieces_of_a_row_touch() {
        let config = UnigramConfig {
            marks: WordMarks::None,
            vocab_size: 10,
            ..Default::default()
        };
        let t = UnigramTrainer::new("hug hug pug pun bun hugs".as_bytes(), config).unwrap();
        for w in 0..t.words().len() {
            let word = t.words().word(w);
            let l = t.lattice(w);
            let rows = rows(word, &l, "-");
            let first: Vec<usize> = rows[0].iter().map(|p| p.edge).collect();
            assert_eq!(first, l.best);
            let placed: usize = rows.iter().map(Vec::len).sum();
            assert_eq!(placed, l.edges.len(), "every piece drawn once");
            for row in &rows {
                for pair in row.windows(2) {
                    assert!(pair[0].col + pair[0].text.chars().count() < pair[1].col);
                }
            }
        }
    }
}
