//! Long chunks and overlapping pairs: the trainer updates only the windows
//! around each replacement, so it is checked against the obvious full
//! recount on chunks thousands of symbols long, built from runs of one
//! letter (`aaaa` holds `a a` at overlapping places) and a few others.

use bpeek::bpe::{Pretok, Segment, TieRule, Trainer, TrainerConfig};

mod reference;

use reference::*;

/// Text of `len` pieces, most of them runs of one repeated letter.
fn long_text(rng: &mut Rng, len: usize) -> Vec<u8> {
    let pieces: &[&str] = match rng.below(4) {
        0 => &["a"],
        1 => &["a", "a", "a", "b"],
        2 => &["aa", "a", "b", "ab", " "],
        _ => &["a", "b", "c", " ", "\n", "aaaa"],
    };
    let mut out = Vec::new();
    while out.len() < len {
        let piece = pieces[rng.below(pieces.len())];
        for _ in 0..1 + rng.below(6) {
            out.extend_from_slice(piece.as_bytes());
        }
    }
    out
}

fn random_tie(rng: &mut Rng) -> TieRule {
    if rng.below(2) == 0 {
        TieRule::First
    } else {
        TieRule::Lex
    }
}

#[test]
fn long_overlapping_chunks_match_the_reference_step_by_step() {
    let mut rng = Rng(0x10_C4A1);
    let pretoks = [
        Pretok::None,
        Pretok::Lines,
        Pretok::Whitespace,
        Pretok::Gpt2,
    ];
    for case in 0..40 {
        let len = 500 + rng.below(3000);
        let text = long_text(&mut rng, len);
        let pretok = pretoks[rng.below(pretoks.len())];
        let tie = random_tie(&mut rng);
        let max = 10 + rng.below(50);
        let want = reference_byte(&text, pretok, tie, 1, max);
        let config = TrainerConfig {
            pretok,
            tie,
            max_merges: Some(max),
            ..Default::default()
        };
        let mut t = Trainer::new(text, config).unwrap();
        assert_table_is_a_fresh_count(&t);
        while t.step().is_ok() {
            assert_table_is_a_fresh_count(&t);
        }
        assert_eq!(learned(&t), want, "case {case}: {pretok} {tie} max {max}");
    }
}

#[test]
fn one_letter_repeated_merges_into_powers_of_two() {
    // 1000 `a`: `aa` is counted 999 times and replaced 500 times, then
    // `aaaa` 499 / 250, and so on, each level halving the tokens.
    let config = TrainerConfig {
        pretok: Pretok::None,
        ..Default::default()
    };
    let mut t = Trainer::new(vec![b'a'; 1000], config).unwrap();
    let mut tokens = 1000;
    for _ in 0..3 {
        let merge = t.step().unwrap().clone();
        assert_eq!(merge.count, tokens - 1);
        assert_eq!(merge.replacements, tokens / 2);
        tokens -= tokens / 2;
        assert_eq!(t.corpus_tokens(), tokens);
    }
    assert_table_is_a_fresh_count(&t);
}

