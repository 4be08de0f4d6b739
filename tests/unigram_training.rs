//! Unigram training, step by step: the engine's trainer against a textbook
//! one (every cut enumerated) on random corpora, round by round; the
//! Hugging Face course's worked example, number for number; and stepping
//! back and seeking.

use bpeek::bpe::train::unigram::{
    StepDetail, UnigramConfig, UnigramStep, UnigramTrainer, WordMarks,
};
mod course;
mod reference;
mod unigram_reference;

use reference::Rng;
use unigram_reference as textbook;

/// Floating-point sums are made in different orders by the two trainers
/// (forward-backward against every cut summed), and dozens of EM
/// iterations carry the difference on: the numbers agree to this share of
/// their size (1 in a million), the pieces exactly.
const TOLERANCE: f64 = 1e-6;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

fn random_corpus(rng: &mut Rng) -> String {
    let alphabets: [&[&str]; 3] = [&["a", "b", "c"], &["a", "b", "é", "ж", "d"], &["x", "y"]];
    let alphabet = alphabets[rng.below(alphabets.len())];
    // A few word shapes, repeated, so substrings repeat.
    let shapes: Vec<String> = (0..1 + rng.below(8))
        .map(|_| {
            (0..1 + rng.below(6))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        })
        .collect();
    (0..rng.below(40))
        .map(|_| shapes[rng.below(shapes.len())].as_str())
        .collect::<Vec<_>>()
        .join(if rng.below(4) == 0 { "\n" } else { " " })
}

fn pieces_of(t: &UnigramTrainer) -> Vec<String> {
    let mut p: Vec<String> = t
        .pieces()
        .alive()
        .iter()
        .map(|&id| t.pieces().text(id).to_string())
        .collect();
    p.sort();
    p
}

fn text_of(t: &UnigramTrainer, id: u32) -> String {
    t.pieces().text(id).to_string()
}

/// The engine's step `i` against the reference's, each number named on
/// failure.
fn same_step(case: &str, i: usize, t: &UnigramTrainer, got: &UnigramStep, want: &textbook::Step) {
    assert_eq!(got.phase.name(), want.phase, "{case}: step {i}'s phase");
    assert!(
        close(got.loss, want.loss),
        "{case}: step {i} ({}): loss {} against {}",
        want.phase,
        got.loss,
        want.loss
    );
    match &got.detail {
        StepDetail::Scored { scores } => {
            let mut got: Vec<(String, f64)> = scores
                .iter()
                .map(|s| (text_of(t, s.piece), s.loss_increase))
                .collect();
            got.sort_by(|a, b| a.0.cmp(&b.0));
            let mut want = want.scores.clone();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(got.len(), want.len(), "{case}: step {i}: pieces scored");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.0, w.0, "{case}: step {i}: pieces scored");
                assert!(
                    close(g.1, w.1),
                    "{case}: step {i}: {:?} scores {} against {}",
                    g.0,
                    g.1,
                    w.1
                );
            }
        }
        StepDetail::Pruned { removed } => {
            let got: Vec<String> = removed.iter().map(|s| text_of(t, s.piece)).collect();
            assert_eq!(
                got, want.removed,
                "{case}: step {i}: pieces removed, in order"
            );
        }
        StepDetail::Estimated { dropped, .. } => {
            let got: Vec<String> = dropped.iter().map(|d| text_of(t, d.piece)).collect();
            assert_eq!(
                got, want.dropped,
                "{case}: step {i}: pieces dropped, in order"
            );
        }
        StepDetail::Seeded => {}
    }
}

fn random_config(rng: &mut Rng) -> (UnigramConfig, textbook::Config) {
    let space_mark = rng.below(2) == 0;
    let config = UnigramConfig {
        vocab_size: 2 + rng.below(30),
        seed_size: 3 + rng.below(60),
        shrinking_factor: [0.5, 0.75, 0.9][rng.below(3)],
        em_iterations: rng.below(4),
        max_piece_length: 2 + rng.below(6),
        marks: if space_mark {
            WordMarks::Space
        } else {
            WordMarks::None
        },
        byte_fallback: false,
    };
    let reference = textbook::Config {
        vocab_size: config.vocab_size,
        seed_size: config.seed_size,
        shrinking_factor: config.shrinking_factor,
        em_iterations: config.em_iterations,
        max_piece_length: config.max_piece_length,
        space_mark,
    };
    (config, reference)
}

