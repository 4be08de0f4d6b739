//! The model: every piece of state the screen shows, and nothing that knows
//! how to draw it.

pub mod screen_key;
pub mod unigram;

use crate::action::Toggle;
use crate::fertility::FertilityView;
use crate::fertility::tokenizers::TokenizerSet;
use crate::options::args::TrainingOptions;
use crate::options::input::build_trainer;
use crate::panes::encode_box::EncodeBox;
use crate::panes::lines::LineIndex;
use crate::theme::Theme;
use bpeek_core::Trainer;
use bpeek_core::corpora;
use bpeek_core::error::Result;
use std::sync::Arc;

/// The panes that can hold the keyboard focus, in Tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Focus {
    Corpus,
    Pairs,
    Merges,
    Encode,
}

impl Focus {
    pub const ORDER: [Focus; 4] = [Focus::Corpus, Focus::Pairs, Focus::Merges, Focus::Encode];

    pub fn name(self) -> &'static str {
        match self {
            Focus::Corpus => "corpus",
            Focus::Pairs => "pairs",
            Focus::Merges => "merges",
            Focus::Encode => "encode",
        }
    }
}

/// What the keyboard is talking to besides the panes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputMode {
    Normal,
    /// Keys type into the encode box.
    Editing,
    /// The "go to merge" prompt (in the fertility view's merge list: "go
    /// to rank"), with the digits typed so far.
    Goto(String),
    Help,
    /// Keys type into the vocabulary search.
    Vocab,
    /// The next key picks the option a new compare column changes.
    AddColumn,
    /// The list of tokenizers by name, to add one.
    Pick(crate::picker::Picker),
}

/// Which parts of the main screen are shown (each [`Toggle`] on or off;
/// all off at the start).
/// Where each pane stands: its first row shown, or its selected row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Scrolls {
    pub corpus: CorpusScroll,
    pub pairs: usize,
    /// The selected row of the merge list; `None` follows the newest merge.
    pub merge_cursor: Option<usize>,
    pub help: usize,
    /// The first row of the chunk table shown.
    pub chunks: usize,
    /// The user moved the corpus view since the last training step, so the
    /// next step leaves it where it is.
    pub corpus_moved: bool,
    /// Where in the text `/` last found the highlight, so the next press
    /// goes on from there.
    pub found_at: Option<usize>,
}

/// Long actions and the work they hand to other threads.
#[derive(Debug)]
pub struct Jobs {
    /// The long action under way, if one is (see [`crate::job`]).
    pub current: Option<crate::job::Job>,
    /// How long one slice of a long action may run between frames (zero
    /// makes each slice a single step: tests watch a job go merge by merge).
    pub slice: std::time::Duration,
    /// Work for another thread, not yet handed to the event source.
    pub work: Vec<crate::job::Work>,
    /// Why the explorer could not go on (the corpus opened in the
    /// background failed): the loop ends with it.
    pub failed: Option<bpeek_core::error::Error>,
    /// Training keys pressed during a lesson's step, run once it is done.
    pub queued: Vec<crate::action::Action>,
}

