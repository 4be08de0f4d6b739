//! The obvious trainer the real one is checked against: it recounts every
//! pair from scratch each round. Shared by the differential tests.

#![allow(dead_code)]

use bpeek::bpe::{Pretok, TieRule, Trainer};
use std::collections::HashMap;

/// A small deterministic generator so failures can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn random_text(rng: &mut Rng, alphabet: &[&str]) -> Vec<u8> {
    let len = rng.below(80);
    let mut out = Vec::new();
    for _ in 0..len {
        out.extend_from_slice(alphabet[rng.below(alphabet.len())].as_bytes());
    }
    out
}

pub type Sym = u32;

/// What the reference learns: per merge the pair (as token strings), its
/// count and its replacements.
pub type RefMerge = ((Vec<u8>, Vec<u8>), u64, u64);

/// Full recount every round. Chunks are the distinct pieces in order of
/// first appearance, each with its frequency.
pub fn reference_train(
    chunks: Vec<(Vec<Sym>, u64)>,
    names: &mut Vec<Vec<u8>>,
    tie: TieRule,
    min: u64,
    max: usize,
) -> Vec<RefMerge> {
    let mut chunks = chunks;
    let mut merges = Vec::new();
    while merges.len() < max {
        // Insertion order of `seen` is the order pairs are first met.
        let mut counts: HashMap<(Sym, Sym), u64> = HashMap::new();
        let mut seen: Vec<(Sym, Sym)> = Vec::new();
        for (syms, freq) in &chunks {
            for w in syms.windows(2) {
                let p = (w[0], w[1]);
                let c = counts.entry(p).or_insert(0);
                if *c == 0 {
                    seen.push(p);
                }
                *c += freq;
            }
        }
        let best = match tie {
            TieRule::First => seen
                .iter()
                .copied()
                .fold(None, |best: Option<(Sym, Sym)>, p| match best {
                    Some(b) if counts[&b] >= counts[&p] => Some(b),
                    _ => Some(p),
                }),
            TieRule::Lex => seen
                .iter()
                .copied()
                .max_by(|a, b| counts[a].cmp(&counts[b]).then(b.cmp(a))),
            TieRule::Hf => seen.iter().copied().max_by(|a, b| {
                counts[a]
                    .cmp(&counts[b])
                    .then(hf_order(*b).cmp(&hf_order(*a)))
            }),
        };
        let Some(best) = best else { break };
        let count = counts[&best];
        if count < min {
            break;
        }
        let new = names.len() as Sym;
        let mut joined = names[best.0 as usize].clone();
        joined.extend_from_slice(&names[best.1 as usize]);
        names.push(joined);
        let mut replacements = 0;
        for (syms, freq) in &mut chunks {
            let mut out = Vec::new();
            let mut i = 0;
            while i < syms.len() {
                if i + 1 < syms.len() && (syms[i], syms[i + 1]) == best {
                    out.push(new);
                    replacements += *freq;
                    i += 2;
                } else {
                    out.push(syms[i]);
                    i += 1;
                }
            }
            *syms = out;
        }
        merges.push((
            (
                names[best.0 as usize].clone(),
                names[best.1 as usize].clone(),
            ),
            count,
            replacements,
        ));
    }
    merges
}

pub fn distinct<T: Clone + Eq + std::hash::Hash>(pieces: Vec<T>) -> Vec<(T, u64)> {
    let mut order: Vec<(T, u64)> = Vec::new();
    let mut index: HashMap<T, usize> = HashMap::new();
    for p in pieces {
        match index.get(&p) {
            Some(&i) => order[i].1 += 1,
            None => {
                index.insert(p.clone(), order.len());
                order.push((p, 1));
            }
        }
    }
    order
}

/// Byte mode: chunks by the pre-tokenizer, symbols are bytes.
pub fn reference_byte(
    text: &[u8],
    pretok: Pretok,
    tie: TieRule,
    min: u64,
    max: usize,
) -> Vec<RefMerge> {
    let pieces: Vec<Vec<Sym>> = pretok
        .split(text)
        .into_iter()
        .map(|r| text[r].iter().map(|&b| b as Sym).collect())
        .collect();
    let mut names: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    reference_train(distinct(pieces), &mut names, tie, min, max)
}

/// Char mode: words on whitespace, `[UNK]`=0, `</w>`=1, then sorted chars.
pub fn reference_char(text: &str, tie: TieRule, min: u64, max: usize) -> Vec<RefMerge> {
    let mut alphabet: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    alphabet.sort();
    alphabet.dedup();
    let mut names: Vec<Vec<u8>> = vec![b"[UNK]".to_vec(), b"</w>".to_vec()];
    names.extend(alphabet.iter().map(|c| c.to_string().into_bytes()));
    let id = |c: char| 2 + alphabet.binary_search(&c).unwrap() as Sym;
    let words: Vec<Vec<Sym>> = text
        .split_whitespace()
        .map(|w| w.chars().map(id).chain(std::iter::once(1)).collect())
        .collect();
    reference_train(distinct(words), &mut names, tie, min, max)
}

pub fn learned(t: &Trainer) -> Vec<RefMerge> {
    let v = t.vocab();
    t.merges()
        .iter()
        .map(|m| {
            (
                (
                    v.token_bytes(m.pair.0).to_vec(),
                    v.token_bytes(m.pair.1).to_vec(),
                ),
                m.count,
                m.replacements,
            )
        })
        .collect()
}

/// The live table must equal a recount of the trainer's own chunks, in the
/// same selection order.
pub fn assert_table_is_a_fresh_count(t: &Trainer) {
    let mut counts: HashMap<(Sym, Sym), u64> = HashMap::new();
    let mut first: HashMap<(Sym, Sym), (usize, usize)> = HashMap::new();
    for (c, chunk) in t.corpus().chunks().iter().enumerate() {
        for (i, w) in t.chunk_symbols(c).windows(2).enumerate() {
            *counts.entry((w[0], w[1])).or_insert(0) += chunk.freq;
            first.entry((w[0], w[1])).or_insert((c, i));
        }
    }
    let mut want: Vec<((Sym, Sym), u64)> = counts.into_iter().collect();
    match t.config().tie {
        TieRule::First => want.sort_by_key(|(p, c)| (std::cmp::Reverse(*c), first[p])),
        TieRule::Lex => want.sort_by_key(|(p, c)| (std::cmp::Reverse(*c), *p)),
        TieRule::Hf => want.sort_by_key(|(p, c)| (std::cmp::Reverse(*c), hf_order(*p))),
    }
    let got: Vec<((Sym, Sym), u64)> = t.pairs().iter().collect();
    assert_eq!(got, want);
}

/// Hugging Face's order of a pair in byte mode: bytes by the code point of
/// the printable character GPT-2's table gives each (space is `Ġ`), every
/// merged token after every byte, in creation order.
pub fn hf_order((a, b): (Sym, Sym)) -> (u32, u32) {
    let key = |s: Sym| {
        if s < 256 {
            bpeek::bpe::formats::byte_unicode::byte_chars()[s as usize] as u32
        } else {
            0x1_0000 + s
        }
    };
    (key(a), key(b))
}
