//! One merge of `bpeek train`'s report, written straight into the output:
//! the same bytes its `serde_json` value (keys in order) or its text row
//! prints, without building a value, a map and strings for each of tens of
//! thousands of merges. A merge is written into a buffer the caller keeps
//! and hands to the output whole: a call through the output for every
//! number cost more than the numbers.

use bpeek_core::Mode;
use bpeek_core::display::{token_text, token_visible_borrowed};
use bpeek_core::train::trainer::{PairScore, Round};
use bpeek_core::vocab::Vocab;
use std::io::{self, Write};

/// Merges formatted into one buffer before it is written.
const BLOCK: usize = 2048;

/// Every merge of `merges` as `one` writes it (given its index), in order.
/// Blocks of merges are formatted by this thread and a second one by
/// turns: to 50,000 merges on a megabyte, formatting the report was a
/// tenth of the whole run. At most a few blocks wait at once.
pub fn write_all<F>(out: &mut dyn Write, merges: &[Round], one: F) -> io::Result<()>
where
    F: Fn(&mut Vec<u8>, usize, &Round) -> io::Result<()> + Sync,
{
    write_blocks(out, merges, BLOCK, one)
}

/// [`write_all`] with blocks of `size` merges.
fn write_blocks<F>(out: &mut dyn Write, merges: &[Round], size: usize, one: F) -> io::Result<()>
where
    F: Fn(&mut Vec<u8>, usize, &Round) -> io::Result<()> + Sync,
{
    let block = |k: usize, buf: &mut Vec<u8>| -> io::Result<()> {
        buf.clear();
        let start = k * size;
        let end = (start + size).min(merges.len());
        for (i, m) in merges[start..end].iter().enumerate() {
            one(buf, start + i, m)?;
        }
        Ok(())
    };
    let blocks = merges.len().div_ceil(size);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut mine = Vec::new();
    if blocks < 2 || cores < 2 {
        for k in 0..blocks {
            block(k, &mut mine)?;
            out.write_all(&mine)?;
        }
        return Ok(());
    }
    std::thread::scope(|scope| {
        let (made, ready) = std::sync::mpsc::sync_channel::<io::Result<Vec<u8>>>(2);
        let block = &block;
        scope.spawn(move || {
            for k in (1..blocks).step_by(2) {
                let mut buf = Vec::new();
                // A send fails only once this thread's output has failed.
                if made.send(block(k, &mut buf).map(|()| buf)).is_err() {
                    return;
                }
            }
        });
        for k in 0..blocks {
            if k % 2 == 0 {
                block(k, &mut mine)?;
                out.write_all(&mine)?;
            } else {
                let theirs = ready
                    .recv()
                    .map_err(|_| io::Error::other("the report's second writer stopped"))??;
                out.write_all(&theirs)?;
            }
        }
        Ok(())
    })
}

/// Write an unsigned number in decimal.
fn number(out: &mut Vec<u8>, n: u64) -> io::Result<()> {
    out.write_all(itoa::Buffer::new().format(n).as_bytes())
}

/// Write a byte's value in decimal: a token's bytes are most of a merge's
/// numbers.
fn byte_number(out: &mut Vec<u8>, b: u8) {
    if b >= 100 {
        out.push(b'0' + b / 100);
    }
    if b >= 10 {
        out.push(b'0' + b / 10 % 10);
    }
    out.push(b'0' + b % 10);
}

/// Write `s` as a JSON string, escaped as serde_json escapes it.
fn string(out: &mut Vec<u8>, s: &str) -> io::Result<()> {
    serde_json::to_writer(out, s).map_err(io::Error::from)
}

/// `[a,b]`, or in char mode the two tokens' texts.
fn pair(out: &mut Vec<u8>, vocab: &Vocab, (a, b): (u32, u32)) -> io::Result<()> {
    out.write_all(b"[")?;
    match vocab.mode() {
        Mode::Byte => {
            number(out, a.into())?;
            out.write_all(b",")?;
            number(out, b.into())?;
        }
        Mode::Char => {
            string(out, &token_text(vocab.token_bytes(a)))?;
            out.write_all(b",")?;
            string(out, &token_text(vocab.token_bytes(b)))?;
        }
    }
    out.write_all(b"]")
}

