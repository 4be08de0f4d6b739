//! Events from the local terminal: keys and pastes decoded from the bytes
//! the terminal sends (by the same parser a served session uses), resizes,
//! signals, loads and long work, all into one channel the loop waits on.

use crate::event::{Event, EventSource};
use crate::fertility::tokenizers::LoadDone;
use crate::job::Work;
use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// The local terminal. A thread reads the terminal and
/// each load runs on a thread of its own; all of them send into one channel,
/// which the loop waits on, so nothing polls.
pub struct TerminalEvents {
    rx: Receiver<io::Result<Event>>,
    tx: Sender<io::Result<Event>>,
    /// An event taken from the channel to see whether one was waiting.
    peeked: Option<io::Result<Event>>,
    /// Set by the input thread as soon as it reads Ctrl-C.
    interrupted: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Why Ctrl-Z must not stop this process, if it must not.
    no_suspend: std::cell::RefCell<Option<String>>,
}

impl TerminalEvents {
    /// Start reading the terminal.
    pub fn start() -> Self {
        let (tx, rx) = mpsc::channel();
        let input = tx.clone();
        let interrupted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = interrupted.clone();
        std::thread::spawn(move || read_terminal(&input, &seen));
        let resized = tx.clone();
        if let Err(e) = watch_resizes(resized) {
            let _ = tx.send(Err(e));
        }
        let signalled = tx.clone();
        if let Err(e) = crate::terminal::signals::watch(move |event| {
            let _ = signalled.send(Ok(event));
        }) {
            let _ = tx.send(Err(e));
        }
        TerminalEvents {
            rx,
            tx,
            peeked: None,
            interrupted,
            no_suspend: std::cell::RefCell::new(None),
        }
    }

    /// Ctrl-Z (and SIGTSTP) show `why` instead of stopping the process:
    /// for a process that others depend on, like a server.
    pub fn refuse_suspend(&self, why: &str) {
        *self.no_suspend.borrow_mut() = Some(why.to_string());
    }

    /// Something that wakes the loop with an [`Event::Class`] from any thread.
    pub fn waker(&self) -> Box<dyn Fn() + Send + Sync> {
        let tx = self.tx.clone();
        Box::new(move || {
            let _ = tx.send(Ok(Event::Class));
        })
    }
}

/// A resize of the terminal (SIGWINCH) as an event with the new size.
fn watch_resizes(tx: Sender<io::Result<Event>>) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGWINCH])?;
    std::thread::spawn(move || {
        for _ in signals.forever() {
            if let Ok((w, h)) = crossterm::terminal::size()
                && tx.send(Ok(Event::Resize(w, h))).is_err()
            {
                return;
            }
        }
    });
    Ok(())
}

/// The terminal's input: standard input when it is the terminal, else the
/// controlling terminal (the corpus may come in on standard input).
fn terminal_input() -> io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        let fd = std::io::stdin().as_fd().try_clone_to_owned()?;
        return Ok(std::fs::File::from(fd));
    }
    std::fs::File::open("/dev/tty")
}

/// Wait up to `timeout` (forever with `None`) for `file` to be readable.
fn readable(file: &std::fs::File, timeout: Option<Duration>) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    let mut fds = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as i32);
    loop {
        // SAFETY: one valid pollfd, for the length given.
        let n = unsafe { libc::poll(&mut fds, 1, ms) };
        if n >= 0 {
            return Ok(n > 0);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// The largest paste the local explorer keeps (a server keeps less).
pub const LOCAL_PASTE_CAP: usize = 64 << 20;

/// Forward terminal input until the terminal fails or nobody listens. A
/// paste whose end never comes ends after a second without input.
fn read_terminal(tx: &Sender<io::Result<Event>>, interrupted: &std::sync::atomic::AtomicBool) {
    use crate::terminal::input_bytes::{InputParser, PASTE_SILENCE};
    use std::io::Read;
    let mut input = match terminal_input() {
        Ok(f) => f,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    let mut parser = InputParser::with_paste_cap(LOCAL_PASTE_CAP);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        // A local terminal writes a key's whole sequence at once: an Esc
        // with nothing after it in the same read is the Esc key (a wait
        // would make Esc then q into Alt+q), as crossterm takes it.
        let wait = if parser.waiting() {
            Some(Duration::ZERO)
        } else if parser.in_paste() {
            Some(PASTE_SILENCE)
        } else {
            None
        };
        let parsed = match readable(&input, wait) {
            Ok(true) => match input.read(&mut buf) {
                Ok(0) => {
                    let _ = tx.send(Ok(Event::Closed));
                    return;
                }
                Ok(n) => parser.feed(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            },
            Ok(false) if parser.in_paste() => parser.end_paste(),
            Ok(false) => parser.flush(),
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        let mut events = parsed.events;
        if let Some(dropped) = parsed.paste_cut {
            events.push(Event::Notice(format!(
                "paste cut to its first {} KB ({dropped} bytes dropped)",
                LOCAL_PASTE_CAP >> 10
            )));
        }
        for event in events {
            if event == Event::ctrl('c') {
                // Seen by the loop before the keys queued ahead of it.
                interrupted.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            if tx.send(Ok(event)).is_err() {
                return;
            }
        }
    }
}

impl EventSource for TerminalEvents {
    fn stop_requested(&self) -> bool {
        self.interrupted.load(std::sync::atomic::Ordering::SeqCst)
            || crate::terminal::signals::received().is_some()
    }

    fn pending(&mut self) -> bool {
        if self.peeked.is_none() {
            self.peeked = self.rx.try_recv().ok();
        }
        self.peeked.is_some()
    }

    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>> {
        let got = match self.peeked.take() {
            Some(e) => e,
            None => match self.wait(timeout) {
                Some(e) => e,
                None => return Ok(None),
            },
        };
        self.handle_suspend(got)
    }

    fn load(&mut self, spec: &str) {
        let tx = self.tx.clone();
        let spec = spec.to_string();
        std::thread::spawn(move || {
            let _ = tx.send(Ok(Event::Loaded(LoadDone::now(&spec))));
        });
    }

    fn spawn(&mut self, work: Work) {
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            work.run();
            let _ = tx.send(Ok(Event::JobDone));
        });
    }
}

impl TerminalEvents {
    /// Wait up to `timeout` (forever with `None`) for the next event from
    /// the channel; `None` when the time passed with none.
    fn wait(&mut self, timeout: Option<Duration>) -> Option<io::Result<Event>> {
        match timeout {
            Some(t) => match self.rx.recv_timeout(t) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Ok(Event::Closed)),
            },
            // The channel holds a sender of its own, so this only ends with
            // an event.
            None => Some(self.rx.recv().unwrap_or(Ok(Event::Closed))),
        }
    }

    fn handle_suspend(&self, got: io::Result<Event>) -> io::Result<Option<Event>> {
        match got {
            // Suspending here, between frames, means no frame is half drawn
            // when the shell gets the terminal back.
            Ok(e) if crate::terminal::signals::is_suspend(&e) => {
                if let Some(why) = self.no_suspend.borrow().clone() {
                    return Ok(Some(Event::Notice(why)));
                }
                crate::terminal::mode::suspend()?;
                Ok(Some(Event::Redraw))
            }
            other => other.map(Some),
        }
    }
}
