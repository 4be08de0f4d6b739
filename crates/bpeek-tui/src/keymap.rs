//! The one key table. Key presses become actions by looking them up here,
//! and the footer and the help overlay are drawn from the same rows, so what
//! the screen says a key does is what it does.

use crate::action::Toggle;
use crate::action::{Action, Scroll};
use crate::app::{App, Focus, InputMode};
use crate::fertility::Panel;
use crate::panes::encode_box::Move;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key as the table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Code(KeyCode),
    Ctrl(char),
    /// A key that is not a character, with Ctrl held (Ctrl-Left).
    CtrlCode(KeyCode),
    /// Any printable character (text entry).
    AnyChar,
    /// A click of the mouse, and a turn of its wheel: no key matches them;
    /// their rows say what they do (see [`crate::mouse`]).
    Click,
    Wheel,
}

/// When a row applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Whatever else is going on.
    Always,
    /// The corpus is still being read and counted (nothing else is shown).
    Opening,
    /// A long action that can be cancelled is under way (no prompt, no
    /// editing, no help).
    Busy,
    /// No prompt, no editing, no help.
    Normal,
    /// Normal, on the main screen (the fertility view closed).
    Main,
    /// Normal, with this pane of the main screen focused.
    Focused(Focus),
    /// Normal, with a merge tree open.
    Tree,
    /// Normal, on the main screen, replaying a lesson.
    Lesson,
    /// Normal, the encode box focused with a token selected.
    EncodeToken,
    /// Normal, in the fertility view.
    Fertility,
    /// Normal, on the main screen, a student with a ballot to fill in.
    Ballot,
    /// Normal, on the main screen, the teacher of a class.
    Teaching,
    /// Normal, on the main screen, a student of a class.
    Learning,
    /// Normal, in this panel of the fertility view.
    InPanel(Panel),
    Editing,
    Goto,
    Help,
    /// The vocabulary search is open.
    Vocab,
    /// Normal, on the main screen, with configurations side by side.
    Comparing,
    /// The prompt for the option a new compare column changes.
    AddColumn,
    /// The list of tokenizers by name is open.
    Pick,
    /// Normal, on the main screen, training Unigram (`--model unigram`).
    Unigram,
}

/// The heading a row is listed under in the help overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Training,
    Moving,
    Showing,
    Encoding,
    Fertility,
    /// Configurations side by side.
    Compare,
    Prompt,
    /// Listed only in a class.
    Class,
}

impl Section {
    pub const ORDER: [Section; 8] = [
        Section::Training,
        Section::Moving,
        Section::Showing,
        Section::Encoding,
        Section::Fertility,
        Section::Prompt,
        Section::Compare,
        Section::Class,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Section::Training => "Training",
            Section::Moving => "Moving around",
            Section::Showing => "Showing",
            Section::Encoding => "Encode box",
            Section::Fertility => "Fertility view",
            Section::Compare => "Configurations side by side",
            Section::Prompt => "Go-to prompt",
            Section::Class => "Class",
        }
    }
}

pub struct Binding {
    pub when: When,
    pub keys: &'static [Key],
    /// For [`Key::AnyChar`] the typed character replaces the one given here.
    pub action: Action,
    /// Short label for the footer; rows without one are listed in help only.
    pub footer: Option<&'static str>,
    pub help: &'static str,
    pub section: Section,
}

const fn c(ch: char) -> Key {
    Key::Code(KeyCode::Char(ch))
}

const fn k(code: KeyCode) -> Key {
    Key::Code(code)
}

macro_rules! bind {
    ($when:expr, [$($key:expr),*], $action:expr, $footer:expr, $section:ident, $help:expr) => {
        Binding {
            when: $when,
            keys: &[$($key),*],
            action: $action,
            footer: $footer,
            help: $help,
            section: Section::$section,
        }
    };
}

use crate::compare::Change;
use When::{
    AddColumn, Always, Ballot, Busy, Comparing, Editing, EncodeToken, Fertility, Focused, Goto,
    Help, InPanel, Learning, Lesson, Main, Normal, Opening, Pick, Teaching, Tree, Unigram, Vocab,
};

