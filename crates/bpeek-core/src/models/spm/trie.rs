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
        freeze(&self.values, self.root, &edges)
    }
}

impl Trie {
    /// The trie of `keys` given sorted by their bytes, made without the
    /// builder's map: each key shares its nodes with the key before it up
    /// to their common prefix, so a node's children are made in byte
    /// order, and the edges need only be grouped by parent. A key given
    /// twice keeps its first value; empty keys are ignored.
    pub fn from_sorted<'k>(keys: impl IntoIterator<Item = (&'k [u8], u32)>) -> Trie {
        let mut values = vec![NONE];
        let mut root = vec![NONE; 256];
        let mut edges: Vec<((u32, u8), u32)> = Vec::new();
        // The nodes of the previous key's prefixes, by length - 1.
        let mut path: Vec<u32> = Vec::new();
        let mut prev: &[u8] = &[];
        for (key, value) in keys {
            if key.is_empty() {
                continue;
            }
            debug_assert!(prev <= key, "keys are sorted");
            let common = prev.iter().zip(key).take_while(|(a, b)| a == b).count();
            path.truncate(common);
            for (i, &b) in key.iter().enumerate().skip(common) {
                values.push(NONE);
                let n = (values.len() - 1) as u32;
                match i {
                    0 => root[b as usize] = n,
                    _ => edges.push(((path[i - 1], b), n)),
                }
                path.push(n);
            }
            let v = &mut values[path[key.len() - 1] as usize];
            if *v == NONE {
                *v = value;
            }
            prev = key;
        }
        // Grouped by parent, keeping each parent's children in byte order.
        let mut starts = vec![0usize; values.len() + 1];
        for &((parent, _), _) in &edges {
            starts[parent as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut grouped = vec![((0, 0), 0); edges.len()];
        for &e in &edges {
            let at = &mut starts[e.0.0 as usize];
            grouped[*at] = e;
            *at += 1;
        }
        freeze(&values, root, &grouped)
    }
}

/// The trie of nodes with `values`, the root's children by byte `root`,
/// and `edges` sorted by parent, then byte.
fn freeze(values: &[u32], root: Vec<u32>, edges: &[((u32, u8), u32)]) -> Trie {
    let mut nodes = Vec::with_capacity(values.len());
    let mut dense = Vec::new();
    let mut at = 0;
    for (n, &value) in values.iter().enumerate() {
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
        root,
        bytes: edges.iter().map(|e| e.0.1).collect(),
        children: edges.iter().map(|e| e.1).collect(),
        dense,
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

    /// Every prefix of every text, as (length, value), by both builds.
    fn walks(t: &Trie, texts: &[Vec<u8>]) -> Vec<Vec<(usize, u32)>> {
        let mut out = Vec::new();
        for text in texts {
            for start in 0..text.len() {
                let mut got = Vec::new();
                t.prefixes(&text[start..], |len, v| got.push((len, v)));
                out.push(got);
            }
        }
        out
    }

    #[test]
    fn a_trie_made_from_sorted_keys_walks_as_one_built_key_by_key() {
        // Keys over a small alphabet (long shared prefixes), some twice,
        // and one byte with 200 children (a node with a table).
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut keys: Vec<Vec<u8>> = (0..2000)
            .map(|_| {
                (0..1 + next(7))
                    .map(|_| b"abc\xff"[next(4) as usize])
                    .collect()
            })
            .collect();
        keys.extend((0..200u8).map(|b| vec![b'z', b]));
        let mut built = TrieBuilder::new();
        for (i, k) in keys.iter().enumerate() {
            built.insert(k, i as u32);
        }
        let mut sorted: Vec<(&[u8], u32)> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (&k[..], i as u32))
            .collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        let from_sorted = Trie::from_sorted(sorted);
        let texts: Vec<Vec<u8>> = keys
            .iter()
            .take(300)
            .map(|k| [&k[..], b"ab", &k[..]].concat())
            .collect();
        assert_eq!(walks(&built.build(), &texts), walks(&from_sorted, &texts));
    }
}
