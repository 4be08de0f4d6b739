//! The server and SSH clients in one test process over 127.0.0.1: what a
//! session is offered, what it is refused, and a class following its
//! teacher.

mod ssh;

use ssh::{Class, Conn, Term, runtime};

fn shows(text: &'static str) -> impl Fn(&Term) -> bool {
    move |t: &Term| t.screen().contains(text)
}

#[test]
fn a_student_steps_resizes_and_quits_with_status_0() {
    let class = Class::start("student", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "alice", None).await.unwrap();
        let mut term = conn.terminal(100, 30).await;
        term.wait_for("the explorer", shows("Merges 0")).await;
        assert!(term.vt.screen().alternate_screen());
        assert!(
            term.status_line().contains("no teacher yet, 1 student"),
            "{}",
            term.screen()
        );

        term.send(b"n").await;
        term.wait_for("merge 1", shows("Merges 1")).await;
        assert!(term.screen().contains("p + l → pl"), "{}", term.screen());

        // Side by side at 100 columns, stacked at 60.
        let side_by_side = |t: &Term| {
            t.screen()
                .lines()
                .any(|l| l.contains("Corpus: play") && l.contains("Pairs"))
        };
        assert!(side_by_side(&term), "{}", term.screen());
        term.resize(60, 24).await;
        term.wait_for("the narrow layout", move |t| {
            !side_by_side(t) && t.screen().lines().any(|l| l.starts_with("┌ Pairs"))
        })
        .await;

        term.send(b"q").await;
        term.wait_closed().await;
        assert_eq!(term.exit_status, Some(0));
        assert!(
            !term.vt.screen().alternate_screen(),
            "the alternate screen is left"
        );
        assert!(!term.vt.screen().hide_cursor(), "the cursor is shown");
        assert!(
            !term.vt.screen().bracketed_paste(),
            "bracketed paste is off"
        );
    });
    let log = class.wait_for_log("s quit");
    assert!(log.contains("connect 127.0.0.1:"), "{log}");
    assert!(log.contains("disconnect 127.0.0.1:"), "{log}");
    assert!(log.contains("student 100x30 xterm-256color"), "{log}");
}

#[test]
fn commands_subsystems_forwarding_and_sessions_without_a_pty_are_refused() {
    let class = Class::start("refused", &[]);
    runtime().block_on(async {
        // OpenSSH opens one channel per connection, and so does each case.
        let login = || Conn::login(class.port(), "bob", None);
        let conn = login().await.unwrap();
        let exec = conn.channel().await;
        exec.exec(true, "ls").await.unwrap();
        let mut exec = Term::new(exec, 80, 24);
        exec.wait_closed().await;
        assert!(exec.raw.contains("runs no commands"), "{}", exec.raw);
        assert_eq!(exec.exit_status, Some(1));

        let conn = login().await.unwrap();
        let sftp = conn.channel().await;
        sftp.request_subsystem(true, "sftp").await.unwrap();
        let mut sftp = Term::new(sftp, 80, 24);
        sftp.wait_closed().await;
        assert!(sftp.raw.is_empty(), "{}", sftp.raw);

        let conn = login().await.unwrap();
        let no_pty = conn.channel().await;
        no_pty.request_shell(true).await.unwrap();
        let mut no_pty = Term::new(no_pty, 80, 24);
        no_pty.wait_closed().await;
        assert!(no_pty.raw.contains("in a terminal"), "{}", no_pty.raw);
        assert!(no_pty.raw.contains("without -T"), "{}", no_pty.raw);
        assert_eq!(no_pty.exit_status, Some(1));

        let conn = login().await.unwrap();
        let forward = conn
            .handle
            .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await;
        assert!(forward.is_err(), "port forwarding is refused");

        let teacher = Conn::login(class.port(), "teacher", None).await;
        assert!(teacher.is_err(), "the teacher needs a key or the token");
        let wrong = Conn::login(class.port(), "teacher", Some("not-the-token")).await;
        assert!(wrong.is_err(), "a wrong token is refused");
    });
}

