//! One SSH connection: who it is (authentication), what it may open (a
//! session channel with a pty and a shell, nothing else), and the bytes and
//! window changes of that channel on their way to its explorer.

use crate::Server;
use crate::class::{Refusal, Seat};
use crate::incoming::Inbox;
use crate::log::escaped;
use crate::login_watch::LoginWatch;
use crate::screen;
use crate::session::{self, ChannelEvents};
use bpeek_tui::class::Role;
use russh::server::{Auth, Handle, Msg, Session};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The user name that asks to lead.
pub const TEACHER: &str = "teacher";

/// Failed teacher logins one connection may make.
pub const TRIES: u32 = 3;

/// Terminal sizes a session accepts; anything outside is clamped.
pub const COLUMNS: (u16, u16) = (10, 500);
pub const ROWS: (u16, u16) = (4, 200);

pub fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    let clamp = |v: u32, (lo, hi): (u16, u16)| v.clamp(u32::from(lo), u32::from(hi)) as u16;
    (clamp(cols, COLUMNS), clamp(rows, ROWS))
}

pub struct Conn {
    server: Arc<Server>,
    peer: SocketAddr,
    seat: Option<Seat>,
    /// Refused when accepted: any login is let in, only to be told why on
    /// its terminal (or in the disconnect message, for a client that opens
    /// none), so that every client shows the reason, whatever it logs.
    refusal: Option<Refusal>,
    role: Option<Role>,
    /// Set once an explorer runs; until then the login timeout applies.
    pub started: Arc<AtomicBool>,
    pty: Option<(String, u16, u16)>,
    channel: Option<ChannelId>,
    writer: Option<russh::ChannelWriteHalf<Msg>>,
    inbox: Option<Inbox>,
    /// Failed teacher logins on this connection.
    failures: u32,
    /// How the login went, for the connect line: the user name, and for a
    /// teacher the method.
    user: String,
    method: String,
    client: String,
    /// What the connection's task reads of the login, to close a client
    /// that waits on a request the SSH library passes over.
    pub watch: Arc<LoginWatch>,
}

impl Conn {
    pub fn new(
        server: Arc<Server>,
        peer: SocketAddr,
        seat: Result<Seat, Refusal>,
        watch: Arc<LoginWatch>,
    ) -> Self {
        let (seat, refusal) = match seat {
            Ok(seat) => (Some(seat), None),
            Err(r) => (None, Some(r)),
        };
        Conn {
            server,
            peer,
            seat,
            refusal,
            role: None,
            started: Arc::new(AtomicBool::new(false)),
            pty: None,
            channel: None,
            writer: None,
            inbox: None,
            failures: 0,
            user: String::new(),
            method: String::new(),
            client: String::new(),
            watch,
        }
    }

    /// Whether a login on a refused connection is let in only to be told
    /// why. A teacher is not: the refusals made before it is known who
    /// logs in (too many logins under way, too fast, too many from the
    /// address: a class behind the teacher's NAT can cause each) are for
    /// students, and the teacher logs in as always.
    fn told_refusal(&self, user: &str) -> bool {
        let Some(refusal) = &self.refusal else {
            return false;
        };
        let for_students = matches!(
            refusal,
            Refusal::Pending | Refusal::TooFast | Refusal::AddressFull(_)
        );
        if user == TEACHER && for_students {
            self.watch.teacher_asks();
            return false;
        }
        true
    }

    fn accept(&mut self, role: Role, user: &str, method: &str) -> Auth {
        if role == Role::Student {
            self.watch.student_logged_in();
        }
        if role == Role::Teacher && self.refusal.is_some() {
            match self
                .server
                .setup
                .class
                .join_teacher(self.peer.ip(), self.watch.clone())
            {
                Ok(seat) => {
                    self.seat = Some(seat);
                    self.refusal = None;
                }
                Err(refusal) => self.refusal = Some(refusal),
            }
        }
        self.role = Some(role);
        self.user = escaped(user);
        self.method = method.to_string();
        Auth::Accept
    }

