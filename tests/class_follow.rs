//! Followers in a class take the teacher's own trainer: however many
//! students and however far the teacher jumps, training happens once.

mod common;
mod scratch;

use bpeek::serve::class::Class;
use bpeek::tui::class::Role;
use bpeek::tui::{Action, App, update};
use common::{class, default_app, finish_job, seated_in};
use std::sync::Arc;

/// An explorer seated in `class` as `role`; the seat lives as long as the
/// class holds it here.
fn seated(class: &Arc<Class>, role: Role, seats: &mut Vec<bpeek::serve::class::Seat>) -> App {
    seated_in(class, role, seats, default_app())
}

fn goto(app: &mut App, merges: usize) {
    update(app, Action::Goto(merges));
    finish_job(app);
    update(app, Action::Publish);
}

#[test]
fn followers_show_the_teachers_trainer_instead_of_training_again() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut students: Vec<App> = (0..3)
        .map(|_| seated(&class, Role::Student, &mut seats))
        .collect();
    goto(&mut teacher, 60);
    for s in &mut students {
        update(s, Action::ClassChanged);
        assert_eq!(s.trainer().merges().len(), 60);
        assert!(
            Arc::ptr_eq(&s.loaded().trainer, &teacher.loaded().trainer),
            "a follower holds the teacher's trainer, not a copy"
        );
        assert!(s.jobs.current.is_none(), "nothing left to train");
    }

    // The teacher moves on: it copies the trainer once and steps the copy;
    // the followers still show merge 60 until they follow again.
    update(&mut teacher, Action::Step);
    update(&mut teacher, Action::Publish);
    assert_eq!(students[0].trainer().merges().len(), 60);
    for s in &mut students {
        update(s, Action::ClassChanged);
        assert!(Arc::ptr_eq(&s.loaded().trainer, &teacher.loaded().trainer));
    }

    // A student who explores alone trains its own copy; the teacher's and
    // the other followers' stay as they were.
    let alone = &mut students[2];
    alone.classroom.as_mut().unwrap().following = false;
    update(alone, Action::Step);
    assert!(!Arc::ptr_eq(
        &alone.loaded().trainer,
        &teacher.loaded().trainer
    ));
    assert_eq!(
        alone.trainer().merges().len(),
        teacher.trainer().merges().len() + 1
    );
    assert!(Arc::ptr_eq(
        &students[0].loaded().trainer,
        &teacher.loaded().trainer
    ));
}

#[test]
fn a_shared_trainer_gives_the_same_merges_as_training_alone() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut student = seated(&class, Role::Student, &mut seats);
    let mut alone = default_app();
    for n in [40, 7, 90, 3] {
        goto(&mut teacher, n);
        update(&mut student, Action::ClassChanged);
        update(&mut alone, Action::Goto(n));
        finish_job(&mut alone);
        assert_eq!(
            student.trainer().merges(),
            alone.trainer().merges(),
            "at {n}"
        );
        assert_eq!(student.trainer().phase(), alone.trainer().phase());
    }
}

#[test]
fn a_teacher_alone_never_copies_its_trainer_to_step() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    goto(&mut teacher, 5);
    // The class holds the published trainer weakly: the teacher's is the
    // only strong hold, so stepping moves it on in place.
    assert_eq!(Arc::strong_count(&teacher.loaded().trainer), 1);
    let mut student = seated(&class, Role::Student, &mut seats);
    update(&mut student, Action::ClassChanged);
    assert_eq!(Arc::strong_count(&teacher.loaded().trainer), 2);
    drop(student);
    update(&mut teacher, Action::Step);
    assert_eq!(teacher.trainer().merges().len(), 6);
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    common::rows_of(terminal.backend()).join("\n")
}

fn key(app: &mut App, code: crossterm::event::KeyCode) {
    let event = bpeek::tui::Event::Key(crossterm::event::KeyEvent::new(
        code,
        crossterm::event::KeyModifiers::NONE,
    ));
    common::press(app, [event]);
    update(app, Action::Publish);
}

