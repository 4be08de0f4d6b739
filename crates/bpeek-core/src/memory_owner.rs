//! Who holds the heap. A served class is one process, so the memory budget
//! of the whole program cannot say which student's work fills it; this
//! does. Each session of the classroom opens an [`Account`] and charges its
//! threads to it; every block of at least [`OWNED_FROM`] bytes that such a
//! thread allocates carries a small header naming the account, so the
//! block is credited back to the right account whoever frees it (a
//! follower often frees what the teacher's session built).
//!
//! The program's allocator calls [`alloc`], [`realloc`] and [`dealloc`]
//! with the system allocator behind them. Smaller blocks (a word, a cell
//! of the screen) carry nothing and are charged to nobody: the budget is
//! about the big tables training and comparing build.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU32, Ordering};

/// Blocks at least this big are charged to the thread's account.
pub const OWNED_FROM: usize = 4096;

/// The header's size before an owned block (more when the block is
/// aligned more strictly).
const HEADER: usize = 16;

/// Accounts open at once at most; more sessions share slot 0, nobody's.
const SLOTS: usize = 4096;

/// One account: how many bytes its threads allocated and have not freed,
/// and which opening of the slot it is (a block of a closed account's
/// time is credited to nobody).
struct Slot {
    open: AtomicBool,
    generation: AtomicU32,
    bytes: AtomicIsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: Slot = Slot {
    open: AtomicBool::new(false),
    generation: AtomicU32::new(0),
    bytes: AtomicIsize::new(0),
};

static SLOT: [Slot; SLOTS] = [EMPTY; SLOTS];

/// Which account a block belongs to: its slot and the slot's generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    slot: u32,
    generation: u32,
}

/// Nobody's: blocks charged to no account.
pub const NOBODY: Owner = Owner {
    slot: 0,
    generation: 0,
};

impl Owner {
    fn packed(self) -> u64 {
        (u64::from(self.slot) << 32) | u64::from(self.generation)
    }

    fn unpacked(word: u64) -> Owner {
        Owner {
            slot: (word >> 32) as u32,
            generation: word as u32,
        }
    }

    /// The slot's counter, if this owner's account is still the one open.
    fn counter(self) -> Option<&'static AtomicIsize> {
        let slot = SLOT.get(self.slot as usize).filter(|_| self.slot != 0)?;
        (slot.generation.load(Ordering::Relaxed) == self.generation).then_some(&slot.bytes)
    }

    fn charge(self, bytes: usize) {
        if let Some(c) = self.counter() {
            c.fetch_add(bytes as isize, Ordering::Relaxed);
        }
    }

    fn credit(self, bytes: usize) {
        if let Some(c) = self.counter() {
            c.fetch_sub(bytes as isize, Ordering::Relaxed);
        }
    }
}

thread_local! {
    /// The account this thread's new blocks are charged to.
    static CHARGED: Cell<Owner> = const { Cell::new(NOBODY) };
}

/// The account this thread charges its blocks to.
pub fn this_thread() -> Owner {
    CHARGED.try_with(Cell::get).unwrap_or(NOBODY)
}

/// Charge this thread's new blocks to `owner` (a job thread a session
/// starts takes the session's account).
pub fn charge_this_thread_to(owner: Owner) {
    let _ = CHARGED.try_with(|c| c.set(owner));
}

/// An open account: bytes in blocks its threads allocated and not yet
/// freed. Closing it (dropping it) frees the slot; blocks still alive from
/// its time are then nobody's.
#[derive(Debug)]
pub struct Account {
    owner: Owner,
}

impl Account {
    /// A new account, or none when every slot is taken.
    pub fn open() -> Option<Account> {
        (1..SLOTS).find_map(|i| {
            let slot = &SLOT[i];
            slot.open
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .ok()?;
            let generation = slot.generation.fetch_add(1, Ordering::AcqRel) + 1;
            slot.bytes.store(0, Ordering::Relaxed);
            Some(Account {
                owner: Owner {
                    slot: i as u32,
                    generation,
                },
            })
        })
    }

