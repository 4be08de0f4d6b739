//! Heap bytes counted by a test binary's own allocator: what is held now
//! and the most held since a mark. A test file that wants them declares
//! `mod heap;` and makes [`Counting`] its `#[global_allocator]`; the counts
//! are the whole process's, so such tests measure one at a time.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes it holds and the peak.
pub struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

impl Counting {
    fn add(size: isize) {
        let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Counting::add(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Counting::add(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Heap bytes held now.
pub fn held() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts counting the peak afresh from what is held now, and returns it.
pub fn mark_peak() -> isize {
    let now = held();
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The most bytes held since the last [`mark_peak`].
pub fn peak() -> isize {
    PEAK.load(Ordering::Relaxed)
}

/// The count is the whole process's: one measuring test at a time.
pub fn alone() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}
