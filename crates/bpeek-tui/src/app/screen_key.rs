//! What a shared screen is drawn from, as one value (see
//! [`crate::view::shared_frame`]).
//!
//! [`App::screen_key`] takes the whole `App` apart with no `..`: a field
//! added to `App` does not compile here until it is placed in one of three
//! groups: part of the key, a state in which no screen is shared, or not
//! drawn at all. The trainer is compared by identity beside the key.

use super::{App, Autoplay, Focus, InputMode, Scrolls, Shown};
use crate::class::{Classroom, Role};
use crate::options::args::TrainingOptions;
use crate::theme::Theme;
use ratatui::layout::Rect;

/// Everything besides the trainer that a plain screen of a follower is
/// drawn from. Two explorers with equal keys and the same trainer draw the
/// same screen. Owned, so that a
/// class's cache of screens can keep it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ScreenKey {
    area: Rect,
    current: usize,
    corpus_name: Option<String>,
    options: TrainingOptions,
    theme: Theme,
    focus: Focus,
    shown: Shown,
    autoplay: Autoplay,
    scroll: Scrolls,
    encode_scroll: usize,
    encode_selected: Option<usize>,
    tokenizer: usize,
    /// Each compared tokenizer: its label, whether it is loading, and the
    /// stamp that changes whenever it does.
    tokenizers: Vec<(String, bool, u64)>,
    /// Chat mode (with no text in the box, only the box's title shows it).
    chat: bool,
    class: ClassKey,
}

/// The part of the class a follower's screen shows.
#[derive(Debug, PartialEq, Eq, Hash)]
struct ClassKey {
    role: Role,
    following: bool,
    status: String,
}

impl App {
    /// The key of this explorer's screen at `area`, if the screen may be
    /// shared: only a follower in the plain state most of a class is in
    /// (no prompt, notice, overlay, job, question, comparison or text of
    /// its own) shares screens.
    pub fn screen_key(&self, area: Rect) -> Option<ScreenKey> {
        let App {
            // In the key.
            sources,
            current,
            options,
            theme,
            focus,
            shown,
            autoplay,
            scroll,
            toks,
            encode,
            chat,
            classroom,
            // Compared by identity beside the key.
            corpus: _,
            // A screen is shared only while these are at rest.
            input,
            jobs,
            fert,
            notice,
            tree,
            vocab,
            lesson,
            recording,
            compare,
            d_model,
            // Unigram screens are drawn by each explorer.
            unigram,
            // Not drawn: the loop's own bookkeeping (the size is `area`).
            size: _,
            dirty: _,
            redraw: _,
            quit: _,
            outgoing: _,
        } = self;
        let class = classroom.as_ref()?;
        let at_rest = *input == InputMode::Normal
            && notice.is_none()
            && tree.is_none()
            && vocab.is_none()
            && lesson.is_none()
            && recording.is_none()
            && compare.is_none()
            && d_model.is_none()
            && unigram.is_none()
            && jobs.current.is_none()
            && !fert.open
            && encode.text.is_empty()
            && !encode.encoding()
            && !autoplay.on
            && class_at_rest(class);
        if !at_rest {
            return None;
        }
        Some(ScreenKey {
            area,
            current: *current,
            corpus_name: sources.get(*current).map(|s| s.name.clone()),
            options: options.clone(),
            theme: *theme,
            focus: *focus,
            shown: *shown,
            autoplay: *autoplay,
            scroll: scroll.clone(),
            encode_scroll: encode.scroll,
            encode_selected: encode.selected,
            tokenizer: toks.selected,
            tokenizers: toks
                .slots
                .iter()
                .map(|s| (s.label.clone(), s.is_loading(), s.stamp))
                .collect(),
            chat: chat.on,
            class: ClassKey {
                role: class.role,
                following: class.following,
                status: class.status(),
            },
        })
    }
}

/// No vote asked for or under way: a question draws a box of its own.
fn class_at_rest(class: &Classroom) -> bool {
    class.asking.is_none() && class.question.is_none()
}
