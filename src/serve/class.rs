//! The class: who is connected, the teacher's latest training state, and
//! the limits on who may connect.
//!
//! The teacher's state goes out through a `watch` channel (the latest value
//! only: a follower that falls behind skips to the newest state rather than
//! replaying a queue). Sessions are woken with a message when the class
//! changes, and read what changed from here.

use crate::serve::incoming::Incoming;
use crate::tui::classroom::{ClassCounts, ClassLink, Role, TrainingState};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Limits on connections, from the command line.
#[derive(Debug, Clone)]
pub struct Limits {
    pub max_sessions: usize,
    pub per_address: usize,
    /// New connections per minute from one address (a burst of this many,
    /// then one every 60/N seconds).
    pub rate_per_address: u32,
    pub idle_timeout: Duration,
    /// From the first byte to a successful login.
    pub login_timeout: Duration,
    /// How long a client may take no output before its session is closed.
    pub stall_timeout: Duration,
}

/// Tells an explorer the class changed.
pub type Waker = Box<dyn Fn() + Send + Sync>;

struct Member {
    role: Option<Role>,
    following: bool,
    peer: IpAddr,
    /// Set once the connection runs an explorer.
    wake: Option<Waker>,
    /// A served explorer's input queue (the leading terminal has none).
    inbox: Option<SyncSender<Incoming>>,
}

/// A connection's place in the class, given back when it ends.
pub struct Seat {
    class: Arc<Class>,
    pub id: u64,
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.class.leave(self.id);
    }
}

#[derive(Default)]
struct Members {
    next_id: u64,
    members: HashMap<u64, Member>,
    /// Per address: connection tokens left and when they were counted.
    buckets: HashMap<IpAddr, (f64, Instant)>,
    stopping: bool,
}

pub struct Class {
    pub limits: Limits,
    members: Mutex<Members>,
    teacher: watch::Sender<Option<TrainingState>>,
    /// Bumped on every change a session should see.
    generation: AtomicU64,
}

/// Why a connection is turned away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Full(usize),
    AddressFull(usize),
    TooFast,
    Stopping,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Full(n) => write!(f, "the class is full ({n} sessions); try again later"),
            Refusal::AddressFull(n) => write!(
                f,
                "too many sessions from your address ({n}); close one and try again"
            ),
            Refusal::TooFast => write!(
                f,
                "too many new connections from your address; wait a minute and try again"
            ),
            Refusal::Stopping => write!(f, "the server is stopping"),
        }
    }
}

impl Class {
    pub fn new(limits: Limits) -> Arc<Class> {
        Arc::new(Class {
            limits,
            members: Mutex::new(Members::default()),
            teacher: watch::channel(None).0,
            generation: AtomicU64::new(0),
        })
    }

    fn members(&self) -> std::sync::MutexGuard<'_, Members> {
        // A panic elsewhere never leaves the member list half changed.
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take a seat for a new connection from `peer`, or say why not.
    pub fn join(self: &Arc<Self>, peer: IpAddr) -> Result<Seat, Refusal> {
        let mut m = self.members();
        if m.stopping {
            return Err(Refusal::Stopping);
        }
        if m.members.len() >= self.limits.max_sessions {
            return Err(Refusal::Full(self.limits.max_sessions));
        }
        let from_peer = m.members.values().filter(|x| x.peer == peer).count();
        if from_peer >= self.limits.per_address {
            return Err(Refusal::AddressFull(self.limits.per_address));
        }
        let burst = f64::from(self.limits.rate_per_address.max(1));
        let now = Instant::now();
        let (tokens, at) = m.buckets.entry(peer).or_insert((burst, now));
        let refilled = (*tokens + now.duration_since(*at).as_secs_f64() * burst / 60.0).min(burst);
        if refilled < 1.0 {
            *tokens = refilled;
            *at = now;
            return Err(Refusal::TooFast);
        }
        *tokens = refilled - 1.0;
        *at = now;
        let id = m.next_id;
        m.next_id += 1;
        m.members.insert(
            id,
            Member {
                role: None,
                following: false,
                peer,
                wake: None,
                inbox: None,
            },
        );
        Ok(Seat {
            class: self.clone(),
            id,
        })
    }

