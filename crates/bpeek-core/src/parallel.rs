//! Encoding on every core: one long text cut where a chunk always starts,
//! or many texts handed out in blocks. The command line (`encode`,
//! `encode --lines`) and the Python module share these, so both give the
//! ids of one pass.

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::error::{Error, Result};
use crate::line_cuts;

/// Texts this long or longer are cut into parts encoded on every core,
/// where the tokenizer's encodings can be cut so.
pub const PARALLEL_FROM: usize = 1 << 20;

/// The threads this machine runs at once (1 where it cannot say). Asked
/// once: the answer reads the cgroup's files, which costs more than
/// encoding a short text.
pub fn threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The ids of the whole text, as [`Tokenizer::encode_for_model`] gives
/// them: on `threads` threads, cut at places where a chunk always starts
/// (the ids of one pass, see [`line_cuts`]), when the text is long, UTF-8,
/// and the tokenizer's encodings can be cut there.
pub fn encode_whole(
    tok: &Tokenizer,
    text: &[u8],
    allow_special: bool,
    add_special: bool,
    threads: usize,
) -> Result<Vec<TokenId>> {
    if add_special {
        return tok.encode_for_model(text, allow_special, add_special);
    }
    let (mut ids, later) = encode_in_parts(tok, text, allow_special, threads, |ids| ids)?;
    // The first part's ids grow into the whole: one copy of the others.
    for part in later {
        ids.extend_from_slice(&part);
    }
    Ok(ids)
}

/// The ids of the whole text as [`encode_whole`] finds them, handed over a
/// part at a time: the first part's ids, encoded on the calling thread,
/// and each later part's given to `later` on the thread that encoded it
/// (what it makes of them comes back in order). A caller that writes the
/// ids out so writes the first part while the others are still being
/// encoded and written into buffers, and never joins them. A text that is
/// not cut is all first part.
pub fn encode_in_parts<R: Send>(
    tok: &Tokenizer,
    text: &[u8],
    allow_special: bool,
    threads: usize,
    later: impl Fn(Vec<TokenId>) -> R + Sync,
) -> Result<(Vec<TokenId>, Vec<R>)> {
    let whole = || {
        Ok((
            tok.encode_for_model(text, allow_special, false)?,
            Vec::new(),
        ))
    };
    let Some((s, cuts)) = part_cuts(tok, text, threads) else {
        return whole();
    };
    let later = &later;
    let (first, rest) = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts[1..]
            .windows(2)
            .map(|w| {
                let (from, to) = (w[0], w[1]);
                scope.spawn(move || line_cuts::tokens_between(tok, s, from, to).map(later))
            })
            .collect();
        let first = line_cuts::tokens_between(tok, s, cuts[0], cuts[1]);
        let rest: Option<Vec<R>> = handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect();
        (first, rest)
    });
    match (first, rest) {
        (Some(first), Some(rest)) => Ok((first, rest)),
        _ => whole(),
    }
}

/// Where [`encode_in_parts`] cuts `text` for `threads` threads: the text
/// as UTF-8 and the cuts, its start and end among them, at least one
/// between; `None` when it is short, not UTF-8, or not cut so.
fn part_cuts<'t>(tok: &Tokenizer, text: &'t [u8], threads: usize) -> Option<(&'t str, Vec<usize>)> {
    if threads < 2 || text.len() < PARALLEL_FROM || !line_cuts::cuts_at_lines(tok) {
        return None;
    }
    let s = std::str::from_utf8(text).ok()?;
    let mut cuts = vec![0];
    for k in 1..threads {
        let at = line_cuts::next_cut(tok, s, text.len() * k / threads);
        if at > *cuts.last().unwrap_or(&0) && at < text.len() {
            cuts.push(at);
        }
    }
    cuts.push(text.len());
    (cuts.len() > 2).then_some((s, cuts))
}

