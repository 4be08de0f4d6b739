//! A hostile student, scripted: a resize storm, an escape sequence that
//! never ends, logins that never open a shell, silent sockets, a full
//! class, a teacher's dead link, password guessing. Server and clients run
//! in one test process over loopback; every loop is bounded.

mod ssh;

use russh::client;
use ssh::{Banner, Class, Conn, Term, login_from, runtime, tcp_from, threads};
use std::sync::Arc;
use std::time::Duration;

fn shows(text: &'static str) -> impl Fn(&Term) -> bool {
    move |t: &Term| t.screen().contains(text)
}

async fn explorer(handle: &client::Handle<Banner>, cols: u16, rows: u16) -> Term {
    let channel = handle.channel_open_session().await.unwrap();
    channel
        .request_pty(true, "xterm", cols.into(), rows.into(), 0, 0, &[])
        .await
        .unwrap();
    channel.request_shell(true).await.unwrap();
    Term::new(channel, cols, rows)
}

/// A teacher's password login from `source`: the handle if accepted.
async fn teacher_from(
    source: [u8; 4],
    port: u16,
    passwords: &[&str],
) -> Option<client::Handle<Banner>> {
    let stream = tcp_from(source, port).await;
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect_stream(config, stream, Banner::default())
        .await
        .ok()?;
    for p in passwords {
        match handle.authenticate_password("teacher", *p).await {
            Ok(r) if r.success() => return Some(handle),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

async fn wait_closed<H: client::Handler>(handle: &client::Handle<H>, what: &str) {
    let deadline = tokio::time::Instant::now() + ssh::PATIENCE;
    while !handle.is_closed() {
        assert!(tokio::time::Instant::now() < deadline, "{what} stays open");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn a_resize_storm_starts_no_threads_and_the_latest_size_wins() {
    let class = Class::start("resize-storm", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "storm", None).await.unwrap();
        let mut term = conn.terminal(120, 40).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        let before = threads();
        let mut most = before;
        for i in 0..20_000u32 {
            let cols = if i % 2 == 0 { 500 } else { 499 };
            term.channel.window_change(cols, 200, 0, 0).await.unwrap();
            if i % 250 == 0 {
                most = most.max(threads());
            }
        }
        most = most.max(threads());
        assert!(
            most <= before + 8,
            "threads went from {before} to {most} in a resize storm"
        );
        term.resize(90, 30).await;
        term.send(b"n").await;
        term.wait_for("merge 1 at 90x30", |t| {
            t.status_line().contains("merge 1/") && t.screen().lines().any(|l| l.contains("Pairs"))
        })
        .await;
        // The server goes on for everyone.
        let other = Conn::login(class.port(), "calm", None).await.unwrap();
        let mut calm = other.terminal(80, 24).await;
        calm.wait_for("another explorer", shows("merge 0/")).await;
    });
}

#[test]
fn an_escape_sequence_that_never_ends_is_dropped_and_keys_work_after_it() {
    let class = Class::start("escape-flood", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "flood", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        term.send(b"\x1b[1").await;
        let digits = vec![b'1'; 32 * 1024];
        // 16 MB of a sequence that never ends.
        for _ in 0..512 {
            term.send(&digits).await;
        }
        // The server drops what comes past its input buffer (and says
        // so), so the keys after the flood may come before it has room:
        // they are sent again until one step is taken.
        let stepped = |t: &Term| !t.status_line().contains("merge 0/");
        for _ in 0..10 {
            term.send(b"~n").await;
            if term.holds_within(Duration::from_secs(2), stepped).await {
                break;
            }
        }
        term.wait_for("a step after the flood", stepped).await;
    });
}

#[test]
fn logins_that_open_no_shell_are_refused_per_address_at_once_and_closed_in_time() {
    let class = Class::start(
        "no-shell",
        &[
            "--max-sessions",
            "4",
            "--max-per-address",
            "1",
            "--login-timeout",
            "2s",
        ],
    );
    let token = class.token();
    runtime().block_on(async {
        // Like 20 `ssh -N` from one address.
        let mut held = Vec::new();
        for i in 0..20 {
            let (handle, ok, _) = login_from([127, 0, 0, 5], class.port(), "holder").await;
            assert!(ok, "holder {i} logs in");
            held.push(handle.unwrap());
        }
        // The second was refused when accepted, and is told why.
        let mut second = explorer(&held[1], 80, 24).await;
        second.wait_closed().await;
        assert!(
            second
                .raw
                .contains("bpeek: too many connections from your address (1)"),
            "{}",
            second.raw
        );
        assert_eq!(second.exit_status, Some(1));

        // Another address, and the teacher, get in.
        let (student, ok, _) = login_from([127, 0, 0, 6], class.port(), "ann").await;
        assert!(ok);
        let mut ann = explorer(&student.unwrap(), 80, 24).await;
        ann.wait_for("ann's explorer", shows("merge 0/")).await;
        let teacher = teacher_from([127, 0, 0, 7], class.port(), &[&token])
            .await
            .expect("the teacher logs in");
        let mut t = explorer(&teacher, 100, 30).await;
        t.wait_for("the teacher's explorer", |t| {
            t.status_line().contains("teacher, 1 student")
        })
        .await;

        // Every holder is closed: the refused ones soon, the first once the
        // login timeout is over.
        for h in &held {
            wait_closed(h, "a login without a shell").await;
        }
    });
    let log = class.wait_for_log("no explorer within 2 s");
    assert!(log.contains("closed 127.0.0.5:"), "{log}");
    assert!(log.contains("refused 127.0.0.5:"), "{log}");
    assert!(
        log.contains("user \"ann\"") && log.contains("client \"SSH-2.0-"),
        "{log}"
    );
    assert!(log.contains("by password"), "{log}");
}

#[test]
fn silent_sockets_from_one_address_take_only_its_share_of_pending_logins() {
    let class = Class::start("silent", &[]);
    runtime().block_on(async {
        let mut silent = Vec::new();
        for _ in 0..80 {
            silent.push(tcp_from([127, 0, 0, 9], class.port()).await);
        }
        // Everyone else still gets in, at once.
        let (student, ok, _) = login_from([127, 0, 0, 10], class.port(), "ben").await;
        assert!(ok, "a student from another address logs in");
        let mut ben = explorer(&student.unwrap(), 80, 24).await;
        ben.wait_for("ben's explorer", shows("merge 0/")).await;
        let token = class.token();
        let teacher = teacher_from([127, 0, 0, 11], class.port(), &[&token])
            .await
            .expect("the teacher logs in");
        let mut t = explorer(&teacher, 100, 30).await;
        t.wait_for("the teacher", |t| {
            t.status_line().contains("teacher, 1 student")
        })
        .await;

        // The last silent socket was told why, in one line, and closed.
        use tokio::io::AsyncReadExt;
        let mut last = silent.pop().unwrap();
        let mut got = Vec::new();
        let _ = tokio::time::timeout(ssh::PATIENCE, last.read_to_end(&mut got)).await;
        let got = String::from_utf8_lossy(&got);
        assert_eq!(
            got, "bpeek: too many logins under way; try again in a few seconds\r\n",
            "{got:?}"
        );
    });
    // 72 refusals make one line, then a count.
    let log = class.wait_for_log("more refusals from 127.0.0.9 in the last 10 s");
    assert_eq!(log.matches("refused 127.0.0.9:").count(), 1, "{log}");
    assert!(
        log.contains("… and 71 more refusals from 127.0.0.9"),
        "{log}"
    );
}

#[test]
fn the_teachers_seat_is_kept_in_a_full_class() {
    let class = Class::start("teacher-seat", &["--max-sessions", "3"]);
    let token = class.token();
    runtime().block_on(async {
        let mut students = Vec::new();
        for name in ["a", "b", "c"] {
            let conn = Conn::login(class.port(), name, None).await.unwrap();
            let mut term = conn.terminal(80, 24).await;
            term.wait_for("a student's explorer", shows("merge 0/"))
                .await;
            students.push((conn, term));
        }
        let teacher = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut t = teacher.terminal(100, 30).await;
        t.wait_for("the teacher in a full class", |t| {
            t.status_line().contains("teacher, 3 students")
        })
        .await;
        // A fourth student is told the class is full.
        let (late, _, _) = login_from([127, 0, 0, 12], class.port(), "d").await;
        let mut d = explorer(&late.unwrap(), 80, 24).await;
        d.wait_closed().await;
        assert!(
            d.raw.contains("the class is full (3 sessions)"),
            "{}",
            d.raw
        );
    });
}

#[test]
fn a_new_teacher_login_takes_over_from_a_dead_teacher_link_where_the_class_is() {
    let class = Class::start("stale-teacher", &[]);
    let token = class.token();
    runtime().block_on(async {
        let s = Conn::login(class.port(), "sam", None).await.unwrap();
        let mut sam = s.terminal(80, 24).await;
        sam.wait_for("sam's explorer", shows("merge 0/")).await;

        let first = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut t1 = first.terminal(100, 30).await;
        t1.wait_for("the teacher", shows("merge 0/")).await;
        t1.send(b"nnn").await;
        sam.wait_for("sam at merge 3", |t| t.status_line().contains("merge 3/"))
            .await;
        // The first teacher's link dies: it reads nothing more, like an
        // ssh stopped with SIGSTOP. A new teacher login takes over at once.
        let second = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut t2 = second.terminal(100, 30).await;
        t2.wait_for("the new teacher at merge 3", |t| {
            t.status_line().contains("merge 3/") && t.status_line().contains("teacher, 1 student")
        })
        .await;
        t2.send(b"n").await;
        sam.wait_for("sam follows the new teacher", |t| {
            t.status_line().contains("merge 4/")
        })
        .await;

        // A teacher who leaves and comes back goes on from the class's merge.
        t2.send(b"q").await;
        t2.wait_closed().await;
        sam.wait_for("the teacher gone", |t| {
            t.status_line().contains("the teacher left")
        })
        .await;
        let third = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut t3 = third.terminal(100, 30).await;
        t3.wait_for("the teacher back at merge 4", |t| {
            t.status_line().contains("merge 4/")
        })
        .await;
        assert!(t3.screen().contains("Merges 4"), "{}", t3.screen());
        sam.wait_for("sam with the teacher", |t| {
            t.status_line().contains("following the teacher")
                && t.status_line().contains("merge 4/")
        })
        .await;
        drop(first);
    });
    let log = class.wait_for_log("replaced by a new teacher login");
    assert!(!log.contains("already leading"), "{log}");
}

#[test]
fn failed_teacher_logins_are_counted_per_address_slowed_and_never_lock_the_teacher_out() {
    let mut class = Class::start("guessing", &[]);
    let token = class.token();
    runtime().block_on(async {
        let guesses = ["aaaa", "bbbb", "cccc"];
        // Four connections of three guesses each, from the teacher's
        // address (a class behind one NAT): every guess is answered, each
        // a little later than the one before.
        for _ in 0..4 {
            let got = teacher_from([127, 0, 0, 20], class.port(), &guesses).await;
            assert!(got.is_none());
        }
        let right = teacher_from([127, 0, 0, 20], class.port(), &[&token]).await;
        assert!(
            right.is_some(),
            "after twelve failures from the address the teacher still logs in"
        );
        // Another address is not held back.
        let other = teacher_from([127, 0, 0, 21], class.port(), &[&token]).await;
        assert!(other.is_some(), "the teacher elsewhere logs in");

        // A fourth try on one connection still gets an answer.
        let stream = tcp_from([127, 0, 0, 22], class.port()).await;
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect_stream(config, stream, Banner::default())
            .await
            .unwrap();
        for p in ["x", "y", "z", "w"] {
            let r = handle.authenticate_password("teacher", p).await;
            assert!(
                matches!(&r, Ok(r) if !r.success()),
                "the try {p:?} is answered: {r:?}"
            );
        }
    });
    // Stopping writes out the failures counted but not written.
    class.stop();
    let log = class.log.text();
    assert!(
        log.contains("failed login 127.0.0.20:")
            && log.contains("user \"teacher\" method password"),
        "{log}"
    );
    assert!(log.contains("more failed logins from 127.0.0.20"), "{log}");
}

#[test]
fn a_session_ends_at_the_max_session_time() {
    let class = Class::start(
        "time-limit",
        &["--max-session-time", "1s", "--keepalive", "5s"],
    );
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "long", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        term.wait_closed().await;
        assert!(term.raw.contains("time limit of 1 s"), "{}", term.raw);
        assert!(!term.vt.screen().alternate_screen());
    });
    class.wait_for_log("time limit");
}

