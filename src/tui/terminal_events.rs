//! Events from the local terminal: keys, pastes and resizes read by
//! crossterm, signals, loads and long work, all into one channel the loop
//! waits on.

use crate::tui::event::{Event, EventSource};
use crate::tui::job::Work;
use crate::tui::tokenizers::LoadDone;
use crossterm::event::KeyEventKind;
use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// The local terminal, through crossterm. A thread reads the terminal and
/// each load runs on a thread of its own; all of them send into one channel,
/// which the loop waits on, so nothing polls.
pub struct TerminalEvents {
    rx: Receiver<io::Result<Event>>,
    tx: Sender<io::Result<Event>>,
    /// Why Ctrl-Z must not stop this process, if it must not.
    no_suspend: std::cell::RefCell<Option<String>>,
}

impl TerminalEvents {
    /// Start reading the terminal.
    pub fn start() -> Self {
        let (tx, rx) = mpsc::channel();
        let input = tx.clone();
        std::thread::spawn(move || read_terminal(&input));
        let signalled = tx.clone();
        if let Err(e) = crate::tui::signals::watch(move |event| {
            let _ = signalled.send(Ok(event));
        }) {
            let _ = tx.send(Err(e));
        }
        TerminalEvents {
            rx,
            tx,
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

/// Forward terminal input until the terminal fails or nobody listens.
fn read_terminal(tx: &Sender<io::Result<Event>>) {
    use crossterm::event as ct;
    loop {
        let event = match ct::read() {
            // Windows reports releases too; only presses are keys here.
            Ok(ct::Event::Key(k)) if k.kind != KeyEventKind::Release => Event::Key(k),
            Ok(ct::Event::Paste(s)) => Event::Paste(s),
            Ok(ct::Event::Resize(w, h)) => Event::Resize(w, h),
            Ok(_) => continue,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        if tx.send(Ok(event)).is_err() {
            return;
        }
    }
}

impl EventSource for TerminalEvents {
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>> {
        let got = match timeout {
            Some(t) => match self.rx.recv_timeout(t) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => Ok(Event::Closed),
            },
            // The channel holds a sender of its own, so this only ends with
            // an event.
            None => self.rx.recv().unwrap_or(Ok(Event::Closed)),
        };
        match got {
            // Suspending here, between frames, means no frame is half drawn
            // when the shell gets the terminal back.
            Ok(e) if crate::tui::signals::is_suspend(&e) => {
                if let Some(why) = self.no_suspend.borrow().clone() {
                    return Ok(Some(Event::Notice(why)));
                }
                crate::tui::terminal_mode::suspend()?;
                Ok(Some(Event::Redraw))
            }
            other => other.map(Some),
        }
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
