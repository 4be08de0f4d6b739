//! A byte trie of pieces: every piece that is a prefix of a text, shortest
//! first, in one walk.

use rustc_hash::FxHashMap;

/// Keys are byte strings; each key has a value (a piece id).
#[derive(Debug, Clone, Default)]
pub struct Trie {
    /// The value of the key ending at each node, if one does.
    values: Vec<Option<u32>>,
    /// Children of the root by byte, for the first step (the most frequent).
    root: Vec<u32>,
    /// Every other edge: (node, byte) -> child.
    edges: FxHashMap<(u32, u8), u32>,
}

const NONE: u32 = u32::MAX;

impl Trie {
    pub fn new() -> Trie {
        Trie {
            values: vec![None],
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
        if v.is_none() {
            *v = Some(value);
        }
    }

    fn push(&mut self) -> u32 {
        self.values.push(None);
        (self.values.len() - 1) as u32
    }

    pub fn is_empty(&self) -> bool {
        self.values.len() == 1
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
            if let Some(v) = self.values[node as usize] {
                f(len, v);
            }
            let Some(&b) = text.get(len) else { return };
            match self.edges.get(&(node, b)) {
                Some(&n) => node = n,
                None => return,
            }
            len += 1;
        }
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

    #[test]
    fn finds_every_prefix_shortest_first() {
        let mut t = Trie::new();
        for (i, k) in ["a", "ab", "abc", "b", "abd"].iter().enumerate() {
            t.insert(k.as_bytes(), i as u32);
        }
        let mut got = Vec::new();
        t.prefixes(b"abcx", |len, v| got.push((len, v)));
        assert_eq!(got, [(1, 0), (2, 1), (3, 2)]);
        assert_eq!(t.longest(b"abd"), Some(3));
        assert_eq!(t.longest(b"x"), None);
        assert_eq!(t.longest(b""), None);
    }
}
