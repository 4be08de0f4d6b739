//! Follow the teacher: the part of a classroom the explorer itself knows.
//!
//! A served explorer has a [`Classroom`]: the teacher's publishes its
//! training state (corpus, merge, phase, autoplay) after every change; a
//! student's follows that state while it follows, and asks before a key of
//! its own would leave it. Only state travels, never frames, so every
//! screen keeps its own size. How the state gets from one explorer to the
//! others is the [`ClassLink`]'s business (the SSH server's).

pub mod columns;
pub mod follow;
pub mod question;
pub mod rehearsal;

use crate::action::Action;
use crate::mark::PhaseName;
use bpeek_core::Trainer;
pub use columns::ColumnClaim;
use std::sync::{Arc, Weak};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Teacher,
    Student,
}

/// Where the teacher's training stands: what followers seek to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainingState {
    /// Index of the corpus among the explorer's sources (the same list in
    /// every session of one server).
    pub corpus: usize,
    pub merges: usize,
    pub phase: PhaseName,
    pub autoplay: bool,
}

/// The teacher's own trainer, where the teacher stands. A follower shows
/// it instead of training to the same place itself: 100 followers of a
/// go-to 20,000 cost one training, not 100, and one trainer's memory.
/// The class holds it weakly, so a teacher alone never copies its trainer
/// to step on; with followers, the teacher's next step copies it once.
#[derive(Clone)]
pub struct SharedTrainer {
    pub state: TrainingState,
    /// The corpus's name: the trainer fits only an explorer whose source
    /// of that index has that name.
    pub corpus: String,
    pub trainer: Weak<Trainer>,
}

impl SharedTrainer {
    /// The trainer, if it is still where `state` says and someone holds it.
    pub fn at(&self, state: TrainingState) -> Option<Arc<Trainer>> {
        let same = TrainingState {
            autoplay: false,
            ..self.state
        } == TrainingState {
            autoplay: false,
            ..state
        };
        if !same {
            return None;
        }
        self.trainer.upgrade()
    }
}

/// A question for the class as one explorer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionView {
    pub id: u64,
    /// Where it was asked.
    pub at: TrainingState,
    pub votes: usize,
    /// Votes for the winner (shown to the teacher only).
    pub right: usize,
    /// This session's vote.
    pub mine: Option<bpeek_core::Pair>,
    /// Votes per pair, most first (shown to the teacher, on a key).
    pub tally: Vec<(bpeek_core::Pair, usize)>,
    pub tally_shown: bool,
    /// The winner, once the teacher has revealed it.
    pub winner: Option<bpeek_core::Pair>,
}

/// A compare column as the class shares it: its configuration, trained on
/// one of the server's own corpora (never a typed one, whose text differs
/// between sessions), at a point of training (`None`: just counted; a
/// Unigram column's size is its options' `vocab_size`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnKey {
    pub corpus: String,
    pub options: crate::options::args::TrainingOptions,
    pub at: Option<crate::mark::Mark>,
}

/// Who is connected, for the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassCounts {
    pub students: usize,
    /// Students following the teacher.
    pub following: usize,
    pub teacher: bool,
}

