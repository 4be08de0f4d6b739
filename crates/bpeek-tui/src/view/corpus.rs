//! The corpus pane: the text cut into its current tokens, from the scroll
//! position down, drawing only the lines that show.

use crate::app::{App, Focus};
use crate::layout::inner;
use crate::panes::corpus_text::{CorpusLook, Round, Target};
use crate::theme::Mark;
use crate::view::widths::{self, truncate_left};
use crate::view::{pane_block, token_label};
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    if !app.trainer().corpus().has_text() {
        return draw_no_text(frame, area, app);
    }
    let look = CorpusLook::of(app);
    let body = inner(area);
    let width = body.width as usize;
    let height = body.height as usize;
    let mut rows: Vec<Line> = Vec::with_capacity(height);
    let mut line = app.scroll.corpus.line;
    let mut skip = app.scroll.corpus.row;
    while rows.len() < height && line < look.lines.count() {
        let wrapped = look.first_rows(line, width, skip + height - rows.len());
        rows.extend(wrapped.into_iter().skip(skip));
        skip = 0;
        line += 1;
    }
    let right = format!("line {}/{}", app.scroll.corpus.line + 1, look.lines.count());
    // Borders, the spaces around both titles and a gap between them.
    let room =
        (area.width as usize).saturating_sub(widths::width(&right) + 8 + widths::width("Corpus: "));
    let name = truncate_left(app.corpus_name(), room, app.theme.glyphs.ellipsis);
    let block = pane_block(
        app,
        Focus::Corpus,
        format!("Corpus: {name}"),
        right,
        area.width,
    )
    .title_bottom(legend(
        app,
        &look.target,
        area.width,
        crate::view::shows_right_to_left(&rows),
    ));
    frame.render_widget(block, area);
    // Rows already cut to the width are put in place as they are: a
    // paragraph would measure them all again (a class draws this pane
    // for every student at every step).
    let buf = frame.buffer_mut();
    for (y, row) in (body.y..body.bottom()).zip(&rows) {
        buf.set_line(body.x, y, row, body.width);
    }
}

/// The token of the corpus drawn at `at` in a pane `area`, if one is: the
/// rows from the scroll position down, as [`draw`] puts them.
pub fn token_at(app: &App, area: Rect, at: Position) -> Option<bpeek_core::TokenId> {
    let body = inner(area);
    if !body.contains(at) || !app.trainer().corpus().has_text() {
        return None;
    }
    let look = CorpusLook::of(app);
    let width = body.width as usize;
    let column = usize::from(at.x - body.x);
    // Rows of the pane above the one clicked, line by line.
    let mut above = usize::from(at.y - body.y);
    let mut line = app.scroll.corpus.line;
    let mut skip = app.scroll.corpus.row;
    while line < look.lines.count() {
        let height = look.line_height_upto(line, width, skip + above + 1);
        let shown = height.saturating_sub(skip);
        if above < shown {
            return look.token_at(line, width, skip + above, column);
        }
        above -= shown;
        skip = 0;
        line += 1;
    }
    None
}

/// A sample of each mark on screen, with what it means, as many whole
/// items as fit in `cols` columns (the round's mark first).
fn legend(app: &App, target: &Target, cols: u16, right_to_left: bool) -> Line<'static> {
    let t = &app.theme;
    let tok = |id| token_label(app, id);
    let mut items: Vec<Vec<Span<'static>>> = Vec::new();
    match target.round {
        Round::None => {}
        Round::Pair((a, b)) => items.push(vec![
            Span::styled(tok(a), t.token(false, Mark::Chosen)),
            Span::styled(tok(b), t.token(true, Mark::Chosen)),
            Span::raw(" chosen pair "),
        ]),
        Round::Applied(id) => items.push(vec![
            Span::styled(tok(id), t.token(false, Mark::Applied)),
            Span::raw(" just made "),
        ]),
    }
    if let Some(selected) = &target.selected {
        items.push(vec![
            Span::styled(tok(selected.id), t.token(false, Mark::Selected)),
            Span::raw(" selected "),
        ]);
        items.push(vec![
            Span::styled("later", t.token(false, Mark::Inside)),
            Span::raw(" built on it "),
        ]);
    }
    if right_to_left {
        items.push(vec![Span::raw(format!(" {} ", crate::view::LOGICAL_ORDER))]);
    }
    let room = (cols as usize).saturating_sub(3);
    let width = |item: &Vec<Span>| item.iter().map(|s| s.width()).sum::<usize>();
    while items.iter().map(width).sum::<usize>() > room && !items.is_empty() {
        items.pop();
    }
    if items.is_empty() {
        return Line::default();
    }
    let mut spans = vec![Span::raw(" ")];
    spans.extend(items.into_iter().flatten());
    Line::from(spans)
}

/// A corpus read from count files holds each distinct chunk once, not the
/// text: the pane says so and where the chunks are shown.
fn draw_no_text(frame: &mut Frame, area: Rect, app: &App) {
    let corpus = app.trainer().corpus();
    let room = (area.width as usize).saturating_sub(8 + widths::width("Corpus: "));
    let name = truncate_left(app.corpus_name(), room, app.theme.glyphs.ellipsis);
    let block = pane_block(
        app,
        Focus::Corpus,
        format!("Corpus: {name}"),
        String::new(),
        area.width,
    );
    let key = crate::keymap::keys_of(&crate::action::Action::Toggle(
        crate::action::Toggle::ChunkTable,
    ));
    let text = format!(
        "No text: this corpus was read from count files, which hold each distinct chunk once with its count ({} from {} of text). {key} shows the chunk table.",
        crate::panes::why::plural(corpus.chunks().len() as u64, "chunk"),
        crate::panes::why::plural(corpus.source_len() as u64, "byte")
    );
    frame.render_widget(block, area);
    let para = ratatui::widgets::Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true });
    frame.render_widget(para, inner(area));
}
