//! The encode box: text the user types or pastes, and its encoding with the
//! selected tokenizer (the merges made so far, unless another is chosen),
//! kept up to date as training moves.
//!
//! The box is a small editor with a cursor. The cursor sits between
//! characters as the user sees them: a letter with its combining marks, an
//! emoji with its skin tone, or a flag moves and deletes as one.

use crate::fertility::tokenizers::TokenizerSet;
use crate::panes::lines::LineIndex;
use crate::panes::places::{Places, remove_at};
use crate::panes::rows::{self, TAB_WIDTH};
use bpeek_core::encoder::{EncodedToken, Tokenizer};
use bpeek_core::line_cuts::{
    cuts_at_lines, is_cut, next_cut, prev_cut, spans_from, tokens_between,
};
use bpeek_core::resync::{Splice, merges_whole_text, splice};
use bpeek_core::{Mode, TokenId};
use std::ops::Range;
use std::sync::Arc;
use unicode_segmentation::UnicodeSegmentation;

/// Where a cursor key moves the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One character back or on.
    Left,
    Right,
    /// To the start of this (or the previous) word, or past the end of the
    /// next one.
    WordLeft,
    WordRight,
    /// The same column on the line above or below.
    Up,
    Down,
    /// The start or end of the line.
    Home,
    End,
}

/// A scroll this large means the top of the text.
pub const SCROLLED_TO_TOP: usize = usize::MAX / 4;

#[derive(Debug, Clone, Default)]
pub struct EncodeBox {
    pub text: String,
    /// The encoding of `text` (its ids; what each stands for is asked of
    /// the tokenizer, see [`EncodeBox::token`]), if it has been computed
    /// for `encoded_for`. Ids only: a pasted megabyte costs a few
    /// megabytes, not a copy of every token's bytes.
    pub ids: Vec<TokenId>,
    /// The bytes of `text` each token of `encoded` stands for, when known
    /// (empty otherwise). A char-mode `</w>` stands for none.
    pub spans: Places,
    /// (tokenizer slot, its stamp, text generation) the encoding belongs to.
    encoded_for: Option<(usize, u64, u64)>,
    generation: u64,
    /// Rows scrolled up from the bottom of the box.
    pub scroll: usize,
    /// The token selected (`[`/`]`), whose merge tree Enter opens.
    pub selected: Option<usize>,
    /// The most bytes the text may hold (a served session's budget), if
    /// any: what would go past it is not inserted.
    pub limit: Option<usize>,
    /// The cursor as a byte offset into `text`, always where a character
    /// (as seen) starts, or at the end.
    at: usize,
    /// The column Up and Down aim for, kept while they are pressed in a row
    /// so a short line in between does not lose it.
    goal: Option<usize>,
    /// Where the text's lines start, for drawing only the lines that show.
    lines: Option<(u64, LineIndex)>,
    /// What changed since the last encoding: `lo..hi` of the text now, and
    /// the text's length then.
    dirty: Option<Dirty>,
    /// The tokenizer the encoding was made with.
    encoded_with: Option<Arc<Tokenizer>>,
    /// For each token, whether it starts a pre-tokenizer chunk (merges
    /// never join across one); kept for merge-list tokenizers in byte mode,
    /// so a step of training can update the encoding instead of redoing it.
    chunk_starts: Vec<bool>,
    /// A long text is encoded a part at a time, between frames: the tokens
    /// cover the text up to here so far.
    progress: Option<usize>,
    /// Why the text has no tokens: a regex of the tokenizer file's refused
    /// it (its work would grow faster than the text).
    pub refused: Option<String>,
}

/// Texts longer than this are encoded a part at a time.
const ENCODE_IN_PARTS_FROM: usize = 1 << 19;
/// About how much of the text one part holds.
const PART: usize = 1 << 17;
/// Encoding a text this long frees enough to be worth handing back.
const GIVE_BACK_FROM: usize = 1 << 18;

/// The part of the text edits touched since it was last encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dirty {
    lo: usize,
    hi: usize,
    old_len: usize,
}