/// What `tests/ssh/guess.py` printed, guessing the teacher's password from
/// `source`: `None` where python3 has no paramiko.
fn paramiko_guesses(class: &Class, source: &str, connections: u32, tries: u32) -> Option<String> {
    let have = std::process::Command::new("python3")
        .args(["-c", "import paramiko"])
        .status()
        .is_ok_and(|s| s.success());
    if !have {
        eprintln!("skipped: python3 with paramiko is not installed");
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ssh/guess.py");
    let out = std::process::Command::new("python3")
        .args([
            script,
            &class.port().to_string(),
            source,
            &connections.to_string(),
            &tries.to_string(),
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(said)
}

#[test]
fn a_paramiko_guesser_is_answered_on_every_try_and_slowed_per_address() {
    let mut class = Class::start("paramiko", &[]);
    // Twelve connections of one try each: every try is answered, each
    // later than the one before (up to two seconds).
    let Some(said) = paramiko_guesses(&class, "127.0.0.30", 12, 1) else {
        return;
    };
    assert_eq!(
        said.lines().filter(|l| *l == "answer").count(),
        12,
        "{said}"
    );
    class.stop();
    let log = class.log.text();
    assert!(
        log.contains("failed login 127.0.0.30:")
            && log.contains("user \"teacher\" method password (1 from this address)"),
        "{log}"
    );
    assert!(
        log.contains("11 more failed logins from 127.0.0.30"),
        "{log}"
    );
}

#[test]
fn a_client_that_asks_again_on_one_connection_is_answered_and_told_to_connect_again() {
    // The login timeout is far off, so only the server's watch for a
    // client waiting on an unanswered request can answer the second try.
    let class = Class::start("paramiko-again", &["--login-timeout", "5m"]);
    let Some(said) = paramiko_guesses(&class, "127.0.0.33", 2, 3) else {
        return;
    };
    let lines: Vec<&str> = said.lines().collect();
    let told = "told: bpeek: that login was refused; to try again, connect again";
    // Per connection: the first try is refused as usual, the second (which
    // paramiko begins by asking for the login service again) is answered
    // by the connection's close with its reason, and the third finds the
    // connection closed.
    for connection in lines.chunks(4) {
        assert_eq!(&connection[..3], ["answer", "answer", "closed"], "{said}");
        assert!(connection[3].starts_with(told), "{said}");
    }
    assert_eq!(lines.len(), 8, "{said}");
    class.wait_for_log("asked again on one connection after a refused login");
}

#[test]
fn a_sessions_encode_box_holds_at_most_its_budget_however_often_it_pastes() {
    let class = Class::start("paste-budget", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "paster", None).await.unwrap();
        let mut term = conn.terminal(100, 30).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        let chunk = "bread and butter ".repeat(60 * 1024 / 17);
        for _ in 0..3 {
            let mut paste = b"\x1b[200~".to_vec();
            for _ in 0..8 {
                paste.extend_from_slice(chunk.as_bytes());
            }
            paste.extend_from_slice(b"\x1b[201~");
            term.send(&paste).await;
        }
        term.wait_for("the budget said", |t| {
            t.screen().contains("holds at most 1024 KB here")
        })
        .await;
        // The box stops at the budget, 1 MB, however much more came.
        term.wait_for("the box at its budget", shows("1048576 bytes"))
            .await;
    });
}

#[test]
fn past_the_memory_budget_students_are_told_and_the_teacher_still_gets_in() {
    // A budget the server is past from the start.
    let class = Class::start("memory-budget", &["--max-memory", "1MB"]);
    let token = class.token();
    runtime().block_on(async {
        let (student, _, _) = login_from([127, 0, 0, 21], class.port(), "s").await;
        let mut s = explorer(&student.unwrap(), 80, 24).await;
        s.wait_closed().await;
        assert!(
            s.raw
                .contains("the server is short of memory; try again later"),
            "{}",
            s.raw
        );
        let teacher = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut t = teacher.terminal(100, 30).await;
        t.wait_for("the teacher's explorer", |t| {
            t.status_line().contains("teacher, 0 students")
        })
        .await;
        // A paste past the budget is left out, and said so.
        t.send(b"\x1b[200~some text\x1b[201~").await;
        t.wait_for(
            "the paste refused",
            shows("short of memory: the paste is left out"),
        )
        .await;
    });
}

/// Megabytes of `key`, each a frame, sent as fast as the link takes them:
/// false if the server stopped taking them (its explorer reads slower).
async fn flood(term: &mut Term, key: u8, megabytes: usize) -> bool {
    let keys = vec![key; 32 * 1024];
    let sending = async {
        for _ in 0..megabytes * 32 {
            if term.channel.data(&keys[..]).await.is_err() {
                return false;
            }
            term.take_arrived().await;
        }
        true
    };
    tokio::time::timeout(ssh::PATIENCE, sending)
        .await
        .unwrap_or(false)
}

#[test]
fn a_key_flood_ends_with_its_client_and_the_keys_behind_it_are_dropped() {
    let class = Class::start("flood-and-leave", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "flooder", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        // More keys than the explorer draws frames for in minutes.
        assert!(
            flood(&mut term, b'n', 8).await,
            "the server stopped reading while its explorer was behind"
        );
        drop(term);
        drop(conn);
    });
    // The session ends with its client, not after the keys it was sent.
    let log = class.wait_for_log("client gone");
    assert!(log.contains("student"), "{log}");
    // The server goes on for everyone else.
    let calm = runtime().block_on(async {
        let conn = Conn::login(class.port(), "calm", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("another explorer", shows("merge 0/")).await;
        term.send(b"n").await;
        term.wait_for("merge 1", |t| t.status_line().contains("merge 1/"))
            .await;
        term.screen()
    });
    assert!(calm.contains("merge 1/"));
}

#[test]
fn a_flooder_gets_its_goodbye_when_the_server_stops_and_holds_nothing_up() {
    use tokio::io::AsyncWriteExt;
    let class = Class::start("flood-at-stop", &[]);
    let (term, class) = runtime().block_on(async {
        let conn = Conn::login(class.port(), "flooder", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        // Keys as fast as the link takes them, while the terminal reads.
        let mut writer = term.channel.make_writer();
        let flooding = tokio::spawn(async move {
            let keys = vec![b'n'; 32 * 1024];
            for _ in 0..64 * 32 {
                if writer.write_all(&keys).await.is_err() {
                    break;
                }
            }
        });
        for _ in 0..50 {
            term.take_arrived().await;
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The server stops in the middle of the flood.
        let stopping = std::thread::spawn(move || {
            let mut class = class;
            class.stop();
            class
        });
        term.wait_closed().await;
        flooding.abort();
        let class = tokio::task::spawn_blocking(move || stopping.join().unwrap())
            .await
            .unwrap();
        drop(conn);
        (term, class)
    });
    assert!(
        term.raw.contains("the server is stopping; goodbye"),
        "no goodbye; the log:\n{}",
        class.log.text()
    );
    assert!(!term.vt.screen().alternate_screen());
    assert!(
        class.log.text().contains("server stopping"),
        "{}",
        class.log.text()
    );
}

#[test]
fn commands_subsystems_and_forwarding_are_refused_and_logged() {
    let class = Class::start("probes", &[]);
    runtime().block_on(async {
        // A connection opens one session channel: a probe each.
        let conn = Conn::login(class.port(), "prober", None).await.unwrap();
        let exec = conn.channel().await;
        let _ = exec.exec(true, "cat /etc/passwd").await;
        let conn = Conn::login(class.port(), "prober", None).await.unwrap();
        let sftp = conn.channel().await;
        let _ = sftp.request_subsystem(true, "sftp").await;
        let conn = Conn::login(class.port(), "prober", None).await.unwrap();
        assert!(
            conn.handle
                .channel_open_direct_tcpip("10.0.0.1", 5432, "127.0.0.1", 40000)
                .await
                .is_err(),
            "a forwarding channel opened"
        );
        assert!(
            conn.handle.tcpip_forward("0.0.0.0", 8080).await.is_err(),
            "a remote forward was accepted"
        );
    });
    // One line per kind and address a minute at most (a flood of probes
    // is counted, not written out).
    let log = class.wait_for_log("remote forwarding of \"0.0.0.0\":8080");
    for probe in [
        "user \"prober\": exec \"cat /etc/passwd\"",
        "user \"prober\": subsystem \"sftp\"",
        "forwarding to \"10.0.0.1\":5432",
    ] {
        assert!(log.contains(probe), "{probe} not in the log:\n{log}");
    }
}

/// Keep `n` silent sockets open from `source`, opening a new one for each
/// the server closes, until `stop` is set; how many were opened in all.
async fn hold_silent(
    source: [u8; 4],
    port: u16,
    n: usize,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> usize {
    use tokio::io::AsyncReadExt;
    let mut opened = 0;
    let mut held = tokio::task::JoinSet::new();
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        while held.len() < n {
            let mut socket = tcp_from(source, port).await;
            opened += 1;
            held.spawn(async move {
                let mut sink = Vec::new();
                let _ = socket.read_to_end(&mut sink).await;
            });
        }
        // A socket the server closed is opened again at once.
        let _ = tokio::time::timeout(Duration::from_millis(100), held.join_next()).await;
    }
    held.abort_all();
    opened
}

#[test]
fn silent_sockets_and_logins_without_a_shell_from_the_teachers_address_never_keep_the_teacher_out()
{
    let class = Class::start("one-address", &[]);
    let token = class.token();
    let here = [127, 0, 0, 50];
    runtime().block_on(async {
        // ssh -N from the teacher's address: logged in, never a shell.
        let mut holders = Vec::new();
        for i in 0..4 {
            let (handle, ok, _) = login_from(here, class.port(), &format!("n{i}")).await;
            assert!(ok);
            holders.push(handle);
        }
        // And silent sockets, reopened as they are closed: together more
        // than the address's share of logins under way.
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let silence = tokio::spawn(hold_silent(here, class.port(), 8, stop.clone()));
        // Until the address is full: the next socket is refused.
        let deadline = tokio::time::Instant::now() + ssh::PATIENCE;
        while !class.log.text().contains("refused 127.0.0.50:") {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the address never filled"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The teacher logs in from the same address at the first try: the
        // limits that refuse it are the students'.
        let teacher = teacher_from(here, class.port(), &[&token])
            .await
            .expect("the teacher logs in");
        let mut t = explorer(&teacher, 100, 30).await;
        t.wait_for("the teacher's explorer", |t| {
            t.status_line().contains("teacher")
        })
        .await;
        // A student from that address gets a place too, once the idle
        // logins holding them have been idle a while: a newer login takes
        // the place of one.
        let deadline = tokio::time::Instant::now() + ssh::PATIENCE;
        loop {
            let (student, _, _) = login_from(here, class.port(), "ann").await;
            if let Some(student) = student {
                let mut ann = explorer(&student, 80, 24).await;
                ann.wait_for("ann's explorer or her refusal", |t| {
                    t.closed || t.screen().contains("merge 0/")
                })
                .await;
                if !ann.closed {
                    break;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the student never got in:\n{}",
                class.log.text()
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let opened = silence.await.unwrap();
        assert!(opened >= 8, "{opened}");
        drop(holders);
    });
    let log = class.log.text();
    assert!(log.contains("user \"ann\""), "{log}");
    assert!(log.contains("its place went to a newer login"), "{log}");
}
