//! What training on one long chunk costs in memory: with `--pretok none`
//! every byte of a line is a position of its own, so the bytes kept per
//! position decide whether a large line trains at all. Heap bytes are
//! counted by this test binary's allocator, at their peak.

mod common;
mod heap;

use bpeek::bpe::{Pretok, Trainer, TrainerConfig};
use common::Rng;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// Words of the bundled corpora drawn at random, as often as they occur
/// there, on one line: text whose pairs are spread like prose's.
fn one_line_of_words(len: usize) -> Vec<u8> {
    let words: Vec<&str> = bpeek::corpora::BUNDLED
        .iter()
        .map(|c| c.text)
        .chain(bpeek::corpora::SAMPLES.iter().map(|s| s.text))
        .flat_map(str::split_whitespace)
        .collect();
    let mut rng = Rng(0x1_0C7E);
    let mut text = Vec::with_capacity(len + 64);
    while text.len() < len {
        text.extend_from_slice(rng.pick(&words).as_bytes());
        text.push(b' ');
    }
    text.truncate(len);
    text
}

/// Peak heap bytes per text byte while `text` is counted and `merges`
/// merges are made, with a history for stepping back or without.
fn peak_per_byte(text: Vec<u8>, pretok: Pretok, merges: usize, history: bool) -> f64 {
    let len = text.len();
    let config = TrainerConfig {
        pretok,
        max_merges: Some(merges),
        keep_history: history,
        text_positions: history,
        ..Default::default()
    };
    let before = heap::mark_peak();
    // The text is counted from the moment it is handed over.
    let base = before - len as isize;
    let mut trainer = Trainer::new(text, config).unwrap();
    trainer.run();
    assert_eq!(trainer.merges().len(), merges);
    let peak = heap::peak() - base;
    drop(trainer);
    peak as f64 / len as f64
}

#[test]
fn a_long_line_trains_in_a_few_times_its_size() {
    // One test, so that nothing else allocates while the peak is taken.
    let cases = [
        (
            "words, headless",
            one_line_of_words(3 << 20),
            Pretok::None,
            300,
            false,
        ),
        (
            "words, stepping back",
            one_line_of_words(3 << 20),
            Pretok::None,
            300,
            true,
        ),
        (
            "words, lines",
            one_line_of_words(3 << 20),
            Pretok::Lines,
            300,
            false,
        ),
        ("one letter", vec![b'a'; 3 << 20], Pretok::None, 12, false),
    ];
    let mut report = Vec::new();
    for (what, text, pretok, merges, history) in cases {
        let cost = peak_per_byte(text, pretok, merges, history);
        eprintln!("{what}: {cost:.2} bytes a byte at the peak");
        report.push((what, cost));
    }
    // The text, two bytes a position, about a byte and a half of places a
    // position and the pair table: about 5.5, and a history for stepping
    // back about a byte a replacement more. Four-byte cells beside a copy
    // of the base symbols, and lists of four-byte places, came to 24-29.
    for (what, cost) in report {
        let most = if what.contains("stepping back") {
            7.5
        } else {
            6.0
        };
        assert!(cost < most, "{what}: {cost:.2} bytes a byte at the peak");
    }
}