impl EncodeBox {
    /// The cursor, in characters (`char`s) from the start of the text.
    pub fn cursor(&self) -> usize {
        self.text[..self.at].chars().count()
    }

    /// The cursor as a byte offset into the text.
    pub fn cursor_byte(&self) -> usize {
        self.at
    }

    /// Put the cursor before character `chars` (the end if past it), or
    /// after the character as seen that this would split.
    pub fn set_cursor(&mut self, chars: usize) {
        self.at = self
            .text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i);
        self.snap();
        self.goal = None;
    }

    /// Insert at the cursor and move it past what was inserted; returns
    /// how many bytes did not fit under the limit (0 if all did).
    pub fn insert(&mut self, s: &str) -> usize {
        // Pasted text from Windows editors brings \r\n; one break is enough.
        let mut s = s.replace("\r\n", "\n").replace('\r', "\n");
        let room = self
            .limit
            .map_or(usize::MAX, |l| l.saturating_sub(self.text.len()));
        let mut dropped = 0;
        if s.len() > room {
            let mut cut = room;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            dropped = s.len() - cut;
            s.truncate(cut);
        }
        if s.is_empty() {
            return dropped;
        }
        self.mark_dirty(self.at, self.at, s.len());
        self.text.insert_str(self.at, &s);
        self.at += s.len();
        self.snap();
        self.touch();
        dropped
    }

    /// Delete the character (as seen) before the cursor.
    pub fn delete_back(&mut self) {
        let from = self.prev_boundary(self.at);
        if from < self.at {
            self.mark_dirty(from, self.at, 0);
            self.text.replace_range(from..self.at, "");
            self.at = from;
            self.snap();
            self.touch();
        }
    }

    /// Delete the character (as seen) after the cursor.
    pub fn delete_forward(&mut self) {
        let to = self.next_boundary(self.at);
        if to > self.at {
            self.mark_dirty(self.at, to, 0);
            self.text.replace_range(self.at..to, "");
            self.snap();
            self.touch();
        }
    }

    pub fn clear(&mut self) {
        self.at = 0;
        self.scroll = 0;
        self.goal = None;
        if !self.text.is_empty() {
            self.text.clear();
            self.touch();
        }
    }

    pub fn move_cursor(&mut self, to: Move) {
        let goal = self.goal.take();
        self.at = match to {
            Move::Left => self.prev_boundary(self.at),
            Move::Right => self.next_boundary(self.at),
            Move::WordLeft => self.word_left(),
            Move::WordRight => self.word_right(),
            Move::Home => self.line_start(self.at),
            Move::End => self.line_end(self.at),
            Move::Up | Move::Down => {
                let goal = goal.unwrap_or_else(|| self.column());
                self.goal = Some(goal);
                let start = self.line_start(self.at);
                if to == Move::Up && start == 0 {
                    0
                } else if to == Move::Down && self.line_end(self.at) == self.text.len() {
                    self.text.len()
                } else {
                    let line = if to == Move::Up {
                        self.line_start(start - 1)
                    } else {
                        self.line_end(self.at) + 1
                    };
                    self.at_column(line, goal)
                }
            }
        };
    }

    /// The display column of the cursor on its line.
    pub fn column(&self) -> usize {
        let start = self.line_start(self.at);
        let mut col = 0;
        for r in clusters(&self.text[start..self.at]) {
            col += cell_width(&self.text[start + r.start..start + r.end]);
        }
        col
    }

    /// The byte range of the character (as seen) at the cursor; empty at the
    /// end of the text.
    pub fn cursor_span(&self) -> Range<usize> {
        self.at..self.next_boundary(self.at)
    }

    /// The last place on the line starting at `line` whose column is at
    /// most `goal`.
    fn at_column(&self, line: usize, goal: usize) -> usize {
        let end = self.line_end(line);
        let mut col = 0;
        for r in clusters(&self.text[line..end]) {
            col += cell_width(&self.text[line + r.start..line + r.end]);
            if col > goal {
                return line + r.start;
            }
        }
        end
    }

    fn line_start(&self, at: usize) -> usize {
        self.text[..at].rfind('\n').map_or(0, |i| i + 1)
    }

    fn line_end(&self, at: usize) -> usize {
        self.text[at..]
            .find('\n')
            .map_or(self.text.len(), |i| at + i)
    }

    /// Where the character (as seen) before `at` starts. Characters never
    /// span a line break, so only `at`'s line is looked at.
    fn prev_boundary(&self, at: usize) -> usize {
        let start = self.line_start(at);
        if start == at {
            return at.saturating_sub(1);
        }
        clusters(&self.text[start..at])
            .last()
            .map_or(start, |r| start + r.start)
    }

    /// Where the character (as seen) at `at` ends.
    fn next_boundary(&self, at: usize) -> usize {
        let end = (self.line_end(at) + 1).min(self.text.len());
        clusters(&self.text[at..end])
            .first()
            .map_or(at, |r| at + r.end)
    }

    fn word_left(&self) -> usize {
        let spans = clusters(&self.text[..self.at]);
        let mut i = spans.len();
        while i > 0 && !is_word(&self.text[spans[i - 1].clone()]) {
            i -= 1;
        }
        while i > 0 && is_word(&self.text[spans[i - 1].clone()]) {
            i -= 1;
        }
        spans.get(i).map_or(self.at, |r| r.start)
    }

    fn word_right(&self) -> usize {
        let tail = &self.text[self.at..];
        let mut spans = clusters(tail).into_iter().peekable();
        let mut end = 0;
        while let Some(r) = spans.next_if(|r| !is_word(&tail[r.clone()])) {
            end = r.end;
        }
        while let Some(r) = spans.next_if(|r| is_word(&tail[r.clone()])) {
            end = r.end;
        }
        self.at + end
    }

    /// After an edit the cursor may have come to split a character (a
    /// combining mark typed after it joins the letter before): move it past.
    fn snap(&mut self) {
        self.at = self.at.min(self.text.len());
        while !self.text.is_char_boundary(self.at) {
            self.at += 1;
        }
        let start = self.prev_boundary(self.at);
        let end = self.next_boundary(start);
        if start < self.at && self.at < end {
            self.at = end;
        }
    }

    /// Note that `from..to` of the text is about to become `inserted` new
    /// bytes (call before changing the text).
    fn mark_dirty(&mut self, from: usize, to: usize, inserted: usize) {
        let removed = to - from;
        let d = self.dirty.get_or_insert(Dirty {
            lo: from,
            hi: from,
            old_len: self.text.len(),
        });
        // Keep `hi` pointing at the same unchanged byte after the edit.
        d.hi = if d.hi >= to {
            d.hi - removed + inserted
        } else {
            from + inserted
        }
        .max(from + inserted);
        d.lo = d.lo.min(from);
    }

    fn touch(&mut self) {
        self.generation += 1;
        self.goal = None;
    }

    /// The tokenizer the ids are of.
    pub fn encoded_with(&self) -> Option<&Arc<Tokenizer>> {
        self.encoded_with.as_ref()
    }

    /// Whether the ids are those of the whole text as it is now.
    pub fn is_fully_encoded(&self) -> bool {
        self.progress.is_none()
            && self
                .encoded_for
                .is_some_and(|(_, _, generation)| generation == self.generation)
    }

    /// Whether a long text is still being encoded.
    pub fn encoding(&self) -> bool {
        self.progress.is_some()
    }

    /// How much of the text is encoded, in per cent, while that goes on.
    pub fn encoded_percent(&self) -> Option<usize> {
        self.progress.map(|p| p * 100 / self.text.len().max(1))
    }

    /// Encode the next part of a long text.
    pub fn encode_more(&mut self, toks: &TokenizerSet) {
        let (Some(from), Some(tok)) = (self.progress, toks.get(toks.selected)) else {
            return;
        };
        if !self.encode_part(&tok.clone(), from) {
            self.progress = None;
            self.encoded_for = None;
            self.refresh(toks);
        }
    }

    /// Encode from `from` (a place where a chunk starts) to the first such
    /// place a part's length on, appending the tokens. False if the text
    /// cannot be cut there, or the tokens do not tile it.
    fn encode_part(&mut self, tok: &Tokenizer, from: usize) -> bool {
        if merges_whole_text(tok) {
            return self.append_part(tok, from);
        }
        let text = self.text.as_bytes();
        let to = next_cut(tok, &self.text, from + PART);
        let next = self.text[to..].chars().next().map_or(0, char::len_utf8);
        let Some(kept) = tokens_between(tok, &self.text, from, to) else {
            return false;
        };
        let spans = spans_from(tok, from, &kept);
        let flags = chunk_flags(tok, &text[..to + next], from, spans.iter().cloned());
        self.ids.extend(kept);
        self.spans.extend(spans);
        self.chunk_starts.extend(flags);
        self.progress = (to < text.len()).then_some(to);
        if self.progress.is_none() {
            self.fit_memory();
        }
        true
    }

    /// [`EncodeBox::encode_part`] for a tokenizer that merges the whole
    /// text as one chunk: the part is an edit that appends to the text
    /// encoded so far (whose last tokens it may change).
    fn append_part(&mut self, tok: &Tokenizer, from: usize) -> bool {
        let len = self.text.len();
        let to = (from + PART).min(len);
        if self.spans.len() != self.ids.len() {
            return false;
        }
        let spans = &self.spans;
        let found = splice(
            tok,
            &self.text.as_bytes()[..to],
            &self.ids,
            |k| spans.range(k).start,
            from,
            from,
            to,
        );
        let Some(found) = found else {
            return false;
        };
        self.put(tok, found, 0);
        self.progress = (to < len).then_some(to);
        if self.progress.is_none() {
            self.fit_memory();
        }
        true
    }

    /// Put `found` in place of the tokens it replaces, moving those after
    /// them by `delta` bytes. One chunk holds the whole text: only the
    /// first token starts one.
    fn put(&mut self, tok: &Tokenizer, found: Splice, delta: isize) {
        let spans = spans_from(tok, found.from, &found.middle);
        let flags: Vec<bool> = (0..found.middle.len())
            .map(|i| found.keep_before + i == 0)
            .collect();
        let mut after_spans = self.spans.split_off(found.keep_after);
        after_spans.shift(delta);
        self.spans.truncate(found.keep_before);
        self.spans.extend(spans);
        self.spans.extend([after_spans]);
        self.ids
            .splice(found.keep_before..found.keep_after, found.middle);
        if follows_merges(tok) && self.chunk_starts.len() >= found.keep_after {
            self.chunk_starts
                .splice(found.keep_before..found.keep_after, flags);
            if let Some(first) = self.chunk_starts.first_mut() {
                *first = true;
            }
        } else {
            self.chunk_starts.clear();
        }
    }

    /// [`EncodeBox::reencode_part`] for a tokenizer that merges the whole
    /// text as one chunk: a stretch around the edit is encoded again and
    /// joined where it meets the old tokens (see [`bpeek_core::resync`]).
    fn resplice(&mut self, tok: &Tokenizer, d: Dirty) -> bool {
        if self.spans.len() != self.ids.len() || (self.ids.is_empty() && d.old_len > 0) {
            return false;
        }
        // While a long text is still encoded a part at a time, the tokens
        // cover it up to `p`: an edit after that is met by the next part.
        let covered = match self.progress {
            Some(p) if d.lo >= p => return true,
            Some(_) => return false,
            None => d.old_len,
        };
        let new_len = self.text.len();
        if d.hi > new_len || d.old_len < new_len - d.hi {
            return false;
        }
        if d.hi - d.lo > 2 * PART && new_len >= ENCODE_IN_PARTS_FROM {
            // A long paste: encoded a part at a time instead.
            return false;
        }
        let spans = &self.spans;
        let found = splice(
            tok,
            self.text.as_bytes(),
            &self.ids,
            |k| spans.range(k).start,
            covered,
            d.lo,
            d.hi,
        );
        let Some(found) = found else {
            return false;
        };
        self.put(tok, found, new_len as isize - d.old_len as isize);
        true
    }

    /// Where each line of the text starts (long lines cut into pieces), kept
    /// until the text changes.
    pub fn lines(&self) -> &LineIndex {
        match &self.lines {
            Some((generation, lines)) if *generation == self.generation => lines,
            _ => {
                // Built on first use after an edit, see `refresh`.
                static EMPTY: std::sync::OnceLock<LineIndex> = std::sync::OnceLock::new();
                EMPTY.get_or_init(|| LineIndex::new(b""))
            }
        }
    }

    /// Which version of the text this is; it changes with every edit.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Encode again if the text or the selected tokenizer changed. A
    /// tokenizer still loading leaves the box without tokens.
    pub fn refresh(&mut self, toks: &TokenizerSet) {
        if self
            .lines
            .as_ref()
            .is_none_or(|(g, _)| *g != self.generation)
        {
            self.lines = Some((self.generation, LineIndex::new(self.text.as_bytes())));
        }
        let slot = toks.selected;
        let key = (slot, toks.slots[slot].stamp, self.generation);
        if self.encoded_for == Some(key) {
            return;
        }
        if self.refused.take().is_some() {
            // Nothing was encoded: nothing to build on.
            self.encoded_for = None;
            self.dirty = None;
        }
        let same_tokenizer = self
            .encoded_for
            .is_some_and(|(s, stamp, _)| (s, stamp) == (key.0, key.1));
        let same_text = self
            .encoded_for
            .is_some_and(|(s, _, generation)| (s, generation) == (key.0, key.2));
        let dirty = self.dirty.take();
        if let (true, Some(d), Some(tok)) = (same_tokenizer, dirty, toks.get(slot))
            && self.reencode_part(tok, d)
        {
            self.encoded_for = Some(key);
            return;
        }
        if let (true, Some(old), Some(new)) = (same_text, self.encoded_with.clone(), toks.get(slot))
            && self.follow_training(&old, new)
        {
            self.encoded_with = Some(new.clone());
            self.encoded_for = Some(key);
            return;
        }
        self.progress = None;
        if let Some(tok) = toks.get(slot)
            && self.text.len() >= ENCODE_IN_PARTS_FROM
            && (cuts_at_lines(tok) || merges_whole_text(tok))
        {
            // A long text: the first part now, the rest between frames.
            self.ids.clear();
            self.spans.clear();
            self.chunk_starts.clear();
            self.encoded_with = Some(tok.clone());
            if self.encode_part(&tok.clone(), 0) {
                self.encoded_for = Some(key);
                return;
            }
            self.progress = None;
        }
        self.ids = match toks.get(slot) {
            Some(tok) if !self.text.is_empty() => {
                match tok.encode_bytes(self.text.as_bytes(), false) {
                    Ok(ids) => ids,
                    Err(e) => {
                        self.refused = Some(e.to_string());
                        Vec::new()
                    }
                }
            }
            _ => Vec::new(),
        };
        self.spans = match toks.get(slot) {
            Some(tok) => spans_of(tok, &self.text, &self.ids),
            None => Places::default(),
        };
        self.encoded_with = toks.get(slot).cloned();
        self.chunk_starts = match toks.get(slot) {
            Some(tok) if follows_merges(tok) && self.spans.len() == self.ids.len() => {
                chunk_flags(tok, self.text.as_bytes(), 0, self.spans.iter())
            }
            _ => Vec::new(),
        };
        self.fit_memory();
        // A tokenizer not ready yet is tried again on the next refresh.
        self.encoded_for = toks.get(slot).is_some().then_some(key);
    }

    /// Encode again only the lines an edit touched: tokens never cross the
    /// start of a line that begins with a character other than whitespace
    /// (see [`bpeek_core::line_cuts`]), for the pre-tokenizers that cut there, so the tokens before and after those
    /// lines stay as they were. False (nothing changed) where that cannot
    /// be relied on; the caller then encodes the whole text.
    fn reencode_part(&mut self, tok: &Tokenizer, d: Dirty) -> bool {
        if merges_whole_text(tok) {
            return self.resplice(tok, d);
        }
        let lined_up =
            self.spans.len() == self.ids.len() && (self.ids.is_empty() || !self.spans.is_empty());
        if !cuts_at_lines(tok) || !lined_up {
            return false;
        }
        if let Some(p) = self.progress
            && is_cut(tok, &self.text, p, d.lo)
        {
            // All of the edit lies in the part still to be encoded.
            return true;
        }
        let text = self.text.as_bytes();
        let new_len = text.len();
        if d.hi > new_len || d.old_len < new_len - d.hi {
            return false;
        }
        // A cut told wholly before `lo`, and one told wholly after `hi`.
        let a = prev_cut(tok, &self.text, d.lo);
        let b = next_cut(tok, &self.text, d.hi);
        if b - a > 2 * PART && new_len >= ENCODE_IN_PARTS_FROM {
            // A long stretch: encoded a part at a time instead.
            return false;
        }
        let delta = new_len as isize - d.old_len as isize;
        let old_b = (b as isize - delta) as usize;
        // Part of a long text still to be encoded: only an edit inside the
        // part done can be spliced in.
        if let Some(p) = self.progress {
            if old_b > p {
                return false;
            }
            self.progress = Some((p as isize + delta) as usize);
        }
        let keep_before = self.spans.partition_point(|r| r.end <= a);
        let keep_after = self.spans.partition_point(|r| r.start < old_b);
        let ends_at_a = a == 0
            || keep_before
                .checked_sub(1)
                .is_some_and(|i| self.spans.range(i).end == a);
        let starts_at_b =
            old_b == d.old_len || self.spans.get(keep_after).is_some_and(|r| r.start == old_b);
        if !ends_at_a || !starts_at_b {
            return false;
        }
        // The middle, with the first character after it so that nothing
        // in it is taken for the end of the text; its tokens are dropped.
        let next = self.text[b..].chars().next().map_or(0, char::len_utf8);
        let Some(tokens) = tokens_between(tok, &self.text, a, b) else {
            return false;
        };
        let spans = spans_from(tok, a, &tokens);
        let after_tokens = self.ids.split_off(keep_after);
        let mut after_spans = self.spans.split_off(keep_after);
        after_spans.shift(delta);
        let flags = if self.chunk_starts.len() == keep_after + after_spans.len() {
            let after_flags = self.chunk_starts.split_off(keep_after);
            self.chunk_starts.truncate(keep_before);
            // With the character after the middle, as it was encoded.
            let middle = chunk_flags(tok, &text[..b + next], a, spans.iter().cloned());
            Some((middle, after_flags))
        } else {
            None
        };
        self.ids.truncate(keep_before);
        self.spans.truncate(keep_before);
        self.ids.extend(tokens);
        self.ids.extend(after_tokens);
        self.spans.extend(spans);
        self.spans.extend([after_spans]);
        match flags {
            Some((middle, after)) => {
                self.chunk_starts.extend(middle);
                self.chunk_starts.extend(after);
            }
            None => self.chunk_starts.clear(),
        }
        true
    }

    /// Follow training by one merge, forward or back, without encoding the
    /// text again: encoding replays merges by rank, so a new last merge
    /// joins its pair where it stands side by side in one chunk, left to
    /// right, and taking the last merge back splits every token it made.
    /// False where the two tokenizers are not one merge apart.
    fn follow_training(&mut self, old: &Tokenizer, new: &Tokenizer) -> bool {
        if !follows_merges(new)
            || old.chunker() != new.chunker()
            || self.chunk_starts.len() != self.ids.len()
            || self.spans.len() != self.ids.len()
        {
            return false;
        }
        let (o, n) = (old.merges(), new.merges());
        if n.len() == o.len() + 1 && n[..o.len()] == *o {
            let m = &n[o.len()];
            self.join(m.pair, m.id);
            true
        } else if o.len() == n.len() + 1 && o[..n.len()] == *n {
            let m = &o[n.len()];
            let left = old.vocab().token_bytes(m.pair.0).len();
            self.split(m.id, m.pair, left);
            true
        } else {
            false
        }
    }

    /// Join `pair` into `id` wherever it stands within one chunk.
    fn join(&mut self, pair: bpeek_core::Pair, id: bpeek_core::TokenId) {
        let (ids, starts) = (&mut self.ids, &mut self.chunk_starts);
        // Where the pair's left token stands, left to right (`aaa` joins
        // as `aa a`).
        let mut lefts = Vec::new();
        let mut i = 0;
        while i + 1 < ids.len() {
            if ids[i] == pair.0 && ids[i + 1] == pair.1 && !starts[i + 1] {
                lefts.push(i);
                i += 2;
            } else {
                i += 1;
            }
        }
        for &i in &lefts {
            ids[i] = id;
        }
        // The joined token keeps the left one's place in its chunk.
        remove_at(ids, lefts.iter().map(|&i| i + 1));
        remove_at(starts, lefts.iter().map(|&i| i + 1));
        self.spans.join_after(&lefts);
    }

    /// Split every token `id` back into `pair`, its left part `left` bytes.
    fn split(&mut self, id: bpeek_core::TokenId, pair: bpeek_core::Pair, left: usize) {
        let count = self.ids.iter().filter(|&&t| t == id).count();
        if count == 0 {
            return;
        }
        let mut ids = Vec::with_capacity(self.ids.len() + count);
        let mut spans = Places::default();
        let mut starts = Vec::with_capacity(ids.capacity());
        for ((t, r), start) in std::mem::take(&mut self.ids)
            .into_iter()
            .zip(std::mem::take(&mut self.spans).iter())
            .zip(std::mem::take(&mut self.chunk_starts))
        {
            if t == id {
                ids.push(pair.0);
                ids.push(pair.1);
                spans.push(r.start..r.start + left);
                spans.push(r.start + left..r.end);
                starts.push(start);
                starts.push(false);
            } else {
                ids.push(t);
                spans.push(r);
                starts.push(start);
            }
        }
        self.ids = ids;
        self.spans = spans;
        self.chunk_starts = starts;
    }

    /// Give back what the lists grew beyond the finished encoding (up to
    /// half of them, as a vector doubles), which a class's many encode
    /// boxes would otherwise keep.
    fn fit_memory(&mut self) {
        self.ids.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.chunk_starts.shrink_to_fit();
        if self.text.len() >= GIVE_BACK_FROM {
            crate::freed_memory::give_back();
        }
    }

    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }

    pub fn tokens(&self) -> usize {
        self.ids.len()
    }

    /// What token `i` stands for (char mode: its symbol string), and
    /// whether it is a special token.
    pub fn token_bytes(&self, i: usize) -> Option<(&[u8], bool)> {
        let id = *self.ids.get(i)?;
        let tok = self.encoded_with.as_ref()?;
        tok.contains(id)
            .then(|| (tok.bytes_of(id), tok.describe_is_special(id)))
    }

    /// Every token of the encoding with what it stands for (a copy of each
    /// token's bytes: for a look at the whole, not for drawing).
    pub fn encoded(&self) -> Vec<EncodedToken> {
        (0..self.ids.len()).filter_map(|i| self.token(i)).collect()
    }

    /// Token `i` of the encoding: its id and what it stands for.
    pub fn token(&self, i: usize) -> Option<EncodedToken> {
        let id = *self.ids.get(i)?;
        let tok = self.encoded_with.as_ref()?;
        tok.contains(id).then(|| tok.describe(id))
    }
}