/// Every key of the explorer, most useful first within each context.
#[rustfmt::skip]
pub static BINDINGS: &[Binding] = &[
    bind!(Always, [Key::Ctrl('c')], Action::Quit, None, Showing, "quit"),
    // While the corpus opens, and while a long action runs.
    bind!(Opening, [k(KeyCode::Esc), c('q')], Action::Quit, Some("quit"), Training, "opening: quit"),
    bind!(Busy, [k(KeyCode::Esc)], Action::CancelJob, Some("cancel"), Prompt, "stop a go-to or reset"),
    // Help overlay.
    bind!(Help, [c('?'), k(KeyCode::Esc), c('q')], Action::ToggleHelp, Some("close help"), Showing, "close this help"),
    bind!(Help, [k(KeyCode::Up), c('k')], Action::Scroll(Scroll::Up), None, Showing, "scroll help"),
    bind!(Help, [k(KeyCode::Down), c('j')], Action::Scroll(Scroll::Down), None, Showing, "scroll help"),
    bind!(Help, [k(KeyCode::PageUp)], Action::Scroll(Scroll::PageUp), None, Showing, "scroll help"),
    bind!(Help, [k(KeyCode::PageDown)], Action::Scroll(Scroll::PageDown), None, Showing, "scroll help"),
    bind!(Help, [k(KeyCode::Home)], Action::Scroll(Scroll::Top), None, Showing, "scroll help"),
    bind!(Help, [k(KeyCode::End)], Action::Scroll(Scroll::Bottom), None, Showing, "scroll help"),
    // Merge tree.
    bind!(Tree, [k(KeyCode::Esc), k(KeyCode::Enter)], Action::CloseTree, Some("close tree"), Showing, "close the merge tree"),
    bind!(Tree, [k(KeyCode::Up), c('k')], Action::Scroll(Scroll::Up), None, Showing, "scroll the merge tree"),
    bind!(Tree, [k(KeyCode::Down), c('j')], Action::Scroll(Scroll::Down), None, Showing, "scroll the merge tree"),
    // Vocabulary search.
    bind!(Vocab, [k(KeyCode::Esc)], Action::CloseVocab, Some("close"), Encoding, "close the vocabulary"),
    bind!(Vocab, [k(KeyCode::Enter)], Action::OpenTree, Some("tree"), Encoding, "vocabulary: the token's merge tree"),
    bind!(Vocab, [k(KeyCode::Up)], Action::Scroll(Scroll::Up), Some("select"), Encoding, "vocabulary: select a token"),
    bind!(Vocab, [k(KeyCode::Down)], Action::Scroll(Scroll::Down), None, Encoding, "vocabulary: select a token"),
    bind!(Vocab, [k(KeyCode::PageUp)], Action::Scroll(Scroll::PageUp), None, Encoding, "vocabulary: a page"),
    bind!(Vocab, [k(KeyCode::PageDown)], Action::Scroll(Scroll::PageDown), None, Encoding, "vocabulary: a page"),
    bind!(Vocab, [k(KeyCode::Backspace)], Action::VocabDelete, None, Encoding, "vocabulary: delete a letter"),
    bind!(Vocab, [Key::AnyChar], Action::VocabType(' '), None, Encoding, "vocabulary: type to filter"),
    // Go-to prompt.
    // The tokenizers by name.
    bind!(Pick, [k(KeyCode::Enter)], Action::PickChoose, Some("add"), Prompt, "names: add the tokenizer and encode with it"),
    bind!(Pick, [k(KeyCode::Esc), c('q')], Action::PromptCancel, Some("cancel"), Prompt, "names: close the list"),
    bind!(Pick, [k(KeyCode::Up), c('k')], Action::PickMove(-1), Some("select"), Prompt, "names: select a tokenizer"),
    bind!(Pick, [k(KeyCode::Down), c('j')], Action::PickMove(1), None, Prompt, "names: select a tokenizer"),
    bind!(Pick, [k(KeyCode::PageUp)], Action::PickMove(-10), None, Prompt, "names: a page up"),
    bind!(Pick, [k(KeyCode::PageDown)], Action::PickMove(10), None, Prompt, "names: a page down"),
    bind!(Goto, [k(KeyCode::Enter)], Action::PromptSubmit, Some("go"), Prompt, "go to the merge typed"),
    bind!(Goto, [k(KeyCode::Esc)], Action::PromptCancel, Some("cancel"), Prompt, "close the prompt"),
    bind!(Goto, [k(KeyCode::Backspace)], Action::PromptDelete, None, Prompt, "delete a digit"),
    bind!(Goto, [Key::AnyChar], Action::PromptType(' '), None, Prompt, "type the number"),
    // Fertility view: before training, as its arrows move its own cursors.
    bind!(Fertility, [c('f'), k(KeyCode::Esc)], Action::ToggleFertility, Some("close"), Fertility, "open/close the view"),
    bind!(Fertility, [k(KeyCode::Tab)], Action::NextPanel, Some("panel"), Fertility, "next/previous panel"),
    bind!(Fertility, [k(KeyCode::BackTab)], Action::PrevPanel, None, Fertility, "next/previous panel"),
    bind!(Fertility, [c('t'), k(KeyCode::Right)], Action::NextTokenizer, Some("tokenizer"), Fertility, "select a tokenizer"),
    bind!(Fertility, [c('T'), k(KeyCode::Left)], Action::PrevTokenizer, None, Fertility, "select a tokenizer"),
    bind!(Fertility, [c('h')], Action::ToggleChat, None, Fertility, "chat: text as a turn"),
    bind!(Fertility, [c('N')], Action::OpenPicker, None, Fertility, "add tokenizer by name"),
    bind!(Fertility, [c(']')], Action::NextToken, Some("token"), Fertility, "select a token"),
    bind!(Fertility, [c('[')], Action::PrevToken, None, Fertility, "select a token"),
    bind!(Fertility, [k(KeyCode::Enter)], Action::OpenTree, None, Fertility, "how the token was built"),
    bind!(Fertility, [c('s')], Action::ToggleTextSource, Some("text"), Fertility, "your text/samples"),
    bind!(Fertility, [c('B')], Action::ToggleCuts, Some("all cuts"), Fertility, "every tokenizer's cut, a band each (t: band)"),
    bind!(InPanel(Panel::Cost), [c('m')], Action::NextMetric, Some("metric"), Fertility, "number in the table"),
    bind!(Fertility, [c('W')], Action::SaveFertility, None, Fertility, "write the cost table as CSV and JSON files"),
    bind!(Fertility, [k(KeyCode::Up), c('k')], Action::Scroll(Scroll::Up), None, Fertility, "move the row cursor"),
    bind!(Fertility, [k(KeyCode::Down), c('j')], Action::Scroll(Scroll::Down), None, Fertility, "move the row cursor"),
    bind!(Fertility, [k(KeyCode::PageUp)], Action::Scroll(Scroll::PageUp), None, Moving, "scroll a page"),
    bind!(Fertility, [k(KeyCode::PageDown)], Action::Scroll(Scroll::PageDown), None, Moving, "scroll a page"),
    bind!(Fertility, [k(KeyCode::Home)], Action::Scroll(Scroll::Top), None, Moving, "to the start/end"),
    bind!(Fertility, [k(KeyCode::End)], Action::Scroll(Scroll::Bottom), None, Moving, "to the start/end"),
    bind!(InPanel(Panel::Merges), [c('g')], Action::OpenGoto, Some("go to"), Fertility, "merges: go to merge N (a rank file: rank N)"),
    // A question for the class: before training and moving, as the ballot
    // takes the arrows and Enter.
    bind!(Ballot, [k(KeyCode::Up), c('k')], Action::BallotMove(false), None, Class, "question: pick a pair"),
    bind!(Ballot, [k(KeyCode::Down), c('j')], Action::BallotMove(true), None, Class, "question: pick a pair"),
    bind!(Ballot, [k(KeyCode::Enter)], Action::Vote, Some("vote"), Class, "question: vote (until the reveal)"),
    bind!(Teaching, [c('Q')], Action::AskClass, Some("ask"), Class, "teacher: ask which pair wins; again: tally"),
    bind!(Learning, [c('Q')], Action::AskClass, None, Class, "student: says that the teacher asks"),
    // A lesson: before training, as it takes Space and the arrows.
    bind!(Lesson, [c(' '), k(KeyCode::Right)], Action::LessonNext, Some("lesson"), Training, "lesson: next step"),
    bind!(Lesson, [k(KeyCode::Left)], Action::LessonBack, None, Training, "lesson: step back"),
    // Training.
    bind!(Normal, [c('n'), k(KeyCode::Right), c(' ')], Action::Step, Some("next"), Training, "next merge"),
    bind!(Normal, [c('p'), k(KeyCode::Left), k(KeyCode::Backspace)], Action::Undo, Some("undo"), Training, "undo the last merge"),
    bind!(Normal, [c('.')], Action::Advance, Some("phase"), Training, "one phase of a round"),
    bind!(Normal, [c('a')], Action::ToggleAutoplay, Some("play"), Training, "autoplay on/off"),
    bind!(Normal, [c('A')], Action::ToggleAutoplayPhases, None, Training, "autoplay by phase"),
    bind!(Main, [c('f')], Action::ToggleFertility, Some("fertility"), Fertility, "open/close the view"),
    bind!(Normal, [c('q')], Action::Quit, Some("quit"), Showing, "quit"),
    bind!(Normal, [c('e')], Action::StartEditing, Some("encode"), Encoding, "edit the encode box"),
    bind!(Normal, [c('g')], Action::OpenGoto, Some("go to"), Training, "go to merge N"),
    bind!(Normal, [c('r')], Action::Reset, None, Training, "back to merge 0"),
    bind!(Normal, [c('+'), c('=')], Action::Faster, None, Training, "autoplay faster/slower"),
    bind!(Normal, [c('-')], Action::Slower, None, Training, "autoplay faster/slower"),
    bind!(Normal, [c('c')], Action::NextCorpus, None, Training, "next/previous corpus"),
    bind!(Normal, [c('C')], Action::PrevCorpus, None, Training, "next/previous corpus"),
    bind!(Normal, [c('u')], Action::TrainOnTyped, Some("train on it"), Training, "train on the typed text"),
    bind!(Main, [c('Q')], Action::AskClass, None, Training, "rehearse the question"),
    // Configurations side by side.
    bind!(Main, [c('o')], Action::OpenAddColumn, Some("compare"), Compare, "add a column: this configuration, one option changed"),
    bind!(Comparing, [c('>')], Action::FocusColumn(true), Some("column"), Compare, "focus the next/previous column"),
    bind!(Comparing, [c('<')], Action::FocusColumn(false), None, Compare, "focus the next/previous column"),
    bind!(Comparing, [c('O')], Action::DropColumn, None, Compare, "drop the focused column"),
    // Which option a new compare column changes.
    bind!(AddColumn, [c('p')], Action::AddColumn(Change::Pretok), Some("pretok"), Compare, "new column: next pre-tokenizer"),
    bind!(AddColumn, [c('t')], Action::AddColumn(Change::Tie), Some("tie"), Compare, "new column: next tie rule"),
    bind!(AddColumn, [c('d')], Action::AddColumn(Change::Digits), Some("digits"), Compare, "new column: next digit rule"),
    bind!(AddColumn, [c('m')], Action::AddColumn(Change::Mode), Some("mode"), Compare, "new column: byte/char mode"),
    bind!(AddColumn, [c('s')], Action::AddColumn(Change::Score), Some("score"), Compare, "new column: count/WordPiece score"),
    bind!(AddColumn, [k(KeyCode::Esc)], Action::PromptCancel, Some("cancel"), Compare, "new column: cancel"),
    // Moving around.
    bind!(Main, [k(KeyCode::Tab)], Action::FocusNext, Some("pane"), Moving, "next/previous pane"),
    bind!(Main, [k(KeyCode::BackTab)], Action::FocusPrev, None, Moving, "next/previous pane"),
    bind!(Main, [c('t')], Action::NextTokenizer, Some("tokenizer"), Encoding, "next/previous tokenizer"),
    bind!(Main, [c('T')], Action::PrevTokenizer, None, Encoding, "next/previous tokenizer"),
    bind!(Main, [c('h')], Action::ToggleChat, None, Encoding, "chat: text as a turn"),
    bind!(Main, [c('N')], Action::OpenPicker, None, Encoding, "add tokenizer by name"),
    bind!(Main, [k(KeyCode::Up), c('k')], Action::Scroll(Scroll::Up), None, Moving, "scroll, select a merge"),
    bind!(Main, [k(KeyCode::Down), c('j')], Action::Scroll(Scroll::Down), None, Moving, "scroll, select a merge"),
    bind!(Main, [k(KeyCode::PageUp)], Action::Scroll(Scroll::PageUp), None, Moving, "scroll a page"),
    bind!(Main, [k(KeyCode::PageDown)], Action::Scroll(Scroll::PageDown), None, Moving, "scroll a page"),
    bind!(Main, [k(KeyCode::Home)], Action::Scroll(Scroll::Top), None, Moving, "to the start/end"),
    bind!(Main, [k(KeyCode::End)], Action::Scroll(Scroll::Bottom), None, Moving, "to the start/end"),
    bind!(Main, [c('/')], Action::FindNext, Some("find"), Moving, "find the highlight"),
    bind!(Normal, [Key::Click, Key::Wheel], Action::FocusPane(Focus::Corpus), None, Moving, "select; scroll a pane"),
    bind!(Focused(Focus::Merges), [k(KeyCode::Enter)], Action::OpenTree, Some("tree"), Showing, "merges: merge tree"),
    // Showing.
    bind!(Main, [c('z')], Action::Toggle(Toggle::Zoom), Some("zoom"), Showing, "zoom the focused pane"),
    bind!(Main, [c('v')], Action::Toggle(Toggle::ChunkTable), Some("chunks"), Showing, "chunk table/corpus text"),
    bind!(Main, [c('d')], Action::Toggle(Toggle::ChangedOnly), Some("changed"), Showing, "pairs: changed only/all"),
    bind!(Normal, [c('w')], Action::Toggle(Toggle::Whitespace), None, Showing, "whitespace glyphs"),
    bind!(Normal, [c('b')], Action::Toggle(Toggle::Separators), None, Showing, "token separators"),
    bind!(Normal, [c('x')], Action::Toggle(Toggle::Hex), None, Showing, "split characters as hex"),
    bind!(Always, [Key::Ctrl('l')], Action::Redraw, None, Showing, "redraw the screen"),
    bind!(Normal, [c('S')], Action::SaveScreen, None, Showing, "save the screen as an SVG picture"),
    bind!(Normal, [c('?')], Action::ToggleHelp, Some("help"), Showing, "this help"),
    // Encode box.
    bind!(Focused(Focus::Encode), [c(']')], Action::NextToken, Some("token"), Encoding, "encode: select a token"),
    bind!(Focused(Focus::Encode), [c('[')], Action::PrevToken, None, Encoding, "encode: select a token"),
    bind!(Focused(Focus::Encode), [c('B')], Action::ToggleCuts, Some("all cuts"), Encoding, "encode: every tokenizer's cut, a band each (t: band)"),
    bind!(EncodeToken, [k(KeyCode::Enter)], Action::OpenTree, Some("tree"), Encoding, "encode: merge tree"),
    bind!(Focused(Focus::Encode), [k(KeyCode::Enter)], Action::StartEditing, None, Encoding, "encode pane: edit"),
    bind!(Normal, [Key::Ctrl('u')], Action::ClearEncode, None, Encoding, "clear the box"),
    bind!(Main, [c('s')], Action::OpenVocab, None, Encoding, "search the vocabulary"),
    bind!(Normal, [c('y')], Action::CopyEncoded, Some("copy"), Encoding, "copy ids and tokens (clipboard)"),
    bind!(Normal, [c('Y')], Action::SaveEncoded, None, Encoding, "write ids and tokens to a file"),
    // Unigram mode: after the encode box's Enter, which still edits.
    bind!(Unigram, [c('l')], Action::SortPieces, Some("sort"), Showing, "Unigram: sort the piece table by probability, loss if removed or text"),
    bind!(Unigram, [k(KeyCode::Enter)], Action::OpenTree, Some("lattice"), Showing, "Unigram: the selected word's lattice, its best cut drawn"),
    // Editing the encode box.
    bind!(Editing, [k(KeyCode::Esc)], Action::StopEditing, Some("done"), Encoding, "stop editing"),
    bind!(Editing, [k(KeyCode::Enter)], Action::Type('\n'), Some("new line"), Encoding, "editing: new line"),
    bind!(Editing, [k(KeyCode::Backspace)], Action::DeleteBack, Some("delete"), Encoding, "editing: delete left"),
    bind!(Editing, [k(KeyCode::Delete)], Action::DeleteForward, None, Encoding, "editing: delete right"),
    bind!(Editing, [k(KeyCode::Left)], Action::MoveCursor(Move::Left), None, Encoding, "editing: by character"),
    bind!(Editing, [k(KeyCode::Right)], Action::MoveCursor(Move::Right), None, Encoding, "editing: by character"),
    bind!(Editing, [Key::CtrlCode(KeyCode::Left)], Action::MoveCursor(Move::WordLeft), None, Encoding, "editing: by word"),
    bind!(Editing, [Key::CtrlCode(KeyCode::Right)], Action::MoveCursor(Move::WordRight), None, Encoding, "editing: by word"),
    bind!(Editing, [k(KeyCode::Up)], Action::MoveCursor(Move::Up), None, Encoding, "editing: line up/down"),
    bind!(Editing, [k(KeyCode::Down)], Action::MoveCursor(Move::Down), None, Encoding, "editing: line up/down"),
    bind!(Editing, [k(KeyCode::Home)], Action::MoveCursor(Move::Home), None, Encoding, "editing: line start/end"),
    bind!(Editing, [k(KeyCode::End)], Action::MoveCursor(Move::End), None, Encoding, "editing: line start/end"),
    bind!(Editing, [Key::Ctrl('u')], Action::ClearEncode, Some("clear"), Encoding, "clear the box"),
    bind!(Editing, [Key::AnyChar], Action::Type(' '), None, Encoding, "type (or paste)"),
];

