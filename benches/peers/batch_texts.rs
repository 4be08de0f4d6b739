//! The six kinds of text the batch comparison encodes, each made from this
//! machine's own files (or generated), about 2 MB of lines: C headers,
//! Python sources, the gettext catalogs' translated strings, a JSON log,
//! man pages in other languages and long digit strings.

use super::python_peers::GETTEXT;
use std::path::Path;
use std::process::Command;

/// What `script` (run by `sh`) prints, up to `limit` bytes, as UTF-8 (bytes
/// that are not are replaced).
fn shell(script: &str, limit: usize) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {script} ; }} 2>/dev/null | head -c {limit}"))
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    String::from_utf8_lossy(&out).into_owned()
}

/// The machine's C headers, in a fixed order.
fn c_headers(limit: usize) -> String {
    shell(
        "find /usr/include -name '*.h' -type f | sort | xargs cat",
        limit,
    )
}

/// The Python standard library's sources, in a fixed order.
fn python_sources(limit: usize) -> String {
    shell(
        "find $(python3 -c 'import sysconfig; print(sysconfig.get_paths()[\"stdlib\"])') \
         -name '*.py' -type f -not -path '*/site-packages/*' | sort | xargs cat",
        limit,
    )
}

/// The translated strings of the machine's gettext catalogs, one after
/// another (a string may hold line breaks of its own).
fn ui_strings(dir: &Path, limit: usize) -> String {
    let file = dir.join("gettext.txt");
    let _ = Command::new("python3")
        .arg(GETTEXT)
        .arg(&file)
        .arg(limit.to_string())
        .status();
    std::fs::read_to_string(&file).unwrap_or_default()
}

/// Man pages in every other language the machine has, an equal share of
/// each, so that no one language fills the text.
fn foreign_man_pages(limit: usize) -> String {
    let share = limit / 8;
    shell(
        &format!(
            "for d in $(ls -d /usr/share/man/??/ /usr/share/man/??_??/ | sort); do \
             zcat \"$d\"man*/*.gz | head -c {share}; done"
        ),
        limit,
    )
}

/// A small generator of numbers that is the same on every machine.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A service's log as JSON lines: times, levels, paths, ids, durations and
/// messages.
fn json_log(limit: usize) -> String {
    const LEVELS: [&str; 4] = ["debug", "info", "warn", "error"];
    const PATHS: [&str; 6] = [
        "/api/v1/users",
        "/api/v1/orders/search",
        "/healthz",
        "/static/app.js",
        "/api/v2/items/batch",
        "/login",
    ];
    const MESSAGES: [&str; 5] = [
        "request served",
        "cache miss, fetched from upstream",
        "slow query: SELECT * FROM orders WHERE id = ?",
        "connection reset by peer",
        "user \\\"anna\\\" signed in from 10.0.3.7",
    ];
    let mut r = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(limit + 300);
    while out.len() < limit {
        let (s, ms) = (r.below(86_400), r.below(1000));
        out.push_str(&format!(
            "{{\"ts\":\"2026-12-07T{:02}:{:02}:{:02}.{ms:03}Z\",\"level\":\"{}\",\"method\":\"{}\",\"path\":\"{}\",\"status\":{},\"duration_ms\":{}.{},\"request_id\":\"{:016x}\",\"msg\":\"{}\"}}\n",
            s / 3600,
            s / 60 % 60,
            s % 60,
            LEVELS[r.below(4) as usize],
            ["GET", "POST", "PUT"][r.below(3) as usize],
            PATHS[r.below(6) as usize],
            [200, 200, 200, 201, 304, 404, 500][r.below(7) as usize],
            r.below(5000),
            r.below(100),
            r.next(),
            MESSAGES[r.below(5) as usize],
        ));
    }
    out
}

/// Lines of long numbers: one to eight of 1 to 64 digits, with the
/// separators numbers come with.
fn long_digits(limit: usize) -> String {
    let mut r = Xorshift(0x2545_F491_4F6C_DD1D);
    let mut out = String::with_capacity(limit + 600);
    while out.len() < limit {
        for k in 0..=r.below(8) {
            if k > 0 {
                out.push_str([" ", ", ", "; ", " - ", "/", "."][r.below(6) as usize]);
            }
            for _ in 0..=r.below(64) {
                out.push((b'0' + r.below(10) as u8) as char);
            }
        }
        out.push('\n');
    }
    out
}

/// The six texts, labelled, each about `limit` bytes; a kind this machine
/// has too little of is left out with a note.
pub fn texts(dir: &Path, limit: usize) -> Vec<(String, String)> {
    let made = [
        ("C headers", c_headers(limit)),
        ("Python sources", python_sources(limit)),
        ("UI strings (gettext)", ui_strings(dir, limit)),
        ("JSON log", json_log(limit)),
        ("man pages, other languages", foreign_man_pages(limit)),
        ("long digit strings", long_digits(limit)),
    ];
    let mut out = Vec::new();
    for (name, text) in made {
        if text.len() < limit / 4 {
            println!(
                "{name}: too little on this machine ({} bytes), left out.\n",
                text.len()
            );
            continue;
        }
        let lines = text.lines().count();
        out.push((
            format!("{name}, {:.1} MB, {lines} lines", text.len() as f64 / 1e6),
            text,
        ));
    }
    out
}