#[test]
fn followers_see_the_teachers_merge_at_their_own_size_and_can_leave_and_rejoin() {
    let class = Class::start("follow", &[]);
    let token = class.token();
    runtime().block_on(async {
        let a = Conn::login(class.port(), "ann", None).await.unwrap();
        let mut ann = a.terminal(100, 30).await;
        ann.wait_for("ann's explorer", shows("Merges 0")).await;
        let b = Conn::login(class.port(), "ben", None).await.unwrap();
        let mut ben = b.terminal(70, 22).await;
        ben.wait_for("ben's explorer", shows("merge 0/")).await;

        let t = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut teacher = t.terminal(120, 40).await;
        teacher
            .wait_for("the teacher's count", |t| {
                t.status_line().contains("teacher, 2 students, 2 follow")
            })
            .await;
        teacher.send(b"nnn").await;
        teacher.wait_for("merge 3", shows("merge 3/")).await;
        for (name, term) in [("ann", &mut ann), ("ben", &mut ben)] {
            term.wait_for(name, |t| {
                t.status_line().contains("merge 3/")
                    && t.status_line().contains("following the teacher")
            })
            .await;
        }
        assert_eq!(ben.screen().lines().count(), 22);

        // Ben asks to step alone, says yes, steps, and rejoins.
        ben.send(b"n").await;
        ben.wait_for("the question", shows("explore on your own? y"))
            .await;
        ben.send(b"y").await;
        ben.wait_for("ben on his own at merge 4", |t| {
            t.status_line().contains("merge 4/") && t.status_line().contains("on your own")
        })
        .await;
        teacher
            .wait_for("one follower left", |t| {
                t.status_line().contains("2 students, 1 follow")
            })
            .await;
        ben.send(b"nn").await;
        ben.wait_for("merge 6", |t| t.status_line().contains("merge 6/"))
            .await;
        teacher.send(b"p").await;
        ann.wait_for("ann follows the undo", |t| {
            t.status_line().contains("merge 2/")
        })
        .await;
        ben.send(b"F").await;
        ben.wait_for("ben back with the teacher", |t| {
            t.status_line().contains("merge 2/")
                && t.status_line().contains("following the teacher")
        })
        .await;

        // A student who answers no stays with the teacher.
        ann.send(b"n").await;
        ann.wait_for("the question", shows("explore on your own? y"))
            .await;
        ann.send(b"x").await;
        ann.wait_for("still following", shows("still following the teacher"))
            .await;
        assert!(ann.status_line().contains("merge 2/"), "{}", ann.screen());

        // A late joiner starts where the teacher is.
        let c = Conn::login(class.port(), "cid", None).await.unwrap();
        let mut cid = c.terminal(80, 24).await;
        cid.wait_for("cid at merge 2", |t| t.status_line().contains("merge 2/"))
            .await;

        // Phases and corpora are followed too.
        teacher.send(b".").await;
        for (name, term) in [("ann", &mut ann), ("cid", &mut cid)] {
            term.wait_for(name, |t| {
                t.status_line().contains("merge 2/") && t.status_line().contains("chosen")
            })
            .await;
        }
        teacher.send(b"c").await;
        teacher
            .wait_for("another corpus", |t| !t.screen().contains("Corpus: play"))
            .await;
        let screen = teacher.screen();
        let corpus = screen
            .split("Corpus: ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .expect("a corpus title")
            .to_string();
        ann.wait_for("ann on the teacher's corpus", |t| {
            t.screen().contains(&format!("Corpus: {corpus} "))
        })
        .await;
    });
}

#[test]
fn a_full_class_is_told_so_and_the_server_stopping_restores_every_terminal() {
    let mut class = Class::start("full", &["--max-sessions", "2"]);
    let rt = runtime();
    let (mut ta, mut tb, _a, _b) = rt.block_on(async {
        let a = Conn::login(class.port(), "a", None).await.unwrap();
        let mut ta = a.terminal(80, 24).await;
        ta.wait_for("a's explorer", shows("merge 0/")).await;
        let b = Conn::login(class.port(), "b", None).await.unwrap();
        let mut tb = b.terminal(80, 24).await;
        tb.wait_for("b's explorer", shows("merge 0/")).await;

        let c = Conn::login(class.port(), "c", None).await.unwrap();
        let mut tc = c.terminal(80, 24).await;
        tc.wait_closed().await;
        assert!(
            tc.raw.contains("the class is full (2 sessions)"),
            "{}",
            tc.raw
        );
        assert_eq!(tc.exit_status, Some(1));
        (ta, tb, a, b)
    });
    class.stop();
    rt.block_on(async {
        for t in [&mut ta, &mut tb] {
            t.wait_closed().await;
            assert!(
                t.raw.contains("the server is stopping; goodbye"),
                "{}",
                t.raw
            );
            assert!(!t.vt.screen().alternate_screen());
            assert!(!t.vt.screen().hide_cursor());
        }
    });
    let log = class.log.text();
    assert!(log.contains("the class is full"), "{log}");
    assert!(log.contains("server stopping"), "{log}");
}

#[test]
fn a_session_with_no_keystrokes_for_the_idle_timeout_is_closed() {
    let class = Class::start("idle", &["--idle-timeout", "1s"]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "dozy", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("merge 0/")).await;
        term.wait_closed().await;
        assert!(term.raw.contains("no key pressed for 1 s"), "{}", term.raw);
        assert!(!term.vt.screen().alternate_screen());
    });
}

