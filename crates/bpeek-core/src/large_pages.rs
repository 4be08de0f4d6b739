//! Buffers of megabytes on the processor's 2 MiB pages, where Linux gives
//! them.
//!
//! Linux gives a process its memory a 4 KiB page at a time, at the first
//! touch of each, and each such fault cost 1.5-3 µs here: a 2 MB text
//! read, encoded and written as ids touched some 1,500 fresh pages, a
//! tenth of the run. A range advised `MADV_HUGEPAGE` is given 2 MiB at a
//! fault (where the system's setting is "madvise" or "always"). Only a
//! whole 2 MiB range aligned to 2 MiB can be, so a large buffer is made
//! 2 MiB larger than asked (address space alone: pages never touched cost
//! nothing) and its aligned part advised; the part before it is asked for
//! in one call (`MADV_POPULATE_WRITE`) rather than a fault a page. Where
//! either is refused, nothing changes but the speed.

/// The size of a large page.
pub const LARGE_PAGE: usize = 2 << 20;

/// The least buffer advised: below it the calls cost about what they save.
const ADVISED_FROM: usize = 256 << 10;

/// An empty vector with room for at least `n` items, its memory advised
/// as above when it is [`ADVISED_FROM`] bytes or more.
pub fn vec_with_capacity<T>(n: usize) -> Vec<T> {
    let item = size_of::<T>().max(1);
    if n.saturating_mul(item) < ADVISED_FROM {
        return Vec::with_capacity(n);
    }
    let v = Vec::with_capacity(n.saturating_add(LARGE_PAGE / item));
    advise(v.as_ptr() as usize, n * item, v.capacity() * item);
    v
}

/// Advise the `room` bytes from `start`, of which the first `used` will
/// be written.
#[cfg(target_os = "linux")]
fn advise(start: usize, used: usize, room: usize) {
    const PAGE: usize = 4096;
    let large_from = start.next_multiple_of(LARGE_PAGE);
    let large_to = (start + room) / LARGE_PAGE * LARGE_PAGE;
    advise_pages(large_from, large_to, libc::MADV_HUGEPAGE);
    // The small pages before the first large one that will be written.
    let head_to = large_from.min((start + used).next_multiple_of(PAGE));
    advise_pages(start / PAGE * PAGE, head_to, libc::MADV_POPULATE_WRITE);
}

/// `advice` for the pages from `from` to `to` (page-aligned), if any.
#[cfg(target_os = "linux")]
fn advise_pages(from: usize, to: usize, advice: libc::c_int) {
    if to > from {
        // SAFETY: the pages are those of a buffer this program owns (the
        // first may also hold the allocator's header); neither advice
        // changes what memory holds, only how its pages are given:
        // populating makes only the pages not yet present. A refusal
        // (an error return) leaves everything as it was.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, advice);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _used: usize, _room: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_vector_holds_what_is_put_in_it() {
        let mut v: Vec<u32> = vec_with_capacity(3 << 20);
        assert!(v.capacity() >= 3 << 20);
        v.extend(0..3 << 20);
        assert!(v.iter().enumerate().all(|(k, &x)| k as u32 == x));
        let small: Vec<u8> = vec_with_capacity(10);
        assert!(small.capacity() >= 10);
    }
}
