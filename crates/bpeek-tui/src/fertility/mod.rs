//! The fertility view's model: what text is measured, which panel is shown,
//! where its cursors are, and the numbers it shows, computed by the engine
//! (`bpe::fertility`) and kept until the tokenizer or the text changes.

pub mod cuts;
pub mod layout;
pub mod tokenizers;

use crate::fertility::tokenizers::TokenizerSet;
use bpeek_core::corpora::{self, SAMPLES};
use bpeek_core::encoder::{EncodedToken, MergeSource};
use bpeek_core::fertility::{self, Row, ScriptShare};
use bpeek_core::resync::{Appended, merges_whole_text};
use bpeek_core::{TokenId, Tokenizer};
use std::sync::OnceLock;

/// What the view shows, one at a time; Tab moves between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// Tokens, bytes/chars per token, tokens per word and premium, with bars.
    Cost,
    /// Bytes per token of each script in the text.
    Scripts,
    /// How numbers are cut.
    Digits,
    /// The selected tokenizer's merges by rank.
    Merges,
}

impl Panel {
    pub const ORDER: [Panel; 4] = [Panel::Cost, Panel::Scripts, Panel::Digits, Panel::Merges];

    pub fn name(self) -> &'static str {
        match self {
            Panel::Cost => "Cost",
            Panel::Scripts => "Scripts",
            Panel::Digits => "Digits",
            Panel::Merges => "Merges",
        }
    }
}

/// Where the measured text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextSource {
    /// The text in the encode box.
    Pasted,
    /// The bundled parallel samples.
    Samples,
}

/// The number the language table and its bars show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Premium,
    BytesPerToken,
    CharsPerToken,
    TokensPerWord,
    Tokens,
}

impl Metric {
    pub const ORDER: [Metric; 5] = [
        Metric::Premium,
        Metric::BytesPerToken,
        Metric::CharsPerToken,
        Metric::TokensPerWord,
        Metric::Tokens,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Premium => "premium vs English",
            Metric::BytesPerToken => "bytes per token",
            Metric::CharsPerToken => "chars per token",
            Metric::TokensPerWord => "tokens per word",
            Metric::Tokens => "tokens",
        }
    }

    /// A short name, for a column heading.
    pub fn short(self) -> &'static str {
        match self {
            Metric::Premium => "premium",
            Metric::BytesPerToken => "B/token",
            Metric::CharsPerToken => "chars/token",
            Metric::TokensPerWord => "tokens/word",
            Metric::Tokens => "tokens",
        }
    }

    pub fn value(self, row: &Row) -> Option<f64> {
        match self {
            Metric::Premium => row.premium,
            Metric::BytesPerToken => row.bytes_per_token(),
            Metric::CharsPerToken => row.chars_per_token(),
            Metric::TokensPerWord => row.tokens_per_word(),
            Metric::Tokens => Some(row.tokens as f64),
        }
    }

    /// The value as the table prints it.
    pub fn format(self, row: &Row) -> String {
        match self {
            Metric::Tokens => row.tokens.to_string(),
            m => format_ratio(m.value(row)),
        }
    }
}

/// A ratio to two decimals, `-` when there is none.
pub fn format_ratio(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// The text the token line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StripText {
    /// The encode box text, at this generation.
    Pasted(u64),
    /// Sample `i`.
    Sample(usize),
    /// Number example `i`.
    Number(usize),
}

