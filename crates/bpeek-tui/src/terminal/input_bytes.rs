//! Turning the bytes a terminal sends (a student's over SSH, or the local one
//! read directly) into the explorer's events.
//!
//! SSH packets cut input anywhere: one packet can carry several keys, an
//! escape sequence or a UTF-8 character can end in the next one, and a
//! paste can span hundreds. The parser therefore keeps what it has not
//! understood yet between calls. Key sequences are decoded by `terminput`
//! (the same decoding crossterm does for a local terminal); this module adds
//! the state, the lone Esc rule, mouse reports (see
//! [`mouse_report`]), bracketed pastes with a size cap, and
//! control strings (OSC, DCS, APC, PM, SOS: a title, a clipboard write, a
//! terminal's reply) consumed whole and never read as keys, however long.

use crate::event::Event;
use crate::terminal::mouse_report::{self, Report};
use std::time::Duration;

/// How long a lone Esc at the end of the input waits for the rest of a
/// sequence before it counts as the Esc key.
pub const ESC_WAIT: Duration = Duration::from_millis(50);

/// The largest paste kept; the rest is dropped and the user told.
pub const PASTE_CAP: usize = 1 << 20;

/// The longest unfinished escape sequence kept. Real ones are a few dozen
/// bytes; a longer one is discarded, up to its final byte, so a client
/// sending `ESC [ 1` and then endless digits costs nothing.
pub const SEQUENCE_CAP: usize = 4096;

const PASTE_START: &[u8] = b"\x1b[200~";

/// The bytes after Esc that open a control string: OSC `]`, DCS `P`, SOS
/// `X`, PM `^` and APC `_`. Such a string runs to ST (`Esc \`) or BEL.
const STRING_OPENERS: &[u8] = b"]PX^_";

/// Where the parser is in a control string.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum ControlString {
    #[default]
    Outside,
    Inside,
    /// Inside, just after an Esc: `\` ends the string; anything else ends
    /// it too and starts a sequence of its own.
    AfterEsc,
}
const PASTE_END: &[u8] = b"\x1b[201~";

/// An incremental parser of terminal input.
#[derive(Debug, Default)]
pub struct InputParser {
    /// Bytes of a key or sequence not complete yet.
    pending: Vec<u8>,
    /// Inside a bracketed paste: what it holds so far.
    paste: Option<Vec<u8>>,
    /// Bytes of the paste dropped beyond the cap.
    dropped: usize,
    /// The cap on a paste, if not [`PASTE_CAP`].
    cap: Option<usize>,
    /// Discarding an overlong sequence until its final byte.
    skipping: bool,
    /// Discarding a control string until its end.
    string: ControlString,
}

/// What the parser made of some input.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub events: Vec<Event>,
    /// A paste was cut to [`PASTE_CAP`] bytes; this many were dropped.
    pub paste_cut: Option<usize>,
}

impl InputParser {
    pub fn new() -> Self {
        InputParser::default()
    }