/// A tokenizer whose encoding can follow training merge by merge: a merge
/// list in byte mode, with nothing matched outside the merges.
fn follows_merges(tok: &Tokenizer) -> bool {
    tok.mode() == Mode::Byte
        && tok.source() == bpeek_core::encoder::MergeSource::List
        && tok.added().is_none()
        && !tok.is_piece_model()
}

/// For each token of `spans` (which start at `offset` of the text), whether
/// a chunk of `text[offset..]` starts where it does.
fn chunk_flags(
    tok: &Tokenizer,
    text: &[u8],
    offset: usize,
    spans: impl IntoIterator<Item = Range<usize>>,
) -> Vec<bool> {
    let mut starts = Vec::new();
    tok.chunker()
        .for_each_chunk(&text[offset..], |r| starts.push(offset + r.start));
    spans
        .into_iter()
        .map(|r| starts.binary_search(&r.start).is_ok())
        .collect()
}

/// The bytes of `text` each token stands for, or nothing if the tokens
/// cannot be lined up with the text.
fn spans_of(tok: &Tokenizer, text: &str, ids: &[TokenId]) -> Places {
    if ids.is_empty() || text.len() > crate::panes::places::MAX_TEXT {
        return Places::default();
    }
    if tok.mode() == Mode::Char || tok.is_piece_model() {
        let spans = bpeek_core::fertility::token_spans(tok, text);
        let same = spans.len() == ids.len() && spans.iter().zip(ids).all(|((id, _), e)| id == e);
        return if same {
            spans.into_iter().map(|(_, r)| r).collect()
        } else {
            Places::default()
        };
    }
    // Byte-level tokens tile the text.
    let mut at = 0;
    let mut spans = Places::default();
    for &id in ids {
        let bytes = tok.bytes_of(id);
        let end = at + bytes.len();
        if text.as_bytes().get(at..end) != Some(bytes) {
            return Places::default();
        }
        spans.push(at..end);
        at = end;
    }
    if at == text.len() {
        spans
    } else {
        Places::default()
    }
}