/// What one tokenizer measured, each part with the stamp (and text) it was
/// computed for.
#[derive(Debug, Clone, Default)]
pub struct Column {
    /// One row per bundled sample, premiums filled in.
    pub samples: Option<(u64, Vec<Row>)>,
    /// The pasted text: (stamp, text generation, row).
    pub pasted: Option<(u64, u64, Row)>,
    /// Script shares of the measured text: (stamp, text key, shares).
    pub scripts: Option<(u64, Option<u64>, Vec<ScriptShare>)>,
    /// How each number example is cut.
    pub digits: Option<(u64, Vec<Vec<Vec<u8>>>)>,
    /// A long pasted text measured so far: (stamp, text generation, bytes
    /// measured, their row).
    pub pasted_part: Option<(u64, u64, usize, Row)>,
    /// Its script shares so far: (stamp, text generation, bytes, shares).
    pub scripts_part: Option<(u64, u64, usize, Vec<ScriptShare>)>,
    /// A long pasted text measured so far by a tokenizer that merges the
    /// whole text as one chunk: (stamp, text generation, unused, measure).
    pub whole_row_part: Option<(u64, u64, usize, WholePart<Row>)>,
    /// Its script shares so far, the same way.
    pub whole_scripts_part: Option<(u64, u64, usize, WholePart<Vec<ScriptShare>>)>,
}

/// A long pasted text measured by a tokenizer that merges the whole text
/// as one chunk: encoded a part at a time (each part may change the last
/// tokens before it, see [`bpeek_core::resync`]), then, the tokens final,
/// counted a part at a time.
#[derive(Debug, Clone, Default)]
pub struct WholePart<T> {
    appended: Appended,
    /// Tokens and bytes counted into `sum` so far.
    tokens: usize,
    bytes: usize,
    sum: T,
}

/// One more part of a measure kept in `slot` for the text `key` (tokenizer
/// stamp, text generation): `step` goes on from where the last part
/// stopped, or from the start if the text changed since. What is not done
/// yet is kept for the next frame, and `behind` says so.
fn resume<T, R>(
    slot: &mut Option<(u64, u64, usize, T)>,
    key: (u64, u64),
    behind: &mut bool,
    step: impl FnOnce(&mut Option<(usize, T)>) -> Option<R>,
) -> Option<R> {
    let mut part = slot
        .take()
        .filter(|(s, g, _, _)| (*s, *g) == key)
        .map(|(_, _, at, done)| (at, done));
    let done = step(&mut part);
    if done.is_none() {
        *slot = part.map(|(at, done)| (key.0, key.1, at, done));
        *behind = true;
    }
    done
}

/// Measure `text` with a tokenizer that merges the whole text as one
/// chunk, a part at a time until `deadline` (one part at least): `add`
/// counts a piece of the text (cut after whitespace, so no word is cut)
/// with its tokens and where each starts in the text. The sum when all is
/// counted; `None` with `part` kept when time is up.
fn whole_in_parts<T: Default>(
    tok: &Tokenizer,
    text: &str,
    part: &mut Option<(usize, WholePart<T>)>,
    deadline: std::time::Instant,
    mut add: impl FnMut(&mut T, &str, &[TokenId], &[usize]),
) -> Option<T> {
    let (_, mut w) = part.take().unwrap_or_default();
    let bytes = text.as_bytes();
    loop {
        let a = &mut w.appended;
        if a.done < text.len() {
            if a.extend_to(tok, bytes, a.done + MEASURE_PART).is_none() {
                // Not to be had a part at a time: the whole in one go.
                *a = Appended::default();
                a.extend_to(tok, bytes, text.len())?;
            }
        } else {
            let (ids, starts) = (&a.ids, &a.starts);
            let mut k = starts.partition_point(|&at| at < w.bytes + MEASURE_PART);
            while k < ids.len() && !bytes[starts[k] - 1].is_ascii_whitespace() {
                k += 1;
            }
            let end = starts.get(k).copied().unwrap_or(text.len());
            let piece = &text[w.bytes..end];
            add(&mut w.sum, piece, &ids[w.tokens..k], &starts[w.tokens..k]);
            (w.tokens, w.bytes) = (k, end);
            if end >= text.len() {
                return Some(w.sum);
            }
        }
        if std::time::Instant::now() >= deadline {
            *part = Some((0, w));
            return None;
        }
    }
}

