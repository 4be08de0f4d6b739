//! A flood of queued input: Ctrl-C typed after thousands of keys quits at
//! once instead of after them, and a flood of typing costs a few frames,
//! not one a key. The loop is driven by an event source that has already
//! read everything typed, as the terminal's reader thread has.

mod common;

use bpeek::tui::{Event, EventSource, run_loop};
use common::default_app;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::collections::VecDeque;
use std::time::Duration;

/// Keys already read from the terminal and queued for the loop.
struct Queued {
    keys: VecDeque<Event>,
    /// The reader has seen Ctrl-C somewhere in what it read.
    ctrl_c_read: bool,
    taken: usize,
}

impl Queued {
    fn new(keys: impl IntoIterator<Item = Event>) -> Queued {
        let keys: VecDeque<Event> = keys.into_iter().collect();
        let ctrl_c_read = keys.contains(&Event::ctrl('c'));
        Queued {
            keys,
            ctrl_c_read,
            taken: 0,
        }
    }
}

impl EventSource for Queued {
    fn next(&mut self, _timeout: Option<Duration>) -> std::io::Result<Option<Event>> {
        self.taken += 1;
        Ok(Some(self.keys.pop_front().unwrap_or(Event::Closed)))
    }

    fn load(&mut self, _spec: &str) {}

    fn stop_requested(&self) -> bool {
        self.ctrl_c_read
    }

    fn pending(&mut self) -> bool {
        !self.keys.is_empty()
    }
}

#[test]
fn ctrl_c_after_thirty_two_thousand_keys_quits_before_any_of_them() {
    let mut app = default_app();
    let keys = (0..32_000).map(|i| Event::char(if i % 2 == 0 { 'n' } else { 'p' }));
    let mut events = Queued::new(keys.chain([Event::ctrl('c')]));
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert!(app.quit);
    assert_eq!(events.taken, 0, "no queued key was worked through first");
    assert_eq!(app.trainer().merges().len(), 0);
}

#[test]
fn typing_two_thousand_characters_draws_a_few_frames_and_keeps_every_one() {
    let mut app = default_app();
    let typed: String = "the cat sat ".repeat(167);
    let keys: Vec<Event> = std::iter::once(Event::char('e'))
        .chain(typed.chars().map(Event::char))
        .collect();
    let count = keys.len();
    let mut events = Queued::new(keys);
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    run_loop(&mut terminal, &mut app, &mut events).unwrap();
    assert_eq!(
        app.encode.text, typed,
        "every typed character is in the box"
    );
    let frames = terminal.get_frame().count();
    // A frame a key would be 2,005; frames come at most every 100 ms while
    // keys wait, and one when the queue is empty.
    assert!(frames < count / 4, "{frames} frames for {count} keys");
}
