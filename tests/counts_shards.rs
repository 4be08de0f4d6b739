//! A corpus cut into shards, each shard's chunks counted on its own (as a
//! worker of a cluster would), the counts written to count files, summed
//! in any grouping and read back: training on the sum must learn exactly
//! the merges of training on the whole text, for every tie rule, mode and
//! line rule.

use bpeek::bpe::pretokenize::pretok::Digits;
use bpeek::bpe::train::chunk_counts::{ChunkCounts, ChunkOptions};
use bpeek::bpe::train::corpus::Corpus;
use bpeek::bpe::train::shard_edges::{CutRule, ShardCut};
use bpeek::bpe::{Mode, Pretok, TieRule, Trainer, TrainerConfig};
use bpeek::counts::count_file::{self, CountReader};
use std::path::{Path, PathBuf};

mod reference;
mod scratch;

use reference::*;
use scratch::Scratch;

/// Lines of words, numbers, punctuation, spaces and some non-ASCII text.
fn lines(rng: &mut Rng, len: usize) -> Vec<u8> {
    let pieces = [
        "the", " cat", "\n", "\n\n", "  ", "42", " 7", "!", "?\n", "é", "日本", " ", "\t", "a",
        "Zebra", "\r\n", "'s", "...", "1999", "\n ", "\nb", "#x",
    ];
    let mut out = Vec::new();
    while out.len() < len {
        out.extend_from_slice(pieces[rng.below(pieces.len())].as_bytes());
    }
    out
}

/// One shard counted as `bpeek count` counts it: the text between its
/// first and last places to cut (streamed in small blocks where the
/// options allow), and the text at its edges.
fn shard_corpus(shard: &[u8], options: ChunkOptions) -> (Corpus, ShardCut) {
    let chunker = options.chunker();
    if Corpus::can_stream(options.mode, chunker, options.by_line) {
        Corpus::count_shard_stream_in_blocks(shard, chunker, options.by_line, "shard", |_| {}, 97)
            .expect("counted")
    } else {
        let rule = CutRule::of(options.mode, chunker, options.by_line);
        let (cut, between) = ShardCut::of(shard, rule);
        let corpus = Corpus::new(
            shard[between].to_vec(),
            options.mode,
            chunker,
            false,
            options.by_line,
        )
        .expect("counted");
        (corpus, cut)
    }
}

/// A text counted whole, as one shard with nothing before or after it.
fn whole_corpus(text: &[u8], options: ChunkOptions) -> Corpus {
    let chunker = options.chunker();
    Corpus::new(text.to_vec(), options.mode, chunker, false, options.by_line).expect("counted")
}

/// `counts` written as Parquet or TSV to the file `name` in `dir`.
fn round_trip(dir: &Path, counts: &ChunkCounts, name: &str, parquet: bool) -> PathBuf {
    let path = dir.join(name);
    let mut bytes = Vec::new();
    if parquet {
        count_file::write_parquet(counts, &mut bytes).expect("written");
    } else {
        count_file::write_tsv(counts, &mut bytes).expect("written");
    }
    std::fs::write(&path, bytes).expect("saved");
    path
}

fn merges_of(corpus: Corpus, config: TrainerConfig) -> (Vec<RefMerge>, u64) {
    let headless = TrainerConfig {
        text_positions: false,
        keep_history: false,
        ..config
    };
    let mut t = Trainer::from_corpus(corpus, headless).expect("trains");
    while t.step().is_ok() {}
    (learned(&t), t.corpus_tokens())
}

