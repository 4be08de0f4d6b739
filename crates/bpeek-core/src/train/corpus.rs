//! A corpus as its distinct chunks, each with a frequency, and where every
//! occurrence of each chunk sits in the text.

use crate::error::{Error, Result};
use crate::names::Mode;
use crate::pretokenize::pretok::Chunker;
use crate::train::shard_edges::{CutRule, ShardCut};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// One distinct chunk: where it first appears and how often it appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    pub start: u32,
    pub len: u32,
    pub freq: u64,
}

/// One place in the text where a chunk appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    pub start: u32,
    pub chunk: u32,
}

#[derive(Debug, Clone)]
pub struct Corpus {
    /// The text, or (for a corpus counted as it was read) each distinct
    /// chunk's bytes once, in order of first appearance.
    text: Vec<u8>,
    chunks: Vec<Chunk>,
    occurrences: Vec<Occurrence>,
    /// Bytes of the text the corpus was made from.
    source_len: usize,
    /// Where each chunk first appears in the text, when `chunks[i].start`
    /// is a place in `text` that is not the place in the source (a corpus
    /// counted as it was read); empty otherwise.
    first_offsets: Vec<u64>,
    /// Whether `text` is the source text (not only its distinct chunks).
    whole_text: bool,
}

impl Corpus {
    /// Cut `text` into chunks: by `chunker` in byte mode, into
    /// whitespace-separated words in char mode (which needs valid UTF-8).
    /// With `positions` off, where each occurrence sits is not kept (see
    /// [`Corpus::occurrences`]). With `by_line`, each line (with its `\n`)
    /// is cut on its own, so no chunk spans a line break.
    pub fn new(
        text: Vec<u8>,
        mode: Mode,
        chunker: Chunker,
        positions: bool,
        by_line: bool,
    ) -> Result<Self> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PARTS));
        let parts = if text.len() >= PARALLEL_FROM {
            threads
        } else {
            1
        };
        Self::new_in_parts(text, mode, chunker, positions, by_line, parts)
    }

    /// [`Corpus::new`], counting up to `parts` pieces of the text on threads
    /// of their own where it can be cut where no chunk crosses. The result
    /// is the same however many parts: chunks keep the order in which they
    /// first appear in the whole text.
    pub fn new_in_parts(
        text: Vec<u8>,
        mode: Mode,
        chunker: Chunker,
        positions: bool,
        by_line: bool,
        parts: usize,
    ) -> Result<Self> {
        if text.len() > u32::MAX as usize {
            return Err(Error::input("corpus is larger than 4 GiB"));
        }
        let cuts = if mode == Mode::Byte && (by_line || cuts_at_lines(chunker)) {
            cut_points(&text, parts)
        } else {
            vec![0, text.len()]
        };
        let count = |range: Range<usize>| -> Result<Part> {
            count_part(&text, range, mode, chunker, positions, by_line)
        };
        let mut counted: Vec<Result<Part>> = if cuts.len() == 2 {
            vec![count(0..text.len())]
        } else {
            std::thread::scope(|scope| {
                let count = &count;
                let handles: Vec<_> = cuts
                    .windows(2)
                    .skip(1)
                    .map(|w| {
                        let range = w[0]..w[1];
                        scope.spawn(move || count(range))
                    })
                    .collect();
                let mut all = vec![count(cuts[0]..cuts[1])];
                for h in handles {
                    all.push(h.join().unwrap_or_else(|_| {
                        Err(Error::failure("counting a part of the corpus failed"))
                    }));
                }
                all
            })
        };
        let mut first = counted.remove(0)?;
        for part in counted {
            first.absorb(&text, part?);
        }
        let Part {
            chunks,
            mut occurrences,
            ..
        } = first;
        if occurrences.capacity() > 2 * occurrences.len() {
            // Long chunks: the room sized for prose is mostly unused.
            occurrences.shrink_to_fit();
        }
        Ok(Corpus {
            source_len: text.len(),
            text,
            chunks,
            occurrences,
            first_offsets: Vec::new(),
            whole_text: true,
        })
    }

    /// A corpus of distinct chunks counted elsewhere: `text` holds each
    /// chunk's bytes (where `chunks[i].start` points), chunks are in order
    /// of first appearance, and the source text had `source_len` bytes.
    pub fn from_counted(text: Vec<u8>, chunks: Vec<Chunk>, source_len: usize) -> Self {
        Corpus {
            text,
            chunks,
            occurrences: Vec::new(),
            source_len,
            first_offsets: Vec::new(),
            whole_text: false,
        }
    }

    /// The byte offset in the source text where chunk `i` first appears.
    pub fn first_offset(&self, i: usize) -> u64 {
        match self.first_offsets.get(i) {
            Some(&at) => at,
            None => u64::from(self.chunks[i].start),
        }
    }

    /// Whether the corpus holds its text (not only its distinct chunks).
    pub fn has_text(&self) -> bool {
        self.whole_text
    }

    /// The text; for a corpus counted as it was read
    /// ([`Corpus::count_stream`]), each distinct chunk once instead.
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// How many bytes the text the corpus was made from has.
    pub fn source_len(&self) -> usize {
        self.source_len
    }

    /// Whether [`Corpus::count_stream`] can count text cut this way.
    pub fn can_stream(mode: Mode, chunker: Chunker, by_line: bool) -> bool {
        mode == Mode::Byte && (by_line || cuts_at_lines(chunker))
    }

    /// Count the chunks of the text `read` gives, a block at a time, never
    /// holding the whole text: only each distinct chunk is kept. Where each
    /// occurrence sits is not kept. The chunks, their counts and their order
    /// are those [`Corpus::new`] gives for the same text; only where a
    /// chunk's bytes sit differs. `what` names the source in errors; `read`
    /// is told how many bytes have been read so far.
    pub fn count_stream(
        read: impl std::io::Read,
        chunker: Chunker,
        by_line: bool,
        what: &str,
        progress: impl FnMut(usize),
    ) -> Result<Self> {
        Self::count_stream_in_blocks(read, chunker, by_line, what, progress, STREAM_BLOCK)
    }

    /// [`Corpus::count_stream`], reading about `block` bytes at a time.
    pub fn count_stream_in_blocks(
        read: impl std::io::Read,
        chunker: Chunker,
        by_line: bool,
        what: &str,
        progress: impl FnMut(usize),
        block_size: usize,
    ) -> Result<Self> {
        let blocks = Blocks::new(read, by_line, what, block_size);
        Ok(blocks.count(chunker, progress, false)?.0)
    }

    /// [`Corpus::count_stream`] for a shard cut anywhere: only the text
    /// between its first and last places to cut is counted; the text before
    /// and after is kept apart (see [`crate::train::shard_edges`]). Offsets
    /// are from the head's end, where the counted text starts.
    pub fn count_shard_stream(
        read: impl std::io::Read,
        chunker: Chunker,
        by_line: bool,
        what: &str,
        progress: impl FnMut(usize),
    ) -> Result<(Self, ShardCut)> {
        Self::count_shard_stream_in_blocks(read, chunker, by_line, what, progress, STREAM_BLOCK)
    }

    /// [`Corpus::count_shard_stream`], reading about `block` bytes at a time.
    pub fn count_shard_stream_in_blocks(
        read: impl std::io::Read,
        chunker: Chunker,
        by_line: bool,
        what: &str,
        progress: impl FnMut(usize),
        block_size: usize,
    ) -> Result<(Self, ShardCut)> {
        let blocks = Blocks::new(read, by_line, what, block_size);
        let (corpus, cut) = blocks.count(chunker, progress, true)?;
        Ok((
            corpus,
            cut.unwrap_or_else(|| ShardCut::of(b"", CutRule::Nowhere).0),
        ))
    }

    /// Distinct chunks in order of first appearance.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    pub fn chunk_bytes(&self, i: usize) -> &[u8] {
        let c = self.chunks[i];
        &self.text[c.start as usize..(c.start + c.len) as usize]
    }

    /// Every chunk occurrence, in text order (none if the corpus was made
    /// without positions).
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    /// The occurrences that overlap the byte range `range`.
    pub fn occurrences_in(&self, range: Range<usize>) -> &[Occurrence] {
        let len = |o: &Occurrence| self.chunks[o.chunk as usize].len as usize;
        let first = self
            .occurrences
            .partition_point(|o| o.start as usize + len(o) <= range.start);
        let last = self
            .occurrences
            .partition_point(|o| (o.start as usize) < range.end);
        &self.occurrences[first..last.max(first)]
    }
}