    pub fn owner(&self) -> Owner {
        self.owner
    }

    /// Bytes held now.
    pub fn bytes(&self) -> u64 {
        self.owner
            .counter()
            .map_or(0, |c| c.load(Ordering::Relaxed).max(0) as u64)
    }
}

impl Drop for Account {
    fn drop(&mut self) {
        let slot = &SLOT[self.owner.slot as usize];
        slot.generation.fetch_add(1, Ordering::AcqRel);
        slot.bytes.store(0, Ordering::Relaxed);
        slot.open.store(false, Ordering::Release);
    }
}

/// The system allocator with owned blocks, and nothing else (the program's
/// own allocator adds the memory budget; a test of the server uses this).
pub struct OwningAllocator;

// SAFETY: each call is passed on with the caller's promises.
unsafe impl GlobalAlloc for OwningAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { alloc(layout, false) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { alloc(layout, true) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { realloc(block, layout, new_size) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        unsafe { dealloc(block, layout) }
    }
}

/// Whether a block of `layout` carries a header.
fn owned(layout: Layout) -> bool {
    layout.size() >= OWNED_FROM
}

/// The layout of an owned block with its header, and the header's size:
/// the header keeps the block's alignment, and the owner word sits just
/// before the block.
fn with_header(layout: Layout) -> Option<(Layout, usize)> {
    let header = HEADER.max(layout.align());
    let size = layout.size().checked_add(header)?;
    let whole = Layout::from_size_align(size, layout.align().max(8)).ok()?;
    Some((whole, header))
}

/// # Safety
/// As [`GlobalAlloc::alloc`] (or `alloc_zeroed` when `zeroed`).
pub unsafe fn alloc(layout: Layout, zeroed: bool) -> *mut u8 {
    let raw = |l: Layout| unsafe {
        if zeroed {
            System.alloc_zeroed(l)
        } else {
            System.alloc(l)
        }
    };
    if !owned(layout) {
        return raw(layout);
    }
    let Some((whole, header)) = with_header(layout) else {
        return std::ptr::null_mut();
    };
    let base = raw(whole);
    if base.is_null() {
        return base;
    }
    let owner = this_thread();
    owner.charge(layout.size());
    // SAFETY: the block is `header` bytes longer than asked and at least
    // 8-aligned, so the word before the returned pointer is inside it.
    unsafe {
        let block = base.add(header);
        block.cast::<u64>().sub(1).write(owner.packed());
        block
    }
}

/// # Safety
/// As [`GlobalAlloc::dealloc`], for a block from [`alloc`] or [`realloc`].
pub unsafe fn dealloc(block: *mut u8, layout: Layout) {
    if !owned(layout) {
        return unsafe { System.dealloc(block, layout) };
    }
    let Some((whole, header)) = with_header(layout) else {
        return;
    };
    // SAFETY: an owned block was allocated `header` bytes after its base,
    // with the owner word just before it.
    unsafe {
        Owner::unpacked(block.cast::<u64>().sub(1).read()).credit(layout.size());
        System.dealloc(block.sub(header), whole);
    }
}

/// # Safety
/// As [`GlobalAlloc::realloc`], for a block from [`alloc`] or [`realloc`].
pub unsafe fn realloc(block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
        return std::ptr::null_mut();
    };
    match (owned(layout), owned(new_layout)) {
        // SAFETY: the caller's promises, passed on.
        (false, false) => unsafe { System.realloc(block, layout, new_size) },
        (true, true) => unsafe { realloc_owned(block, layout, new_size) },
        // Across the line: a new block, the bytes copied, the old freed.
        _ => unsafe {
            let moved = alloc(new_layout, false);
            if !moved.is_null() {
                std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                dealloc(block, layout);
            }
            moved
        },
    }
}

