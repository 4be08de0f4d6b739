//! Moving around: focus and panels in turn, scrolling every list, the
//! corpus pane following the round, and finding the highlight.

use super::*;
use crate::action::Toggle;

pub(super) fn cycle_panel(app: &mut App, by: usize) {
    app.fert.panel = cycle(&Panel::ORDER, app.fert.panel, by);
}

/// The item `by` places after `now` in `order`, round the end.
pub(super) fn cycle<T: Copy + PartialEq>(order: &[T], now: T, by: usize) -> T {
    let i = order.iter().position(|x| *x == now).unwrap_or(0);
    order[(i + by) % order.len()]
}

/// Move the cursor of the fertility panel shown.
pub(super) fn scroll_fertility(app: &mut App, by: Scroll) {
    let page = plan(app, app.size.0, app.size.1).list.max(1);
    let step = |at: usize, last: usize| by.apply(at, page, last);
    let pasted = app.fert.effective_source(&app.encode.text) == TextSource::Pasted;
    match app.fert.panel {
        Panel::Cost if pasted => {
            let last = app.toks.slots.len() - 1;
            app.toks.selected = step(app.toks.selected, last);
            app.toks.request(app.toks.selected);
            app.fert.merge_row = None;
        }
        Panel::Cost => {
            let last = bpeek_core::corpora::SAMPLES.len() - 1;
            app.fert.language = step(app.fert.language, last);
        }
        Panel::Scripts => {
            let count = app
                .fert
                .columns
                .iter()
                .filter_map(|c| c.scripts.as_ref().map(|(_, _, s)| s.len()))
                .max()
                .unwrap_or(0);
            let last = count.saturating_sub(page);
            app.fert.script_row = step(app.fert.script_row, last);
        }
        Panel::Digits => {
            app.fert.digit_row = step(app.fert.digit_row, numbers().len() - 1);
        }
        Panel::Merges => {
            let Some(tok) = app.toks.get(app.toks.selected) else {
                return;
            };
            let (rows, first) = merge_rows(tok);
            let at = app.fert.merge_row.unwrap_or(first);
            app.fert.merge_row = Some(step(at, rows.saturating_sub(1)));
        }
    }
}

pub(super) fn cycle_focus(app: &mut App, by: usize) {
    if app.compare.is_none() || app.fert.open {
        app.focus = cycle(&Focus::ORDER, app.focus, by);
        return;
    }
    // Configurations side by side show the corpus and the columns only.
    let panes = layout::for_app(app);
    for _ in Focus::ORDER {
        app.focus = cycle(&Focus::ORDER, app.focus, by);
        let shown = match app.focus {
            Focus::Corpus => true,
            Focus::Pairs => panes.pairs.is_some(),
            Focus::Merges => panes.merges.is_some(),
            Focus::Encode => panes.encode.is_some(),
        };
        if shown {
            return;
        }
    }
}

/// Select merge `rank` in the merge list, as the arrows there would (the
/// newest merge, or the pair waiting to be merged, follows training).
pub(super) fn select_merge(app: &mut App, rank: usize) {
    app.focus = Focus::Merges;
    app.scroll.merge_cursor = Some(rank);
}

/// Select the merge that made token `id`; a token no merge made (a byte,
/// a character, a special token) is said to be one.
pub(super) fn select_merge_of(app: &mut App, id: bpeek_core::TokenId) {
    match app.trainer().merges().iter().position(|m| m.id == id) {
        Some(rank) => select_merge(app, rank),
        None => {
            app.focus = Focus::Corpus;
            let label = crate::view::token_label(app, id);
            app.notice = Some(format!("{label} (id {id}): a base token, made by no merge"));
        }
    }
}

/// Rows a page of the focused list holds.
pub(super) fn page(app: &App, focus: Focus) -> usize {
    let panes = layout::for_app(app);
    let rect = match focus {
        Focus::Corpus => Some(panes.corpus),
        Focus::Pairs => panes.pairs,
        Focus::Merges => panes.merges,
        Focus::Encode => panes.encode,
    };
    // Bordered, and the two tables have a header row.
    let header = usize::from(matches!(focus, Focus::Pairs | Focus::Merges));
    rect.map_or(1, |r| {
        (inner(r).height as usize).saturating_sub(header).max(1)
    })
}