#[test]
fn a_panic_in_one_session_ends_that_session_only_and_is_logged() {
    // `--panic-key` stands in for a bug in the explorer.
    let class = Class::start("panic", &["--panic-key", "!"]);
    runtime().block_on(async {
        let a = Conn::login(class.port(), "ann", None).await.unwrap();
        let mut ann = a.terminal(80, 24).await;
        ann.wait_for("ann's explorer", shows("merge 0/")).await;
        let b = Conn::login(class.port(), "ben", None).await.unwrap();
        let mut ben = b.terminal(80, 24).await;
        ben.wait_for("ben's explorer", shows("merge 0/")).await;

        ann.send(b"!").await;
        ann.wait_closed().await;
        assert!(
            ann.raw.contains("ended on an internal error"),
            "{}",
            ann.raw
        );
        assert_eq!(ann.exit_status, Some(1));
        assert!(
            !ann.vt.screen().alternate_screen(),
            "ann's terminal is back"
        );
        assert!(!ann.vt.screen().hide_cursor());

        // Ben's explorer, and the server, go on.
        ben.send(b"n").await;
        ben.wait_for("ben at merge 1", |t| t.status_line().contains("merge 1/"))
            .await;
        let c = Conn::login(class.port(), "cid", None).await.unwrap();
        let mut cid = c.terminal(80, 24).await;
        cid.wait_for("a new student", shows("merge 0/")).await;
        assert!(cid.status_line().contains("2 students"), "{}", cid.screen());
    });
    let log = class.wait_for_log("panic:");
    assert!(log.contains("which --panic-key makes a panic"), "{log}");
}

#[test]
fn a_client_that_takes_no_output_is_closed_and_holds_up_no_one() {
    let class = Class::start("stall", &["--stall-timeout", "1s"]);
    runtime().block_on(async {
        // A client that never reads its channel: with a small window and a
        // one-message buffer it soon stops taking bytes, like a suspended ssh.
        let config = std::sync::Arc::new(russh::client::Config {
            window_size: 2048,
            channel_buffer_size: 1,
            ..Default::default()
        });
        let mut stuck = russh::client::connect(config, ("127.0.0.1", class.port()), ssh::TrustAll)
            .await
            .unwrap();
        assert!(stuck.authenticate_none("stuck").await.unwrap().success());
        let channel = stuck.channel_open_session().await.unwrap();
        channel
            .request_pty(false, "xterm", 120, 40, 0, 0, &[])
            .await
            .unwrap();
        channel.request_shell(false).await.unwrap();

        let b = Conn::login(class.port(), "ben", None).await.unwrap();
        let mut ben = b.terminal(80, 24).await;
        ben.wait_for("ben's explorer", shows("merge 0/")).await;
        // While the stuck session waits to write, ben is answered at once.
        ben.send(b"nn").await;
        ben.wait_for("ben at merge 2", |t| t.status_line().contains("merge 2/"))
            .await;
        class.wait_for_log("stalled output");
        ben.send(b"n").await;
        ben.wait_for("ben at merge 3", |t| t.status_line().contains("merge 3/"))
            .await;
        ben.wait_for("one student left", |t| {
            t.status_line().contains("1 student")
        })
        .await;
        drop(channel);
    });
}

