//! A string is encoded without checking its UTF-8 again, a byte slice with
//! the check: both give the same ids, for every pre-tokenizer and digit
//! rule, the built-in tokenizers, short texts and texts long enough for
//! the table of recent chunks, with special tokens allowed or not.

use bpeek::bpe::formats::builtin;
use bpeek::bpe::{Digits, Pretok, Tokenizer, Trainer, TrainerConfig};

mod common;
use common::Rng as Dice;

/// Pieces in many scripts, digits, runs of spaces and line breaks, and a
/// special token's text.
const PIECES: &[&str] = &[
    " the",
    "Hello",
    " 12345",
    "7",
    "  ",
    "\n",
    "\r\n",
    " привет",
    "日本語",
    " नमस्ते",
    "'s",
    ",",
    "😀",
    " مرحبا",
    "\t",
    "<|endoftext|>",
    "ſ",
    "\u{a0}",
];

fn text_of(dice: &mut Dice, pieces: usize) -> String {
    (0..pieces).map(|_| *dice.pick(PIECES)).collect()
}

fn same_ids(tok: &Tokenizer, text: &str, what: &str) {
    for allow_special in [false, true] {
        assert_eq!(
            tok.encode(text, allow_special),
            tok.encode_bytes(text.as_bytes(), allow_special).unwrap(),
            "{what}, special tokens allowed: {allow_special}, {} bytes",
            text.len()
        );
    }
}

#[test]
fn a_string_and_its_bytes_encode_alike_with_every_pretokenizer_and_digit_rule() {
    let mut dice = Dice(11);
    for pretok in Pretok::ALL {
        for digits in [Digits::Keep, Digits::Single, Digits::Groups3] {
            let config = TrainerConfig {
                pretok,
                digits,
                ..Default::default()
            };
            let mut trainer = Trainer::new(text_of(&mut dice, 3000).into_bytes(), config).unwrap();
            for _ in 0..300 {
                if trainer.step().is_err() {
                    break;
                }
            }
            let tok = trainer.tokenizer();
            for pieces in [0, 1, 40, 12_000] {
                let text = text_of(&mut dice, pieces);
                same_ids(&tok, &text, &format!("{pretok} with digits {digits}"));
            }
        }
    }
}

#[test]
fn a_string_and_its_bytes_encode_alike_with_the_built_in_tokenizers() {
    let mut dice = Dice(12);
    for name in builtin::names() {
        let tok = builtin::load(name).unwrap();
        for pieces in [1, 40, 12_000] {
            let text = text_of(&mut dice, pieces);
            same_ids(&tok, &text, name);
        }
    }
}

#[test]
fn the_cuts_of_a_string_are_the_cuts_of_its_bytes() {
    let mut dice = Dice(13);
    for pretok in Pretok::ALL {
        for _ in 0..30 {
            let pieces = dice.below(200);
            let text = text_of(&mut dice, pieces);
            let mut cuts = Vec::new();
            pretok.for_each_chunk_str(&text, |r| cuts.push(r));
            assert_eq!(cuts, pretok.split(text.as_bytes()), "{pretok} on {text:?}");
        }
    }
}
