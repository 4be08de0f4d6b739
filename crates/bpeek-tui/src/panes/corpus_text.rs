//! The corpus as the screen shows it: each line cut into its current
//! tokens, in alternating styles, with the marks of the current round and
//! of the selected merge.

use crate::action::Toggle;
use crate::app::{App, InputMode};
use crate::panes::lines::LineIndex;
use crate::panes::rows::{Piece, Placed, Rows, TextLook, lay_out, tag_under};
use crate::panes::shared_rows::{self, LookKey};
use crate::theme::{Mark, Theme};
use bpeek_core::train::trainer::Segment;
use bpeek_core::{Mode, Pair, Phase, TokenId, Trainer};
use ratatui::text::Line;

/// What the current round highlights.
#[derive(Debug, Clone, PartialEq)]
pub enum Round {
    None,
    /// The pair chosen in this round: its occurrences.
    Pair(Pair),
    /// The token the last merge made.
    Applied(TokenId),
}

/// The merge selected in the merge list, and for every id whether it is
/// built on that merge.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub id: TokenId,
    pub built_on: Vec<bool>,
}

/// What the corpus pane highlights: the current round's marks always, and
/// a selected merge's on top of them, never instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub round: Round,
    pub selected: Option<Selection>,
}

impl Target {
    pub const NONE: Target = Target {
        round: Round::None,
        selected: None,
    };

    pub fn of(app: &App) -> Target {
        let trainer = app.trainer();
        let selected = app.selected_merge().map(|rank| {
            let merges = trainer.merges();
            let id = merges[rank].id;
            let mut built_on = vec![false; trainer.vocab().len()];
            built_on[id as usize] = true;
            for m in &merges[rank + 1..] {
                built_on[m.id as usize] =
                    built_on[m.pair.0 as usize] || built_on[m.pair.1 as usize];
            }
            Selection { id, built_on }
        });
        let round = match trainer.phase() {
            Phase::Chosen(choice) => Round::Pair(choice.pair),
            Phase::Merged => trainer
                .merges()
                .last()
                .map_or(Round::None, |m| Round::Applied(m.id)),
            Phase::Counted => Round::None,
        };
        Target { round, selected }
    }

    fn mark_of(&self, id: TokenId) -> Mark {
        if self.round == Round::Applied(id) {
            return Mark::Applied;
        }
        match &self.selected {
            Some(s) if s.id == id => Mark::Selected,
            Some(s) if s.built_on.get(id as usize) == Some(&true) => Mark::Inside,
            _ => Mark::None,
        }
    }
}

/// Which tokens of a line to find on screen as it is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tags {
    None,
    /// The one holding this byte of the text.
    Place(usize),
    /// Every one, tagged by its place in the line.
    Every,
}

/// Everything needed to draw corpus lines, taken from the app once a frame.
pub struct CorpusLook<'a> {
    pub trainer: &'a Trainer,
    pub lines: &'a LineIndex,
    pub theme: &'a Theme,
    pub whitespace: bool,
    pub separators: bool,
    pub hex: bool,
    pub target: Target,
    /// In a class, the trainer shown and the look, to find rows other
    /// explorers have laid out already (see [`shared_rows`]); made once a
    /// frame, not once a line.
    shared: Option<(std::sync::Weak<Trainer>, LookKey)>,
}

impl<'a> CorpusLook<'a> {
    pub fn of(app: &'a App) -> Self {
        let mut look = CorpusLook {
            trainer: app.trainer(),
            lines: app.lines(),
            theme: &app.theme,
            whitespace: app.shows(Toggle::Whitespace),
            separators: app.shows(Toggle::Separators),
            hex: app.shows(Toggle::Hex),
            target: if matches!(app.input, InputMode::Help) {
                Target::NONE
            } else {
                Target::of(app)
            },
            shared: None,
        };
        if app.classroom.is_some() {
            let key = LookKey {
                theme: *look.theme,
                whitespace: look.whitespace,
                separators: look.separators,
                hex: look.hex,
                target: look.target.clone(),
            };
            look.shared = Some((std::sync::Arc::downgrade(&app.loaded().trainer), key));
        }
        look
    }