#[test]
fn shards_counted_apart_and_summed_train_the_merges_of_the_whole_text() {
    let dir = Scratch::new("counts-apart");
    let mut rng = Rng(23);
    let pretoks = [
        Pretok::Gpt2,
        Pretok::Cl100k,
        Pretok::O200k,
        Pretok::Whitespace,
        Pretok::Lines,
        Pretok::Llama3,
        Pretok::Cl100kHf,
        Pretok::Spaces,
    ];
    for round in 0..90 {
        let len = 200 + rng.below(3000);
        let text = lines(&mut rng, len);
        let mode = if rng.below(4) == 0 {
            Mode::Char
        } else {
            Mode::Byte
        };
        let by_line = mode == Mode::Byte && rng.below(3) == 0;
        let options = ChunkOptions {
            mode,
            pretok: if mode == Mode::Byte {
                pretoks[rng.below(pretoks.len())]
            } else {
                Pretok::default()
            },
            digits: if mode == Mode::Byte {
                [Digits::Keep, Digits::Single, Digits::Groups3][rng.below(3)]
            } else {
                Digits::Keep
            },
            by_line,
        };
        let tie = match mode {
            Mode::Byte => [TieRule::First, TieRule::Lex, TieRule::Hf][rng.below(3)],
            Mode::Char => [TieRule::First, TieRule::Lex][rng.below(2)],
        };
        let config = TrainerConfig {
            mode,
            pretok: options.pretok,
            digits: options.digits,
            tie,
            by_line,
            max_merges: Some(rng.below(120)),
            ..TrainerConfig::default()
        };
        // Cuts at random bytes (inside characters, lines and runs of
        // spaces or digits), in order; an empty shard now and then.
        let mut cuts: Vec<usize> = (0..rng.below(8))
            .map(|_| rng.below(text.len() + 1))
            .collect();
        cuts.sort_unstable();
        let mut bounds = vec![0];
        bounds.extend(&cuts);
        bounds.push(text.len());

        // Each shard counted alone, the shards split between two workers,
        // each worker's file written and read back, then summed.
        let split = rng.below(bounds.len());
        let mut workers = [ChunkCounts::new(options), ChunkCounts::new(options)];
        for (i, w) in bounds.windows(2).enumerate() {
            let (shard, cut) = shard_corpus(&text[w[0]..w[1]], options);
            workers[usize::from(i >= split)]
                .add_shard(&shard, cut, i as u64)
                .expect("added");
        }
        let mut reader = CountReader::new();
        for (k, w) in workers.iter().enumerate() {
            let parquet = rng.below(2) == 0;
            let path = round_trip(&dir, w, &format!("r{round}-w{k}"), parquet);
            reader.read(&path).expect("read back");
        }
        let summed = reader.finish().expect("two files read");
        assert_eq!(summed.source_bytes(), text.len() as u64, "round {round}");

        let what = format!(
            "round {round}: {}, tie {tie}, {} shards",
            options.describe(),
            bounds.len() - 1
        );
        let whole =
            Corpus::new(text.clone(), mode, options.chunker(), false, by_line).expect("counted");
        let (got, got_tokens) = merges_of(summed.into_corpus().expect("a corpus"), config.clone());
        let (want, want_tokens) = merges_of(whole, config);
        assert_eq!(got, want, "{what}");
        assert_eq!(got_tokens, want_tokens, "{what}");
    }
}

#[test]
fn summing_is_the_same_in_any_grouping_and_keeps_the_first_place() {
    let options = ChunkOptions {
        mode: Mode::Byte,
        pretok: Pretok::Gpt2,
        digits: Digits::Keep,
        by_line: true,
    };
    let shards = ["the cat\n", "a cat\nthe end\n", "cat cat\n"];
    let corpora: Vec<Corpus> = shards
        .iter()
        .map(|s| whole_corpus(s.as_bytes(), options))
        .collect();
    let mut left = ChunkCounts::new(options);
    left.add_corpus(&corpora[0], 0).unwrap();
    left.add_corpus(&corpora[1], 1).unwrap();
    let mut right = ChunkCounts::new(options);
    right.add_corpus(&corpora[2], 2).unwrap();
    left.absorb(&right).unwrap();

    let mut reversed = ChunkCounts::new(options);
    reversed.add_corpus(&corpora[2], 2).unwrap();
    reversed.add_corpus(&corpora[1], 1).unwrap();
    reversed.add_corpus(&corpora[0], 0).unwrap();

    let rows = |c: &ChunkCounts| -> Vec<(String, u64, (u64, u64))> {
        c.in_corpus_order()
            .into_iter()
            .map(|(b, n, f)| (String::from_utf8_lossy(b).into(), n, (f.shard, f.offset)))
            .collect()
    };
    let expected = vec![
        ("the".to_string(), 2, (0, 0)),
        (" cat".to_string(), 3, (0, 3)),
        ("\n".to_string(), 4, (0, 7)),
        ("a".to_string(), 1, (1, 0)),
        (" end".to_string(), 1, (1, 9)),
        ("cat".to_string(), 1, (2, 0)),
    ];
    assert_eq!(rows(&left), expected);
    assert_eq!(rows(&reversed), expected);
    assert_eq!(left.source_bytes(), 30);
}

