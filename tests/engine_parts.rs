//! A large corpus is counted on several threads, a part of the text each,
//! cut just after a line break that a letter or digit follows. The chunks,
//! their counts, the order in which they first appear and every place they
//! appear must be what one pass over the whole text gives.

use bpeek::bpe::pretokenize::pretok::{Chunker, Digits};
use bpeek::bpe::train::corpus::Corpus;
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

/// A reader that hands out a few bytes at a time, as a pipe might.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Headless training reads the corpus a block at a time and keeps each
/// distinct chunk once; it must learn exactly the merges that training on
/// the whole text in memory learns.
#[test]
fn a_corpus_counted_as_it_is_read_trains_the_same_merges() {
    use bpeek::bpe::{TieRule, Trainer, TrainerConfig};
    let mut rng = Rng(11);
    for round in 0..60 {
        let len = 100 + rng.below(4000);
        let text = lines(&mut rng, len);
        let streamable = [
            Pretok::Gpt2,
            Pretok::Cl100k,
            Pretok::O200k,
            Pretok::Whitespace,
            Pretok::Lines,
        ];
        let pretok = streamable[rng.below(streamable.len())];
        let by_line = rng.below(3) == 0;
        let tie = [TieRule::First, TieRule::Lex, TieRule::Hf][rng.below(3)];
        let config = TrainerConfig {
            pretok,
            tie,
            by_line,
            max_merges: Some(rng.below(80)),
            ..TrainerConfig::default()
        };
        let block = 1 + rng.below(700);
        let read = Trickle(&text, 1 + rng.below(50));
        let corpus =
            Corpus::count_stream_in_blocks(read, config.chunker(), by_line, "text", |_| {}, block)
                .expect("counted");
        assert_eq!(corpus.source_len(), text.len());
        let headless = TrainerConfig {
            text_positions: false,
            keep_history: false,
            ..config
        };
        let mut streamed = Trainer::from_corpus(corpus, headless).expect("trains");
        let mut whole = Trainer::new(text.clone(), config).expect("trains");
        while streamed.step().is_ok() {}
        while whole.step().is_ok() {}
        let what = format!("round {round}, {pretok}, by line {by_line}, block {block}");
        assert_eq!(learned(&streamed), learned(&whole), "{what}");
        assert_eq!(streamed.corpus_tokens(), whole.corpus_tokens(), "{what}");
    }
}

/// A run with no place to cut in it (one byte over and over, two in turn,
/// letters with no space) that is longer than many blocks is read on
/// block after block until it ends, and trains the merges it trains in
/// memory.
#[test]
fn a_run_longer_than_a_block_trains_as_in_memory() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    let mut rng = Rng(0x2e20);
    for round in 0..30 {
        let len = 500 + rng.below(5000);
        let run: Vec<u8> = match round % 3 {
            0 => vec![0; len],
            1 => b"ab".repeat(len / 2),
            _ => (0..len).map(|_| b'a' + rng.below(26) as u8).collect(),
        };
        let (before, after) = (50 + rng.below(300), rng.below(300));
        let mut text = lines(&mut rng, before);
        text.extend_from_slice(&run);
        text.extend(lines(&mut rng, after));
        let by_line = rng.below(2) == 0;
        let config = TrainerConfig {
            pretok: Pretok::Gpt2,
            by_line,
            max_merges: Some(rng.below(40)),
            ..TrainerConfig::default()
        };
        let block = 1 + rng.below(200);
        let read = Trickle(&text, 1 + rng.below(50));
        let corpus =
            Corpus::count_stream_in_blocks(read, config.chunker(), by_line, "text", |_| {}, block)
                .expect("counted");
        let headless = TrainerConfig {
            text_positions: false,
            keep_history: false,
            ..config.clone()
        };
        let mut streamed = Trainer::from_corpus(corpus, headless).expect("trains");
        let mut whole = Trainer::new(text.clone(), config).expect("trains");
        while streamed.step().is_ok() {}
        while whole.step().is_ok() {}
        let what = format!("round {round}, by line {by_line}, block {block}");
        assert_eq!(learned(&streamed), learned(&whole), "{what}");
        assert_eq!(streamed.corpus_tokens(), whole.corpus_tokens(), "{what}");
    }
}

/// Without the record of what each merge replaced, stepping back counts
/// afresh and replays: the state must be the one stepping back reaches.
#[test]
fn without_a_history_stepping_back_replays_to_the_same_state() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    let mut rng = Rng(5);
    for round in 0..20 {
        let len = 200 + rng.below(2000);
        let text = lines(&mut rng, len);
        let config = TrainerConfig {
            pretok: Pretok::Gpt2,
            ..TrainerConfig::default()
        };
        let lean = TrainerConfig {
            keep_history: false,
            ..config.clone()
        };
        let mut kept = Trainer::new(text.clone(), config).expect("trains");
        let mut replayed = Trainer::new(text, lean).expect("trains");
        let ahead = 5 + rng.below(40);
        kept.seek(ahead);
        replayed.seek(ahead);
        for _ in 0..1 + rng.below(4) {
            assert_eq!(kept.undo(), replayed.undo(), "round {round}");
        }
        let back = rng.below(ahead);
        kept.seek(back);
        replayed.seek(back);
        assert_eq!(learned(&kept), learned(&replayed), "round {round}");
        assert_eq!(
            kept.corpus_tokens(),
            replayed.corpus_tokens(),
            "round {round}"
        );
        assert_table_is_a_fresh_count(&replayed);
    }
}

/// A class steps copies of one counted corpus: the copies share the text
/// and its places, and each steps on its own.
#[test]
fn copies_of_a_trainer_share_the_corpus_and_step_apart() {
    use bpeek::bpe::{Trainer, TrainerConfig};
    let mut rng = Rng(13);
    let first = Trainer::new(lines(&mut rng, 20_000), TrainerConfig::default()).unwrap();
    let mut a = first.clone();
    let mut b = first.clone();
    assert!(std::ptr::eq(a.corpus(), first.corpus()));
    assert!(std::ptr::eq(b.corpus(), first.corpus()));
    for _ in 0..30 {
        a.step().unwrap();
    }
    for _ in 0..10 {
        b.step().unwrap();
    }
    assert_eq!(first.merges().len(), 0);
    assert_eq!(b.merges().len(), 10);
    assert_eq!(a.merges()[..10], b.merges()[..]);
    // What a copy shows is what training afresh shows.
    let mut fresh = Trainer::new(first.corpus().text().to_vec(), TrainerConfig::default()).unwrap();
    for _ in 0..30 {
        fresh.step().unwrap();
    }
    assert_eq!(fresh.merges(), a.merges());
    let all = 0..first.corpus().text().len();
    assert_eq!(fresh.segments(all.clone()), a.segments(all));
}
