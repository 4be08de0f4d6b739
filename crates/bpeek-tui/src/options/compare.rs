//! `--compare "OPTIONS"`: configurations that train on one corpus side by
//! side. Each OPTIONS is what `bpeek train` takes (`--pretok none`, `--tie
//! lex`, `--mode char`, ...), changing the command's own options; the
//! corpus is the command's and cannot be changed.

use crate::options::args::TrainingOptions;
use bpeek_core::error::{Error, Result, quoted};
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser};

/// The most configurations one comparison holds.
pub const MOST: usize = 4;

/// What one `--compare` may say: the training options alone.
#[derive(Parser, Debug)]
#[command(name = "--compare", no_binary_name = true, disable_help_flag = true)]
struct Given {
    #[command(flatten)]
    training: TrainingOptions,
}

/// The configurations `compare` describes, each the command's own options
/// `base` with its changes; two to four of them.
pub fn configurations(base: &TrainingOptions, compare: &[String]) -> Result<Vec<TrainingOptions>> {
    if !(2..=MOST).contains(&compare.len()) {
        return Err(Error::input(format!(
            "--compare: give it two to four times, one configuration each (got {}); \"\" is the command's own options",
            compare.len()
        )));
    }
    compare.iter().map(|c| configuration(base, c)).collect()
}

fn configuration(base: &TrainingOptions, given: &str) -> Result<TrainingOptions> {
    let place = format!("--compare {}", quoted(given));
    let words = words(given).map_err(|e| Error::input(format!("{place}: {e}")))?;
    let matches = Given::command().try_get_matches_from(&words).map_err(|e| {
        let said = e.render().to_string();
        let first = said
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        Error::input(format!("{place}: {first}"))
    })?;
    let parsed = Given::from_arg_matches(&matches)
        .map_err(|e| Error::input(format!("{place}: {e}")))?
        .training;
    let on_line = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    for id in ["corpus", "counts", "corpus_name"] {
        if on_line(id) {
            return Err(Error::input(format!(
                "{place}: every configuration trains on the command's corpus; give the corpus once, outside --compare"
            )));
        }
    }
    if parsed.unigram.is_unigram() {
        return unigram_configuration(base, &parsed, &place, on_line);
    }
    crate::options::unigram::refuse_unigram_options(&parsed.unigram)
        .map_err(|e| e.context(&place))?;
    let mut o = base.clone();
    if on_line("mode") {
        o.mode = parsed.mode;
    }
    if on_line("pretok") {
        o.pretok = parsed.pretok;
    }
    if on_line("digits") {
        o.digits = parsed.digits;
    }
    if on_line("merges") {
        o.merges = parsed.merges;
        o.vocab_size = None;
    }
    if on_line("vocab_size") {
        o.vocab_size = parsed.vocab_size;
        o.merges = None;
    }
    if on_line("min_count") {
        o.min_count = parsed.min_count;
    }
    if on_line("tie") {
        o.tie = parsed.tie;
    }
    if on_line("by_line") {
        o.by_line = parsed.by_line;
    }
    if on_line("score") {
        o.score = parsed.score;
    }
    if on_line("specials") {
        o.specials = parsed.specials;
    }
    // Char mode has no pre-tokenizer of its own to keep.
    if on_line("mode") && !on_line("pretok") && o.mode == bpeek_core::Mode::Char {
        o.pretok = None;
    }
    Ok(o)
}

/// A Unigram column (`--model unigram`): the command's corpus and mode
/// (or the mode it gives), its own Unigram options; a `--vocab-size` it
/// gives pins its size, else it follows the BPE columns' vocabulary. BPE
/// options in it are refused by name; the command's own are not its.
fn unigram_configuration(
    base: &TrainingOptions,
    parsed: &TrainingOptions,
    place: &str,
    on_line: impl Fn(&str) -> bool,
) -> Result<TrainingOptions> {
    crate::options::unigram::refuse_bpe_options(parsed).map_err(|e| e.context(place))?;
    let o = TrainingOptions {
        corpus: base.corpus.clone(),
        counts: base.counts.clone(),
        corpus_name: base.corpus_name.clone(),
        mode: if on_line("mode") {
            parsed.mode
        } else {
            base.mode
        },
        vocab_size: parsed.vocab_size.filter(|_| on_line("vocab_size")),
        unigram: parsed.unigram.clone(),
        ..TrainingOptions::default()
    };
    // Sizes and factors are checked now, not when the column first trains.
    crate::options::unigram::config(&o, crate::options::unigram::DEFAULT_VOCAB_SIZE)
        .map_err(|e| e.context(place))?;
    Ok(o)
}

/// Whether `o` describes a Unigram column.
pub fn is_unigram(o: &TrainingOptions) -> bool {
    o.unigram.is_unigram()
}

/// Cut OPTIONS into words as a shell would: at spaces, with '...' and
/// "..." keeping spaces inside.
fn words(s: &str) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("a {q} is not closed"));
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

/// Each configuration's options as written, one per option it sets.
fn described(o: &TrainingOptions) -> Vec<(&'static str, String)> {
    if is_unigram(o) {
        return described_unigram(o);
    }
    let mut out = vec![
        ("model", "--model bpe".to_string()),
        ("mode", format!("--mode {}", o.mode.name())),
    ];
    if o.mode == bpeek_core::Mode::Byte {
        out.push((
            "pretok",
            format!("--pretok {}", o.pretok.unwrap_or_default().name()),
        ));
        out.push(("digits", format!("--digits {}", o.digits.name())));
    }
    out.push(("tie", format!("--tie {}", o.tie.name())));
    out.push(("score", format!("--score {}", o.score.name())));
    out.push(("min_count", format!("--min-count {}", o.min_count)));
    out.push((
        "budget",
        match (o.merges, o.vocab_size) {
            (Some(m), _) => format!("--merges {m}"),
            (None, Some(v)) => format!("--vocab-size {v}"),
            (None, None) => "no budget".into(),
        },
    ));
    out.push((
        "by_line",
        if o.by_line { "--by-line" } else { "whole text" }.into(),
    ));
    out.push((
        "specials",
        o.specials
            .iter()
            .map(|s| format!("--special {}", quoted(s)))
            .collect::<Vec<_>>()
            .join(" "),
    ));
    out
}

