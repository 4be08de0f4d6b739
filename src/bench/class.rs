//! `bpeek bench --serve N`: a class of N SSH clients over loopback against
//! a `bpeek serve` process, timed. Figures are printed, never asserted.
//!
//! The server runs as a child process so its memory and CPU are its own;
//! the clients (russh's client, one tokio runtime) run here. Students sit
//! at 120x40 and follow a teacher who steps twice a second; one more
//! follower at 80x24 measures bytes per step at the smaller size.

use crate::bench::figures::{put, round};
use bpeek_core::error::{Error, Result};
use bpeek_tui::options::args::BenchArgs;
use russh::client::{self, Msg};
use russh::keys::PublicKeyOrCertificate;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const STEPS: usize = 20;
const STEP_EVERY: Duration = Duration::from_millis(500);
const KEY_ROUNDS: usize = 10;

struct TrustAll;

impl client::Handler for TrustAll {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _: &PublicKeyOrCertificate,
    ) -> std::result::Result<bool, Self::Error> {
        Ok(true)
    }
}

/// Every chunk of screen bytes a client received, with when.
type Arrivals = Arc<Mutex<Vec<(Instant, usize)>>>;

/// The last screen bytes a client received (enough to find a number the
/// last frames drew).
type Tail = Arc<Mutex<Vec<u8>>>;
const TAIL_BYTES: usize = 256 * 1024;

struct Client {
    _handle: client::Handle<TrustAll>,
    channel: russh::ChannelWriteHalf<Msg>,
    arrivals: Arrivals,
    tail: Tail,
    connect_to_frame: Option<Duration>,
}

fn fail(what: &str) -> impl Fn(russh::Error) -> Error + '_ {
    move |e| Error::failure(format!("{what}: {e}"))
}

async fn connect(
    port: u16,
    user: &str,
    password: Option<&str>,
    size: (u32, u32),
) -> Result<Client> {
    let start = Instant::now();
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect(config, ("127.0.0.1", port), TrustAll)
        .await
        .map_err(fail("connecting"))?;
    let auth = match password {
        Some(p) => handle.authenticate_password(user, p).await,
        None => handle.authenticate_none(user).await,
    }
    .map_err(fail("logging in"))?;
    if !auth.success() {
        return Err(Error::failure(format!("{user} could not log in")));
    }
    let channel = handle
        .channel_open_session()
        .await
        .map_err(fail("a channel"))?;
    channel
        .request_pty(false, "xterm-256color", size.0, size.1, 0, 0, &[])
        .await
        .map_err(fail("a pty"))?;
    channel
        .request_shell(false)
        .await
        .map_err(fail("a shell"))?;
    let (mut read, write) = channel.split();
    let arrivals: Arrivals = Arc::default();
    let tail: Tail = Arc::default();
    let (first_tx, first_rx) = tokio::sync::oneshot::channel();
    let log = arrivals.clone();
    let kept = tail.clone();
    tokio::spawn(async move {
        let mut first = Some(first_tx);
        while let Some(msg) = read.wait().await {
            if let russh::ChannelMsg::Data { data } = msg {
                let now = Instant::now();
                if let Some(tx) = first.take() {
                    let _ = tx.send(now);
                }
                log.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((now, data.len()));
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                kept.extend_from_slice(&data);
                if kept.len() > 2 * TAIL_BYTES {
                    let cut = kept.len() - TAIL_BYTES;
                    kept.drain(..cut);
                }
            }
        }
    });
    let first = tokio::time::timeout(Duration::from_secs(30), first_rx).await;
    let connect_to_frame = first.ok().and_then(|r| r.ok()).map(|t| t - start);
    Ok(Client {
        _handle: handle,
        channel: write,
        arrivals,
        tail,
        connect_to_frame,
    })
}

impl Client {
    async fn press(&self, bytes: &[u8]) -> Result<Instant> {
        let at = Instant::now();
        self.channel.data(bytes).await.map_err(fail("typing"))?;
        Ok(at)
    }

    /// The last arrival at or after `from`.
    fn last_since(&self, from: Instant) -> Option<Duration> {
        let arrivals = self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        arrivals
            .last()
            .filter(|(t, _)| *t >= from)
            .map(|(t, _)| *t - from)
    }

    /// Whether the last screen bytes hold `text`.
    fn drew(&self, text: &str) -> bool {
        let tail = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.windows(text.len()).any(|w| w == text.as_bytes())
    }

