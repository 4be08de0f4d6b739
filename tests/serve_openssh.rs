//! `bpeek serve` with the real OpenSSH client, each side in a terminal of
//! its own (tmux): what a teacher and a class actually type and see.

mod ssh;
mod tmux;
mod wait;

use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};
use tmux::{TempDir, Term, Tmux};

const SSH_OPTIONS: &str =
    "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR";

/// `bpeek serve` running in `term`, on a port the system picked.
struct Served {
    port: u16,
    token: String,
}

fn serve(term: &Term, dir: &TempDir, extra: &str) -> Served {
    serve_with(
        term,
        dir,
        &format!("--corpus-name play --pretok whitespace {extra}"),
    )
}

/// `bpeek serve` with these training and class options.
fn serve_with(term: &Term, dir: &TempDir, options: &str) -> Served {
    term.command(&format!(
        "{} serve {options} --listen 127.0.0.1:0 --host-key {}/host_key",
        env!("CARGO_BIN_EXE_bpeek"),
        dir.path().display()
    ));
    let screen = term.wait_for("the start-up lines", |s| s.contains("Ctrl-C stops"));
    let field = |prefix: &str| {
        screen
            .lines()
            .find_map(|l| {
                l.split_once(prefix)
                    .map(|(_, rest)| rest.trim().to_string())
            })
            .unwrap_or_else(|| panic!("no {prefix:?} in:\n{screen}"))
    };
    let port = field("listening on 127.0.0.1:").parse().unwrap();
    let token = field("password (this run only): ");
    Served { port, token }
}

fn ssh(port: u16, rest: &str) -> String {
    format!("ssh -p {port} {SSH_OPTIONS} {rest}")
}

/// Wait for the line `TAG<status>` a command printed, and read the status.
fn exit_status(term: &Term, tag: &str) -> u32 {
    let find = |s: &str| {
        s.lines()
            .find_map(|l| l.trim_end().strip_prefix(tag)?.parse::<u32>().ok())
    };
    let screen = term.wait_for(tag, |s| find(s).is_some());
    find(&screen).expect("a status")
}

fn status_line(screen: &str) -> &str {
    screen.lines().next().unwrap_or_default()
}

#[test]
fn a_class_connects_with_stock_ssh_follows_the_teacher_and_gets_its_terminal_back() {
    let Some(tmux) = Tmux::start("serve-class") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-class");
    // Wide enough that the host key line, with the folder's path in it,
    // is not wrapped in the middle of the fingerprint under a long TMPDIR.
    let server = tmux.open("server", 220, 20);
    // Two students' seats, and the teacher's kept besides.
    let served = serve(&server, &dir, "--max-sessions 2 --max-per-address 10");
    let port = served.port;
    fingerprint_is_ssh_keygens(&server, &dir);
    let ann = ann_explores_on_her_own(&tmux, port);
    let ben = tmux.open("ben", 72, 22);
    ben.command(&ssh(port, "ben@127.0.0.1"));
    ben.wait_for("ben's explorer", |s| status_line(s).contains("merge 0/"));
    let teacher = teacher_logs_in_at_the_second_try(&tmux, &served);
    the_class_follows_the_teacher(&teacher, &ann, &ben);
    ben_explores_on_his_own_then_rejoins(&ben);
    a_third_student_finds_the_class_full(&tmux, port);
    // Ann quits: her shell and its screen are back, and typing works.
    ann.keys(&["q"]);
    ann.wait_for("ann's shell", |s| {
        s.contains("ann-was-here") && !s.contains("Merges")
    });
    ann.command("echo typed-$((6 * 7))");
    ann.wait_for_line("typed-42");
    ctrl_c_stops_the_server_and_gives_terminals_back(
        &server,
        &[("ben", &ben), ("teacher", &teacher)],
    );
}