/// A Unigram column's options as written: its model, mode and size, and
/// the Unigram options it gives (those it leaves are sentencepiece's).
fn described_unigram(o: &TrainingOptions) -> Vec<(&'static str, String)> {
    let u = &o.unigram;
    let mut out = vec![
        ("model", "--model unigram".to_string()),
        ("mode", format!("--mode {}", o.mode.name())),
        // Not BPE's budget: said only where two Unigram columns differ.
        (
            "unigram_size",
            match o.vocab_size {
                Some(v) => format!("--vocab-size {v}"),
                None => String::new(),
            },
        ),
    ];
    let given = [
        ("seed_size", u.seed_size.map(|n| format!("--seed-size {n}"))),
        (
            "shrinking_factor",
            u.shrinking_factor
                .map(|f| format!("--shrinking-factor {f}")),
        ),
        (
            "em_iterations",
            u.em_iterations.map(|n| format!("--em-iterations {n}")),
        ),
        (
            "max_piece_length",
            u.max_piece_length
                .map(|n| format!("--max-piece-length {n}")),
        ),
        (
            "byte_fallback",
            u.byte_fallback.then(|| "--byte-fallback".to_string()),
        ),
    ];
    out.extend(given.into_iter().filter_map(|(k, v)| Some((k, v?))));
    out
}

/// For each configuration, the options in which the configurations
/// differ, as that one sets them (`--pretok none`); the same for all when
/// they do not differ at all.
pub fn differing(configs: &[TrainingOptions]) -> Vec<Vec<String>> {
    let all: Vec<Vec<(&str, String)>> = configs.iter().map(described).collect();
    let differs = |key: &str| {
        // Among the configurations that have the option at all (char mode
        // has no pre-tokenizer).
        let values: Vec<&String> = all
            .iter()
            .filter_map(|d| d.iter().find(|(k, _)| *k == key).map(|(_, v)| v))
            .collect();
        values.windows(2).any(|w| w[0] != w[1])
    };
    all.iter()
        .map(|d| {
            d.iter()
                .filter(|(k, v)| differs(k) && !v.is_empty())
                .map(|(_, v)| v.clone())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_configuration_changes_the_commands_own_options() {
        let base = TrainingOptions {
            merges: Some(20),
            ..TrainingOptions::default()
        };
        let configs = configurations(
            &base,
            &[
                "".into(),
                "--pretok none --tie lex".into(),
                "--mode char".into(),
            ],
        )
        .unwrap();
        assert_eq!(configs[0], base);
        assert_eq!(configs[1].pretok, Some(bpeek_core::Pretok::None));
        assert_eq!(configs[1].tie, bpeek_core::TieRule::Lex);
        assert_eq!(configs[1].merges, Some(20));
        assert_eq!(configs[2].mode, bpeek_core::Mode::Char);
        let titles = differing(&configs);
        assert_eq!(titles[1], ["--mode byte", "--pretok none", "--tie lex"]);
        assert_eq!(titles[2], ["--mode char", "--tie first"]);
    }

    #[test]
    fn what_cannot_be_compared_is_refused_by_the_options_given() {
        let base = TrainingOptions::default();
        let refused = |c: &[&str]| {
            let c: Vec<String> = c.iter().map(|s| s.to_string()).collect();
            configurations(&base, &c).unwrap_err().to_string()
        };
        assert!(refused(&["--pretok none"]).contains("two to four"));
        assert!(refused(&["", "other.txt"]).contains("the command's corpus"));
        assert!(refused(&["", "--pretok nine"]).contains("--compare '--pretok nine'"));
        assert!(refused(&["", "--tie 'lex"]).contains("is not closed"));
    }

    #[test]
    fn a_unigram_column_keeps_the_corpus_and_mode_and_drops_the_bpe_options() {
        let base = TrainingOptions {
            pretok: Some(bpeek_core::Pretok::None),
            tie: bpeek_core::TieRule::Lex,
            corpus_name: Some("play".into()),
            ..TrainingOptions::default()
        };
        let configs = configurations(
            &base,
            &["".into(), "--model unigram --seed-size 500".into()],
        )
        .unwrap();
        let u = &configs[1];
        assert!(is_unigram(u) && !is_unigram(&configs[0]));
        assert_eq!(u.corpus_name.as_deref(), Some("play"));
        assert_eq!((u.pretok, u.tie), (None, bpeek_core::TieRule::First));
        assert_eq!((u.unigram.seed_size, u.vocab_size), (Some(500), None));
        let titles = differing(&configs);
        assert_eq!(titles[0], ["--model bpe"]);
        assert_eq!(titles[1], ["--model unigram"]);
        let sized = configurations(
            &base,
            &["".into(), "--model unigram --vocab-size 90".into()],
        );
        assert_eq!(sized.unwrap()[1].vocab_size, Some(90));
    }

    #[test]
    fn words_are_cut_as_a_shell_cuts_them() {
        assert_eq!(
            words(r#"--special '<|end of text|>' --tie  lex"#).unwrap(),
            ["--special", "<|end of text|>", "--tie", "lex"]
        );
        assert_eq!(words("").unwrap(), Vec::<String>::new());
    }
}