    fn teacher_methods(&self) -> Auth {
        let mut methods = vec![MethodKind::PublicKey];
        // After its last try a connection is offered no password any more
        // (OpenSSH stops asking), but a try is still answered.
        if self.server.token.is_some() && self.failures < TRIES {
            methods.push(MethodKind::Password);
        }
        Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(&methods[..])),
            partial_success: false,
        }
    }

    /// A failed teacher login, counted and logged.
    fn failed(&mut self, user: &str, method: &str) -> Auth {
        self.failures += 1;
        let ip = self.peer.ip();
        self.server.log.repeat(
            "failed logins",
            ip,
            &format!(
                "failed login {} user {} method {method} ({} from this address)",
                self.peer,
                escaped(user),
                self.server.setup.class.failures(ip)
            ),
        );
        self.teacher_methods()
    }

    /// Whether `key` is one of `--teacher-keys`.
    fn is_teacher_key(&self, key: &russh::keys::PublicKey) -> bool {
        let data = key.key_data();
        self.server
            .teacher_keys
            .iter()
            .any(|k| k.key_data() == data)
    }

    /// A request the server refuses (a command, a subsystem, forwarding)
    /// goes in the log, one line per address and kind every 10 s at most:
    /// probing leaves a trace.
    fn log_refused(&self, kind: &'static str, what: &str) {
        let user = if self.user.is_empty() {
            String::new()
        } else {
            // Escaped when it was taken.
            format!(" user {}", self.user)
        };
        self.server.log.repeat(
            kind,
            self.peer.ip(),
            &format!("refused {}{user}: {what}", self.peer),
        );
    }

    /// Say `line` on the channel, then end it with exit status 1.
    fn refuse(&self, session: &mut Session, channel: ChannelId, line: String) {
        let handle = session.handle();
        tokio::spawn(async move {
            let _ = handle
                .data(channel, format!("{line}\r\n").into_bytes())
                .await;
            let _ = handle.exit_status_request(channel, 1).await;
            let _ = handle.eof(channel).await;
            let _ = handle.close(channel).await;
        });
    }

    fn answer_none(&mut self, user: &str) -> Auth {
        if self.told_refusal(user) {
            return Auth::Accept;
        }
        if user == TEACHER {
            return self.teacher_methods();
        }
        self.accept(Role::Student, user, "none")
    }

    async fn answer_password(&mut self, user: &str, password: &str) -> Auth {
        if self.told_refusal(user) {
            return Auth::Accept;
        }
        if user != TEACHER {
            return self.accept(Role::Student, user, "password");
        }
        let Some(token) = self.server.token.clone() else {
            return self.failed(user, "password (none is offered)");
        };
        if self.failures >= TRIES {
            return self.teacher_methods();
        }
        let class = self.server.setup.class.clone();
        let ip = self.peer.ip();
        let wait = class.password_try(ip);
        // Every failure from the address makes the next answer slower.
        tokio::time::sleep(wait).await;
        if same_secret(password, &token) {
            class.login_succeeded(ip);
            return self.accept(Role::Teacher, user, "password");
        }
        self.failed(user, "password")
    }

    fn answer_key_offer(&mut self, user: &str, key: &russh::keys::PublicKey) -> Auth {
        if self.told_refusal(user) {
            return Auth::Accept;
        }
        let known = self.is_teacher_key(key);
        if user == TEACHER && known {
            Auth::Accept
        } else if user == TEACHER {
            self.teacher_methods()
        } else {
            Auth::reject()
        }
    }

    fn answer_key(&mut self, user: &str, key: &russh::keys::PublicKey) -> Auth {
        if self.told_refusal(user) {
            return Auth::Accept;
        }
        let known = self.is_teacher_key(key);
        let fingerprint = key.fingerprint(russh::keys::HashAlg::Sha256).to_string();
        if user == TEACHER && known {
            self.accept(Role::Teacher, user, &format!("publickey {fingerprint}"))
        } else if user == TEACHER {
            self.failed(user, &format!("publickey {fingerprint}"))
        } else {
            self.accept(Role::Student, user, "publickey")
        }
    }

    /// Every refusal waits for the client's next request (see
    /// [`LoginWatch`]).
    fn answered(&self, answer: Auth) -> Auth {
        if matches!(answer, Auth::Reject { .. }) {
            self.watch.refused();
        }
        answer
    }

    fn start_explorer(&mut self, channel: ChannelId, handle: Handle) -> Result<(), String> {
        if let Some(refusal) = &self.refusal {
            return Err(format!("bpeek: {refusal}"));
        }
        let Some(seat) = self.seat.take() else {
            return Err("bpeek: one explorer per connection".into());
        };
        let Some((term, cols, rows)) = self.pty.clone() else {
            self.seat = Some(seat);
            return Err(format!(
                "bpeek serve shows the explorer in a terminal: connect with `ssh -p {} HOST` (without -T)",
                self.server.port
            ));
        };
        let Some(writer) = self.writer.take() else {
            return Err("bpeek: no channel to draw on".into());
        };
        let role = self.role.unwrap_or(Role::Student);
        let (inbox, rx) = Inbox::new();
        let class = self.server.setup.class.clone();
        if let Err(refusal) = class.start_session(seat.id, role, inbox.clone()) {
            return Err(format!("bpeek: {refusal}"));
        }
        self.started.store(true, Ordering::SeqCst);
        self.inbox = Some(inbox.clone());
        let stall_timeout = class.limits.stall_timeout;
        let outbox = screen::start_writer(
            writer.make_writer(),
            handle,
            channel,
            inbox.clone(),
            stall_timeout,
        );
        let events = ChannelEvents::new(rx, inbox, class, self.server.setup.shared.clone())
            .panicking_on(self.server.setup.panic_key);
        let events = match role {
            Role::Student => events.as_student(),
            Role::Teacher => events,
        };
        let server = self.server.clone();
        let peer = self.peer;
        let who = format!("{peer} {} {cols}x{rows} {term}", role_name(role));
        let how = match role {
            Role::Teacher => format!(" by {}", self.method),
            Role::Student => String::new(),
        };
        server.log.line(&format!(
            "connect {who} user {}{how} client {}",
            self.user, self.client
        ));
        let spawned = std::thread::Builder::new()
            .name(format!("bpeek-session-{}", seat.id))
            .spawn(move || {
                let start = Instant::now();
                let ending = session::run(
                    &server.setup,
                    role,
                    seat.id,
                    (cols, rows),
                    &term,
                    events,
                    outbox,
                );
                drop(seat);
                // What the session held (its explorer, its pastes, its
                // thread's free lists) goes back to the system now, not
                // when another session happens to reuse it.
                bpeek_tui::freed_memory::give_back();
                server.log.line(&format!(
                    "disconnect {who} {:.1}s {ending}",
                    start.elapsed().as_secs_f64()
                ));
            });
        spawned
            .map(drop)
            .map_err(|e| format!("bpeek: cannot start a session: {e}"))
    }

    /// The client closed or ended the session's channel: its explorer is
    /// told the keys have stopped. Other channels of the connection are
    /// not the session's and change nothing.
    fn channel_gone(&self, channel: ChannelId) {
        if let Some(inbox) = self
            .inbox
            .as_ref()
            .filter(|_| Some(channel) == self.channel)
        {
            inbox.gone();
        }
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Teacher => "teacher",
        Role::Student => "student",
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(inbox) = &self.inbox {
            inbox.gone();
        }
    }
}

