//! A login that went quiet after a refusal, told why instead of left
//! waiting.
//!
//! Some clients (paramiko among them) ask for the `ssh-userauth` service
//! again before every try. The SSH library answers that request once per
//! connection and passes over it afterwards, so such a client's second try
//! would wait, unanswered, until the login timeout. The library shows the
//! server nothing of a message it passes over, but the bytes still arrive:
//! counting them tells "the client sent something after its refusal and no
//! login request came of it" from "a person is typing the next password"
//! (which sends nothing). Such a connection is closed at once with a reason
//! that says to connect again, so every try gets an answer.
//!
//! The watch also tells a login that holds its place without going on: no
//! login request a while after connecting (a silent socket), or logged in
//! as a student a while ago and no explorer opened (`ssh -N`). Such a
//! login gives its place up to a newer one ([`LoginWatch::evict`]), so
//! that silence from an address (a class behind one NAT) cannot keep its
//! teacher, or anyone, out. A login under way (a teacher typing the
//! password) is never idle.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;

/// No refusal waits for the client's next request.
const NONE: u64 = u64::MAX;

/// How long bytes after a refusal may go without a login request of them
/// before the client is taken to be waiting for an answer that never comes.
/// A login request is read in well under this; a human types slower.
pub const QUIET_AFTER_REFUSAL: Duration = Duration::from_millis(500);

/// How long a login may go without a request, or a student without an
/// explorer after logging in, before it is idle. A client asks at once
/// after the key exchange and opens its explorer at once after the login,
/// even over a slow link.
pub const IDLE_AFTER: Duration = Duration::from_secs(2);

/// What a connection's handler and its task share about the login.
#[derive(Debug)]
pub struct LoginWatch {
    /// Bytes read from the client so far.
    read: AtomicU64,
    /// Bytes read when the last login request was refused, until the next
    /// request comes; [`NONE`] otherwise.
    refused_at: AtomicU64,
    /// When the connection was accepted.
    since: std::time::Instant,
    /// A login request has arrived.
    asked: AtomicBool,
    /// Milliseconds after `since` when a student logged in; [`NONE`] until.
    student_at: AtomicU64,
    /// A teacher logs in on a refused connection.
    teacher: AtomicBool,
    /// The login gave its place up to a newer one.
    evicted: AtomicBool,
    evict: tokio::sync::Notify,
}

impl Default for LoginWatch {
    fn default() -> Self {
        LoginWatch {
            read: AtomicU64::new(0),
            refused_at: AtomicU64::new(NONE),
            since: std::time::Instant::now(),
            asked: AtomicBool::new(false),
            student_at: AtomicU64::new(NONE),
            teacher: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            evict: tokio::sync::Notify::new(),
        }
    }
}

impl LoginWatch {
    /// A watch of a connection accepted at `since` (tests of idleness).
    #[cfg(test)]
    pub fn accepted_at(since: std::time::Instant) -> Self {
        LoginWatch {
            since,
            ..LoginWatch::default()
        }
    }

    /// A login request has arrived.
    pub fn request(&self) {
        self.asked.store(true, Ordering::SeqCst);
        self.refused_at.store(NONE, Ordering::SeqCst);
    }

    /// A login as the teacher is under way on a connection refused before
    /// it was known who it was.
    pub fn teacher_asks(&self) {
        self.teacher.store(true, Ordering::SeqCst);
    }

    pub fn asked_as_teacher(&self) -> bool {
        self.teacher.load(Ordering::SeqCst)
    }

    /// A student logged in (its explorer is to open next).
    pub fn student_logged_in(&self) {
        let ms = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(NONE - 1);
        self.student_at.store(ms, Ordering::SeqCst);
    }

    /// Whether the login holds its place without going on (see the
    /// module's text), at `now`.
    pub fn idle(&self, now: std::time::Instant) -> bool {
        let age = now.saturating_duration_since(self.since);
        let student_at = self.student_at.load(Ordering::SeqCst);
        (!self.asked.load(Ordering::SeqCst) && age >= IDLE_AFTER)
            || (student_at != NONE
                && age.saturating_sub(Duration::from_millis(student_at)) >= IDLE_AFTER)
    }

    /// Have the connection closed: its place goes to a newer login.
    pub fn evict(&self) {
        self.evicted.store(true, Ordering::SeqCst);
        self.evict.notify_one();
    }

    /// Whether the connection has been evicted.
    pub fn is_evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }

    /// Wait until the connection is evicted.
    pub async fn evicted(&self) {
        if self.evicted.load(Ordering::SeqCst) {
            return;
        }
        self.evict.notified().await;
    }

    /// A login request has been refused; the client's next one is awaited.
    pub fn refused(&self) {
        self.refused_at
            .store(self.read.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    /// Whether the client has sent something since its refusal that was
    /// no login request (so far).
    fn sent_after_refusal(&self) -> bool {
        let at = self.refused_at.load(Ordering::SeqCst);
        at != NONE && self.read.load(Ordering::SeqCst) > at
    }
}

/// Tells, looked at now and then, when a client has been waiting on an
/// unanswered request for [`QUIET_AFTER_REFUSAL`].
#[derive(Debug, Default)]
pub struct StallClock {
    since: Option<Instant>,
}

impl StallClock {
    pub fn stalled(&mut self, watch: &LoginWatch, now: Instant) -> bool {
        if !watch.sent_after_refusal() {
            self.since = None;
            return false;
        }
        let since = *self.since.get_or_insert(now);
        now.duration_since(since) >= QUIET_AFTER_REFUSAL
    }
}

/// The client's stream, counting what is read from it.
pub struct Watched<S> {
    inner: S,
    watch: Arc<LoginWatch>,
}

impl<S> Watched<S> {
    pub fn new(inner: S, watch: Arc<LoginWatch>) -> Self {
        Watched { inner, watch }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let got = buf.filled().len() - before;
        if got > 0 {
            self.watch.read.fetch_add(got as u64, Ordering::SeqCst);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(watch: &LoginWatch, n: u64) {
        watch.read.fetch_add(n, Ordering::SeqCst);
    }

    #[test]
    fn bytes_after_a_refusal_with_no_request_of_them_stall_after_a_while() {
        let watch = LoginWatch::default();
        let mut clock = StallClock::default();
        let t0 = Instant::now();
        read(&watch, 100);
        watch.request();
        watch.refused();
        // A person typing: nothing arrives, however long.
        assert!(!clock.stalled(&watch, t0 + Duration::from_secs(60)));
        // Bytes arrive: not yet a stall, only once they stay unanswered.
        read(&watch, 52);
        assert!(!clock.stalled(&watch, t0));
        assert!(!clock.stalled(&watch, t0 + QUIET_AFTER_REFUSAL / 2));
        assert!(clock.stalled(&watch, t0 + QUIET_AFTER_REFUSAL));
    }

    #[test]
    fn a_request_read_after_the_refusal_is_no_stall() {
        let watch = LoginWatch::default();
        let mut clock = StallClock::default();
        let t0 = Instant::now();
        watch.refused();
        read(&watch, 80);
        assert!(!clock.stalled(&watch, t0));
        watch.request();
        assert!(!clock.stalled(&watch, t0 + Duration::from_secs(5)));
        // Refused again, and again a request follows in time.
        watch.refused();
        assert!(!clock.stalled(&watch, t0 + Duration::from_secs(6)));
    }
}