pub(super) fn scroll(app: &mut App, by: Scroll) {
    if let Some(tree) = &mut app.tree {
        tree.scroll = match by {
            Scroll::Up => tree.scroll.saturating_sub(1),
            _ => (tree.scroll + 1).min(tree.lines.len().saturating_sub(1)),
        };
        return;
    }
    if app.input == InputMode::Help {
        let area = ratatui::layout::Rect::new(0, 0, app.size.0, app.size.1);
        let g = layout::help_geometry(app, area);
        let page = g.rect.height.saturating_sub(3).max(1) as usize;
        let at = app.scroll.help.min(g.max_scroll as usize);
        app.scroll.help = by.apply(at, page, g.max_scroll as usize);
        return;
    }
    if app.fert.open {
        scroll_fertility(app, by);
        return;
    }
    let page = page(app, app.focus);
    match app.focus {
        Focus::Corpus if app.shows(Toggle::ChunkTable) => {
            let last = app.trainer().corpus().chunks().len().saturating_sub(page);
            app.scroll.chunks = by.apply(app.scroll.chunks, page, last);
        }
        Focus::Corpus => scroll_corpus(app, by, page),
        Focus::Pairs => {
            let rows = if app.shows(Toggle::ChangedOnly) {
                crate::panes::changed::rows(app.trainer()).len()
            } else {
                app.trainer().pairs().len()
            };
            let last = rows.saturating_sub(page);
            app.scroll.pairs = by.apply(app.scroll.pairs, page, last);
        }
        Focus::Merges => {
            let n = app.trainer().merges().len();
            let at = app.scroll.merge_cursor.unwrap_or(n.saturating_sub(1));
            let to = match by {
                Scroll::Up => at.saturating_sub(1),
                Scroll::Down => at + 1,
                Scroll::PageUp => at.saturating_sub(page),
                Scroll::PageDown => at + page,
                Scroll::Top => 0,
                Scroll::Bottom => n,
            };
            app.scroll.merge_cursor = Some(to);
        }
        Focus::Encode => {
            if app.encode.scroll >= crate::panes::encode_box::SCROLLED_TO_TOP {
                // At the top: moving down starts from where the top is.
                if let Some(area) = layout::for_app(app).encode {
                    app.encode.scroll = crate::view::encode::top_scroll(app, area);
                }
            }
            // `scroll` counts rows of text; under ids each takes two
            // rows of the box.
            let page = if app.input == InputMode::Editing {
                page
            } else {
                (page / 2).max(1)
            };
            app.encode.scroll = match by {
                Scroll::Up => app.encode.scroll + 1,
                Scroll::Down => app.encode.scroll.saturating_sub(1),
                Scroll::PageUp => app.encode.scroll + page,
                Scroll::PageDown => app.encode.scroll.saturating_sub(page),
                Scroll::Top => crate::panes::encode_box::SCROLLED_TO_TOP,
                Scroll::Bottom => 0,
            };
        }
    }
}

pub(super) fn scroll_corpus(app: &mut App, by: Scroll, page: usize) {
    let width = inner(layout::for_app(app).corpus).width as usize;
    let look = CorpusLook::of(app);
    let lines = app.lines().count();
    let mut at = app.scroll.corpus;
    let down = |at: &mut CorpusScroll| {
        if at.row + 1 < look.line_height_upto(at.line, width, at.row + 2) {
            at.row += 1;
        } else if at.line + 1 < lines {
            *at = CorpusScroll {
                line: at.line + 1,
                row: 0,
            };
        }
    };
    let up = |at: &mut CorpusScroll| {
        if at.row > 0 {
            at.row -= 1;
        } else if at.line > 0 {
            at.line -= 1;
            at.row = look.line_height(at.line, width) - 1;
        }
    };
    match by {
        Scroll::Up => up(&mut at),
        Scroll::Down => down(&mut at),
        Scroll::PageUp => (0..page.saturating_sub(1).max(1)).for_each(|_| up(&mut at)),
        Scroll::PageDown => (0..page.saturating_sub(1).max(1)).for_each(|_| down(&mut at)),
        Scroll::Top => at = CorpusScroll::default(),
        Scroll::Bottom => {
            // Fill the pane from the last line upwards.
            at = CorpusScroll {
                line: lines - 1,
                row: 0,
            };
            let mut room = page;
            let mut line = lines;
            while line > 0 && room > 0 {
                line -= 1;
                let h = look.line_height(line, width);
                if h >= room {
                    at = CorpusScroll {
                        line,
                        row: h - room,
                    };
                    room = 0;
                } else {
                    room -= h;
                    at = CorpusScroll { line, row: 0 };
                }
            }
        }
    }
    app.scroll.corpus = at;
    app.scroll.corpus_moved = true;
}

/// What the corpus highlights, in words, and its places as (chunk, offset
/// in the chunk): the selected merge if the merge list has one, else the
/// current round.
pub(super) fn highlighted(app: &App) -> Option<(String, Vec<(u32, u32)>)> {
    let trainer = app.trainer();
    if let Some(rank) = app.selected_merge() {
        return Some((merge_name(rank), trainer.places_of_merge(rank)));
    }
    match trainer.phase() {
        Phase::Chosen(choice) => Some((
            "the chosen pair".into(),
            trainer.places_of_pair(choice.pair),
        )),
        Phase::Merged => {
            let rank = trainer.merges().len() - 1;
            Some((merge_name(rank), trainer.places_of_merge(rank)))
        }
        Phase::Counted => None,
    }
}

