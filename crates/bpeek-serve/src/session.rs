//! One student's (or the teacher's) explorer: the same [`App`] and the same
//! [`run_loop`] as `bpeek tui`, on a thread of its own, with the channel as
//! its event source and its screen.

use crate::class::Class;
use crate::incoming::{Inbox, Incoming};
use crate::input::{ESC_WAIT, InputParser, PASTE_CAP};
use crate::screen::{self, Out, Outbox, RemoteScreen};
use crate::shared::SharedTokenizers;
use bpeek_core::Trainer;
use bpeek_tui::action::Action;
use bpeek_tui::app::App;
use bpeek_tui::class::{Classroom, Role};
use bpeek_tui::event::{Event, EventSource};
use bpeek_tui::options::args::{ColorChoice, TrainingOptions};
use bpeek_tui::runner::run_loop;
use bpeek_tui::terminal::wide_cells::WideCellBackend;
use bpeek_tui::theme::Theme;
use bpeek_tui::update::update;
use ratatui::Terminal;
use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Everything a session needs from the server.
pub struct Setup {
    pub training: TrainingOptions,
    /// The first corpus, named and counted once when the server starts:
    /// every session starts on this one trainer and copies it only when
    /// it trains on its own, so joining costs neither a count nor a copy.
    pub first: (String, Arc<Trainer>),
    /// With `--compare`: the other columns' configurations, each counted
    /// once on the first corpus.
    pub compare: Vec<(TrainingOptions, bpeek_tui::compare::ColumnTrainer)>,
    pub tokenizer_specs: Vec<String>,
    pub colour: ColorChoice,
    /// `--ascii` and `--glyphs`, resolved for each client's TERM, and
    /// `--no-mouse`.
    pub glyphs: bpeek_tui::options::args::ScreenOptions,
    pub shared: Arc<SharedTokenizers>,
    pub class: Arc<Class>,
    /// A key that makes a session panic (tests of the server only).
    pub panic_key: Option<char>,
    /// The lesson the teacher plays to the class (`--lesson`).
    pub lesson: Option<bpeek_tui::lesson::Lesson>,
    /// With `--model unigram`: the Unigram trainer every session starts
    /// on (seeded once), and trains from on its own.
    pub unigram: Option<Arc<bpeek_core::train::unigram::UnigramTrainer>>,
}

impl Setup {
    /// A session's explorer on the first corpus, in the mode the server
    /// trains in.
    pub fn app(&self, theme: Theme) -> App {
        let (name, trainer) = &self.first;
        match &self.unigram {
            Some(u) => App::from_unigram(&self.training, name.clone(), Arc::clone(u), theme),
            None => App::from_built(&self.training, name.clone(), Arc::clone(trainer), theme),
        }
    }
}

/// How a session ended, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    Quit,
    Idle,
    Stalled,
    Gone,
    ServerStopping,
    TimeLimit,
    /// The teacher logged in again, and this older session gave way.
    Replaced,
    Failed(String),
    Panicked(String),
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Quit => f.write_str("quit"),
            Ending::Idle => f.write_str("idle"),
            Ending::Stalled => f.write_str("stalled output"),
            Ending::Gone => f.write_str("client gone"),
            Ending::ServerStopping => f.write_str("server stopping"),
            Ending::TimeLimit => f.write_str("time limit"),
            Ending::Replaced => f.write_str("replaced by a new teacher login"),
            Ending::Failed(e) => write!(f, "error: {e}"),
            Ending::Panicked(e) => write!(f, "panic: {e}"),
        }
    }
}

/// The channel as an event source: bytes become keys and pastes through the
/// [`InputParser`], loads go to the shared tokenizers, and the idle clock
/// runs on keystrokes (and on the teacher's moves, which a follower watches).
pub struct ChannelEvents {
    rx: Receiver<Incoming>,
    inbox: Inbox,
    parser: InputParser,
    queue: VecDeque<Event>,
    idle_timeout: Duration,
    /// When the session ends whatever it does (`--max-session-time`).
    ends_at: Option<Instant>,
    last_activity: Instant,
    last_byte: Instant,
    class: Arc<Class>,
    seen_generation: u64,
    shared: Arc<SharedTokenizers>,
    panic_key: Option<char>,
    /// A student's share of the processor; none for the teacher.
    share: Option<crate::cpu_share::CpuShare>,
    /// A student's memory: what its threads hold, against its budget.
    memory: Option<crate::memory::StudentMemory>,
    pub ending: Option<Ending>,
    pub goodbye: Option<String>,
}