/// `work` on `items` cut into at most `threads` blocks of consecutive
/// items of about the same `weight` (a text's length: lines of a file
/// differ by thousands of times, and blocks of as many lines each left one
/// core with most of the work), each block on a thread of its own: the
/// blocks' results in the order of the items. `work` is given the index
/// of its block's first item. The first error (in the order of the items)
/// is returned.
pub fn in_blocks<T, R>(
    items: &[T],
    threads: usize,
    weight: impl Fn(&T) -> usize,
    work: impl Fn(usize, &[T]) -> Result<R> + Sync,
) -> Result<Vec<R>>
where
    T: Sync,
    R: Send,
{
    let starts = block_starts(items, threads, weight);
    let blocks = starts.windows(2).map(|w| (w[0], &items[w[0]..w[1]]));
    if starts.len() <= 2 {
        return blocks.map(|(first, block)| work(first, block)).collect();
    }
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = blocks
            .map(|(first, block)| scope.spawn(move || work(first, block)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::failure("encoding a block of texts failed")))
            })
            .collect()
    })
}

/// Where `items` are cut into at most `threads` blocks of consecutive
/// items, none empty, of about the same weight (each item weighs one more
/// than `weight` says, so that empty texts count too): the index each
/// block starts at, then the number of items.
fn block_starts<T>(items: &[T], threads: usize, weight: impl Fn(&T) -> usize) -> Vec<usize> {
    let threads = threads.clamp(1, items.len().max(1));
    let total: usize = items.iter().map(|t| weight(t) + 1).sum();
    let mut starts = vec![0];
    let mut so_far = 0;
    for (i, item) in items.iter().enumerate() {
        let w = weight(item) + 1;
        // A block ends before the item whose middle lies past its share.
        let k = starts.len();
        if i > 0 && k < threads && 2 * so_far + w >= 2 * total * k / threads {
            starts.push(i);
        }
        so_far += w;
    }
    starts.push(items.len());
    starts.dedup();
    starts
}

/// Each text encoded as [`Tokenizer::encode_for_model`] encodes it, on
/// `threads` threads: the ids of each, in order. An error names the text
/// by its place (`text 3`, counted from 1).
pub fn encode_each<T: AsRef<[u8]> + Sync>(
    tok: &Tokenizer,
    texts: &[T],
    allow_special: bool,
    add_special: bool,
    threads: usize,
) -> Result<Vec<Vec<TokenId>>> {
    let blocks = in_blocks(
        texts,
        threads,
        |t| t.as_ref().len(),
        |first, block| {
            // The chunks of one text are kept for the next: short texts are
            // then encoded as fast as one long one.
            let mut cache = tok.encode_cache(block.iter().map(|t| t.as_ref().len()).sum());
            block
                .iter()
                .enumerate()
                .map(|(k, text)| {
                    tok.encode_for_model_in(text.as_ref(), allow_special, add_special, &mut cache)
                        .map_err(|e| e.context(format!("text {}", first + k + 1)))
                })
                .collect::<Result<Vec<_>>>()
        },
    )?;
    Ok(blocks.into_iter().flatten().collect())
}

/// The ids of a block of consecutive texts, one after another: text `k`
/// of the block is `ids[ends[k - 1]..ends[k]]` (from 0 for the first).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FlatIds {
    pub ids: Vec<TokenId>,
    pub ends: Vec<usize>,
}