/// Texts this long or longer are counted on more than one thread.
const PARALLEL_FROM: usize = 4 << 20;

/// Threads used for counting at most.
const MAX_PARTS: usize = 8;

/// Bytes read at a time by [`Corpus::count_stream`].
const STREAM_BLOCK: usize = 8 << 20;

/// [`last_cut`] where the first `known` bytes of `block` hold no place to
/// cut: only the places whose bytes reach past them are looked at.
fn last_cut_after(block: &[u8], known: usize, by_line: bool) -> Option<usize> {
    // A place to cut is read from the two bytes before it and the one at it.
    let from = known.min(block.len()).saturating_sub(2);
    last_cut(&block[from..], by_line).map(|at| at + from)
}

/// The most bytes read with no place found to cut them: a chunk's length
/// and place are 32-bit numbers.
const MAX_UNCUT: usize = u32::MAX as usize;

/// The last place in `block` where it can be cut (see [`cut_points`]; any
/// line break when lines are cut on their own).
fn last_cut(block: &[u8], by_line: bool) -> Option<usize> {
    if by_line {
        return block.iter().rposition(|&b| b == b'\n').map(|i| i + 1);
    }
    block
        .windows(3)
        .rposition(|w| w[0].is_ascii_graphic() && w[1] == b'\n' && w[2].is_ascii_alphanumeric())
        .map(|i| i + 2)
}