impl ChannelEvents {
    pub fn new(
        rx: Receiver<Incoming>,
        inbox: Inbox,
        class: Arc<Class>,
        shared: Arc<SharedTokenizers>,
    ) -> Self {
        let now = Instant::now();
        ChannelEvents {
            rx,
            inbox,
            parser: InputParser::new(),
            queue: VecDeque::new(),
            idle_timeout: class.limits.idle_timeout,
            ends_at: class.limits.max_session_time.map(|t| now + t),
            last_activity: now,
            last_byte: now,
            seen_generation: class.generation(),
            class,
            shared,
            panic_key: None,
            share: None,
            memory: None,
            ending: None,
            goodbye: None,
        }
    }

    /// Hold this session to a student's share of the processor (see
    /// [`crate::cpu_share`]); its long jobs run at a lower priority.
    pub fn as_student(mut self) -> Self {
        self.share = Some(crate::cpu_share::CpuShare::new(
            Instant::now(),
            crate::cpu_share::thread_time(),
            Arc::clone(&self.class.busy_students),
            crate::cpu_share::class_cores(),
        ));
        self.memory = self
            .class
            .limits
            .student_memory
            .and_then(crate::memory::StudentMemory::open);
        self
    }

    /// Charge the calling thread (the session's own) to the student's
    /// memory account.
    fn charge_this_thread(&self) {
        if let Some(m) = &self.memory {
            bpeek_core::memory_owner::charge_this_thread_to(m.owner());
        }
    }

    /// Before the next action of a student past its share: wait the
    /// excess (said once a window).
    fn keep_share(&mut self) {
        let Some(share) = self.share.as_mut() else {
            return;
        };
        let Some((wait, tell)) = share.wait(Instant::now(), crate::cpu_share::thread_time()) else {
            return;
        };
        if tell {
            self.queue.push_back(Event::Notice(
                "your own work is past its share of the processor: it waits a moment, so the class's steps come first"
                    .into(),
            ));
        }
        std::thread::sleep(wait);
    }

    /// Panic on `key`, as a bug in the explorer would (tests of the server).
    pub fn panicking_on(mut self, key: Option<char>) -> Self {
        self.panic_key = key;
        self
    }

    fn end(&mut self, ending: Ending) -> io::Result<Option<Event>> {
        self.ending.get_or_insert(ending);
        Ok(Some(Event::Closed))
    }

    /// Parse the next slice of what the client sent, if it sent anything,
    /// into events; a buffer that overflowed is said once. False if there
    /// was nothing to read.
    fn read_typed(&mut self, flags: &crate::incoming::Flags) -> bool {
        let (bytes, overflowed) = flags.take_typed(crate::incoming::INPUT_SLICE);
        if overflowed > 0 {
            self.queue.push_back(Event::Notice(format!(
                "{overflowed} bytes of input dropped: they came faster than the explorer reads"
            )));
        }
        if bytes.is_empty() {
            return false;
        }
        let now = Instant::now();
        self.last_activity = now;
        self.last_byte = now;
        let parsed = self.parser.feed(&bytes);
        let short = parsed.events.iter().any(|e| matches!(e, Event::Paste(_)))
            && crate::memory::over(self.class.limits.max_memory);
        for e in parsed.events {
            match e {
                Event::Paste(_) if short => self.queue.push_back(Event::Notice(
                    "the server is short of memory: the paste is left out".into(),
                )),
                e => self.queue.push_back(e),
            }
        }
        if let Some(dropped) = parsed.paste_cut {
            self.queue.push_back(Event::Notice(format!(
                "paste cut to its first {} KB ({dropped} bytes dropped)",
                PASTE_CAP / 1024
            )));
        }
        true
    }
}