    /// Feed bytes as they arrive; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Parsed {
        let mut out = Parsed::default();
        for &b in bytes {
            if self.paste.is_some() {
                self.paste_byte(b, &mut out);
                continue;
            }
            if self.string != ControlString::Outside && self.string_byte(b) {
                continue;
            }
            if self.skipping {
                // A final byte ends the sequence; an Esc starts the next.
                if b != 0x1b {
                    self.skipping = !(0x40..=0x7e).contains(&b) && b != 0x07;
                    continue;
                }
                self.skipping = false;
            }
            if b == 0x1b && !self.pending.is_empty() {
                // A new sequence starts: what was pending was a lone Esc
                // (Esc pressed twice) or an unfinished sequence (dropped).
                if std::mem::take(&mut self.pending) == b"\x1b" {
                    out.events.push(esc());
                }
            }
            self.pending.push(b);
            if self.pending == PASTE_START {
                self.pending.clear();
                self.paste = Some(Vec::new());
                continue;
            }
            if PASTE_START.starts_with(&self.pending) {
                continue;
            }
            if let [0x1b, opener, first] = self.pending[..]
                && STRING_OPENERS.contains(&opener)
            {
                // Esc, an opener and more: a control string, whose bytes
                // are not keys.
                self.pending.clear();
                self.string = ControlString::Inside;
                if !self.string_byte(first) {
                    self.pending.push(first);
                }
                continue;
            }
            if let [0x1b, opener] = self.pending[..]
                && STRING_OPENERS.contains(&opener)
            {
                // Alone at the end of the input it is Alt and a key (see
                // `flush`); with more behind it, a control string.
                continue;
            }
            // A lone Esc with more input behind it starts a sequence (or an
            // Alt+key); only at the end of the input may it be the Esc key.
            if self.pending == b"\x1b" {
                continue;
            }
            self.decode_mouse_or_key(&mut out);
            if self.pending.len() >= SEQUENCE_CAP {
                self.pending = Vec::new();
                self.skipping = true;
            }
        }
        out
    }

    /// One byte inside a control string: true if the string took it (a
    /// byte of the string or its end), false if it ended the string and
    /// starts a sequence of its own (an Esc not followed by `\`).
    fn string_byte(&mut self, b: u8) -> bool {
        match (self.string, b) {
            (ControlString::AfterEsc, b'\\') | (_, 0x07) => {
                self.string = ControlString::Outside;
                true
            }
            (ControlString::AfterEsc, 0x1b) => true,
            (ControlString::AfterEsc, _) => {
                // The Esc ended the string and starts what follows.
                self.string = ControlString::Outside;
                self.pending.push(0x1b);
                false
            }
            (_, 0x1b) => {
                self.string = ControlString::AfterEsc;
                true
            }
            _ => true,
        }
    }

    /// Bytes held between calls (an unfinished sequence or paste).
    pub fn held(&self) -> usize {
        self.pending.capacity() + self.paste.as_ref().map_or(0, Vec::capacity)
    }

    /// Whether an Esc is waiting that could be the Esc key (alone, or with
    /// one byte that could start a sequence): the caller calls
    /// [`InputParser::flush`] after [`ESC_WAIT`] with no more input. Longer
    /// unfinished sequences wait for their end.
    pub fn waiting(&self) -> bool {
        self.paste.is_none() && self.pending.first() == Some(&0x1b) && self.pending.len() <= 2
    }

    /// No more input came: what is pending is taken as it stands (a lone
    /// Esc is the Esc key; an unfinished sequence is dropped).
    pub fn flush(&mut self) -> Parsed {
        let mut out = Parsed::default();
        if let [0x1b, opener] = self.pending[..]
            && STRING_OPENERS.contains(&opener)
        {
            // Alt and the key, as a terminal sends it.
            self.decode(&mut out);
            self.pending.clear();
            return out;
        }
        if self.waiting() {
            // `ESC`, or `ESC [` and the like: the Esc key, then the rest as
            // typed.
            let pending = std::mem::take(&mut self.pending);
            out.events.push(esc());
            out.events.extend(self.feed(&pending[1..]).events);
            out.events.extend(self.flush().events);
        }
        out
    }

    /// A mouse report is taken apart by [`mouse_report`], everything else
    /// by the key decoder.
    fn decode_mouse_or_key(&mut self, out: &mut Parsed) {
        match mouse_report::parse(&self.pending) {
            Report::NotMouse => self.decode(out),
            Report::Incomplete => {}
            Report::Done(event) => {
                self.pending.clear();
                out.events.extend(event.map(Event::Mouse));
            }
        }
    }

    fn decode(&mut self, out: &mut Parsed) {
        if let Some(report) = cursor_report(&self.pending) {
            self.pending.clear();
            out.events.push(report);
            return;
        }
        match terminput::Event::parse_from(&self.pending) {
            // Incomplete: wait for more bytes.
            Ok(None) => {}
            Ok(Some(event)) => {
                self.pending.clear();
                if let Some(e) = convert(event) {
                    out.events.push(e);
                }
            }
            // Not a sequence anything sends: drop it rather than stall.
            Err(_) => self.pending.clear(),
        }
    }

    fn paste_byte(&mut self, b: u8, out: &mut Parsed) {
        let cap = self.cap.unwrap_or(PASTE_CAP);
        let paste = self.paste.as_mut().expect("inside a paste");
        if paste.len() < cap + PASTE_END.len() {
            paste.push(b);
        } else {
            // Keep only a window big enough to see the end marker.
            paste.drain(cap..cap + 1);
            paste.push(b);
            self.dropped += 1;
        }
        if paste.ends_with(PASTE_END) {
            let mut bytes = self.paste.take().expect("inside a paste");
            bytes.truncate(bytes.len() - PASTE_END.len());
            out.events
                .push(Event::Paste(String::from_utf8_lossy(&bytes).into_owned()));
            if self.dropped > 0 {
                out.paste_cut = Some(self.dropped);
                self.dropped = 0;
            }
        }
    }
}

/// A cursor position report, `Esc [ row ; col R`, for a row below the
/// first: the same bytes with row 1 are F3 with a modifier, which only a
/// key sends (the probes that ask for reports are written lower).
fn cursor_report(seq: &[u8]) -> Option<Event> {
    let body = seq.strip_prefix(b"\x1b[")?.strip_suffix(b"R")?;
    let text = std::str::from_utf8(body).ok()?;
    let (row, col) = text.split_once(';')?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u16>().ok())
            .flatten()
    };
    let (row, col) = (number(row)?, number(col)?);
    (row >= 2).then_some(Event::CursorReport(row, col))
}

fn esc() -> Event {
    Event::key(crossterm::event::KeyCode::Esc)
}

/// The explorer's event for a decoded one, if the explorer has a use for it.
fn convert(event: terminput::Event) -> Option<Event> {
    use crossterm::event::{Event as Ct, KeyEventKind};
    match terminput_crossterm::to_crossterm(event).ok()? {
        Ct::Key(k) if k.kind != KeyEventKind::Release => Some(Event::Key(k)),
        Ct::Paste(s) => Some(Event::Paste(s)),
        _ => None,
    }
}

/// How long a bracketed paste may go without a byte before it is taken as
/// ended: a terminal that sent the start marker and never the end (or a
/// user who typed the marker) must not swallow every key after it.
pub const PASTE_SILENCE: Duration = Duration::from_secs(1);

impl InputParser {
    /// A parser whose pastes may hold up to `cap` bytes (a local terminal
    /// takes bigger pastes than a shared server).
    pub fn with_paste_cap(cap: usize) -> Self {
        InputParser {
            cap: Some(cap),
            ..InputParser::default()
        }
    }

    /// Whether a bracketed paste or a control string has started and not
    /// ended yet: the caller calls [`InputParser::end_paste`] after
    /// [`PASTE_SILENCE`] with no more input.
    pub fn in_paste(&self) -> bool {
        self.paste.is_some() || self.string != ControlString::Outside
    }

    /// End a paste whose end marker never came: what it holds so far is
    /// the paste, and the bytes after it are keys again. A control string
    /// that never ended is dropped the same way.
    pub fn end_paste(&mut self) -> Parsed {
        let mut out = Parsed::default();
        self.string = ControlString::Outside;
        if let Some(bytes) = self.paste.take() {
            out.events
                .push(Event::Paste(String::from_utf8_lossy(&bytes).into_owned()));
            if self.dropped > 0 {
                out.paste_cut = Some(std::mem::take(&mut self.dropped));
            }
        }
        out
    }
}
