//! A byte trie of pieces: every piece that is a prefix of a text, shortest
//! first, in one walk.
//!
//! Built with [`TrieBuilder`], then frozen into sorted edge lists: a walk
//! reads a node's few child bytes from one small slice instead of hashing
//! each step, which is most of the time Unigram spends per character.

use rustc_hash::FxHashMap;

/// Keys are byte strings; each key has a value (a piece id).
#[derive(Debug, Clone)]
pub struct Trie {
    /// Each node's value and edges, together so a step reads one place.
    nodes: Vec<Node>,
    /// Children of the root by byte, for the first step (the most frequent).
    root: Vec<u32>,
    /// The edges of each node: sorted bytes, and the child at the same place.
    bytes: Vec<u8>,
    children: Vec<u32>,
    /// Tables by byte for nodes with many children, 256 entries each.
    dense: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The value of the key ending here, or `NONE`.
    value: u32,
    /// Where the node's edges start in `bytes` and `children`.
    first: u32,
    /// How many edges it has; past `SCAN_UP_TO` they are looked up in the
    /// table at `table * 256` of `dense` instead.
    count: u32,
    table: u32,
}

const NONE: u32 = u32::MAX;

/// Past this many children a node gets a table by byte.
const SCAN_UP_TO: usize = 4;

/// At most this many tables (1 KiB each), for the nodes made first: a
/// vocabulary of a quarter of a million pieces would want tens of thousands.
const MAX_TABLES: usize = 4096;

/// Collects keys; [`TrieBuilder::build`] makes the [`Trie`].
#[derive(Debug, Default)]
pub struct TrieBuilder {
    values: Vec<u32>,
    root: Vec<u32>,
    edges: FxHashMap<(u32, u8), u32>,
}

impl TrieBuilder {
    pub fn new() -> TrieBuilder {
        TrieBuilder {
            values: vec![NONE],
            root: vec![NONE; 256],
            edges: FxHashMap::default(),
        }
    }

    /// Add `key` with `value`; a key added twice keeps its first value.
    /// Empty keys are ignored.
    pub fn insert(&mut self, key: &[u8], value: u32) {
        let Some((&first, rest)) = key.split_first() else {
            return;
        };
        let mut node = self.root[first as usize];
        if node == NONE {
            node = self.push();
            self.root[first as usize] = node;
        }
        for &b in rest {
            node = match self.edges.get(&(node, b)) {
                Some(&n) => n,
                None => {
                    let n = self.push();
                    self.edges.insert((node, b), n);
                    n
                }
            };
        }
        let v = &mut self.values[node as usize];
        if *v == NONE {
            *v = value;
        }
    }

    fn push(&mut self) -> u32 {
        self.values.push(NONE);
        (self.values.len() - 1) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.values.len() == 1
    }

    pub fn build(self) -> Trie {
        let mut edges: Vec<((u32, u8), u32)> = self.edges.into_iter().collect();
        edges.sort_unstable();
        let mut nodes = Vec::with_capacity(self.values.len());
        let mut dense = Vec::new();
        let mut at = 0;
        for (n, &value) in self.values.iter().enumerate() {
            let first = at;
            while at < edges.len() && edges[at].0.0 == n as u32 {
                at += 1;
            }
            let mut table = NONE;
            if at - first > SCAN_UP_TO && dense.len() < MAX_TABLES * 256 {
                table = (dense.len() / 256) as u32;
                let base = dense.len();
                dense.resize(base + 256, NONE);
                for &((_, byte), child) in &edges[first..at] {
                    dense[base + byte as usize] = child;
                }
            }
            nodes.push(Node {
                value,
                first: first as u32,
                count: (at - first) as u32,
                table,
            });
        }
        Trie {
            nodes,
            root: self.root,
            bytes: edges.iter().map(|e| e.0.1).collect(),
            children: edges.iter().map(|e| e.1).collect(),
            dense,
        }
    }
}

impl Trie {
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    #[inline]
    fn child(&self, node: &Node, byte: u8) -> Option<u32> {
        if node.table != NONE {
            let child = self.dense[node.table as usize * 256 + byte as usize];
            return (child != NONE).then_some(child);
        }
        let (lo, hi) = (node.first as usize, (node.first + node.count) as usize);
        let at = self.bytes[lo..hi].iter().position(|&b| b == byte)?;
        Some(self.children[lo + at])
    }

    /// Call `f(len, value)` for every key that is a prefix of `text`,
    /// shortest first.
    #[inline]
    pub fn prefixes(&self, text: &[u8], mut f: impl FnMut(usize, u32)) {
        let Some(&first) = text.first() else { return };
        let mut node = self.root[first as usize];
        if node == NONE {
            return;
        }
        let mut len = 1;
        loop {
            let here = &self.nodes[node as usize];
            if here.value != NONE {
                f(len, here.value);
            }
            let Some(&b) = text.get(len) else { return };
            match self.child(here, b) {
                Some(n) => node = n,
                None => return,
            }
            len += 1;
        }
    }

    /// Whether some key starts with `b`.
    #[inline]
    pub fn may_start(&self, b: u8) -> bool {
        self.root[b as usize] != NONE
    }

    /// The length of the longest key that is a prefix of `text`, if any.
    pub fn longest(&self, text: &[u8]) -> Option<usize> {
        let mut best = None;
        self.prefixes(text, |len, _| best = Some(len));
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trie(keys: &[&str]) -> Trie {
        let mut t = TrieBuilder::new();
        for (i, k) in keys.iter().enumerate() {
            t.insert(k.as_bytes(), i as u32);
        }
        t.build()
    }

    #[test]
    fn finds_every_prefix_shortest_first() {
        let t = trie(&["a", "ab", "abc", "b", "abd"]);
        let mut got = Vec::new();
        t.prefixes(b"abcx", |len, v| got.push((len, v)));
        assert_eq!(got, [(1, 0), (2, 1), (3, 2)]);
        assert_eq!(t.longest(b"abd"), Some(3));
        assert_eq!(t.longest(b"x"), None);
        assert_eq!(t.longest(b""), None);
    }

    #[test]
    fn a_node_with_many_children_finds_each_one() {
        let keys: Vec<[u8; 3]> = (0u8..=255).rev().map(|b| [b'x', b'y', b]).collect();
        let mut t = TrieBuilder::new();
        for (i, k) in keys.iter().enumerate() {
            t.insert(k, i as u32);
        }
        let t = t.build();
        for (i, k) in keys.iter().enumerate() {
            let mut got = Vec::new();
            t.prefixes(k, |len, v| got.push((len, v)));
            assert_eq!(got, [(3, i as u32)]);
        }
        assert_eq!(t.longest(b"xz"), None);
    }

    #[test]
    fn a_key_added_twice_keeps_its_first_value() {
        let t = trie(&["ab", "ab"]);
        let mut got = Vec::new();
        t.prefixes(b"ab", |len, v| got.push((len, v)));
        assert_eq!(got, [(2, 0)]);
    }
}
