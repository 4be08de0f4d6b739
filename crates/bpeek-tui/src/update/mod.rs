//! All behaviour: `update` takes the model and one action and leaves the
//! model as the screen should show it next. Nothing here draws or waits.

use crate::action::{Action, Scroll, Toggle};
use crate::app::{App, CorpusScroll, Focus, InputMode, SPEEDS};
use crate::fertility::layout::plan;
use crate::fertility::{Metric, Panel, TextSource, merge_rows, numbers};
use crate::job::{Job, Run, Work, move_until};
use crate::keymap;
use crate::layout::{self, inner};
use crate::lesson;
use crate::mark::Mark;
use crate::panes::corpus_text::CorpusLook;
use crate::panes::merge_tree;
use bpeek_core::Phase;
use std::sync::Arc;
use std::time::Instant;

mod budget;
mod class;
mod compare;
mod compare_unigram;
mod cuts;
mod editing;
pub mod export;
mod fertility;
mod lessons;
mod navigation;
mod new_files;
mod picker;
mod prompt;
mod question;
pub mod save_fertility;
pub mod save_screen;
mod showing;
mod training;
mod trees;
pub mod unigram;
pub mod vocab;

use compare::{compare_first, update_compare};
use editing::*;
use fertility::*;
use lessons::*;
pub(crate) use navigation::merge_name;
use navigation::*;
use prompt::*;
use showing::*;
pub use training::adopt;
use training::*;
use trees::*;

/// Apply `action` to `app`. A regex of a tokenizer file's that refuses
/// the text (its work would grow faster than the text) is told in the
/// notice line; what it was to cut is left out.
pub fn update(app: &mut App, action: Action) {
    let encode_refused = app.encode.refused.is_some();
    let refused = bpeek_core::pretokenize::pattern_work::watch(|| update_unwatched(app, action))
        .err()
        .or_else(bpeek_core::pretokenize::pattern_work::take_unwatched);
    if let Some(e) = refused {
        app.notice = Some(e.to_string());
        app.dirty = true;
    } else if let Some(why) = &app.encode.refused
        && (app.notice.is_none() || !encode_refused)
    {
        // Said when the encode box's text is refused, and again after each
        // key for as long as it is.
        app.notice = Some(why.clone());
    }
}

fn update_unwatched(app: &mut App, action: Action) {
    if budget::refuses(app, &action) {
        return;
    }
    if class::is_class_event(&action) {
        return class::update_class_event(app, action);
    }
    if matches!(action, Action::Tick) && !app.autoplay.on {
        return;
    }
    if app.opening_job() {
        return while_opening(app, action);
    }
    if matches!(action, Action::JobMore) && app.jobs.current.is_none() {
        // Work done away (a big trainer freed) changes nothing on screen.
        return;
    }
    if !action.is_background() {
        app.notice = None;
    }
    app.dirty = true;
    if app.jobs.current.is_some() && action.waits_for_job(app.goto_is_rank()) {
        wait_for_job(app, action);
        return;
    }
    if close_tree_first(app, &action) {
        return;
    }
    let trains = action.trains();
    if trains {
        // The winner of a round is the top row of the pair table.
        app.scroll.pairs = 0;
    }
    if app.compare.is_some() && compare_first(app, &action) {
        after_change(app);
        return;
    }
    dispatch(app, action);
    if trains {
        follow_round(app);
    }
    record(app);
    after_change(app);
}

/// An open merge tree closes on any key the user presses but the arrows
/// that scroll it: the key is about the screen below. True if the key
/// was the one that closes the tree, and so is done with.
fn close_tree_first(app: &mut App, action: &Action) -> bool {
    if app.tree.is_none()
        || action.is_background()
        || matches!(action, Action::Scroll(Scroll::Up | Scroll::Down))
    {
        return false;
    }
    app.tree = None;
    if app.vocab.is_some() {
        // The tree was opened from the vocabulary search: back to it.
        app.input = InputMode::Vocab;
    }
    *action == Action::CloseTree
}