/// Where to cut `text` into about `parts` pieces when each line is cut on
/// its own: after any line break.
fn cut_points_by_line(text: &[u8], parts: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..parts.max(1) {
        let aim = (text.len() * k / parts).max(*cuts.last().unwrap_or(&0));
        match text[aim..].iter().position(|&b| b == b'\n') {
            Some(i) if aim + i + 1 < text.len() => cuts.push(aim + i + 1),
            _ => break,
        }
    }
    cuts.push(text.len());
    cuts
}

/// Pre-tokenizers that never make a chunk that crosses from a line break
/// into a line that starts with an ASCII letter or digit.
fn cuts_at_lines(chunker: Chunker) -> bool {
    use crate::pretokenize::pretok::Pretok;
    matches!(
        chunker.pretok,
        Pretok::Gpt2 | Pretok::Cl100k | Pretok::O200k | Pretok::Whitespace | Pretok::Lines
    )
}

/// Where to cut `text` into about `parts` pieces: just after a `\n` that is
/// followed by an ASCII letter or digit and follows a visible ASCII
/// character (a run of whitespace at the very end of a piece would be cut
/// differently from the same run before a letter). Starts with 0 and ends
/// with the length.
fn cut_points(text: &[u8], parts: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..parts.max(1) {
        let aim = (text.len() * k / parts).max(*cuts.last().unwrap_or(&0));
        let found = text[aim..]
            .windows(3)
            .position(|w| w[0].is_ascii_graphic() && w[1] == b'\n' && w[2].is_ascii_alphanumeric())
            .map(|i| aim + i + 2);
        match found {
            Some(at) if at > *cuts.last().unwrap_or(&0) && at < text.len() => cuts.push(at),
            _ => break,
        }
    }
    cuts.push(text.len());
    cuts
}

/// Reads into `block` until it holds `block_size` bytes (at least a
/// quarter block more than it did), or the source ends: how many bytes
/// were added, and whether the source ended. A short read is not the end.
fn fill_block(
    read: &mut impl std::io::Read,
    block: &mut Vec<u8>,
    block_size: usize,
    what: &str,
) -> Result<(usize, bool)> {
    let want = block_size
        .saturating_sub(block.len())
        .max(block_size / 4)
        .max(1);
    let before = block.len();
    block.resize(before + want, 0);
    let mut got = before;
    let mut done = false;
    while got < block.len() {
        match read.read(&mut block[got..]) {
            Ok(0) => {
                done = true;
                break;
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::input(format!("{what}: cannot read: {e}"))),
        }
    }
    block.truncate(got);
    Ok((got - before, done))
}

