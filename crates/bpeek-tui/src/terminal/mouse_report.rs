//! Mouse reports: the bytes a terminal sends for a click or a turn of the
//! wheel once the explorer asks for them, and the bytes that ask.
//!
//! The explorer asks for button presses and releases only (mode 1000, no
//! motion: a moving pointer would flood a served class with reports) in
//! SGR's decimal form (mode 1006): `ESC [ < b ; x ; y M` for a press,
//! `... m` for a release, `x` and `y` counted from 1. Two older forms
//! are read too, so that a terminal that ignores 1006 still works and a
//! client that sends them anyway cannot stall the parser: X10's
//! `ESC [ M` and three bytes, and rxvt's `ESC [ b ; x ; y M`.
//!
//! Every report is taken apart here rather than by the key decoder: input
//! may come from anyone on a class's network, and a number that does not
//! fit, a zero coordinate or a report cut short must come to nothing, never
//! to a panic.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

/// Asks the terminal for presses, releases and the wheel, in SGR's form.
pub const MOUSE_ON: &[u8] = b"\x1b[?1000h\x1b[?1006h";

/// Gives the mouse back to the terminal (its selection, its scrollback).
pub const MOUSE_OFF: &[u8] = b"\x1b[?1006l\x1b[?1000l";

/// What the bytes of a pending sequence are, as far as the mouse goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// Not a mouse report: for the key decoder.
    NotMouse,
    /// The start of a report: wait for more bytes.
    Incomplete,
    /// A whole report: the event it stands for, or `None` for one that
    /// says nothing the explorer can use (malformed, off any screen).
    Done(Option<MouseEvent>),
}

/// What `bytes` (a sequence the input parser holds, from its Esc on) are.
pub fn parse(bytes: &[u8]) -> Report {
    match bytes {
        [0x1b, b'[', b'<', rest @ ..] => sgr(rest),
        [0x1b, b'[', b'M', rest @ ..] => x10(rest),
        [0x1b, b'[', first, .., b'M'] if first.is_ascii_digit() => {
            Report::Done(rxvt(&bytes[2..bytes.len() - 1]))
        }
        _ => Report::NotMouse,
    }
}

/// `b ; x ; y` and a final byte, after `ESC [ <`.
fn sgr(rest: &[u8]) -> Report {
    let Some((&last, body)) = rest.split_last() else {
        return Report::Incomplete;
    };
    match last {
        b'0'..=b'9' | b';' => Report::Incomplete,
        b'M' | b'm' => Report::Done(sgr_event(body, last == b'm')),
        // Any other byte ends the sequence: it is no report.
        _ => Report::Done(None),
    }
}

fn sgr_event(body: &[u8], released: bool) -> Option<MouseEvent> {
    let [b, x, y] = numbers(body)?;
    let mut event = event(b, x, y)?;
    if released {
        event.kind = match event.kind {
            MouseEventKind::Down(button) => MouseEventKind::Up(button),
            // A release of the wheel or of a motion means nothing more.
            _ => return None,
        };
    }
    Some(event)
}

/// X10's three bytes after `ESC [ M`: the button and both coordinates,
/// each plus 32.
fn x10(rest: &[u8]) -> Report {
    match rest {
        [b, x, y] => Report::Done(
            b.checked_sub(32)
                .zip(x.checked_sub(32))
                .zip(y.checked_sub(32))
                .and_then(|((b, x), y)| event(u32::from(b), u32::from(x), u32::from(y))),
        ),
        _ if rest.len() < 3 => Report::Incomplete,
        _ => Report::Done(None),
    }
}

/// rxvt's `b ; x ; y` between `ESC [` and `M`, the button plus 32.
fn rxvt(body: &[u8]) -> Option<MouseEvent> {
    let [b, x, y] = numbers(body)?;
    event(b.checked_sub(32)?, x, y)
}

/// Exactly three decimal numbers separated by `;`, none of them empty or
/// longer than a screen's coordinates can be.
fn numbers(body: &[u8]) -> Option<[u32; 3]> {
    let mut out = [0u32; 3];
    let mut parts = body.split(|&c| c == b';');
    for slot in &mut out {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 5 || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        *slot = part.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
    }
    parts.next().is_none().then_some(out)
}

