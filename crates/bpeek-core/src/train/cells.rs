//! The chain's one number per position, two bytes each while every number
//! fits and four from the first one that does not.
//!
//! On a long chunk the positions are the corpus itself, so the width of a
//! cell is most of what training costs in memory. Ids stay below 32,766
//! for the first thirty-odd thousand merges, and a position inside a token
//! is at most a token's length past the one it points back to, so two
//! bytes are the common case; the few tokens longer than 32,767 symbols
//! keep their distances in a side table.

use crate::TokenId;
use rustc_hash::FxHashMap;

/// The mark after each chunk.
pub const END: u32 = 0x7FFF_FFFF;
/// Set in the number of a position inside a token; the rest is how far
/// back the position to follow is.
pub const INSIDE: u32 = 0x8000_0000;

/// Two-byte form: ids below this, then the end mark, then inside marks
/// with their distance in the low fifteen bits (zero: in `far`).
const NARROW_IDS: u32 = 0x7FFE;
const NARROW_END: u16 = 0x7FFE;
const NARROW_FAR: u16 = 0x8000;

#[derive(Debug, Clone)]
pub struct Cells {
    store: Store,
    /// Distances too long for a two-byte cell, by position.
    far: FxHashMap<u32, u32>,
}

#[derive(Debug, Clone)]
enum Store {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for Cells {
    fn default() -> Self {
        Cells {
            store: Store::Narrow(Vec::new()),
            far: FxHashMap::default(),
        }
    }
}

impl Cells {
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Narrow(v) => v.len(),
            Store::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empty, with room for `n` cells in the width they have now.
    pub fn clear(&mut self, n: usize) {
        self.far.clear();
        match &mut self.store {
            Store::Narrow(v) => {
                v.clear();
                v.reserve(n);
            }
            Store::Wide(v) => {
                v.clear();
                v.reserve(n);
            }
        }
    }

    /// Whether the cells take four bytes each.
    #[cfg(test)]
    pub fn is_wide(&self) -> bool {
        matches!(self.store, Store::Wide(_))
    }

    /// A token id, [`END`], or [`INSIDE`] with a distance.
    #[inline(always)]
    pub fn get(&self, pos: u32) -> u32 {
        match &self.store {
            Store::Narrow(v) => {
                let x = v[pos as usize] as u32;
                if x < NARROW_IDS {
                    x
                } else {
                    self.unusual(pos, x)
                }
            }
            Store::Wide(v) => v[pos as usize],
        }
    }

    /// A two-byte cell that holds no id: kept out of line, so that
    /// reading an id stays a load and a compare.
    #[inline(never)]
    fn unusual(&self, pos: u32, x: u32) -> u32 {
        if x == NARROW_END as u32 {
            END
        } else if x != NARROW_FAR as u32 {
            INSIDE | (x & 0x7FFF)
        } else {
            INSIDE | self.far[&pos]
        }
    }

    /// Put token `id` at `pos`.
    #[inline(always)]
    pub fn set_id(&mut self, pos: u32, id: TokenId) {
        match &mut self.store {
            Store::Narrow(v) if id < NARROW_IDS => v[pos as usize] = id as u16,
            Store::Wide(v) => v[pos as usize] = id,
            Store::Narrow(_) => self.set(pos, id),
        }
    }

    /// Mark `pos` as inside a token, `back` positions after the one to
    /// follow.
    #[inline(always)]
    pub fn set_inside(&mut self, pos: u32, back: u32) {
        match &mut self.store {
            Store::Narrow(v) if back < 0x8000 => v[pos as usize] = NARROW_FAR | back as u16,
            Store::Wide(v) => v[pos as usize] = INSIDE | back,
            Store::Narrow(_) => self.set(pos, INSIDE | back),
        }
    }