impl Default for Jobs {
    fn default() -> Self {
        Jobs {
            current: None,
            slice: crate::job::SLICE,
            work: Vec::new(),
            failed: None,
            queued: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Shown(u32);

impl Shown {
    pub fn has(self, toggle: Toggle) -> bool {
        self.0 & Self::bit(toggle) != 0
    }

    pub fn set(&mut self, toggle: Toggle, on: bool) {
        if on {
            self.0 |= Self::bit(toggle);
        } else {
            self.0 &= !Self::bit(toggle);
        }
    }

    /// Turn `toggle` over; returns whether it is on now.
    pub fn flip(&mut self, toggle: Toggle) -> bool {
        self.0 ^= Self::bit(toggle);
        self.has(toggle)
    }

    fn bit(toggle: Toggle) -> u32 {
        1 << toggle as u32
    }
}

/// Corpus files at least this large are opened on another thread, with
/// progress on screen; smaller ones are read before the screen opens.
pub const OPEN_AWAY_FROM: u64 = 4 << 20;

/// Autoplay rates, in merges per second.
pub const SPEEDS: [f64; 8] = [0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0];
const DEFAULT_SPEED: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Autoplay {
    pub on: bool,
    /// Each tick moves one phase of a round (counted, chosen, merged)
    /// instead of a whole merge.
    pub by_phase: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
}

impl Autoplay {
    pub fn per_second(self) -> f64 {
        SPEEDS[self.speed]
    }

    pub fn interval(self) -> Option<std::time::Duration> {
        self.on
            .then(|| std::time::Duration::from_secs_f64(1.0 / self.per_second()))
    }
}

/// Where the corpus view starts: a line of the line index and a row of that
/// line once wrapped to the pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct CorpusScroll {
    pub line: usize,
    pub row: usize,
}

/// A corpus the user can switch to, trained lazily the first time.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    /// Trained already, for a corpus shown before; `None` for the current
    /// one, whose trainer is [`App::loaded`], and for those not opened.
    pub loaded: Option<Loaded>,
}

/// A corpus with its trainer and the line index of its text.
///
/// The trainer is shared: in a class every follower shows the teacher's
/// own trainer (one copy, however many students), and an explorer copies
/// it only when it moves on its own (see [`App::trainer_mut`]).
#[derive(Debug)]
pub struct Loaded {
    pub trainer: Arc<Trainer>,
    pub lines: Arc<LineIndex>,
}

impl Loaded {
    pub fn new(trainer: Trainer) -> Self {
        Loaded::shared(Arc::new(trainer))
    }

    pub fn shared(trainer: Arc<Trainer>) -> Self {
        let lines = LineIndex::of_corpus(&trainer);
        Loaded { trainer, lines }
    }
}

#[derive(Debug)]
pub struct App {
    pub sources: Vec<Source>,
    pub current: usize,
    /// The current corpus and its trainer: there always is one (a stand-in
    /// while a big corpus opens).
    corpus: Loaded,
    /// The options the corpora are trained with.
    pub options: TrainingOptions,
    pub theme: Theme,
    pub focus: Focus,
    pub input: InputMode,
    /// The parts of the main screen a key shows or hides.
    pub shown: Shown,
    pub autoplay: Autoplay,
    /// Where each pane stands.
    pub scroll: Scrolls,
    /// Long actions and the work they hand to other threads.
    pub jobs: Jobs,
    pub encode: EncodeBox,
    /// The encode box's chat mode and what the turn costs.
    pub chat: crate::panes::chat_turn::ChatTurn,
    /// The tokenizers to compare and encode with.
    pub toks: TokenizerSet,
    pub fert: FertilityView,
    /// A one-line message for the footer, cleared by the next action.
    pub notice: Option<String>,
    /// Screen size in columns and rows.
    pub size: (u16, u16),
    /// Something changed since the last frame.
    pub dirty: bool,
    /// The whole screen must be drawn again, not only what changed.
    pub redraw: bool,
    pub quit: bool,
    /// Bytes for the terminal itself, sent after the next frame (the
    /// clipboard's escape sequence).
    pub outgoing: Vec<u8>,
    /// In a served classroom: role, following and the line to the class.
    pub classroom: Option<crate::class::Classroom>,
    /// The merge tree shown over the panes, if one is open.
    pub tree: Option<crate::panes::merge_tree::MergeTree>,
    /// The vocabulary search, while open (and under a merge tree opened
    /// from it).
    pub vocab: Option<crate::panes::vocab_search::VocabSearch>,
    /// The lesson being replayed, if one was given.
    pub lesson: Option<crate::lesson::Lesson>,
    /// The session written down as a lesson, if asked for.
    pub recording: Option<crate::lesson::record::Recording>,
    /// Configurations side by side, if more than one is trained.
    pub compare: Option<crate::compare::Comparison>,
    /// `--d-model`: the model width the curve prices the vocabulary for.
    pub d_model: Option<u32>,
    /// Unigram mode (`--model unigram`): the trainer the panes show
    /// instead of the BPE one.
    pub unigram: Option<unigram::UnigramView>,
}

impl App {
    /// Whether `toggle` is on.
    pub fn shows(&self, toggle: Toggle) -> bool {
        self.shown.has(toggle)
    }

    /// An app on the corpus the options name, the bundled corpora a key away.
    pub fn from_options(options: &TrainingOptions, theme: Theme) -> Result<Self> {
        let (name, trainer) = build_trainer(options)?;
        Ok(App::from_built(options, name, trainer, theme))
    }