/// Whether `app` is in a class, as `role`.
fn in_class_as(app: &App, role: crate::class::Role) -> bool {
    app.classroom.as_ref().is_some_and(|c| c.role == role)
}

impl When {
    pub fn applies(self, app: &App) -> bool {
        let fert = app.fert.open;
        if app.opening_job() {
            return matches!(self, Always | Opening);
        }
        match (self, &app.input) {
            (Always, _) => true,
            (Opening, _) => false,
            // Only a job with a place to go back to can be cancelled.
            (Busy, InputMode::Normal) => {
                app.jobs
                    .current
                    .as_ref()
                    .is_some_and(|j| j.origin.is_some())
                    && app.tree.is_none()
            }
            (Normal, InputMode::Normal) => true,
            (Main, InputMode::Normal) => !fert,
            (Focused(f), InputMode::Normal) => !fert && app.focus == f,
            (Tree, InputMode::Normal) => {
                app.tree.is_some() || app.unigram.as_ref().is_some_and(|u| u.lattice)
            }
            (Lesson, InputMode::Normal) => !fert && app.lesson.is_some(),
            (EncodeToken, InputMode::Normal) => {
                !fert && app.focus == Focus::Encode && app.encode.selected.is_some()
            }
            (Fertility, InputMode::Normal) => fert,
            (Ballot, InputMode::Normal) => {
                !fert && crate::class::question::open_ballot(app).is_some()
            }
            (Teaching, InputMode::Normal) => !fert && in_class_as(app, crate::class::Role::Teacher),
            (Learning, InputMode::Normal) => !fert && in_class_as(app, crate::class::Role::Student),
            (InPanel(p), InputMode::Normal) => fert && app.fert.panel == p,
            (Editing, InputMode::Editing) => true,
            (Goto, InputMode::Goto(_)) => true,
            (Help, InputMode::Help) => true,
            (Vocab, InputMode::Vocab) => true,
            (Comparing, InputMode::Normal) => !fert && app.compare.is_some(),
            (AddColumn, InputMode::AddColumn) => true,
            (Pick, InputMode::Pick(_)) => true,
            (Unigram, InputMode::Normal) => !fert && app.unigram.is_some(),
            _ => false,
        }
    }
}