impl EventSource for ChannelEvents {
    /// Keys already parsed, or bytes not parsed yet: the loop takes them
    /// before it draws (a frame at most every so often while they last).
    fn pending(&mut self) -> bool {
        !self.queue.is_empty() || self.inbox.flags.has_typed()
    }

    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Option<Event>> {
        let tick_at = timeout.map(|t| Instant::now() + t);
        loop {
            if let Some(change) = self.memory.as_mut().and_then(|m| m.change()) {
                return Ok(Some(Event::MemoryBudget(change)));
            }
            let flags = self.inbox.flags.clone();
            if let Some((goodbye, why)) = flags.take_close() {
                self.goodbye = Some(goodbye);
                return self.end(why);
            }
            if flags.is_gone() {
                return self.end(Ending::Gone);
            }
            if let Some((w, h)) = flags.take_size() {
                // Only the latest size counts: older ones still queued go.
                self.queue.retain(|e| !matches!(e, Event::Resize(..)));
                self.queue.push_back(Event::Resize(w, h));
            }
            let generation = self.class.generation();
            // A vote wakes the teacher without a new generation.
            if flags.take_class() | (generation != self.seen_generation) {
                self.seen_generation = generation;
                self.last_activity = Instant::now();
                return Ok(Some(Event::Class));
            }
            // Slices that make no event (a long paste, a control string)
            // are read on until one does or the buffer is empty.
            while self.queue.is_empty() && self.read_typed(&flags) {}
            if let Some(e) = self.queue.pop_front() {
                if matches!(e, Event::Key(_) | Event::Mouse(_) | Event::Paste(_)) {
                    self.keep_share();
                }
                if let (Event::Key(key), Some(c)) = (&e, self.panic_key) {
                    assert!(
                        key.code != crossterm::event::KeyCode::Char(c),
                        "the key {c:?} was pressed, which --panic-key makes a panic"
                    );
                }
                return Ok(Some(e));
            }
            let now = Instant::now();
            let idle_at = self.last_activity + self.idle_timeout;
            let esc_at = self.parser.waiting().then(|| self.last_byte + ESC_WAIT);
            // A paste whose end marker never comes must not swallow the
            // student's keys for good.
            let paste_at = self
                .parser
                .in_paste()
                .then(|| self.last_byte + crate::input::PASTE_SILENCE);
            if self.ends_at.is_some_and(|t| now >= t) {
                self.goodbye = Some(format!(
                    "bpeek: the session reached the server's time limit of {}; goodbye",
                    crate::describe_duration(
                        self.class.limits.max_session_time.unwrap_or_default()
                    )
                ));
                return self.end(Ending::TimeLimit);
            }
            let wake_at = [Some(idle_at), esc_at, paste_at, tick_at, self.ends_at]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(idle_at);
            let got = self.rx.recv_timeout(wake_at.saturating_duration_since(now));
            match got {
                Ok(Incoming::Flags | Incoming::Class | Incoming::Typed) => {}
                Ok(Incoming::Redraw) => self.queue.push_back(Event::Redraw),
                Ok(Incoming::Loaded(done)) => self.queue.push_back(Event::Loaded(done)),
                Ok(Incoming::JobDone) => self.queue.push_back(Event::JobDone),
                Err(RecvTimeoutError::Disconnected) => return self.end(Ending::Gone),
                Err(RecvTimeoutError::Timeout) => {
                    let now = Instant::now();
                    if esc_at.is_some_and(|t| now >= t) {
                        self.queue.extend(self.parser.flush().events);
                    } else if paste_at.is_some_and(|t| now >= t) {
                        self.queue.extend(self.parser.end_paste().events);
                    } else if now >= idle_at {
                        self.goodbye = Some(format!(
                            "bpeek: no key pressed for {}; session closed",
                            crate::describe_duration(self.idle_timeout)
                        ));
                        return self.end(Ending::Idle);
                    } else if tick_at.is_some_and(|t| now >= t) {
                        // A tick moves a job or columns on: work too.
                        self.keep_share();
                        return Ok(None);
                    }
                }
            }
        }
    }