    /// Where the token whose last position is `pos` starts, or `None` if
    /// `pos` is an end mark.
    #[inline(always)]
    pub fn start_of_last(&self, pos: u32) -> Option<u32> {
        let v = match &self.store {
            Store::Narrow(v) => {
                let x = v[pos as usize] as u32;
                if x < NARROW_IDS {
                    return Some(pos);
                }
                if x > NARROW_FAR as u32 {
                    return Some(pos - (x & 0x7FFF));
                }
                self.unusual(pos, x)
            }
            Store::Wide(v) => v[pos as usize],
        };
        match v {
            END => None,
            v if v < INSIDE => Some(pos),
            v => Some(pos - (v & !INSIDE)),
        }
    }

    #[inline]
    pub fn set(&mut self, pos: u32, value: u32) {
        match &mut self.store {
            Store::Narrow(v) => match narrow(value) {
                Some(x) => v[pos as usize] = x,
                None if value > INSIDE => {
                    self.far.insert(pos, value & !INSIDE);
                    v[pos as usize] = NARROW_FAR;
                }
                None => {
                    self.widen();
                    self.set(pos, value);
                }
            },
            Store::Wide(v) => v[pos as usize] = value,
        }
    }

    /// Add a cell holding `id` (a base symbol) or [`END`].
    #[inline(always)]
    pub fn push(&mut self, id: TokenId) {
        match &mut self.store {
            Store::Narrow(v) => match narrow(id) {
                Some(x) => v.push(x),
                None => {
                    self.widen();
                    self.push(id);
                }
            },
            Store::Wide(v) => v.push(id),
        }
    }

    /// Four bytes a cell from now on.
    fn widen(&mut self) {
        let Store::Narrow(narrow) = &self.store else {
            return;
        };
        // One pass over the narrow cells, the usual ones (ids) copied as
        // they are: a call to `get` per cell cost a match on the store.
        let wide: Vec<u32> = narrow
            .iter()
            .enumerate()
            .map(|(pos, &x)| {
                let x = x as u32;
                if x < NARROW_IDS {
                    x
                } else {
                    self.unusual(pos as u32, x)
                }
            })
            .collect();
        self.store = Store::Wide(wide);
        self.far = FxHashMap::default();
    }

    /// Ask the processor to load the cell of `pos`.
    #[inline]
    pub fn prefetch(&self, pos: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let pointer = match &self.store {
                Store::Narrow(v) => v.get(pos as usize).map(|c| (c as *const u16).cast()),
                Store::Wide(v) => v.get(pos as usize).map(|c| (c as *const u32).cast()),
            };
            if let Some(pointer) = pointer {
                // SAFETY: a prefetch only hints the cache; it reads nothing
                // and cannot fault, and the pointer is to a live cell anyway.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(pointer) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = pos;
    }
}

/// `value` in two bytes, if it fits (a distance of zero never occurs).
#[inline]
fn narrow(value: u32) -> Option<u16> {
    if value < NARROW_IDS {
        Some(value as u16)
    } else if value == END {
        Some(NARROW_END)
    } else if value > INSIDE && value < INSIDE | 0x8000 {
        Some(NARROW_FAR | value as u16)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_reads_back_in_either_width() {
        let values = [
            0,
            255,
            NARROW_IDS - 1,
            NARROW_IDS,
            70_000,
            END,
            INSIDE | 1,
            INSIDE | 0x7FFF,
            INSIDE | 0x8000,
            INSIDE | 65_536,
        ];
        let mut cells = Cells::default();
        for _ in values {
            cells.push(0);
        }
        for (pos, &v) in values.iter().enumerate() {
            if !(NARROW_IDS..=INSIDE).contains(&v) {
                cells.set(pos as u32, v);
            }
        }
        assert!(!cells.is_wide(), "long distances stay narrow");
        for (pos, &v) in values.iter().enumerate() {
            if !(NARROW_IDS..=INSIDE).contains(&v) {
                assert_eq!(cells.get(pos as u32), v);
            }
        }
        for (pos, &v) in values.iter().enumerate() {
            cells.set(pos as u32, v);
        }
        assert!(cells.is_wide(), "a large id widens");
        for (pos, &v) in values.iter().enumerate() {
            assert_eq!(cells.get(pos as u32), v, "{pos}");
        }
    }
}
