//! The seed pieces a Unigram training starts from: every character, and
//! the most frequent substrings of the words up to the longest piece, each
//! with its count (how often it occurs in the corpus, words counted as
//! often as they occur).
//!
//! A substring is a seed if it occurs at least twice (sentencepiece takes
//! its seeds from a suffix array, where only repeated substrings are
//! found). With the space marker every substring of a word is a candidate,
//! the whole word included (in the text it sits between two others);
//! without it only a strict substring of some word is, as in the Hugging
//! Face course's example, where `hug` is a seed (it is inside `hugs`) and
//! `pug` is not. Candidates are ranked by count times length in characters
//! (sentencepiece's rank), then by their bytes; the first `seed_size`
//! pieces, characters included, are kept.
//!
//! Substrings are counted a length at a time, and a substring is counted
//! only if the two one character shorter inside it occurred twice: no
//! longer string can occur more often than its parts, so the counts are
//! those of every substring while the table holds only the repeated ones.

use crate::train::unigram::config::{UnigramConfig, WordMarks};
use crate::train::unigram::words::Words;
use rustc_hash::FxHashMap;

/// A seed piece: its text and how often it occurs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    pub text: String,
    pub count: u64,
    /// Its length in characters.
    pub chars: usize,
}

/// The least count of a seed that is not a single character.
pub const SEED_MIN_COUNT: u64 = 2;

/// The seeds of `words`: the characters first (most frequent first), then
/// the substrings in rank order.
pub fn seed_pieces(words: &Words, config: &UnigramConfig) -> Vec<Seed> {
    let mut chars: FxHashMap<&str, u64> = FxHashMap::default();
    for (word, count) in words.iter() {
        for (i, c) in word.char_indices() {
            *chars.entry(&word[i..i + c.len_utf8()]).or_default() += count;
        }
    }
    let mut seeds: Vec<Seed> = chars
        .iter()
        .map(|(&text, &count)| Seed {
            text: text.to_string(),
            count,
            chars: 1,
        })
        .collect();
    seeds.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.text.cmp(&b.text)));
    let room = config.seed_size.saturating_sub(seeds.len());
    let mut longer = substrings(words, config, &chars, room);
    longer.sort_by(by_rank);
    longer.truncate(room);
    seeds.extend(longer.into_iter().map(|c| Seed {
        text: c.text.to_string(),
        count: c.count,
        chars: c.chars,
    }));
    seeds
}

/// A candidate seed, borrowed from the words until it is kept.
struct Candidate<'w> {
    text: &'w str,
    count: u64,
    chars: usize,
}

/// Higher count times length first, then by bytes.
fn by_rank(a: &Candidate, b: &Candidate) -> std::cmp::Ordering {
    let rank = |c: &Candidate| c.count * c.chars as u64;
    rank(b).cmp(&rank(a)).then_with(|| a.text.cmp(b.text))
}

/// Keep the best `room` of `list` once it holds twice as many, so the
/// candidates of every length never take more than that.
fn keep_best(list: &mut Vec<Candidate>, room: usize) {
    if list.len() > 2 * room.max(1) {
        list.select_nth_unstable_by(room, by_rank);
        list.truncate(room);
    }
}

/// Every candidate of two characters or more that occurs at least
/// [`SEED_MIN_COUNT`] times.
fn substrings<'w>(
    words: &'w Words,
    config: &UnigramConfig,
    chars: &FxHashMap<&'w str, u64>,
    room: usize,
) -> Vec<Candidate<'w>> {
    let strict_only = config.marks == WordMarks::None;
    let mut prev: FxHashMap<&'w str, (u64, bool)> = chars
        .iter()
        .filter(|&(_, &n)| n >= SEED_MIN_COUNT)
        .map(|(&s, &n)| (s, (n, true)))
        .collect();
    let mut out = Vec::new();
    let mut bounds: Vec<usize> = Vec::new();
    for len in 2..=config.max_piece_length {
        let mut cur: FxHashMap<&'w str, (u64, bool)> = FxHashMap::default();
        for (word, count) in words.iter() {
            bounds.clear();
            bounds.extend(word.char_indices().map(|(i, _)| i));
            bounds.push(word.len());
            let n = bounds.len() - 1;
            if n < len {
                continue;
            }
            for i in 0..=n - len {
                let (a, b) = (bounds[i], bounds[i + len]);
                let repeated = |s: &str| prev.get(s).is_some_and(|&(c, _)| c >= SEED_MIN_COUNT);
                if !repeated(&word[a..bounds[i + len - 1]]) || !repeated(&word[bounds[i + 1]..b]) {
                    continue;
                }
                let entry = cur.entry(&word[a..b]).or_default();
                entry.0 += count;
                entry.1 |= len < n;
            }
        }
        cur.retain(|_, &mut (c, _)| c >= SEED_MIN_COUNT);
        if cur.is_empty() {
            break;
        }
        for (&text, &(count, strict)) in &cur {
            if strict || !strict_only {
                out.push(Candidate {
                    text,
                    count,
                    chars: len,
                });
                keep_best(&mut out, room);
            }
        }
        prev = cur;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> Words {
        Words::from_counted(
            [
                ("hug", 10),
                ("pug", 5),
                ("pun", 12),
                ("bun", 4),
                ("hugs", 5),
            ],
            WordMarks::None,
        )
    }

    #[test]
    fn the_course_seeds_are_its_strict_substrings_with_their_counts() {
        let config = UnigramConfig {
            marks: WordMarks::None,
            ..Default::default()
        };
        let mut got: Vec<(String, u64)> = seed_pieces(&course(), &config)
            .into_iter()
            .map(|s| (s.text, s.count))
            .collect();
        got.sort();
        let mut want: Vec<(String, u64)> = [
            ("h", 15),
            ("u", 36),
            ("g", 20),
            ("hu", 15),
            ("ug", 20),
            ("p", 17),
            ("pu", 17),
            ("n", 16),
            ("un", 16),
            ("b", 4),
            ("bu", 4),
            ("s", 5),
            ("hug", 15),
            ("gs", 5),
            ("ugs", 5),
        ]
        .iter()
        .map(|&(t, c)| (t.to_string(), c))
        .collect();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(got.iter().map(|s| s.1).sum::<u64>(), 210);
    }

    #[test]
    fn the_seed_size_keeps_every_character_and_the_best_ranked_substrings() {
        let config = UnigramConfig {
            marks: WordMarks::None,
            seed_size: 9,
            ..Default::default()
        };
        let got: Vec<String> = seed_pieces(&course(), &config)
            .into_iter()
            .map(|s| s.text)
            .collect();
        // Seven characters, then hug (15 x 3) and ug (20 x 2), by rank.
        assert_eq!(&got[7..], ["hug", "ug"]);
        let config = UnigramConfig {
            seed_size: 2,
            ..config
        };
        assert_eq!(seed_pieces(&course(), &config).len(), 7);
    }
}
