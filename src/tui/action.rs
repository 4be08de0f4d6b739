//! Everything a user can ask the explorer to do. Keys, pastes, resizes and
//! the autoplay clock all arrive as one of these, and so do finished
//! tokenizer loads.

use crate::tui::encode_box::Move;
use crate::tui::tokenizers::LoadDone;

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
    Follow(crate::tui::mark::Mark),
    /// The teacher asks the class which pair wins (with a question open:
    /// shows or hides the tally).
    AskClass,
    /// A student moves the ballot's cursor (down if true).
    BallotMove(bool),
    /// A student votes for the pair under the ballot's cursor.
    Vote,
    /// Open the "go to merge" prompt.
    OpenGoto,
    /// Type into the prompt (digits only are kept).
    PromptType(char),
    PromptDelete,
    PromptSubmit,
    PromptCancel,
    ToggleAutoplay,
    Faster,
    Slower,
    /// The autoplay clock ticked.
    Tick,
    FocusNext,
    FocusPrev,
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
    ToggleWhitespace,
    /// Partial characters as hex bytes, token by token, or drawn whole.
    ToggleHex,
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
    ToggleBoundaries,
    NextCorpus,
    PrevCorpus,
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
    /// Move the token cursor of the fertility view's token line.
    NextToken,
    PrevToken,
    /// Measure the pasted text or the bundled samples.
    ToggleTextSource,
    /// The next number the fertility table and bars show.
    NextMetric,
    /// The focused pane fills the screen, or gives the room back.
    ToggleZoom,
    /// The pair table lists only what the last merge changed, or all pairs.
    ToggleChangedOnly,
    /// The corpus pane shows the chunk table, or the text again.
    ToggleChunkTable,
    /// Show how the selected token (of the merge list, the encode box or
    /// the fertility view's token line) was built.
    OpenTree,
    CloseTree,
    /// The next step of the lesson (and the training it names).
    LessonNext,
    /// Back to the lesson's previous step.
    LessonBack,
    /// A tokenizer load finished.
    Loaded(LoadDone),
    /// The screen now has this many columns and rows.
    Resize(u16, u16),
    Quit,
}