#[test]
fn a_class_votes_on_which_pair_wins_and_each_student_learns_if_they_were_right() {
    use crossterm::event::KeyCode::{Char, Down, Enter};
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut students: Vec<App> = (0..7)
        .map(|_| seated(&class, Role::Student, &mut seats))
        .collect();
    goto(&mut teacher, 2);
    // Merge 2 is made; one phase on, the pairs are counted again.
    key(&mut teacher, Char('.'));
    let winner = teacher.trainer().peek_choice().unwrap().pair;
    let everyone = |students: &mut Vec<App>| {
        for s in students.iter_mut() {
            update(s, Action::ClassChanged);
        }
    };
    everyone(&mut students);

    key(&mut teacher, Char('Q'));
    everyone(&mut students);
    update(&mut teacher, Action::ClassChanged);
    // Every follower's pair table is a ballot that does not give the
    // winner away; so is the teacher's, which may be on the projector.
    for app in [&mut students[0], &mut teacher] {
        let s = screen(app, 100, 30);
        assert!(s.contains("Which pair wins?"), "{s}");
        assert!(!s.contains('►'), "no winner marked:\n{s}");
    }
    assert!(
        students[0]
            .notice
            .as_deref()
            .unwrap()
            .contains("which pair wins?")
    );

    // Each student picks a row of the ballot; one changes its mind.
    let ballot = bpeek::tui::class::question::ballot(students[0].trainer());
    let right_row = ballot.iter().position(|(p, _)| *p == winner).unwrap();
    let wrong_row = (right_row + 1) % ballot.len();
    for (i, s) in students.iter_mut().enumerate() {
        let row = if i < 3 { right_row } else { wrong_row };
        for _ in 0..row {
            key(s, Down);
        }
        key(s, Enter);
    }
    for _ in 0..wrong_row.abs_diff(right_row) {
        let k = if right_row > wrong_row {
            Down
        } else {
            crossterm::event::KeyCode::Up
        };
        key(&mut students[6], k);
    }
    key(&mut students[6], Enter);
    update(&mut teacher, Action::ClassChanged);
    let status = screen(&mut teacher, 100, 30);
    assert!(status.contains("question: 7 voted"), "{status}");

    // The teacher's tally: votes per pair beside the real winner.
    key(&mut teacher, Char('Q'));
    let q = teacher
        .classroom
        .as_ref()
        .unwrap()
        .question
        .clone()
        .unwrap();
    assert!(q.tally_shown);
    assert_eq!(q.tally.iter().map(|t| t.1).sum::<usize>(), 7);
    assert_eq!(q.tally.iter().find(|t| t.0 == winner).map(|t| t.1), Some(4));
    let s = screen(&mut teacher, 100, 30);
    assert!(s.contains("votes") && s.contains('►'), "{s}");

    // The next `.` reveals on every screen.
    key(&mut teacher, Char('.'));
    assert!(
        teacher
            .notice
            .as_deref()
            .unwrap()
            .contains("7 voted, 4 right"),
        "{:?}",
        teacher.notice
    );
    everyone(&mut students);
    for (i, s) in students.iter().enumerate() {
        let notice = s.notice.as_deref().unwrap();
        if i < 3 || i == 6 {
            assert!(notice.ends_with("you were right"), "{i}: {notice}");
        } else {
            assert!(notice.starts_with("you voted"), "{i}: {notice}");
        }
    }
    // The pair tables are tables again, the chosen pair explained.
    let s = screen(&mut students[4], 100, 30);
    assert!(s.contains("wins: count"), "{s}");
    assert!(!s.contains("Which pair wins?"));
}

#[test]
fn a_question_needs_the_counted_phase_and_goes_with_the_teacher() {
    use crossterm::event::KeyCode::Char;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut student = seated(&class, Role::Student, &mut seats);
    key(&mut teacher, Char('.'));
    key(&mut teacher, Char('Q'));
    assert!(
        teacher
            .notice
            .as_deref()
            .unwrap()
            .contains("when the pairs are counted")
    );
    key(&mut teacher, Char('.'));
    key(&mut teacher, Char('.'));
    key(&mut teacher, Char('Q'));
    update(&mut student, Action::ClassChanged);
    assert!(bpeek::tui::class::question::open_ballot(&student).is_some());
    drop(teacher);
    seats.remove(0);
    update(&mut student, Action::ClassChanged);
    assert!(
        bpeek::tui::class::question::open_ballot(&student).is_none(),
        "a class without a teacher has no question"
    );
}

/// The cells of the corpus pane's first `rows` rows (below the status
/// line, up to the pane's right corner), styles and all.
fn corpus_cells(app: &mut App, w: u16, h: u16, rows: u16) -> Vec<ratatui::buffer::Cell> {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    bpeek::tui::runner::draw(&mut terminal, app).unwrap();
    let buffer = terminal.backend().buffer();
    let right = (0..w)
        .find(|&x| ["┐", "+"].contains(&buffer[(x, 1)].symbol()) && x > 0)
        .expect("the corpus pane's corner");
    (1..=rows)
        .flat_map(|y| (0..=right).map(move |x| (x, y)))
        .map(|(x, y)| buffer[(x, y)].clone())
        .collect()
}