    /// [`App::from_options`] with the first corpus already counted into
    /// `trainer` (named `name`), as [`build_trainer`] makes it: a server
    /// counts once and every session starts on that one trainer.
    pub fn from_built(
        options: &TrainingOptions,
        name: String,
        trainer: impl Into<Arc<Trainer>>,
        theme: Theme,
    ) -> Self {
        let mut sources: Vec<Source> = corpora::BUNDLED
            .iter()
            .map(|c| Source {
                name: c.name.to_string(),
                loaded: None,
            })
            .collect();
        let from_bundle = options.corpus.is_none();
        let current = match sources.iter().position(|s| s.name == name) {
            Some(i) if from_bundle => i,
            _ => {
                sources.insert(
                    0,
                    Source {
                        name: name.clone(),
                        loaded: None,
                    },
                );
                0
            }
        };
        let loaded = Loaded::shared(trainer.into());
        let mut app = App::with_sources(sources, current, loaded, options.clone(), theme);
        if !app.trainer().corpus().has_text() {
            // Counted chunks have no text to show: their table is the view.
            app.shown.set(Toggle::ChunkTable, true);
        }
        app
    }

    /// [`App::from_options`], except that a corpus file of more than a
    /// few megabytes is read and counted on another thread while the
    /// screen shows how far it has got (see [`App::opening_job`]). Options
    /// and the file's existence are checked at once, so a mistake is
    /// reported before the screen opens.
    pub fn opening(options: &TrainingOptions, theme: Theme) -> Result<Self> {
        let path = match options.corpus.as_deref() {
            Some(p) if options.corpus_name.is_none() => p,
            _ => return App::from_options(options, theme),
        };
        if path == "-" {
            crate::options::input::check_stdin_open()?;
        }
        let config = crate::options::input::trainer_config(options)?;
        // A missing file is told the usual way. Anything but a regular file
        // (a device, a FIFO, a pipe) has no size and may never end, or
        // block until a writer comes: it is read behind the opening screen,
        // where Esc and q still answer.
        let meta = if path == "-" {
            std::fs::metadata("/dev/stdin")
        } else {
            std::fs::metadata(path)
        };
        let size = match meta {
            Ok(m) if m.is_file() && m.len() > crate::job::MAX_CORPUS_BYTES => {
                return Err(crate::job::too_big(path));
            }
            // Opening at once tells an unreadable file the usual way.
            Ok(m)
                if m.is_file()
                    && m.len() >= OPEN_AWAY_FROM
                    && (path == "-" || std::fs::File::open(path).is_ok()) =>
            {
                m.len()
            }
            Ok(m) if !m.is_file() && !m.is_dir() => 0,
            _ => return App::from_options(options, theme),
        };
        // Something to show behind the opening screen until the corpus is in.
        let stand_in = bpeek_core::Trainer::new(Vec::new(), config)?;
        let mut app = App::from_built(options, path.to_string(), stand_in, theme);
        let (job, work) = crate::job::Job::open(options, path, size);
        app.jobs.current = Some(job);
        app.jobs.work.push(work);
        Ok(app)
    }

    /// Whether the corpus is still being opened (the screen then shows
    /// only that).
    pub fn opening_job(&self) -> bool {
        self.jobs.current.as_ref().is_some_and(|j| j.is_opening())
    }

    /// Work queued for another thread, for the loop to hand to its event
    /// source.
    pub fn take_work(&mut self) -> Vec<crate::job::Work> {
        std::mem::take(&mut self.jobs.work)
    }

    /// An app on a trainer built elsewhere (tests, benchmarks).
    pub fn from_trainer(name: &str, trainer: Trainer, theme: Theme) -> Self {
        let sources = vec![Source {
            name: name.to_string(),
            loaded: None,
        }];
        let loaded = Loaded::new(trainer);
        App::with_sources(sources, 0, loaded, TrainingOptions::default(), theme)
    }

    fn with_sources(
        sources: Vec<Source>,
        current: usize,
        corpus: Loaded,
        options: TrainingOptions,
        theme: Theme,
    ) -> Self {
        App {
            sources,
            current,
            corpus,
            options,
            theme,
            focus: Focus::Corpus,
            input: InputMode::Normal,
            shown: Shown::default(),
            autoplay: Autoplay {
                on: false,
                by_phase: false,
                speed: DEFAULT_SPEED,
            },
            scroll: Scrolls::default(),
            jobs: Jobs::default(),
            encode: EncodeBox::default(),
            chat: Default::default(),
            toks: TokenizerSet::default(),
            fert: FertilityView::default(),
            notice: None,
            size: (80, 24),
            dirty: true,
            redraw: false,
            quit: false,
            outgoing: Vec::new(),
            classroom: None,
            tree: None,
            vocab: None,
            lesson: None,
            recording: None,
            compare: None,
            d_model: None,
            unigram: None,
        }
    }