impl Key {
    fn matches(self, event: &KeyEvent) -> Option<Option<char>> {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let alt = event.modifiers.contains(KeyModifiers::ALT);
        match (self, event.code) {
            (Key::Ctrl(want), KeyCode::Char(got)) if ctrl && got.eq_ignore_ascii_case(&want) => {
                Some(None)
            }
            (Key::CtrlCode(want), got) if ctrl && !alt && want == got => Some(None),
            (Key::AnyChar, KeyCode::Char(got)) if !ctrl && !alt => Some(Some(got)),
            // Shift is part of the character ('?', 'C'), so only Ctrl and Alt count.
            (Key::Code(want), got) if !ctrl && !alt && want == got => Some(None),
            _ => None,
        }
    }

    /// The key's name in the footer and help.
    pub fn label(self) -> String {
        match self {
            Key::Ctrl(ch) => format!("^{}", ch.to_ascii_uppercase()),
            Key::AnyChar => "text".into(),
            Key::Click => "click".into(),
            Key::Wheel => "wheel".into(),
            Key::CtrlCode(code) => format!("^{}", Key::Code(code).label()),
            Key::Code(code) => match code {
                KeyCode::Char(' ') => "Space".into(),
                KeyCode::Char(ch) => ch.to_string(),
                KeyCode::Right => "Right".into(),
                KeyCode::Left => "Left".into(),
                KeyCode::Up => "Up".into(),
                KeyCode::Down => "Down".into(),
                KeyCode::PageUp => "PgUp".into(),
                KeyCode::PageDown => "PgDn".into(),
                KeyCode::Home => "Home".into(),
                KeyCode::End => "End".into(),
                KeyCode::Tab => "Tab".into(),
                KeyCode::BackTab => "S-Tab".into(),
                KeyCode::Backspace => "Bksp".into(),
                KeyCode::Delete => "Del".into(),
                KeyCode::Enter => "Enter".into(),
                KeyCode::Esc => "Esc".into(),
                other => format!("{other:?}"),
            },
        }
    }
}