/// Hand `action` to the function for its part of the explorer.
fn dispatch(app: &mut App, action: Action) {
    use Action as A;
    let action = match app.unigram {
        Some(_) => match unigram::update(app, action) {
            Some(a) => a,
            None => return,
        },
        None => action,
    };
    match action {
        a @ (A::Tick | A::Step | A::Undo | A::Advance | A::Reset | A::Goto(_) | A::Follow(_)) => {
            update_training(app, a);
        }
        a @ (A::JobMore | A::CancelJob | A::LessonNext | A::LessonBack) => update_training(app, a),
        a @ (A::ToggleAutoplay | A::ToggleAutoplayPhases | A::Faster | A::Slower) => {
            update_training(app, a);
        }
        a @ (A::NextCorpus | A::PrevCorpus | A::TrainOnTyped) => update_training(app, a),
        a @ (A::OpenGoto | A::PromptType(_) | A::PromptDelete | A::PromptSubmit) => {
            update_prompt(app, a);
        }
        a @ A::PromptCancel => update_prompt(app, a),
        a @ (A::AskClass | A::BallotMove(_) | A::Vote) => update_class(app, a),
        // Routed before anything else (see `update_unwatched`); here for
        // the compiler's count of every action.
        a @ (A::ClassChanged | A::Publish | A::ResumeClass | A::Notice(_) | A::MemoryBudget(_)) => {
            class::update_class_event(app, a);
        }
        a @ (A::AskToExplore(_) | A::AnswerExplore(_) | A::FollowTeacher) => {
            class::update_class_event(app, a);
        }
        a @ (A::FocusNext | A::FocusPrev | A::Scroll(_) | A::FindNext | A::Toggle(_)) => {
            update_panes(app, a);
        }
        a @ (A::Redraw | A::ToggleHelp | A::Resize(..) | A::Quit) => update_panes(app, a),
        a @ (A::FocusPane(_) | A::SelectMerge(_) | A::SelectMergeOf(_)) => update_panes(app, a),
        A::SaveScreen => save_screen::save(app),
        A::SaveFertility => save_fertility::save(app),
        a @ (A::StartEditing | A::StopEditing | A::Type(_) | A::Paste(_) | A::MoveCursor(_)) => {
            update_encode_box(app, a);
        }
        a @ (A::DeleteBack | A::DeleteForward | A::ClearEncode | A::EncodeMore) => {
            update_encode_box(app, a);
        }
        a @ (A::CopyEncoded | A::SaveEncoded | A::ToggleChat) => update_encode_box(app, a),
        a @ (A::OpenTree | A::CloseTree | A::OpenVocab | A::VocabType(_) | A::VocabDelete) => {
            update_vocab_and_tree(app, a);
        }
        A::SortPieces => {
            app.notice = Some("l sorts the piece table of Unigram mode (--model unigram)".into());
        }
        a @ A::CloseVocab => update_vocab_and_tree(app, a),
        a @ (A::ToggleFertility | A::NextPanel | A::PrevPanel | A::ToggleCuts) => {
            update_fertility(app, a);
        }
        a @ (A::NextTokenizer | A::PrevTokenizer | A::NextToken | A::PrevToken) => {
            update_fertility(app, a);
        }
        a @ (A::SelectToken(_) | A::SelectBandByte { .. }) => update_fertility(app, a),
        a @ (A::ToggleTextSource | A::NextMetric | A::MeasureMore | A::Loaded(_)) => {
            update_fertility(app, a);
        }
        a @ (A::OpenPicker | A::PickMove(_) | A::PickChoose) => picker::update(app, a),
        a @ (A::FocusColumn(_) | A::OpenAddColumn | A::AddColumn(_) | A::DropColumn) => {
            update_compare(app, a);
        }
        a @ (A::CompareMore | A::Compare(_)) => update_compare(app, a),
    }
}

/// Training: steps and phases, jumps, the long action under way, the
/// lesson, autoplay and the corpus trained on.
fn update_training(app: &mut App, action: Action) {
    match action {
        Action::Tick if app.autoplay.by_phase => advance(app),
        Action::Step | Action::Tick => step(app),
        Action::Undo => undo(app),
        Action::Advance => advance(app),
        Action::Reset if app.trainer().merges().is_empty() => {
            app.notice = Some("already at merge 0: no merges to undo".into());
        }
        Action::Reset => start_seek(app, 0, "back to merge 0".into()),
        Action::JobMore => job_more(app),
        Action::Follow(target) => follow_to(app, target),
        Action::CancelJob => cancel_job(app),
        Action::Goto(n) => goto(app, n),
        Action::LessonNext => lesson_next(app),
        Action::LessonBack => lesson_back(app),
        Action::ToggleAutoplay => toggle_autoplay(app, false),
        Action::ToggleAutoplayPhases => toggle_autoplay(app, true),
        Action::Faster => faster(app),
        Action::Slower => slower(app),
        Action::NextCorpus => switch_corpus(app, 1),
        Action::PrevCorpus => switch_corpus(app, app.sources.len() - 1),
        Action::TrainOnTyped => train_on_typed(app),
        other => unreachable!("not a training action: {other:?}"),
    }
}