/// The merge at `rank` (counted from 0 in the list) as the screen names
/// it: counted from 1, as the status line counts merges made.
pub(crate) fn merge_name(rank: usize) -> String {
    format!("merge {}", rank + 1)
}

/// After a training step, bring the first place of the chosen pair or the
/// new token into the corpus view, unless the user moved the view since
/// the step before, or it is in view already.
pub(super) fn follow_round(app: &mut App) {
    if std::mem::take(&mut app.scroll.corpus_moved) {
        return;
    }
    let Some(first) = app.trainer().first_place() else {
        return;
    };
    let width = inner(layout::for_app(app).corpus).width as usize;
    let page = page(app, Focus::Corpus);
    let look = CorpusLook::of(app);
    let line = look.lines.line_of(first);
    let row = look.row_of(line, width, first);
    let at = app.scroll.corpus;
    if (line, row) >= (at.line, at.row) {
        // Rows from the top of the pane down to the place.
        let (mut down, mut l, mut skip) = (0, at.line, at.row);
        while l < line && down < page {
            down += look
                .line_height_upto(l, width, skip + page - down)
                .saturating_sub(skip);
            skip = 0;
            l += 1;
        }
        if l == line && down + (row - skip) < page {
            return;
        }
    }
    app.scroll.corpus = CorpusScroll { line, row };
}

/// The first byte of line `line` whose token starts on display row `row`
/// of it or below (the line's end if none does): rows grow with bytes, so
/// a binary search over the line's bytes finds it.
fn first_on_row(app: &App, line: usize, row: usize) -> usize {
    let range = app.lines().range(line);
    if row == 0 {
        return range.start;
    }
    let width = inner(layout::for_app(app).corpus).width as usize;
    let look = CorpusLook::of(app);
    let (mut lo, mut hi) = (range.start, range.end);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if look.row_of(line, width, mid) >= row {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Scroll the corpus to the next place (from the top row on) of the
/// highlighted pair or merge, wrapping to the start, and say which place
/// of how many it is.
pub(super) fn find_next(app: &mut App) {
    let Some((what, places)) = highlighted(app) else {
        app.notice =
            Some("nothing highlighted: press . to choose a pair, or select a merge".into());
        return;
    };
    app.scroll.corpus_moved = true;
    let lines = app.lines();
    let top = app.scroll.corpus.line;
    // On from the place found last while it is on the top line, else from
    // the first token drawn on the top row (a long line may be scrolled
    // by rows), so that the first place on the screen is found first.
    let from = match app.scroll.found_at {
        Some(at) if lines.line_of(at) == top => at + 1,
        _ if top < lines.count() => first_on_row(app, top, app.scroll.corpus.row),
        _ => 0,
    };
    // Every place in the text, in order: each occurrence of a chunk, at
    // each of the chunk's places.
    let corpus = app.trainer().corpus();
    let occurrences = corpus.occurrences();
    // Each chunk's places, found by index: there are millions of
    // occurrences to go through.
    let mut span = vec![(0u32, 0u32); corpus.chunks().len()];
    for (i, &(c, _)) in places.iter().enumerate() {
        let s = &mut span[c as usize];
        if s.1 == 0 {
            s.0 = i as u32;
        }
        s.1 += 1;
    }
    let in_chunk = |c: u32| {
        let (from, n) = span[c as usize];
        places[from as usize..(from + n) as usize]
            .iter()
            .map(|p| p.1 as usize)
    };
    let in_text = |from_occurrence: usize| {
        occurrences[from_occurrence..]
            .iter()
            .flat_map(move |o| in_chunk(o.chunk).map(move |off| o.start as usize + off))
    };
    let total: usize = occurrences.iter().map(|o| in_chunk(o.chunk).len()).sum();
    // The occurrence holding `from` may start before it.
    let split = occurrences
        .partition_point(|o| (o.start as usize) <= from)
        .saturating_sub(1);
    let (hit, wrapped) = match in_text(split).find(|&at| at >= from) {
        Some(at) => (Some(at), false),
        None => (in_text(0).next(), true),
    };
    match hit {
        Some(at) => {
            let k = in_text(0).take_while(|&p| p < at).count() + 1;
            let wrap = if wrapped {
                " (wrapped to the start)"
            } else {
                ""
            };
            let line = lines.line_of(at);
            let width = inner(layout::for_app(app).corpus).width as usize;
            let row = CorpusLook::of(app).row_of(line, width, at);
            app.notice = Some(format!("{what}: {k} of {total}{wrap}"));
            app.scroll.found_at = Some(at);
            app.scroll.corpus = CorpusScroll { line, row };
        }
        None => app.notice = Some(format!("{what}: not found in the corpus")),
    }
}
