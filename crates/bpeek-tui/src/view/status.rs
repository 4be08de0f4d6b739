//! The status line: where training stands, in one row.

use crate::app::App;
use crate::view::widths::{fit_items, fit_left};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

/// How the tokenizer on screen is trained (in a comparison, the focused
/// column's, after its name): mode, pre-tokenizer and tie rule always,
/// and every option that is not the default. `compact` leaves out the
/// words `tie` and `score`, so that an 80-column line still holds it.
fn setup(app: &App, compact: bool) -> String {
    let config = app.trainer().config();
    let mut words: Vec<String> = Vec::new();
    if let Some(c) = &app.compare {
        words.push(format!("{}:", crate::compare::Comparison::name(c.focused)));
    }
    words.push(config.mode.to_string());
    words.push(if config.mode == bpeek_core::Mode::Char {
        "words".to_string()
    } else {
        config.pretok.to_string()
    });
    let named = |name: &str, value: String| {
        if compact {
            value
        } else {
            format!("{name} {value}")
        }
    };
    words.push(named("tie", config.tie.to_string()));
    if config.score == bpeek_core::Score::WordPiece {
        words.push(named("score", "wordpiece".into()));
    }
    if config.digits != bpeek_core::Digits::Keep {
        words.push(format!("digits {}", config.digits));
    }
    if config.min_count > 1 {
        words.push(format!("min {}", config.min_count));
    }
    let specials = app.specials().len();
    if specials > 0 {
        words.push(format!(
            "+{}",
            crate::panes::why::plural(specials as u64, "special")
        ));
    }
    words.join(" ")
}

/// The status items, each with its rank (0 = never dropped).
pub fn items(app: &App) -> Vec<(usize, String)> {
    if let Some(u) = &app.unigram {
        let mut items = crate::view::unigram_status::items(app, u);
        push_playing_and_class(app, &mut items);
        return items;
    }
    let trainer = app.trainer();
    let config = trainer.config();
    let g = &app.theme.glyphs;
    let merges = trainer.merges().len();
    let budget = config
        .max_merges
        .map_or_else(|| g.infinity.to_string(), |m| m.to_string());
    let tokens = trainer.corpus_tokens();
    let bytes = trainer.corpus().source_len();
    let per_token = if tokens > 0 {
        bytes as f64 / tokens as f64
    } else {
        0.0
    };
    let phase = match app.training_end() {
        Some(reason) => format!("stopped: {}", reason.short()),
        None => trainer.phase().name().to_string(),
    };
    let specials = app.specials();
    let setup = setup(app, false);
    let mut items = vec![
        (3, setup),
        (0, format!("merge {merges}/{budget}")),
        (
            2,
            format!("vocab {}", trainer.vocab().len() + specials.len()),
        ),
        (1, format!("{tokens} tok, {per_token:.2} B/tok")),
        (0, phase),
    ];
    push_playing_and_class(app, &mut items);
    items
}

/// Autoplay and the class, the last items of either mode's line.
fn push_playing_and_class(app: &App, items: &mut Vec<(usize, String)>) {
    let g = &app.theme.glyphs;
    if app.autoplay.on {
        let phase = if app.autoplay.by_phase { " phase" } else { "" };
        items.push((
            0,
            format!("{}{phase} {}/s", g.playing, app.autoplay.per_second()),
        ));
    }
    if let Some(class) = &app.classroom {
        items.push((0, class.status()));
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let sep = if app.theme.ascii { " | " } else { " │ " };
    let width = area.width as usize;
    let mut items = items(app);
    let mut text = fit_items(&items, sep, width.saturating_sub(1));
    if app.unigram.is_some() {
        // Unigram's items are ranked to be dropped as they stand.
        let line = fit_left(&format!(" {text}"), width, "");
        frame.render_widget(Line::styled(line, app.theme.status()), area);
        return;
    }
    if !text.contains(&items[0].1) {
        // Too narrow for the whole setup: its compact form, kept before
        // the token counts.
        items[0] = (1, setup(app, true));
        items[3].0 = 2;
        text = fit_items(&items, sep, width.saturating_sub(1));
    }
    if !text.contains(&items[0].1) {
        // Narrower still: the mode stays, as long as any item but the
        // merge and the phase (byte and char ids differ).
        items[0] = (1, app.trainer().config().mode.to_string());
        text = fit_items(&items, sep, width.saturating_sub(1));
    }
    let line = fit_left(&format!(" {text}"), width, "");
    frame.render_widget(Line::styled(line, app.theme.status()), area);
}
