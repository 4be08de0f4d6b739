//! One text cut by every tokenizer at once: a band per tokenizer, each the
//! byte spans of its tokens, and the stretches where they do not all cut
//! alike. The encode box and the fertility view's token line each keep
//! their own [`Bands`]; the spans are worked out once per text version and
//! tokenizer, never while drawing.

use crate::app::App;
use crate::fertility::StripText;
use crate::fertility::tokenizers::{SlotState, TokenizerSet};
use bpeek_core::fertility::token_spans;
use bpeek_core::line_cuts::line_starts_word;
use std::ops::Range;
use std::sync::Arc;

/// The encode box's text is cut whole up to this long; past it, a stretch
/// around the selected token or the cursor, so a pasted megabyte is not
/// encoded once per tokenizer on every change.
pub const WHOLE_MOST: usize = 64 * 1024;
/// About how far the stretch reaches either side of where it is centred.
const HALF: usize = 8 * 1024;

/// One tokenizer's tokens of the band text, as byte ranges of the whole
/// text (in order; they tile the text for byte-level tokenizers, and leave
/// gaps where char-mode words are apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub spans: Vec<Range<usize>>,
    /// Every place a token starts or ends inside the band text (its two
    /// ends left out), sorted, once each.
    pub bounds: Vec<usize>,
}

impl Cut {
    pub fn new(spans: Vec<Range<usize>>, range: &Range<usize>) -> Cut {
        let mut bounds: Vec<usize> = spans
            .iter()
            .flat_map(|r| [r.start, r.end])
            .filter(|&b| range.start < b && b < range.end)
            .collect();
        bounds.sort_unstable();
        bounds.dedup();
        Cut { spans, bounds }
    }

    /// Whether a token starts or ends at `at`.
    pub fn cuts_at(&self, at: usize) -> bool {
        self.bounds.binary_search(&at).is_ok()
    }

    /// Whether a token starts or ends strictly inside `r`.
    pub fn cuts_inside(&self, r: &Range<usize>) -> bool {
        let i = self.bounds.partition_point(|&b| b <= r.start);
        self.bounds.get(i).is_some_and(|&b| b < r.end)
    }

    /// The token that holds byte `at`, if one does.
    pub fn token_at(&self, at: usize) -> Option<usize> {
        let i = self.spans.partition_point(|r| r.start <= at);
        let i = i.checked_sub(1)?;
        self.spans[i].contains(&at).then_some(i)
    }
}

/// Where one tokenizer of the set stands, for its band.
#[derive(Debug, Clone)]
pub enum BandState {
    Ready {
        /// The slot's stamp the cut was made for.
        stamp: u64,
        cut: Arc<Cut>,
    },
    Loading,
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Band {
    /// The tokenizer's slot in the set.
    pub slot: usize,
    pub state: BandState,
}

impl Band {
    pub fn cut(&self) -> Option<&Cut> {
        match &self.state {
            BandState::Ready { cut, .. } => Some(cut),
            _ => None,
        }
    }
}

/// Every tokenizer's cut of one text (or of a stretch of it).
#[derive(Debug, Clone, Default)]
pub struct Bands {
    /// The text the bands are of, and the bytes of it they cut.
    pub key: Option<StripText>,
    pub range: Range<usize>,
    /// Whether `range` is all of the text.
    pub whole: bool,
    pub bands: Vec<Band>,
    /// The stretches where the ready bands do not all cut alike: from one
    /// place every band cuts to the next, with a cut of some band between.
    pub differ: Vec<Range<usize>>,
}

impl Bands {
    /// The band of slot `slot`, if it has one.
    pub fn of_slot(&self, slot: usize) -> Option<&Band> {
        self.bands.iter().find(|b| b.slot == slot)
    }

    /// Whether bytes `r` lie in a stretch cut differently.
    pub fn differs(&self, r: &Range<usize>) -> bool {
        let i = self.differ.partition_point(|d| d.end <= r.start);
        self.differ
            .get(i)
            .is_some_and(|d| d.start < r.end.max(r.start + 1))
    }

