//! Where each display line of the corpus starts, found once so that drawing
//! touches only the visible lines of even a huge text.

use bpeek_core::Trainer;
use std::ops::Range;
use std::sync::{Arc, Mutex, Weak};

/// Lines longer than this are cut into pieces of about this many bytes, so a
/// text with no line breaks still costs little to draw: a row deep in a
/// line is found by laying the line out from its start.
pub const MAX_LINE_BYTES: usize = 1024;

/// A long line is cut after the last space in its last quarter, where the
/// cut looks like any other wrap at a space; only text without spaces
/// there is cut between two characters.
const LOOK_BACK_FROM: usize = MAX_LINE_BYTES * 3 / 4;

#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset of each line's start; a line runs to the next start and
    /// includes its line break.
    starts: Vec<usize>,
    len: usize,
}

/// The line index of each corpus some trainer still holds, with one of
/// those trainers: while it lives its corpus does, so a corpus found at the
/// same address is the same one.
type Known = Vec<(Weak<Trainer>, Arc<LineIndex>)>;

impl LineIndex {
    /// The line index of `trainer`'s corpus, made once however many
    /// explorers show it (every student of a class connects to the same
    /// corpus, and a big one takes milliseconds to index).
    pub fn of_corpus(trainer: &Arc<Trainer>) -> Arc<LineIndex> {
        static KNOWN: Mutex<Known> = Mutex::new(Vec::new());
        let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
        known.retain(|(t, _)| t.strong_count() > 0);
        let found = known.iter().find_map(|(t, lines)| {
            let t = t.upgrade()?;
            std::ptr::eq(t.corpus(), trainer.corpus()).then(|| lines.clone())
        });
        if let Some(lines) = found {
            return lines;
        }
        let lines = Arc::new(LineIndex::new(trainer.corpus().text()));
        known.push((Arc::downgrade(trainer), lines.clone()));
        lines
    }

    pub fn new(text: &[u8]) -> Self {
        let mut starts = vec![0];
        let mut start = 0;
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' {
                start = i + 1;
                if start < text.len() {
                    starts.push(start);
                }
            } else if i + 1 - start >= MAX_LINE_BYTES && i + 1 < text.len() {
                let from = start + LOOK_BACK_FROM;
                let cut = match text[from..=i].iter().rposition(|&b| b == b' ') {
                    Some(p) => from + p + 1,
                    // Cut only between characters, never inside one.
                    None if !is_continuation(text[i + 1]) => i + 1,
                    None => continue,
                };
                start = cut;
                starts.push(start);
            }
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// How many lines there are (an empty text has one empty line).
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of line `i`, its line break included.
    pub fn range(&self, i: usize) -> Range<usize> {
        let start = self.starts[i];
        let end = self.starts.get(i + 1).copied().unwrap_or(self.len);
        start..end
    }

    /// The line holding byte `pos`.
    pub fn line_of(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos).saturating_sub(1)
    }
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_include_their_break() {
        let idx = LineIndex::new(b"ab\ncd\n");
        assert_eq!(idx.count(), 2);
        assert_eq!(idx.range(0), 0..3);
        assert_eq!(idx.range(1), 3..6);
        assert_eq!(idx.line_of(4), 1);
    }

    #[test]
    fn long_lines_are_cut_after_a_space_where_there_is_one() {
        let text = "word ".repeat(MAX_LINE_BYTES);
        let idx = LineIndex::new(text.as_bytes());
        assert!(idx.count() > 4);
        for i in 1..idx.count() {
            let r = idx.range(i);
            assert_eq!(text.as_bytes()[r.start - 1], b' ');
            assert!(idx.range(i - 1).len() <= MAX_LINE_BYTES);
        }
    }

    #[test]
    fn long_lines_are_cut_between_characters() {
        let text = "日".repeat(MAX_LINE_BYTES);
        let idx = LineIndex::new(text.as_bytes());
        assert!(idx.count() > 1);
        for i in 0..idx.count() {
            assert!(text.is_char_boundary(idx.range(i).start));
        }
    }
}