    /// The first arrival at or after `from` and before `to`, and the bytes
    /// received in that span.
    fn between(&self, from: Instant, to: Instant) -> (Option<Duration>, usize) {
        let arrivals = self.arrivals.lock().unwrap_or_else(|e| e.into_inner());
        let span = arrivals.iter().filter(|(t, _)| *t >= from && *t < to);
        let mut first = None;
        let mut bytes = 0;
        for (t, n) in span {
            first.get_or_insert(*t - from);
            bytes += n;
        }
        (first, bytes)
    }
}

/// The server process, killed when dropped.
struct ServerProcess {
    child: Child,
    port: u16,
    token: String,
    dir: std::path::PathBuf,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_server(sessions: usize, corpus: Option<&std::path::Path>) -> Result<ServerProcess> {
    let dir = std::env::temp_dir().join(format!("bpeek-bench-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::failure(format!("{}: {e}", dir.display())))?;
    let exe = std::env::current_exe().map_err(|e| Error::failure(format!("bpeek itself: {e}")))?;
    bpeek_core::formats::atomic::remove_on_exit(&dir);
    let mut command = Command::new(exe);
    command
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-per-address",
            "100000",
        ])
        // Every client comes from 127.0.0.1, all at once.
        .arg("--max-startups")
        .arg(format!("{0}:100:{0}", sessions + 8))
        .arg("--max-startups-per-address")
        .arg((sessions + 8).to_string())
        .arg("--max-sessions")
        .arg((sessions + 8).to_string())
        .arg("--host-key")
        .arg(dir.join("host_key"))
        .arg("--log")
        .arg(dir.join("log"))
        .args(corpus)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    ends_with_this_process(&mut command);
    let mut child = command
        .spawn()
        .map_err(|e| Error::failure(format!("starting bpeek serve: {e}")))?;
    let stderr = child.stderr.take().expect("piped");
    let mut port = None;
    let mut token = None;
    for line in BufReader::new(stderr).lines() {
        let line = line.map_err(|e| Error::failure(format!("bpeek serve: {e}")))?;
        if let Some(p) = line.split_once("listening on 127.0.0.1:") {
            port = p.1.trim().parse().ok();
        }
        if let Some(t) = line.split_once("password (this run only): ") {
            token = Some(t.1.trim().to_string());
        }
        if line.contains("Ctrl-C stops") {
            break;
        }
    }
    match (port, token) {
        (Some(port), Some(token)) => Ok(ServerProcess {
            child,
            port,
            token,
            dir,
        }),
        _ => Err(Error::failure("bpeek serve did not start")),
    }
}

/// The server is stopped when this process ends in any way (an error, a
/// signal, running out of memory): the kernel sends it SIGTERM when its
/// parent is gone, so it never outlives the bench.
fn ends_with_this_process(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: between fork and exec only async-signal-safe calls are made
    // (prctl, getppid, kill); nothing is allocated.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have ended before the call above.
            if libc::getppid() != parent as libc::pid_t {
                libc::kill(libc::getpid(), libc::SIGTERM);
            }
            Ok(())
        });
    }
}

/// Resident memory (MB) and CPU time (s) of process `pid`.
fn usage(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may hold spaces): utime is the
    // 12th, stime the 13th, in clock ticks of 1/100 s.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    let cpu = fields.get(11).unwrap_or(&0.0) + fields.get(12).unwrap_or(&0.0);
    (rss_kb / 1024.0, cpu / 100.0)
}

/// p50, p95 and p99 of `ms` in words, and as figures under `key`.
fn percentiles(key: &str, mut ms: Vec<f64>) -> String {
    put(&[key, "samples"], ms.len());
    if ms.is_empty() {
        return "no samples".into();
    }
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    put(&[key, "p50_ms"], round(at(0.5), 1));
    put(&[key, "p95_ms"], round(at(0.95), 1));
    put(&[key, "p99_ms"], round(at(0.99), 1));
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms ({} samples)",
        at(0.5),
        at(0.95),
        at(0.99),
        ms.len()
    )
}

fn p95(ms: &[f64]) -> f64 {
    let mut v = ms.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(((v.len().max(1) - 1) as f64 * 0.95).round() as usize)
        .copied()
        .unwrap_or(0.0)
}

fn against(value: f64, target: f64, unit: &str) -> String {
    if value <= target {
        format!("{:.1}x under {target} {unit}", target / value.max(1e-6))
    } else {
        format!("{:.1}x over {target} {unit}", value / target)
    }
}