impl Binding {
    /// All of the row's keys, e.g. `n Right Space`.
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(|k| k.label())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The action a key press asks for now, in a class too: the class answers
/// some keys first, and a following student's training key becomes the
/// question whether to leave the class for it.
pub fn action_of_key(app: &App, event: &KeyEvent) -> Option<Action> {
    if let Some(action) = crate::class::follow::class_key(app, event) {
        return Some(action);
    }
    let action = action_for(app, event).or_else(|| elsewhere(app, event))?;
    Some(crate::class::follow::held(app, action))
}

/// A letter the table binds only in another state, said with where it
/// works (`B: every tokenizer's cut, a band each: with the encode box
/// focused`), so that every key acts or says why not.
fn elsewhere(app: &App, event: &KeyEvent) -> Option<Action> {
    let KeyCode::Char(ch) = event.code else {
        return None;
    };
    if !When::Normal.applies(app) || event.modifiers.contains(KeyModifiers::CONTROL) {
        return None;
    }
    let bound: Vec<&Binding> = BINDINGS
        .iter()
        .filter(|b| {
            b.keys
                .iter()
                .any(|k| *k != Key::AnyChar && k.matches(event).is_some())
        })
        .collect();
    let first = bound.first()?;
    let help = first.help.split(" (").next().unwrap_or(first.help);
    let help = ["teacher: ", "student: ", "encode: "]
        .iter()
        .find_map(|role| help.strip_prefix(role))
        .unwrap_or(help);
    let mut places: Vec<&str> = Vec::new();
    for b in &bound {
        let place = where_it_works(b.when);
        if !places.contains(&place) {
            places.push(place);
        }
    }
    Some(Action::Notice(format!(
        "{ch}: {help}: {}",
        places.join(" or ")
    )))
}

/// Where a binding's state is, in a user's words.
fn where_it_works(when: When) -> &'static str {
    match when {
        When::Focused(crate::app::Focus::Encode) | When::EncodeToken => {
            "with the encode box focused (e)"
        }
        When::Focused(_) => "with another pane focused (Tab)",
        When::Fertility | When::InPanel(_) => "in the fertility view (f)",
        When::Teaching => "for the teacher of a class (bpeek serve)",
        When::Learning | When::Ballot => "for a student of a class (bpeek serve)",
        When::Comparing => "with configurations side by side (o)",
        When::Tree => "with a merge tree open",
        When::Lesson => "while a lesson is replayed",
        When::Unigram => "in Unigram mode (--model unigram)",
        _ => "not here",
    }
}