#[test]
fn followers_that_share_laid_out_corpus_rows_each_see_their_own_look() {
    use bpeek::tui::action::Toggle;
    use bpeek::tui::theme::Theme;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    // Students who look at the same corpus differently, and for each one
    // an explorer outside any class with the same look: the reference.
    let looks: [&dyn Fn(&mut App); 4] = [
        &|_| {},
        &|a| update(a, Action::Toggle(Toggle::Whitespace)),
        &|a| update(a, Action::Toggle(Toggle::Separators)),
        &|a| a.theme = Theme::new(false, true),
    ];
    let mut students: Vec<App> = looks
        .iter()
        .map(|look| {
            let mut s = seated(&class, Role::Student, &mut seats);
            look(&mut s);
            s
        })
        .collect();
    let mut alone: Vec<App> = looks
        .iter()
        .map(|look| {
            let mut a = default_app();
            look(&mut a);
            a
        })
        .collect();
    for n in [4, 5, 31, 2, 0, 17] {
        goto(&mut teacher, n);
        for (i, (s, a)) in students.iter_mut().zip(&mut alone).enumerate() {
            update(s, Action::ClassChanged);
            update(a, Action::Goto(n));
            finish_job(a);
            for (w, h) in [(100, 30), (61, 24)] {
                assert!(
                    corpus_cells(s, w, h, 8) == corpus_cells(a, w, h, 8),
                    "look {i} at merge {n}, {w}x{h}:\n{}\n---\n{}",
                    screen(s, w, h),
                    screen(a, w, h)
                );
            }
        }
    }
}

/// What a served student's terminal shows: the explorer drawn through the
/// same backends as a session's, read back by a terminal emulator.
struct Served {
    terminal: ratatui::Terminal<
        bpeek::tui::terminal::wide_cells::WideCellBackend<bpeek::serve::screen::RemoteScreen>,
    >,
    rx: tokio::sync::mpsc::Receiver<bpeek::serve::screen::Out>,
    vt: vt100::Parser,
}

impl Served {
    fn new(w: u16, h: u16) -> Served {
        use bpeek::serve::screen::{Outbox, RemoteScreen};
        let (outbox, rx) = Outbox::new();
        let backend = bpeek::tui::terminal::wide_cells::WideCellBackend::over(RemoteScreen::new(
            outbox, w, h,
        ));
        Served {
            terminal: ratatui::Terminal::new(backend).unwrap(),
            rx,
            vt: vt100::Parser::new(
                std::num::NonZeroU16::new(h).unwrap(),
                std::num::NonZeroU16::new(w).unwrap(),
                0,
            ),
        }
    }

    fn draw(&mut self, app: &mut App) -> Vec<String> {
        bpeek::tui::runner::draw(&mut self.terminal, app).unwrap();
        self.read_sent();
        let (_, cols) = self.vt.screen().size();
        self.vt.screen().rows(0, cols.get()).collect()
    }

    /// Feed the frames sent so far to the emulator.
    fn read_sent(&mut self) {
        while let Ok(out) = self.rx.try_recv() {
            if let bpeek::serve::screen::Out::Bytes(bytes) = out {
                self.vt.process(&bytes);
            }
        }
    }

    /// What the emulator shows, colours and all, once the frames sent so
    /// far are in.
    fn formatted(&mut self) -> String {
        self.read_sent();
        self.vt.screen().contents_formatted()
    }
}

#[test]
fn a_served_student_who_changes_how_the_corpus_looks_sees_it_at_once() {
    use bpeek::tui::action::Toggle;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut student = seated(&class, Role::Student, &mut seats);
    goto(&mut teacher, 3);
    update(&mut student, Action::ClassChanged);
    let mut served = Served::new(80, 24);
    update(&mut student, Action::Resize(80, 24));
    let plain = served.draw(&mut student);
    assert!(plain[2].contains("The Harbour Bakery"), "{plain:#?}");
    update(&mut student, Action::Toggle(Toggle::Separators));
    let parted = served.draw(&mut student);
    assert!(parted[2].contains("T│h"), "{parted:#?}");
    update(&mut student, Action::Toggle(Toggle::Whitespace));
    let glyphs = served.draw(&mut student);
    assert!(glyphs[2].contains("│·│"), "{glyphs:#?}");
    update(&mut student, Action::Toggle(Toggle::Separators));
    update(&mut student, Action::Toggle(Toggle::Whitespace));
    assert_eq!(served.draw(&mut student), plain);
}

/// Every key of the explorer that a student can press, from the key table.
fn keys_of_the_table() -> Vec<crossterm::event::KeyCode> {
    use bpeek::tui::keymap::{BINDINGS, Key};
    use crossterm::event::KeyCode;
    let mut keys: Vec<KeyCode> = BINDINGS
        .iter()
        .flat_map(|b| b.keys.iter())
        .filter_map(|k| match k {
            Key::Code(code) => Some(*code),
            _ => None,
        })
        .filter(|code| *code != KeyCode::Char('q'))
        .collect();
    keys.sort_by_key(|k| format!("{k:?}"));
    keys.dedup();
    keys
}

/// A xorshift generator: the same numbers on every run.
struct Xorshift(u64);