/// Where the piece of `block` to count now ends: all of it once the source
/// has `done`, else its last place to cut; `None` to read on first, as
/// there is nowhere to cut yet. The first `searched` bytes are known to
/// hold no place to cut.
fn piece_end(
    block: &[u8],
    searched: usize,
    by_line: bool,
    done: bool,
    what: &str,
) -> Result<Option<usize>> {
    if done {
        return Ok(Some(block.len()));
    }
    match last_cut_after(block, searched, by_line) {
        Some(at) => Ok(Some(at)),
        // Read on, up to what a chunk can hold (an endless run such as
        // /dev/zero ends here).
        None if block.len() < MAX_UNCUT => Ok(None),
        None => Err(Error::input(format!(
            "{what}: more than 4 GiB with no place to cut it into chunks; bpeek keeps a chunk up to 4 GiB"
        ))),
    }
}

/// The chunks of `piece` (byte mode, no positions), counted in up to
/// `threads` parts cut where no chunk crosses, each on a thread of its
/// own; the parts in order.
fn count_in_parts(
    piece: &[u8],
    chunker: Chunker,
    by_line: bool,
    threads: usize,
) -> Vec<Result<Part<'_>>> {
    let cuts = if by_line {
        cut_points_by_line(piece, threads)
    } else {
        cut_points(piece, threads)
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let range = w[0]..w[1];
                scope.spawn(move || count_part(piece, range, Mode::Byte, chunker, false, by_line))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::failure("counting a part of the corpus failed")))
            })
            .collect()
    })
}

/// A text read a block at a time and counted up to its places to cut
/// ([`Corpus::count_stream`]).
struct Blocks<'w, R> {
    read: R,
    by_line: bool,
    what: &'w str,
    block_size: usize,
    block: Vec<u8>,
    /// Bytes read so far.
    total: usize,
    /// Whether the source has ended.
    done: bool,
}

impl<'w, R: std::io::Read> Blocks<'w, R> {
    fn new(read: R, by_line: bool, what: &'w str, block_size: usize) -> Self {
        let block_size = block_size.max(1);
        Blocks {
            read,
            by_line,
            what,
            block_size,
            block: Vec::with_capacity(block_size + block_size / 4),
            total: 0,
            done: false,
        }
    }

    fn fill(&mut self, progress: &mut impl FnMut(usize)) -> Result<()> {
        let (added, ended) =
            fill_block(&mut self.read, &mut self.block, self.block_size, self.what)?;
        self.done = ended;
        self.total += added;
        progress(self.total);
        Ok(())
    }

    /// Read until a place to cut is found: the text before it (taken out
    /// of the block), or `None` when the source ends with no place to cut.
    fn head(&mut self, progress: &mut impl FnMut(usize)) -> Result<Option<Vec<u8>>> {
        let rule = if self.by_line {
            CutRule::AfterLineBreak
        } else {
            CutRule::BeforeLine
        };
        let mut searched = 0;
        loop {
            self.fill(progress)?;
            if let Some(at) = rule.first_cut(&self.block, searched) {
                return Ok(Some(self.block.drain(..at).collect()));
            }
            if self.done {
                return Ok(None);
            }
            if self.block.len() >= MAX_UNCUT {
                return Err(Error::input(format!(
                    "{}: more than 4 GiB with no place to cut it into chunks; bpeek keeps a chunk up to 4 GiB",
                    self.what
                )));
            }
            searched = self.block.len();
        }
    }

