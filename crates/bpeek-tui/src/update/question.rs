//! "Which pair wins?" as the explorer's actions: the teacher asks and
//! reveals, a student moves the ballot's cursor and votes, and every
//! explorer reads the question again when the class changes. What is on a
//! ballot and who sees what is read in `class::question`.

use crate::action::Action;
use crate::app::App;
use crate::class::follow::state_of;
use crate::class::question::{ballot, open_ballot, pair_label, same_place};
use crate::class::{QuestionView, Role};
use crate::keymap;
use crate::mark::PhaseName;
use bpeek_core::{Pair, Phase};

/// The teacher's key: ask, or with a question open, show or hide the tally.
pub(super) fn ask(app: &mut App) {
    let state = state_of(app);
    let counted = matches!(app.trainer().phase(), Phase::Counted);
    let winner = app.trainer().peek_choice().ok().map(|c| c.pair);
    let key = keymap::keys_of(&Action::AskClass);
    if app.classroom.is_none() {
        // No class: the teacher rehearses the question alone.
        let link = Box::new(crate::class::rehearsal::Rehearsal::default());
        app.classroom = Some(crate::class::Classroom::new(Role::Teacher, link));
    }
    let Some(class) = app.classroom.as_mut() else {
        return;
    };
    if class.role != Role::Teacher {
        app.notice = Some(format!(
            "{key} is the teacher's: the teacher asks the class which pair wins, and you vote"
        ));
        return;
    }
    if let Some(q) = &class.question
        && q.winner.is_none()
    {
        let on = !q.tally_shown;
        class.link.show_tally(on);
        class.question = class.link.question();
        app.notice = Some(if on {
            format!("the tally is on this screen ({key} hides it); . reveals the answer")
        } else {
            format!("tally hidden ({key} shows it)")
        });
        return;
    }
    let rehearsal = class.link.rehearsal();
    let (true, Some(winner)) = (counted, winner) else {
        if rehearsal {
            app.classroom = None;
        }
        app.notice = Some(
            "the question is asked when the pairs are counted: . until the phase is counted".into(),
        );
        return;
    };
    if class.link.ask(state, winner) {
        class.question = class.link.question();
        let whom = if rehearsal {
            "a rehearsal, no class"
        } else {
            "asked the class"
        };
        app.notice = Some(format!(
            "{whom}: which pair wins? {key} shows the tally, . reveals the answer"
        ));
    }
}

/// A student moves the ballot's cursor.
pub(super) fn move_cursor(app: &mut App, down: bool) {
    let n = ballot(app.trainer()).len();
    if let Some(class) = app.classroom.as_mut()
        && n > 0
    {
        class.ballot_at = if down {
            (class.ballot_at + 1).min(n - 1)
        } else {
            class.ballot_at.saturating_sub(1)
        };
    }
}

/// A student votes for the pair under the cursor.
pub(super) fn vote(app: &mut App) {
    if open_ballot(app).is_none() {
        return;
    }
    let pairs = ballot(app.trainer());
    let Some(class) = app.classroom.as_ref() else {
        return;
    };
    let Some(&(pair, _)) = pairs.get(class.ballot_at.min(pairs.len().saturating_sub(1))) else {
        return;
    };
    let label = pair_label(app, pair);
    if let Some(class) = app.classroom.as_mut() {
        class.link.vote(pair);
        class.question = class.link.question();
    }
    app.notice = Some(format!(
        "you voted {label}; you may change your vote until the teacher reveals the answer"
    ));
}

/// The class changed: read the question again, and tell a student who
/// voted whether the revealed answer was theirs.
pub(super) fn read_question(app: &mut App) {
    let labels = |app: &App, q: &QuestionView| {
        (
            q.winner.map(|w| pair_label(app, w)),
            q.mine.map(|m| pair_label(app, m)),
        )
    };
    let Some(class) = app.classroom.as_mut() else {
        return;
    };
    let before = class.question.as_ref().map(|q| q.id);
    class.question = class.link.question();
    if before != class.question.as_ref().map(|q| q.id) {
        class.ballot_at = 0;
    }
    let Some(q) = class.question.clone() else {
        return;
    };
    if class.role != Role::Student || q.winner.is_none() || class.answered == Some(q.id) {
        if class.role == Role::Student && q.winner.is_none() && class.asked != Some(q.id) {
            class.asked = Some(q.id);
            app.notice =
                Some("the teacher asks: which pair wins? Up/Down pick a pair, Enter votes".into());
        }
        return;
    }
    class.answered = Some(q.id);
    let (winner, mine) = labels(app, &q);
    let winner = winner.unwrap_or_default();
    app.notice = Some(match (q.mine, mine) {
        (Some(m), _) if Some(m) == q.winner => format!("{winner} wins: you were right"),
        (Some(_), Some(mine)) => {
            format!("you voted {mine}; {winner} wins (the chosen pair's box says why)")
        }
        _ => format!("{winner} wins (the chosen pair's box says why)"),
    });
}

/// After the teacher's every move: moving on from where the question was
/// asked reveals it; going back withdraws it; it is put away once the
/// teacher is a round past it.
pub(super) fn after_teacher_move(app: &mut App) {
    let state = state_of(app);
    let Some(class) = app.classroom.as_ref() else {
        return;
    };
    let Some(q) = class.question.clone() else {
        return;
    };
    if class.role != Role::Teacher || same_place(q.at, state) {
        return;
    }
    let at = q.at;
    let forward = state.corpus == at.corpus
        && (state.merges > at.merges || (state.merges == at.merges && state.phase != at.phase));
    let past = state.merges > at.merges + 1
        || (state.merges == at.merges + 1 && state.phase != PhaseName::Counted);
    let label = |p: Pair| pair_label(app, p);
    if q.winner.is_none() && forward {
        class.link.close_question(true, &label);
    } else if !forward || past {
        class.link.close_question(false, &label);
    }
    let now = class.link.question();
    let notice = match (&now, q.winner) {
        (Some(n), None) if class.link.rehearsal() => n
            .winner
            .map(|w| format!("{} wins (a rehearsal: nobody voted)", label(w))),
        (Some(n), None) => n.winner.map(|w| {
            format!(
                "the class: {} voted, {} right; {} wins",
                n.votes,
                n.right,
                label(w)
            )
        }),
        _ => None,
    };
    if let Some(class) = app.classroom.as_mut() {
        // A rehearsal ends with its question.
        let over = class.link.rehearsal() && now.as_ref().is_none_or(|q| q.winner.is_some());
        class.question = now;
        if over {
            app.classroom = None;
        }
    }
    if notice.is_some() {
        app.notice = notice;
    }
}