impl Xorshift {
    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A student's turn in a class's random walk: it takes the class's change,
/// presses a random key of the table one time in `key_every`, and goes
/// back to following (Esc, then F) one time in `back_every`.
fn student_turn(
    s: &mut App,
    keys: &[crossterm::event::KeyCode],
    below: &mut impl FnMut(usize) -> usize,
    key_every: usize,
    back_every: usize,
) {
    update(s, Action::ClassChanged);
    if below(key_every) == 0 {
        key(s, keys[below(keys.len())]);
        finish_job(s);
    }
    if below(back_every) == 0 {
        key(s, crossterm::event::KeyCode::Esc);
        key(s, crossterm::event::KeyCode::Char('F'));
    }
}

#[test]
fn followers_who_share_whole_screens_each_see_exactly_their_own() {
    for seed in [
        0x9E37_79B9_7F4A_7C15u64,
        0x2545_F491_4F6C_DD1D,
        0xD1B5_4A32_D192_ED03,
    ] {
        random_walk_of_a_class(seed);
    }
}

/// A class of six whose students press random keys of the table while the
/// teacher steps and jumps: every screen a student copies from another
/// equals the one it would draw alone.
fn random_walk_of_a_class(seed: u64) {
    use ratatui::backend::TestBackend;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let keys = keys_of_the_table();
    let sizes = [
        (100, 30),
        (80, 24),
        (100, 30),
        (120, 40),
        (100, 30),
        (80, 24),
    ];
    let mut students: Vec<(App, ratatui::Terminal<TestBackend>)> = sizes
        .iter()
        .enumerate()
        .map(|(i, &(w, h))| {
            let mut app = seated(&class, Role::Student, &mut seats);
            // One screen of the same size without colour, one in ASCII.
            match i {
                2 => app.theme = bpeek::tui::theme::Theme::new(false, false),
                4 => app.theme = bpeek::tui::theme::Theme::new(true, true),
                _ => {}
            }
            (app, ratatui::Terminal::new(TestBackend::new(w, h)).unwrap())
        })
        .collect();
    let copies_before = bpeek::tui::view::shared_frame::copies();
    let mut rng = Xorshift(seed);
    let mut below = |n: usize| rng.below(n);
    for round in 0..150 {
        match below(4) {
            0 => goto(&mut teacher, below(40)),
            1 => {
                update(&mut teacher, Action::Step);
                update(&mut teacher, Action::Publish);
            }
            _ => {}
        }
        for (i, (s, terminal)) in students.iter_mut().enumerate() {
            // Most students mostly watch; now and then one presses a key.
            student_turn(s, &keys, &mut below, 5, 8);
            // The frames themselves are compared: a terminal's own copy keeps
            // cells that a wide character hides, from earlier frames.
            let shared = terminal
                .draw(|frame| {
                    bpeek::tui::view::shared_frame::draw(frame, s);
                })
                .unwrap()
                .buffer
                .clone();
            let (w, h) = sizes[i];
            let mut alone = ratatui::Terminal::new(TestBackend::new(w, h)).unwrap();
            let drawn_alone = alone
                .draw(|frame| bpeek::tui::view::draw(frame, s))
                .unwrap()
                .buffer
                .clone();
            assert!(
                shared == drawn_alone,
                "student {i} in round {round}:\n{}\n--- drawn alone:\n{}",
                common::rows_of(terminal.backend()).join("\n"),
                common::rows_of(alone.backend()).join("\n"),
            );
        }
    }
    let copied = bpeek::tui::view::shared_frame::copies() - copies_before;
    assert!(copied > 50, "only {copied} screens were shared");
}

/// Text of several scripts, whose rows the backend rewrites whole.
fn scripts_corpus() -> String {
    let lines = [
        "the player played and the players play",
        "नमस्ते दुनिया, हिंदी में लिखा पाठ",
        "ภาษาไทย เขียนโดยไม่มีช่องว่าง",
        "👍🏽 good 🧑🏿‍💻 coder 🇫🇷 flag ✔️ done",
        "பழமையான தமிழ் மொழி",
    ];
    let mut text = String::new();
    for round in 0..40 {
        text.push_str(lines[round % lines.len()]);
        text.push_str(if round % 3 == 0 { " again\n" } else { "\n" });
    }
    text
}

#[test]
fn followers_sent_shared_bytes_see_the_frames_they_would_draw_alone() {
    // How much is shared depends on the walk (a student who turned a mode
    // on shares with no one until it is off): several walks together must
    // share, each frame of each equal to the one drawn alone.
    let sent_before = bpeek::tui::frames::sent_shared();
    for seed in [
        0x9E37_79B9_7F4A_7C15u64,
        0x2545_F491_4F6C_DD1D,
        0xD1B5_4A32_D192_ED03,
    ] {
        walk_of_a_class_sent_shared_bytes(seed);
    }
    let sent = bpeek::tui::frames::sent_shared() - sent_before;
    assert!(sent > 20, "only {sent} frames were sent as shared bytes");
}

/// A class of five on a corpus of many scripts, students pressing random
/// keys while the teacher steps and jumps; each student's frame, as sent
/// (possibly another's bytes), equals the frame drawn for it alone.
fn walk_of_a_class_sent_shared_bytes(seed: u64) {
    let dir = scratch::Scratch::new(&format!("shared-bytes-{seed:x}"));
    let corpus = dir.file("scripts.txt", scripts_corpus());
    let options = bpeek::tui::options::args::TrainingOptions {
        corpus: Some(corpus.to_string_lossy().into_owned()),
        ..Default::default()
    };
    let on_corpus = || App::from_options(&options, bpeek::tui::theme::Theme::plain()).unwrap();
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated_in(&class, Role::Teacher, &mut seats, on_corpus());
    let keys = keys_of_the_table();
    let sizes = [(100, 30), (100, 30), (80, 24), (100, 30), (80, 24)];
    // Each student's served terminal, where frames may be another's bytes,
    // and beside it one where every frame is drawn alone.
    let mut students: Vec<(App, Served, bpeek::tui::frames::Shown, Served)> = sizes
        .iter()
        .map(|&(w, h)| {
            let app = seated_in(&class, Role::Student, &mut seats, on_corpus());
            (
                app,
                Served::new(w, h),
                Default::default(),
                Served::new(w, h),
            )
        })
        .collect();
    let mut rng = Xorshift(seed);
    let mut below = |n: usize| rng.below(n);
    for round in 0..120 {
        match below(3) {
            0 => goto(&mut teacher, below(60)),
            _ => {
                update(&mut teacher, Action::Step);
                update(&mut teacher, Action::Publish);
            }
        }
        for (i, (s, wire, shown, alone)) in students.iter_mut().enumerate() {
            // Now and then a student presses a key of its own, and comes
            // back to following.
            student_turn(s, &keys, &mut below, 6, 6);
            bpeek::tui::frames::draw(&mut wire.terminal, s, shown).unwrap();
            let mut fresh = bpeek::tui::frames::Shown::default();
            bpeek::tui::frames::draw(&mut alone.terminal, s, &mut fresh).unwrap();
            let (sent, drawn) = (wire.formatted(), alone.formatted());
            assert!(
                sent == drawn,
                "student {i} in round {round}:\n{}\n--- drawn alone:\n{}",
                wire.vt.screen().contents(),
                alone.vt.screen().contents()
            );
        }
    }
}

#[test]
fn text_the_teacher_types_and_trains_on_becomes_the_class_corpus() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut student = seated(&class, Role::Student, &mut seats);
    // A student exploring alone trains on text of its own first: its typed
    // corpus never passes for the teacher's.
    let mut alone = seated(&class, Role::Student, &mut seats);
    alone.classroom.as_mut().unwrap().following = false;
    update(&mut alone, Action::Paste("aaaa bbbb".into()));
    update(&mut alone, Action::StopEditing);
    update(&mut alone, Action::TrainOnTyped);
    let own = alone.corpus_name().to_string();
    // Numbered in its own explorer, and called its own.
    assert_eq!(own, "own typed 1");