#[test]
fn undo_and_seek_on_long_chunks_retrace_the_same_path() {
    let mut rng = Rng(0x10_C4A2);
    for case in 0..12 {
        let len = 1000 + rng.below(3000);
        let text = long_text(&mut rng, len);
        let pretok = if rng.below(2) == 0 {
            Pretok::None
        } else {
            Pretok::Lines
        };
        let config = TrainerConfig {
            pretok,
            tie: random_tie(&mut rng),
            max_merges: Some(80),
            ..Default::default()
        };
        let mut full = Trainer::new(text.clone(), config.clone()).unwrap();
        full.run();
        let all = learned(&full);
        let mut t = Trainer::new(text, config).unwrap();
        for _ in 0..25 {
            match rng.below(4) {
                0 => {
                    t.seek(rng.below(all.len() + 2));
                }
                1 => {
                    t.undo();
                }
                _ => {
                    for _ in 0..rng.below(8) {
                        let _ = t.step();
                    }
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

/// Segments the slow way: walk every chunk occurrence from its start.
fn segments_by_walking(t: &Trainer, range: std::ops::Range<usize>) -> Vec<Segment> {
    let mut out = Vec::new();
    for occ in t.corpus().occurrences_in(range.clone()) {
        let mut pos = occ.start as usize;
        for (i, id) in t.chunk_symbols(occ.chunk as usize).into_iter().enumerate() {
            let end = pos + t.vocab().corpus_len(id) as usize;
            if end > range.start && pos < range.end {
                out.push(Segment {
                    start: pos,
                    end,
                    id,
                    chunk_start: i == 0,
                });
            }
            pos = end;
        }
    }
    out
}

#[test]
fn segments_of_any_range_inside_a_long_chunk_are_its_tokens() {
    let mut rng = Rng(0x10_C4A3);
    for case in 0..10 {
        let len = 2000 + rng.below(2000);
        let text = long_text(&mut rng, len);
        let len = text.len();
        let pretok = [Pretok::None, Pretok::Lines, Pretok::Spaces][rng.below(3)];
        let config = TrainerConfig {
            pretok,
            max_merges: Some(40),
            ..Default::default()
        };
        let mut t = Trainer::new(text, config).unwrap();
        t.run();
        for _ in 0..4 {
            t.undo();
        }
        for _ in 0..30 {
            let start = rng.below(len);
            let end = (start + rng.below(200)).min(len);
            assert_eq!(
                t.segments(start..end),
                segments_by_walking(&t, start..end),
                "case {case}: {pretok} {start}..{end}"
            );
        }
    }
}

/// The chunks said to hold a pair are exactly the chunks whose tokens hold
/// it, found by walking every chunk; a choice's first chunk is the first of
/// them. Checked while stepping forward and back.
#[test]
fn the_chunks_holding_a_pair_are_the_ones_a_walk_finds() {
    let mut rng = Rng(0x10_C4A3);
    let pretoks = [Pretok::None, Pretok::Lines, Pretok::Whitespace];
    for case in 0..12 {
        let len = 1000 + rng.below(3000);
        let text = long_text(&mut rng, len);
        let pretok = pretoks[rng.below(pretoks.len())];
        let config = TrainerConfig {
            pretok,
            tie: random_tie(&mut rng),
            max_merges: Some(60),
            ..Default::default()
        };
        let mut t = Trainer::new(text, config).unwrap();
        for _ in 0..40 {
            for row in t.top_pairs(8) {
                let want: Vec<u32> = (0..t.corpus().chunks().len())
                    .filter(|&c| {
                        t.chunk_symbols(c)
                            .windows(2)
                            .any(|w| (w[0], w[1]) == row.pair)
                    })
                    .map(|c| c as u32)
                    .collect();
                assert_eq!(t.chunks_holding(row.pair), want, "case {case}");
            }
            if let Ok(choice) = t.peek_choice() {
                let first = t.chunks_holding(choice.pair).first().copied();
                assert_eq!(choice.first_chunk, first, "case {case}");
            }
            if rng.below(3) == 0 {
                t.undo();
            } else {
                let _ = t.step();
            }
        }
        assert_table_is_a_fresh_count(&t);
    }
}

/// Stepping back over every merge of a long chunk, with tokens longer than
/// a two-byte cell can point across, leaves the trainer a fresh one would
/// be: the same tokens, the same table, the same merges on the way forward.
#[test]
fn undoing_every_merge_of_a_long_chunk_gives_a_fresh_trainer() {
    let mut rng = Rng(0x10_C4A4);
    let mut text = vec![b'a'; 140_000];
    text.extend(long_text(&mut rng, 10_000));
    for tie in [TieRule::First, TieRule::Lex, TieRule::Hf] {
        let config = TrainerConfig {
            pretok: Pretok::None,
            tie,
            max_merges: Some(300),
            ..Default::default()
        };
        let fresh = Trainer::new(text.clone(), config.clone()).unwrap();
        let mut t = Trainer::new(text.clone(), config).unwrap();
        t.run();
        let all = learned(&t);
        let longest = (256..t.vocab().len() as u32)
            .map(|id| t.vocab().units(id))
            .max();
        assert!(longest > Some(32_768), "{tie}: {longest:?}");
        while t.undo() {}
        assert_eq!(t.chunk_symbols(0), fresh.chunk_symbols(0), "{tie}");
        let rows =
            |t: &Trainer| -> Vec<_> { t.top_pairs(50).iter().map(|r| (r.pair, r.count)).collect() };
        assert_eq!(rows(&t), rows(&fresh), "{tie}");
        assert_table_is_a_fresh_count(&t);
        t.run();
        assert_eq!(learned(&t), all, "{tie}");
    }
}
