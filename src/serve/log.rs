//! The connection log: one line per connect and disconnect, on stderr or in
//! the `--log` file, each starting with the time in UTC.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone)]
pub struct Log {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Log {
    pub fn stderr() -> Log {
        Log::to(Box::new(std::io::stderr()))
    }

    pub fn to(out: Box<dyn Write + Send>) -> Log {
        Log {
            out: Arc::new(Mutex::new(out)),
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