/// The teacher goes to merge `merges` in one go-to; every follower gets
/// there by taking the teacher's trained state. Times each until its
/// screen is quiet again.
async fn big_goto(teacher: &Client, class: &[Client], merges: usize, pid: u32) -> Result<()> {
    teacher.press(b"g").await?;
    let digits = format!("{merges}\r");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let at = teacher.press(digits.as_bytes()).await?;
    let everyone: Vec<&Client> = std::iter::once(teacher).chain(class).collect();
    quiet(&everyone, at, pid).await;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let own = teacher.last_since(at).map_or(0.0, ms);
    let followers: Vec<f64> = class
        .iter()
        .filter_map(|c| c.last_since(at))
        .map(ms)
        .collect();
    let slowest = followers.iter().copied().fold(0.0, f64::max);
    let reached = class.iter().filter(|c| c.drew(&merges.to_string())).count();
    put(&["goto", "merges"], merges);
    put(&["goto", "teacher_ms"], round(own, 1));
    put(&["goto", "slowest_follower_ms"], round(slowest, 1));
    put(
        &["goto", "slowest_over_teacher"],
        round(slowest / own.max(1e-6), 3),
    );
    put(&["goto", "target_over_teacher"], 2.0);
    put(&["goto", "followers_at_merge"], reached);
    put(&["goto", "followers"], class.len());
    crate::say!(
        "go-to {merges}: the teacher's screen settles after {own:.0} ms; followers' after {}, \
         the slowest {:.2}x the teacher's (target 2x); {reached} of {} drew {merges}",
        percentiles("goto_followers", followers.clone()),
        slowest / own.max(1e-6),
        class.len()
    );
    Ok(())
}

/// What the benched class is: its students and their terminals' sizes,
/// the teacher's go-to at the end, the columns each student adds.
struct ClassSetup {
    students: usize,
    sizes: &'static [(u32, u32)],
    goto: usize,
    columns: usize,
}

/// A class's terminals with `--serve-mixed`: seven sizes in turn, as
/// `tests/ssh/latency.py --mixed` gives them.
const MIXED_SIZES: [(u32, u32); 7] = [
    (80, 24),
    (100, 30),
    (120, 40),
    (132, 43),
    (160, 50),
    (200, 60),
    (90, 30),
];

/// The most students the bench starts: each is a session of the server
/// and a client here, a few MB each, on one machine.
pub const MAX_STUDENTS: usize = 2000;

/// Serve `corpus` (the bundled one without it) to `students` and a
/// teacher, go to merge `goto` at the end, and print what it cost.
pub fn run(args: &BenchArgs, students: usize) -> Result<()> {
    let corpus = args.corpus.as_deref();
    let (goto, columns) = (args.merges, usize::from(args.serve_columns));
    let sizes = if args.serve_mixed {
        &MIXED_SIZES[..]
    } else {
        &[(120, 40)][..]
    };
    if students == 0 {
        return Err(Error::input("--serve: at least 1 student"));
    }
    // Bounds before anything is allocated or started.
    if students > MAX_STUDENTS {
        return Err(Error::input(format!(
            "--serve {students}: at most {MAX_STUDENTS} students (each is a session of the server and a client here)"
        )));
    }
    // Ctrl-C or kill: the server's folder goes with the bench (the server
    // itself gets SIGTERM from the kernel).
    crate::interrupt::clean_up_on_signals();
    let server = start_server(students + 1, corpus)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::failure(format!("clients: {e}")))?;
    let what = corpus.map_or("the bundled corpus".to_string(), |c| {
        c.display().to_string()
    });
    put(&["students"], students);
    put(&["corpus"], what.clone());
    let at = if args.serve_mixed {
        "at seven sizes in turn (80x24 to 200x60)"
    } else {
        "at 120x40"
    };
    put(&["mixed_sizes"], args.serve_mixed);
    crate::say!(
        "serve bench: {what}; {students} students {at} following a teacher, and one at 80x24; loopback"
    );
    let class = ClassSetup {
        students,
        sizes,
        goto,
        columns,
    };
    runtime.block_on(follow_the_teacher(&server, &class))
}

