//! Every word's lattice, kept: the pieces change only when a prune removes
//! some, so the lattices are found once (by a walk of the seeds' trie over
//! each word) and each prune keeps the edges of the pieces left, instead
//! of walking a trie again at every EM iteration. The trie is made from the
//! seeds sorted, which is several times quicker than key by key for a
//! million of them.

use crate::models::spm::trie::Trie;
use crate::train::unigram::lattice::{Edge, PieceId, edges};
use crate::train::unigram::words::Words;

#[derive(Debug, Clone, Default)]
pub struct Lattices {
    /// Word `i`'s edges are `edges[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    edges: Vec<Edge>,
}

impl Lattices {
    /// The lattices of `words` for the pieces `texts` (a piece's id is its
    /// place in the list).
    pub fn build<'a>(words: &Words, texts: impl IntoIterator<Item = &'a str>) -> Lattices {
        let mut keys: Vec<(&[u8], PieceId)> = texts
            .into_iter()
            .enumerate()
            .map(|(id, t)| (t.as_bytes(), id as PieceId))
            .collect();
        keys.sort_unstable();
        let trie = Trie::from_sorted(keys);
        let mut out = Lattices {
            starts: Vec::with_capacity(words.len() + 1),
            edges: Vec::new(),
        };
        out.starts.push(0);
        let mut one = Vec::new();
        for (word, _) in words.iter() {
            edges(&trie, word, &mut one);
            out.edges.extend_from_slice(&one);
            out.starts.push(out.edges.len());
        }
        out.edges.shrink_to_fit();
        out
    }

    /// Word `i`'s edges, by start, shortest first.
    pub fn word(&self, i: usize) -> &[Edge] {
        &self.edges[self.starts[i]..self.starts[i + 1]]
    }

    /// The lattices with only the edges of the pieces `keep` keeps.
    pub fn filtered(&self, keep: impl Fn(PieceId) -> bool) -> Lattices {
        let mut out = Lattices {
            starts: Vec::with_capacity(self.starts.len()),
            edges: Vec::new(),
        };
        out.starts.push(0);
        for i in 0..self.starts.len() - 1 {
            out.edges
                .extend(self.word(i).iter().filter(|e| keep(e.piece)));
            out.starts.push(out.edges.len());
        }
        out.edges.shrink_to_fit();
        out
    }

    /// How many edges there are in all.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }
}
