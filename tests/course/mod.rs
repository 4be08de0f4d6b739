//! The Hugging Face course's worked corpus, used by the BPE, WordPiece and
//! Unigram tests alike.

/// The course's words, one space apart: hug 10, pug 5, pun 12, bun 4,
/// hugs 5.
pub fn text() -> String {
    [
        ("hug", 10),
        ("pug", 5),
        ("pun", 12),
        ("bun", 4),
        ("hugs", 5),
    ]
    .iter()
    .flat_map(|&(w, n)| std::iter::repeat_n(w, n))
    .collect::<Vec<_>>()
    .join(" ")
}
