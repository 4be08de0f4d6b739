//! What a benchmark measured: printed as lines of text as it goes, or,
//! with `--format json`, gathered as named figures and printed as one JSON
//! document at the end (times in milliseconds, sizes in bytes unless the
//! name says otherwise).

use bpeek_core::error::Result;
use serde_json::{Map, Value};
use std::sync::Mutex;

/// The figures gathered so far, when the output is JSON.
static GATHERED: Mutex<Option<Map<String, Value>>> = Mutex::new(None);

fn gathered() -> std::sync::MutexGuard<'static, Option<Map<String, Value>>> {
    GATHERED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Gather figures from now on instead of printing lines.
pub fn as_json() {
    *gathered() = Some(Map::new());
}

/// A line of the text report (nothing when the output is JSON).
pub fn say(line: &str) -> Result<()> {
    if gathered().is_some() {
        return Ok(());
    }
    bpeek_core::output::emit(&format!("{line}\n"))
}

/// The figure at `path` (names from the outermost in), when the output is
/// JSON; a list is extended by `push`.
pub fn put(path: &[&str], value: impl Into<Value>) {
    let mut guard = gathered();
    let Some(root) = guard.as_mut() else {
        return;
    };
    let (last, outer) = path.split_last().expect("a figure has a name");
    let mut map = root;
    for name in outer {
        let entry = map
            .entry(name.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        map = entry.as_object_mut().expect("just made an object");
    }
    map.insert(last.to_string(), value.into());
}

/// Add `value` to the list at `path`.
pub fn push(path: &[&str], value: Value) {
    let mut list = {
        let guard = gathered();
        let Some(root) = guard.as_ref() else {
            return;
        };
        let mut at = Some(root);
        let mut found = None;
        for (i, name) in path.iter().enumerate() {
            let v = at.and_then(|m| m.get(*name));
            if i + 1 == path.len() {
                found = v.and_then(Value::as_array).cloned();
            } else {
                at = v.and_then(Value::as_object);
            }
        }
        found.unwrap_or_default()
    };
    list.push(value);
    put(path, Value::Array(list));
}

/// Milliseconds, rounded to the microsecond.
pub fn ms(d: std::time::Duration) -> Value {
    round(d.as_secs_f64() * 1000.0, 3)
}

/// `x` to `places` decimal places.
pub fn round(x: f64, places: i32) -> Value {
    let scale = 10f64.powi(places);
    serde_json::json!((x * scale).round() / scale)
}

/// Print the figures gathered, if the output is JSON.
pub fn finish() -> Result<()> {
    let Some(map) = gathered().take() else {
        return Ok(());
    };
    let text = serde_json::to_string_pretty(&Value::Object(map)).expect("figures are JSON");
    bpeek_core::output::emit(&format!("{text}\n"))
}

/// `format!` a line of the text report and [`say`] it.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::bench::figures::say(&format!($($arg)*))?
    };
}
