//! The class: who is connected, the teacher's latest training state, and
//! the limits on who may connect.
//!
//! The teacher's state goes out through a `watch` channel (the latest value
//! only: a follower that falls behind skips to the newest state rather than
//! replaying a queue). Sessions are woken with a message when the class
//! changes, and read what changed from here.

use crate::incoming::Inbox;
use crate::log::Log;
use crate::login_watch::LoginWatch;
use crate::question::Question;
use crate::session::Ending;
use bpeek_core::Pair;
use bpeek_tui::class::{
    ClassCounts, ClassLink, ColumnClaim, ColumnKey, QuestionView, Role, SharedTrainer,
    TrainingState,
};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Limits on connections, from the command line.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Students at once; the teacher's seat is kept free besides.
    pub max_sessions: usize,
    pub per_address: usize,
    /// New connections per minute from one address (a burst of this many,
    /// then one every 60/N seconds).
    pub rate_per_address: u32,
    pub idle_timeout: Duration,
    /// From the first byte to a running explorer.
    pub login_timeout: Duration,
    /// How long a client may take no output before its session is closed.
    pub stall_timeout: Duration,
    pub max_session_time: Option<Duration>,
    pub startups: Startups,
    /// Resident memory past which new students and pastes are refused.
    pub max_memory: Option<u64>,
    /// What one student's session may hold (its threads' large blocks)
    /// before its own work stops.
    pub student_memory: Option<u64>,
}

/// Connections still logging in (no explorer yet), limited the way
/// OpenSSH's `MaxStartups start:rate:full` limits them: from `start` on,
/// a new one is refused with a chance rising from `rate` percent to 100 at
/// `full`; and one address holds at most `per_source` of them, fewer than
/// `start`, so one source alone never makes the others' logins a gamble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Startups {
    pub start: usize,
    pub rate: u32,
    pub full: usize,
    pub per_source: usize,
}

impl Startups {
    /// `10:30:100`, as OpenSSH writes it.
    pub fn parse(text: &str, per_source: usize) -> std::result::Result<Startups, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let bad = || "expected START:RATE:FULL, like 10:30:100".to_string();
        let [start, rate, full] = parts[..] else {
            return Err(bad());
        };
        let start: usize = start.parse().map_err(|_| bad())?;
        let rate: u32 = rate.parse().map_err(|_| bad())?;
        let full: usize = full.parse().map_err(|_| bad())?;
        if start == 0 || start > full || rate > 100 {
            return Err("START must be at least 1 and at most FULL, RATE at most 100".into());
        }
        if per_source == 0 {
            return Err("the share of one address must be at least 1".into());
        }
        Ok(Startups {
            start,
            rate,
            full,
            per_source,
        })
    }

    /// Whether a new login is refused with `pending` under way, `from_peer`
    /// of them from its address; `roll` is uniform in 0..100.
    pub fn refuses(&self, pending: usize, from_peer: usize, roll: u32) -> bool {
        if from_peer >= self.per_source || pending >= self.full {
            return true;
        }
        if pending < self.start {
            return false;
        }
        let span = (self.full - self.start) as u64;
        let over = (pending - self.start) as u64;
        let chance = u64::from(self.rate) + (100 - u64::from(self.rate)) * over / span.max(1);
        u64::from(roll) < chance
    }
}

/// The longest a teacher password try waits for its answer: every failure
/// from an address makes its next answer 0.1 s slower, up to this. Never a
/// lockout: the one-time password (16 letters of 31, 79 bits) is not
/// guessed at one try a second or two, and a lockout would let anyone
/// behind the teacher's address (a class behind one NAT) keep the teacher
/// out.
pub const SLOWEST_ANSWER: Duration = Duration::from_secs(2);

/// A failure is forgotten this long after the last one.
pub const FAILURE_MEMORY: Duration = Duration::from_secs(600);

