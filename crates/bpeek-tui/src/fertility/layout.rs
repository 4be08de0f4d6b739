//! How the fertility view shares its rows out: the panel's list, the token
//! lines, the detail table, the load error and the words note. Paging keys
//! need it as much as drawing does.

use crate::app::App;
use crate::fertility::tokenizers::Slot;
use crate::fertility::{Panel, TextSource};
use bpeek_core::corpora::SAMPLES;

/// How to say how words are counted, for the scripts panel.
pub const WORDS_NOTE: &str = "A token counts for the script of most of its bytes other than \
spaces, and a space inside it counts with it; only a token of nothing but whitespace counts \
as whitespace. Words: whitespace-separated units with a letter or digit. \
Without spaces between words, each Han character and each run of kana is a word; Thai \
(no dictionary here) counts whole phrases, so its tokens per word run high.";

/// How the rows of the view are shared out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Rows for the entries of the panel's list (its heading not counted).
    pub list: usize,
    /// Rows for the token line(s).
    pub tokens: usize,
    /// Whether the samples panel has room for the selected language's table.
    pub detail: bool,
    /// The load error shown under the tabs, if any.
    pub error: Option<String>,
    /// The words note, wrapped (scripts panel).
    pub note: Vec<String>,
}

/// Share the rows of a `width` x `height` screen out (the status line and
/// the footer take one row each).
pub fn plan(app: &App, width: u16, height: u16) -> Plan {
    let h = (height as usize).saturating_sub(2);
    let w = width as usize;
    let slots = app.toks.slots.len();
    let error = load_error(app);
    // Tabs, and the error line when there is one.
    let top = 1 + usize::from(error.is_some());
    // The rule over the token line, and the detail line under it.
    let token_frame = 2;
    let mut plan = Plan {
        list: 0,
        tokens: 1,
        detail: false,
        error,
        note: Vec::new(),
    };
    let room = |fixed: usize| h.saturating_sub(top + fixed);
    match app.fert.panel {
        Panel::Cost if pasted(app) => {
            plan.list = slots;
            plan.tokens = room(2 + slots + token_frame).max(1);
        }
        Panel::Cost => {
            let detail = 2 + slots;
            plan.detail = room(1 + token_frame + 1 + detail) >= 4;
            let fixed = 1 + token_frame + 1 + if plan.detail { detail } else { 0 };
            plan.list = room(fixed).clamp(1, SAMPLES.len());
            // Rows the languages do not need go to the token lines.
            plan.tokens = 1 + room(fixed).saturating_sub(plan.list);
        }
        Panel::Scripts => {
            plan.note = crate::panes::why::wrap(WORDS_NOTE, w.saturating_sub(2));
            let keep = room(2 + token_frame + 1 + 3).min(plan.note.len());
            plan.note.truncate(keep);
            plan.list = room(2 + plan.note.len() + token_frame + 1).max(1);
        }
        Panel::Digits => plan.list = room(2 + token_frame + 1).max(1),
        Panel::Merges => plan.list = room(2 + 2).max(1),
    }
    if app.fert.cuts.on
        && app.input != crate::app::InputMode::Editing
        && app.fert.panel != Panel::Merges
    {
        // Every tokenizer's band wants a label and a row of text: the
        // list and the detail table give up rows for them.
        let bands = app
            .toks
            .slots
            .iter()
            .filter(|s| !crate::fertility::cuts::is_baseline(&s.spec))
            .count();
        let want = 2 * bands + 2;
        if plan.detail && plan.tokens < want {
            plan.detail = false;
            plan.tokens += 2 + slots;
        }
        let give = want
            .saturating_sub(plan.tokens)
            .min(plan.list.saturating_sub(1));
        plan.list -= give;
        plan.tokens += give;
    }
    plan
}

pub fn pasted(app: &App) -> bool {
    app.fert.effective_source(&app.encode.text) == TextSource::Pasted
}

fn load_error(app: &App) -> Option<String> {
    let failed: Vec<&Slot> = app
        .toks
        .slots
        .iter()
        .filter(|s| s.error().is_some())
        .collect();
    let first = failed.first()?;
    let more = if failed.len() > 1 {
        format!(" (and {} more)", failed.len() - 1)
    } else {
        String::new()
    };
    Some(format!(
        "cannot load {}: {}{more}",
        first.label,
        first.error().unwrap_or_default()
    ))
}
