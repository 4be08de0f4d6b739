//! The status line: where training stands, in one row.

use crate::app::App;
use crate::view::widths::{fit_items, fit_left};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

/// The status items, each with its rank (0 = never dropped).
pub fn items(app: &App) -> Vec<(usize, String)> {
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
    let mut setup = format!(
        "{} {} tie {}",
        config.mode,
        if config.mode == bpeek_core::Mode::Char {
            "words".to_string()
        } else {
            config.pretok.to_string()
        },
        config.tie
    );
    // Every option that is not the default, so the screen says how the
    // tokenizer was trained.
    if config.score == bpeek_core::Score::WordPiece {
        setup.push_str(" score wordpiece");
    }
    if config.digits != bpeek_core::Digits::Keep {
        setup.push_str(&format!(" digits {}", config.digits));
    }
    if config.min_count > 1 {
        setup.push_str(&format!(" min {}", config.min_count));
    }
    let specials = app.specials();
    if !specials.is_empty() {
        setup.push_str(&format!(
            " +{} special{}",
            specials.len(),
            if specials.len() == 1 { "" } else { "s" }
        ));
    }
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
    items
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let sep = if app.theme.ascii { " | " } else { " │ " };
    let width = area.width as usize;
    let mut items = items(app);
    let mut text = fit_items(&items, sep, width.saturating_sub(1));
    if !text.contains(&items[0].1) {
        // Too narrow for the whole setup: the mode stays, as long as any
        // item but the merge and the phase (byte and char ids differ).
        items[0] = (1, app.trainer().config().mode.to_string());
        text = fit_items(&items, sep, width.saturating_sub(1));
    }
    let line = fit_left(&format!(" {text}"), width, "");
    frame.render_widget(Line::styled(line, app.theme.status()), area);
}