/// A Unigram class over stock ssh: the teacher logs in with the password,
/// steps and goes to a step; a student follows, then quits to a working
/// shell.
#[test]
fn a_unigram_class_over_stock_ssh_follows_the_teachers_steps() {
    let Some(tmux) = Tmux::start("serve-unigram") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-unigram");
    let server = tmux.open("server", 220, 20);
    let served = serve_with(
        &server,
        &dir,
        "--corpus-name low --mode char --model unigram --vocab-size 8",
    );
    let ann = tmux.open("ann", 80, 24);
    ann.command(&format!(
        "{}; echo ann-was-here",
        ssh(served.port, "ann@127.0.0.1")
    ));
    ann.wait_for("ann's explorer", |s| status_line(s).contains("step 0"));
    let teacher = tmux.open("teacher", 100, 30);
    teacher.command(&ssh(served.port, "teacher@127.0.0.1"));
    teacher.wait_for("the password prompt", |s| s.contains("password:"));
    teacher.answer(&served.token);
    teacher.wait_for("the teacher's explorer", |s| {
        status_line(s).contains("step 0") && s.contains("Pieces")
    });
    teacher.keys(&["n", "n"]);
    teacher.wait_for("step 2", |s| status_line(s).contains("step 2"));
    ann.wait_for("ann at step 2", |s| {
        status_line(s).contains("step 2") && status_line(s).contains("following the teacher")
    });
    teacher.keys(&["g", "4", "Enter"]);
    teacher.wait_for("step 4", |s| status_line(s).contains("step 4"));
    let screen = ann.wait_for("ann at step 4, after the prune", |s| {
        status_line(s).contains("step 4") && status_line(s).contains("pruned")
    });
    assert!(screen.contains("Removed"), "{screen}");
    ann.keys(&["q"]);
    ann.wait_for("ann's shell", |s| {
        s.contains("ann-was-here") && !s.contains("Pieces")
    });
    ann.command("echo typed-$((6 * 7))");
    ann.wait_for_line("typed-42");
    ctrl_c_stops_the_server_and_gives_terminals_back(&server, &[("teacher", &teacher)]);
}

/// The fingerprint printed is the one ssh-keygen prints.
fn fingerprint_is_ssh_keygens(server: &Term, dir: &TempDir) {
    let keygen = Command::new("ssh-keygen")
        .arg("-l")
        .arg("-f")
        .arg(dir.path().join("host_key"))
        .output()
        .unwrap();
    let keygen = String::from_utf8_lossy(&keygen.stdout).trim().to_string();
    assert!(keygen.starts_with("256 SHA256:"), "{keygen}");
    assert!(
        server.screen().contains(&keygen),
        "ssh-keygen -l says {keygen}:\n{}",
        server.screen()
    );
}

/// Ann connects, sees the explorer, takes a merge and shows her tokens
/// parted and side by side again.
fn ann_explores_on_her_own(tmux: &Tmux, port: u16) -> Term<'_> {
    let ann = tmux.open("ann", 100, 30);
    ann.command("echo ann-was-here");
    ann.command(&ssh(port, "127.0.0.1"));
    let screen = ann.wait_for("ann's explorer", |s| s.contains("Merges 0"));
    for pane in ["Corpus: play", "Pairs", "Merges 0", "Encode"] {
        assert!(screen.contains(pane), "{pane}:\n{screen}");
    }
    ann.keys(&["n"]);
    ann.wait_for("merge 1 on her own", |s| s.contains("Merges 1"));
    // How she looks at the corpus is hers, and shows at once.
    let parted = |s: &str| {
        s.lines().any(|l| {
            let c: Vec<char> = l.chars().collect();
            c.windows(3)
                .any(|w| w[0].is_alphabetic() && w[1] == '│' && w[2].is_alphabetic())
        })
    };
    ann.keys(&["b"]);
    ann.wait_for("separators between her tokens", parted);
    ann.keys(&["b"]);
    ann.wait_for("her tokens side by side again", |s| !parted(s));
    ann
}

