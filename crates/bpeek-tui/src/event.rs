//! Where input comes from. The loop asks an [`EventSource`] for the next
//! event; the terminal is one source, a scripted list is another, and a
//! network connection could be a third.
//!
//! A source also loads tokenizers when asked: the result comes back as an
//! [`Event::Loaded`], so a slow load wakes the loop like a key press does
//! and the loop never has to poll for it. Long work (see [`crate::job`])
//! is handed over the same way and wakes the loop with [`Event::JobDone`].

use crate::fertility::tokenizers::LoadDone;
use crate::job::Work;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use std::collections::VecDeque;
use std::io;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Key(KeyEvent),
    /// A click or a turn of the wheel (see [`crate::mouse`]).
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    /// A tokenizer asked for with [`EventSource::load`] has loaded (or failed to).
    Loaded(LoadDone),
    /// Work handed to [`EventSource::spawn`] has returned.
    JobDone,
    /// In a classroom: the teacher moved, or someone came or went.
    Class,
    /// A one-line message for the footer from the source itself (a paste
    /// that was too long, say).
    Notice(String),
    /// A served student's memory budget was reached (with what to say),
    /// or there is room again (`None`).
    MemoryBudget(Option<String>),
    /// The screen was given away and is back (after a suspend): draw it
    /// all again.
    Redraw,
    /// The source has nothing more to say: the loop ends.
    Closed,
    /// The terminal said where its cursor is (row and column, from 1):
    /// its answer to a probe of its widths.
    CursorReport(u16, u16),
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

    /// Start loading the tokenizer `spec` names (a built-in name or a file).
    /// The result must come back, later, as an [`Event::Loaded`] from
    /// [`EventSource::next`].
    fn load(&mut self, spec: &str);

    /// Run `work` away from the loop, and say so with an [`Event::JobDone`]
    /// once it returns. This default runs it on a thread of its own and
    /// wakes nobody: the loop, which looks at a job's progress every
    /// [`PROGRESS_EVERY`](crate::job::PROGRESS_EVERY), still finds it done.
    fn spawn(&mut self, work: Work) {
        std::thread::spawn(move || work.run());
    }

    /// Whether the user asked to stop ahead of everything queued (Ctrl-C
    /// typed after thousands of keys, a signal): the loop stops at once
    /// instead of working through the queue first.
    fn stop_requested(&self) -> bool {
        false
    }

    /// Whether another event is already waiting: the loop then takes it
    /// before drawing, so a flood of keys costs one frame, not one a key.
    fn pending(&mut self) -> bool {
        false
    }
}

/// What a [`ScriptedEvents`] does with a load.
type Loader = Box<dyn FnMut(&str) -> LoadDone>;

/// Events from a list, for tests. `None` in the list stands for a timeout
/// (an autoplay tick); an empty list is [`Event::Closed`].
///
/// Loads are recorded in [`ScriptedEvents::requested`] and, by default,
/// never finish (the screen stays "loading"); a test injects results with
/// [`Event::Loaded`], or gives a loader with [`ScriptedEvents::loading_with`]
/// whose result becomes the very next event.
#[derive(Default)]
pub struct ScriptedEvents {
    queue: VecDeque<Option<Event>>,
    loader: Option<Loader>,
    pub requested: Vec<String>,
}

impl std::fmt::Debug for ScriptedEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedEvents")
            .field("queue", &self.queue)
            .field("loads", &self.loader.is_some())
            .field("requested", &self.requested)
            .finish()
    }
}

impl ScriptedEvents {
    pub fn new(events: impl IntoIterator<Item = Event>) -> Self {
        ScriptedEvents {
            queue: events.into_iter().map(Some).collect(),
            ..ScriptedEvents::default()
        }
    }

    /// Answer each load at once with `loader` (on this thread, so a test
    /// never races a loading thread).
    pub fn loading_with(mut self, loader: impl FnMut(&str) -> LoadDone + 'static) -> Self {
        self.loader = Some(Box::new(loader));
        self
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

    fn load(&mut self, spec: &str) {
        self.requested.push(spec.to_string());
        if let Some(loader) = &mut self.loader {
            let done = loader(spec);
            self.queue.push_front(Some(Event::Loaded(done)));
        }
    }

    /// On this thread, at once, so a test never races a worker: its
    /// [`Event::JobDone`] is the very next event.
    fn spawn(&mut self, work: Work) {
        work.run();
        self.queue.push_front(Some(Event::JobDone));
    }
}