/// The "go to merge" prompt.
fn update_prompt(app: &mut App, action: Action) {
    match action {
        Action::OpenGoto => app.input = InputMode::Goto(String::new()),
        Action::PromptType(c) => prompt_type(app, c),
        Action::PromptDelete => prompt_delete(app),
        Action::PromptSubmit => prompt_submit(app),
        Action::PromptCancel => app.input = InputMode::Normal,
        other => unreachable!("not a prompt action: {other:?}"),
    }
}

/// The class's question: asked by the teacher, voted on by students.
fn update_class(app: &mut App, action: Action) {
    match action {
        Action::AskClass => question::ask(app),
        Action::BallotMove(down) => question::move_cursor(app, down),
        Action::Vote => question::vote(app),
        other => unreachable!("not a class action: {other:?}"),
    }
}

/// The main screen's panes: focus, scrolling, what they show, help, the
/// screen's size and quitting.
fn update_panes(app: &mut App, action: Action) {
    match action {
        Action::FocusNext => cycle_focus(app, 1),
        Action::FocusPrev => cycle_focus(app, Focus::ORDER.len() - 1),
        Action::FocusPane(pane) => app.focus = pane,
        Action::SelectMerge(rank) => select_merge(app, rank),
        Action::SelectMergeOf(id) => select_merge_of(app, id),
        Action::Scroll(by) if app.input == InputMode::Vocab => vocab::scroll(app, by),
        Action::Scroll(by) => scroll(app, by),
        Action::FindNext => find_next(app),
        Action::Toggle(t) => toggle(app, t),
        Action::Redraw => app.redraw = true,
        Action::ToggleHelp => toggle_help(app),
        Action::Resize(w, h) => app.size = (w, h),
        Action::Quit => app.quit = true,
        other => unreachable!("not a pane action: {other:?}"),
    }
}

/// The encode box: editing its text, encoding it and taking the result
/// away.
fn update_encode_box(app: &mut App, action: Action) {
    match action {
        Action::StartEditing => start_editing(app),
        Action::StopEditing => app.input = InputMode::Normal,
        Action::Type(c) => type_char(app, c),
        Action::Paste(text) => paste(app, &text),
        Action::MoveCursor(to) => app.encode.move_cursor(to),
        Action::DeleteBack => app.encode.delete_back(),
        Action::DeleteForward => app.encode.delete_forward(),
        Action::ClearEncode if app.encode.text.is_empty() => {
            app.notice = Some("the encode box is empty already".into());
        }
        Action::ClearEncode => app.encode.clear(),
        Action::EncodeMore => app.encode.encode_more(&app.toks),
        Action::CopyEncoded => export::copy(app),
        Action::SaveEncoded => export::save(app),
        Action::ToggleChat => toggle_chat(app),
        other => unreachable!("not an encode box action: {other:?}"),
    }
}

/// The merge tree and the vocabulary search it may be opened from.
fn update_vocab_and_tree(app: &mut App, action: Action) {
    match action {
        Action::OpenTree if app.input == InputMode::Vocab => vocab::open_tree(app),
        Action::OpenTree => open_tree(app),
        Action::CloseTree => app.tree = None,
        Action::OpenVocab => vocab::open(app),
        Action::VocabType(c) => vocab::type_char(app, c),
        Action::VocabDelete => vocab::delete(app),
        Action::CloseVocab => vocab::close(app),
        other => unreachable!("not a vocabulary or tree action: {other:?}"),
    }
}