#[test]
fn every_round_matches_the_textbook_trainer_on_random_corpora() {
    let mut rng = Rng(0x5eed_0044);
    let (mut rounds, mut drops) = (0, 0);
    for case in 0..500 {
        let text = random_corpus(&mut rng);
        let (config, reference) = random_config(&mut rng);
        let name = format!("case {case} ({text:?}, {config:?})");
        let want = textbook::train(&text, &reference);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        t.run();
        assert_eq!(t.steps().len(), want.len(), "{name}: steps made");
        // The pieces after each step, replayed by stepping back.
        for (i, w) in want.iter().enumerate().rev() {
            assert_eq!(t.step_count(), i);
            same_step(&name, i, &t, t.last_step(), w);
            assert_eq!(pieces_of(&t), w.pieces, "{name}: pieces after step {i}");
            rounds += usize::from(w.phase == "pruned");
            drops += usize::from(!w.dropped.is_empty());
            t.step_back();
        }
    }
    assert!(
        rounds > 300 && drops > 100,
        "the random cases prune or drop too rarely: {rounds} prunes, {drops} estimates that drop"
    );
}

/// The course seeds every strict substring and finds the loss 169.8;
/// removing `hug` makes `hug` `hu g` and adds 10 x ln(10.5) = 23.5.
#[test]
fn the_course_example_number_for_number() {
    let config = UnigramConfig {
        marks: WordMarks::None,
        em_iterations: 0,
        vocab_size: 10,
        ..Default::default()
    };
    let mut t = UnigramTrainer::new(course::text().as_bytes(), config).unwrap();
    assert_eq!(t.pieces().alive().len(), 15);
    assert_eq!(format!("{:.1}", t.last_step().loss), "169.8");
    t.step().unwrap();
    let hug = t.piece_id("hug").unwrap();
    let StepDetail::Scored { scores } = &t.last_step().detail else {
        panic!("the seeds are scored first with no EM iteration")
    };
    let s = scores.iter().find(|s| s.piece == hug).unwrap();
    assert_eq!(format!("{:.1}", s.loss_increase), "23.5");
    assert!((s.loss_increase - 10.0 * 10.5f64.ln()).abs() < 1e-9);
}

#[test]
fn stepping_back_and_seeking_make_the_same_steps_again() {
    let mut rng = Rng(0xbac_0044);
    for case in 0..40 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        t.run();
        let all = t.steps().to_vec();
        let last = all.len() - 1;
        let to = rng.below(last + 1);
        assert_eq!(t.seek(to), to, "case {case}");
        assert_eq!(t.steps(), &all[..=to], "case {case}: back to {to}");
        assert_eq!(t.seek(last + 5), last, "case {case}");
        assert_eq!(t.steps(), &all[..], "case {case}: forward again");
        assert_eq!(t.losses().len(), all.len());
    }
}

/// A trainer moved to another vocabulary size (larger or smaller, from
/// the end of a run or from the middle of one) and run on makes every
/// step a fresh trainer of that size makes, bit for bit: what the compare
/// view's Unigram column relies on to reuse a run when the BPE columns'
/// size moves.
#[test]
fn a_retargeted_trainer_trains_as_a_fresh_one_of_its_size() {
    let mut rng = Rng(0x5128_0044);
    let mut kept_steps = 0;
    for case in 0..200 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config.clone()).unwrap();
        for hop in 0..4 {
            // Sometimes from the middle of a run, as a column whose size
            // moved while it trained.
            let steps = rng.below(12);
            for _ in 0..steps {
                if t.step().is_err() {
                    break;
                }
            }
            let size = 2 + rng.below(30);
            let name = format!("case {case} hop {hop} ({text:?}, {config:?}) to {size}");
            let before = t.steps().to_vec();
            t.retarget(size).unwrap();
            kept_steps += t.step_count();
            assert_eq!(t.steps(), &before[..t.steps().len()], "{name}: kept steps");
            t.run();
            let fresh_config = UnigramConfig {
                vocab_size: size,
                ..config.clone()
            };
            let mut fresh = UnigramTrainer::new(text.as_bytes(), fresh_config).unwrap();
            let stop = fresh.run();
            assert_eq!(t.steps(), fresh.steps(), "{name}: steps");
            assert_eq!(t.final_pieces(), fresh.final_pieces(), "{name}: pieces");
            assert_eq!(t.stop_reason(), Some(stop), "{name}: stop");
            assert_eq!(t.config(), fresh.config(), "{name}: config");
        }
    }
    assert!(
        kept_steps > 200,
        "retargets kept too few steps to test reuse: {kept_steps}"
    );
    let seeded = UnigramTrainer::new(b"ab ab", UnigramConfig::default());
    let e = seeded.unwrap().retarget(1).unwrap_err().to_string();
    assert!(e.contains("--vocab-size 1"), "{e}");
}