/// The class joins, follows the teacher's steps, presses keys of its own
/// and follows a big go-to; every figure printed.
async fn follow_the_teacher(server: &ServerProcess, setup: &ClassSetup) -> Result<()> {
    let (students, goto, columns) = (setup.students, setup.goto, setup.columns);
    let pid = server.child.id();
    let (rss_idle, _) = usage(pid);
    let class = Class::join(server, students, setup.sizes).await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (rss_class, cpu_before) = usage(pid);
    let (_, clients_before) = usage(std::process::id());
    let started = Instant::now();
    let steps = class.follow_steps().await?;
    let own_ms = class.own_keys().await?;
    let elapsed = started.elapsed().as_secs_f64();
    let (rss_end, cpu_after) = usage(pid);
    let (_, clients_after) = usage(std::process::id());
    steps.report_latency()?;
    crate::say!(
        "own keys (all {students} at once, {KEY_ROUNDS} rounds), keystroke to first frame byte: {}",
        percentiles("own_key", own_ms)
    );
    steps.report_bytes(students, setup.sizes.len() > 1)?;
    let sessions = students + 2;
    let clients_cpu = clients_after - clients_before;
    let cpu = cpu_after - cpu_before;
    put(&["server", "rss_idle_mb"], round(rss_idle, 1));
    put(&["server", "rss_class_mb"], round(rss_class, 1));
    put(&["server", "rss_after_mb"], round(rss_end, 1));
    put(&["server", "sessions"], sessions);
    put(&["server", "cpu_s"], round(cpu, 3));
    put(&["server", "elapsed_s"], round(elapsed, 3));
    put(&["clients_cpu_s"], round(clients_cpu, 3));
    crate::say!(
        "server: RSS {rss_idle:.0} MB idle, {rss_class:.0} MB with {sessions} sessions, {rss_end:.0} MB after; \
         CPU {cpu:.2} s in {elapsed:.1} s ({:.0}% of one core); the clients here took {clients_cpu:.2} s more",
        100.0 * cpu / elapsed,
    );
    if sessions >= 100 {
        crate::say!(
            "  memory with {sessions} sessions: {}",
            against(rss_class, 300.0, "MB")
        );
    }
    if columns > 0 {
        class.add_columns(columns, pid).await?;
    }
    let (_, cpu_before_goto) = usage(pid);
    big_goto(&class.teacher, &class.students, goto, pid).await?;
    let (rss_goto, cpu_after_goto) = usage(pid);
    let goto_cpu = cpu_after_goto - cpu_before_goto;
    put(&["server", "rss_after_goto_mb"], round(rss_goto, 1));
    put(&["server", "goto_cpu_s"], round(goto_cpu, 3));
    put(&["server", "peak_rss_mb"], round(peak_rss(pid), 1));
    crate::say!(
        "server: RSS {rss_goto:.0} MB after the go-to (peak {:.0} MB); CPU {goto_cpu:.2} s for the go-to",
        peak_rss(pid)
    );
    Ok(())
}

/// The most resident memory process `pid` has had, in MB.
fn peak_rss(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Wait until no client of `class` has drawn for a while (bounded): the
/// time from `at` to the last bytes drawn.
async fn quiet(class: &[&Client], at: Instant, pid: u32) -> Duration {
    let quiet = Duration::from_millis(1500);
    let give_up = at + Duration::from_secs(300);
    // The server's CPU time, looked at every 100 ms: a session counting or
    // waiting for a column draws nothing, and is not done.
    let mut cpu_seen = std::collections::VecDeque::from([usage(pid).1]);
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cpu_seen.push_back(usage(pid).1);
        if cpu_seen.len() > 15 {
            cpu_seen.pop_front();
        }
        let busy = cpu_seen.back().unwrap_or(&0.0) - cpu_seen.front().unwrap_or(&0.0) > 0.1;
        let last = class
            .iter()
            .filter_map(|c| c.last_since(at))
            .max()
            .unwrap_or_default();
        let settled = at.elapsed() > last + quiet && last > Duration::ZERO && !busy;
        if Instant::now() > give_up || settled {
            return last;
        }
    }
}

/// The clients of a benched class: students at 120x40, one at 80x24 and
/// the teacher.
struct Class {
    students: Vec<Client>,
    small: Client,
    teacher: Client,
}

/// What the followers received while the teacher stepped.
struct Followed {
    /// Keystroke to a follower's first frame byte, each step, each student.
    ms: Vec<f64>,
    big_bytes: usize,
    small_bytes: usize,
}