#[test]
fn a_connection_that_does_not_log_in_in_time_is_closed() {
    let class = Class::start("slow-login", &["--login-timeout", "1s"]);
    // Not a byte of SSH.
    let mut silent = std::net::TcpStream::connect(("127.0.0.1", class.port())).unwrap();
    silent
        .set_read_timeout(Some(ssh::PATIENCE))
        .expect("a read timeout");
    let mut got = Vec::new();
    let read = std::io::Read::read_to_end(&mut silent, &mut got);
    assert!(read.is_ok(), "the server closes the connection: {read:?}");
    assert!(String::from_utf8_lossy(&got).starts_with("SSH-2.0-bpeek"));

    // A handshake, then no login.
    runtime().block_on(async {
        let config = std::sync::Arc::new(russh::client::Config::default());
        let handle = russh::client::connect(config, ("127.0.0.1", class.port()), ssh::TrustAll)
            .await
            .unwrap();
        let deadline = tokio::time::Instant::now() + ssh::PATIENCE;
        while !handle.is_closed() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the server keeps a connection that never logs in"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    });
    // Both are logged: the first in full, the second in the count of
    // repeats from the address.
    let log = class.wait_for_log("1 more closed without an explorer from 127.0.0.1");
    assert_eq!(log.matches("(no explorer within 1 s").count(), 1, "{log}");
}

#[test]
fn real_tokenizers_are_loaded_once_and_only_the_servers_own_can_be_loaded() {
    use bpeek::serve::shared::SharedTokenizers;
    use std::sync::Arc;
    let shared = Arc::new(SharedTokenizers::new(&[]));
    let loads: Vec<_> = (0..4)
        .map(|_| {
            let shared = shared.clone();
            std::thread::spawn(move || shared.get("gpt2"))
        })
        .collect();
    let got: Vec<_> = loads.into_iter().map(|t| t.join().unwrap()).collect();
    let first = got[0].outcome.as_ref().expect("gpt2 loads");
    for other in &got[1..] {
        let tok = other.outcome.as_ref().expect("gpt2 loads");
        assert!(Arc::ptr_eq(first, tok), "one copy for every session");
    }
    let refused = shared.get("/etc/passwd");
    assert_eq!(refused.outcome.unwrap_err(), "not offered by this server");
}

#[test]
fn three_wrong_teacher_passwords_close_the_connection() {
    let class = Class::start("guess", &[]);
    runtime().block_on(async {
        let config = std::sync::Arc::new(russh::client::Config::default());
        let mut handle = russh::client::connect(config, ("127.0.0.1", class.port()), ssh::TrustAll)
            .await
            .unwrap();
        // OpenSSH starts with `none`; that try does not count as a failure.
        let none = handle.authenticate_none("teacher").await.unwrap();
        assert!(!none.success());
        for guess in [
            "aaaa-aaaa-aaaa-aaaa",
            "bbbb-bbbb-bbbb-bbbb",
            "cccc-cccc-cccc-cccc",
        ] {
            let tried = handle.authenticate_password("teacher", guess).await;
            assert!(
                tried.is_ok_and(|r| !r.success()),
                "a wrong guess is refused"
            );
        }
        let fourth = handle
            .authenticate_password("teacher", &class.token())
            .await;
        assert!(
            !fourth.is_ok_and(|r| r.success()),
            "after three failures even the right token is too late"
        );
        assert!(handle.is_closed() || handle.channel_open_session().await.is_err());
    });
}

#[test]
fn bad_options_are_refused_before_the_port_opens() {
    use bpeek::cli::{Cli, Command};
    use bpeek::serve::log::Log;
    use clap::Parser;
    let refused = |extra: &[&str]| -> String {
        let mut argv = vec!["bpeek", "serve"];
        if !extra.contains(&"--listen") {
            argv.extend(["--listen", "127.0.0.1:9"]);
        }
        argv.extend_from_slice(extra);
        let Some(Command::Serve(args)) = Cli::parse_from(argv).command else {
            panic!("serve arguments");
        };
        match bpeek::serve::start(&args, Log::to(Box::new(std::io::sink()))) {
            Err(e) => {
                assert_eq!(e.exit_code(), 2, "{e}");
                e.to_string()
            }
            Ok(_) => panic!("{extra:?} was accepted"),
        }
    };
    assert!(refused(&["-"]).contains("not stdin"));
    assert!(refused(&["--listen", "localhost"]).contains("expected ADDRESS:PORT"));
    assert!(refused(&["--idle-timeout", "ten"]).contains("--idle-timeout ten"));
    assert!(refused(&["--idle-timeout", "5d"]).contains("unknown unit"));
    assert!(refused(&["--max-sessions", "0"]).contains("at least 1"));
    assert!(refused(&["--login-timeout", "soon"]).contains("--login-timeout soon"));
    assert!(refused(&["--stall-timeout", "1w"]).contains("unknown unit"));
    assert!(refused(&["--max-session-time", "1w"]).contains("--max-session-time 1w"));
    assert!(refused(&["--keepalive", "often"]).contains("--keepalive often"));
    assert!(refused(&["--max-startups", "10:30"]).contains("START:RATE:FULL"));
    assert!(refused(&["--max-startups", "50:30:10"]).contains("at most FULL"));
    assert!(refused(&["--max-startups-per-address", "0"]).contains("at least 1"));
    assert!(refused(&["--teacher-keys", "/no/such/file"]).contains("/no/such/file"));
    assert!(refused(&["--corpus-name", "nope"]).contains("nope"));
}

#[test]
fn a_student_on_the_linux_console_gets_ascii_and_one_on_xterm_box_drawing() {
    let class = Class::start("glyphs", &[]);
    runtime().block_on(async {
        let a = Conn::login(class.port(), "console", None).await.unwrap();
        let mut console = a.terminal_of("linux", 100, 30).await;
        console.wait_for("the explorer", shows("Merges 0")).await;
        let b = Conn::login(class.port(), "xterm", None).await.unwrap();
        let mut xterm = b.terminal(100, 30).await;
        xterm.wait_for("the explorer", shows("Merges 0")).await;
        for t in [&mut console, &mut xterm] {
            t.send(b"n").await;
            t.wait_for("merge 1", shows("Merges 1")).await;
        }
        let on_console = console.screen();
        assert!(on_console.is_ascii(), "{on_console}");
        assert!(on_console.contains("+-"), "{on_console}");
        let on_xterm = xterm.screen();
        assert!(
            on_xterm.contains('┌') && on_xterm.contains('│'),
            "{on_xterm}"
        );
    });
}

#[test]
fn a_teacher_over_ssh_sees_each_vote_as_it_comes() {
    let class = Class::start("votes-live", &[]);
    let token = class.token();
    runtime().block_on(async {
        let t = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut teacher = t.terminal(120, 40).await;
        teacher.wait_for("the teacher", shows("merge 0/")).await;
        let a = Conn::login(class.port(), "ann", None).await.unwrap();
        let mut ann = a.terminal(100, 30).await;
        let b = Conn::login(class.port(), "ben", None).await.unwrap();
        let mut ben = b.terminal(100, 30).await;
        teacher
            .wait_for("two followers", |t| {
                t.status_line().contains("2 students, 2 follow")
            })
            .await;
        teacher.send(b"Q").await;
        for s in [&mut ann, &mut ben] {
            s.wait_for("the ballot", shows("Which pair wins?")).await;
        }
        teacher
            .wait_for("no vote yet", |t| {
                t.status_line().contains("question: 0 voted")
            })
            .await;
        // The teacher presses nothing: each vote arrives by itself.
        ann.send(b"\r").await;
        teacher
            .wait_for("one vote", |t| {
                t.status_line().contains("question: 1 voted")
            })
            .await;
        ben.send(b"\r").await;
        teacher
            .wait_for("two votes", |t| {
                t.status_line().contains("question: 2 voted")
            })
            .await;
    });
}

#[test]
fn a_teacher_plays_a_lesson_and_the_class_follows_its_steps() {
    let class = Class::start_with("lesson", &["--lesson", "classic"]);
    let token = class.token();
    runtime().block_on(async {
        let t = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut teacher = t.terminal(100, 30).await;
        teacher.wait_for("the lesson", shows("lesson 0/8")).await;
        let a = Conn::login(class.port(), "ann", None).await.unwrap();
        let mut ann = a.terminal(80, 24).await;
        ann.wait_for("the lesson's corpus", shows("Corpus: low"))
            .await;
        // Two steps of the lesson: the second merges l + o.
        teacher.send(b" ").await;
        teacher.wait_for("step 1", shows("lesson 1/8")).await;
        teacher.send(b" ").await;
        teacher.wait_for("step 2", shows("lesson 2/8")).await;
        ann.wait_for("the class at merge 1", |t| {
            t.status_line().contains("merge 1/") && t.status_line().contains("following")
        })
        .await;
        // A student's Space is no lesson step of the class's.
        assert!(!ann.screen().contains("lesson 2/8"), "{}", ann.screen());
    });
}

#[test]
fn a_teacher_plays_a_unigram_lesson_and_the_class_follows_its_steps() {
    let dir = std::env::temp_dir().join(format!("bpeek-unigram-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lesson = dir.join("unigram.lesson");
    std::fs::write(
        &lesson,
        "corpus low\noptions --model unigram --mode char --vocab-size 8\n\
         step 1 \"EM: expected counts\"\nstep 4 \"after the first prune\"\n",
    )
    .unwrap();
    let class = Class::start_with("unigram-lesson", &["--lesson", lesson.to_str().unwrap()]);
    let token = class.token();
    runtime().block_on(async {
        let t = Conn::login(class.port(), "teacher", Some(&token))
            .await
            .unwrap();
        let mut teacher = t.terminal(100, 30).await;
        teacher.wait_for("the lesson", shows("lesson 0/2")).await;
        let a = Conn::login(class.port(), "ann", None).await.unwrap();
        let mut ann = a.terminal(80, 24).await;
        ann.wait_for("Unigram mode", |t| t.status_line().contains("step 0"))
            .await;
        teacher.send(b" ").await;
        teacher
            .wait_for("lesson step 1", shows("EM: expected counts"))
            .await;
        teacher.send(b" ").await;
        teacher
            .wait_for("lesson step 2", shows("after the first prune"))
            .await;
        ann.wait_for("the class at step 4", |t| {
            t.status_line().contains("step 4") && t.status_line().contains("pruned")
        })
        .await;
        // Back one lesson step: the class goes back to step 1 with it.
        teacher.send(b"\x1b[D").await;
        ann.wait_for("the class back at step 1", |t| {
            t.status_line().contains("step 1") && t.status_line().contains("EM 1/")
        })
        .await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lesson_with_options_of_its_own_on_the_command_line_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"))
        .args(["serve", "--lesson", "classic", "--corpus-name", "play"])
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("classic: a lesson names its corpus"),
        "{said}"
    );
}

/// Where `text` first shows on the screen, as SGR counts it (from 1).
fn sgr_place(term: &Term, text: &str) -> (usize, usize) {
    let screen = term.screen();
    for (y, row) in screen.lines().enumerate() {
        if let Some(byte) = row.find(text) {
            return (row[..byte].chars().count() + 1, y + 1);
        }
    }
    panic!("{text:?} is not on the screen:\n{screen}");
}

#[test]
fn a_students_clicks_arrive_as_sgr_reports_and_the_mouse_is_given_back() {
    use vt100::{MouseProtocolEncoding, MouseProtocolMode};
    let class = Class::start("mouse", &[]);
    runtime().block_on(async {
        let conn = Conn::login(class.port(), "alice", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("Merges 0")).await;
        let screen = term.vt.screen();
        assert_eq!(
            screen.mouse_protocol_mode(),
            MouseProtocolMode::PressRelease
        );
        assert_eq!(screen.mouse_protocol_encoding(), MouseProtocolEncoding::Sgr);

        term.send(b"nnnnnn").await;
        term.wait_for("six merges", shows("Merges 6")).await;
        let (x, y) = sgr_place(&term, "pla + y");
        term.send(format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").as_bytes())
            .await;
        term.wait_for("merge 2 selected", shows("play selected"))
            .await;

        // Reports no terminal sends, and a click off the screen, change
        // nothing and stop nothing: the next key still works.
        term.send(b"\x1b[<0;99999;1M\x1b[<;;M\x1b[M\x00\x00\x00\x1b[<0;0;0M")
            .await;
        term.send(b"\x1b[<0;500;500M\x1b[<1").await;
        term.send(b"23;45;").await;
        // A report cut short is dropped when the next sequence starts (a
        // click on the status line, which is no pane).
        term.send(b"6M\x1b[<0;1;").await;
        term.send(b"\x1b[<0;1;1Mn").await;
        term.wait_for("the next merge", shows("Merges 7")).await;
        assert!(term.screen().contains("play selected"), "{}", term.screen());

        term.send(b"q").await;
        term.wait_closed().await;
        assert_eq!(term.exit_status, Some(0));
        let screen = term.vt.screen();
        assert_eq!(screen.mouse_protocol_mode(), MouseProtocolMode::None);
        assert_eq!(
            screen.mouse_protocol_encoding(),
            MouseProtocolEncoding::Default
        );
    });
    let quiet = Class::start("no-mouse", &["--no-mouse"]);
    runtime().block_on(async {
        let conn = Conn::login(quiet.port(), "bob", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", shows("Merges 0")).await;
        assert_eq!(
            term.vt.screen().mouse_protocol_mode(),
            MouseProtocolMode::None
        );
        term.send(b"q").await;
        term.wait_closed().await;
    });
}
