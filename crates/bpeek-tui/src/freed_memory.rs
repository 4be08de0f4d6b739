//! Memory freed after a big piece of work, handed back to the system.
//!
//! The C library keeps what a thread frees for that thread's next
//! allocations, so a served session that encoded a pasted megabyte (with
//! its lists grown by doubling on the way) would keep the peak resident
//! for the rest of the class, however little it holds afterwards.

/// Give back to the system what the allocator holds free.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds free;
    // it touches nothing in use.
    unsafe {
        libc::malloc_trim(0);
    }
}