    fn load(&mut self, spec: &str) {
        let tx = self.inbox.tx.clone();
        let shared = self.shared.clone();
        let spec = spec.to_string();
        std::thread::spawn(move || {
            let _ = tx.send(Incoming::Loaded(shared.get(&spec)));
        });
    }

    fn spawn(&mut self, work: bpeek_tui::job::Work) {
        let tx = self.inbox.tx.clone();
        let student = self.share.is_some();
        // The job's memory is the session's.
        let owner = bpeek_core::memory_owner::this_thread();
        std::thread::spawn(move || {
            bpeek_core::memory_owner::charge_this_thread_to(owner);
            if student {
                crate::cpu_share::lower_this_thread();
            }
            work.run();
            let _ = tx.send(Incoming::JobDone);
        });
    }
}

/// Run one explorer until it quits or the connection ends, then give the
/// client's terminal back. A panic ends this session only.
#[allow(clippy::too_many_arguments)]
pub fn run(
    setup: &Setup,
    role: Role,
    seat_id: u64,
    size: (u16, u16),
    term: &str,
    events: ChannelEvents,
    outbox: Outbox,
) -> Ending {
    let mut events = events;
    events.charge_this_thread();
    let body = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        explore(setup, role, seat_id, size, term, &mut events, &outbox)
    }));
    let ending = match body {
        Ok(Ok(())) => events.ending.clone().unwrap_or(Ending::Quit),
        Ok(Err(_)) if outbox.is_closed() => Ending::Gone,
        Ok(Err(e)) => Ending::Failed(e.to_string()),
        Err(panic) => Ending::Panicked(panic_message(&panic)),
    };
    let message = match &ending {
        Ending::Quit | Ending::Gone | Ending::Stalled => None,
        Ending::Idle | Ending::ServerStopping | Ending::TimeLimit | Ending::Replaced => {
            events.goodbye.clone()
        }
        Ending::Failed(e) => Some(format!("bpeek: the session ended: {e}")),
        Ending::Panicked(_) => Some("bpeek: the session ended on an internal error".into()),
    };
    if !matches!(ending, Ending::Gone | Ending::Stalled) {
        let _ = outbox.must(Out::Bytes(screen::leave_sequence(message.as_deref())));
        let status = u32::from(!matches!(ending, Ending::Quit));
        let _ = outbox.must(Out::End(status));
    }
    ending
}

fn explore(
    setup: &Setup,
    role: Role,
    seat_id: u64,
    size: (u16, u16),
    term: &str,
    events: &mut ChannelEvents,
    outbox: &Outbox,
) -> bpeek_core::error::Result<()> {
    // The client's TERM, not the server's, says whether colour and box
    // drawing work (and its NO_COLOR never arrives: the server takes no
    // environment).
    let colour = setup.colour.resolve(term, false);
    let mut app = setup.app(Theme::new(colour, setup.glyphs.ascii_for(term)));
    if !setup.compare.is_empty() {
        bpeek_tui::update(
            &mut app,
            bpeek_tui::Action::Compare(bpeek_tui::compare::Trained(setup.compare.clone())),
        );
    }
    for spec in &setup.tokenizer_specs {
        app.add_tokenizer(spec);
    }
    if role == Role::Teacher {
        app.lesson = setup.lesson.clone();
    }
    app.classroom = Some(Classroom::new(role, setup.class.link(seat_id)));
    app.encode.limit = Some(crate::memory::SESSION_TEXT);
    // A late joiner starts where the teacher is; a teacher starts where the
    // class is (a reconnect goes on, not back to merge 0) and tells it so.
    update(&mut app, Action::ClassChanged);
    update(&mut app, Action::ResumeClass);
    update(&mut app, Action::Publish);
    let fail = |e: io::Error| bpeek_core::error::Error::failure(format!("client terminal: {e}"));
    outbox
        .must(Out::Bytes(screen::enter_sequence(!setup.glyphs.no_mouse)))
        .map_err(fail)?;
    // The same care for text terminals measure differently as at home.
    let backend = WideCellBackend::over(RemoteScreen::new(outbox.clone(), size.0, size.1));
    let mut terminal = Terminal::new(backend).map_err(fail)?;
    run_loop(&mut terminal, &mut app, events)
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown".into()
    }
}