/// The teacher mistypes the password, is asked again on the same
/// connection, is waited for while slow to type, and gets in.
fn teacher_logs_in_at_the_second_try<'a>(tmux: &'a Tmux, served: &Served) -> Term<'a> {
    let teacher = tmux.open("teacher", 110, 32);
    teacher.command(&ssh(served.port, "teacher@127.0.0.1"));
    teacher.wait_for("the password prompt", |s| s.contains("password:"));
    // A mistyped password is asked again on the same connection, and a
    // person slow to type the next one is waited for.
    teacher.answer("not-the-password");
    teacher.wait_for("the second password prompt", |s| {
        s.matches("password:").count() == 2
    });
    std::thread::sleep(std::time::Duration::from_secs(2));
    teacher.answer(&served.token);
    teacher.wait_for("the teacher's explorer", |s| {
        status_line(s).contains("teacher, 2 students, 2 follow")
    });
    teacher
}

/// Three merges of the teacher's reach both students, who keep their size.
fn the_class_follows_the_teacher(teacher: &Term, ann: &Term, ben: &Term) {
    teacher.keys(&["n", "n", "n"]);
    teacher.wait_for("merge 3", |s| status_line(s).contains("merge 3/"));
    for (name, term) in [("ann", ann), ("ben", ben)] {
        let screen = term.wait_for(name, |s| {
            status_line(s).contains("merge 3/") && status_line(s).contains("following the teacher")
        });
        assert!(screen.contains("Merges 3"), "{name}:\n{screen}");
    }
    assert_eq!(ben.screen().lines().count(), 22, "ben keeps his size");
}

/// Ben explores on his own, then rejoins.
fn ben_explores_on_his_own_then_rejoins(ben: &Term) {
    ben.keys(&["n"]);
    ben.wait_for("the question", |s| s.contains("explore on your own? y"));
    ben.keys(&["y"]);
    ben.wait_for("ben alone at merge 4", |s| {
        status_line(s).contains("merge 4/") && status_line(s).contains("on your own")
    });
    ben.keys(&["n"]);
    ben.wait_for("merge 5", |s| status_line(s).contains("merge 5/"));
    ben.keys(&["F"]);
    ben.wait_for("ben back at merge 3", |s| {
        status_line(s).contains("merge 3/") && status_line(s).contains("following the teacher")
    });
}

/// A third student finds the class full.
fn a_third_student_finds_the_class_full(tmux: &Tmux, port: u16) {
    let late = tmux.open("late", 80, 24);
    late.command(&format!("{}; echo exit-$?", ssh(port, "127.0.0.1")));
    late.wait_for("the refusal", |s| {
        s.contains("bpeek: the class is full (2 sessions); try again later")
    });
    late.wait_for_line("exit-1");
}

/// Ctrl-C on the server: goodbye, terminals restored, exit 0.
fn ctrl_c_stops_the_server_and_gives_terminals_back(server: &Term, clients: &[(&str, &Term)]) {
    server.keys(&["C-c"]);
    server.wait_for("the server to stop", |s| s.contains(" stopped"));
    server.command("echo server-exit-$?");
    server.wait_for_line("server-exit-0");
    for (name, term) in clients {
        let screen = term.wait_for(name, |s| {
            s.contains("bpeek: the server is stopping; goodbye") && !s.contains("Merges")
        });
        assert!(!screen.contains("Merges"), "{screen}");
        term.command(&format!("echo {name}-typed-$((6 * 7))"));
        term.wait_for_line(&format!("{name}-typed-42"));
    }
}

