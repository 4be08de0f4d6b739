//! What a session's thread hears: the client's bytes and size, the class,
//! the writer and the server. Every part of the server sends these, so they
//! live apart from the session that reads them.

use crate::tui::tokenizers::LoadDone;

/// Messages into a session's thread.
#[derive(Debug)]
pub enum Incoming {
    /// Bytes the client typed or pasted.
    Bytes(Vec<u8>),
    /// The client's window changed size (already clamped).
    Resize(u16, u16),
    /// The class changed: the teacher moved, someone came or went.
    Class,
    /// Frames were dropped for a slow client: draw the whole screen again.
    Redraw,
    Loaded(LoadDone),
    /// Long work of the explorer's has returned.
    JobDone,
    /// The client takes no output: end.
    Stalled,
    /// The client closed the channel or went away.
    Gone,
    /// The server is stopping: end, with this goodbye.
    Close(String),
}