/// Count a piece of a pasted text into its row.
fn add_to_row(tok: &Tokenizer, row: &mut Row, piece: &str, ids: &[TokenId]) {
    let more = fertility::measured(tok, "yours", piece, ids);
    row.tokens += more.tokens;
    row.unknown += more.unknown;
    row.bytes += more.bytes;
    row.chars += more.chars;
    row.words += more.words;
}

/// [`measure_in_parts`] for the script shares of a long pasted text.
fn shares_in_parts(
    tok: &Tokenizer,
    text: &str,
    part: &mut Option<(usize, Vec<ScriptShare>)>,
    deadline: std::time::Instant,
) -> Option<Vec<ScriptShare>> {
    use bpeek_core::line_cuts::{cuts_at_lines, next_cut};
    if !cuts_at_lines(tok) {
        return Some(fertility::script_shares(tok, text));
    }
    let (mut at, mut shares) = part.take().unwrap_or_default();
    loop {
        let to = next_cut(tok, text, at + MEASURE_PART);
        let Some(more) = fertility::script_shares_between(tok, text, at, to) else {
            return Some(fertility::script_shares(tok, text));
        };
        fertility::add_shares(&mut shares, more);
        at = to;
        if at >= text.len() {
            return Some(shares);
        }
        if std::time::Instant::now() >= deadline {
            *part = Some((at, shares));
            return None;
        }
    }
}

/// About how much of a long pasted text is measured between two looks at
/// the keyboard.
const MEASURE_PART: usize = 1 << 15;

/// Time a key or a frame gives to measuring a long pasted text.
pub const MEASURE_SLICE: std::time::Duration = std::time::Duration::from_millis(6);

/// Measure more of `text` with `tok`, from where `part` stopped, a part
/// at a time until `deadline` (one part at least). The row when all is
/// measured; `None` with `part` kept when time is up. A tokenizer whose
/// tokens cannot be counted a part at a time is measured in one go.
fn measure_in_parts(
    tok: &Tokenizer,
    text: &str,
    part: &mut Option<(usize, Row)>,
    deadline: std::time::Instant,
) -> Option<Row> {
    use bpeek_core::line_cuts::{cuts_at_lines, next_cut, tokens_between};
    if !cuts_at_lines(tok) {
        return Some(fertility::measure(tok, "yours", text));
    }
    let (mut at, mut row) = part.take().unwrap_or_else(|| {
        (
            0,
            Row {
                tokenizer: tok.name().to_string(),
                text: "yours".into(),
                bytes: 0,
                chars: 0,
                words: 0,
                tokens: 0,
                unknown: 0,
                dropped: 0,
                premium: None,
            },
        )
    });
    loop {
        let to = next_cut(tok, text, at + MEASURE_PART);
        let Some(ids) = tokens_between(tok, text, at, to) else {
            return Some(fertility::measure(tok, "yours", text));
        };
        let piece = &text[at..to];
        row.tokens += ids.len();
        row.unknown += fertility::unknown_in(tok, &ids);
        row.dropped += tok.dropped_bytes(piece);
        row.bytes += piece.len();
        row.chars += piece.chars().count();
        row.words += bpeek_core::script::count_words(piece);
        at = to;
        if at >= text.len() {
            return Some(row);
        }
        if std::time::Instant::now() >= deadline {
            *part = Some((at, row));
            return None;
        }
    }
}

