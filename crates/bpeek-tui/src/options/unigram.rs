//! `--model unigram` and Unigram's own options, with sentencepiece's
//! names: shared by `train`, the explorer and the class, and turned here
//! into the engine's [`UnigramConfig`].

use crate::options::args::{TrainingOptions, whole};
use bpeek_core::error::{Error, Result};
use bpeek_core::train::unigram::{UnigramConfig, UnigramTrainer, WordMarks, Words};
use bpeek_core::{Digits, Mode, Score, TieRule};
use clap::{Args, ValueEnum};

/// What is trained.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ModelKind {
    /// Byte-pair encoding: merges, one a round
    #[default]
    Bpe,
    /// Unigram (as sentencepiece): seed pieces, EM, pruning by loss
    Unigram,
}

/// The options of Unigram training.
#[derive(Args, Debug, Clone, Default)]
pub struct UnigramOptions {
    /// What to train: bpe, or unigram (seed pieces, EM, pruning by loss, as sentencepiece; words cut at whitespace, marked with ▁, or with --mode char unmarked; --vocab-size defaults to 8000)
    #[arg(long, value_enum, default_value_t = ModelKind::Bpe)]
    pub model: ModelKind,
    /// Unigram: the most seed pieces, characters included [default: 1000000]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub seed_size: Option<usize>,
    /// Unigram: the share of pieces each prune keeps, above 0 and below 1 [default: 0.75]
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub shrinking_factor: Option<f64>,
    /// Unigram: EM iterations before each prune [default: 2]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub em_iterations: Option<usize>,
    /// Unigram: the longest piece, in characters [default: 16]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_piece_length: Option<usize>,
    /// Unigram: add the 256 byte pieces <0x00>..<0xFF>, so an unknown character is written as its bytes, not <unk>
    #[arg(long)]
    pub byte_fallback: bool,
}

// The options are compared and hashed as the command line gave them: the
// shrinking factor by its bits (the screen key of a class holds them).
impl PartialEq for UnigramOptions {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for UnigramOptions {}

impl std::hash::Hash for UnigramOptions {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

type OptionsKey = (
    ModelKind,
    Option<usize>,
    Option<u64>,
    Option<usize>,
    Option<usize>,
    bool,
);

impl UnigramOptions {
    fn key(&self) -> OptionsKey {
        (
            self.model,
            self.seed_size,
            self.shrinking_factor.map(f64::to_bits),
            self.em_iterations,
            self.max_piece_length,
            self.byte_fallback,
        )
    }

    pub fn is_unigram(&self) -> bool {
        self.model == ModelKind::Unigram
    }

    /// The Unigram options given, by name (to refuse them on BPE).
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--seed-size", self.seed_size.is_some()),
            ("--shrinking-factor", self.shrinking_factor.is_some()),
            ("--em-iterations", self.em_iterations.is_some()),
            ("--max-piece-length", self.max_piece_length.is_some()),
            ("--byte-fallback", self.byte_fallback),
        ]
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name)
        .collect()
    }
}

/// The trainer's settings from the options, sentencepiece's defaults where
/// none is given; the vocabulary size `default_vocab` when `--vocab-size`
/// is not given.
pub fn config(training: &TrainingOptions, default_vocab: usize) -> Result<UnigramConfig> {
    let u = &training.unigram;
    let d = UnigramConfig::default();
    let config = UnigramConfig {
        vocab_size: training.vocab_size.unwrap_or(default_vocab),
        seed_size: u.seed_size.unwrap_or(d.seed_size),
        shrinking_factor: u.shrinking_factor.unwrap_or(d.shrinking_factor),
        em_iterations: u.em_iterations.unwrap_or(d.em_iterations),
        max_piece_length: u.max_piece_length.unwrap_or(d.max_piece_length),
        marks: match training.mode {
            Mode::Byte => WordMarks::Space,
            Mode::Char => WordMarks::None,
        },
        byte_fallback: u.byte_fallback,
    };
    config.check()?;
    Ok(config)
}

