//! `bpeek serve`: the explorer for a whole class over SSH.
//!
//! Every connection gets its own explorer, the same [`App`](bpeek_tui::App)
//! and the same loop as `bpeek tui`, with the SSH channel as its input and
//! its screen (see [`session`]). The SSH side runs on a small tokio runtime;
//! each explorer runs on a thread of its own, so a slow frame in one never
//! delays another. The teacher's training state is shared through the
//! [`class::Class`], never frames: every screen keeps its own size.

pub mod class;
pub(crate) mod columns;
pub(crate) mod cpu_share;
pub(crate) mod handler;
pub mod host_key;
pub mod incoming;
/// Terminal input bytes to events, shared with the local explorer.
pub use bpeek_tui::terminal::input_bytes as input;
pub mod log;
pub(crate) mod login_watch;
pub(crate) mod memory;
pub(crate) mod question;
pub(crate) mod refusing;
pub mod screen;
pub mod session;
pub mod shared;

use bpeek_core::error::{Error, Result};
use bpeek_core::train::unigram::UnigramTrainer;
use bpeek_tui::app::App;
use bpeek_tui::class::{Classroom, Role};
use bpeek_tui::options::args::ServeArgs;
use bpeek_tui::theme::Theme;
use class::{Class, Limits, Refusal};
use log::Log;
use russh::keys::PublicKey;
use session::Setup;
use shared::SharedTokenizers;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Authentication requests per connection russh answers at most. The
/// handler counts the teacher's failures itself ([`handler::TRIES`]) and
/// answers every request up to this, so a client that asks again after a
/// failure gets a reply rather than silence.
pub const AUTH_ATTEMPTS: usize = 12;

/// How long a refused connection may take to open a terminal and read why.
const REFUSAL_TIME: Duration = Duration::from_secs(5);

/// What every connection shares.
pub struct Server {
    pub setup: Setup,
    pub log: Log,
    pub teacher_keys: Vec<PublicKey>,
    /// The one-time teacher password, when no teacher keys are given.
    pub token: Option<String>,
    pub port: u16,
}

/// `bpeek serve`.
pub fn run(args: &ServeArgs) -> Result<()> {
    let log_path = match (&args.log, args.lead) {
        (Some(path), _) => Some(path.clone()),
        (None, true) => Some(host_key_path(args)?.with_file_name("serve.log")),
        (None, false) => None,
    };
    if let Some(path) = &log_path {
        refuse_log_over_inputs(args, path)?;
    }
    let log = match &log_path {
        Some(path) => open_log(path)?,
        None => Log::stderr(),
    };
    let running = start(args, log)?;
    for line in running.start_lines(args, log_path.as_deref()) {
        bpeek_core::tell!("{line}");
    }
    install_panic_log(running.log.clone());
    if args.lead {
        let theme = Theme::new(
            args.screen.color.for_this_terminal(),
            args.screen.ascii_here(),
        );
        let led = lead(&running.server, args, theme);
        running.stop();
        led
    } else {
        wait_for_stop_signal()?;
        running.stop();
        Ok(())
    }
}

fn host_key_path(args: &ServeArgs) -> Result<std::path::PathBuf> {
    match &args.host_key {
        Some(p) => Ok(p.clone()),
        None => host_key::default_path(),
    }
}

/// A server accepting connections, until [`Running::stop`].
pub struct Running {
    runtime: tokio::runtime::Runtime,
    stop: Arc<tokio::sync::Notify>,
    pub server: Arc<Server>,
    pub log: Log,
    /// Where it listens (the port is known even for `:0`).
    pub addr: SocketAddr,
    /// `ssh-keygen -l` style.
    pub fingerprint: String,
    pub host_key_path: std::path::PathBuf,
    /// Whether the host key was made by this start.
    pub made_key: bool,
}

/// Check everything, open the port and start accepting, logging to `log`.
/// A wrong --tokenizer (a missing file, a name in no cache) is told before
/// the port opens, as `tui` tells it, not to each student inside the screen.
fn check_tokenizers(args: &ServeArgs) -> Result<()> {
    for spec in &args.screen.tokenizers {
        bpeek_core::formats::load::check(spec)?;
    }
    Ok(())
}