/// The characters of `s` as a reader sees them (extended grapheme
/// clusters), as byte ranges: a base character with its combining marks,
/// an emoji with its modifiers and joined emoji, a flag. A line break is
/// a character of its own, even `\r\n`'s parts, so the cursor can stand
/// between them like any editor's.
pub fn clusters(s: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (i, g) in s.grapheme_indices(true) {
        if g == "\r\n" {
            out.push(i..i + 1);
            out.push(i + 1..i + 2);
        } else {
            out.push(i..i + g.len());
        }
    }
    out
}

/// Letters, digits and `_` make words.
fn is_word(cluster: &str) -> bool {
    cluster
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The columns a character (as seen) takes on screen, as the box draws
/// it: a tab always [`TAB_WIDTH`], controls as `\u{..}`, a mark with no
/// base on a dotted circle.
pub fn cell_width(cluster: &str) -> usize {
    match cluster.chars().next() {
        Some('\t') => TAB_WIDTH,
        Some('\n') | None => 0,
        Some(c) if c.is_control() => format!("\\u{{{:x}}}", c as u32).len(),
        Some(_) => match rows::cell_width(cluster) {
            0 => 1,
            w => w,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(s: &str) -> Vec<&str> {
        clusters(s).into_iter().map(|r| &s[r]).collect()
    }

    #[test]
    fn marks_modifiers_joiners_and_flags_stay_with_their_character() {
        assert_eq!(seen("e\u{301}x"), ["e\u{301}", "x"]);
        assert_eq!(seen("👍🏽!"), ["👍🏽", "!"]);
        assert_eq!(
            seen("👨\u{200D}👩\u{200D}👧a"),
            ["👨\u{200D}👩\u{200D}👧", "a"]
        );
        assert_eq!(seen("🇫🇷🇩🇪"), ["🇫🇷", "🇩🇪"]);
        assert_eq!(seen("a\n\u{301}"), ["a", "\n", "\u{301}"]);
        assert_eq!(seen("日本"), ["日", "本"]);
    }

    #[test]
    fn a_combining_mark_typed_after_a_letter_joins_it() {
        let mut b = EncodeBox::default();
        b.insert("ex");
        b.set_cursor(1);
        b.insert("\u{301}");
        assert_eq!(b.text, "e\u{301}x");
        assert_eq!(b.cursor(), 2);
        b.move_cursor(Move::Left);
        assert_eq!(b.cursor(), 0);
        // A letter typed before a lone mark takes it: the cursor goes past.
        let mut b = EncodeBox::default();
        b.insert("\u{301}");
        b.set_cursor(0);
        b.insert("e");
        assert_eq!(b.cursor(), 2);
    }
}
