//! The compression curve: corpus tokens after each number of merges, from
//! the merges' replacement counts (each replacement takes one token away).

use bpeek_core::Trainer;

/// Corpus tokens after 0, 1, ..., n merges (n merges made so far).
pub fn tokens_by_merge(trainer: &Trainer) -> Vec<u64> {
    let merges = trainer.merges();
    let removed: u64 = merges.iter().map(|m| m.replacements).sum();
    let mut tokens = trainer.corpus_tokens() + removed;
    let mut out = Vec::with_capacity(merges.len() + 1);
    out.push(tokens);
    for m in merges {
        tokens -= m.replacements;
        out.push(tokens);
    }
    out
}
