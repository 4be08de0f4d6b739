//! JSON as Python's `json.dumps(value, ensure_ascii=False)` writes it,
//! which is what chat templates' `tojson` gives under `transformers`:
//! `", "` between items and `": "` after keys, or with `indent`, one item
//! per line (`","` at line ends). Keys keep their order unless sorted.

use minijinja::value::Value;
use serde::Serialize;
use std::io::{self, Write};

/// How `tojson` was asked to write.
#[derive(Debug, Clone, Default)]
pub struct JsonStyle {
    pub indent: Option<usize>,
    pub sort_keys: bool,
    /// `separators=(item, key)`, when given.
    pub separators: Option<(String, String)>,
}

/// `value` written in `style`.
pub fn dumps(value: &Value, style: &JsonStyle) -> Result<String, serde_json::Error> {
    let sorted;
    let value = if style.sort_keys {
        sorted = sort_keys(value);
        &sorted
    } else {
        value
    };
    let (item, key) = match (&style.separators, style.indent) {
        (Some((i, k)), _) => (i.clone(), k.clone()),
        (None, Some(_)) => (",".into(), ": ".into()),
        (None, None) => (", ".into(), ": ".into()),
    };
    let formatter = PythonFormatter {
        indent: style.indent.map(|n| " ".repeat(n)),
        item,
        key,
        level: 0,
        has_items: false,
    };
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut ser)?;
    // serde_json writes only valid UTF-8.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// `value` with every map's keys in sorted order (`sort_keys=True`).
fn sort_keys(value: &Value) -> Value {
    use minijinja::value::ValueKind;
    match value.kind() {
        ValueKind::Map => {
            let mut entries: Vec<(Value, Value)> = value
                .try_iter()
                .into_iter()
                .flatten()
                .map(|k| {
                    let v = value.get_item(&k).unwrap_or_default();
                    (k, sort_keys(&v))
                })
                .collect();
            entries.sort_by_key(|a| a.0.to_string());
            entries.into_iter().collect()
        }
        ValueKind::Seq => value
            .try_iter()
            .into_iter()
            .flatten()
            .map(|v| sort_keys(&v))
            .collect::<Vec<_>>()
            .into(),
        _ => value.clone(),
    }
}

/// serde_json's formatter hooks, written the way Python's encoder does.
struct PythonFormatter {
    indent: Option<String>,
    item: String,
    key: String,
    level: usize,
    has_items: bool,
}

impl PythonFormatter {
    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_items = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_items {
            self.newline(w)?;
        }
        self.has_items = true;
        w.write_all(bracket)
    }

    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        if let Some(indent) = &self.indent {
            w.write_all(b"\n")?;
            for _ in 0..self.level {
                w.write_all(indent.as_bytes())?;
            }
        }
        Ok(())
    }

    fn before_item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(self.item.as_bytes())?;
        }
        self.newline(w)
    }
}

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.before_item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_items = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.before_item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(self.key.as_bytes())
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_items = true;
        Ok(())
    }
}
