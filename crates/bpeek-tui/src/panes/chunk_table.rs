//! The chunk table every BPE tutorial draws: the distinct chunks (words,
//! in char mode) with their counts and their current tokens, most frequent
//! first.

use bpeek_core::{Phase, TokenId, Trainer};

/// One distinct chunk as the table lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkRow {
    /// The chunk's number (in order of first appearance).
    pub chunk: u32,
    pub count: u64,
    pub tokens: Vec<TokenId>,
    /// The pair chosen this round occurs in it.
    pub holds_chosen: bool,
    /// The last merge changed it.
    pub changed: bool,
}

/// Every distinct chunk, most frequent first (first met first among
/// equals).
pub fn order(trainer: &Trainer) -> Vec<u32> {
    let chunks = trainer.corpus().chunks();
    let mut order: Vec<u32> = (0..chunks.len() as u32).collect();
    order.sort_by(|&a, &b| {
        chunks[b as usize]
            .freq
            .cmp(&chunks[a as usize].freq)
            .then(a.cmp(&b))
    });
    order
}

/// Rows `from..from + n` of the table.
pub fn rows(trainer: &Trainer, from: usize, n: usize) -> Vec<ChunkRow> {
    let chosen = match trainer.phase() {
        Phase::Chosen(choice) => Some(trainer.chunks_holding(choice.pair)),
        _ => None,
    };
    let changed: &[u32] = match trainer.phase() {
        Phase::Merged => trainer.chunks_changed_by(trainer.merges().len() - 1),
        _ => &[],
    };
    let chunks = trainer.corpus().chunks();
    order(trainer)
        .into_iter()
        .skip(from)
        .take(n)
        .map(|c| ChunkRow {
            chunk: c,
            count: chunks[c as usize].freq,
            tokens: trainer.chunk_symbols(c as usize),
            holds_chosen: chosen.as_ref().is_some_and(|s| s.binary_search(&c).is_ok()),
            changed: changed.binary_search(&c).is_ok(),
        })
        .collect()
}
