//! Encoding an edited text again only around the edit, for tokenizers
//! that merge the whole text as one chunk: the tokens are always those of
//! encoding the new text from scratch, on random corpora and random edits,
//! and a long text encoded a part at a time gets the tokens of the whole.

use bpeek::bpe::resync::{Splice, merges_whole_text, splice};
use bpeek::bpe::{Pretok, Tokenizer, Trainer, TrainerConfig};

mod common;
use common::Rng as Dice;

/// Text from few letters, so that merges pile up and overlap (`aaa`,
/// `abab`), with a letter outside ASCII now and then, and now and then a
/// long run of one letter: an edit at its start shifts how every pair
/// after it in the run is merged.
fn text_of(dice: &mut Dice, len: usize) -> Vec<u8> {
    const PIECES: [&str; 7] = ["a", "b", "a", "ab", " ", "é", "c"];
    let mut out = Vec::new();
    while out.len() < len {
        if dice.below(40) == 0 {
            let run = 20 + dice.below(300);
            out.extend(std::iter::repeat_n(b'a', run));
        }
        out.extend_from_slice(PIECES[dice.below(PIECES.len())].as_bytes());
    }
    out
}

/// A tokenizer trained with no pre-tokenizer on a random text.
fn trained(dice: &mut Dice, merges: usize) -> Tokenizer {
    let config = TrainerConfig {
        pretok: Pretok::None,
        ..Default::default()
    };
    let mut trainer = Trainer::new(text_of(dice, 3000), config).unwrap();
    for _ in 0..merges {
        if trainer.step().is_err() {
            break;
        }
    }
    trainer.tokenizer()
}

fn starts(tok: &Tokenizer, ids: &[u32]) -> Vec<usize> {
    let mut at = 0;
    ids.iter()
        .map(|&id| {
            at += tok.bytes_of(id).len();
            at - tok.bytes_of(id).len()
        })
        .collect()
}

/// The old tokens with the splice put in.
fn applied(old: &[u32], s: &Splice) -> Vec<u32> {
    let mut out = old[..s.keep_before].to_vec();
    out.extend(&s.middle);
    out.extend(&old[s.keep_after..]);
    out
}

#[test]
fn an_edit_anywhere_gives_the_tokens_of_the_new_text() {
    let mut spliced_short = 0;
    for seed in 1..=12u64 {
        let mut dice = Dice(seed * 0x9E37_79B9_7F4A_7C15);
        let tok = trained(&mut dice, 40 + 30 * (seed as usize % 4));
        assert!(merges_whole_text(&tok));
        for _ in 0..150 {
            let len = dice.below(1200);
            let old_text = text_of(&mut dice, len);
            let old = tok.encode_bytes(&old_text, false).unwrap();
            let old_starts = starts(&tok, &old);
            // Replace a random stretch with random new bytes.
            let lo = dice.below(old_text.len() + 1);
            let gone = dice.below(old_text.len() - lo + 1).min(8);
            let want_len = dice.below(6);
            let put = text_of(&mut dice, want_len);
            let cut = dice.below(7).min(put.len());
            let put = &put[..cut];
            let mut text = old_text[..lo].to_vec();
            text.extend_from_slice(put);
            text.extend_from_slice(&old_text[lo + gone..]);
            let hi = lo + put.len();
            let s = splice(&tok, &text, &old, |k| old_starts[k], old_text.len(), lo, hi).unwrap();
            let want = tok.encode_bytes(&text, false).unwrap();
            assert_eq!(
                applied(&old, &s),
                want,
                "seed {seed}: {:?} -> {:?}",
                String::from_utf8_lossy(&old_text),
                String::from_utf8_lossy(&text)
            );
            if s.middle.len() * 4 < want.len() {
                spliced_short += 1;
            }
        }
    }
    // Most edits encode again only a small stretch.
    assert!(spliced_short > 600, "short splices: {spliced_short}");
}

#[test]
fn an_edit_at_the_start_of_a_long_run_changes_every_token_after_it() {
    let mut dice = Dice(77);
    let tok = trained(&mut dice, 60);
    let old_text = [b"b ".as_slice(), &[b'a'; 1001], b" b"].concat();
    let old = tok.encode_bytes(&old_text, false).unwrap();
    let old_starts = starts(&tok, &old);
    // One `a` fewer at the run's start.
    let text = [b"b ".as_slice(), &[b'a'; 1000], b" b"].concat();
    let s = splice(&tok, &text, &old, |k| old_starts[k], old_text.len(), 2, 2).unwrap();
    let want = tok.encode_bytes(&text, false).unwrap();
    assert_eq!(applied(&old, &s), want);
    assert!(s.middle.len() > want.len() / 2, "the run is encoded again");
}

#[test]
fn a_long_text_a_part_at_a_time_gives_the_tokens_of_the_whole() {
    for seed in 1..=6u64 {
        let mut dice = Dice(seed * 0xD1B5_4A32_D192_ED03);
        let tok = trained(&mut dice, 80);
        let text = text_of(&mut dice, 20_000);
        let want = tok.encode_bytes(&text, false).unwrap();
        for part in [7, 100, 999] {
            // Each part is an edit that appends to what is encoded so far.
            let mut ids: Vec<u32> = Vec::new();
            let mut done = 0;
            while done < text.len() {
                let to = (done + part).min(text.len());
                let old_starts = starts(&tok, &ids);
                let s = splice(&tok, &text[..to], &ids, |k| old_starts[k], done, done, to).unwrap();
                ids = applied(&ids, &s);
                done = to;
            }
            assert_eq!(ids, want, "seed {seed}, parts of {part} bytes");
        }
    }
}

#[test]
fn only_tokenizers_that_merge_the_whole_text_qualify() {
    let gpt2 = bpeek::bpe::formats::load::load("gpt2").unwrap();
    assert!(!merges_whole_text(&gpt2));
    let mut dice = Dice(5);
    assert!(merges_whole_text(&trained(&mut dice, 10)));
}