#[test]
fn commands_sftp_forwarding_and_ssh_t_are_refused() {
    let Some(tmux) = Tmux::start("serve-refuse") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-refuse");
    let server = tmux.open("server", 120, 20);
    let port = serve(&server, &dir, "").port;
    let shell = tmux.open("shell", 150, 30);

    shell.command(&format!("{} ls; echo exec-exit-$?", ssh(port, "127.0.0.1")));
    shell.wait_for_line("exec-exit-1");
    assert!(
        shell.screen().contains("bpeek serve runs no commands"),
        "{}",
        shell.screen()
    );

    shell.clear();
    shell.command(&format!("{} -T 127.0.0.1; echo t-exit-$?", ssh(port, "")));
    shell.wait_for_line("t-exit-1");
    assert!(
        shell.screen().contains("(without -T)"),
        "{}",
        shell.screen()
    );

    shell.clear();
    shell.command(&format!(
        "sftp -P {port} {SSH_OPTIONS} -b /dev/null 127.0.0.1; echo sftp-exit-$?"
    ));
    let status = exit_status(&shell, "sftp-exit-");
    assert_ne!(status, 0, "{}", shell.screen());

    // -W asks the server to connect onward, as -L does for each connection.
    shell.clear();
    shell.command(&format!(
        "{} -W 127.0.0.1:{port} 127.0.0.1 </dev/null >{}/forwarded; echo w-exit-$?",
        ssh(port, ""),
        dir.path().display()
    ));
    let status = exit_status(&shell, "w-exit-");
    assert_ne!(status, 0, "{}", shell.screen());
    let forwarded = dir.read("forwarded");
    assert!(forwarded.is_empty(), "nothing came through: {forwarded:?}");

    // -L: the local end listens, but the server opens nothing onward.
    let local = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let tunnel = tmux.open("tunnel", 150, 20);
    tunnel.command(&format!(
        "ssh -p {port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
         -N -L 127.0.0.1:{local}:127.0.0.1:{port} 127.0.0.1"
    ));
    shell.clear();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", local)).is_err() {
        assert!(Instant::now() < deadline, "the tunnel never listened");
        sleep(Duration::from_millis(50));
    }
    shell.command(&format!("{}; echo l-exit-$?", ssh(local, "127.0.0.1")));
    shell.wait_for_line("l-exit-255");
    let screen = tunnel.wait_for("the refusal", |s| s.contains("open failed"));
    assert!(screen.contains("administratively prohibited"), "{screen}");
    tunnel.keys(&["C-c"]);
}

/// The server's threads and resident memory (kB), from /proc.
fn threads_and_rss(pid: u32) -> (usize, usize) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| -> usize {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/{pid}/status"))
    };
    (field("Threads:"), field("VmRSS:"))
}

/// How many of the server's threads are sessions' (named
/// `bpeek-session-N`, and threads they start, which take their name): a
/// session logs its disconnect just before its thread ends.
fn session_threads(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|t| {
            std::fs::read_to_string(t.path().join("comm"))
                .is_ok_and(|name| name.starts_with("bpeek-session"))
        })
        .count()
}

fn count_in(log: &str, what: &str) -> usize {
    log.lines().filter(|l| l.contains(what)).count()
}