#[derive(Debug, Clone)]
pub struct FertilityView {
    pub open: bool,
    pub panel: Panel,
    pub source: TextSource,
    pub metric: Metric,
    /// The selected sample (the language picker).
    pub language: usize,
    /// The first script row shown.
    pub script_row: usize,
    /// The selected number example.
    pub digit_row: usize,
    /// The selected row of the merge list (`None`: the first merge).
    pub merge_row: Option<usize>,
    /// The selected token of the token line.
    pub token: usize,
    /// One per tokenizer slot.
    pub columns: Vec<Column>,
    /// The selected tokenizer's tokens of the token line's text.
    pub strip: Vec<EncodedToken>,
    /// Char mode: the text each token of the strip stands for (an `[UNK]`
    /// is a character the tokenizer never saw; its own bytes are `[UNK]`).
    pub strip_text: Vec<Vec<u8>>,
    /// What pasted text's premium is measured against: a name and its
    /// text (`--english`); the bundled English sample if none.
    pub english: Option<(String, String)>,
    strip_for: Option<(usize, u64, StripText)>,
    /// The token line holds the tokens of only the first
    /// [`STRIP_BYTES`] of a long text.
    pub strip_cut: bool,
    /// Some tokenizers' numbers for a big pasted text are still to be
    /// measured (one or more at a time, between frames).
    pub behind: bool,
    /// Every tokenizer's cut of the text at once, here and in the encode
    /// box.
    pub cuts: cuts::Cuts,
}

impl Default for FertilityView {
    fn default() -> Self {
        FertilityView {
            open: false,
            panel: Panel::Cost,
            source: TextSource::Samples,
            metric: Metric::Premium,
            language: 0,
            script_row: 0,
            digit_row: 0,
            merge_row: None,
            token: 0,
            columns: Vec::new(),
            strip: Vec::new(),
            strip_text: Vec::new(),
            english: None,
            strip_for: None,
            strip_cut: false,
            behind: false,
            cuts: cuts::Cuts::default(),
        }
    }
}

/// The token line is made of the tokens of at most this much of the text:
/// a 20 MB paste would be 20 million tokens, each with its bytes, made on
/// every change of tokenizer, for a line that shows a few dozen.
pub const STRIP_BYTES: usize = 16 * 1024;

/// Where the token line's text ends: all of a short text; of a long one,
/// after a line break before a character that is not a space, within the
/// first [`STRIP_BYTES`] (where every pre-tokenizer cuts, so the tokens are
/// those of the whole text), else at a character boundary.
pub fn strip_end(text: &str) -> usize {
    if text.len() <= STRIP_BYTES {
        return text.len();
    }
    let mut end = STRIP_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let at_line = head
        .match_indices('\n')
        .rev()
        .map(|(i, _)| i + 1)
        .find(|&i| text[i..].chars().next().is_some_and(|c| !c.is_whitespace()));
    at_line.filter(|&i| i > end / 2).unwrap_or(end)
}

/// Pasted text longer than this is measured a tokenizer at a time between
/// frames; shorter text, by every tokenizer at once.
pub const MEASURE_AT_ONCE: usize = 256 * 1024;

/// The bundled samples joined by line breaks, as `bpeek fertility --samples
/// --scripts` measures them.
pub fn joined_samples() -> &'static str {
    static JOINED: OnceLock<String> = OnceLock::new();
    JOINED.get_or_init(|| {
        SAMPLES
            .iter()
            .map(|s| s.text)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The numbers of the digits panel.
pub fn numbers() -> &'static [String] {
    static NUMBERS: OnceLock<Vec<String>> = OnceLock::new();
    NUMBERS.get_or_init(fertility::number_examples)
}

/// What kind of number each row of the digits panel is (`4 digits`,
/// `year`, `phone`).
pub fn number_labels() -> &'static [String] {
    static LABELS: OnceLock<Vec<String>> = OnceLock::new();
    LABELS.get_or_init(|| {
        fertility::labelled_numbers()
            .into_iter()
            .map(|(l, _)| l)
            .collect()
    })
}

/// Measure every sample with `tok`, premiums against English for the
/// translations only (emoji, code and digits are not translations).
pub fn sample_rows(tok: &Tokenizer) -> Vec<Row> {
    let mut rows: Vec<Row> = SAMPLES
        .iter()
        .map(|s| fertility::measure(tok, s.code, s.text))
        .collect();
    fertility::add_premiums(&mut rows, SAMPLES[0].code);
    let parallel = corpora::parallel_samples().len();
    for row in rows.iter_mut().skip(parallel) {
        row.premium = None;
    }
    rows
}