/// The explorer's line to the rest of the class.
pub trait ClassLink: Send {
    /// The teacher's state changed (called for the teacher only), with
    /// its trainer at that state for followers to share.
    fn publish(&self, state: TrainingState, shared: Option<SharedTrainer>);
    /// The teacher's latest state, if a teacher is connected.
    fn teacher(&self) -> Option<TrainingState>;
    /// This student now follows (or not).
    fn set_following(&self, following: bool);
    fn counts(&self) -> ClassCounts;
    /// Where the class stood when its last teacher left: a teacher who
    /// logs in again starts there, not at merge 0.
    fn resume(&self) -> Option<TrainingState> {
        None
    }
    /// The teacher's trainer as last published, if it is still held.
    fn shared(&self) -> Option<SharedTrainer> {
        None
    }
    /// The teacher asks "which pair wins?" at `at`, whose answer is
    /// `winner`; false where there is no class to ask.
    fn ask(&self, _at: TrainingState, _winner: bpeek_core::Pair) -> bool {
        false
    }
    /// The teacher shows (or hides) the tally on its own screen.
    fn show_tally(&self, _on: bool) {}
    /// The teacher moved on: reveal the answer (`true`) or withdraw the
    /// question.
    fn close_question(&self, _reveal: bool, _label: &dyn Fn(bpeek_core::Pair) -> String) {}
    /// This session votes.
    fn vote(&self, _pair: bpeek_core::Pair) {}
    /// The question open (or just revealed), as this session sees it.
    fn question(&self) -> Option<QuestionView> {
        None
    }
    /// A compare column the class counted or trained already, or the
    /// claim to compute it: the class computes a configuration once,
    /// however many students compare it. While another session computes
    /// it, wait up to `wait` for its result (`None`: answer at once); past
    /// that, the answer is `Busy`.
    fn claim_column(&self, _key: &ColumnKey, _wait: Option<std::time::Duration>) -> ColumnClaim {
        ColumnClaim::Yours(columns::ClaimHold::new())
    }
    /// Offer a column this session counted or trained to the others (its
    /// claim, if it had one, is answered).
    fn keep_column(&self, _key: ColumnKey, _trainer: &crate::compare::ColumnTrainer) {}
    /// A class of one, rehearsing the question (see [`rehearsal`]).
    fn rehearsal(&self) -> bool {
        false
    }
}

pub struct Classroom {
    pub role: Role,
    /// A student follows the teacher until it chooses to explore alone.
    pub following: bool,
    /// A training key a follower pressed, waiting for "explore on your own?".
    pub asking: Option<Action>,
    /// The line to the rest of the class.
    pub link: Box<dyn ClassLink>,
    /// What a teacher last told the class (published again only on change).
    pub published: Option<TrainingState>,
    /// The question open in the class, as this session last read it.
    pub question: Option<QuestionView>,
    /// A student's ballot cursor.
    pub ballot_at: usize,
    /// The last question this student was told of, and told the answer to.
    pub asked: Option<u64>,
    pub answered: Option<u64>,
    /// Why a student's own work is refused: its session is past its
    /// memory budget (said again at each refusal).
    pub memory_full: Option<String>,
}

impl std::fmt::Debug for Classroom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classroom")
            .field("role", &self.role)
            .field("following", &self.following)
            .field("asking", &self.asking)
            .finish()
    }
}

impl Classroom {
    pub fn new(role: Role, link: Box<dyn ClassLink>) -> Self {
        Classroom {
            role,
            following: role == Role::Student,
            asking: None,
            link,
            published: None,
            question: None,
            ballot_at: 0,
            asked: None,
            answered: None,
            memory_full: None,
        }
    }

    /// The status line's item: role, follow state, who is there.
    pub fn status(&self) -> String {
        let counts = self.link.counts();
        let students = match counts.students {
            1 => "1 student".to_string(),
            n => format!("{n} students"),
        };
        let question = match &self.question {
            Some(q) if q.winner.is_none() && self.role == Role::Teacher => {
                format!(", question: {} voted", q.votes)
            }
            Some(q) if q.winner.is_none() && self.following => match q.mine {
                Some(_) => ", you voted".to_string(),
                None => ", question: vote".to_string(),
            },
            _ => String::new(),
        };
        let status = match self.role {
            Role::Teacher if self.link.rehearsal() => "rehearsing the question alone".to_string(),
            Role::Teacher => format!("teacher, {students}, {} follow", counts.following),
            Role::Student if !self.following => format!("on your own (F follows), {students}"),
            // A class whose teacher left keeps where it stood.
            Role::Student if !counts.teacher && self.link.resume().is_some() => {
                format!("the teacher left, {students}")
            }
            Role::Student if !counts.teacher => format!("no teacher yet, {students}"),
            Role::Student => format!("following the teacher, {students}"),
        };
        status + &question
    }
}
