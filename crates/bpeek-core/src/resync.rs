//! The tokens of an edited text from the tokens it had, for a tokenizer
//! that merges the whole text as one chunk (`--pretok none`): only a
//! stretch around the edit is encoded again, however long the text.
//!
//! Why this gives the tokens of the whole: a run of tokens taken out of an
//! encoding is the encoding of its own bytes, and two encodings that hold
//! the same token at the same place can be joined there, since no merge
//! either side made reaches across that token. So the stretch is encoded on
//! its own and kept from the first token it shares, at the same place, with
//! the old tokens before the edit, to the first it shares with them after
//! it. Where it shares none, a wider stretch is tried, up to the whole
//! text (which shares with nothing and needs not to).
//!
//! Appending is an edit at the end, so a long text can be encoded a part
//! at a time the same way (see [`Splice`]).

use crate::encoder::Tokenizer;
use crate::pretokenize::pretok::{Digits, Pretok};
use crate::{Mode, TokenId};

/// Whether `tok` merges a text as one chunk, byte by byte, with nothing
/// matched outside its merges: what [`splice`] needs.
pub fn merges_whole_text(tok: &Tokenizer) -> bool {
    let chunker = tok.chunker();
    tok.mode() == Mode::Byte
        && tok.added().is_none()
        && !tok.is_piece_model()
        && tok.chunks_by_rule() == (true, false)
        && chunker.pretok == Pretok::None
        && chunker.digits == Digits::Keep
}

/// The old tokens `keep_before..keep_after` give way to `middle`, whose
/// bytes start at byte `from` of the new text; the old tokens from
/// `keep_after` on move by the edit's change of length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    pub keep_before: usize,
    pub keep_after: usize,
    pub middle: Vec<TokenId>,
    pub from: usize,
}

/// A long text encoded a part at a time, each part an edit that appends
/// to the text encoded so far (whose last tokens it may change).
#[derive(Debug, Clone, Default)]
pub struct Appended {
    pub ids: Vec<TokenId>,
    /// Where each token starts.
    pub starts: Vec<usize>,
    /// How much of the text the tokens cover.
    pub done: usize,
}

impl Appended {
    /// Encode on to byte `to` of `text` (the same text each time, up to
    /// where the tokens cover it). `None` if the tokens cannot be made.
    pub fn extend_to(&mut self, tok: &Tokenizer, text: &[u8], to: usize) -> Option<()> {
        let (from, to) = (self.done, to.min(text.len()));
        let starts = &self.starts;
        let s = splice(tok, &text[..to], &self.ids, |k| starts[k], from, from, to)?;
        self.ids.truncate(s.keep_before);
        self.starts.truncate(s.keep_before);
        let mut at = s.from;
        for id in s.middle {
            self.ids.push(id);
            self.starts.push(at);
            at += tok.bytes_of(id).len();
        }
        self.done = to;
        Some(())
    }
}

/// Bytes on either side of an edit encoded again at first; each retry
/// takes four times as many.
const FIRST_MARGIN: usize = 64;

/// The tokens of `text` given `old` (the tokens of the text before the
/// edit, `old_start(k)` where token `k` started, `old_len` its length),
/// where the text changed only in `lo..hi` (bytes of the new text; before
/// `lo` and after `hi` it is as it was). `None` if the stretch cannot be
/// encoded.
pub fn splice(
    tok: &Tokenizer,
    text: &[u8],
    old: &[TokenId],
    old_start: impl Fn(usize) -> usize,
    old_len: usize,
    lo: usize,
    hi: usize,
) -> Option<Splice> {
    let n = old.len();
    let delta = text.len() as isize - old_len as isize;
    let start_of = |k: usize| if k < n { old_start(k) } else { old_len };
    // The first old token at or after `at` (old bytes).
    let first_from = |at: usize| partition(n, |k| start_of(k) < at);
    let old_hi = (hi as isize - delta).max(lo as isize) as usize;
    let len_of = |id: TokenId| tok.bytes_of(id).len();
    let mut margin = FIRST_MARGIN;
    loop {
        // From the start of the old token holding byte `lo - margin`, to the
        // start of the first old token `margin` bytes after the edit.
        let ka = first_from(lo.saturating_sub(margin) + 1).saturating_sub(1);
        let a = if lo <= margin { 0 } else { start_of(ka) };
        let kb = first_from(old_hi + margin);
        let b = ((start_of(kb) as isize + delta) as usize).min(text.len());
        let window = tok.encode_bytes(&text[a..b], false).ok()?;
        let mut starts = Vec::with_capacity(window.len() + 1);
        let mut at = a;
        for &id in &window {
            starts.push(at);
            at += len_of(id);
        }
        starts.push(at);
        if at != b {
            return None;
        }
        let left = if a == 0 {
            Some((0, 0))
        } else {
            // A token wholly before the edit.
            shared(&window, &starts, old, &start_of, ka, n, 0, |x| {
                starts[x + 1] <= lo
            })
            .map(|(x, y)| (y + 1, x + 1))
        };
        let right = match left {
            _ if b == text.len() => Some((window.len(), n)),
            Some((_, x)) => {
                let y0 = first_from(old_hi);
                let moved = |k: usize| (start_of(k) as isize + delta) as usize;
                // Old tokens from `y0` on start after the edit.
                shared(&window, &starts, old, &moved, y0, n, x, |_| true)
            }
            None => None,
        };
        if let (Some((keep_before, x)), Some((x2, keep_after))) = (left, right) {
            return Some(Splice {
                keep_before,
                keep_after,
                middle: window[x..x2].to_vec(),
                from: starts[x],
            });
        }
        if a == 0 && b == text.len() {
            return None;
        }
        margin *= 4;
    }
}

/// The first token of `window` (from `x`) that an old token (from `y`)
/// also is, at the same place (`at(k)` where old token `k` starts, in the
/// window's bytes), while `go_on` holds for the window token: their
/// indices.
#[allow(clippy::too_many_arguments)]
fn shared(
    window: &[TokenId],
    starts: &[usize],
    old: &[TokenId],
    at: &impl Fn(usize) -> usize,
    mut y: usize,
    n: usize,
    mut x: usize,
    go_on: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    while x < window.len() && y < n && go_on(x) {
        let (p, q) = (starts[x], at(y));
        if p == q && window[x] == old[y] {
            return Some((x, y));
        }
        if p <= q {
            x += 1;
        }
        if q <= p {
            y += 1;
        }
    }
    None
}

/// The first `k` in `0..n` for which `before(k)` is false (it is true for
/// a first stretch of `k`s, then false).
fn partition(n: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