pub fn start(args: &ServeArgs, log: Log) -> Result<Running> {
    // Everything a user can get wrong is checked before the port is opened.
    let listen: SocketAddr = args.listen.parse().map_err(|_| {
        Error::input(format!(
            "--listen {}: expected ADDRESS:PORT, like 127.0.0.1:2222 or 0.0.0.0:2222",
            args.listen
        ))
    })?;
    let idle_timeout = parse_duration(&args.idle_timeout)
        .map_err(|e| Error::input(format!("--idle-timeout {}: {e}", args.idle_timeout)))?;
    check_tokenizers(args)?;
    let login_timeout = parse_duration(&args.login_timeout)
        .map_err(|e| Error::input(format!("--login-timeout {}: {e}", args.login_timeout)))?;
    let stall_timeout = parse_duration(&args.stall_timeout)
        .map_err(|e| Error::input(format!("--stall-timeout {}: {e}", args.stall_timeout)))?;
    let max_session_time = optional_duration(&args.max_session_time)
        .map_err(|e| Error::input(format!("--max-session-time {}: {e}", args.max_session_time)))?;
    let keepalive = optional_duration(&args.keepalive)
        .map_err(|e| Error::input(format!("--keepalive {}: {e}", args.keepalive)))?;
    let startups = class::Startups::parse(&args.max_startups, args.max_startups_per_address)
        .map_err(|e| Error::input(format!("--max-startups {}: {e}", args.max_startups)))?;
    let max_memory = bpeek_tui::options::args::size_in_bytes(&args.max_memory)
        .map_err(|e| Error::input(format!("--max-memory {}: {e}", args.max_memory)))?;
    let max_memory = (max_memory > 0).then_some(max_memory);
    let student_memory = bpeek_tui::options::args::size_in_bytes(&args.student_memory)
        .map_err(|e| Error::input(format!("--student-memory {}: {e}", args.student_memory)))?;
    let student_memory = (student_memory > 0).then_some(student_memory);
    if args.max_sessions == 0 {
        return Err(Error::input("--max-sessions must be at least 1"));
    }
    if args.training.corpus.as_deref() == Some("-") {
        return Err(Error::input(
            "serve: every session reads the corpus, so it must be a file or a bundled corpus, not stdin",
        ));
    }
    memory::give_back_promptly();
    let ((lesson, training, first, compare), unigram) = trainers(args)?;
    let teacher_keys = match &args.teacher_keys {
        Some(path) => host_key::read_authorized(path)?,
        None => Vec::new(),
    };
    let token = teacher_keys.is_empty().then(new_token).transpose()?;
    let key_path = host_key_path(args)?;
    let (key, made) = host_key::load_or_create(&key_path)?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bpeek-ssh")
        .enable_all()
        .build()
        .map_err(|e| Error::failure(format!("starting the server: {e}")))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(listen))
        .map_err(|e| Error::failure(format!("--listen {listen}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::failure(format!("--listen {listen}: {e}")))?;

    let class = Class::new(Limits {
        max_sessions: args.max_sessions,
        // The teacher's seat is one more, and may be behind the same address.
        per_address: args.max_per_address.unwrap_or(args.max_sessions + 1),
        rate_per_address: args.rate_per_address,
        idle_timeout,
        login_timeout,
        stall_timeout,
        max_session_time,
        startups,
        max_memory,
        student_memory,
    });
    class.set_log(log.clone());
    let server = Arc::new(Server {
        setup: Setup {
            training,
            first,
            compare,
            tokenizer_specs: args.screen.tokenizers.clone(),
            colour: args.screen.color,
            glyphs: args.screen.clone(),
            shared: Arc::new(SharedTokenizers::new(&args.screen.tokenizers)),
            class,
            panic_key: args.panic_key,
            lesson,
            unigram,
        },
        log: log.clone(),
        teacher_keys,
        token,
        port: addr.port(),
    });
    let fingerprint = host_key::fingerprint(&key);
    let config = Arc::new(ssh_config(key, keepalive));
    let stop = Arc::new(tokio::sync::Notify::new());
    runtime.spawn(accept_loop(listener, config, server.clone(), stop.clone()));
    Ok(Running {
        runtime,
        stop,
        server,
        log,
        addr,
        fingerprint,
        host_key_path: key_path,
        made_key: made,
    })
}

impl Running {
    /// What a teacher tells the class, printed at start.
    pub fn start_lines(&self, args: &ServeArgs, log: Option<&std::path::Path>) -> Vec<String> {
        let addr = self.addr;
        let host = if addr.ip().is_unspecified() {
            "HOST".to_string()
        } else {
            addr.ip().to_string()
        };
        let port = addr.port();
        let mut lines = vec![
            format!("bpeek serve: listening on {addr}"),
            format!(
                "host key {} ({}): {}",
                self.host_key_path.display(),
                if self.made_key { "new" } else { "kept" },
                self.fingerprint
            ),
            format!("students: ssh -p {port} {host}"),
        ];
        match (&self.server.token, &args.teacher_keys) {
            (Some(token), _) => lines.push(format!(
                "teacher:  ssh -p {port} teacher@{host}   password (this run only): {token}"
            )),
            (None, Some(keys)) => lines.push(format!(
                "teacher:  ssh -p {port} teacher@{host}   with a key from {}",
                keys.display()
            )),
            (None, None) => {}
        }
        if let Some(path) = log {
            lines.push(format!("log: {}", path.display()));
        }
        lines.push(if args.lead {
            "you lead from this terminal; quitting it stops the server".into()
        } else {
            "Ctrl-C stops the server".into()
        });
        lines
    }

    /// Stop accepting, say goodbye to every session (each restores its
    /// client's terminal and closes), and wait for them: up to five
    /// seconds, since a session cut off before its goodbye is written
    /// leaves its student's terminal on the explorer's screen (a loaded
    /// machine took more than the 1.5 s this once waited).
    pub fn stop(self) {
        self.stop.notify_one();
        let class = &self.server.setup.class;
        class.stop_all("bpeek: the server is stopping; goodbye");
        for _ in 0..500 {
            if class.connections() == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.runtime.shutdown_timeout(Duration::from_millis(500));
        // Repeats counted but not written yet are written before the end.
        self.log.flush_repeats(true);
        self.log.line("stopped");
    }
}

/// The teacher's explorer on this terminal, until it quits.
fn lead(server: &Arc<Server>, args: &ServeArgs, theme: Theme) -> Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return Err(Error::input(
            "--lead needs a terminal, but stdout is not one",
        ));
    }
    let class = &server.setup.class;
    let seat = class
        .join(std::net::Ipv4Addr::LOCALHOST.into())
        .map_err(|e| Error::failure(e.to_string()))?;
    // The corpus counted when the server started, not counted again.
    let mut app = server.setup.app(theme);
    if !server.setup.compare.is_empty() {
        bpeek_tui::update(
            &mut app,
            bpeek_tui::Action::Compare(bpeek_tui::compare::Trained(server.setup.compare.clone())),
        );
    }
    for spec in &args.screen.tokenizers {
        app.add_tokenizer(spec);
    }
    app.lesson = server.setup.lesson.clone();
    app.classroom = Some(Classroom::new(Role::Teacher, class.link(seat.id)));
    bpeek_tui::update(&mut app, bpeek_tui::Action::Publish);
    bpeek_tui::terminal::mode::use_mouse(!args.screen.no_mouse);
    let result = bpeek_tui::terminal::run_with(&mut app, |events| {
        // Stopping this process would freeze every student's screen.
        events.refuse_suspend("Ctrl-Z would stop the server for the whole class; q stops it");
        let wake = events.waker();
        class.start_lead(seat.id, wake);
    });
    drop(seat);
    result
}

fn ssh_config(key: russh::keys::PrivateKey, keepalive: Option<Duration>) -> russh::server::Config {
    russh::server::Config {
        server_id: russh::SshId::Standard(
            format!("SSH-2.0-bpeek_{}", env!("CARGO_PKG_VERSION")).into(),
        ),
        methods: russh::MethodSet::from(
            &[
                russh::MethodKind::None,
                russh::MethodKind::PublicKey,
                russh::MethodKind::Password,
            ][..],
        ),
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: AUTH_ATTEMPTS,
        keys: vec![key],
        // Idleness is measured on keystrokes by each explorer; this only
        // drops connections that are dead.
        inactivity_timeout: None,
        keepalive_interval: keepalive,
        keepalive_max: 3,
        nodelay: true,
        ..Default::default()
    }
}

async fn accept_loop(
    listener: tokio::net::TcpListener,
    config: Arc<russh::server::Config>,
    server: Arc<Server>,
    stop: Arc<tokio::sync::Notify>,
) {
    let refusing = Arc::new(refusing::Refusing::default());
    let login_timeout = server.setup.class.limits.login_timeout;
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    while let Some((stream, peer)) = next_stream(&listener, &mut ticks, &stop, &server.log).await {
        let _ = stream.set_nodelay(true);
        let watch = Arc::new(login_watch::LoginWatch::default());
        let seat = server
            .setup
            .class
            .join_watched(peer.ip(), Some(watch.clone()));
        if let Err(refusal) = &seat
            && !refusal_gets_handshake(&server.log, &refusing, peer, refusal, &watch)
        {
            tokio::spawn(say_and_close(stream, format!("bpeek: {refusal}")));
            continue;
        }
        let refused = seat.as_ref().err().map(|r| format!("bpeek: {r}"));
        let accepted = tokio::time::Instant::now();
        let login_by = accepted
            + if refused.is_some() {
                REFUSAL_TIME.min(login_timeout)
            } else {
                login_timeout
            };
        let visit = Visit {
            peer,
            refused,
            refusing: refusing.clone(),
            log: server.log.clone(),
            login_timeout,
            login_by,
            teacher_by: accepted + login_timeout,
        };
        let conn = handler::Conn::new(server.clone(), peer, seat, watch);
        tokio::spawn(visit.run(stream, config.clone(), conn));
    }
}

/// The next connection, or none once the server is stopped. Meanwhile the
/// log's repeated lines are written out every tick, and a failed accept
/// (out of file descriptors and the like) is waited out.
async fn next_stream(
    listener: &tokio::net::TcpListener,
    ticks: &mut tokio::time::Interval,
    stop: &tokio::sync::Notify,
    log: &Log,
) -> Option<(tokio::net::TcpStream, std::net::SocketAddr)> {
    loop {
        let accepted = tokio::select! {
            () = stop.notified() => {
                log.flush_repeats(true);
                return None;
            }
            _ = ticks.tick() => {
                log.flush_repeats(false);
                continue;
            }
            a = listener.accept() => a,
        };
        let Ok(accepted) = accepted else {
            // Out of file descriptors and the like: wait, then go on.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        return Some(accepted);
    }
}

/// Log a refused connection and say whether its refusal is told after an
/// SSH handshake (in `refusing`, at most [`refusing::REFUSING`] at once)
/// or on a line before the handshake, for which the caller closes it.
fn refusal_gets_handshake(
    log: &Log,
    refusing: &refusing::Refusing,
    peer: std::net::SocketAddr,
    refusal: &Refusal,
    watch: &Arc<login_watch::LoginWatch>,
) -> bool {
    log.repeat(
        "refusals",
        peer.ip(),
        &format!("refused {peer} ({}: {refusal})", refusal.kind()),
    );
    refusing.enter(watch)
}

/// One accepted connection, from its handshake until it ends: what its
/// task needs besides the stream and the handler.
struct Visit {
    peer: std::net::SocketAddr,
    /// Why the seat was refused, told at the login (the connection counts
    /// in `refusing` until it ends).
    refused: Option<String>,
    refusing: Arc<refusing::Refusing>,
    log: Log,
    login_timeout: Duration,
    /// When the connection must have an explorer, or be closed.
    login_by: tokio::time::Instant,
    /// The same for a teacher logging in on a refused connection.
    teacher_by: tokio::time::Instant,
}

impl Visit {
    /// The SSH session of this connection, closed if no explorer is open
    /// by the login time.
    async fn run(
        self,
        stream: tokio::net::TcpStream,
        config: Arc<russh::server::Config>,
        conn: handler::Conn,
    ) {
        let started = conn.started.clone();
        let watch = conn.watch.clone();
        let stream = login_watch::Watched::new(stream, watch.clone());
        let visit = async {
            let begun = tokio::time::timeout_at(
                self.teacher_by,
                russh::server::run_stream(config, stream, conn),
            )
            .await;
            match begun {
                Err(_) => self.log_timed_out(),
                Ok(Err(_)) => {}
                Ok(Ok(running)) => self.until_ended(running, &watch, &started).await,
            }
        };
        tokio::select! {
            () = visit => {}
            // An idle login gave its place up to a newer one (before its
            // explorer opened: after, nothing evicts it).
            () = watch.evicted(), if !started.load(Ordering::SeqCst) => self.log_evicted(),
        }
        if self.refused.is_some() {
            self.refusing.leave(&watch);
        }
    }

    /// Wait for the login; then for the explorer to end, or, if none was
    /// opened, close the connection with the reason.
    async fn until_ended(
        &self,
        running: russh::server::RunningSession<handler::Conn>,
        watch: &login_watch::LoginWatch,
        started: &std::sync::atomic::AtomicBool,
    ) {
        let handle = running.handle();
        let mut running = std::pin::pin!(running);
        let login = until_login(
            &mut running,
            (self.login_by, self.teacher_by),
            watch,
            started,
        )
        .await;
        if login == Login::Ended {
            return;
        }
        if started.load(Ordering::SeqCst) {
            let _ = running.await;
            return;
        }
        let why = self.goodbye(&login);
        let _ = handle
            .disconnect(russh::Disconnect::ByApplication, why, String::new())
            .await;
        // A client that does not read the goodbye is not waited for.
        let _ = tokio::time::timeout(Duration::from_secs(2), &mut running).await;
    }

    /// Why a connection without an explorer is closed (and logged).
    fn goodbye(&self, login: &Login) -> String {
        if *login == Login::Stalled {
            self.log.repeat(
                "asked again after a refusal",
                self.peer.ip(),
                &format!("closed {} (asked again on one connection after a refused login: told to connect again)", self.peer),
            );
            ASK_AGAIN.to_string()
        } else {
            self.log_timed_out();
            self.refused
                .clone()
                .unwrap_or_else(|| "bpeek: no explorer was opened in time".into())
        }
    }

    fn log_evicted(&self) {
        self.log.repeat(
            "idle logins closed",
            self.peer.ip(),
            &format!(
                "closed {} (an idle login, no request or no explorer within {}: its place went to a newer login)",
                self.peer,
                describe_duration(login_watch::IDLE_AFTER)
            ),
        );
    }

    /// Log a connection whose login time ran out (a refused one was
    /// logged when it was refused).
    fn log_timed_out(&self) {
        if self.refused.is_none() {
            self.log.repeat(
                "closed without an explorer",
                self.peer.ip(),
                &format!(
                    "closed {} (no explorer within {}: no login, or no pty and shell)",
                    self.peer,
                    describe_duration(self.login_timeout)
                ),
            );
        }
    }
}

/// The goodbye of a client that waits, after a refused login, on a
/// request the SSH library passes over (see [`login_watch`]).
const ASK_AGAIN: &str = "bpeek: that login was refused; to try again, connect again (one connection answers no further try from this client)";

#[derive(Debug, PartialEq, Eq)]
enum Login {
    /// The connection ended.
    Ended,
    /// An explorer runs, or the login time is up.
    Over,
    /// The client waits on an answer it will not get.
    Stalled,
}

/// Wait for the connection to end, its explorer to start or its login time
/// to run out, looking now and then whether the client is stalled.
async fn until_login<F: std::future::Future + Unpin>(
    running: &mut F,
    (login_by, teacher_by): (tokio::time::Instant, tokio::time::Instant),
    watch: &login_watch::LoginWatch,
    started: &std::sync::atomic::AtomicBool,
) -> Login {
    let mut clock = login_watch::StallClock::default();
    let mut looks = tokio::time::interval(login_watch::QUIET_AFTER_REFUSAL / 4);
    loop {
        tokio::select! {
            _ = &mut *running => return Login::Ended,
            () = tokio::time::sleep_until(teacher_by) => return Login::Over,
            now = looks.tick() => {
                if started.load(Ordering::SeqCst) {
                    return Login::Over;
                }
                // A teacher logging in on a refused connection has the
                // time any login has.
                if now >= login_by && !watch.asked_as_teacher() {
                    return Login::Over;
                }
                if clock.stalled(watch, now) {
                    return Login::Stalled;
                }
            }
        }
    }
}

/// The lesson, the options every session starts with, the first corpus
/// counted, and with `--compare` the other columns counted.
type FirstTrainers = (
    Option<bpeek_tui::lesson::Lesson>,
    bpeek_tui::options::args::TrainingOptions,
    (String, Arc<bpeek_core::Trainer>),
    Vec<(
        bpeek_tui::options::args::TrainingOptions,
        bpeek_tui::compare::ColumnTrainer,
    )>,
);

/// Unigram's options on BPE training, and what a Unigram class does not
/// offer, refused by name.
fn refuse_for_unigram(args: &ServeArgs) -> Result<()> {
    let unigram = &args.training.unigram;
    if !unigram.is_unigram() {
        return bpeek_tui::options::unigram::refuse_unigram_options(unigram);
    }
    let given = [(
        "--compare (a Unigram column follows BPE columns: give --compare \"\" --compare \"--model unigram\")",
        !args.screen.compare.is_empty(),
    )];
    match given.iter().find(|(_, on)| *on) {
        Some((name, _)) => Err(Error::input(format!(
            "serve: --model unigram takes no {name}"
        ))),
        None => bpeek_tui::options::unigram::refuse_bpe_options(&args.training),
    }
}

/// What every session starts on, found once: the BPE trainers (an empty
/// stand-in in Unigram mode) and the Unigram trainer, if the class trains
/// Unigram.
fn trainers(args: &ServeArgs) -> Result<(FirstTrainers, Option<Arc<UnigramTrainer>>)> {
    refuse_for_unigram(args)?;
    let (lesson, lesson_options) = lesson_of(args)?;
    let training = lesson_options.unwrap_or_else(|| args.training.clone());
    if !training.unigram.is_unigram() {
        return Ok((first_trainers(args, lesson, training)?, None));
    }
    let (name, trainer) = bpeek_tui::options::unigram::explorer_trainer(&training)?;
    let trainer = Arc::new(trainer);
    let app = App::from_unigram(
        &training,
        name.clone(),
        Arc::clone(&trainer),
        Theme::plain(),
    );
    let stand_in = Arc::clone(&app.loaded().trainer);
    let first = (lesson, training, (name, stand_in), Vec::new());
    Ok((first, Some(trainer)))
}

/// The corpus and options checked, and the first corpus counted, once
/// when the server starts: a mistake is reported before anyone connects,
/// and every session starts from a copy.
fn first_trainers(
    args: &ServeArgs,
    lesson: Option<bpeek_tui::lesson::Lesson>,
    training: bpeek_tui::options::args::TrainingOptions,
) -> Result<FirstTrainers> {
    let (training, first, compare) = if lesson.is_some() || args.screen.compare.is_empty() {
        let (name, trainer) = bpeek_tui::options::input::build_trainer(&training)?;
        (training, (name, Arc::new(trainer)), Vec::new())
    } else {
        // Every column counted once too, for every session to share.
        let (name, (options, trainer), rest) =
            bpeek_tui::compare::count_all(&training, &args.screen.compare)?;
        (options, (name, Arc::new(trainer)), rest)
    };
    Ok((lesson, training, first, compare))
}

/// The lesson `--lesson` names, and the training options it sets (which
/// the command line may then not set too).
fn lesson_of(
    args: &ServeArgs,
) -> Result<(
    Option<bpeek_tui::lesson::Lesson>,
    Option<bpeek_tui::options::args::TrainingOptions>,
)> {
    let Some(spec) = &args.lesson else {
        return Ok((None, None));
    };
    let (lesson, dir) = bpeek_tui::load_lesson(spec)?;
    if args.training != bpeek_tui::options::args::TrainingOptions::default() {
        return Err(Error::input(format!(
            "{}: a lesson names its corpus and options; give them in the lesson, not on the command line",
            lesson.name
        )));
    }
    if !args.screen.compare.is_empty() {
        return Err(Error::input(
            "--compare: a lesson trains one configuration; give --compare without --lesson",
        ));
    }
    let options = lesson.training_options(dir.as_deref())?;
    Ok((Some(lesson), Some(options)))
}

/// Tell a client why it is refused without the cost of a handshake: one
/// line before the SSH version (which SSH allows), then close.
async fn say_and_close(mut stream: tokio::net::TcpStream, line: String) {
    use tokio::io::AsyncWriteExt;
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(format!("{line}\r\n").as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Block until SIGINT or SIGTERM.
fn wait_for_stop_signal() -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .map_err(|e| Error::failure(format!("signals: {e}")))?;
    let _ = signals.forever().next();
    Ok(())
}

/// A session thread's panic goes to the log (the server's own terminal may
/// be the teacher's explorer); any other panic is reported as usual.
fn install_panic_log(log: Log) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if bpeek_core::error::panic_is_caught() {
            return;
        }
        let thread = std::thread::current();
        match thread.name() {
            Some(name) if name.starts_with("bpeek-session") => {
                log.line(&format!("{name}: {info}"));
            }
            _ => previous(info),
        }
    }));
}