#[test]
fn a_hundred_clients_killed_mid_session_leave_the_server_as_it_was() {
    let Some(tmux) = Tmux::start("serve-kill") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-kill");
    let server = tmux.open("server", 120, 20);
    let log = dir.path().join("log");
    let port = serve(
        &server,
        &dir,
        &format!(
            "--rate-per-address 1000 --max-startups-per-address 10 --log {}",
            log.display()
        ),
    )
    .port;
    let pid = server.child_pid();
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
    let wait_log = |what: &str, n: usize| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while count_in(&read_log(), what) < n {
            assert!(
                Instant::now() < deadline,
                "waited for {n} x {what}:\n{}",
                read_log()
            );
            sleep(Duration::from_millis(20));
        }
    };

    // One session first, so the baseline includes what any session loads.
    let spawn = || -> Child {
        Command::new("ssh")
            .args(["-tt", "-p", &port.to_string()])
            .args(SSH_OPTIONS.split(' '))
            .arg("127.0.0.1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh starts")
    };
    let mut first = spawn();
    wait_log(" connect 127.0.0.1", 1);
    first.kill().unwrap();
    first.wait().unwrap();
    wait_log("disconnect 127.0.0.1", 1);
    wait::wait_until("the first session's thread to end", || {
        session_threads(pid) == 0
    });
    let before = threads_and_rss(pid);

    for batch in 0..10 {
        let mut clients: Vec<Child> = (0..10).map(|_| spawn()).collect();
        // "connect" is also in each "disconnect" line: count the starts.
        wait_log(" connect 127.0.0.1", 1 + 10 * (batch + 1));
        for c in &mut clients {
            c.kill().unwrap();
            c.wait().unwrap();
        }
        wait_log("disconnect 127.0.0.1", 1 + 10 * (batch + 1));
    }
    wait::wait_until("the 100 sessions' threads to end", || {
        session_threads(pid) == 0
    });
    let after = threads_and_rss(pid);
    eprintln!("server threads and RSS (kB): before {before:?}, after 100 killed clients {after:?}");
    assert_eq!(
        after.0, before.0,
        "threads before and after (before, after RSS: {before:?} {after:?})"
    );
    assert!(
        after.1 < before.1 + 30 * 1024,
        "resident memory before {} kB, after {} kB",
        before.1,
        after.1
    );

    // Still answering.
    let student = tmux.open("student", 90, 26);
    student.command(&ssh(port, "127.0.0.1"));
    student.wait_for("an explorer", |s| s.contains("Merges 0"));
    student.keys(&["q"]);
    student.wait_for("the shell", |s| !s.contains("Merges"));
    let log = read_log();
    assert_eq!(count_in(&log, "client gone"), 101, "{log}");
}

#[test]
fn the_teacher_leads_from_the_serving_terminal_and_teacher_keys_log_in() {
    let Some(tmux) = Tmux::start("serve-lead") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-lead");
    let key = dir.path().join("teacher");
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", ""])
        .arg("-f")
        .arg(&key)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::copy(key.with_extension("pub"), dir.path().join("authorized")).unwrap();
    // A port that was free a moment ago (the leading terminal hides the
    // start-up lines, so the test picks it).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();

    let lead = tmux.open("lead", 110, 30);
    lead.command(&format!(
        "{} serve --lead --corpus-name play --pretok whitespace --listen 127.0.0.1:{port} \
         --host-key {d}/host_key --teacher-keys {d}/authorized --log {d}/log; echo lead-exit-$?",
        env!("CARGO_BIN_EXE_bpeek"),
        d = dir.path().display()
    ));
    lead.wait_for("the teacher's explorer", |s| {
        status_line(s).contains("teacher, 0 students, 0 follow")
    });

    let student = tmux.open("student", 90, 26);
    student.command(&ssh(port, "127.0.0.1"));
    student.wait_for("the student's explorer", |s| s.contains("Merges 0"));
    lead.wait_for("the count", |s| {
        status_line(s).contains("1 student, 1 follow")
    });
    lead.keys(&["n", "n"]);
    student.wait_for("merge 2", |s| status_line(s).contains("merge 2/"));

    // Suspending the server would freeze the class: Ctrl-Z only says so.
    lead.keys(&["C-z"]);
    lead.wait_for("the notice", |s| {
        s.contains("Ctrl-Z would stop the server for the whole class")
    });
    lead.keys(&["n"]);
    student.wait_for("merge 3", |s| status_line(s).contains("merge 3/"));

    // A teacher key is accepted, and one class has one teacher: the one at
    // the server's terminal, which no login takes over.
    let other = tmux.open("other", 100, 24);
    other.command(&format!(
        "{} teacher@127.0.0.1; echo other-exit-$?",
        ssh(port, &format!("-i {}", key.display()))
    ));
    other.wait_for("the answer", |s| {
        s.contains("bpeek: the teacher leads from the server's own terminal")
    });
    other.wait_for_line("other-exit-1");
    other.clear();
    other.command(&format!(
        "{} -o PreferredAuthentications=password -o NumberOfPasswordPrompts=1 \
         teacher@127.0.0.1; echo pw-exit-$?",
        ssh(port, "")
    ));
    // With teacher keys there is no password to guess.
    let screen = other.wait_for_line("pw-exit-255");
    assert!(screen.contains("Permission denied (publickey)"), "{screen}");

    // Quitting the leading explorer stops the server.
    lead.keys(&["q"]);
    let screen = lead.wait_for_line("lead-exit-0");
    assert!(screen.contains("you lead from this terminal"), "{screen}");
    student.wait_for("the goodbye", |s| {
        s.contains("bpeek: the server is stopping; goodbye") && !s.contains("Merges")
    });
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    assert!(log.contains(" connect 127.0.0.1:"), "{log}");
    assert!(log.contains("server stopping"), "{log}");
}

