//! What a pasted text costs in memory: a class server holds one encode box
//! per student, so a pasted megabyte must cost a few megabytes, not a
//! hundred. Heap bytes are counted by this test binary's allocator.

mod common;

use bpeek::tui::{Action, update};
use common::default_app;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

#[test]
fn a_pasted_megabyte_costs_a_few_megabytes_at_merge_zero() {
    let mut app = default_app();
    update(&mut app, Action::Resize(80, 24));
    // Merge 0: one token per byte, the most tokens a text can have.
    let line = "The baker's 12 loaves, 3.5 kg of flour; naïve café. Сегодня хлеб.\n";
    let text = line.repeat(1_000_000 / line.len());
    let before = live();
    update(&mut app, Action::StartEditing);
    update(&mut app, Action::Paste(text.clone()));
    update(&mut app, Action::StopEditing);
    let mut parts = 0;
    while app.encode.encoding() {
        update(&mut app, Action::EncodeMore);
        parts += 1;
        assert!(parts < 10_000);
    }
    let cost = (live() - before) as f64 / text.len() as f64;
    assert_eq!(app.encode.tokens(), text.len(), "one token per byte");
    // The text itself, 4 bytes of id and 16 of place per token, and the
    // line index: about 22 bytes a byte. Each token's bytes kept beside it
    // cost 80.
    eprintln!("a pasted byte costs {cost:.1} bytes");
    assert!(cost < 30.0, "a pasted byte costs {cost:.1} bytes");
}