    /// The distinct chunks of the text; with `edges`, of the text between
    /// its first and last places to cut only, and where it was cut.
    fn count(
        mut self,
        chunker: Chunker,
        mut progress: impl FnMut(usize),
        edges: bool,
    ) -> Result<(Corpus, Option<ShardCut>)> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PARTS));
        let mut distinct = DistinctChunks::default();
        let mut head = Vec::new();
        if edges {
            match self.head(&mut progress)? {
                Some(h) => head = h,
                None => {
                    let text = std::mem::take(&mut self.block);
                    let cut = ShardCut::of(&text, CutRule::Nowhere).0;
                    return Ok((distinct.into_corpus(self.total), Some(cut)));
                }
            }
        }
        // Bytes of the source before the block, after the head.
        let mut consumed = 0u64;
        // The bytes at the block's start known to hold no place to cut: a
        // chunk longer than a block (a run with no space) is read on block
        // after block, and searching it all again each time would cost its
        // length squared.
        let mut searched = 0usize;
        let mut fresh = !edges;
        loop {
            if fresh {
                self.fill(&mut progress)?;
            }
            fresh = true;
            let end = if self.done && edges {
                // The text after the last place to cut is the tail.
                last_cut(&self.block, self.by_line).unwrap_or(0)
            } else {
                match piece_end(&self.block, searched, self.by_line, self.done, self.what)? {
                    Some(end) => end,
                    None => {
                        searched = self.block.len();
                        continue;
                    }
                }
            };
            let piece = &self.block[..end];
            for part in count_in_parts(piece, chunker, self.by_line, threads) {
                distinct.absorb(piece, part?, consumed, self.what)?;
            }
            self.block.drain(..end);
            // What is left follows the last place to cut.
            searched = self.block.len();
            consumed += end as u64;
            if self.done {
                break;
            }
        }
        let cut = edges.then(|| ShardCut {
            len: self.total as u64,
            head,
            tail: std::mem::take(&mut self.block),
            cut: true,
        });
        Ok((distinct.into_corpus(self.total), cut))
    }
}

/// The distinct chunks of a text read a block at a time
/// ([`Corpus::count_stream`]): each one's bytes kept once, in order of
/// first appearance, with where it first appears in the source.
#[derive(Default)]
struct DistinctChunks {
    index: FxHashMap<Box<[u8]>, u32>,
    kept: Vec<u8>,
    chunks: Vec<Chunk>,
    first_offsets: Vec<u64>,
}

impl DistinctChunks {
    /// Adds the chunks `part` counted in `piece`, which starts `consumed`
    /// bytes into the source.
    fn absorb(&mut self, piece: &[u8], part: Part<'_>, consumed: u64, what: &str) -> Result<()> {
        for c in part.chunks {
            let bytes = &piece[c.start as usize..(c.start + c.len) as usize];
            let id = match self.index.get(bytes) {
                Some(&id) => id,
                None => self.add_new(bytes, consumed + u64::from(c.start), what)?,
            };
            self.chunks[id as usize].freq += c.freq;
        }
        Ok(())
    }

    /// Keeps a chunk not seen before, first found `first_offset` bytes
    /// into the source, with no count yet: its id.
    fn add_new(&mut self, bytes: &[u8], first_offset: u64, what: &str) -> Result<u32> {
        if self.kept.len() + bytes.len() > u32::MAX as usize {
            return Err(Error::input(format!(
                "{what}: the distinct chunks hold more than 4 GiB"
            )));
        }
        let id = self.chunks.len() as u32;
        self.first_offsets.push(first_offset);
        self.chunks.push(Chunk {
            start: self.kept.len() as u32,
            len: bytes.len() as u32,
            freq: 0,
        });
        self.kept.extend_from_slice(bytes);
        self.index.insert(bytes.into(), id);
        Ok(id)
    }

    /// The corpus of the chunks, from a source of `source_len` bytes.
    fn into_corpus(self, source_len: usize) -> Corpus {
        let DistinctChunks {
            index,
            mut kept,
            chunks,
            first_offsets,
        } = self;
        drop(index);
        kept.shrink_to_fit();
        Corpus {
            text: kept,
            chunks,
            occurrences: Vec::new(),
            source_len,
            first_offsets,
            whole_text: false,
        }
    }
}

/// The chunks of one piece of the text, with their first places in the
/// whole text.
struct Part<'t> {
    index: FxHashMap<&'t [u8], u32>,
    chunks: Vec<Chunk>,
    occurrences: Vec<Occurrence>,
}

