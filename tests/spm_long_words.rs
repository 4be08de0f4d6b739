//! What one long word costs a SentencePiece BPE model in memory: a text
//! of megabytes with no space in it is one word, merged as a whole, so
//! the bytes kept per character decide whether it encodes at all. Heap
//! bytes are counted by this test binary's allocator, at their peak.

mod common;
mod heap;

use bpeek::bpe::Tokenizer;
use bpeek::bpe::models::spm::{Algorithm, ModelSpec, NormalizerSpec, Piece, PieceType, SpmModel};
use common::Rng;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// A SentencePiece BPE model of the letters a-z, every pair of them (so
/// that in any text every neighbouring pair makes a piece at first), and
/// runs of `a` and of `ab` up to 16 letters; the longer a piece the lower
/// its score, as training gives them.
fn model() -> Tokenizer {
    let letters: Vec<String> = ('a'..='z').map(String::from).collect();
    let mut texts: Vec<String> = vec!["\u{2581}".into()];
    texts.extend(letters.iter().cloned());
    texts.extend(
        letters
            .iter()
            .flat_map(|a| letters.iter().map(move |b| format!("{a}{b}"))),
    );
    for n in [4, 8, 16] {
        texts.push("a".repeat(n));
        texts.push("ab".repeat(n / 2));
    }
    let mut pieces = vec![Piece {
        text: b"<unk>".to_vec(),
        score: 0.0,
        kind: PieceType::Unknown,
    }];
    pieces.extend(texts.iter().enumerate().map(|(k, t)| Piece {
        text: t.clone().into_bytes(),
        score: -(t.chars().count() as f32) - k as f32 * 1e-3,
        kind: PieceType::Normal,
    }));
    let model = SpmModel::new(ModelSpec {
        pieces,
        algorithm: Algorithm::Bpe,
        byte_fallback: false,
        split_digits: false,
        treat_whitespace_as_suffix: false,
        unk_surface: None,
        normalizer: NormalizerSpec::default(),
    })
    .unwrap();
    Tokenizer::from_sentencepiece("letters", model)
}

/// Peak heap bytes per text byte while `text` is encoded, the ids given
/// back included.
fn peak_per_byte(tok: &Tokenizer, text: &str) -> f64 {
    let before = heap::mark_peak();
    let ids = tok.encode(text, false);
    let peak = heap::peak() - before;
    assert!(!ids.is_empty());
    drop(ids);
    peak as f64 / text.len() as f64
}

#[test]
fn one_long_word_encodes_in_a_few_times_its_size() {
    // One test, so that nothing else allocates while the peak is taken.
    const LEN: usize = 2 << 20;
    let tok = model();
    let mut rng = Rng(0x10_4670);
    let letters: String = (0..LEN)
        .map(|_| (b'a' + rng.below(26) as u8) as char)
        .collect();
    let words: String = letters
        .as_bytes()
        .chunks(6)
        .flat_map(|w| [std::str::from_utf8(w).unwrap(), " "])
        .collect();
    let cases = [
        ("one letter", "a".repeat(LEN)),
        ("two letters in turn", "ab".repeat(LEN / 2)),
        ("random letters", letters),
        ("words of six letters", words),
    ];
    let mut report = Vec::new();
    for (what, text) in cases {
        let cost = peak_per_byte(&tok, &text);
        eprintln!("{what}: {cost:.1} bytes a byte at the peak");
        report.push((what, cost));
    }
    // The normalized copy (a byte), two four-byte places a byte for the
    // symbols, a heap of eight-byte pairs (at most one a byte) and four
    // bytes an id: 17.5 to 21. Symbols of 40 bytes, a heap of 32-byte
    // pairs that kept the stale ones and the pieces gathered before their
    // ids came to 76 to 97.
    for (what, cost) in report {
        assert!(cost < 24.0, "{what}: {cost:.1} bytes a byte at the peak");
    }
}