/// The fertility view, and the tokenizers and tokens the encode box
/// shares with it.
fn update_fertility(app: &mut App, action: Action) {
    match action {
        Action::ToggleFertility => toggle_fertility(app),
        Action::NextPanel => cycle_panel(app, 1),
        Action::PrevPanel => cycle_panel(app, Panel::ORDER.len() - 1),
        Action::ToggleCuts => cuts::toggle(app),
        Action::NextTokenizer if app.fert.cuts.on => cuts::select_band(app, 1),
        Action::PrevTokenizer if app.fert.cuts.on => cuts::select_band(app, -1),
        Action::NextTokenizer => select_tokenizer(app, 1),
        Action::PrevTokenizer => select_tokenizer(app, -1),
        Action::NextToken if !app.fert.open => select_encode_token(app, 1),
        Action::PrevToken if !app.fert.open => select_encode_token(app, -1),
        Action::SelectToken(i) if !app.fert.open => select_encode_token_at(app, i),
        Action::SelectToken(i) => app.fert.token = i,
        Action::SelectBandByte { slot, byte } => cuts::select_band_at(app, slot, byte),
        Action::NextToken => app.fert.token += 1,
        Action::PrevToken => app.fert.token = app.fert.token.saturating_sub(1),
        Action::ToggleTextSource => toggle_text_source(app),
        Action::NextMetric => {
            app.fert.metric = cycle(&Metric::ORDER, app.fert.metric, 1);
        }
        // The view's refresh after every action measures the next
        // tokenizers.
        Action::MeasureMore => {}
        Action::Loaded(done) => loaded(app, done),
        other => unreachable!("not a fertility action: {other:?}"),
    }
}

/// Keep the views consistent with the trainer after any action.
fn after_change(app: &mut App) {
    compare::refresh(
        app,
        Instant::now() + app.jobs.slice.max(std::time::Duration::from_millis(1)),
    );
    let merges = app.trainer().merges().len();
    if app.scroll.merge_cursor.is_some_and(|i| i + 1 >= merges) {
        // At (or past) the newest merge the list follows training again.
        app.scroll.merge_cursor = None;
    }
    let pairs = app.trainer().pairs().len();
    app.scroll.pairs = app.scroll.pairs.min(pairs.saturating_sub(1));
    let lines = app.lines().count();
    if app.scroll.corpus.line >= lines {
        app.scroll.corpus = CorpusScroll::default();
    }
    let current = app.current;
    // The trained tokenizer is rebuilt only when something shows it.
    let encoding_trained = app.toks.is_trained(app.toks.selected) && !app.encode.text.is_empty();
    if let Some(u) = app.unigram.as_mut() {
        unigram::after_change(u);
    }
    if let (true, Some(u)) = (app.fert.open || encoding_trained, &app.unigram) {
        let trainer = Arc::clone(&u.trainer);
        app.toks.sync_trained_unigram(&trainer);
    } else if app.fert.open || encoding_trained {
        let trainer = Arc::clone(&app.loaded().trainer);
        app.toks.sync_trained(current, &trainer);
    }
    app.encode.refresh(&app.toks);
    app.chat
        .refresh(&app.toks, &app.encode.text, app.encode.generation());
    if app
        .encode
        .selected
        .is_some_and(|i| i >= app.encode.ids.len())
    {
        app.encode.selected = None;
    }
    if app.input == InputMode::Editing {
        // Editing shows the cursor; leaving shows the end again.
        app.encode.scroll = 0;
    }
    if app.fert.open {
        let generation = app.encode.generation();
        // Less than a long action's slice: a key that starts measuring is
        // answered within a frame, and the rest goes on between frames.
        let deadline = Instant::now() + app.jobs.slice.min(crate::fertility::MEASURE_SLICE);
        app.fert
            .refresh(&app.toks, &app.encode.text, generation, deadline);
        app.chat
            .refresh_all(&app.toks, &app.encode.text, generation);
    }
    cuts::refresh(app);
}

/// Write down where training stands, if the session is being recorded.
fn record(app: &mut App) {
    if app.jobs.current.is_some() {
        // The merges a job passes on its way are not lesson steps.
        return;
    }
    if let (Some(rec), Some(u)) = (app.recording.as_mut(), &app.unigram) {
        return rec.note_unigram(u.trainer.step_count());
    }
    let trainer = Arc::clone(&app.loaded().trainer);
    let current = app.current;
    if let Some(rec) = app.recording.as_mut()
        && rec.source == current
    {
        rec.note(&trainer);
    }
}