    /// Whether a cut at `at` falls strictly inside a differing stretch.
    pub fn differs_at(&self, at: usize) -> bool {
        let i = self.differ.partition_point(|d| d.end <= at);
        self.differ.get(i).is_some_and(|d| d.start < at)
    }

    /// Cut `text[range]` (the text known as `key`) with every tokenizer of
    /// `toks` but the byte baseline, keeping the cuts still current.
    pub fn refresh(
        &mut self,
        toks: &TokenizerSet,
        key: StripText,
        text: &str,
        range: Range<usize>,
    ) {
        if self.key != Some(key) || self.range != range {
            self.bands.clear();
        }
        self.key = Some(key);
        self.whole = range == (0..text.len());
        self.range = range.clone();
        let mut changed = false;
        let mut bands = Vec::new();
        for (i, slot) in toks.slots.iter().enumerate() {
            if is_baseline(&slot.spec) {
                continue;
            }
            let old = self.of_slot(i).map(|b| b.state.clone());
            let was_ready = old.as_ref().map(ready);
            let state = match (toks.get(i), &slot.state) {
                (Some(tok), _) => match old {
                    Some(BandState::Ready { stamp, cut }) if stamp == slot.stamp => {
                        BandState::Ready { stamp, cut }
                    }
                    _ => {
                        changed = true;
                        let spans = token_spans(tok, &text[range.clone()])
                            .into_iter()
                            .map(|(_, r)| r.start + range.start..r.end + range.start)
                            .collect();
                        BandState::Ready {
                            stamp: slot.stamp,
                            cut: Arc::new(Cut::new(spans, &range)),
                        }
                    }
                },
                (None, SlotState::Failed(e)) => BandState::Failed(e.clone()),
                (None, _) => BandState::Loading,
            };
            changed |= was_ready != Some(ready(&state));
            bands.push(Band { slot: i, state });
        }
        changed |= bands.len() != self.bands.len();
        self.bands = bands;
        if changed {
            self.differ = differing(&self.bands, &range);
        }
    }
}

fn ready(s: &BandState) -> bool {
    matches!(s, BandState::Ready { .. })
}

/// The byte baseline cuts every byte: beside it every character of more
/// than one byte would read as cut differently.
pub fn is_baseline(spec: &str) -> bool {
    spec == "bytes"
}

/// The stretches between consecutive places every ready band cuts that
/// hold a cut of some band; none with fewer than two bands to compare.
pub fn differing(bands: &[Band], range: &Range<usize>) -> Vec<Range<usize>> {
    let cuts: Vec<&Cut> = bands.iter().filter_map(Band::cut).collect();
    if cuts.len() < 2 {
        return Vec::new();
    }
    let mut all: Vec<usize> = cuts.iter().flat_map(|c| c.bounds.iter().copied()).collect();
    all.sort_unstable();
    all.dedup();
    let shared = |b: usize| cuts.iter().all(|c| c.cuts_at(b));
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut last_shared = range.start;
    let mut open = false;
    for b in all {
        if shared(b) {
            if open {
                out.push(last_shared..b);
                open = false;
            }
            last_shared = b;
        } else {
            open = true;
        }
    }
    if open {
        out.push(last_shared..range.end);
    }
    out
}

/// Both views' bands, and whether they show.
#[derive(Debug, Clone, Default)]
pub struct Cuts {
    pub on: bool,
    /// The encode box's text.
    pub main: Bands,
    /// The fertility view's token line text.
    pub fert: Bands,
    /// Where the selected token started before another band was focused,
    /// in the encode box and in the token line: the token of the new band
    /// there is selected once it is cut.
    pub pending: (Option<usize>, Option<usize>),
}

/// The bytes of the encode box's text its bands cut: all of a text up to
/// [`WHOLE_MOST`]; of a longer one, a stretch around `focus`, kept while
/// `focus` stays well inside the stretch cut last, each end at a line
/// start where line-cutting pre-tokenizers cut (else at a character).
pub fn stretch_of(text: &str, focus: usize, last: Option<Range<usize>>) -> Range<usize> {
    if text.len() <= WHOLE_MOST {
        return 0..text.len();
    }
    let focus = focus.min(text.len());
    if let Some(r) = last
        && r.end <= text.len()
        && text.is_char_boundary(r.start)
        && text.is_char_boundary(r.end)
        && (r.start == 0 || r.start + HALF / 4 <= focus)
        && (r.end == text.len() || focus + HALF / 4 <= r.end)
    {
        return r;
    }
    let bytes = text.as_bytes();
    let len = text.len();
    let lo = focus.saturating_sub(HALF);
    let start = if lo == 0 {
        0
    } else {
        (lo.saturating_sub(HALF)..=lo)
            .rev()
            .find(|&i| i > 0 && bytes[i - 1] == b'\n' && line_starts_word(text, i, len))
            .unwrap_or_else(|| floor_char(text, lo))
    };
    let hi = (focus + HALF).min(len);
    let end = (hi..(hi + HALF).min(len))
        .find(|&i| bytes[i] == b'\n' && line_starts_word(text, i + 1, len))
        .map_or_else(|| floor_char(text, hi), |i| i + 1);
    start..end.max(start)
}

fn floor_char(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The bytes of the encode box's selected token, when its tokens line up
/// with the text.
pub fn main_selected(app: &App) -> Option<Range<usize>> {
    let enc = &app.encode;
    let i = enc.selected?;
    (enc.spans.len() == enc.ids.len() && i < enc.spans.len()).then(|| enc.spans.range(i))
}

/// The bytes of the token line's selected token, in the focused band.
pub fn fert_selected(app: &App) -> Option<Range<usize>> {
    let bands = &app.fert.cuts.fert;
    let cut = bands.of_slot(app.toks.selected)?.cut()?;
    cut.spans.get(app.fert.token).cloned()
}

/// Where the encode box's bands centre: the selected token, else the
/// cursor.
pub fn main_focus(app: &App) -> usize {
    main_selected(app).map_or(app.encode.cursor_byte(), |r| r.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn band(slot: usize, spans: &[Range<usize>], range: &Range<usize>) -> Band {
        Band {
            slot,
            state: BandState::Ready {
                stamp: 0,
                cut: Arc::new(Cut::new(spans.to_vec(), range)),
            },
        }
    }

    #[test]
    fn stretches_run_between_places_every_band_cuts() {
        let r = 0..10;
        let a = band(0, &[0..2, 2..5, 5..10], &r);
        let b = band(1, &[0..5, 5..7, 7..10], &r);
        assert_eq!(differing(&[a.clone(), b], &r), [0..5, 5..10]);
        let c = band(2, &[0..2, 2..5, 5..10], &r);
        assert_eq!(differing(&[a, c], &r), Vec::<Range<usize>>::new());
    }

    #[test]
    fn a_long_text_is_cut_around_its_focus_at_line_starts() {
        let text = "word and more\n".repeat(20_000);
        let r = stretch_of(&text, 100_000, None);
        assert!(r.start < 100_000 && 100_000 < r.end);
        assert!(r.start == 0 || text.as_bytes()[r.start - 1] == b'\n');
        assert!(r.end - r.start <= 4 * HALF);
        // A focus well inside keeps the stretch.
        assert_eq!(stretch_of(&text, 100_500, Some(r.clone())), r);
        let short = "héllo";
        assert_eq!(stretch_of(short, 2, None), 0..short.len());
        let wide = "你".repeat(40_000);
        let r = stretch_of(&wide, 50_001, None);
        assert!(wide.is_char_boundary(r.start) && wide.is_char_boundary(r.end));
    }
}
