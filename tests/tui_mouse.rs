//! The mouse: clicks and the wheel on a drawn screen, and the state they
//! leave, against what the keys leave.

use bpeek::tui::{App, Event, update};
use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

mod common;
use common::{play, press, rows_of};

fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    update(app, bpeek::tui::Action::Resize(w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    rows_of(terminal.backend())
}

#[test]
fn show() {
    let mut app = play();
    press(&mut app, vec![Event::char('n'); 6]);
    press(&mut app, [Event::char('e')]);
    press(&mut app, "hello world".chars().map(Event::char));
    press(&mut app, [Event::key(KeyCode::Esc)]);
    for r in screen(&mut app, 80, 24) { println!("{r}"); }
}