/// The vocabulary size `train` ends with when none is given
/// (sentencepiece's default).
pub const DEFAULT_VOCAB_SIZE: usize = 8000;

/// The explorer's trainer on the corpus the options name, with its name.
/// Without `--vocab-size` it trains to [`DEFAULT_VOCAB_SIZE`] as `train`
/// does, or, on a corpus that seeds no more pieces than that, to a
/// quarter of its seeds, so that a small corpus is pruned on screen.
pub fn explorer_trainer(training: &TrainingOptions) -> Result<(String, UnigramTrainer)> {
    refuse_bpe_options(training)?;
    let config = config(training, DEFAULT_VOCAB_SIZE)?;
    let (name, text) = crate::options::input::corpus_text(training)?;
    let words = Words::from_text(&text, config.marks).map_err(|e| e.context(&name))?;
    let trainer = UnigramTrainer::from_words(words.clone(), config.clone())?;
    let seeds = trainer.pieces().alive().len();
    if training.vocab_size.is_some() || seeds > config.vocab_size {
        return Ok((name, trainer));
    }
    let quarter = UnigramConfig {
        vocab_size: (seeds / 4).max(config.reserved() + 1),
        ..config
    };
    Ok((name, UnigramTrainer::from_words(words, quarter)?))
}

/// Refuse, by name, the options of BPE training that Unigram training has
/// no use for.
pub fn refuse_bpe_options(t: &TrainingOptions) -> Result<()> {
    let given = [
        ("--merges", t.merges.is_some()),
        ("--pretok (words are cut at whitespace)", t.pretok.is_some()),
        ("--digits", t.digits != Digits::Keep),
        ("--tie", t.tie != TieRule::First),
        ("--score", t.score != Score::Count),
        ("--min-count", t.min_count != 1),
        ("--by-line (words never span a line)", t.by_line),
        ("--special", !t.specials.is_empty()),
        ("--counts (Unigram trains on a text)", !t.counts.is_empty()),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((name, _)) => Err(Error::input(format!("--model unigram takes no {name}"))),
        None => Ok(()),
    }
}

/// Refuse Unigram's options on a BPE training.
pub fn refuse_unigram_options(u: &UnigramOptions) -> Result<()> {
    match u.given().first() {
        Some(name) => Err(Error::input(format!(
            "{name} is an option of Unigram training: add --model unigram"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_not_given_take_sentencepiece_defaults_and_mode_char_drops_the_marker() {
        let t = TrainingOptions {
            mode: Mode::Char,
            ..TrainingOptions::default()
        };
        let c = config(&t, 120).unwrap();
        let d = UnigramConfig::default();
        assert_eq!(c.vocab_size, 120);
        assert_eq!(c.shrinking_factor, d.shrinking_factor);
        assert_eq!(c.marks, WordMarks::None);
    }

    #[test]
    fn a_small_corpus_trains_to_a_quarter_of_its_seeds_unless_a_size_is_given() {
        let t = TrainingOptions {
            unigram: UnigramOptions {
                model: ModelKind::Unigram,
                ..Default::default()
            },
            ..TrainingOptions::default()
        };
        let (name, trainer) = explorer_trainer(&t).unwrap();
        assert_eq!(name, bpeek_core::corpora::DEFAULT_NAME);
        let seeds = trainer.pieces().alive().len();
        assert!(seeds < DEFAULT_VOCAB_SIZE);
        assert_eq!(trainer.config().vocab_size, seeds / 4);
        let sized = TrainingOptions {
            vocab_size: Some(300),
            ..t
        };
        assert_eq!(explorer_trainer(&sized).unwrap().1.config().vocab_size, 300);
    }

    #[test]
    fn a_bpe_option_is_refused_by_name() {
        let t = TrainingOptions {
            tie: TieRule::Lex,
            ..TrainingOptions::default()
        };
        let e = refuse_bpe_options(&t).unwrap_err().to_string();
        assert!(e.contains("--tie"), "{e}");
    }
}