    goto(&mut teacher, 5);
    update(&mut student, Action::ClassChanged);
    assert_eq!(student.trainer().merges().len(), 5);

    update(
        &mut teacher,
        Action::Paste("banana bandana banana bandana".into()),
    );
    update(&mut teacher, Action::StopEditing);
    update(&mut teacher, Action::TrainOnTyped);
    update(&mut teacher, Action::Publish);
    assert_eq!(teacher.corpus_name(), "typed 1");
    assert_ne!(teacher.corpus_name(), own);
    assert_eq!(
        teacher.trainer().corpus().text(),
        b"banana bandana banana bandana"
    );
    assert_eq!(teacher.trainer().merges().len(), 0, "training starts again");

    update(&mut student, Action::ClassChanged);
    assert_eq!(student.corpus_name(), teacher.corpus_name());
    assert_eq!(
        student.trainer().corpus().text(),
        teacher.trainer().corpus().text()
    );

    // The class steps through the typed corpus with the teacher, and the
    // merges are those of training on that text alone.
    for _ in 0..3 {
        update(&mut teacher, Action::Step);
        update(&mut teacher, Action::Publish);
        update(&mut student, Action::ClassChanged);
        finish_job(&mut student);
    }
    let mut solo = default_app();
    update(
        &mut solo,
        Action::Paste("banana bandana banana bandana".into()),
    );
    update(&mut solo, Action::StopEditing);
    update(&mut solo, Action::TrainOnTyped);
    for _ in 0..3 {
        update(&mut solo, Action::Step);
    }
    assert_eq!(student.trainer().merges(), solo.trainer().merges());
    assert_eq!(teacher.trainer().merges(), solo.trainer().merges());

