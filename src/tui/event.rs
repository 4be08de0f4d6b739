//! Where input comes from. The loop asks an [`EventSource`] for the next
//! event; the terminal is one source, a scripted list is another, and a
//! network connection could be a third.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Key(KeyEvent),
    Paste(String),
    Resize(u16, u16),
    /// The source has nothing more to say: the loop ends.
    Closed,
}

impl Event {
    /// A plain key press.
    pub fn key(code: KeyCode) -> Self {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    pub fn char(c: char) -> Self {
        Event::key(KeyCode::Char(c))
    }

    pub fn ctrl(c: char) -> Self {
        Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
    }
}

pub trait EventSource {
    /// The next event. With a timeout, `Ok(None)` means it passed with no
    /// event; without one, wait as long as it takes.
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>>;
}

/// Events from a list, for tests. `None` in the list stands for a timeout
/// (an autoplay tick); an empty list is [`Event::Closed`].
#[derive(Debug, Default)]
pub struct ScriptedEvents {
    queue: VecDeque<Option<Event>>,
}

impl ScriptedEvents {
    pub fn new(events: impl IntoIterator<Item = Event>) -> Self {
        ScriptedEvents {
            queue: events.into_iter().map(Some).collect(),
        }
    }

    /// Each character as a key press.
    pub fn typed(text: &str) -> Self {
        ScriptedEvents::new(text.chars().map(Event::char))
    }

    pub fn then(mut self, event: Event) -> Self {
        self.queue.push_back(Some(event));
        self
    }

    /// A wait that ends without an event, as if the autoplay clock ticked.
    pub fn then_tick(mut self) -> Self {
        self.queue.push_back(None);
        self
    }
}

impl EventSource for ScriptedEvents {
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>> {
        loop {
            match self.queue.pop_front() {
                None => return Ok(Some(Event::Closed)),
                Some(Some(e)) => return Ok(Some(e)),
                // A tick can only happen while the loop waits with a timeout.
                Some(None) if timeout.is_some() => return Ok(None),
                Some(None) => continue,
            }
        }
    }
}

/// The local terminal, through crossterm.
#[derive(Debug, Default)]
pub struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>> {
        use crossterm::event as ct;
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            if let Some(d) = deadline
                && !ct::poll(d.saturating_duration_since(Instant::now()))?
            {
                return Ok(None);
            }
            let event = match ct::read()? {
                // Windows reports releases too; only presses are keys here.
                ct::Event::Key(k) if k.kind != KeyEventKind::Release => Event::Key(k),
                ct::Event::Paste(s) => Event::Paste(s),
                ct::Event::Resize(w, h) => Event::Resize(w, h),
                _ => continue,
            };
            return Ok(Some(event));
        }
    }
}