#[test]
fn dropping_rare_chunks_says_what_it_dropped() {
    let dir = Scratch::new("counts-dropped");
    let options = ChunkOptions {
        mode: Mode::Byte,
        pretok: Pretok::Gpt2,
        digits: Digits::Keep,
        by_line: false,
    };
    let corpus = whole_corpus(b"the cat the dog the cat", options);
    let mut counts = ChunkCounts::from_corpus(options, &corpus, 0).unwrap();
    assert_eq!(counts.len(), 4); // "the" 1, " cat" 2, " the" 2, " dog" 1
    let dropped = counts.keep_at_least(2);
    assert_eq!(dropped.chunks, 2); // "the", " dog"
    assert_eq!(dropped.covered, 7);
    assert_eq!(counts.len(), 2);
    assert_eq!(counts.min_chunk_count(), Some(2));
    // What was dropped is said in the file and comes back when read.
    let path = round_trip(&dir, &counts, "dropped", true);
    let mut reader = CountReader::new();
    reader.read(&path).unwrap();
    assert_eq!(reader.finish().unwrap().min_chunk_count(), Some(2));
}

#[test]
fn every_byte_survives_the_tsv_escapes() {
    let mut rng = Rng(3);
    for _ in 0..500 {
        let len = rng.below(12);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        let mut field = Vec::new();
        count_file::escape(&bytes, &mut field);
        assert!(!field.contains(&b'\t') && !field.contains(&b'\n'));
        assert_ne!(field.first(), Some(&b'#'));
        assert_eq!(count_file::unescape(&field).unwrap(), bytes, "{field:?}");
    }
}

/// All rows of a count file, read back.
fn rows_of(path: &std::path::Path) -> (count_file::Header, Vec<count_file::CountRow>) {
    try_rows_of(path).expect("read back")
}

