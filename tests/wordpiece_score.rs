//! Training by WordPiece's score (`--score wordpiece`): the pair with the
//! highest count(ab) / (count(a) x count(b)) merges, as the Hugging Face
//! course describes WordPiece training. Checked on the course's worked
//! example, against a naive trainer on random corpora, and through steps
//! back and seeks.

use bpeek::bpe::{Pretok, Score, TieRule, Trainer, TrainerConfig};
mod common;
mod course;
mod scratch;

use common::{bpeek, json_of};
use scratch::Scratch;

/// The course's words: hug 10, pug 5, pun 12, bun 4, hugs 5. BPE merges
/// u + g first (20 times); WordPiece merges g + s, whose parts are rare:
/// 5 / (20 x 5) = 0.05 against u + g's 20 / (36 x 20) = 0.0278.
#[test]
fn the_course_example_merges_g_and_s_first() {
    let dir = Scratch::new("wp-score-course");
    let corpus = dir.file("course.txt", course::text());
    let corpus = corpus.to_str().unwrap();
    let first = |score: &str| {
        json_of(&bpeek(&[
            "train",
            corpus,
            "--pretok",
            "whitespace",
            "--merges",
            "1",
            "--score",
            score,
            "--format",
            "json",
        ]))["merges"][0]
            .clone()
    };
    let bpe = first("count");
    assert_eq!(bpe["text"], "ug");
    let wp = first("wordpiece");
    assert_eq!(wp["text"], "gs");
    assert_eq!(wp["score"]["count"], 5);
    assert_eq!(wp["score"]["left"], 20);
    assert_eq!(wp["score"]["right"], 5);
    assert_eq!(wp["most_frequent"]["pair"], serde_json::json!([117, 103]));
    assert_eq!(wp["most_frequent"]["score"]["left"], 36);
    let text = bpeek(&[
        "train",
        corpus,
        "--pretok",
        "whitespace",
        "--merges",
        "1",
        "--score",
        "wordpiece",
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("0.0500  \"g\" + \"s\" -> \"gs\""), "{text}");
}

/// A naive WordPiece-score trainer: every round counts the tokens and the
/// adjacent pairs (overlapping windows) from scratch, takes the highest
/// score, then the higher count, then the smallest pair of ids, and
/// replaces left to right.
fn naive(chunks: &[(Vec<u32>, u64)], merges: usize) -> Vec<((u32, u32), u64)> {
    naive_from(chunks, merges, 256)
}

/// [`naive`] with merged tokens numbered from `base`.
fn naive_from(chunks: &[(Vec<u32>, u64)], merges: usize, base: u32) -> Vec<((u32, u32), u64)> {
    let mut chunks: Vec<(Vec<u32>, u64)> = chunks.to_vec();
    let mut out = Vec::new();
    for rank in 0..merges {
        let mut symbols = std::collections::HashMap::<u32, u64>::new();
        let mut pairs = std::collections::HashMap::<(u32, u32), u64>::new();
        for (tokens, freq) in &chunks {
            for &t in tokens {
                *symbols.entry(t).or_default() += freq;
            }
            for w in tokens.windows(2) {
                *pairs.entry((w[0], w[1])).or_default() += freq;
            }
        }
        let best = pairs.iter().max_by(|(pa, ca), (pb, cb)| {
            let sa = **ca as u128 * (symbols[&pb.0] as u128 * symbols[&pb.1] as u128);
            let sb = **cb as u128 * (symbols[&pa.0] as u128 * symbols[&pa.1] as u128);
            sa.cmp(&sb).then(ca.cmp(cb)).then(pb.cmp(pa))
        });
        let Some((&pair, &count)) = best else { break };
        let id = base + rank as u32;
        for (tokens, _) in &mut chunks {
            let mut merged = Vec::with_capacity(tokens.len());
            let mut i = 0;
            while i < tokens.len() {
                if i + 1 < tokens.len() && (tokens[i], tokens[i + 1]) == pair {
                    merged.push(id);
                    i += 2;
                } else {
                    merged.push(tokens[i]);
                    i += 1;
                }
            }
            *tokens = merged;
        }
        out.push((pair, count));
    }
    out
}

fn random_text(seed: u64) -> String {
    let mut s = seed;
    let parts = ["ab", "ba", "abc", "c", "aab", "bb", "ca", "ac", "cab"];
    (0..400)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            parts[(s % parts.len() as u64) as usize]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A trainer that made the first 30 merges WordPiece's score makes on
/// `text` (ties by lex order), the configuration set by `set`.
fn first_30_by_score(text: &str, set: impl FnOnce(&mut TrainerConfig)) -> Trainer {
    let mut config = TrainerConfig {
        tie: TieRule::Lex,
        score: Score::WordPiece,
        max_merges: Some(30),
        ..Default::default()
    };
    set(&mut config);
    let mut trainer = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
    trainer.run();
    trainer
}

/// Each merge's pair with its count.
fn pairs_and_counts(trainer: &Trainer) -> Vec<((u32, u32), u64)> {
    trainer.merges().iter().map(|m| (m.pair, m.count)).collect()
}

#[test]
fn merges_are_those_of_a_naive_trainer_on_random_corpora() {
    for seed in 1..=25u64 {
        let text = random_text(seed * 7919);
        let trainer = first_30_by_score(&text, |c| c.pretok = Pretok::Whitespace);
        let got = pairs_and_counts(&trainer);
        // The chunks as the whitespace pre-tokenizer cuts them: ` ?\S+`.
        let mut counts = std::collections::BTreeMap::<Vec<u32>, u64>::new();
        for (i, word) in text.split(' ').enumerate() {
            let chunk = if i == 0 {
                word.to_string()
            } else {
                format!(" {word}")
            };
            *counts
                .entry(chunk.bytes().map(u32::from).collect())
                .or_default() += 1;
        }
        let chunks: Vec<(Vec<u32>, u64)> = counts.into_iter().collect();
        assert_eq!(got, naive(&chunks, 30), "seed {seed}");
    }
}

/// Char mode with WordPiece's `##` symbols, as the course lays the words
/// out: `h ##u ##g`, `h ##u ##g ##s`. BPE by count merges `u + g` first;
/// WordPiece `##g + ##s` into `##gs`, then `p + ##u` (every pair then
/// scores 1/36; the higher count wins the tie).
#[test]
fn the_course_example_in_char_mode_has_the_courses_symbols() {
    let dir = Scratch::new("wp-score-char");
    let corpus = dir.file("course-char.txt", course::text());
    let corpus = corpus.to_str().unwrap();
    let run = |score: &str| {
        json_of(&bpeek(&[
            "train", corpus, "--mode", "char", "--merges", "3", "--score", score, "--format",
            "json",
        ]))["merges"]
            .clone()
    };
    let bpe = run("count");
    assert_eq!(bpe[0]["pair"], serde_json::json!(["u", "g"]));
    let wp = run("wordpiece");
    assert_eq!(wp[0]["pair"], serde_json::json!(["##g", "##s"]));
    assert_eq!(wp[0]["text"], "##gs");
    assert_eq!(
        (
            wp[0]["score"]["count"].as_u64(),
            wp[0]["score"]["left"].as_u64(),
            wp[0]["score"]["right"].as_u64()
        ),
        (Some(5), Some(20), Some(5))
    );
    assert_eq!(
        wp[0]["most_frequent"]["pair"],
        serde_json::json!(["##u", "##g"])
    );
    assert_eq!(wp[0]["most_frequent"]["score"]["left"], 36);
    assert_eq!(wp[1]["text"], "pu");
    assert_eq!(wp[2]["text"], "hu");
    // Written to a tokenizer file it is not, yet: said, and nothing made.
    let out = dir.join("none.json");
    let refused = bpeek(&[
        "train",
        corpus,
        "--mode",
        "char",
        "--score",
        "wordpiece",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("WordPiece's ## symbols"));
    assert!(!out.exists());
}

#[test]
fn char_mode_merges_are_those_of_a_naive_trainer_on_random_corpora() {
    let letters = ["a", "b", "c", "é", "ж", "ab"];
    for seed in 1..=20u64 {
        let mut s = seed * 2_654_435_761 + 1;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let words: Vec<String> = (0..300)
            .map(|_| {
                let n = 1 + next() % 5;
                (0..n)
                    .map(|_| letters[(next() % letters.len() as u64) as usize])
                    .collect()
            })
            .collect();
        let text = words.join(if seed % 2 == 0 { " " } else { "\n" });
        let trainer = first_30_by_score(&text, |c| c.mode = bpeek::bpe::Mode::Char);
        let got = pairs_and_counts(&trainer);
        // The symbols as the course lays them out: [UNK], </w>, the first
        // characters, then the `##` ones, each in code point order.
        let mut first: Vec<char> = words.iter().filter_map(|w| w.chars().next()).collect();
        let mut rest: Vec<char> = words.iter().flat_map(|w| w.chars().skip(1)).collect();
        first.sort_unstable();
        first.dedup();
        rest.sort_unstable();
        rest.dedup();
        let first_id = |c: char| 2 + first.iter().position(|&x| x == c).unwrap() as u32;
        let rest_id =
            |c: char| (2 + first.len()) as u32 + rest.iter().position(|&x| x == c).unwrap() as u32;
        let mut counts = std::collections::BTreeMap::<Vec<u32>, u64>::new();
        for w in &words {
            let mut chars = w.chars();
            let ids: Vec<u32> = chars
                .next()
                .map(first_id)
                .into_iter()
                .chain(chars.map(rest_id))
                .collect();
            *counts.entry(ids).or_default() += 1;
        }
        let chunks: Vec<(Vec<u32>, u64)> = counts.into_iter().collect();
        let base = (2 + first.len() + rest.len()) as u32;
        assert_eq!(got, naive_from(&chunks, 30, base), "seed {seed}");
        // Each merged token is its halves with the inner `##` dropped.
        let v = trainer.vocab();
        for m in trainer.merges() {
            let (a, b) = (v.token_bytes(m.pair.0), v.token_bytes(m.pair.1));
            let mut want = a.to_vec();
            want.extend_from_slice(b.strip_prefix(b"##").unwrap_or(b));
            assert_eq!(v.token_bytes(m.id), &want[..], "seed {seed}");
        }
        // Encoding a training word gives its tokens, and decoding gives
        // the words back.
        let tok = trainer.tokenizer();
        let sample = words[..20].join(" ");
        assert_eq!(
            tok.decode(&tok.encode(&sample, false)).unwrap(),
            sample,
            "seed {seed}"
        );
    }
}

/// Steps back and seeks keep the token counts the score needs: the merges
/// made again after going back are the ones made going forward.
#[test]
fn stepping_back_and_seeking_make_the_same_merges_again() {
    let text = random_text(4242);
    let config = TrainerConfig {
        pretok: Pretok::Whitespace,
        score: Score::WordPiece,
        max_merges: Some(40),
        ..Default::default()
    };
    let mut straight = Trainer::new(text.clone().into_bytes(), config.clone()).unwrap();
    straight.run();
    let want: Vec<_> = straight.merges().iter().map(|m| m.pair).collect();
    let mut t = Trainer::new(text.into_bytes(), config).unwrap();
    t.seek(25);
    for _ in 0..10 {
        assert!(t.step_back());
    }
    t.seek(5);
    t.seek(40);
    let got: Vec<_> = t.merges().iter().map(|m| m.pair).collect();
    assert_eq!(got, want);
}

/// The winner, its rivals and the rows of the pair list as a walk over
/// every pair finds them, each scored from a fresh count of the tokens
/// the trainer's chunks hold now: the first of the highest score in the
/// table's order (pairs under the minimum count take no part), every
/// other pair of that score, and all pairs sorted the same way.
struct Walked {
    pair: (u32, u32),
    score: (u64, u64, u64),
    rivals: Vec<(u32, u32)>,
    rivals_total: usize,
    rows: Vec<((u32, u32), u64)>,
}

/// A pair as the walk sees it: eligible, its score's three counts, its
/// place in the table's order, the pair.
type Walking = (bool, (u64, u64, u64), usize, (u32, u32));

fn walk(t: &Trainer, rows: usize) -> Option<Walked> {
    let mut units = std::collections::HashMap::<u32, u64>::new();
    for (c, chunk) in t.corpus().chunks().iter().enumerate() {
        for s in t.chunk_symbols(c) {
            *units.entry(s).or_default() += chunk.freq;
        }
    }
    let min = t.config().min_count;
    // Eligible first, then the higher score, then the table's order.
    let mut all: Vec<Walking> = t
        .pairs()
        .iter()
        .enumerate()
        .map(|(i, (p, c))| (c >= min, (c, units[&p.0], units[&p.1]), i, p))
        .collect();
    let cmp_score = |x: (u64, u64, u64), y: (u64, u64, u64)| {
        (x.0 as u128 * y.1 as u128 * y.2 as u128).cmp(&(y.0 as u128 * x.1 as u128 * x.2 as u128))
    };
    all.sort_by(|x, y| y.0.cmp(&x.0).then(cmp_score(y.1, x.1)).then(x.2.cmp(&y.2)));
    let &(eligible, score, _, pair) = all.first()?;
    if !eligible {
        return None;
    }
    let tied: Vec<(u32, u32)> = all[1..]
        .iter()
        .take_while(|x| x.0 && cmp_score(x.1, score).is_eq())
        .map(|x| x.3)
        .collect();
    Some(Walked {
        pair,
        score,
        rivals: tied.iter().take(64).copied().collect(),
        rivals_total: tied.len(),
        rows: all.iter().take(rows).map(|x| (x.3, x.1.0)).collect(),
    })
}

/// The pairs are kept in the score's order merge by merge (the scores of
/// every pair of a merged token move with it). At every round of random
/// trainings with thousands of tied scores, for every tie rule, with and
/// without a minimum count, going forward, back and seeking: the choice
/// and the first rows of the pair list are those a walk over every pair,
/// scored afresh, finds.
#[test]
fn every_rounds_choice_is_that_of_a_walk_over_every_pair() {
    let mut s = 0x3C0Eu64;
    let mut roll = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    for case in 0..12 {
        let letters = 2 + roll(12) as u8;
        let text: Vec<u8> = (0..1500 + roll(3000))
            .map(|_| match roll(9) {
                0 => b' ',
                1 => b'\n',
                _ => b'a' + roll(u64::from(letters)) as u8,
            })
            .collect();
        let config = TrainerConfig {
            tie: [TieRule::First, TieRule::Lex, TieRule::Hf][case % 3],
            pretok: if case % 4 < 2 {
                Pretok::None
            } else {
                Pretok::Gpt2
            },
            by_line: case % 2 == 0,
            min_count: 1 + (case as u64 / 6),
            score: Score::WordPiece,
            ..Default::default()
        };
        let label = format!("case {case} {} min {}", config.tie, config.min_count);
        let mut t = Trainer::new(text, config).unwrap();
        let mut rounds = 0;
        loop {
            let want = walk(&t, 12);
            let rows: Vec<((u32, u32), u64)> =
                t.top_pairs(12).iter().map(|r| (r.pair, r.count)).collect();
            let got = t.peek_choice().ok();
            match (&want, &got) {
                (Some(w), Some(g)) => {
                    let score = g.score.unwrap();
                    assert_eq!(
                        (g.pair, (score.count, score.left, score.right)),
                        (w.pair, w.score),
                        "{label} round {rounds}"
                    );
                    assert_eq!(g.rivals, w.rivals, "{label} round {rounds}");
                    assert_eq!(g.rivals_total, w.rivals_total, "{label} round {rounds}");
                    assert_eq!(rows, w.rows, "{label} round {rounds}");
                }
                (None, None) => break,
                _ => panic!(
                    "{label} round {rounds}: {:?} against {:?}",
                    want.is_some(),
                    got
                ),
            }
            rounds += 1;
            // Now and then back a few merges, or a seek back and forth.
            match roll(40) {
                0 => {
                    t.step_back();
                    t.step_back();
                }
                1 => {
                    let here = t.merges().len();
                    t.seek(here / 2);
                    t.seek(here);
                }
                _ => {
                    t.step().unwrap();
                }
            }
        }
        assert!(rounds > 100, "{label}: {rounds}");
    }
}
