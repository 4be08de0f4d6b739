//! What a session's thread hears: the client's bytes and size, the class,
//! the writer and the server. Every part of the server sends these, so they
//! live apart from the session that reads them.
//!
//! The queue is bounded, and nothing that must not be lost goes through it
//! only: the latest window size, the client leaving and the server's
//! goodbye are also set on the [`Inbox`]'s flags, which the session reads
//! before each wait. A full queue then costs a dropped nudge, never a
//! thread or a lost resize, however many requests a client sends.
//!
//! The client's bytes are kept on the flags too, in a buffer the
//! connection appends to without waiting: it reads on, so a client that
//! floods keys and leaves is seen leaving at once (its keys behind it are
//! dropped with the session), and a server that stops can say goodbye to
//! it. A buffer past [`INPUT_CAP`] drops what comes on; the session says so.

use crate::session::Ending;
use bpeek_tui::fertility::tokenizers::LoadDone;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// Messages into a session's thread.
#[derive(Debug)]
pub enum Incoming {
    /// The client typed or pasted: its bytes are in the flags' buffer.
    Typed,
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
    /// Something in the class changed that this session shows: a move of
    /// the teacher's, a student come or gone, a vote (for the teacher).
    class: AtomicBool,
    close: Mutex<Option<(String, Ending)>>,
    typed: Mutex<Typed>,
}

/// Bytes the client sent that its session has not read yet.
#[derive(Debug, Default)]
struct Typed {
    bytes: std::collections::VecDeque<u8>,
    /// Bytes dropped because the buffer was full, not told yet.
    dropped: usize,
}

/// The most bytes a session holds unread: a whole paste (the server's
/// paste cap) and some keys besides.
pub const INPUT_CAP: usize = crate::input::PASTE_CAP + (64 << 10);

/// The most bytes a session parses at a time: a flood becomes events a
/// slice at a time, so they never pile up.
pub const INPUT_SLICE: usize = 16 << 10;

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

    /// The client sent `data`: kept for the session (up to [`INPUT_CAP`]
    /// unread), never waited on.
    pub fn typed(&self, data: &[u8]) {
        let mut typed = self.flags.typed.lock().unwrap_or_else(|e| e.into_inner());
        let was_empty = typed.bytes.is_empty();
        let kept = data.len().min(INPUT_CAP.saturating_sub(typed.bytes.len()));
        typed.bytes.extend(&data[..kept]);
        typed.dropped += data.len() - kept;
        drop(typed);
        // A session with bytes unread looks for more before it waits, so
        // only the first needs to wake it.
        if was_empty && kept > 0 {
            self.nudge(Incoming::Typed);
        }
    }

    /// The class changed in a way this session shows.
    pub fn class_changed(&self) {
        if !self.flags.class.swap(true, Ordering::SeqCst) {
            self.nudge(Incoming::Class);
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

    /// Whether the class changed since the last call.
    pub fn take_class(&self) -> bool {
        self.class.swap(false, Ordering::SeqCst)
    }

    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    /// Whether the client sent bytes its session has not read yet.
    pub fn has_typed(&self) -> bool {
        !self
            .typed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .bytes
            .is_empty()
    }

    /// Up to `most` of the client's unread bytes, and how many were dropped
    /// since the last call because the buffer was full.
    pub fn take_typed(&self, most: usize) -> (Vec<u8>, usize) {
        let mut typed = self.typed.lock().unwrap_or_else(|e| e.into_inner());
        let n = most.min(typed.bytes.len());
        let bytes: Vec<u8> = typed.bytes.drain(..n).collect();
        if typed.bytes.is_empty() {
            // A flood's buffer is not kept at its peak.
            typed.bytes.shrink_to(INPUT_SLICE);
        }
        (bytes, std::mem::take(&mut typed.dropped))
    }

    pub fn take_close(&self) -> Option<(String, Ending)> {
        self.close.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_past_the_cap_are_dropped_counted_once_and_the_rest_read_in_order() {
        let (inbox, rx) = Inbox::new();
        let sent: Vec<u8> = (0..INPUT_CAP + 5000).map(|i| (i % 251) as u8).collect();
        for part in sent.chunks(32 * 1024) {
            inbox.typed(part);
        }
        // One nudge for the first bytes; the session reads on by itself.
        assert!(matches!(rx.try_recv(), Ok(Incoming::Typed)));
        assert!(rx.try_recv().is_err());
        let mut read = Vec::new();
        let mut dropped = 0;
        while inbox.flags.has_typed() {
            let (bytes, more) = inbox.flags.take_typed(INPUT_SLICE);
            assert!(bytes.len() <= INPUT_SLICE);
            read.extend(bytes);
            dropped += more;
        }
        assert_eq!(read, sent[..INPUT_CAP]);
        assert_eq!(dropped, 5000);
        assert_eq!(inbox.flags.take_typed(INPUT_SLICE), (Vec::new(), 0));
        // Read empty, the buffer takes bytes again, and wakes the session.
        inbox.typed(b"n");
        assert!(matches!(rx.try_recv(), Ok(Incoming::Typed)));
        assert_eq!(inbox.flags.take_typed(INPUT_SLICE), (b"n".to_vec(), 0));
    }
}