    /// Line `i` of the corpus as rows `width` columns wide.
    pub fn line_rows(&self, i: usize, width: usize) -> Vec<Line<'static>> {
        self.first_rows(i, width, usize::MAX)
    }

    /// The first `most` rows of line `i` (a line can be thousands of
    /// characters long; a pane needs only the rows it shows).
    pub fn first_rows(&self, i: usize, width: usize, most: usize) -> Vec<Line<'static>> {
        let Some((trainer, look)) = &self.shared else {
            return self.lay_out_line(i, width, most, Tags::None).0;
        };
        shared_rows::rows(trainer, look, (i, width, most), || {
            self.lay_out_line(i, width, most, Tags::None).0
        })
    }

    /// The row of line `i` on which the token holding byte `at` of the
    /// text starts (0 if the line does not hold it).
    pub fn row_of(&self, i: usize, width: usize, at: usize) -> usize {
        let (_, placed, _) = self.lay_out_line(i, width, usize::MAX, Tags::Place(at));
        placed.first().map_or(0, |p| p.row)
    }

    /// The token drawn at `column` of row `row` of line `i`, if one is.
    pub fn token_at(&self, i: usize, width: usize, row: usize, column: usize) -> Option<TokenId> {
        let (rows, placed, ids) = self.lay_out_line(i, width, row + 1, Tags::Every);
        let widths: Vec<usize> = rows.iter().map(Line::width).collect();
        tag_under(&placed, &widths, row, column).map(|tag| ids[tag])
    }

    /// Line `i` laid out, up to `most` rows; where the tokens `tags` asks
    /// for start; and the id of each token of the line, by tag.
    fn lay_out_line(
        &self,
        i: usize,
        width: usize,
        most: usize,
        tags: Tags,
    ) -> (Vec<Line<'static>>, Vec<Placed>, Vec<TokenId>) {
        let range = self.lines.range(i);
        let text = self.trainer.corpus().text();
        let segments = self.trainer.segments(range.clone());
        let marks = self.marks(&segments);
        let char_mode = self.trainer.config().mode == Mode::Char;
        let vocab = self.trainer.vocab();
        let mut pieces: Vec<Piece> = Vec::with_capacity(segments.len() * 2 + 1);
        let mut pos = range.start;
        let mut nth = 0usize;
        let mut ids = Vec::new();
        for (seg, mark) in segments.iter().zip(marks) {
            let start = seg.start.max(range.start);
            let end = seg.end.min(range.end);
            // Char mode's `</w>` covers no text: it is drawn as a mark.
            let end_of_word = char_mode && vocab.token_bytes(seg.id).ends_with(b"</w>");
            if start == end && !end_of_word {
                continue;
            }
            if pos < start {
                pieces.push(Piece::gap(&text[pos..start]));
            }
            let mut piece = Piece::token(&text[start..end], self.theme.token_at(nth, mark));
            piece.end_of_word = end_of_word && seg.end <= range.end;
            piece.tag = match tags {
                Tags::Place(at) if (start..end).contains(&at) => Some(0),
                Tags::Every => Some(ids.len()),
                _ => None,
            };
            ids.push(seg.id);
            pieces.push(piece);
            nth += 1;
            pos = pos.max(end);
        }
        if pos < range.end {
            pieces.push(Piece::gap(&text[pos..range.end]));
        }
        let look = TextLook {
            theme: self.theme,
            whitespace: self.whitespace,
            hex: self.hex,
            separators: self.separators,
            line_breaks: false,
        };
        let mut rows = Rows::new(width).with_row_limit(most);
        lay_out(&mut rows, &pieces, &look);
        let (mut rows, _, placed) = rows.finish_placed();
        rows.truncate(most);
        (rows, placed, ids)
    }

    pub fn line_height(&self, i: usize, width: usize) -> usize {
        self.line_rows(i, width).len()
    }

    /// The height of line `i`, counted only up to `most` rows.
    pub fn line_height_upto(&self, i: usize, width: usize, most: usize) -> usize {
        self.first_rows(i, width, most).len()
    }

    /// The mark of each segment; chosen-pair occurrences are found left to
    /// right without overlap, as the merge will replace them.
    fn marks(&self, segments: &[Segment]) -> Vec<Mark> {
        let mut marks: Vec<Mark> = segments.iter().map(|s| self.target.mark_of(s.id)).collect();
        if let Round::Pair((a, b)) = self.target.round {
            let mut i = 0;
            while i + 1 < segments.len() {
                let (l, r) = (&segments[i], &segments[i + 1]);
                if l.id == a && r.id == b && !r.chunk_start && l.end == r.start {
                    marks[i] = Mark::Chosen;
                    marks[i + 1] = Mark::Chosen;
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
        marks
    }
}