#[test]
fn the_teacher_asks_which_pair_wins_and_two_students_vote_over_ssh() {
    let Some(tmux) = Tmux::start("serve-vote") else {
        return;
    };
    if !ssh::have_openssh() {
        return;
    }
    let dir = TempDir::new("serve-vote");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let lead = tmux.open("lead", 100, 30);
    lead.command(&format!(
        "{} serve --lead --corpus-name play --pretok whitespace --listen 127.0.0.1:{port} \
         --host-key {d}/host_key --log {d}/log",
        env!("CARGO_BIN_EXE_bpeek"),
        d = dir.path().display()
    ));
    lead.wait_for("the teacher's explorer", |s| {
        status_line(s).contains("teacher, 0 students")
    });
    let (a, b) = (tmux.open("a", 80, 24), tmux.open("b", 80, 24));
    a.command(&ssh(port, "ann@127.0.0.1"));
    b.command(&ssh(port, "bob@127.0.0.1"));
    lead.wait_for("two followers", |s| {
        status_line(s).contains("2 students, 2 follow")
    });

    lead.keys(&["Q"]);
    for s in [&a, &b] {
        s.wait_for("the ballot", |s| {
            s.contains("Which pair wins?") && !s.contains('►')
        });
    }
    // On the play corpus, p + l wins its three-way tie by the "first" rule;
    // the ballot lists pairs by their text, so p + l is further down.
    a.wait_for("the ballot rows", |s| s.contains("│  p   "));
    let rows = a.screen();
    let ballot: Vec<&str> = rows
        .lines()
        .filter_map(|l| l.split('│').nth(3))
        .skip_while(|l| !l.contains("left"))
        .skip(1)
        .collect();
    let p_l = ballot
        .iter()
        .position(|r| r.split_whitespace().take(2).eq(["p", "l"]))
        .unwrap_or_else(|| panic!("p l on the ballot:\n{rows}"));
    for _ in 0..p_l {
        a.keys(&["Down"]);
    }
    a.keys(&["Enter"]);
    b.keys(&["Enter"]);
    lead.wait_for("two votes", |s| {
        status_line(s).contains("question: 2 voted")
    });
    lead.keys(&["Q"]);
    lead.wait_for("the tally", |s| s.contains("votes") && s.contains('►'));

    lead.keys(&["."]);
    lead.wait_for("the result", |s| {
        s.contains("the class: 2 voted, 1 right; p + l wins")
    });
    a.wait_for("ann was right", |s| {
        s.contains("p + l wins: you were right")
    });
    b.wait_for("bob was not", |s| {
        s.contains("you voted") && s.contains("p + l wins")
    });
    lead.keys(&["q"]);
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    assert!(
        log.contains("question at merge 0: 2 voted, 1 right (winner p + l)"),
        "{log}"
    );
}
