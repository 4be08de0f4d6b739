//! The real trainer against a deliberately obvious one that recounts every
//! pair from scratch each round, on many small random corpora where ties are
//! common. Merges, counts and replacements must be identical, and the live
//! pair table must equal a full recount after every step, undo and seek.

use bpeek::bpe::{Mode, Pretok, TieRule, Trainer, TrainerConfig};

mod reference;

use reference::*;

const ALPHABETS: &[&[&str]] = &[
    &["a", "b", " "],
    &["a", "b", "c", " ", " ", "\n"],
    &["ab", "ba", "a", " ", "\t"],
    &["x", "y", "é", "日", " ", "1", "2", "'s", "\r\n"],
];

#[test]
fn byte_mode_matches_the_reference_on_random_corpora() {
    let mut rng = Rng(0x5EED_0001);
    let pretoks = [
        Pretok::None,
        Pretok::Lines,
        Pretok::Whitespace,
        Pretok::Spaces,
        Pretok::Gpt2,
        Pretok::Cl100k,
        Pretok::O200k,
    ];
    for case in 0..600 {
        let alphabet = ALPHABETS[rng.below(ALPHABETS.len())];
        let mut text = random_text(&mut rng, alphabet);
        if case % 7 == 0 {
            text.push(0xFF); // invalid UTF-8 is fine in byte mode
        }
        let pretok = pretoks[rng.below(pretoks.len())];
        let tie = match (rng.below(2), case % 2) {
            (0, _) => TieRule::First,
            (_, 0) => TieRule::Lex,
            _ => TieRule::Hf,
        };
        let min = 1 + rng.below(2) as u64;
        let max = rng.below(40);
        let want = reference_byte(&text, pretok, tie, min, max);
        let config = TrainerConfig {
            mode: Mode::Byte,
            pretok,
            tie,
            min_count: min,
            max_merges: Some(max),
            ..Default::default()
        };
        let mut t = Trainer::new(text.clone(), config).unwrap();
        assert_table_is_a_fresh_count(&t);
        while t.step().is_ok() {
            assert_table_is_a_fresh_count(&t);
        }
        assert_eq!(
            learned(&t),
            want,
            "case {case}: {:?} {pretok} {tie} min {min} max {max}",
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn char_mode_matches_the_reference_on_random_corpora() {
    let mut rng = Rng(0x5EED_0002);
    for case in 0..400 {
        let alphabet = ALPHABETS[rng.below(ALPHABETS.len())];
        let text = String::from_utf8(random_text(&mut rng, alphabet)).unwrap();
        let tie = if rng.below(2) == 0 {
            TieRule::First
        } else {
            TieRule::Lex
        };
        let max = rng.below(30);
        let want = reference_char(&text, tie, 1, max);
        let config = TrainerConfig {
            mode: Mode::Char,
            pretok: Pretok::default(),
            tie,
            min_count: 1,
            max_merges: Some(max),
            ..Default::default()
        };
        let mut t = Trainer::new(text.clone().into_bytes(), config).unwrap();
        t.run();
        assert_table_is_a_fresh_count(&t);
        assert_eq!(learned(&t), want, "case {case}: {text:?} {tie} max {max}");
    }
}

#[test]
fn stepping_back_and_seeking_retrace_the_same_path() {
    let mut rng = Rng(0x5EED_0003);
    for case in 0..200 {
        let alphabet = ALPHABETS[rng.below(ALPHABETS.len())];
        let text = random_text(&mut rng, alphabet);
        let tie = match (rng.below(2), case % 2) {
            (0, _) => TieRule::First,
            (_, 0) => TieRule::Lex,
            _ => TieRule::Hf,
        };
        let config = TrainerConfig {
            pretok: Pretok::Whitespace,
            tie,
            ..Default::default()
        };
        let mut full = Trainer::new(text.clone(), config.clone()).unwrap();
        full.run();
        let all = learned(&full);
        let mut t = Trainer::new(text, config).unwrap();
        for _ in 0..20 {
            let target = rng.below(all.len() + 2);
            match rng.below(3) {
                0 => {
                    t.seek(target);
                }
                1 => {
                    t.undo();
                }
                _ => {
                    let _ = t.step();
                }
            }
            assert_table_is_a_fresh_count(&t);
            let n = t.merges().len();
            assert_eq!(learned(&t), all[..n], "case {case}");
            let tokens: u64 = (0..t.corpus().chunks().len())
                .map(|c| t.chunk_symbols(c).len() as u64 * t.corpus().chunks()[c].freq)
                .sum();
            assert_eq!(t.corpus_tokens(), tokens, "case {case}");
        }
    }
}

#[test]
fn phases_advance_counted_chosen_merged() {
    let config = TrainerConfig {
        pretok: Pretok::Whitespace,
        ..Default::default()
    };
    let mut t = Trainer::new(b"ab ab ab ba".to_vec(), config).unwrap();
    assert_eq!(t.phase().name(), "counted");
    t.advance().unwrap();
    let bpeek::bpe::Phase::Chosen(choice) = t.phase().clone() else {
        panic!("expected chosen")
    };
    assert_eq!((choice.pair, choice.count), ((b'a' as u32, b'b' as u32), 3));
    assert!(t.merges().is_empty(), "choosing does not merge");
    t.advance().unwrap();
    assert_eq!(t.phase().name(), "merged");
    assert_eq!(t.merges().len(), 1);
    let change = t.change_of((b'a' as u32, b'b' as u32)).unwrap();
    assert_eq!((change.before, change.after), (3, 0));
    let space_ab = t.change_of((b' ' as u32, 256)).unwrap();
    assert_eq!((space_ab.before, space_ab.after), (0, 2));
    t.advance().unwrap();
    assert_eq!(t.phase().name(), "counted");
    // Stepping back out of `chosen` keeps the merges; stepping back again undoes one.
    t.advance().unwrap();
    assert!(t.undo());
    assert_eq!((t.phase().name(), t.merges().len()), ("counted", 1));
    assert!(t.undo());
    assert_eq!(t.merges().len(), 0);
    assert!(!t.undo());
}

#[test]
fn ties_are_reported_with_the_winner() {
    // `ab` and `cd` both occur twice; `first` picks `ab`, listing `cd` as rival.
    let config = TrainerConfig {
        pretok: Pretok::Whitespace,
        ..Default::default()
    };
    let mut t = Trainer::new(b"ab cd ab cd".to_vec(), config).unwrap();
    t.advance().unwrap();
    let bpeek::bpe::Phase::Chosen(choice) = t.phase().clone() else {
        panic!()
    };
    assert_eq!(choice.pair, (b'a' as u32, b'b' as u32));
    assert!(choice.rivals.contains(&(b'c' as u32, b'd' as u32)));
    assert_eq!(choice.rivals_total, choice.rivals.len());
}

#[test]
fn segments_show_the_current_tokens_of_a_byte_range() {
    let config = TrainerConfig {
        pretok: Pretok::Whitespace,
        max_merges: Some(2),
        ..Default::default()
    };
    let mut t = Trainer::new(b"aab aab".to_vec(), config).unwrap();
    t.run();
    let segs = t.segments(0..7);
    let spans: Vec<(usize, usize)> = segs.iter().map(|s| (s.start, s.end)).collect();
    // Two merges make `aa` then `aab`; the space before the second word stays alone.
    assert_eq!(spans, [(0, 3), (3, 4), (4, 7)]);
    assert!(segs[1].chunk_start && !segs[2].chunk_start);
    let middle = t.segments(5..6);
    assert_eq!(middle.len(), 1);
    assert_eq!((middle[0].start, middle[0].end), (4, 7));
}
