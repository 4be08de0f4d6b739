//! `strftime_now(format)` for chat templates that print today's date
//! (Llama 3.x's "Today Date: 26 Jul 2024"), in UTC, with the directives
//! those templates use.

use std::time::{SystemTime, UNIX_EPOCH};

/// Today, now, formatted by `format`.
pub fn format_now(format: &str) -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_at(secs, format)
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The time `secs` after 1970-01-01 UTC, formatted by `format`: `%Y %m %d
/// %e %H %M %S %b %B %a %A %y %j %%`; other directives are kept as written.
pub fn format_at(secs: u64, format: &str) -> String {
    let days = secs / 86_400;
    let (year, month, day) = civil_date(days);
    let of_day = secs % 86_400;
    let weekday = ((days + 3) % 7) as usize; // 1970-01-01 was a Thursday.
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('%');
            break;
        };
        let month_name = MONTHS[(month - 1) as usize];
        let day_name = DAYS[weekday];
        match d {
            'Y' => out.push_str(&year.to_string()),
            'y' => out.push_str(&format!("{:02}", year % 100)),
            'm' => out.push_str(&format!("{month:02}")),
            'd' => out.push_str(&format!("{day:02}")),
            'e' => out.push_str(&format!("{day:>2}")),
            'H' => out.push_str(&format!("{:02}", of_day / 3600)),
            'M' => out.push_str(&format!("{:02}", of_day / 60 % 60)),
            'S' => out.push_str(&format!("{:02}", of_day % 60)),
            'b' => out.push_str(&month_name[..3]),
            'B' => out.push_str(month_name),
            'a' => out.push_str(&day_name[..3]),
            'A' => out.push_str(day_name),
            'j' => out.push_str(&format!("{:03}", day_of_year(year, month, day))),
            '%' => out.push('%'),
            other => {
                out.push('%');
                out.push(other);
            }
        }
    }
    out
}

/// The (year, month, day) of day `days` after 1970-01-01, in the
/// proleptic Gregorian calendar.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Counted from 0000-03-01, so that a leap day ends its year.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

fn day_of_year(year: u64, month: u64, day: u64) -> u64 {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][(month - 1) as usize];
    before + day + u64::from(leap && month > 2)
}

#[cfg(test)]
mod tests {
    use super::format_at;

    #[test]
    fn dates_are_written_as_python_writes_them() {
        // 2024-07-26 00:00:00 UTC, a Friday; 2000-02-29 12:34:56, a Tuesday.
        assert_eq!(format_at(1_721_952_000, "%d %b %Y"), "26 Jul 2024");
        assert_eq!(
            format_at(951_827_696, "%A %B %e %H:%M:%S %j %y %%"),
            "Tuesday February 29 12:34:56 060 00 %"
        );
    }
}
