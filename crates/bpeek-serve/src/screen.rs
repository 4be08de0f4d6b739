//! A session's screen: a ratatui backend that writes to the SSH channel at
//! the client's own size.
//!
//! crossterm writes the escape sequences, but nothing here asks the
//! server's own terminal anything: the size is the client's (from its pty
//! request and window changes) and the cursor position is never queried.
//! Frames go into a small bounded queue that one task drains into the
//! channel as fast as the SSH window allows. When the queue is full (a slow
//! or stalled client) the frame is dropped and the screen redrawn whole once
//! the queue has drained, so a slow student costs no memory and never holds
//! up anyone else.

use crate::incoming::{Inbox, Incoming};
use crate::session::Ending;
use bpeek_tui::terminal::mouse_report::{MOUSE_OFF, MOUSE_ON};
use bpeek_tui::terminal::screen::Screen;
use crossterm::{cursor, event, style, terminal};
use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// Frames queued for one client at most.
pub const QUEUE_FRAMES: usize = 4;

/// What the writer task sends.
#[derive(Debug)]
pub enum Out {
    Bytes(Vec<u8>),
    /// The session is over: send the exit status, then close the channel.
    End(u32),
}

/// The sending end of a session's output queue.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Out>,
    dropped: Arc<AtomicBool>,
}

impl Outbox {
    /// An outbox and the queue it fills (drained by the writer task, or read
    /// directly by tests).
    pub fn new() -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(QUEUE_FRAMES);
        let outbox = Outbox {
            tx,
            dropped: Arc::new(AtomicBool::new(false)),
        };
        (outbox, rx)
    }

    /// The writer is gone (the client left).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Queue a frame; drop it if the queue is full. Fails once the client
    /// is gone.
    pub fn frame(&self, bytes: Vec<u8>) -> io::Result<()> {
        match self.tx.try_send(Out::Bytes(bytes)) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.dropped.store(true, Ordering::SeqCst);
                Ok(())
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(gone()),
        }
    }

    /// Queue bytes that must not be dropped (the screen set-up and the
    /// restore at the end), waiting up to a few seconds for room.
    pub fn must(&self, out: Out) -> io::Result<()> {
        let mut out = out;
        for _ in 0..300 {
            match self.tx.try_send(out) {
                Ok(()) => return Ok(()),
                Err(mpsc::error::TrySendError::Full(back)) => {
                    out = back;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return Err(gone()),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client takes no output",
        ))
    }
}

fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the client is gone")
}

/// The bytes that take a client's terminal over: the alternate screen,
/// bracketed paste, the mouse if `mouse` and no cursor (the client's ssh
/// has put its own terminal in raw mode already).
pub fn enter_sequence(mouse: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = crossterm::queue!(
        out,
        terminal::EnterAlternateScreen,
        event::EnableBracketedPaste,
        cursor::Hide,
        terminal::Clear(terminal::ClearType::All)
    );
    if mouse {
        out.extend_from_slice(MOUSE_ON);
    }
    out
}

/// The bytes that give the terminal back as it was, then `message` (if
/// any) on a line of its own.
pub fn leave_sequence(message: Option<&str>) -> Vec<u8> {
    // The mouse is given back whether or not it was asked for: a terminal
    // left reporting clicks would type them into the student's shell.
    let mut out = MOUSE_OFF.to_vec();
    let _ = crossterm::queue!(
        out,
        style::ResetColor,
        style::SetAttribute(style::Attribute::Reset),
        event::DisableBracketedPaste,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    if let Some(m) = message {
        out.extend_from_slice(format!("{m}\r\n").as_bytes());
    }
    out
}

/// Start the task that drains the queue into the channel. `wake` hears
/// about a screen that needs redrawing (frames were dropped) or a client
/// that stalled (took no bytes for `stall_timeout`).
pub fn start_writer<W>(
    mut writer: W,
    handle: russh::server::Handle,
    channel: russh::ChannelId,
    wake: Inbox,
    stall_timeout: Duration,
) -> Outbox
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (outbox, mut rx) = Outbox::new();
    let dropped = outbox.dropped.clone();
    tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            match out {
                Out::Bytes(bytes) => {
                    let sent = tokio::time::timeout(stall_timeout, async {
                        writer.write_all(&bytes).await?;
                        writer.flush().await
                    })
                    .await;
                    match sent {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break,
                        Err(_) => {
                            wake.close("", Ending::Stalled);
                            let _ = handle.close(channel).await;
                            break;
                        }
                    }
                    if rx.is_empty() && dropped.swap(false, Ordering::SeqCst) {
                        wake.nudge(Incoming::Redraw);
                    }
                }
                Out::End(status) => {
                    let _ = handle.exit_status_request(channel, status).await;
                    let _ = handle.eof(channel).await;
                    let _ = handle.close(channel).await;
                    break;
                }
            }
        }
    });
    outbox
}

/// Collects one frame's bytes; `flush` queues them as one piece.
pub struct FrameBuf {
    buf: Vec<u8>,
    outbox: Outbox,
    /// Keep a copy of the next frame (see `Screen::record_next_frame`).
    recording: bool,
    recorded: Option<Vec<u8>>,
}

impl Write for FrameBuf {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.recording) {
            self.recorded = Some(self.buf.clone());
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        self.outbox.frame(std::mem::take(&mut self.buf))
    }
}

/// The backend of a served explorer. Everything it writes goes into the
/// frame's buffer and leaves as one piece on `flush`: crossterm's own
/// backend flushes on every cursor move and clear, which would split a
/// frame into many queued pieces (a row of Devanagari is erased and moved
/// through several times) and drop some when the queue is full.
pub struct RemoteScreen {
    out: FrameBuf,
    size: Size,
}

impl RemoteScreen {
    pub fn new(outbox: Outbox, width: u16, height: u16) -> Self {
        RemoteScreen {
            out: FrameBuf {
                buf: Vec::with_capacity(1 << 14),
                outbox,
                recording: false,
                recorded: None,
            },
            size: Size::new(width, height),
        }
    }
}

impl Screen for RemoteScreen {
    fn resized(&mut self, width: u16, height: u16) {
        self.size = Size::new(width, height);
    }

    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.out.flush()
    }

    fn sends_shared_frames(&self) -> bool {
        true
    }

    fn record_next_frame(&mut self) {
        self.out.recording = true;
        self.out.recorded = None;
    }

    fn recorded(&mut self) -> Option<Vec<u8>> {
        self.out.recording = false;
        self.out.recorded.take()
    }
}

impl Backend for RemoteScreen {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        bpeek_tui::terminal::cell_writer::draw(&mut self.out, content)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        crossterm::queue!(self.out, cursor::Hide)
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        crossterm::queue!(self.out, cursor::Show)
    }

    /// Never asked of the terminal: a full-screen view does not need it, and
    /// the only terminal that could answer is the server's own.
    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(Position::ORIGIN)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let Position { x, y } = position.into();
        crossterm::queue!(self.out, cursor::MoveTo(x, y))
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        let kind = match clear_type {
            ClearType::All => terminal::ClearType::All,
            ClearType::AfterCursor => terminal::ClearType::FromCursorDown,
            ClearType::BeforeCursor => terminal::ClearType::FromCursorUp,
            ClearType::CurrentLine => terminal::ClearType::CurrentLine,
            ClearType::UntilNewLine => terminal::ClearType::UntilNewLine,
        };
        crossterm::queue!(self.out, terminal::Clear(kind))
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        for _ in 0..n {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