/// The action a key press asks for now by the key table, if any.
pub fn action_for(app: &App, event: &KeyEvent) -> Option<Action> {
    for b in BINDINGS.iter().filter(|b| b.when.applies(app)) {
        for key in b.keys {
            if let Some(typed) = key.matches(event) {
                return Some(match (typed, &b.action) {
                    (Some(ch), Action::Type(_)) => Action::Type(ch),
                    (Some(ch), Action::PromptType(_)) => Action::PromptType(ch),
                    (Some(ch), Action::VocabType(_)) => Action::VocabType(ch),
                    _ => b.action.clone(),
                });
            }
        }
    }
    None
}

/// The keys bound to `action`, as the footer names them (`Esc`).
pub fn keys_of(action: &Action) -> String {
    let mut labels: Vec<String> = Vec::new();
    // A key bound in two places (the teacher's Q and a student's) is said once.
    for label in BINDINGS
        .iter()
        .filter(|b| &b.action == action)
        .flat_map(|b| b.keys.iter().map(|k| k.label()))
    {
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    labels.join("/")
}

/// The rows the footer shows now: those that apply and have a label.
pub fn footer_rows(app: &App) -> impl Iterator<Item = &'static Binding> + '_ {
    BINDINGS.iter().filter(move |b| {
        b.footer.is_some()
            && b.when.applies(app)
            && !(app.compare.is_some() && no_comparison_takes(&b.action))
            && !(app.unigram.is_some() && not_offered_in_unigram(b))
    })
}

/// Rows the footer leaves out in Unigram mode: actions with no meaning
/// there, the merge tree's Enter (Enter draws a word's lattice) and the
/// phase keys (every Unigram step is a phase).
fn not_offered_in_unigram(b: &Binding) -> bool {
    crate::update::unigram::means_nothing(&b.action)
        || (b.action == Action::OpenTree && b.when != When::Unigram)
        || matches!(b.action, Action::Advance | Action::ToggleAutoplayPhases)
        || b.when == When::AddColumn
}

/// Actions a comparison refuses (every column trains on one corpus): the
/// footer does not offer them while columns are side by side.
fn no_comparison_takes(action: &Action) -> bool {
    matches!(
        action,
        Action::NextCorpus | Action::PrevCorpus | Action::TrainOnTyped
    )
}

/// The sections in the order help lists them: the keys of the view on
/// screen first.
pub fn section_order(app: &App) -> Vec<Section> {
    let first: &[Section] = if app.fert.open {
        &[Section::Fertility]
    } else if app.input == InputMode::AddColumn || app.compare.is_some() {
        &[Section::Compare]
    } else if app.focus == crate::app::Focus::Encode {
        &[Section::Encoding]
    } else {
        &[]
    };
    let mut order = first.to_vec();
    let in_class = app.classroom.is_some();
    order.extend(
        Section::ORDER
            .iter()
            .filter(|s| !first.contains(s) && (in_class || **s != Section::Class)),
    );
    order
}

/// [`help_rows`] for the explorer as it is: a lesson's keys only while a
/// lesson is loaded.
pub fn help_rows_for(app: &App) -> Vec<(String, &'static str, Section)> {
    let lesson_helps: Vec<&str> = BINDINGS
        .iter()
        .filter(|b| b.when == When::Lesson)
        .map(|b| b.help)
        .collect();
    let unigram = app.unigram.is_some();
    let rows = BINDINGS
        .iter()
        .filter(|b| app.lesson.is_some() || !lesson_helps.contains(&b.help))
        .filter(|b| !(unigram && not_offered_in_unigram(b)))
        .map(|b| (b, if unigram { unigram_help(b) } else { b.help }));
    rows_sharing_lines(rows)
}

/// What a row of the key table says in Unigram mode, where training
/// counts steps (an EM iteration, a scoring, a prune) and Enter draws a
/// word's lattice: the BPE wording, and the Unigram one in its place.
const UNIGRAM_HELP: &[(&str, &str)] = &[
    (
        "next merge",
        "next step: an EM iteration, the scoring or a prune",
    ),
    ("undo the last merge", "undo the last step"),
    ("go to merge N", "go to step N"),
    ("go to the merge typed", "go to the step typed"),
    ("back to merge 0", "back to step 0, the seeding"),
    ("close the merge tree", "close the lattice"),
    (
        "scroll the merge tree",
        "the lattice of the word above/below",
    ),
    (
        "scroll, select a merge",
        "scroll, select a word, piece or removal",
    ),
];

/// The footer's labels that differ in Unigram mode, the same way.
const UNIGRAM_FOOTER: &[(&str, &str)] = &[("close tree", "close lattice")];

fn unigram_help(b: &Binding) -> &'static str {
    UNIGRAM_HELP
        .iter()
        .find(|(bpe, _)| *bpe == b.help)
        .map_or(b.help, |(_, unigram)| unigram)
}

