//! A large corpus is counted on several threads, a part of the text each,
//! cut just after a line break that a letter or digit follows. The chunks,
//! their counts, the order in which they first appear and every place they
//! appear must be what one pass over the whole text gives.

use bpeek::bpe::corpus::Corpus;
use bpeek::bpe::pretok::{Chunker, Digits};
use bpeek::bpe::{Mode, Pretok};

mod reference;

use reference::*;

/// Lines of words, numbers, punctuation, spaces and some non-ASCII text,
/// so that parts start with every kind of character.
fn lines(rng: &mut Rng, len: usize) -> Vec<u8> {
    let pieces = [
        "the", " cat", "\n", "\n\n", "  ", "42", " 7", "!", "?\n", "é", "日本", " ", "\t", "a",
        "Zebra", "\r\n", "'s", "...", "1999", "\n ", "\nb",
    ];
    let mut out = Vec::new();
    while out.len() < len {
        out.extend_from_slice(pieces[rng.below(pieces.len())].as_bytes());
    }
    out
}

fn corpus(text: &[u8], pretok: Pretok, by_line: bool, parts: usize) -> Corpus {
    Corpus::new_in_parts(
        text.to_vec(),
        Mode::Byte,
        Chunker::new(pretok, Digits::Keep),
        true,
        by_line,
        parts,
    )
    .expect("the corpus is counted")
}

#[test]
fn counting_in_parts_gives_what_one_pass_gives() {
    let mut rng = Rng(7);
    for round in 0..120 {
        let len = 50 + rng.below(3000);
        let text = lines(&mut rng, len);
        let pretok = Pretok::ALL[rng.below(Pretok::ALL.len())];
        let by_line = rng.below(3) == 0;
        let whole = corpus(&text, pretok, by_line, 1);
        for parts in 2..=6 {
            let cut = corpus(&text, pretok, by_line, parts);
            assert_eq!(
                cut.chunks(),
                whole.chunks(),
                "round {round}, {pretok}, by line {by_line}, {parts} parts"
            );
            assert_eq!(
                cut.occurrences(),
                whole.occurrences(),
                "round {round}, {pretok}, by line {by_line}, {parts} parts"
            );
        }
    }
}

#[test]
fn a_text_with_nowhere_to_cut_is_counted_in_one_pass() {
    // No line starts with a letter or digit: there is no safe place to cut.
    let text = b" a\n b\n\n c\n".repeat(200);
    let whole = corpus(&text, Pretok::Gpt2, false, 1);
    let cut = corpus(&text, Pretok::Gpt2, false, 4);
    assert_eq!(cut.chunks(), whole.chunks());
    assert_eq!(cut.occurrences(), whole.occurrences());
}