/// What a screen reads off the trainer agrees with the steps: a scored
/// piece said to go is one the next prune removes, a removed piece says
/// its round and score, a dropped one its expected count, the removals
/// come newest first, and a word's
/// lattice's best path is its cut.
#[test]
fn verdicts_removals_and_cuts_agree_with_the_steps() {
    use bpeek::bpe::train::unigram::Verdict;
    let mut rng = Rng(0x0e1d_0044);
    for case in 0..60 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        while t.step().is_ok() {
            if let StepDetail::Scored { scores } = &t.last_step().detail {
                let going: Vec<u32> = scores
                    .iter()
                    .filter(|s| matches!(t.verdict(s.piece), Verdict::Scored { goes: true, .. }))
                    .map(|s| s.piece)
                    .collect();
                let mut next = t.clone();
                next.step().unwrap();
                let StepDetail::Pruned { removed } = &next.last_step().detail else {
                    panic!("case {case}: a prune follows a scoring")
                };
                let mut removed: Vec<u32> = removed.iter().map(|s| s.piece).collect();
                removed.sort_unstable();
                assert_eq!(going, removed, "case {case}: the pieces said to go");
            }
        }
        let mut last_round = usize::MAX;
        for (round, s) in t.removals() {
            assert!(round <= last_round, "case {case}: removals newest first");
            last_round = round;
            match t.verdict(s.piece) {
                Verdict::Removed {
                    round: r,
                    score,
                    threshold,
                } => {
                    assert_eq!((r, score), (round, *s), "case {case}");
                    if let Some(th) = threshold {
                        assert!(
                            th >= score.loss_increase - 1e-6,
                            "case {case}: kept below removed"
                        );
                    }
                }
                other => panic!("case {case}: a removed piece says {other:?}"),
            }
        }
        for (round, d) in t.drops() {
            assert_eq!(
                t.verdict(d.piece),
                Verdict::Dropped {
                    round,
                    expected: d.expected
                },
                "case {case}: a dropped piece says its round and count"
            );
            assert!(d.expected < 0.5 + 1e-6, "case {case}");
        }
        for w in 0..t.words().len() {
            let l = t.lattice(w);
            let cut: f64 = l.best.iter().map(|&e| l.edges[e].logp).sum();
            assert!((cut - l.best_logp).abs() < 1e-9, "case {case}");
            let covered: Vec<_> = t.cut(w).into_iter().map(|(r, _)| r).collect();
            assert_eq!(covered.first().map(|r| r.start), Some(0), "case {case}");
            assert_eq!(covered.last().map(|r| r.end), Some(t.words().word(w).len()));
            assert!(covered.windows(2).all(|p| p[0].end == p[1].start));
        }
    }
}

/// The course's seeded cuts (`hug`, `pu g`, `pu n`, `bu n`, `hug s`) make
/// 10 + 10 + 24 + 8 + 10 = 62 tokens; every step's count is the sum of
/// its words' cuts, each as often as it occurs.
#[test]
fn each_step_counts_the_tokens_of_the_corpus_cut() {
    let config = UnigramConfig {
        marks: WordMarks::None,
        em_iterations: 0,
        vocab_size: 10,
        ..Default::default()
    };
    let t = UnigramTrainer::new(course::text().as_bytes(), config).unwrap();
    assert_eq!(t.last_step().tokens, 62);
    let mut rng = Rng(0x70c_0044);
    for case in 0..60 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        loop {
            let by_cuts: u64 = (0..t.words().len())
                .map(|w| t.words().count(w) * t.cut(w).len() as u64)
                .sum();
            assert_eq!(t.last_step().tokens, by_cuts, "case {case}: {text:?}");
            if t.step().is_err() {
                break;
            }
        }
        assert_eq!(t.tokens_by_step().len(), t.steps().len());
    }
}