/// Close an idle login under way to make room: one from `peer` if there is
/// one, else (unless `own_only`: the address is past its own share) the
/// oldest. False if none is idle.
fn evict_idle(m: &mut Members, peer: IpAddr, own_only: bool) -> bool {
    let now = std::time::Instant::now();
    let idle = |x: &&Member| {
        x.wake.is_none() && !x.evicted && x.login.as_ref().is_some_and(|l| l.idle(now))
    };
    let victim = m
        .members
        .iter()
        .filter(|(_, x)| idle(x) && x.peer == peer)
        .map(|(id, _)| *id)
        .min()
        .or_else(|| {
            if own_only {
                return None;
            }
            m.members
                .iter()
                .filter(|(_, x)| idle(x))
                .map(|(id, _)| *id)
                .min()
        });
    let Some(member) = victim.and_then(|id| m.members.get_mut(&id)) else {
        return false;
    };
    member.evicted = true;
    if let Some(login) = &member.login {
        login.evict();
    }
    true
}

/// Tells an explorer the class changed.
pub type Waker = Box<dyn Fn() + Send + Sync>;

struct Member {
    role: Option<Role>,
    following: bool,
    peer: IpAddr,
    /// Set once the connection runs an explorer.
    wake: Option<Waker>,
    /// A served explorer's input (the leading terminal has none).
    inbox: Option<Inbox>,
    /// How its login goes (the leading terminal has none).
    login: Option<Arc<LoginWatch>>,
    /// It gave its place up to a newer login, and is closing.
    evicted: bool,
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
    /// Per address: failed teacher logins and when the last one was.
    failures: HashMap<IpAddr, (u32, Instant)>,
    stopping: bool,
}

pub struct Class {
    pub limits: Limits,
    members: Mutex<Members>,
    teacher: watch::Sender<Option<TrainingState>>,
    /// Where the class stands, kept when the teacher leaves: a teacher who
    /// logs in again starts here.
    last: Mutex<Option<TrainingState>>,
    /// The teacher's trainer at `last`, for followers to show.
    shared: Mutex<Option<SharedTrainer>>,
    /// The teacher's question to the class, while one is open.
    question: Mutex<Option<Question>>,
    /// Compare columns counted or trained by some session, held weakly:
    /// another session comparing the same configuration takes them.
    columns: crate::columns::SharedColumns,
    /// Students whose own work used the processor lately: they share half
    /// the machine (see [`crate::cpu_share`]).
    pub busy_students: Arc<crate::cpu_share::BusyStudents>,
    questions_asked: AtomicU64,
    /// Where the class's own events (a question's tally) are logged.
    log: Mutex<Option<Log>>,
    /// Bumped on every change a session should see.
    generation: AtomicU64,
}

/// Why a connection is turned away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Full(usize),
    AddressFull(usize),
    TooFast,
    /// Too many logins under way (all, or from this address).
    Pending,
    TeacherLeads,
    Stopping,
    ShortOfMemory,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Full(n) => write!(f, "the class is full ({n} sessions); try again later"),
            Refusal::AddressFull(n) => write!(
                f,
                "too many connections from your address ({n}); close one and try again"
            ),
            Refusal::TooFast => write!(
                f,
                "too many new connections from your address; wait a minute and try again"
            ),
            Refusal::Pending => write!(f, "too many logins under way; try again in a few seconds"),
            Refusal::TeacherLeads => write!(f, "the teacher leads from the server's own terminal"),
            Refusal::Stopping => write!(f, "the server is stopping"),
            Refusal::ShortOfMemory => {
                write!(f, "the server is short of memory; try again later")
            }
        }
    }
}

impl Refusal {
    /// A short name for the log.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Full(_) => "full",
            Refusal::AddressFull(_) => "per address",
            Refusal::TooFast => "too fast",
            Refusal::Pending => "logins pending",
            Refusal::TeacherLeads => "teacher leads",
            Refusal::Stopping => "stopping",
            Refusal::ShortOfMemory => "memory",
        }
    }
}

