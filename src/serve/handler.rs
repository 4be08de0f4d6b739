//! One SSH connection: who it is (authentication), what it may open (a
//! session channel with a pty and a shell, nothing else), and the bytes and
//! window changes of that channel on their way to its explorer.

use crate::serve::Server;
use crate::serve::class::{Refusal, Seat};
use crate::serve::incoming::Incoming;
use crate::serve::screen;
use crate::serve::session::{self, ChannelEvents};
use crate::tui::classroom::Role;
use russh::server::{Auth, Handle, Msg, Session};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::time::Instant;

/// Input messages queued for one explorer at most; a client that types
/// faster than its explorer reads waits (TCP pushes back).
const INPUT_QUEUE: usize = 64;

/// The user name that asks to lead.
pub const TEACHER: &str = "teacher";

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
    seat: Option<Result<Seat, Refusal>>,
    role: Option<Role>,
    pub authed: Arc<AtomicBool>,
    pty: Option<(String, u16, u16)>,
    channel: Option<ChannelId>,
    writer: Option<russh::ChannelWriteHalf<Msg>>,
    wake: Option<SyncSender<Incoming>>,
}

impl Conn {
    pub fn new(server: Arc<Server>, peer: SocketAddr, seat: Result<Seat, Refusal>) -> Self {
        Conn {
            server,
            peer,
            seat: Some(seat),
            role: None,
            authed: Arc::new(AtomicBool::new(false)),
            pty: None,
            channel: None,
            writer: None,
            wake: None,
        }
    }

    fn accept(&mut self, role: Role) -> Auth {
        self.role = Some(role);
        self.authed.store(true, Ordering::SeqCst);
        Auth::Accept
    }

    fn teacher_methods(&self) -> Auth {
        let mut methods = vec![MethodKind::PublicKey];
        if self.server.token.is_some() {
            methods.push(MethodKind::Password);
        }
        Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(&methods[..])),
            partial_success: false,
        }
    }

    /// Say `line` on the channel, then end it with exit status 1.
    /// Whether `key` is one of `--teacher-keys`.
    fn is_teacher_key(&self, key: &russh::keys::PublicKey) -> bool {
        let data = key.key_data();
        self.server
            .teacher_keys
            .iter()
            .any(|k| k.key_data() == data)
    }

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

    fn send(&self, message: Incoming) {
        if let Some(wake) = &self.wake {
            match wake.try_send(message) {
                Err(TrySendError::Full(m)) => {
                    let wake = wake.clone();
                    std::thread::spawn(move || wake.send(m));
                }
                Ok(()) | Err(TrySendError::Disconnected(_)) => {}
            }
        }
    }

    fn start_explorer(&mut self, channel: ChannelId, handle: Handle) -> Result<(), String> {
        let seat = match self.seat.take() {
            Some(Ok(seat)) => seat,
            Some(Err(refusal)) => return Err(format!("bpeek: {refusal}")),
            None => return Err("bpeek: one explorer per connection".into()),
        };
        let Some((term, cols, rows)) = self.pty.clone() else {
            return Err(format!(
                "bpeek serve shows the explorer in a terminal: connect with `ssh -p {} HOST` (without -T)",
                self.server.port
            ));
        };
        let Some(writer) = self.writer.take() else {
            return Err("bpeek: no channel to draw on".into());
        };
        let role = self.role.unwrap_or(Role::Student);
        let (tx, rx) = std::sync::mpsc::sync_channel(INPUT_QUEUE);
        let class = self.server.setup.class.clone();
        if !class.start_session(seat.id, role, tx.clone()) {
            return Err("bpeek: a teacher is already leading this class".into());
        }
        self.wake = Some(tx.clone());
        let stall_timeout = class.limits.stall_timeout;
        let outbox = screen::start_writer(
            writer.make_writer(),
            handle,
            channel,
            tx.clone(),
            stall_timeout,
        );
        let events = ChannelEvents::new(rx, tx, class, self.server.setup.shared.clone())
            .panicking_on(self.server.setup.panic_key);
        let server = self.server.clone();
        let peer = self.peer;
        let who = format!("{peer} {} {cols}x{rows} {term}", role_name(role));
        server.log.line(&format!("connect {who}"));
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
                server.log.line(&format!(
                    "disconnect {who} {:.1}s {ending}",
                    start.elapsed().as_secs_f64()
                ));
            });
        spawned
            .map(drop)
            .map_err(|e| format!("bpeek: cannot start a session: {e}"))
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
        self.send(Incoming::Gone);
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
        if user == TEACHER {
            return Ok(self.teacher_methods());
        }
        Ok(self.accept(Role::Student))
    }

    async fn auth_password(&mut self, user: &str, password: &str) -> Result<Auth, Self::Error> {
        match &self.server.token {
            Some(token) if user == TEACHER && same_secret(password, token) => {
                Ok(self.accept(Role::Teacher))
            }
            _ if user == TEACHER => Ok(self.teacher_methods()),
            _ => Ok(self.accept(Role::Student)),
        }
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: russh::server::PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        let known = self.is_teacher_key(offer.public_key);
        if user == TEACHER && known {
            Ok(Auth::Accept)
        } else if user == TEACHER {
            Ok(self.teacher_methods())
        } else {
            Ok(Auth::reject())
        }
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let known = self.is_teacher_key(key.public_key);
        if user == TEACHER && known {
            Ok(self.accept(Role::Teacher))
        } else if user == TEACHER {
            Ok(self.teacher_methods())
        } else {
            Ok(self.accept(Role::Student))
        }
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
        if Some(channel) != self.channel || self.wake.is_some() {
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
            self.server.log.line(&format!(
                "refused {} ({})",
                self.peer,
                line.trim_start_matches("bpeek: ")
            ));
            self.refuse(session, channel, line);
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
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
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
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
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn agent_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<bool, Self::Error> {
        session.channel_failure(channel)?;
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
            self.send(Incoming::Resize(cols, rows));
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(wake) = self.wake.clone().filter(|_| Some(channel) == self.channel) else {
            return Ok(());
        };
        let mut message = Incoming::Bytes(data.to_vec());
        // Wait for room rather than drop keys: the client's next packets
        // wait in TCP meanwhile.
        loop {
            match wake.try_send(message) {
                Ok(()) | Err(TrySendError::Disconnected(_)) => return Ok(()),
                Err(TrySendError::Full(back)) => {
                    message = back;
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
            }
        }
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if Some(channel) == self.channel {
            self.send(Incoming::Gone);
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if Some(channel) == self.channel {
            self.send(Incoming::Gone);
        }
        Ok(())
    }
}