/// Right after a prune, the words whose cut changed are exactly those
/// whose cut before it took a removed piece (the others keep theirs: a
/// prune changes no probability).
#[test]
fn the_cuts_a_prune_changed_are_those_that_took_a_removed_piece() {
    let mut rng = Rng(0xc4a_0044);
    let mut seen = 0;
    for case in 0..80 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        assert_eq!(t.cuts_changed_since_last_prune(), None);
        loop {
            let before = t.clone();
            if t.step().is_err() {
                break;
            }
            let StepDetail::Pruned { removed } = &t.last_step().detail else {
                continue;
            };
            let gone: Vec<u32> = removed.iter().map(|s| s.piece).collect();
            let (round, changed) = t.cuts_changed_since_last_prune().unwrap();
            assert_eq!(round, t.last_step().round, "case {case}");
            for (w, &c) in changed.iter().enumerate() {
                let took = before.cut(w).iter().any(|(_, p)| gone.contains(p));
                assert_eq!(c, took, "case {case}: word {w} of {text:?}");
                seen += usize::from(c);
            }
        }
    }
    assert!(seen > 20, "too few changed cuts to tell: {seen}");
}

/// The explorer encodes with the vocabulary as its `tokenizer.json`
/// reads: a word is cut as training cut it.
#[test]
fn the_vocabulary_as_a_tokenizer_cuts_each_word_as_training_did() {
    use bpeek::bpe::formats::unigram_json;
    use bpeek::bpe::train::unigram::UnigramVocabulary;
    for marks in [WordMarks::None, WordMarks::Space] {
        let config = UnigramConfig {
            marks,
            vocab_size: 12,
            ..Default::default()
        };
        let mut t = UnigramTrainer::new(course::text().as_bytes(), config).unwrap();
        t.run();
        let v = UnigramVocabulary::of(&t).unwrap();
        let tok = unigram_json::tokenizer(&v, "trained").unwrap();
        for w in 0..t.words().len() {
            let word = t.words().word(w).trim_start_matches('\u{2581}');
            let got: Vec<String> = tok
                .encode(word, false)
                .iter()
                .map(|&id| String::from_utf8_lossy(tok.bytes_of(id)).into_owned())
                .collect();
            let want: Vec<String> = t
                .cut(w)
                .iter()
                .map(|(_, p)| t.pieces().text(*p).to_string())
                .collect();
            assert_eq!(got, want, "{marks:?}: {word}");
        }
    }
}

/// The prune's edge agrees with the verdicts: the last piece to go is
/// said to go, the first kept to stay, and the next prune removes as many
/// as it says.
#[test]
fn the_prune_edge_is_where_the_verdicts_change() {
    use bpeek::bpe::train::unigram::Verdict;
    let mut rng = Rng(0xed9e_0044);
    let mut edges = 0;
    for case in 0..60 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        while t.step().is_ok() {
            let Some(edge) = t.prune_edge() else {
                continue;
            };
            edges += 1;
            if let Some(s) = edge.last_going {
                assert!(matches!(
                    t.verdict(s.piece),
                    Verdict::Scored { goes: true, .. }
                ));
            }
            if let Some(s) = edge.first_kept {
                assert!(matches!(
                    t.verdict(s.piece),
                    Verdict::Scored { goes: false, .. }
                ));
            }
            let mut next = t.clone();
            next.step().unwrap();
            let StepDetail::Pruned { removed } = &next.last_step().detail else {
                panic!("case {case}: a prune follows a scoring")
            };
            assert_eq!(removed.len(), edge.going, "case {case}");
        }
    }
    assert!(edges > 20, "too few scorings: {edges}");
}

/// The few most probable pieces a screen shows are the head of the whole
/// written list, ties in probability ordered by text as there, at every
/// step and for every count asked, none and more than there are included.
#[test]
fn the_top_pieces_are_the_head_of_the_final_list() {
    let mut rng = Rng(0x70b5_0044);
    for case in 0..100 {
        let text = random_corpus(&mut rng);
        let (config, _) = random_config(&mut rng);
        let mut t = UnigramTrainer::new(text.as_bytes(), config).unwrap();
        loop {
            let all = t.final_pieces();
            for n in [0, 1, 2, 1 + rng.below(all.len() + 3), all.len() + 1] {
                let want = &all[..n.min(all.len())];
                assert_eq!(t.top_pieces(n), want, "case {case} ({text:?}) n {n}");
            }
            if t.step().is_err() {
                break;
            }
        }
    }
}
