//! Everything a user can ask the explorer to do. Keys, pastes, resizes and
//! the autoplay clock all arrive as one of these, and so do finished
//! tokenizer loads.

use crate::fertility::tokenizers::LoadDone;
use crate::panes::encode_box::Move;

/// How far to move in the focused pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scroll {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
}

impl Scroll {
    /// Where a list scrolled to `at` goes, `page` rows to a page and
    /// `last` the furthest it may go.
    pub fn apply(self, at: usize, page: usize, last: usize) -> usize {
        match self {
            Scroll::Up => at.saturating_sub(1),
            Scroll::Down => at + 1,
            Scroll::PageUp => at.saturating_sub(page),
            Scroll::PageDown => at + page,
            Scroll::Top => 0,
            Scroll::Bottom => last,
        }
        .min(last)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Finish the current round: one more merge.
    Step,
    /// Take back the last merge (or the choice of the current round).
    Undo,
    /// One phase forward: counted -> chosen -> merged -> counted.
    Advance,
    /// Back to merge 0.
    Reset,
    /// Go to the state after this many merges, at once (tests, following
    /// the teacher); the go-to prompt and reset start a job instead.
    Goto(usize),
    /// Go to the teacher's point of training (merges and phase) as a job
    /// between frames, in place of any job under way.
    Follow(crate::mark::Mark),
    /// The teacher asks the class which pair wins (with a question open:
    /// shows or hides the tally).
    AskClass,
    /// A student moves the ballot's cursor (down if true).
    BallotMove(bool),
    /// A student votes for the pair under the ballot's cursor.
    Vote,
    /// The class changed (the teacher moved, someone came or went, the
    /// question changed): follow the teacher if following, read the
    /// question again, redraw the status line.
    ClassChanged,
    /// After every event: a teacher tells the class where it stands, if
    /// that changed (and reveals or withdraws its question).
    Publish,
    /// A teacher's explorer just opened: go where the class already is.
    ResumeClass,
    /// A line from the server for the notice line.
    Notice(String),
    /// A served student's memory budget: reached (with what to say), or
    /// room again (`None`). See `update::budget`.
    MemoryBudget(Option<String>),
    /// A following student's key would move training: ask "explore on
    /// your own?" and keep the key's action until the answer.
    AskToExplore(Box<Action>),
    /// The answer to "explore on your own?" (true: yes, the held action
    /// runs).
    AnswerExplore(bool),
    /// A student who explored follows the teacher again (`F`).
    FollowTeacher,
    /// Open the "go to merge" prompt.
    OpenGoto,
    /// Type into the prompt (digits only are kept).
    PromptType(char),
    PromptDelete,
    PromptSubmit,
    PromptCancel,
    ToggleAutoplay,
    /// Autoplay on or off, one phase of a round per tick.
    ToggleAutoplayPhases,
    Faster,
    Slower,
    /// The autoplay clock ticked.
    Tick,
    FocusNext,
    FocusPrev,
    /// Focus this pane (a click on it).
    FocusPane(crate::app::Focus),
    /// Select this merge of the merge list, by rank (a click on its row).
    SelectMerge(usize),
    /// Select the merge that made this token, or say that none did (a
    /// click on a token of the corpus).
    SelectMergeOf(bpeek_core::TokenId),
    /// Select the token at this place of the encode box, or of the
    /// fertility view's token line while it is open (a click on it).
    SelectToken(usize),
    /// Focus the band of this slot and select its token holding this byte
    /// of the text (a click on a band of every tokenizer's cut).
    SelectBandByte {
        slot: usize,
        byte: usize,
    },
    Scroll(Scroll),
    /// Scroll the corpus to the next place of what is highlighted.
    FindNext,
    StartEditing,
    StopEditing,
    /// Type one character into the encode box, at its cursor.
    Type(char),
    /// Pasted text, inserted at the cursor as it is (line breaks included).
    Paste(String),
    /// Move the encode box's cursor.
    MoveCursor(Move),
    /// Delete the character before the cursor.
    DeleteBack,
    /// Delete the character after the cursor.
    DeleteForward,
    ClearEncode,
    /// Chat mode on or off: the encode box's text as a user's turn in the
    /// tokenizer's chat template.
    ToggleChat,
    /// Show or hide a part of the main screen (see [`Toggle`]).
    Toggle(Toggle),
    /// Draw every cell of the screen again.
    Redraw,
    /// Measure the fertility view's next tokenizers on a big pasted text
    /// (between frames, so keys are answered while it works).
    MeasureMore,
    /// Do the next slice of the long action under way, or look whether
    /// the thread doing it has finished.
    JobMore,
    /// Stop the long action under way and go back to where training stood
    /// before it.
    CancelJob,
    /// Encode the next part of a long text in the encode box (between
    /// frames, so keys are answered while it works).
    EncodeMore,
    NextCorpus,
    PrevCorpus,
    /// The encode box's text becomes a corpus of its own, trained from
    /// merge 0.
    TrainOnTyped,
    /// Open the vocabulary search.
    OpenVocab,
    /// Type into the vocabulary search.
    VocabType(char),
    VocabDelete,
    CloseVocab,
    /// The encode box's ids and tokens to the terminal's clipboard.
    CopyEncoded,
    /// The encode box's ids and tokens to a file.
    SaveEncoded,
    /// The screen as an SVG picture, to a new file.
    SaveScreen,
    /// The fertility view's cost table, to new CSV and JSON files.
    SaveFertility,
    ToggleHelp,
    /// Open or close the fertility view.
    ToggleFertility,
    /// Next/previous panel of the fertility view.
    NextPanel,
    PrevPanel,
    /// Select the next/previous tokenizer (the encode box uses it, the
    /// fertility view details it).
    NextTokenizer,
    PrevTokenizer,
    /// Open the list of tokenizers there are by name (the Hugging Face
    /// cache, Ollama) to add one.
    OpenPicker,
    /// Move the picker's cursor by this many rows.
    PickMove(i8),
    /// Add the tokenizer under the picker's cursor and select it.
    PickChoose,
    /// Move the token cursor of the fertility view's token line.
    NextToken,
    PrevToken,
    /// Measure the pasted text or the bundled samples.
    ToggleTextSource,
    /// The next number the fertility table and bars show.
    NextMetric,
    /// Show how the selected token (of the merge list, the encode box or
    /// the fertility view's token line) was built.
    OpenTree,
    CloseTree,
    /// Unigram mode: the piece table sorted by the next key (probability,
    /// loss if removed, text).
    SortPieces,
    /// The next step of the lesson (and the training it names).
    LessonNext,
    /// Back to the lesson's previous step.
    LessonBack,
    /// Show every tokenizer's cut of the text at once, a band each (the
    /// encode box and the fertility view's token line), or one again.
    ToggleCuts,
    /// Focus the next (true) or previous compare column.
    FocusColumn(bool),
    /// Ask which option a new compare column changes.
    OpenAddColumn,
    /// Add a compare column: the focused configuration with this changed.
    AddColumn(crate::compare::Change),
    /// Drop the focused compare column.
    DropColumn,
    /// Move the compare columns still on their way a slice further.
    CompareMore,
    /// Compare the app's configuration with these, trained on its corpus.
    Compare(crate::compare::Trained),
    /// A tokenizer load finished.
    Loaded(LoadDone),
    /// The screen now has this many columns and rows.
    Resize(u16, u16),
    Quit,
}

/// What kind of action this is, said once here for every place that
/// treats kinds alike: the loop, the job guard, the class and the tree.
impl Action {
    /// Comes from the loop or the system, not from the user: it leaves the
    /// footer's notice and an open merge tree as they are.
    pub fn is_background(&self) -> bool {
        matches!(
            self,
            Action::Tick
                | Action::Resize(..)
                | Action::Loaded(_)
                | Action::Redraw
                | Action::EncodeMore
                | Action::MeasureMore
                | Action::JobMore
                | Action::CompareMore
                | Action::Compare(_)
        )
    }