/// A number in 0..100 that a client cannot predict.
fn roll() -> u32 {
    let mut b = [0u8; 4];
    if getrandom::fill(&mut b).is_err() {
        return 0;
    }
    u32::from_le_bytes(b) % 100
}

impl Class {
    pub fn new(limits: Limits) -> Arc<Class> {
        Arc::new(Class {
            limits,
            members: Mutex::new(Members::default()),
            teacher: watch::channel(None).0,
            last: Mutex::new(None),
            shared: Mutex::new(None),
            question: Mutex::new(None),
            columns: crate::columns::SharedColumns::default(),
            busy_students: Arc::default(),
            questions_asked: AtomicU64::new(0),
            log: Mutex::new(None),
            generation: AtomicU64::new(0),
        })
    }

    fn members(&self) -> std::sync::MutexGuard<'_, Members> {
        // A panic elsewhere never leaves the member list half changed.
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Take a place for a connection from `peer` just accepted (before a
    /// byte of SSH), or say why not. Its explorer's seat is claimed later,
    /// by [`Class::start_session`], once it is known who logged in.
    pub fn join(self: &Arc<Self>, peer: IpAddr) -> Result<Seat, Refusal> {
        self.join_watched(peer, None)
    }

    /// A place for a teacher who logged in on a connection refused for
    /// the students' limits (see the handler): only a stopping server
    /// refuses it.
    pub fn join_teacher(
        self: &Arc<Self>,
        peer: IpAddr,
        login: Arc<LoginWatch>,
    ) -> Result<Seat, Refusal> {
        let mut m = self.members();
        if m.stopping {
            return Err(Refusal::Stopping);
        }
        Ok(self.admit(&mut m, peer, Some(login)))
    }

    /// [`Class::join`] for a connection whose login `login` watches: where
    /// the logins under way are too many, an idle one (see
    /// [`crate::login_watch`]) gives its place up to this one: one from the
    /// same address, or where all addresses together are too many, the
    /// oldest anywhere.
    pub fn join_watched(
        self: &Arc<Self>,
        peer: IpAddr,
        login: Option<Arc<LoginWatch>>,
    ) -> Result<Seat, Refusal> {
        let mut m = self.members();
        if m.stopping {
            return Err(Refusal::Stopping);
        }
        // A full class is not refused here: the one logging in may be a
        // teacher taking over from a dead link. The pending limits bound
        // how many wait to be told at their shell.
        let from_peer = m
            .members
            .values()
            .filter(|x| x.peer == peer && !x.evicted)
            .count();
        if from_peer >= self.limits.per_address {
            return Err(Refusal::AddressFull(self.limits.per_address));
        }
        let pending = m
            .members
            .values()
            .filter(|x| x.wake.is_none() && !x.evicted);
        let (pending, pending_from_peer) = pending.fold((0, 0), |(all, p), x| {
            (all + 1, p + usize::from(x.peer == peer))
        });
        if self
            .limits
            .startups
            .refuses(pending, pending_from_peer, roll())
            && !evict_idle(
                &mut m,
                peer,
                pending_from_peer >= self.limits.startups.per_source,
            )
        {
            return Err(Refusal::Pending);
        }
        let burst = f64::from(self.limits.rate_per_address.max(1));
        let now = Instant::now();
        if m.buckets.len() > 4096 {
            // Addresses whose bucket has filled again are as good as new.
            m.buckets.retain(|_, (t, at)| {
                *t + now.duration_since(*at).as_secs_f64() * burst / 60.0 < burst
            });
        }
        let (tokens, at) = m.buckets.entry(peer).or_insert((burst, now));
        let refilled = (*tokens + now.duration_since(*at).as_secs_f64() * burst / 60.0).min(burst);
        if refilled < 1.0 {
            *tokens = refilled;
            *at = now;
            return Err(Refusal::TooFast);
        }
        *tokens = refilled - 1.0;
        *at = now;
        Ok(self.admit(&mut m, peer, login))
    }

    /// A place for a connection from `peer`, past every check.
    fn admit(
        self: &Arc<Self>,
        m: &mut Members,
        peer: IpAddr,
        login: Option<Arc<LoginWatch>>,
    ) -> Seat {
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
                login,
                evicted: false,
            },
        );
        Seat {
            class: self.clone(),
            id,
        }
    }

    /// A teacher password try from `peer`: how long to wait before
    /// answering, longer with every failure up to [`SLOWEST_ANSWER`]. The
    /// try counts as a failure until [`Class::login_succeeded`] says
    /// otherwise, so parallel connections slow each other too.
    pub fn password_try(&self, peer: IpAddr) -> Duration {
        let mut m = self.members();
        let now = Instant::now();
        if m.failures.len() > 4096 {
            m.failures
                .retain(|_, (_, at)| now.duration_since(*at) < FAILURE_MEMORY);
        }
        let entry = m.failures.entry(peer).or_insert((0, now));
        if now.duration_since(entry.1) >= FAILURE_MEMORY {
            *entry = (0, now);
        }
        let before = entry.0;
        *entry = (before.saturating_add(1), now);
        (Duration::from_millis(100) * before).min(SLOWEST_ANSWER)
    }

    /// Failed teacher logins from `peer` so far.
    pub fn failures(&self, peer: IpAddr) -> u32 {
        self.members().failures.get(&peer).map_or(0, |f| f.0)
    }

    /// A teacher from `peer` logged in: that try was no failure.
    pub fn login_succeeded(&self, peer: IpAddr) {
        if let Some(f) = self.members().failures.get_mut(&peer) {
            f.0 = f.0.saturating_sub(1);
        }
    }

    /// The connection `id` starts an explorer as `role`, woken through
    /// `inbox`. A student is refused when the students' seats are taken
    /// (the teacher's is kept free); a teacher takes over from an earlier
    /// teacher session, which may be a dead link that has not timed out.
    pub fn start_session(&self, id: u64, role: Role, inbox: Inbox) -> Result<(), Refusal> {
        let waker = inbox.clone();
        // A full queue is being read now, and the reader sees the change.
        let wake: Waker = Box::new(move || waker.class_changed());
        self.start(id, role, wake, Some(inbox))
    }

    /// The leading terminal's explorer takes seat `id` as the teacher.
    pub fn start_lead(&self, id: u64, wake: Waker) -> bool {
        self.start(id, Role::Teacher, wake, None).is_ok()
    }

    fn start(&self, id: u64, role: Role, wake: Waker, inbox: Option<Inbox>) -> Result<(), Refusal> {
        let mut m = self.members();
        if m.stopping {
            return Err(Refusal::Stopping);
        }
        let seated = m
            .members
            .iter()
            .filter(|(other, x)| **other != id && x.wake.is_some() && x.role == Some(role));
        match role {
            Role::Student => {
                if seated.count() >= self.limits.max_sessions {
                    return Err(Refusal::Full(self.limits.max_sessions));
                }
                // The teacher still gets in: a class without one is stuck.
                if crate::memory::over(self.limits.max_memory) {
                    return Err(Refusal::ShortOfMemory);
                }
            }
            Role::Teacher => {
                let earlier: Vec<u64> = seated.map(|(other, _)| *other).collect();
                for other in earlier {
                    let Some(old) = m.members.get_mut(&other) else {
                        continue;
                    };
                    let Some(old_inbox) = &old.inbox else {
                        return Err(Refusal::TeacherLeads);
                    };
                    old_inbox.close(
                        "bpeek: the teacher logged in again from another connection; this session ended",
                        Ending::Replaced,
                    );
                    // From now on it leaves as no one in particular.
                    old.role = None;
                }
            }
        }
        if let Some(member) = m.members.get_mut(&id) {
            member.role = Some(role);
            member.following = role == Role::Student;
            member.wake = Some(wake);
            member.inbox = inbox;
        }
        drop(m);
        self.changed();
        Ok(())
    }

    fn leave(&self, id: u64) {
        let was_teacher = {
            let mut m = self.members();
            let gone = m.members.remove(&id);
            gone.is_some_and(|x| x.role == Some(Role::Teacher) && x.wake.is_some())
        };
        {
            let mut question = self.question();
            if was_teacher {
                // A class without a teacher has no question.
                *question = None;
            } else if let Some(q) = question.as_mut() {
                q.forget(id);
            }
        }
        if was_teacher {
            self.teacher.send_replace(None);
        }
        self.changed();
    }

    fn question(&self) -> std::sync::MutexGuard<'_, Option<Question>> {
        self.question.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Log the class's own events (a question's tally) to `log`.
    pub fn set_log(&self, log: Log) {
        *self.log.lock().unwrap_or_else(|e| e.into_inner()) = Some(log);
    }

    /// Wake the teacher's session only (a vote changes only its screen).
    fn wake_teacher(&self) {
        let m = self.members();
        for member in m.members.values() {
            if member.role == Some(Role::Teacher)
                && let Some(wake) = &member.wake
            {
                wake();
            }
        }
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
                inbox.close(goodbye, Ending::ServerStopping);
            }
        }
    }

    /// Connections still logging in (no explorer yet).
    pub fn pending(&self) -> usize {
        self.members()
            .members
            .values()
            .filter(|x| x.wake.is_none())
            .count()
    }

    /// Where the class last stood, with or without a teacher now.
    pub fn last_state(&self) -> Option<TrainingState> {
        *self.last.lock().unwrap_or_else(|e| e.into_inner())
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
    fn claim_column(&self, key: &ColumnKey, wait: Option<std::time::Duration>) -> ColumnClaim {
        self.class.columns.claim(key, wait)
    }

    fn keep_column(&self, key: ColumnKey, trainer: &bpeek_tui::compare::ColumnTrainer) {
        self.class.columns.keep(key, trainer);
    }

    fn publish(&self, state: TrainingState, shared: Option<SharedTrainer>) {
        // The trainer first: a follower woken by the new state finds it.
        *self.class.shared.lock().unwrap_or_else(|e| e.into_inner()) = shared;
        *self.class.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(state);
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

    fn resume(&self) -> Option<TrainingState> {
        self.class.last_state()
    }

    fn shared(&self) -> Option<SharedTrainer> {
        self.class
            .shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn ask(&self, at: TrainingState, winner: Pair) -> bool {
        let id = self.class.questions_asked.fetch_add(1, Ordering::SeqCst) + 1;
        *self.class.question() = Some(Question::new(id, at, winner));
        self.class.changed();
        true
    }

    fn show_tally(&self, on: bool) {
        if let Some(q) = self.class.question().as_mut() {
            q.tally_shown = on;
        }
        self.class.wake_teacher();
    }

    fn close_question(&self, reveal: bool, label: &dyn Fn(Pair) -> String) {
        let line = {
            let mut question = self.class.question();
            match question.as_mut() {
                Some(q) if reveal && !q.revealed => {
                    q.revealed = true;
                    Some(q.summary(label))
                }
                Some(_) if !reveal => {
                    *question = None;
                    None
                }
                _ => return,
            }
        };
        if let (Some(line), Some(log)) = (
            line,
            self.class
                .log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref(),
        ) {
            log.line(&line);
        }
        self.class.changed();
    }

    fn vote(&self, pair: Pair) {
        let voted = self
            .class
            .question()
            .as_mut()
            .is_some_and(|q| q.vote(self.id, pair));
        if voted {
            self.class.wake_teacher();
        }
    }

    fn question(&self) -> Option<QuestionView> {
        self.class.question().as_ref().map(|q| q.view_for(self.id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class() -> Arc<Class> {
        Class::new(Limits {
            max_sessions: 64,
            per_address: 65,
            rate_per_address: 6000,
            idle_timeout: Duration::from_secs(600),
            login_timeout: Duration::from_secs(20),
            stall_timeout: Duration::from_secs(60),
            max_session_time: None,
            // No refusal by chance: up to 20 logins under way, 4 an address.
            startups: Startups::parse("20:100:21", 4).unwrap(),
            max_memory: None,
            student_memory: None,
        })
    }

    fn ip(last: u8) -> IpAddr {
        std::net::Ipv4Addr::new(10, 0, 0, last).into()
    }

    #[test]
    fn an_idle_login_gives_its_place_up_first_from_the_same_address_then_the_oldest() {
        let class = class();
        let long_ago = std::time::Instant::now() - Duration::from_secs(10);
        // Address 1 fills its share with silent sockets accepted long ago;
        // address 2 holds one more, silent too.
        let silent: Vec<_> = (0..4)
            .map(|_| Arc::new(LoginWatch::accepted_at(long_ago)))
            .collect();
        let seats: Vec<_> = silent
            .iter()
            .map(|w| class.join_watched(ip(1), Some(w.clone())).unwrap())
            .collect();
        let other = Arc::new(LoginWatch::accepted_at(long_ago));
        let _other_seat = class.join_watched(ip(2), Some(other.clone())).unwrap();
        // A fifth from address 1 takes the place of its oldest, not of the
        // other address's.
        let fresh = Arc::new(LoginWatch::default());
        let _fifth = class.join_watched(ip(1), Some(fresh.clone())).unwrap();
        assert!(silent[0].idle(std::time::Instant::now()));
        assert_eq!(
            silent.iter().map(|w| w.is_evicted()).collect::<Vec<_>>(),
            [true, false, false, false]
        );
        assert!(!other.is_evicted());
        // A login under way (it asked) is never idle, however old.
        for w in &silent[1..] {
            w.request();
        }
        let sixth = Arc::new(LoginWatch::default());
        assert_eq!(
            class.join_watched(ip(1), Some(sixth)).err(),
            Some(Refusal::Pending)
        );
        assert!(
            !other.is_evicted(),
            "an address past its share takes no other's place"
        );
        drop(seats);
    }

    #[test]
    fn where_all_addresses_together_are_too_many_the_oldest_idle_login_anywhere_goes() {
        let class = class();
        let long_ago = std::time::Instant::now() - Duration::from_secs(10);
        // Twenty silent sockets from five addresses: the class's limit.
        let mut held = Vec::new();
        for a in 1..=5 {
            for _ in 0..4 {
                let w = Arc::new(LoginWatch::accepted_at(long_ago));
                let seat = class.join_watched(ip(a), Some(w.clone())).unwrap();
                held.push((w, seat));
            }
        }
        // A login from a new address takes the oldest one's place.
        let fresh = Arc::new(LoginWatch::default());
        assert!(class.join_watched(ip(9), Some(fresh)).is_ok());
        let evicted: Vec<bool> = held.iter().map(|(w, _)| w.is_evicted()).collect();
        assert_eq!(evicted.iter().filter(|e| **e).count(), 1);
        assert!(evicted[0], "the oldest goes");
    }

    #[test]
    fn pending_logins_are_refused_as_maxstartups_does_with_a_share_per_address() {
        let s = Startups::parse("10:30:100", 8).unwrap();
        // Below START every login goes on, whatever the roll.
        assert!(!s.refuses(9, 0, 0));
        // One address never holds more than its share.
        assert!(s.refuses(3, 8, 99));
        // From START on, a roll below the chance refuses: 30 % at START,
        // rising to 100 % at FULL.
        assert!(s.refuses(10, 0, 29) && !s.refuses(10, 0, 30));
        assert!(s.refuses(55, 0, 64) && !s.refuses(55, 0, 65));
        assert!(s.refuses(100, 0, 99));
        let refused = (0..100).filter(|&r| s.refuses(55, 0, r)).count();
        assert_eq!(refused, 65);
        assert!(Startups::parse("10:30", 8).is_err());
        assert!(Startups::parse("20:30:10", 8).is_err());
        assert!(Startups::parse("10:130:100", 8).is_err());
        assert!(Startups::parse("10:30:100", 0).is_err());
    }
}