/// Compare without an early exit, so the time taken says nothing about how
/// much of a guess was right.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut diff = u8::from(a.len() != b.len());
    for i in 0..a.len().max(b.len()) {
        diff |= a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
    }
    diff == 0
}

impl russh::server::Handler for Conn {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        self.watch.request();
        let answer = self.answer_none(user);
        Ok(self.answered(answer))
    }

    async fn auth_password(&mut self, user: &str, password: &str) -> Result<Auth, Self::Error> {
        self.watch.request();
        let answer = self.answer_password(user, password).await;
        Ok(self.answered(answer))
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: russh::server::PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        self.watch.request();
        let answer = self.answer_key_offer(user, offer.public_key);
        Ok(self.answered(answer))
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.watch.request();
        let answer = self.answer_key(user, key.public_key);
        Ok(self.answered(answer))
    }

    async fn auth_succeeded(&mut self, session: &mut Session) -> Result<(), Self::Error> {
        self.client = escaped(&String::from_utf8_lossy(session.remote_sshid()));
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            // One explorer per connection; dropping the reply refuses.
            return Ok(());
        }
        self.channel = Some(channel.id());
        // Input arrives through `data`; the read half is dropped so an
        // unread channel never fills up and stalls the connection.
        let (_read, write) = channel.split();
        self.writer = Some(write);
        reply.accept().await;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if Some(channel) != self.channel || self.inbox.is_some() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        let (cols, rows) = clamp_size(col_width, row_height);
        let term: String = term
            .chars()
            .filter(|c| c.is_ascii_graphic())
            .take(40)
            .collect();
        self.pty = Some((term, cols, rows));
        session.channel_success(channel)?;
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if Some(channel) != self.channel {
            session.channel_failure(channel)?;
            return Ok(());
        }
        session.channel_success(channel)?;
        if let Err(line) = self.start_explorer(channel, session.handle()) {
            let logged = self.refusal.is_some();
            if !logged {
                self.server.log.repeat(
                    "refusals",
                    self.peer.ip(),
                    &format!(
                        "refused {} user {} ({})",
                        self.peer,
                        self.user,
                        line.trim_start_matches("bpeek: ")
                    ),
                );
            }
            self.refuse(session, channel, line);
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.log_refused("exec", &format!("exec {}", shown(data)));
        session.channel_success(channel)?;
        let line = format!(
            "bpeek serve runs no commands: connect with `ssh -p {} HOST` and nothing after it",
            self.server.port
        );
        self.refuse(session, channel, line);
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.log_refused(
            "subsystem",
            &format!("subsystem {}", shown(name.as_bytes())),
        );
        session.channel_failure(channel)?;
        session.close(channel)?;
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        _value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.log_refused("x11", "X11 forwarding");
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn agent_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.log_refused("agent", "agent forwarding");
        session.channel_failure(channel)?;
        Ok(false)
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        host: &str,
        port: u32,
        _originator_address: &str,
        _originator_port: u32,
        _reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // The reply dropped refuses the channel.
        self.log_refused(
            "forward",
            &format!("forwarding to {}:{port}", shown(host.as_bytes())),
        );
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        socket_path: &str,
        _reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.log_refused(
            "forward",
            &format!("forwarding to socket {}", shown(socket_path.as_bytes())),
        );
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        address: &str,
        port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.log_refused(
            "remote forward",
            &format!("remote forwarding of {}:{port}", shown(address.as_bytes())),
        );
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.log_refused(
            "remote forward",
            &format!(
                "remote forwarding of socket {}",
                shown(socket_path.as_bytes())
            ),
        );
        Ok(false)
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if Some(channel) == self.channel {
            let (cols, rows) = clamp_size(col_width, row_height);
            if let Some(pty) = &mut self.pty {
                pty.1 = cols;
                pty.2 = rows;
            }
            if let Some(inbox) = &self.inbox {
                inbox.resize(cols, rows);
            }
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Kept without waiting: reading on is how the client's leaving is
        // seen behind a flood of its keys.
        if let Some(inbox) = self
            .inbox
            .as_ref()
            .filter(|_| Some(channel) == self.channel)
        {
            inbox.typed(data);
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.channel_gone(channel);
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.channel_gone(channel);
        Ok(())
    }
}

/// A client's text for the log, escaped and cut (see [`escaped`]); only
/// its start is looked at, however long it is.
fn shown(bytes: &[u8]) -> String {
    escaped(&String::from_utf8_lossy(&bytes[..bytes.len().min(1024)]))
}