    /// The connection `id` starts an explorer as `role`, woken through `wake`.
    /// A second teacher is refused.
    pub fn start_session(&self, id: u64, role: Role, inbox: SyncSender<Incoming>) -> bool {
        let waker = inbox.clone();
        // A full queue is being read now, and the reader sees the change.
        let wake: Waker = Box::new(move || {
            let _ = waker.try_send(Incoming::Class);
        });
        self.start(id, role, wake, Some(inbox))
    }

    /// The leading terminal's explorer takes seat `id` as the teacher.
    pub fn start_lead(&self, id: u64, wake: Waker) -> bool {
        self.start(id, Role::Teacher, wake, None)
    }

    fn start(&self, id: u64, role: Role, wake: Waker, inbox: Option<SyncSender<Incoming>>) -> bool {
        let mut m = self.members();
        if role == Role::Teacher
            && m.members
                .values()
                .any(|x| x.role == Some(Role::Teacher) && x.wake.is_some())
        {
            return false;
        }
        if let Some(member) = m.members.get_mut(&id) {
            member.role = Some(role);
            member.following = role == Role::Student;
            member.wake = Some(wake);
            member.inbox = inbox;
        }
        drop(m);
        self.changed();
        true
    }

    fn leave(&self, id: u64) {
        let was_teacher = {
            let mut m = self.members();
            let gone = m.members.remove(&id);
            gone.is_some_and(|x| x.role == Some(Role::Teacher) && x.wake.is_some())
        };
        if was_teacher {
            self.teacher.send_replace(None);
        }
        self.changed();
    }

    /// Tell every session the class changed.
    pub fn changed(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let m = self.members();
        for member in m.members.values() {
            if let Some(wake) = &member.wake {
                wake();
            }
        }
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    pub fn counts(&self) -> ClassCounts {
        let m = self.members();
        let mut counts = ClassCounts::default();
        for member in m.members.values().filter(|x| x.wake.is_some()) {
            match member.role {
                Some(Role::Teacher) => counts.teacher = true,
                Some(Role::Student) => {
                    counts.students += 1;
                    counts.following += usize::from(member.following);
                }
                None => {}
            }
        }
        counts
    }

    /// Every session: stop with `goodbye` on its screen. No one joins after.
    pub fn stop_all(&self, goodbye: &str) {
        let mut m = self.members();
        m.stopping = true;
        for member in m.members.values() {
            if let Some(inbox) = &member.inbox {
                let wake = inbox.clone();
                let goodbye = goodbye.to_string();
                // The queue may be full: wait for room off this thread.
                std::thread::spawn(move || wake.send(Incoming::Close(goodbye)));
            }
        }
    }

    /// Connections (with or without an explorer yet).
    pub fn connections(&self) -> usize {
        self.members().members.len()
    }

    /// The session's line to the class, for its explorer.
    pub fn link(self: &Arc<Self>, id: u64) -> Box<dyn ClassLink> {
        Box::new(Link {
            class: self.clone(),
            id,
        })
    }
}

struct Link {
    class: Arc<Class>,
    id: u64,
}

impl ClassLink for Link {
    fn publish(&self, state: TrainingState) {
        self.class.teacher.send_replace(Some(state));
        self.class.changed();
    }

    fn teacher(&self) -> Option<TrainingState> {
        *self.class.teacher.borrow()
    }

    fn set_following(&self, following: bool) {
        if let Some(member) = self.class.members().members.get_mut(&self.id) {
            member.following = following;
        }
        self.class.changed();
    }

    fn counts(&self) -> ClassCounts {
        self.class.counts()
    }
}