    // The teacher goes back to a bundled corpus: so does the class.
    update(&mut teacher, Action::PrevCorpus);
    update(&mut teacher, Action::Publish);
    update(&mut student, Action::ClassChanged);
    finish_job(&mut student);
    assert_eq!(student.corpus_name(), teacher.corpus_name());
}

/// Draws `app` through the class's screen cache and alone, at one size.
fn shared_and_alone(app: &mut App) -> (ratatui::buffer::Buffer, ratatui::buffer::Buffer) {
    use ratatui::backend::TestBackend;
    let mut shared = ratatui::Terminal::new(TestBackend::new(100, 30)).unwrap();
    let mut alone = ratatui::Terminal::new(TestBackend::new(100, 30)).unwrap();
    let a = shared
        .draw(|frame| {
            bpeek::tui::view::shared_frame::draw(frame, app);
        })
        .unwrap()
        .buffer
        .clone();
    let b = alone
        .draw(|frame| bpeek::tui::view::draw(frame, app))
        .unwrap()
        .buffer
        .clone();
    (a, b)
}

#[test]
fn a_follower_comparing_configurations_never_takes_a_screen_without_them() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    goto(&mut teacher, 12);
    let mut plain = seated(&class, Role::Student, &mut seats);
    let mut comparing = seated(&class, Role::Student, &mut seats);
    for s in [&mut plain, &mut comparing] {
        update(s, Action::ClassChanged);
    }
    // The first follower's screen is drawn and kept for the class.
    let (shared, alone) = shared_and_alone(&mut plain);
    assert!(shared == alone);
    // The second, on the same trainer at the same size, compares its
    // configuration with another tie rule: a column the first does not have.
    let mut other = comparing.options.clone();
    other.tie = bpeek::bpe::TieRule::Hf;
    let trainer = std::sync::Arc::clone(&comparing.loaded().trainer);
    update(
        &mut comparing,
        Action::Compare(bpeek::tui::compare::Trained(vec![(other, trainer.into())])),
    );
    finish_job(&mut comparing);
    let (shared, alone) = shared_and_alone(&mut comparing);
    assert!(
        shared == alone,
        "a comparing follower was shown another's screen"
    );
}

#[test]
fn a_students_q_says_that_the_teacher_asks_and_a_class_whose_teacher_left_says_so() {
    let class = class();
    let mut seats = Vec::new();
    let mut student = seated(&class, Role::Student, &mut seats);
    let status = |app: &App| app.classroom.as_ref().unwrap().status();
    assert!(
        status(&student).starts_with("no teacher yet"),
        "{}",
        status(&student)
    );

    key(&mut student, crossterm::event::KeyCode::Char('Q'));
    let notice = student.notice.clone().unwrap_or_default();
    assert!(notice.contains("Q is the teacher's"), "{notice:?}");

    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    goto(&mut teacher, 2);
    update(&mut student, Action::ClassChanged);
    assert!(status(&student).starts_with("following the teacher"));
    // The teacher's seat goes: the class keeps where it stood, and says who left.
    drop(seats.pop());
    drop(teacher);
    update(&mut student, Action::ClassChanged);
    assert!(
        status(&student).starts_with("the teacher left"),
        "{}",
        status(&student)
    );
}

/// Column 1's trainer: the one added after the focused column.
fn column(app: &App) -> Arc<bpeek::bpe::Trainer> {
    let c = app.compare.as_ref().expect("a comparison");
    let loaded = c.columns[1].loaded.as_ref().expect("an unfocused column");
    Arc::clone(&loaded.trainer)
}

#[test]
fn a_column_many_students_compare_is_counted_and_trained_once_for_the_class() {
    use bpeek::tui::compare::Change;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut students: Vec<App> = (0..3)
        .map(|_| seated(&class, Role::Student, &mut seats))
        .collect();
    goto(&mut teacher, 40);
    for s in &mut students {
        update(s, Action::ClassChanged);
        // Each adds the same column: the tie rule changed.
        update(s, Action::AddColumn(Change::Tie));
        finish_job(s);
        while s.compare.as_ref().is_some_and(|c| c.behind) {
            update(s, Action::CompareMore);
        }
    }
    let first = column(&students[0]);
    assert_eq!(first.merges().len(), 40);
    for s in &students[1..] {
        assert!(
            Arc::ptr_eq(&column(s), &first),
            "a student's column is the class's, not trained again"
        );
    }

    // The teacher moves on; the followers' columns follow it, trained once.
    goto(&mut teacher, 55);
    for s in &mut students {
        update(s, Action::ClassChanged);
        finish_job(s);
        while s.compare.as_ref().is_some_and(|c| c.behind) {
            update(s, Action::CompareMore);
        }
    }
    let moved = column(&students[0]);
    assert_eq!(moved.merges().len(), 55);
    for s in &students[1..] {
        assert!(Arc::ptr_eq(&column(s), &moved));
    }

    // Exact: the shared column is the one a student alone would train.
    let mut solo = default_app();
    update(&mut solo, Action::AddColumn(Change::Tie));
    update(&mut solo, Action::Goto(55));
    finish_job(&mut solo);
    while solo.compare.as_ref().is_some_and(|c| c.behind) {
        update(&mut solo, Action::CompareMore);
    }
    assert_eq!(column(&solo).merges(), moved.merges());
    assert_eq!(
        students[0].compare.as_ref().unwrap().columns[1].options,
        solo.compare.as_ref().unwrap().columns[1].options
    );
}