impl<'t> Part<'t> {
    /// Add `later`, a piece that comes after this one, keeping the order of
    /// first appearance.
    fn absorb(&mut self, text: &'t [u8], later: Part<'t>) {
        let ids: Vec<u32> = later
            .chunks
            .iter()
            .map(|c| {
                let bytes = &text[c.start as usize..(c.start + c.len) as usize];
                let id = *self.index.entry(bytes).or_insert_with(|| {
                    self.chunks.push(Chunk { freq: 0, ..*c });
                    (self.chunks.len() - 1) as u32
                });
                self.chunks[id as usize].freq += c.freq;
                id
            })
            .collect();
        self.occurrences
            .extend(later.occurrences.iter().map(|o| Occurrence {
                start: o.start,
                chunk: ids[o.chunk as usize],
            }));
    }
}

fn count_part(
    text: &[u8],
    range: Range<usize>,
    mode: Mode,
    chunker: Chunker,
    positions: bool,
    by_line: bool,
) -> Result<Part<'_>> {
    let mut index: FxHashMap<&[u8], u32> = FxHashMap::default();
    let mut chunks = Vec::new();
    let piece = &text[range.clone()];
    let base = range.start;
    // Sized for typical prose (about 3.5 bytes per chunk) so that a large
    // corpus never pays for a copy while this grows; the first part also
    // takes the others' places, so it is sized for the whole text.
    let room = if base == 0 { text.len() } else { piece.len() };
    let mut occurrences = Vec::with_capacity(if positions { room / 3 + 1 } else { 0 });
    let mut add = |r: Range<usize>| {
        let r = base + r.start..base + r.end;
        let bytes = &text[r.clone()];
        let id = *index.entry(bytes).or_insert_with(|| {
            chunks.push(Chunk {
                start: r.start as u32,
                len: bytes.len() as u32,
                freq: 0,
            });
            (chunks.len() - 1) as u32
        });
        chunks[id as usize].freq += 1;
        if positions {
            occurrences.push(Occurrence {
                start: r.start as u32,
                chunk: id,
            });
        }
    };
    match mode {
        Mode::Byte if by_line => {
            for line in piece.split_inclusive(|&b| b == b'\n') {
                let at = line.as_ptr() as usize - piece.as_ptr() as usize;
                chunker.for_each_chunk(line, |r| add(at + r.start..at + r.end));
            }
        }
        Mode::Byte => chunker.for_each_chunk(piece, &mut add),
        Mode::Char => for_each_word(piece, &mut add)?,
    }
    Ok(Part {
        index,
        chunks,
        occurrences,
    })
}

/// Whitespace-separated words, for char mode.
fn for_each_word(text: &[u8], mut out: impl FnMut(Range<usize>)) -> Result<()> {
    let s = std::str::from_utf8(text).map_err(|e| {
        Error::input(format!(
            "invalid UTF-8 at byte offset {} (char mode needs UTF-8 text; byte mode accepts any bytes)",
            e.valid_up_to()
        ))
    })?;
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(st)) => {
                out(st..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out(st..s.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rolls;

    /// Searching only past the bytes known to hold no place to cut finds
    /// the place a search of the whole block finds.
    #[test]
    fn a_search_past_what_is_known_finds_the_last_cut() {
        let bytes = b"ab\n\n1 .";
        let mut roll = rolls(0x1a57);
        for _ in 0..2000 {
            let len = roll(40) as usize;
            let block: Vec<u8> = (0..len)
                .map(|_| bytes[roll(bytes.len() as u64) as usize])
                .collect();
            let by_line = roll(2) == 0;
            // The longest start with no place to cut in it.
            let known = (0..=len)
                .rev()
                .find(|&k| last_cut(&block[..k], by_line).is_none())
                .unwrap_or(0);
            for k in 0..=known {
                assert_eq!(
                    last_cut_after(&block, k, by_line),
                    last_cut(&block, by_line),
                    "{block:?}, {k} known, by line {by_line}"
                );
            }
        }
    }
}
