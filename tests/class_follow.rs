//! Followers in a class take the teacher's own trainer: however many
//! students and however far the teacher jumps, training happens once.

mod common;

use bpeek::serve::class::{Class, Limits, Startups};
use bpeek::serve::incoming::Inbox;
use bpeek::tui::classroom::{Classroom, Role};
use bpeek::tui::{Action, App, follow, update};
use common::{default_app, finish_job};
use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::Duration;

fn class() -> Arc<Class> {
    Class::new(Limits {
        max_sessions: 8,
        per_address: 16,
        rate_per_address: 600,
        idle_timeout: Duration::from_secs(600),
        login_timeout: Duration::from_secs(20),
        stall_timeout: Duration::from_secs(60),
        max_session_time: None,
        startups: Startups::parse("10:30:100", 16).unwrap(),
        max_memory: None,
    })
}

/// An explorer seated in `class` as `role`; the seat lives as long as the
/// class holds it here.
fn seated(class: &Arc<Class>, role: Role, seats: &mut Vec<bpeek::serve::class::Seat>) -> App {
    let seat = class.join(Ipv4Addr::LOCALHOST.into()).unwrap();
    let (inbox, _rx) = Inbox::new();
    class.start_session(seat.id, role, inbox).unwrap();
    let mut app = default_app();
    app.classroom = Some(Classroom::new(role, class.link(seat.id)));
    seats.push(seat);
    app
}

fn goto(app: &mut App, merges: usize) {
    update(app, Action::Goto(merges));
    finish_job(app);
    follow::after_event(app);
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
        follow::on_class_change(s);
        assert_eq!(s.trainer().merges().len(), 60);
        assert!(
            Arc::ptr_eq(&s.loaded().trainer, &teacher.loaded().trainer),
            "a follower holds the teacher's trainer, not a copy"
        );
        assert!(s.job.is_none(), "nothing left to train");
    }

    // The teacher moves on: it copies the trainer once and steps the copy;
    // the followers still show merge 60 until they follow again.
    update(&mut teacher, Action::Step);
    follow::after_event(&mut teacher);
    assert_eq!(students[0].trainer().merges().len(), 60);
    for s in &mut students {
        follow::on_class_change(s);
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
        follow::on_class_change(&mut student);
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
    follow::on_class_change(&mut student);
    assert_eq!(Arc::strong_count(&teacher.loaded().trainer), 2);
    drop(student);
    update(&mut teacher, Action::Step);
    assert_eq!(teacher.trainer().merges().len(), 6);
}