/// An owned block resized in place or moved, its header with it; the
/// difference goes to the block's own account.
unsafe fn realloc_owned(block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    let Some((whole, header)) = with_header(layout) else {
        return std::ptr::null_mut();
    };
    let Some(new_whole_size) = new_size.checked_add(header) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the header stands before the block as `alloc` put it; the
    // system allocator keeps the first bytes (the header) when it moves.
    unsafe {
        let owner = Owner::unpacked(block.cast::<u64>().sub(1).read());
        let base = System.realloc(block.sub(header), whole, new_whole_size);
        if base.is_null() {
            return base;
        }
        if new_size >= layout.size() {
            owner.charge(new_size - layout.size());
        } else {
            owner.credit(layout.size() - new_size);
        }
        base.add(header)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_block_is_charged_to_the_thread_that_made_it_and_credited_whoever_frees_it() {
        let account = Account::open().unwrap();
        let before = this_thread();
        charge_this_thread_to(account.owner());
        let l = layout(100_000, 8);
        // SAFETY: a block allocated, written, grown, shrunk and freed with
        // its own layout.
        let block = unsafe { alloc(l, true) };
        charge_this_thread_to(before);
        assert_eq!(account.bytes(), 100_000);
        assert!(
            unsafe { std::slice::from_raw_parts(block, 100_000) }
                .iter()
                .all(|&b| b == 0)
        );
        unsafe { block.write_bytes(7, 100_000) };
        // Grown and shrunk on a thread charged to nobody: the block's own
        // account follows, its bytes kept.
        let grown = unsafe { realloc(block, l, 300_000) };
        assert_eq!(account.bytes(), 300_000);
        assert_eq!(unsafe { *grown.add(99_999) }, 7);
        let shrunk = unsafe { realloc(grown, layout(300_000, 8), 5_000) };
        assert_eq!(account.bytes(), 5_000);
        let address = shrunk as usize;
        std::thread::scope(|s| {
            s.spawn(|| unsafe { dealloc(address as *mut u8, layout(5_000, 8)) });
        });
        assert_eq!(account.bytes(), 0);
    }

    #[test]
    fn small_blocks_are_nobodys_and_crossing_the_line_keeps_the_bytes() {
        let account = Account::open().unwrap();
        charge_this_thread_to(account.owner());
        let l = layout(100, 8);
        let small = unsafe { alloc(l, false) };
        unsafe { small.write_bytes(3, 100) };
        assert_eq!(account.bytes(), 0);
        let big = unsafe { realloc(small, l, 50_000) };
        assert_eq!(account.bytes(), 50_000);
        assert_eq!(unsafe { *big.add(99) }, 3);
        let small = unsafe { realloc(big, layout(50_000, 8), 10) };
        assert_eq!(account.bytes(), 0);
        assert_eq!(unsafe { *small.add(9) }, 3);
        unsafe { dealloc(small, layout(10, 8)) };
        charge_this_thread_to(NOBODY);
    }

    #[test]
    fn strictly_aligned_blocks_keep_their_alignment() {
        for align in [8, 16, 64, 4096] {
            let l = layout(10_000, align);
            let block = unsafe { alloc(l, false) };
            assert_eq!(block as usize % align, 0, "{align}");
            let grown = unsafe { realloc(block, l, 20_000) };
            assert_eq!(grown as usize % align, 0, "{align}");
            unsafe { dealloc(grown, layout(20_000, align)) };
        }
    }

    #[test]
    fn a_closed_accounts_blocks_are_nobodys_and_its_slot_starts_again_at_zero() {
        let account = Account::open().unwrap();
        charge_this_thread_to(account.owner());
        let l = layout(20_000, 8);
        let block = unsafe { alloc(l, false) };
        charge_this_thread_to(NOBODY);
        let slot = account.owner().slot;
        drop(account);
        // The slot may be opened again at once; the old block's free must
        // not touch the new account.
        let again: Vec<Account> = std::iter::from_fn(Account::open)
            .take_while(|a| a.owner().slot <= slot)
            .collect();
        unsafe { dealloc(block, l) };
        assert!(again.iter().all(|a| a.bytes() == 0));
    }
}