/// The event for button code `b` at 1-based column `x` and row `y`.
fn event(b: u32, x: u32, y: u32) -> Option<MouseEvent> {
    let column = u16::try_from(x.checked_sub(1)?).ok()?;
    let row = u16::try_from(y.checked_sub(1)?).ok()?;
    let mut modifiers = KeyModifiers::NONE;
    for (bit, key) in [
        (4, KeyModifiers::SHIFT),
        (8, KeyModifiers::ALT),
        (16, KeyModifiers::CONTROL),
    ] {
        if b & bit != 0 {
            modifiers |= key;
        }
    }
    let button = match b & 3 {
        0 => Some(MouseButton::Left),
        1 => Some(MouseButton::Middle),
        2 => Some(MouseButton::Right),
        _ => None,
    };
    let kind = match (b & !0b11100, button) {
        // The wheel: up, down, left, right.
        (64, _) => MouseEventKind::ScrollUp,
        (65, _) => MouseEventKind::ScrollDown,
        (66, _) => MouseEventKind::ScrollLeft,
        (67, _) => MouseEventKind::ScrollRight,
        (32..=34, Some(button)) => MouseEventKind::Drag(button),
        (35, None) => MouseEventKind::Moved,
        (0..=2, Some(button)) => MouseEventKind::Down(button),
        // X10's release does not say which button.
        (3, None) => MouseEventKind::Up(MouseButton::Left),
        // Buttons 8 to 11 and anything else: nothing the explorer uses.
        _ => return None,
    };
    Some(MouseEvent {
        kind,
        column,
        row,
        modifiers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: MouseEventKind, column: u16, row: u16) -> Report {
        Report::Done(Some(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }))
    }

    #[test]
    fn sgr_press_release_and_wheel() {
        let left = MouseButton::Left;
        assert_eq!(
            parse(b"\x1b[<0;10;5M"),
            at(MouseEventKind::Down(left), 9, 4)
        );
        assert_eq!(parse(b"\x1b[<0;10;5m"), at(MouseEventKind::Up(left), 9, 4));
        assert_eq!(
            parse(b"\x1b[<2;1;1M"),
            at(MouseEventKind::Down(MouseButton::Right), 0, 0)
        );
        assert_eq!(parse(b"\x1b[<64;3;7M"), at(MouseEventKind::ScrollUp, 2, 6));
        assert_eq!(
            parse(b"\x1b[<65;3;7M"),
            at(MouseEventKind::ScrollDown, 2, 6)
        );
        let Report::Done(Some(e)) = parse(b"\x1b[<16;2;2M") else {
            panic!("a Ctrl-click is a report");
        };
        assert_eq!(e.modifiers, KeyModifiers::CONTROL);
    }

    #[test]
    fn the_older_forms_mean_the_same() {
        // X10: button + 32, coordinates + 32 (so column 10 is 42, '*').
        assert_eq!(parse(b"\x1b[M *%"), parse(b"\x1b[<0;10;5M"));
        assert_eq!(parse(b"\x1b[32;10;5M"), parse(b"\x1b[<0;10;5M"));
        assert_eq!(parse(b"\x1b[M`!!"), parse(b"\x1b[<64;1;1M"));
    }

    #[test]
    fn cut_short_waits_and_keys_are_not_reports() {
        for part in [
            &b"\x1b[<"[..],
            b"\x1b[<0",
            b"\x1b[<0;",
            b"\x1b[<0;10;5",
            b"\x1b[M",
            b"\x1b[M ",
            b"\x1b[M *",
        ] {
            assert_eq!(parse(part), Report::Incomplete, "{part:?}");
        }
        for key in [&b"\x1b[A"[..], b"\x1b[1;5C", b"\x1b[200~", b"\x1bOP", b"a"] {
            assert_eq!(parse(key), Report::NotMouse, "{key:?}");
        }
    }

    #[test]
    fn malformed_reports_come_to_nothing() {
        for bad in [
            // Zero is off the screen: coordinates count from 1.
            &b"\x1b[<0;0;5M"[..],
            b"\x1b[<0;5;0M",
            // Too big for any screen, or for a number at all.
            b"\x1b[<0;65537;1M",
            b"\x1b[<0;99999999999999999999;1M",
            b"\x1b[<999999999999;1;1M",
            // Too few or too many numbers, or empty ones.
            b"\x1b[<0;1M",
            b"\x1b[<0;1;1;1M",
            b"\x1b[<;;M",
            b"\x1b[<M",
            // A final byte that is no report's.
            b"\x1b[<0;1;1~",
            b"\x1b[<0;1\r",
            // A released wheel, and buttons the explorer has no use for.
            b"\x1b[<64;1;1m",
            b"\x1b[<128;1;1M",
            // X10 and rxvt with a button below 32.
            b"\x1b[M\x01!!",
            b"\x1b[5;1;1M",
            b"\x1b[1;5M",
        ] {
            assert_eq!(parse(bad), Report::Done(None), "{bad:?}");
        }
    }

    #[test]
    fn the_largest_coordinates_still_fit() {
        assert_eq!(
            parse(b"\x1b[<0;65536;65536M"),
            at(MouseEventKind::Down(MouseButton::Left), 65535, 65535)
        );
    }
}