impl FertilityView {
    /// What the premium of pasted text is measured against, in words: a
    /// premium compares a text with its own translation, so pasted text has
    /// one only against the English version given with `--english`.
    pub fn english_label(&self) -> String {
        match &self.english {
            Some((name, _)) => format!("premium vs {name} (its English version)"),
            None => "no premium without --english FILE".into(),
        }
    }

    /// The text source in effect: pasted text only when there is some.
    pub fn effective_source(&self, pasted: &str) -> TextSource {
        match self.source {
            TextSource::Pasted if !pasted.is_empty() => TextSource::Pasted,
            _ => TextSource::Samples,
        }
    }

    /// The text the token line shows and its key.
    pub fn strip_text<'a>(&self, pasted: &'a str, generation: u64) -> (StripText, &'a str) {
        if self.panel == Panel::Digits {
            let i = self.digit_row.min(numbers().len() - 1);
            return (StripText::Number(i), numbers()[i].as_str());
        }
        match self.effective_source(pasted) {
            TextSource::Pasted => (StripText::Pasted(generation), pasted),
            TextSource::Samples => {
                let i = self.language.min(SAMPLES.len() - 1);
                (StripText::Sample(i), SAMPLES[i].text)
            }
        }
    }

    /// Compute what the open panel needs and is missing or stale.
    ///
    /// A pasted text over [`MEASURE_AT_ONCE`] bytes is measured a tokenizer
    /// at a time until `deadline`, leaving [`FertilityView::behind`] set for
    /// the loop to call again between frames; the view says "measuring"
    /// for the tokenizers still to come.
    pub fn refresh(
        &mut self,
        toks: &TokenizerSet,
        pasted: &str,
        generation: u64,
        deadline: std::time::Instant,
    ) {
        self.columns.resize_with(toks.slots.len(), Column::default);
        let source = self.effective_source(pasted);
        let m = Measuring {
            pasted,
            generation,
            source,
            script_key: (source == TextSource::Pasted).then_some(generation),
            in_parts: source == TextSource::Pasted && pasted.len() > MEASURE_AT_ONCE,
            deadline,
            english: self.english.as_ref().map(|(_, english)| english.as_str()),
        };
        let mut measured = false;
        self.behind = false;
        for (i, slot) in toks.slots.iter().enumerate() {
            let Some(tok) = toks.get(i) else { continue };
            let stamp = slot.stamp;
            let col = &mut self.columns[i];
            if m.in_parts && col.is_stale(self.panel, stamp, &m) {
                if measured && std::time::Instant::now() >= deadline {
                    self.behind = true;
                    continue;
                }
                measured = true;
            }
            match self.panel {
                Panel::Cost if source == TextSource::Samples => col.refresh_samples(tok, stamp),
                Panel::Cost => col.refresh_pasted(tok, stamp, &m, &mut self.behind),
                Panel::Scripts => col.refresh_scripts(tok, stamp, &m, &mut self.behind),
                Panel::Digits => col.refresh_digits(tok, stamp),
                Panel::Merges => {}
            }
        }
        self.language = self.language.min(SAMPLES.len() - 1);
        self.digit_row = self.digit_row.min(numbers().len() - 1);
        self.refresh_strip(toks, pasted, generation);
    }

    fn refresh_strip(&mut self, toks: &TokenizerSet, pasted: &str, generation: u64) {
        let (what, text) = self.strip_text(pasted, generation);
        let sel = toks.selected;
        let Some(tok) = toks.get(sel) else {
            self.strip.clear();
            self.strip_for = None;
            return;
        };
        let key = (sel, toks.slots[sel].stamp, what);
        if self.strip_for != Some(key) {
            if self
                .strip_for
                .is_some_and(|(s, _, w)| (s, w) != (sel, what))
            {
                // Another text or tokenizer: start at its first token.
                self.token = 0;
            }
            self.strip_for = Some(key);
            let end = strip_end(text);
            self.strip_cut = end < text.len();
            self.strip = tok
                .encode_detailed(&text.as_bytes()[..end], false)
                .unwrap_or_default();
            self.strip_text = if tok.mode() == bpeek_core::Mode::Char || tok.is_piece_model() {
                let text = &text[..end];
                fertility::token_spans(tok, text)
                    .into_iter()
                    .map(|(_, r)| text.as_bytes()[r].to_vec())
                    .collect()
            } else {
                Vec::new()
            };
        }
        self.token = self.token.min(self.strip.len().saturating_sub(1));
    }

    /// The selected token of the token line.
    pub fn selected_token(&self) -> Option<&EncodedToken> {
        self.strip.get(self.token)
    }
}