    pub fn loaded(&self) -> &Loaded {
        &self.corpus
    }

    pub fn loaded_mut(&mut self) -> &mut Loaded {
        &mut self.corpus
    }

    /// Source `i`'s trainer, if it has one.
    pub fn loaded_at(&self, i: usize) -> Option<&Loaded> {
        if i == self.current {
            Some(&self.corpus)
        } else {
            self.sources.get(i)?.loaded.as_ref()
        }
    }

    /// Make source `i` current with `loaded`, keeping the one it replaces
    /// for when it is shown again.
    pub fn make_current(&mut self, i: usize, loaded: Loaded) {
        let old = std::mem::replace(&mut self.corpus, loaded);
        if i != self.current {
            self.sources[self.current].loaded = Some(old);
            self.current = i;
        }
    }

    /// Source `i`'s trainer taken out, to be made current; the current
    /// one's is not taken.
    pub fn take_loaded(&mut self, i: usize) -> Option<Loaded> {
        if i == self.current {
            None
        } else {
            self.sources.get_mut(i)?.loaded.take()
        }
    }

    pub fn trainer(&self) -> &Trainer {
        &self.loaded().trainer
    }

    /// The trainer to move: copied first if another explorer shares it.
    pub fn trainer_mut(&mut self) -> &mut Trainer {
        Arc::make_mut(&mut self.loaded_mut().trainer)
    }

    pub fn lines(&self) -> &LineIndex {
        &self.loaded().lines
    }

    pub fn corpus_name(&self) -> &str {
        &self.sources[self.current].name
    }

    /// The merge the merge list has selected, if the list has the focus.
    pub fn selected_merge(&self) -> Option<usize> {
        if self.focus != Focus::Merges {
            return None;
        }
        let n = self.trainer().merges().len();
        match self.scroll.merge_cursor {
            Some(i) if i < n => Some(i),
            _ => n.checked_sub(1),
        }
    }

    /// Why training can go no further, if it cannot: known as soon as the
    /// last merge is made, not only when the next one is asked for.
    pub fn training_end(&self) -> Option<bpeek_core::StopReason> {
        let trainer = self.trainer();
        trainer.stop_reason().or_else(|| {
            matches!(
                trainer.phase(),
                bpeek_core::Phase::Counted | bpeek_core::Phase::Merged
            )
            .then(|| trainer.peek_choice().err())
            .flatten()
        })
    }

    /// Whether training can go no further, in either mode.
    pub fn training_over(&self) -> bool {
        match &self.unigram {
            Some(u) => u.trainer.next_phase().is_err(),
            None => self.training_end().is_some(),
        }
    }

    /// The special tokens training adds, each counted once.
    pub fn specials(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.options.specials {
            if !out.contains(&s.as_str()) {
                out.push(s);
            }
        }
        out
    }

    /// Compare (and encode) with the tokenizer `spec` names too: a built-in
    /// name or a file. It starts loading at once.
    pub fn add_tokenizer(&mut self, spec: &str) {
        self.toks.add(spec);
    }

    /// Whether the go-to prompt goes to a rank of the browsed merge list
    /// rather than to a merge of training.
    pub fn goto_is_rank(&self) -> bool {
        self.fert.open && self.fert.panel == crate::fertility::Panel::Merges
    }

    /// Load source `i` if needed and make it current.
    pub fn switch_to(&mut self, i: usize) -> Result<()> {
        if i == self.current {
            return Ok(());
        }
        let loaded = match self.sources[i].loaded.take() {
            Some(loaded) => loaded,
            None => {
                let options = TrainingOptions {
                    corpus: None,
                    counts: Vec::new(),
                    corpus_name: Some(self.sources[i].name.clone()),
                    ..self.options.clone()
                };
                Loaded::new(build_trainer(&options)?.1)
            }
        };
        self.make_current(i, loaded);
        Ok(())
    }
}
