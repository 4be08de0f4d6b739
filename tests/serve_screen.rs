//! A served explorer's screen, read back through a terminal emulator: what
//! the SSH backend writes is what a student sees, at the student's size.

#[path = "common/mod.rs"]
mod common;

use bpeek::serve::screen::{Out, Outbox, RemoteScreen, enter_sequence, leave_sequence};
use bpeek::tui::runner::draw;
use bpeek::tui::terminal::screen::Screen;
use bpeek::tui::{Action, update};
use ratatui::Terminal;
use tokio::sync::mpsc::Receiver;

/// Feed everything queued so far into the emulator.
fn drain(rx: &mut Receiver<Out>, vt: &mut vt100::Parser) {
    while let Ok(out) = rx.try_recv() {
        if let Out::Bytes(bytes) = out {
            vt.process(&bytes);
        }
    }
}

fn size(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("not zero")
}

fn rows(vt: &vt100::Parser) -> Vec<String> {
    let (rows, cols) = vt.screen().size();
    vt.screen()
        .rows(0, cols.get())
        .take(usize::from(rows.get()))
        .collect()
}

#[test]
fn the_backend_draws_at_the_clients_size_and_follows_a_resize() {
    let (outbox, mut rx) = Outbox::new();
    let mut vt = vt100::Parser::new(size(24), size(80), 0);
    outbox.frame(enter_sequence(true)).unwrap();
    drain(&mut rx, &mut vt);
    assert!(vt.screen().alternate_screen(), "the alternate screen is on");
    assert!(vt.screen().hide_cursor(), "the cursor is hidden");
    assert!(vt.screen().bracketed_paste(), "bracketed paste is on");
    assert_eq!(
        vt.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::PressRelease,
        "clicks are reported, the pointer's motion is not"
    );
    assert_eq!(
        vt.screen().mouse_protocol_encoding(),
        vt100::MouseProtocolEncoding::Sgr
    );

    let mut app = common::play();
    let mut terminal = Terminal::new(RemoteScreen::new(outbox.clone(), 80, 24)).unwrap();
    update(&mut app, Action::Resize(80, 24));
    draw(&mut terminal, &mut app).unwrap();
    drain(&mut rx, &mut vt);
    let screen = rows(&vt);
    assert!(screen.iter().any(|r| r.contains("Merges 0")), "{screen:#?}");
    assert!(screen[0].contains("merge 0/"), "{screen:#?}");

    update(&mut app, Action::Step);
    draw(&mut terminal, &mut app).unwrap();
    drain(&mut rx, &mut vt);
    let screen = rows(&vt);
    assert!(screen.iter().any(|r| r.contains("Merges 1")), "{screen:#?}");
    assert!(
        screen.iter().any(|r| r.contains("p + l → pl")),
        "{screen:#?}"
    );
    assert!(
        screen
            .iter()
            .any(|r| r.contains("Corpus: play") && r.contains("Pairs")),
        "at 80 columns the corpus and pairs panes sit side by side:\n{}",
        screen.join("\n")
    );

    // The client's window shrinks: the explorer lays out for 60 x 20.
    vt.set_size(size(20), size(60));
    terminal.backend_mut().resized(60, 20);
    terminal.autoresize().unwrap();
    update(&mut app, Action::Resize(60, 20));
    draw(&mut terminal, &mut app).unwrap();
    drain(&mut rx, &mut vt);
    let screen = rows(&vt);
    assert_eq!(screen.len(), 20);
    let bottom = screen.last().unwrap();
    assert!(!bottom.trim().is_empty(), "the footer is on the last row");
    assert!(
        screen
            .iter()
            .any(|r| r.trim_end().chars().count() == 60 && r.ends_with('┐')),
        "a pane's corner at the new right edge:\n{}",
        screen.join("\n")
    );
    assert!(
        !screen
            .iter()
            .any(|r| r.contains("Corpus: play") && r.contains("Pairs")),
        "at 60 columns the panes stack:\n{}",
        screen.join("\n")
    );
    assert!(
        screen.iter().any(|r| r.starts_with("┌ Pairs")),
        "{screen:#?}"
    );

    outbox.frame(leave_sequence(Some("bye"))).unwrap();
    drain(&mut rx, &mut vt);
    assert!(
        !vt.screen().alternate_screen(),
        "the alternate screen is left"
    );
    assert!(!vt.screen().hide_cursor(), "the cursor is shown");
    assert!(!vt.screen().bracketed_paste(), "bracketed paste is off");
    assert_eq!(
        vt.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "the mouse is the terminal's again"
    );
}

#[test]
fn a_full_queue_drops_frames_instead_of_growing() {
    let (outbox, mut rx) = Outbox::new();
    for _ in 0..100 {
        outbox.frame(vec![b'x'; 1000]).unwrap();
    }
    let mut queued = 0;
    while rx.try_recv().is_ok() {
        queued += 1;
    }
    assert_eq!(queued, bpeek::serve::screen::QUEUE_FRAMES);
    drop(rx);
    assert!(outbox.frame(vec![1]).is_err(), "a gone client is an error");
}
