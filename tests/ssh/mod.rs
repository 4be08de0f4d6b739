//! A served class for tests: a server on 127.0.0.1 (port 0), and SSH
//! clients (russh's client) whose screens are read through a terminal
//! emulator.
#![allow(dead_code)] // each test file uses its own part of this

use bpeek::cli::{Cli, Command};
use bpeek::serve::log::Log;
use bpeek::serve::{Running, start};
use clap::Parser;
use russh::client::{self, Msg};
use russh::keys::PublicKeyOrCertificate;
use russh::{Channel, ChannelMsg};
use std::io::Write;
use std::num::NonZeroU16;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Whether the OpenSSH client is here; CI must have it (`.ci/run`
/// installs it).
pub fn have_openssh() -> bool {
    let found = std::process::Command::new("ssh").arg("-V").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "the OpenSSH client is required in CI (.ci/run installs it)"
        );
        eprintln!("note: ssh is not installed; skipping the OpenSSH test");
    }
    found
}

/// How long a test waits for a screen or an answer before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The log, kept in memory.
#[derive(Clone, Default)]
pub struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl Write for LogBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuf {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// A server on the tutorial corpus, with its own host key, stopped on drop.
pub struct Class {
    pub running: Option<Running>,
    pub log: LogBuf,
    dir: PathBuf,
}

impl Class {
    pub fn start(name: &str, extra: &[&str]) -> Class {
        let mut argv = vec!["--corpus-name", "play", "--pretok", "whitespace"];
        argv.extend_from_slice(extra);
        Class::start_with(name, &argv)
    }

    /// A server with these arguments alone (its corpus among them).
    pub fn start_with(name: &str, args: &[&str]) -> Class {
        let dir = std::env::temp_dir().join(format!("bpeek-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let key = dir.join("host_key");
        let mut argv = vec![
            "bpeek",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--host-key",
            key.to_str().unwrap(),
        ];
        argv.extend_from_slice(args);
        let Some(Command::Serve(args)) = Cli::parse_from(argv).command else {
            panic!("serve arguments");
        };
        let log = LogBuf::default();
        let running = start(&args, Log::to(Box::new(log.clone()))).expect("the server starts");
        Class {
            running: Some(running),
            log,
            dir,
        }
    }

    pub fn port(&self) -> u16 {
        self.running.as_ref().unwrap().addr.port()
    }

    pub fn token(&self) -> String {
        self.running.as_ref().unwrap().server.token.clone().unwrap()
    }

    /// Wait until the log holds `text` (a session logs its end after its
    /// client has seen it).
    pub fn wait_for_log(&self, text: &str) -> String {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let log = self.log.text();
            if log.contains(text) {
                return log;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "waited for {text:?} in the log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop();
        }
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub struct TrustAll;

impl client::Handler for TrustAll {
    type Error = russh::Error;

    async fn check_server_key(&mut self, _: &PublicKeyOrCertificate) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// A logged-in connection.
pub struct Conn {
    pub handle: client::Handle<TrustAll>,
}

impl Conn {
    /// Log in as a student (`none`), or as `teacher` with `password`.
    pub async fn login(port: u16, user: &str, password: Option<&str>) -> Result<Conn, String> {
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect(config, ("127.0.0.1", port), TrustAll)
            .await
            .map_err(|e| e.to_string())?;
        let ok = match password {
            None => handle.authenticate_none(user).await,
            Some(p) => handle.authenticate_password(user, p).await,
        }
        .map_err(|e| e.to_string())?;
        if !ok.success() {
            return Err("login refused".into());
        }
        Ok(Conn { handle })
    }

    pub async fn channel(&self) -> Channel<Msg> {
        self.handle
            .channel_open_session()
            .await
            .expect("a session channel")
    }

    /// A pty of `cols` x `rows` and a shell: an explorer.
    pub async fn terminal(&self, cols: u16, rows: u16) -> Term {
        self.terminal_of("xterm-256color", cols, rows).await
    }

    /// [`Conn::terminal`] for a terminal of type `term`.
    pub async fn terminal_of(&self, term: &str, cols: u16, rows: u16) -> Term {
        let channel = self.channel().await;
        channel
            .request_pty(true, term, cols.into(), rows.into(), 0, 0, &[])
            .await
            .unwrap();
        channel.request_shell(true).await.unwrap();
        Term::new(channel, cols, rows)
    }
}

fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

/// A client terminal: the channel and an emulator of its screen.
pub struct Term {
    pub channel: Channel<Msg>,
    pub vt: vt100::Parser,
    pub exit_status: Option<u32>,
    pub closed: bool,
    /// Everything received, as text.
    pub raw: String,
}

impl Term {
    pub fn new(channel: Channel<Msg>, cols: u16, rows: u16) -> Term {
        Term {
            channel,
            vt: vt100::Parser::new(nz(rows), nz(cols), 0),
            exit_status: None,
            closed: false,
            raw: String::new(),
        }
    }

    pub fn screen(&self) -> String {
        self.vt.screen().contents()
    }

    pub async fn send(&self, bytes: &[u8]) {
        self.channel.data(bytes).await.unwrap();
    }

    pub async fn resize(&mut self, cols: u16, rows: u16) {
        self.vt.set_size(nz(rows), nz(cols));
        self.channel
            .window_change(cols.into(), rows.into(), 0, 0)
            .await
            .unwrap();
    }

    /// Read until `ok` holds for the screen; fail with the screen if it
    /// does not within [`PATIENCE`].
    pub async fn wait_for(&mut self, what: &str, ok: impl Fn(&Term) -> bool) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !ok(self) {
            let msg = tokio::time::timeout_at(deadline, self.channel.wait()).await;
            match msg {
                Err(_) => panic!("waited for {what}; the screen is:\n{}", self.screen()),
                Ok(None) => {
                    self.closed = true;
                    assert!(
                        ok(self),
                        "closed before {what}; the screen is:\n{}",
                        self.screen()
                    );
                    return;
                }
                Ok(Some(m)) => self.take(m),
            }
        }
    }

    /// Read until `ok` holds for the screen or `within` has passed;
    /// whether it held.
    pub async fn holds_within(&mut self, within: Duration, ok: impl Fn(&Term) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        while !ok(self) {
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Err(_) | Ok(None) => return ok(self),
                Ok(Some(m)) => self.take(m),
            }
        }
        true
    }

    fn take(&mut self, msg: ChannelMsg) {
        match msg {
            ChannelMsg::Data { data } => {
                self.vt.process(&data);
                self.raw.push_str(&String::from_utf8_lossy(&data));
            }
            ChannelMsg::ExitStatus { exit_status } => self.exit_status = Some(exit_status),
            ChannelMsg::Close => self.closed = true,
            _ => {}
        }
    }

    /// Take what has arrived, without waiting: a client that sends much
    /// must read too, or the server's frames back up.
    pub async fn take_arrived(&mut self) {
        while let Ok(Some(m)) = tokio::time::timeout(Duration::ZERO, self.channel.wait()).await {
            self.take(m);
        }
    }

    /// Read until the channel closes.
    pub async fn wait_closed(&mut self) {
        self.wait_for("the channel to close", |t| t.closed).await;
    }

    pub fn status_line(&self) -> String {
        self.screen().lines().next().unwrap_or_default().to_string()
    }
}

/// A tokio runtime for the clients of one test.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Threads of this process (the server runs in it).
pub fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// A client that keeps the login banner it is shown.
#[derive(Clone, Default)]
pub struct Banner(pub Arc<Mutex<String>>);

impl client::Handler for Banner {
    type Error = russh::Error;

    async fn check_server_key(&mut self, _: &PublicKeyOrCertificate) -> Result<bool, Self::Error> {
        Ok(true)
    }

    async fn auth_banner(
        &mut self,
        banner: &str,
        _: &mut client::Session,
    ) -> Result<(), Self::Error> {
        self.0.lock().unwrap().push_str(banner);
        Ok(())
    }
}

/// A TCP connection to the server from the loopback address `source`
/// (127.0.0.1, 127.0.0.2, ...: every one is a different address to it).
pub async fn tcp_from(source: [u8; 4], port: u16) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind((std::net::Ipv4Addr::from(source), 0).into())
        .unwrap();
    socket.connect(([127, 0, 0, 1], port).into()).await.unwrap()
}

/// Log in from `source` as `user` with `none`; the handle, whether the
/// login was accepted, and the banner shown.
pub async fn login_from(
    source: [u8; 4],
    port: u16,
    user: &str,
) -> (Option<client::Handle<Banner>>, bool, String) {
    let banner = Banner::default();
    let stream = tcp_from(source, port).await;
    let config = Arc::new(client::Config::default());
    let Ok(mut handle) = client::connect_stream(config, stream, banner.clone()).await else {
        return (None, false, banner.0.lock().unwrap().clone());
    };
    let ok = handle
        .authenticate_none(user)
        .await
        .is_ok_and(|r| r.success());
    let shown = banner.0.lock().unwrap().clone();
    (Some(handle), ok, shown)
}