/// [`encode_each`] with each block's ids in one vector: the blocks in the
/// order of the texts. A caller that hands the ids on as one array needs
/// no vector per text.
pub fn encode_each_flat<T: AsRef<[u8]> + Sync>(
    tok: &Tokenizer,
    texts: &[T],
    allow_special: bool,
    add_special: bool,
    threads: usize,
) -> Result<Vec<FlatIds>> {
    in_blocks(
        texts,
        threads,
        |t| t.as_ref().len(),
        |first, block| {
            let bytes = block.iter().map(|t| t.as_ref().len()).sum();
            let mut cache = tok.encode_cache(bytes);
            // About a quarter of a token a byte in the texts these encode.
            let mut flat = FlatIds {
                ids: Vec::with_capacity(bytes / 4),
                ends: Vec::with_capacity(block.len()),
            };
            for (k, text) in block.iter().enumerate() {
                tok.encode_for_model_onto(
                    text.as_ref(),
                    allow_special,
                    add_special,
                    &mut cache,
                    &mut flat.ids,
                )
                .map_err(|e| e.context(format!("text {}", first + k + 1)))?;
                flat.ends.push(flat.ids.len());
            }
            Ok(flat)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_the_order_of_the_items_on_any_number_of_threads() {
        let items: Vec<usize> = (0..23).collect();
        for threads in [1, 2, 3, 7, 40] {
            let blocks = in_blocks(
                &items,
                threads,
                |_| 1,
                |first, block| {
                    assert_eq!(block[0], first);
                    Ok(block.to_vec())
                },
            )
            .unwrap();
            assert!(blocks.len() <= threads);
            assert_eq!(blocks.concat(), items);
        }
    }

    /// One long text among short ones has a block of its own: the
    /// blocks' weights are as near equal as the items allow.
    #[test]
    fn blocks_are_cut_by_weight_not_by_number() {
        let mut texts = vec![100; 30];
        texts.insert(20, 10_000);
        let starts = block_starts(&texts, 2, |&w| w);
        assert_eq!(starts, [0, 20, 31]);
        let starts = block_starts(&texts, 3, |&w| w);
        assert_eq!(starts, [0, 20, 21, 31]);
        assert_eq!(block_starts(&[0; 5], 2, |&w| w), [0, 2, 5]);
        assert_eq!(block_starts::<u8>(&[], 4, |&w| w.into()), [0]);
        assert_eq!(block_starts(&[7], 4, |&w| w), [0, 1]);
    }

    #[test]
    fn the_first_error_in_the_order_of_the_items_is_returned() {
        let items: Vec<usize> = (0..40).collect();
        for threads in [1, 2, 5] {
            let got = in_blocks(
                &items,
                threads,
                |_| 1,
                |_, block| match block.iter().find(|&&i| i == 7 || i == 31) {
                    Some(i) => Err(Error::input(format!("item {i}"))),
                    None => Ok(()),
                },
            );
            assert_eq!(got, Err(Error::input("item 7")));
        }
    }

    #[test]
    fn each_text_is_encoded_as_alone() {
        let tok = crate::formats::builtin::load("cl100k").unwrap();
        let texts = ["hello world", "", "  spaces\n\n", "ünïcödé 12345"];
        for threads in [1, 2, 4] {
            let each = encode_each(&tok, &texts, false, false, threads).unwrap();
            let alone: Vec<_> = texts.iter().map(|t| tok.encode(t, false)).collect();
            assert_eq!(each, alone);
        }
    }

    #[test]
    fn flat_blocks_hold_each_texts_ids_in_order() {
        let tok = crate::formats::builtin::load("o200k").unwrap();
        let texts: Vec<String> = (0..37)
            .map(|i| "ab 12 ü ".repeat(i % 5) + &"\n".repeat(i % 3))
            .collect();
        let each = encode_each(&tok, &texts, false, false, 1).unwrap();
        for threads in [1, 2, 3, 8] {
            let blocks = encode_each_flat(&tok, &texts, false, false, threads).unwrap();
            let mut got = Vec::new();
            for block in &blocks {
                let mut from = 0;
                for &end in &block.ends {
                    got.push(block.ids[from..end].to_vec());
                    from = end;
                }
                assert_eq!(from, block.ids.len());
            }
            assert_eq!(got, each);
        }
    }

    #[test]
    fn a_text_refused_is_named_and_leaves_the_ids_before_it() {
        use crate::{Mode, Trainer, TrainerConfig};
        let config = TrainerConfig {
            mode: Mode::Char,
            min_count: 1,
            max_merges: Some(10),
            ..Default::default()
        };
        let mut trainer = Trainer::new(b"play the plays, they play".to_vec(), config).unwrap();
        trainer.run();
        let tok = trainer.tokenizer();
        let texts: [&[u8]; 4] = [b"play", b"they", b"pl\xffay", b"the"];
        for threads in [1, 2, 4] {
            let flat = encode_each_flat(&tok, &texts, false, false, threads).unwrap_err();
            let lists = encode_each(&tok, &texts, false, false, threads).unwrap_err();
            assert_eq!(flat, lists);
            assert!(flat.to_string().contains("text 3"), "{flat}");
            assert!(flat.to_string().contains("invalid UTF-8"), "{flat}");
        }
        let mut cache = tok.encode_cache(0);
        let mut ids = vec![7, 8];
        tok.encode_for_model_onto(texts[0], false, false, &mut cache, &mut ids)
            .unwrap();
        let before = ids.clone();
        assert!(
            tok.encode_for_model_onto(texts[2], false, false, &mut cache, &mut ids)
                .is_err()
        );
        assert_eq!(ids, before);
        assert_eq!(&ids[..2], [7, 8]);
        assert_eq!(ids[2..], tok.encode("play", false));
    }
}
