//! The connection log: one line per connect and disconnect, on stderr or in
//! the `--log` file, each starting with the time in UTC.
//!
//! What a hostile client can repeat (refusals, failed logins, connections
//! that never open a shell) goes through [`Log::repeat`]: the first line of
//! a kind from one address is written, the rest of that [`REPEAT_WINDOW`]
//! only counted, and one line says how many there were.

use std::collections::HashMap;
use std::io::Write;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long repeats of one kind from one address are only counted.
pub const REPEAT_WINDOW: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct Log {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    repeats: Arc<Mutex<HashMap<(&'static str, IpAddr), Repeats>>>,
}

struct Repeats {
    since: Instant,
    more: u64,
}

impl Log {
    pub fn stderr() -> Log {
        Log::to(Box::new(std::io::stderr()))
    }

    pub fn to(out: Box<dyn Write + Send>) -> Log {
        Log {
            out: Arc::new(Mutex::new(out)),
            repeats: Arc::default(),
        }
    }

    /// Write `text` unless a line of this `kind` from `from` was written in
    /// the last [`REPEAT_WINDOW`]; then it is only counted.
    pub fn repeat(&self, kind: &'static str, from: IpAddr, text: &str) {
        let now = Instant::now();
        let mut summary = None;
        {
            let mut repeats = self.repeats.lock().unwrap_or_else(|e| e.into_inner());
            match repeats.get_mut(&(kind, from)) {
                Some(r) if now.duration_since(r.since) < REPEAT_WINDOW => {
                    r.more += 1;
                    return;
                }
                Some(r) => {
                    summary = summary_line(kind, from, r.more);
                    *r = Repeats {
                        since: now,
                        more: 0,
                    };
                }
                None => {
                    repeats.insert(
                        (kind, from),
                        Repeats {
                            since: now,
                            more: 0,
                        },
                    );
                }
            }
        }
        if let Some(s) = summary {
            self.line(&s);
        }
        self.line(text);
    }

    /// Write the counts of windows that are over (called every second or
    /// so, and when the server stops).
    pub fn flush_repeats(&self, all: bool) {
        let now = Instant::now();
        let mut lines = Vec::new();
        {
            let mut repeats = self.repeats.lock().unwrap_or_else(|e| e.into_inner());
            repeats.retain(|(kind, from), r| {
                if all || now.duration_since(r.since) >= REPEAT_WINDOW {
                    lines.extend(summary_line(kind, *from, r.more));
                    false
                } else {
                    true
                }
            });
        }
        for l in lines {
            self.line(&l);
        }
    }

    /// Write one line, stamped with the time.
    pub fn line(&self, text: &str) {
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{} {text}", utc_now());
            let _ = out.flush();
        }
    }
}

fn summary_line(kind: &str, from: IpAddr, more: u64) -> Option<String> {
    (more > 0).then(|| {
        format!(
            "… and {more} more {kind} from {from} in the last {} s",
            REPEAT_WINDOW.as_secs()
        )
    })
}

/// A name a client chose, safe to put in the log: escaped, and cut.
pub fn escaped(text: &str) -> String {
    let mut out: String = text.chars().take(64).flat_map(char::escape_debug).collect();
    if text.chars().count() > 64 {
        out.push('…');
    }
    format!("\"{out}\"")
}

/// `YYYY-MM-DDTHH:MM:SSZ` for now.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// `YYYY-MM-DDTHH:MM:SSZ` for a Unix time (the proleptic Gregorian calendar,
/// by days since 1970-01-01).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Civil date from a day count (the era/day-of-era method).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn unix_times_print_as_the_calendar_says() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc(4_107_542_399), "2100-02-28T23:59:59Z");
    }
}