/// The log is appended to: it must not be the corpus, a count or
/// tokenizer file, or a key file.
fn refuse_log_over_inputs(args: &ServeArgs, log: &std::path::Path) -> Result<()> {
    use bpeek_core::formats::same_file::{Role as FileRole, refuse_outputs_over_inputs};
    let mut roles = bpeek_tui::options::input_roles(&args.training);
    roles.extend(bpeek_tui::options::tokenizer_roles(&args.screen.tokenizers));
    roles.extend(
        args.host_key
            .iter()
            .map(|k| FileRole::reads("--host-key", k)),
    );
    roles.extend(
        args.teacher_keys
            .iter()
            .map(|k| FileRole::reads("--teacher-keys", k)),
    );
    roles.push(FileRole::writes("--log", log));
    refuse_outputs_over_inputs(&roles)
}

fn open_log(path: &std::path::Path) -> Result<Log> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    Ok(Log::to(Box::new(file)))
}

/// A one-time teacher password: 16 characters from an alphabet without
/// look-alikes, in groups of four.
fn new_token() -> Result<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| Error::failure(format!("random: {e}")))?;
    let chars: Vec<char> = bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    Ok(chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-"))
}

/// `30m`, `90s`, `2h` or a number of seconds; `0` means never.
pub fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let n: u64 = number
        .parse()
        .map_err(|_| "expected a number with s, m or h, like 30m".to_string())?;
    let secs = match unit {
        "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        other => return Err(format!("unknown unit {other:?}: use s, m or h")),
    };
    Ok(if secs == 0 {
        // Never: a century is as good.
        Duration::from_secs(100 * 365 * 86_400)
    } else {
        Duration::from_secs(secs)
    })
}

/// A duration, or `None` for `0` (never).
fn optional_duration(text: &str) -> std::result::Result<Option<Duration>, String> {
    if text.trim().trim_end_matches(['s', 'm', 'h']) == "0" {
        return Ok(None);
    }
    parse_duration(text).map(Some)
}

/// A duration the way a user would say it.
pub fn describe_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s.is_multiple_of(3600) && s > 0 {
        format!("{} h", s / 3600)
    } else if s.is_multiple_of(60) && s > 0 {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}