/// What one refresh of the fertility view measures, and how.
struct Measuring<'a> {
    pasted: &'a str,
    /// The pasted text's generation.
    generation: u64,
    source: TextSource,
    /// The key the Scripts panel keeps its shares under: the pasted text's
    /// generation, or none for the samples.
    script_key: Option<u64>,
    /// A long pasted text, measured a part at a time until `deadline`.
    in_parts: bool,
    deadline: std::time::Instant,
    /// The English version of the text (`--english`), for the premium.
    english: Option<&'a str>,
}

impl Column {
    /// The pasted text's row is missing or for another tokenizer or text.
    fn pasted_stale(&self, stamp: u64, generation: u64) -> bool {
        self.pasted
            .as_ref()
            .is_none_or(|(s, g, _)| (*s, *g) != (stamp, generation))
    }

    /// The script shares are missing or for another tokenizer or text.
    fn scripts_stale(&self, stamp: u64, key: Option<u64>) -> bool {
        self.scripts
            .as_ref()
            .is_none_or(|(s, k, _)| (*s, *k) != (stamp, key))
    }

    /// `panel` has to measure the text again (the panels that measure the
    /// pasted text only).
    fn is_stale(&self, panel: Panel, stamp: u64, m: &Measuring) -> bool {
        match panel {
            Panel::Cost => self.pasted_stale(stamp, m.generation),
            Panel::Scripts => self.scripts_stale(stamp, m.script_key),
            _ => false,
        }
    }