    /// Moves training by a merge or a phase (or a lesson step): the pair
    /// table goes back to its top row, where the round's winner is.
    pub fn trains(&self) -> bool {
        matches!(
            self,
            Action::Step
                | Action::Tick
                | Action::Advance
                | Action::Undo
                | Action::Goto(_)
                | Action::LessonNext
                | Action::LessonBack
        )
    }

    /// Changes training, and so waits while a job is under way (`g` and
    /// Enter in the fertility view's merge list go to a rank of that list,
    /// which does not wait).
    pub fn waits_for_job(&self, goto_is_rank: bool) -> bool {
        match self {
            Action::OpenGoto | Action::PromptSubmit => !goto_is_rank,
            Action::ToggleAutoplay
            | Action::ToggleAutoplayPhases
            | Action::Reset
            | Action::NextCorpus
            | Action::PrevCorpus
            | Action::TrainOnTyped
            | Action::AddColumn(_)
            | Action::DropColumn => true,
            other => other.trains(),
        }
    }

    /// A follower's key that would leave the teacher's state (the class
    /// asks before it lets one through). The loop's own ticks and a
    /// lesson's steps are no student's.
    pub fn moves_class(&self, goto_is_rank: bool) -> bool {
        // A column added or dropped changes what this explorer shows, not
        // where training stands.
        !matches!(
            self,
            Action::Tick
                | Action::LessonNext
                | Action::LessonBack
                | Action::PromptSubmit
                | Action::AddColumn(_)
                | Action::DropColumn
        ) && self.waits_for_job(goto_is_rank)
    }
}

/// A part of the main screen that a key shows or hides. A new one needs a
/// variant here, its row in the key table, and `app.shows(Toggle::…)` in
/// the view that draws it ([`crate::app::Shown`] keeps them all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggle {
    /// Whitespace drawn as glyphs (`·`, `↵`, `→`).
    Whitespace,
    /// Partial characters as hex bytes, token by token, or drawn whole.
    Hex,
    /// A separator glyph between neighbouring tokens, besides their
    /// alternating styles.
    Separators,
    /// The focused pane fills the screen, or gives the room back.
    Zoom,
    /// The pair table lists only what the last merge changed, or all pairs.
    ChangedOnly,
    /// The corpus pane shows the chunk table, or the text again.
    ChunkTable,
}

#[cfg(test)]
mod tests {
    use super::Action;

    #[test]
    fn kinds_of_action_agree_with_each_other() {
        // Every action that trains waits for a job; a follower's training
        // keys are a part of those; background actions do neither.
        let all = [
            Action::Step,
            Action::Tick,
            Action::Undo,
            Action::Advance,
            Action::Reset,
            Action::Goto(3),
            Action::OpenGoto,
            Action::PromptSubmit,
            Action::ToggleAutoplay,
            Action::NextCorpus,
            Action::LessonNext,
            Action::Redraw,
            Action::JobMore,
            Action::Quit,
        ];
        for a in &all {
            assert!(!a.trains() || a.waits_for_job(false), "{a:?}");
            assert!(!a.moves_class(false) || a.waits_for_job(false), "{a:?}");
            assert!(!(a.is_background() && a.waits_for_job(false)) || *a == Action::Tick);
        }
        assert!(Action::OpenGoto.moves_class(false) && !Action::OpenGoto.moves_class(true));
        assert!(!Action::Tick.moves_class(false) && Action::Step.moves_class(false));
        assert!(!Action::Quit.waits_for_job(false));
    }
}
