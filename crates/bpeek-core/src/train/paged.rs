//! A list that grows a page at a time.
//!
//! The pair table holds one stat per pair, and a long chunk makes hundreds
//! of thousands of pairs: grown by doubling, the stats would hold up to
//! twice their room, and the copy that doubles them needs both at once.

use std::ops::{Index, IndexMut};

/// Items per page.
const PAGE: usize = 1024;

#[derive(Debug, Clone)]
pub struct Paged<T> {
    pages: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Paged<T> {
    fn default() -> Self {
        Paged {
            pages: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Paged<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, item: T) {
        if self.len.is_multiple_of(PAGE) {
            self.pages.push(Vec::with_capacity(PAGE));
        }
        self.pages[self.len / PAGE].push(item);
        self.len += 1;
    }
}

impl<T> Paged<T> {
    /// Ask the processor to load item `i`, if there is one.
    #[inline]
    pub fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(item) = self.pages.get(i / PAGE).and_then(|p| p.get(i % PAGE)) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch only hints the cache; it reads nothing and
            // cannot fault, and the pointer is to a live item anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
}

impl<T> Index<usize> for Paged<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.pages[i / PAGE][i % PAGE]
    }
}

impl<T> IndexMut<usize> for Paged<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.pages[i / PAGE][i % PAGE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_stay_where_they_were_pushed() {
        let mut list = Paged::default();
        for i in 0..3 * PAGE + 5 {
            list.push(i);
        }
        assert_eq!(list.len(), 3 * PAGE + 5);
        list[PAGE] += 1;
        assert!((0..list.len()).all(|i| list[i] == i + usize::from(i == PAGE)));
    }
}