impl Class {
    /// Connect every student at once, then the small terminal and the
    /// teacher; print how long each student waited for a first frame.
    async fn join(server: &ServerProcess, students: usize, sizes: &[(u32, u32)]) -> Result<Class> {
        let port = server.port;
        let joins: Vec<_> = (0..students)
            .map(|i| {
                let size = sizes[i % sizes.len()];
                tokio::spawn(async move { connect(port, &format!("s{i}"), None, size).await })
            })
            .collect();
        let mut class = Vec::new();
        for j in joins {
            class.push(j.await.map_err(|e| Error::failure(e.to_string()))??);
        }
        let small = connect(port, "small", None, (80, 24)).await?;
        let teacher = connect(port, "teacher", Some(&server.token), (120, 40)).await?;
        let connects: Vec<f64> = class
            .iter()
            .filter_map(|c| c.connect_to_frame)
            .map(|d| d.as_secs_f64() * 1e3)
            .collect();
        crate::say!(
            "connect to first frame: {}",
            percentiles("connect_to_first_frame", connects)
        );
        Ok(Class {
            students: class,
            small,
            teacher,
        })
    }

    /// The teacher steps twice a second; every follower redraws.
    async fn follow_steps(&self) -> Result<Followed> {
        let mut marks = Vec::new();
        for _ in 0..STEPS {
            marks.push(self.teacher.press(b"n").await?);
            tokio::time::sleep(STEP_EVERY).await;
        }
        marks.push(Instant::now());
        let mut followed = Followed {
            ms: Vec::new(),
            big_bytes: 0,
            small_bytes: 0,
        };
        for w in marks.windows(2) {
            for c in &self.students {
                let (first, bytes) = c.between(w[0], w[1]);
                followed.ms.extend(first.map(|d| d.as_secs_f64() * 1e3));
                followed.big_bytes += bytes;
            }
            followed.small_bytes += self.small.between(w[0], w[1]).1;
        }
        Ok(followed)
    }

    /// Every student adds `columns` columns to compare, all at once: the
    /// time until every screen is quiet again, and the server's CPU and
    /// memory for it.
    async fn add_columns(&self, columns: usize, pid: u32) -> Result<()> {
        let (_, cpu_before) = usage(pid);
        let at = Instant::now();
        for change in [b't', b'p', b'd', b'm'].into_iter().take(columns) {
            for c in &self.students {
                c.press(b"o").await?;
                c.press(&[change]).await?;
            }
        }
        let students: Vec<&Client> = self.students.iter().collect();
        let last = quiet(&students, at, pid).await;
        let (rss, cpu_after) = usage(pid);
        let cpu = cpu_after - cpu_before;
        put(&["columns", "per_student"], columns);
        put(
            &["columns", "quiet_after_ms"],
            round(last.as_secs_f64() * 1e3, 1),
        );
        put(&["columns", "server_cpu_s"], round(cpu, 3));
        put(&["columns", "rss_mb"], round(rss, 1));
        crate::say!(
            "{} students add {columns} columns each: every screen quiet after {:.0} ms; \
             server CPU {cpu:.2} s, RSS {rss:.0} MB",
            self.students.len(),
            last.as_secs_f64() * 1e3
        );
        Ok(())
    }

    /// Each student presses a key of their own, all at once, in rounds:
    /// keystroke to first frame byte, each round, each student.
    async fn own_keys(&self) -> Result<Vec<f64>> {
        let mut own_ms = Vec::new();
        for _ in 0..KEY_ROUNDS {
            let mut sent = Vec::new();
            for c in &self.students {
                sent.push(c.press(b"\t").await?);
            }
            tokio::time::sleep(STEP_EVERY).await;
            let end = Instant::now();
            for (c, at) in self.students.iter().zip(&sent) {
                own_ms.extend(c.between(*at, end).0.map(|d| d.as_secs_f64() * 1e3));
            }
        }
        Ok(own_ms)
    }
}

impl Followed {
    fn report_latency(&self) -> Result<()> {
        crate::say!(
            "teacher steps ({STEPS} at 2/s), keystroke to a follower's first frame byte: {}; {}",
            percentiles("teacher_key_to_follower", self.ms.clone()),
            against(p95(&self.ms), 50.0, "ms at p95")
        );
        Ok(())
    }

    fn report_bytes(&self, students: usize, mixed: bool) -> Result<()> {
        let per_step_big = self.big_bytes as f64 / (STEPS * students) as f64;
        let per_step_small = self.small_bytes as f64 / STEPS as f64;
        let (key, label) = if mixed {
            ("per_student_mixed", "a student (mixed sizes)")
        } else {
            ("at_120x40", "at 120x40")
        };
        put(&["bytes_per_step", key], round(per_step_big, 0));
        put(&["bytes_per_step", "at_80x24"], round(per_step_small, 0));
        crate::say!(
            "bytes per step per session: {:.0} {label}, {:.0} at 80x24 ({})",
            per_step_big,
            per_step_small,
            against(per_step_small / 1024.0, 4.0, "KB at 80x24")
        );
        Ok(())
    }
}