/// `n` bytes of words of two to seven letters, the same on every run.
fn random_words(n: usize) -> String {
    let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
    let mut text = String::with_capacity(n + 8);
    while text.len() < n {
        for _ in 0..2 + rng.below(6) {
            text.push(char::from(b'a' + rng.below(12) as u8));
        }
        text.push(if rng.below(12) == 0 { '\n' } else { ' ' });
    }
    text
}

#[test]
fn students_adding_the_same_column_at_the_same_moment_count_and_train_it_once() {
    use bpeek::tui::compare::Change;
    // A corpus large enough that counting and training take a while, so
    // that the sessions really do ask at the same time.
    let dir = scratch::Scratch::new("same-column");
    let corpus = dir.file("words.txt", random_words(1 << 21));
    let options = bpeek::tui::options::args::TrainingOptions {
        corpus: Some(corpus.to_string_lossy().into_owned()),
        ..Default::default()
    };
    let on_corpus = || App::from_options(&options, bpeek::tui::theme::Theme::plain()).unwrap();
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated_in(&class, Role::Teacher, &mut seats, on_corpus());
    goto(&mut teacher, 300);
    let students: Vec<App> = (0..4)
        .map(|_| seated_in(&class, Role::Student, &mut seats, on_corpus()))
        .collect();
    // Each on a thread of its own, as served sessions are, pressing the
    // same keys at once: the first claims the column, the others wait.
    let start = Arc::new(std::sync::Barrier::new(students.len()));
    let threads: Vec<_> = students
        .into_iter()
        .map(|mut s| {
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                start.wait();
                update(&mut s, Action::AddColumn(Change::Tie));
                let counted = column(&s);
                update(&mut s, Action::ClassChanged);
                finish_job(&mut s);
                while s.compare.as_ref().is_some_and(|c| c.behind) {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    update(&mut s, Action::CompareMore);
                }
                (counted, column(&s), s)
            })
        })
        .collect();
    let done: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let (counted, trained, _) = &done[0];
    assert_eq!(trained.merges().len(), 300);
    for (c, t, _) in &done[1..] {
        assert!(Arc::ptr_eq(c, counted), "a column counted twice");
        assert!(Arc::ptr_eq(t, trained), "a column trained twice");
    }
}

#[test]
fn a_column_waiting_for_another_session_is_drawn_without_a_difference_it_has_not_reached() {
    use bpeek::tui::class::{ColumnClaim, ColumnKey};
    use bpeek::tui::compare::Change;
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    goto(&mut teacher, 200);
    let mut student = seated(&class, Role::Student, &mut seats);
    update(&mut student, Action::ClassChanged);
    update(&mut student, Action::AddColumn(Change::Pretok));
    while student.compare.as_ref().is_some_and(|c| c.behind) {
        update(&mut student, Action::CompareMore);
    }
    let first = student.compare.as_ref().unwrap().first;
    assert!(first.is_some(), "the pre-tokenizers part early");

    // Another session is taking a column of another tie rule to merge 200
    // for the class, right now.
    let key = ColumnKey {
        corpus: student.corpus_name().to_string(),
        options: Change::Tie.apply(&student.options).unwrap(),
        at: Some(bpeek::tui::mark::Mark::of(student.trainer())),
    };
    let ColumnClaim::Yours(hold) = class.link(seats[0].id).claim_column(&key, None) else {
        panic!("nobody had claimed the column");
    };
    update(&mut student, Action::AddColumn(Change::Tie));
    let c = student.compare.as_ref().unwrap();
    assert!(c.behind && c.waiting, "the student waits for the class");
    assert_eq!(c.lists[2].len(), 0);
    // Drawn as it stands: no difference at a rank the new column lacks.
    let (shared, alone) = shared_and_alone(&mut student);
    assert!(shared == alone);
    let text = bpeek::tui::view::compare::difference_text(&student).unwrap();
    assert!(
        text.contains("the lists hold the same 0 first merges"),
        "{text}"
    );

    // The other session let its claim go: the student takes the column
    // there itself.
    drop(hold);
    while student.compare.as_ref().is_some_and(|c| c.behind) {
        update(&mut student, Action::CompareMore);
    }
    let c = student.compare.as_ref().unwrap();
    assert_eq!(c.lists[2].len(), 200);
    assert!(c.first.is_some_and(|r| r <= first.unwrap()));
}

