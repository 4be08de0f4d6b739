//! What a session's thread hears: the client's bytes and size, the class,
//! the writer and the server. Every part of the server sends these, so they
//! live apart from the session that reads them.
//!
//! The queue is bounded, and nothing that must not be lost goes through it
//! only: the latest window size, the client leaving and the server's
//! goodbye are also set on the [`Inbox`]'s flags, which the session reads
//! before each wait. A full queue then costs a dropped nudge, never a
//! thread or a lost resize, however many requests a client sends.

use crate::session::Ending;
use bpeek_tui::fertility::tokenizers::LoadDone;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// Messages into a session's thread.
#[derive(Debug)]
pub enum Incoming {
    /// Bytes the client typed or pasted.
    Bytes(Vec<u8>),
    /// Look at the flags: the size changed, the client left, or the server
    /// says goodbye.
    Flags,
    /// The class changed: the teacher moved, someone came or went.
    Class,
    /// Frames were dropped for a slow client: draw the whole screen again.
    Redraw,
    Loaded(LoadDone),
    /// Long work of the explorer's has returned.
    JobDone,
}

/// What is kept outside the queue: only the latest of each.
#[derive(Debug, Default)]
pub struct Flags {
    /// `cols << 16 | rows` of the latest window change not yet seen; 0 for
    /// none (no size is 0x0 after clamping).
    size: AtomicU32,
    gone: AtomicBool,
    close: Mutex<Option<(String, Ending)>>,
}

/// The sending side of a session's input.
#[derive(Debug, Clone)]
pub struct Inbox {
    pub tx: SyncSender<Incoming>,
    pub flags: Arc<Flags>,
}

/// Input messages queued for one session at most; a client that types
/// faster than its explorer reads waits (TCP pushes back).
pub const QUEUE: usize = 64;

impl Inbox {
    pub fn new() -> (Inbox, Receiver<Incoming>) {
        let (tx, rx) = std::sync::mpsc::sync_channel(QUEUE);
        let inbox = Inbox {
            tx,
            flags: Arc::new(Flags::default()),
        };
        (inbox, rx)
    }

    /// Send if there is room; a full queue is being read, and its reader
    /// looks at the flags before it waits again.
    pub fn nudge(&self, message: Incoming) {
        match self.tx.try_send(message) {
            Ok(()) | Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {}
        }
    }

    /// The client's window is now `cols` x `rows`: a storm of changes is
    /// one change to the latest size.
    pub fn resize(&self, cols: u16, rows: u16) {
        let packed = (u32::from(cols) << 16) | u32::from(rows);
        if self.flags.size.swap(packed, Ordering::SeqCst) == 0 {
            self.nudge(Incoming::Flags);
        }
    }

    pub fn gone(&self) {
        if !self.flags.gone.swap(true, Ordering::SeqCst) {
            self.nudge(Incoming::Flags);
        }
    }

    /// End the session with `goodbye` on its screen, logged as `why`.
    pub fn close(&self, goodbye: &str, why: Ending) {
        let mut close = self.flags.close.lock().unwrap_or_else(|e| e.into_inner());
        close.get_or_insert_with(|| (goodbye.to_string(), why));
        drop(close);
        self.nudge(Incoming::Flags);
    }
}

impl Flags {
    /// The latest window size not yet taken.
    pub fn take_size(&self) -> Option<(u16, u16)> {
        match self.size.swap(0, Ordering::SeqCst) {
            0 => None,
            p => Some(((p >> 16) as u16, (p & 0xffff) as u16)),
        }
    }

    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    pub fn take_close(&self) -> Option<(String, Ending)> {
        self.close.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}