    /// The Cost panel's rows of the bundled samples.
    fn refresh_samples(&mut self, tok: &Tokenizer, stamp: u64) {
        if self.samples.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.samples = Some((stamp, sample_rows(tok)));
        }
    }

    /// The Cost panel's row of the pasted text, with its premium over the
    /// English version; kept as it was while a long text is still being
    /// measured.
    fn refresh_pasted(&mut self, tok: &Tokenizer, stamp: u64, m: &Measuring, behind: &mut bool) {
        if !self.pasted_stale(stamp, m.generation) {
            return;
        }
        let Some(mut row) = self.measure_pasted(tok, stamp, m, behind) else {
            return;
        };
        row.premium = m.english.and_then(|english| {
            let reference = fertility::measure(tok, "english", english);
            (reference.tokens > 0).then(|| row.tokens as f64 / reference.tokens as f64)
        });
        self.pasted = Some((stamp, m.generation, row));
    }

    /// The pasted text's row: at once, or a part more of a long text (none
    /// until its last part).
    fn measure_pasted(
        &mut self,
        tok: &Tokenizer,
        stamp: u64,
        m: &Measuring,
        behind: &mut bool,
    ) -> Option<Row> {
        let key = (stamp, m.generation);
        if m.in_parts && merges_whole_text(tok) {
            resume(&mut self.whole_row_part, key, behind, |part| {
                whole_in_parts(tok, m.pasted, part, m.deadline, |row, piece, ids, _| {
                    add_to_row(tok, row, piece, ids)
                })
            })
            .map(|mut row: Row| {
                row.tokenizer = tok.name().to_string();
                row.text = "yours".into();
                row
            })
        } else if m.in_parts {
            resume(&mut self.pasted_part, key, behind, |part| {
                measure_in_parts(tok, m.pasted, part, m.deadline)
            })
        } else {
            Some(fertility::measure(tok, "yours", m.pasted))
        }
    }

    /// The Scripts panel's shares of the measured text; kept as they were
    /// while a long text is still being measured.
    fn refresh_scripts(&mut self, tok: &Tokenizer, stamp: u64, m: &Measuring, behind: &mut bool) {
        if !self.scripts_stale(stamp, m.script_key) {
            return;
        }
        let shares = match m.source {
            TextSource::Pasted if m.in_parts => self.pasted_shares_in_parts(tok, stamp, m, behind),
            TextSource::Pasted => Some(fertility::script_shares(tok, m.pasted)),
            TextSource::Samples => Some(fertility::script_shares(tok, joined_samples())),
        };
        if let Some(shares) = shares {
            self.scripts = Some((stamp, m.script_key, shares));
        }
    }

    /// A part more of a long pasted text's script shares (none until its
    /// last part).
    fn pasted_shares_in_parts(
        &mut self,
        tok: &Tokenizer,
        stamp: u64,
        m: &Measuring,
        behind: &mut bool,
    ) -> Option<Vec<ScriptShare>> {
        let key = (stamp, m.generation);
        if !merges_whole_text(tok) {
            return resume(&mut self.scripts_part, key, behind, |part| {
                shares_in_parts(tok, m.pasted, part, m.deadline)
            });
        }
        resume(&mut self.whole_scripts_part, key, behind, |part| {
            whole_in_parts(
                tok,
                m.pasted,
                part,
                m.deadline,
                |shares, piece, ids, starts| {
                    let from = starts.first().copied().unwrap_or(0);
                    let spans = ids
                        .iter()
                        .zip(starts)
                        .map(|(&id, &at)| (id, at - from..at - from + tok.bytes_of(id).len()));
                    fertility::add_shares(shares, fertility::shares_of(piece, spans.collect()));
                },
            )
        })
    }

    /// The Digits panel: how each number example is cut.
    fn refresh_digits(&mut self, tok: &Tokenizer, stamp: u64) {
        if self.digits.as_ref().is_none_or(|(s, _)| *s != stamp) {
            let cut = numbers()
                .iter()
                .map(|n| fertility::pieces(tok, n))
                .collect();
            self.digits = Some((stamp, cut));
        }
    }
}

/// How the merge list of a tokenizer reads: its rows and the first row
/// that is a merge (rank files start with single bytes).
pub fn merge_rows(tok: &Tokenizer) -> (usize, usize) {
    match tok.source() {
        MergeSource::List => (tok.merges().len(), 0),
        MergeSource::Ranks => {
            let n = tok.vocab().len();
            let first = (0..n)
                .find(|&id| tok.vocab().token_bytes(id as TokenId).len() >= 2)
                .unwrap_or(0);
            (n, first)
        }
    }
}

/// One row of a merge list: the token made, and the merge that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeRow {
    pub rank: usize,
    pub id: TokenId,
    /// `None` for a rank-file token that is a single byte.
    pub pair: Option<(TokenId, TokenId)>,
}

/// Row `row` of `tok`'s merge list. For rank files the merge is recovered
/// here, so callers ask only for the rows they show.
pub fn merge_row(tok: &Tokenizer, row: usize) -> Option<MergeRow> {
    match tok.source() {
        MergeSource::List => tok.merges().get(row).map(|m| MergeRow {
            rank: m.rank,
            id: m.id,
            pair: Some(m.pair),
        }),
        MergeSource::Ranks => {
            let id = TokenId::try_from(row).ok()?;
            if row >= tok.vocab().len() {
                return None;
            }
            Some(MergeRow {
                rank: row,
                id,
                pair: tok.made_by(id).map(|m| (m.left, m.right)),
            })
        }
    }
}