#[test]
fn a_student_past_its_memory_budget_lets_its_own_work_go_and_is_refused_more_until_there_is_room() {
    let class = class();
    let mut seats = Vec::new();
    let mut teacher = seated(&class, Role::Teacher, &mut seats);
    let mut student = seated(&class, Role::Student, &mut seats);
    goto(&mut teacher, 3);
    update(&mut student, Action::ClassChanged);
    finish_job(&mut student);
    // The student explores alone and compares a configuration of its own.
    update(&mut student, Action::AskToExplore(Box::new(Action::Step)));
    update(&mut student, Action::AnswerExplore(true));
    update(
        &mut student,
        Action::AddColumn(bpeek::tui::compare::Change::Tie),
    );
    assert!(student.compare.is_some());
    assert_eq!(student.trainer().merges().len(), 4);

    let why = "your session holds 30 MB, past a student's budget of 20 MB".to_string();
    update(&mut student, Action::MemoryBudget(Some(why.clone())));
    finish_job(&mut student);
    assert!(student.compare.is_none(), "the columns are let go");
    assert!(student.classroom.as_ref().unwrap().following);
    assert_eq!(student.trainer().merges().len(), 3, "back with the teacher");
    assert_eq!(student.notice.as_deref(), Some(why.as_str()));

    // Work of its own is refused, said each time; the teacher's steps go on.
    for refused in [
        Action::AskToExplore(Box::new(Action::Step)),
        Action::AddColumn(bpeek::tui::compare::Change::Tie),
        Action::TrainOnTyped,
    ] {
        student.notice = None;
        update(&mut student, refused);
        assert_eq!(student.notice.as_deref(), Some(why.as_str()));
    }
    assert!(student.compare.is_none());
    goto(&mut teacher, 5);
    update(&mut student, Action::ClassChanged);
    finish_job(&mut student);
    assert_eq!(student.trainer().merges().len(), 5);

    // Room again: the student's own work goes.
    update(&mut student, Action::MemoryBudget(None));
    update(
        &mut student,
        Action::AddColumn(bpeek::tui::compare::Change::Tie),
    );
    assert!(student.compare.is_some());
}

/// A class in Unigram mode: followers train the teacher's Unigram options
/// and stand at the teacher's step after every move, back and forth; a
/// student's own step is asked about first.
#[test]
fn followers_go_to_the_teachers_unigram_step() {
    use bpeek::tui::options::args::TrainingOptions;
    use bpeek::tui::options::unigram::{ModelKind, UnigramOptions};
    let options = TrainingOptions {
        unigram: UnigramOptions {
            model: ModelKind::Unigram,
            em_iterations: Some(1),
            ..Default::default()
        },
        ..TrainingOptions::default()
    };
    let theme = bpeek::tui::theme::Theme::plain();
    let class = class();
    let mut seats = Vec::new();
    let unigram_app = || App::unigram(&options, theme).unwrap();
    let mut teacher = seated_in(&class, Role::Teacher, &mut seats, unigram_app());
    let mut students: Vec<App> = (0..2)
        .map(|_| seated_in(&class, Role::Student, &mut seats, unigram_app()))
        .collect();
    let step_of = |a: &App| a.unigram.as_ref().unwrap().trainer.step_count();
    for (keys, want) in [
        (vec![Action::Step; 3], 3),
        (vec![Action::Undo], 2),
        (vec![Action::Goto(7)], 7),
    ] {
        for a in keys {
            update(&mut teacher, a);
            // A go-to runs a step a slice, as between frames.
            finish_job(&mut teacher);
        }
        update(&mut teacher, Action::Publish);
        assert_eq!(step_of(&teacher), want);
        for s in &mut students {
            update(s, Action::ClassChanged);
            assert_eq!(step_of(s), want, "a follower stands at the teacher's step");
            let (mine, theirs) = (
                &s.unigram.as_ref().unwrap().trainer,
                &teacher.unigram.as_ref().unwrap().trainer,
            );
            assert_eq!(
                mine.config(),
                theirs.config(),
                "trained with the teacher's options"
            );
            assert_eq!(mine.steps(), theirs.steps());
        }
    }
    let n = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('n'),
        crossterm::event::KeyModifiers::NONE,
    );
    let action = bpeek::tui::keymap::action_of_key(&students[0], &n).unwrap();
    update(&mut students[0], action);
    assert_eq!(
        step_of(&students[0]),
        7,
        "a follower's own step waits for its yes"
    );
    assert!(students[0].classroom.as_ref().unwrap().asking.is_some());
}