/// The row's label in the footer, in the words of the mode on screen.
pub fn footer_label(app: &App, b: &Binding) -> &'static str {
    let label = b.footer.unwrap_or_default();
    match app.unigram {
        Some(_) => UNIGRAM_FOOTER
            .iter()
            .find(|(bpe, _)| *bpe == label)
            .map_or(label, |(_, unigram)| unigram),
        None => label,
    }
}

/// The rows of the key table as help lists them: rows that say the same
/// thing in the same section share a line (`+ = -  autoplay faster/slower`).
pub fn help_rows() -> Vec<(String, &'static str, Section)> {
    rows_sharing_lines(BINDINGS.iter().map(|b| (b, b.help)))
}

/// Rows as help lists them, each with the words it is shown with: rows
/// that say the same thing in the same section share a line.
fn rows_sharing_lines<'a>(
    bindings: impl Iterator<Item = (&'a Binding, &'static str)>,
) -> Vec<(String, &'static str, Section)> {
    let mut rows: Vec<(String, &'static str, Section)> = Vec::new();
    // The opening screen has its own two keys and no help.
    for (b, help) in bindings.filter(|(b, _)| !matches!(b.when, When::Help | When::Opening)) {
        match rows
            .iter_mut()
            .find(|(_, h, section)| *h == help && *section == b.section)
        {
            Some(row) => {
                for key in b.keys.iter().map(|k| k.label()) {
                    if !row.0.split(' ').any(|k| k == key) {
                        row.0.push(' ');
                        row.0.push_str(&key);
                    }
                }
            }
            None => rows.push((b.keys_label(), help, b.section)),
        }
    }
    rows
}