/// `{"count":..,"left":..,"right":..,"value":..}`.
fn score(out: &mut Vec<u8>, s: &PairScore) -> io::Result<()> {
    out.write_all(b"{\"count\":")?;
    number(out, s.count)?;
    out.write_all(b",\"left\":")?;
    number(out, s.left)?;
    out.write_all(b",\"right\":")?;
    number(out, s.right)?;
    out.write_all(b",\"value\":")?;
    // serde_json's own float form (and `null` where there is no number).
    serde_json::to_writer(&mut *out, &s.value()).map_err(io::Error::from)?;
    out.write_all(b"}")
}

/// The merge as one JSON object, its keys in sorted order as the report's
/// value prints them.
pub fn write_json(out: &mut Vec<u8>, vocab: &Vocab, m: &Round) -> io::Result<()> {
    let bytes = vocab.token_bytes(m.id);
    out.write_all(b"{\"bytes\":[")?;
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        byte_number(out, b);
    }
    out.write_all(b"],\"count\":")?;
    number(out, m.count)?;
    out.write_all(b",\"id\":")?;
    number(out, m.id.into())?;
    let scored = m.choice.score;
    if scored.is_some()
        && let Some((lost, its)) = &m.choice.most_frequent
    {
        out.write_all(b",\"most_frequent\":{\"pair\":")?;
        pair(out, vocab, *lost)?;
        out.write_all(b",\"score\":")?;
        score(out, its)?;
        out.write_all(b"}")?;
    }
    out.write_all(b",\"pair\":")?;
    pair(out, vocab, m.pair)?;
    out.write_all(b",\"rank\":")?;
    number(out, m.rank as u64)?;
    out.write_all(b",\"replacements\":")?;
    number(out, m.replacements)?;
    if let Some(s) = &scored {
        out.write_all(b",\"score\":")?;
        score(out, s)?;
    }
    out.write_all(b",\"text\":")?;
    string(out, &token_text(bytes))?;
    out.write_all(b"}")
}

/// The merge as a row of the text report: rank, id, count, places
/// replaced, the score if `scored`, and the two tokens and the new one.
pub fn write_text(out: &mut Vec<u8>, vocab: &Vocab, m: &Round, scored: bool) -> io::Result<()> {
    padded(out, m.rank as u64, 5);
    out.push(b' ');
    padded(out, m.id.into(), 7);
    out.push(b' ');
    padded(out, m.count, 9);
    out.push(b' ');
    padded(out, m.replacements, 9);
    match (scored, m.choice.score) {
        (true, Some(s)) => write!(out, " {:>9.4}", s.value())?,
        (true, None) => write!(out, " {:>9}", "-")?,
        (false, _) => {}
    }
    let mut token = |before: &[u8], id| {
        out.extend_from_slice(before);
        out.extend_from_slice(token_visible_borrowed(vocab.token_bytes(id)).as_bytes());
    };
    token(b"  \"", m.pair.0);
    token(b"\" + \"", m.pair.1);
    token(b"\" -> \"", m.id);
    out.extend_from_slice(b"\"\n");
    Ok(())
}

/// `n` right-aligned in `width` columns, as `{:>width$}` writes it.
fn padded(out: &mut Vec<u8>, n: u64, width: usize) {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(n);
    out.resize(out.len() + width.saturating_sub(digits.len()), b' ');
    out.extend_from_slice(digits.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpeek_core::{Trainer, TrainerConfig};

    /// The merges written in blocks of any size, on two threads by
    /// turns, are the bytes of writing them one by one in order.
    #[test]
    fn merges_written_in_blocks_are_the_merges_in_order() {
        let text =
            b"low lower lowest newer wider widest slower slowest \"q\" \xe0\xa4\xb9 ".repeat(3);
        let config = TrainerConfig {
            max_merges: Some(45),
            ..Default::default()
        };
        let mut trainer = Trainer::new(text, config).unwrap();
        while trainer.step().is_ok() {}
        let merges = trainer.merges();
        let n = merges.len();
        assert!(n >= 20, "{n} merges");
        let vocab = trainer.vocab();
        let json = |line: &mut Vec<u8>, i: usize, m: &Round| {
            if i > 0 {
                line.push(b',');
            }
            write_json(line, vocab, m)
        };
        let mut plain = Vec::new();
        for (i, m) in merges.iter().enumerate() {
            json(&mut plain, i, m).unwrap();
        }
        for size in [1, 2, 3, 7, n - 1, n, n + 1, 1000] {
            let mut blocks = Vec::new();
            write_blocks(&mut blocks, merges, size, json).unwrap();
            assert_eq!(blocks, plain, "blocks of {size}");
        }
        let mut none = Vec::new();
        write_blocks(&mut none, &[], 3, json).unwrap();
        assert!(none.is_empty());
    }
}