/// The reduce step merges sorted files in one pass; it must write the rows
/// that summing in a table and dropping rare chunks writes.
#[test]
fn the_one_pass_merge_writes_what_summing_in_a_table_writes() {
    let dir = Scratch::new("counts-one-pass");
    use bpeek::counts::count_file::CountFormat;
    use bpeek::counts::count_merge;
    let mut rng = Rng(41);
    let options = ChunkOptions {
        mode: Mode::Byte,
        pretok: Pretok::Gpt2,
        digits: Digits::Keep,
        by_line: false,
    };
    for round in 0..40 {
        let files = 1 + rng.below(6);
        let mut paths = Vec::new();
        let mut table = ChunkCounts::new(options);
        for f in 0..files {
            let len = rng.below(1500);
            let text = lines(&mut rng, len);
            // Neighbouring shards cut anywhere: their edges meet in the merge.
            let mut counts = ChunkCounts::new(options);
            let (corpus, cut) = shard_corpus(&text, options);
            counts.add_shard(&corpus, cut, f as u64).unwrap();
            table.absorb(&counts).unwrap();
            paths.push(round_trip(
                &dir,
                &counts,
                &format!("m{round}-{f}"),
                rng.below(2) == 0,
            ));
        }
        let min = 1 + rng.below(4) as u64;
        let expected_drop = table.keep_at_least(min);
        let merged = dir.join(format!("m{round}-out"));
        let mut out = Vec::new();
        let format = if rng.below(2) == 0 {
            CountFormat::Parquet
        } else {
            CountFormat::Tsv
        };
        assert!(count_merge::can_merge_in_one_pass(&paths).unwrap());
        let m = count_merge::merge(&paths, min, format, &mut out).unwrap();
        std::fs::write(&merged, out).unwrap();
        assert_eq!(m.dropped, expected_drop, "round {round}");
        assert_eq!(m.kept, table.len() as u64, "round {round}");
        let (header, rows) = rows_of(&merged);
        assert_eq!(
            header.source_bytes,
            Some(table.source_bytes()),
            "round {round}"
        );
        assert_eq!(header.runs, table.runs().runs(), "round {round}");
        let want: Vec<_> = table
            .in_chunk_order()
            .map(|(c, n, f)| count_file::CountRow {
                chunk: c.to_vec(),
                count: n,
                first: f,
            })
            .collect();
        assert_eq!(rows, want, "round {round}");
    }
}

/// Every single bit of a count file bpeek wrote flipped in turn: the file
/// is refused, or what is read from it (rows, options, edges, sizes) is
/// exactly what was written. No flip changes a chunk unnoticed.
#[test]
fn no_single_bit_flip_changes_what_a_count_file_says_unnoticed() {
    let dir = Scratch::new("counts-flips");
    let options = ChunkOptions {
        mode: Mode::Byte,
        pretok: Pretok::Gpt2,
        digits: Digits::Keep,
        by_line: false,
    };
    let mut rng = Rng(7);
    let text = lines(&mut rng, 600);
    let mut counts = ChunkCounts::new(options);
    let (corpus, cut) = shard_corpus(&text[5..], options);
    counts.add_shard(&corpus, cut, 3).unwrap();
    let path = round_trip(&dir, &counts, "flips.parquet", true);
    let want = rows_of(&path);
    let bytes = std::fs::read(&path).unwrap();
    let pages = covered_by_checksum(&bytes);
    let (mut refused, mut same) = (0, 0);
    for bit in 0..bytes.len() * 8 {
        let mut bad = bytes.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let flipped = dir.join("flipped.parquet");
        std::fs::write(&flipped, &bad).unwrap();
        match try_rows_of(&flipped) {
            Err(_) => refused += 1,
            Ok(got) => {
                assert!(bit / 8 >= pages, "bit {bit} of the pages passed unnoticed");
                assert_eq!(got, want, "bit {bit} changed what the file says");
                same += 1;
            }
        }
    }
    // Every flip in the pages is found; in the footer, only flips of what
    // bpeek does not read (statistics, sizes it checks otherwise) pass.
    assert!(refused >= pages * 8, "{refused} refused, {same} read alike");
}

/// The bytes the checksum covers: N in the `crc32 HEX N` bpeek writes.
fn covered_by_checksum(file: &[u8]) -> usize {
    let at = file
        .windows(6)
        .position(|w| w == b"crc32 ")
        .expect("a checksum");
    let text: String = file[at + 15..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| b as char)
        .collect();
    text.parse().expect("a length")
}

/// All rows of a count file, or why it was refused.
fn try_rows_of(
    path: &std::path::Path,
) -> bpeek::bpe::error::Result<(count_file::Header, Vec<count_file::CountRow>)> {
    let (header, mut source) = bpeek::counts::count_rows::RowSource::open(path)?;
    let mut all = Vec::new();
    let mut batch = Vec::new();
    loop {
        // Small batches, so a file's rows are read across many.
        source.next_batch(5, &mut batch)?;
        if batch.is_empty() {
            return Ok((header, all));
        }
        all.append(&mut batch);
    }
}
