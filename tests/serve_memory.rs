//! What a class server keeps of a session's pastes, as the system counts
//! it (resident memory): a pasted megabyte costs a few times its size
//! while its session lives, and nothing once the session has closed. One
//! test in this binary, so that nothing else moves the figure.

mod ssh;

use ssh::{Class, Conn, Term, runtime};

/// This process's resident memory in MB.
fn resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb / 1024.0
}

/// A megabyte of words in several scripts, in a bracketed paste after `e`.
fn paste() -> Vec<u8> {
    let words = ["bakery", "token", "ünïcode", "日本語", "12345", "merge"];
    let mut text = Vec::new();
    let mut i = 0usize;
    while text.len() < (1 << 20) - 16 {
        text.extend_from_slice(words[i % words.len()].as_bytes());
        text.push(b' ');
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    [b"e\x1b[200~".as_slice(), &text, b"\x1b[201~"].concat()
}

#[test]
fn sessions_that_pasted_a_megabyte_give_their_memory_back_when_they_close() {
    let class = Class::start("memory", &[]);
    let before = runtime().block_on(async {
        // One session first, so that what every session shares is there.
        let conn = Conn::login(class.port(), "warm", None).await.unwrap();
        let mut term = conn.terminal(80, 24).await;
        term.wait_for("the explorer", |t: &Term| t.screen().contains("merge 0/"))
            .await;
        resident_mb()
    });
    let sessions = 4;
    let with_pastes = runtime().block_on(async {
        let mut open = Vec::new();
        for i in 0..sessions {
            let conn = Conn::login(class.port(), &format!("s{i}"), None)
                .await
                .unwrap();
            let mut term = conn.terminal(160, 40).await;
            term.wait_for("the explorer", |t: &Term| t.screen().contains("merge 0/"))
                .await;
            term.send(&paste()).await;
            // The box's title counts the tokens once the text is encoded.
            term.wait_for("the paste encoded", |t: &Term| {
                t.screen().contains("1048") && t.screen().contains("B/token")
            })
            .await;
            open.push((conn, term));
        }
        let during = resident_mb();
        drop(open);
        during
    });
    let log = class.wait_for_log("disconnect 127.0.0.1");
    let deadline = std::time::Instant::now() + ssh::PATIENCE;
    while class.log.text().matches("disconnect").count() < sessions + 1
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let after = resident_mb();
    let per_session = (with_pastes - before) / sessions as f64;
    assert!(
        per_session < 20.0,
        "a session with a pasted megabyte costs {per_session:.1} MB\n{log}"
    );
    assert!(
        after - before < 8.0,
        "{sessions} closed sessions left {:.1} MB resident ({before:.1} MB before, {with_pastes:.1} MB with them)",
        after - before
    );
}
