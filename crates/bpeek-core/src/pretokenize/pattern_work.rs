//! All the matches of a file's regex in a text (Hugging Face `Split` and
//! `Replace` patterns, llama.cpp's split presets), with a bound on the work
//! a search may do: linear in the text, or a refusal that names the
//! pattern and where it came from. Never a partial result.
//!
//! The matches are found left to right, one start position at a time, as
//! `fancy-regex`'s `find_iter` finds them: the first position where the
//! pattern matches, its match there (the engine run anchored at that
//! position), then on from the end of the match. Each position tried is
//! first scanned by a *relaxed* automaton: the file's pattern with every
//! look-around, atomic group and assertion loosened to what matches at
//! least as much text. The scan goes on while any text read so far could
//! still begin a match of the relaxed pattern, so its length bounds how far
//! ahead the real engine may read from that position; where the relaxed
//! pattern cannot match at all, the real engine is not run.
//!
//! The work of a search is the sum of those scan lengths (a position that
//! is dead at once costs one step). Patterns real tokenizers ship take one
//! to three steps a byte; a pattern of a quadratic shape (`[a-z]+X|[a-z]`:
//! every start reads to the end of the run) takes steps in proportion to
//! the square of the text. Past [`STEPS_PER_BYTE`] steps a byte of the
//! text searched (plus [`SLACK`] steps, so short texts are never refused)
//! the search stops with an error, at once: the work spent is linear.

use crate::error::{Error, Result, quoted};
use fancy_regex::{Expr, LookAround, RegexInput};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::pool::Pool;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// The most steps a byte of text a search may take. The patterns models
/// ship take one to three (a step for each byte a match covers, one or two
/// more at its end); eight leaves room for text of any kind while a
/// quadratic shape passes it within a few kilobytes.
pub const STEPS_PER_BYTE: u64 = 8;

/// Steps every search may take beyond those, so a short text is never
/// refused (a quadratic shape reaches it at about 90 bytes).
pub const SLACK: u64 = 4096;

/// The work done by the searches of one pass over a text, and how much
/// they may do.
#[derive(Debug, Clone, Copy)]
pub struct Meter {
    used: u64,
    allowed: u64,
    refused: bool,
}

impl Default for Meter {
    fn default() -> Self {
        Meter::new()
    }
}

impl Meter {
    pub fn new() -> Meter {
        Meter {
            used: 0,
            allowed: SLACK,
            refused: false,
        }
    }

    /// Whether a search charged to it was refused.
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// The steps taken so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// The steps allowed so far.
    pub fn allowed(&self) -> u64 {
        self.allowed
    }
}

type CacheFn =
    Box<dyn Fn() -> Cache + Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe>;

/// A regex from a file, ready to search with a bound on its work.
#[derive(Clone)]
pub struct FileRegex {
    inner: Arc<Inner>,
}

struct Inner {
    pattern: String,
    /// Where the pattern came from: a field of a file, a preset.
    place: String,
    engine: fancy_regex::Regex,
    /// How the work is measured, with its automaton.
    way: Way,
    dfa: DFA,
    caches: Pool<Cache, CacheFn>,
    /// The bytes a match can start with, where the pattern says: a text
    /// with none of them has no match, and is not searched.
    first_bytes: Option<Box<[bool; 256]>>,
}

/// How a search is made and measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// A pattern with no look-around (the linear-time engine runs it
    /// whole): each search runs from where the last match ended, anchored
    /// there first, and its work is the bytes the pattern's own automaton
    /// (leftmost-first, as that engine's) reads from there until it dies.
    Whole,
    /// Any other: the engine is run anchored at each position in turn,
    /// and the work is the bytes the relaxed automaton reads from each.
    EachStart,
}

impl std::fmt::Debug for FileRegex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileRegex")
            .field("pattern", &self.inner.pattern)
            .field("place", &self.inner.place)
            .finish()
    }
}

impl FileRegex {
    /// `engine` compiled from `pattern`, whose tree is `tree`; `place`
    /// names the field. Refused if the pattern holds what cannot be
    /// relaxed (a back-reference, `\G`, `\K`).
    pub fn new(
        pattern: &str,
        place: &str,
        engine: fancy_regex::Regex,
        tree: &Expr,
    ) -> Result<FileRegex> {
        let refuse =
            |why: String| Error::input(format!("{place}: the regex {} {why}", quoted(pattern)));
        let mut relaxed = String::new();
        relax(tree, &mut relaxed)
            .map_err(|what| refuse(format!("holds {what}, which bpeek does not run")))?;
        let whole = (!crate::formats::regex_check::is_fancy(tree))
            .then(|| automaton(pattern, MatchKind::LeftmostFirst).ok())
            .flatten();
        let first_bytes = whole.as_ref().and_then(|_| first_bytes(pattern));
        let (way, dfa) = match whole {
            Some(dfa) => (Way::Whole, dfa),
            None => (
                Way::EachStart,
                automaton(&relaxed, MatchKind::All)
                    .map_err(|e| refuse(format!("cannot be measured ({e})")))?,
            ),
        };
        let for_pool = dfa.clone();
        let create: CacheFn = Box::new(move || for_pool.create_cache());
        Ok(FileRegex {
            inner: Arc::new(Inner {
                pattern: pattern.to_string(),
                place: place.to_string(),
                engine,
                way,
                dfa,
                caches: Pool::new(create),
                first_bytes,
            }),
        })
    }

    /// The pattern as the file wrote it.
    pub fn as_str(&self) -> &str {
        &self.inner.pattern
    }

    /// Where the pattern came from.
    pub fn place(&self) -> &str {
        &self.inner.place
    }

    /// The matches of the pattern in `s`, left to right, as `find_iter`
    /// gives them (empty ones included); the work is charged to `meter`,
    /// which refuses once the work passes its bound.
    pub fn find_all(&self, s: &str, meter: &mut Meter) -> Result<Vec<Range<usize>>> {
        let found = self.find_all_metered(s, meter);
        meter.refused |= found.is_err();
        found
    }

    fn find_all_metered(&self, s: &str, meter: &mut Meter) -> Result<Vec<Range<usize>>> {
        meter.allowed = meter
            .allowed
            .saturating_add(STEPS_PER_BYTE.saturating_mul(s.len() as u64));
        if let Some(first) = &self.inner.first_bytes
            && !s.bytes().any(|b| first[b as usize])
        {
            return Ok(Vec::new());
        }
        let mut cache = self.inner.caches.get();
        let mut out = Vec::new();
        let mut pos = 0;
        let mut last_end: Option<usize> = None;
        while pos <= s.len() {
            let Some(m) = self.next_match(s, pos, meter, &mut cache)? else {
                break;
            };
            if m.is_empty() {
                pos = next_char(s, m.end);
                // An empty match right after a match is not one.
                if last_end == Some(m.end) {
                    continue;
                }
            } else {
                pos = m.end;
            }
            last_end = Some(m.end);
            out.push(m);
        }
        Ok(out)
    }

    /// The first match at or after `pos`.
    fn next_match(
        &self,
        s: &str,
        pos: usize,
        meter: &mut Meter,
        cache: &mut Cache,
    ) -> Result<Option<Range<usize>>> {
        if self.inner.way == Way::EachStart {
            return self.next_match_each(s, pos, meter, cache);
        }
        // Most often a match starts where the last one ended: the
        // automaton, anchored there, says whether one may, and reads what
        // the engine run anchored there reads.
        let (steps, may_match) = self.scan(s.as_bytes(), pos, meter, cache);
        self.charge(steps, s.len(), meter)?;
        if may_match {
            let input = RegexInput::new(s).from_pos(pos).anchored(true);
            match self.inner.engine.find_input(input) {
                Ok(Some(m)) => return Ok(Some(m.range())),
                Ok(None) => {}
                Err(e) => return Err(self.backtracked(e)),
            }
        }
        // Else one search, not anchored, in linear time. If it finds
        // nothing, it read the rest of the text once and the searches end;
        // if it finds a match, its work is what the automaton reads from
        // `pos` until it dies, which may run far past the match.
        let found = match self.inner.engine.find_from_pos(s, pos) {
            Ok(m) => m.map(|m| m.range()),
            Err(e) => return Err(self.backtracked(e)),
        };
        let steps = match found {
            Some(_) => self.reach(s.as_bytes(), pos, meter, cache),
            None => (s.len() - pos) as u64 + 1,
        };
        self.charge(steps, s.len(), meter)?;
        Ok(found)
    }

    /// Add `steps` to `meter`; the refusal if that passes its bound.
    fn charge(&self, steps: u64, len: usize, meter: &mut Meter) -> Result<()> {
        meter.used = meter.used.saturating_add(steps);
        if meter.used > meter.allowed {
            return Err(self.too_much(len, meter));
        }
        Ok(())
    }

    /// The bytes a search from `at` reads, not anchored, until the
    /// pattern's automaton dies (at least one step), stopping early once
    /// the meter would pass its bound.
    fn reach(&self, text: &[u8], at: usize, meter: &Meter, cache: &mut Cache) -> u64 {
        let dfa = &self.inner.dfa;
        let room = meter.allowed.saturating_sub(meter.used);
        let rest = (text.len() - at) as u64 + 1;
        let config = start::Config::new()
            .anchored(Anchored::No)
            .look_behind(at.checked_sub(1).map(|i| text[i]));
        let Ok(mut sid) = dfa.start_state(cache, &config) else {
            return rest;
        };
        let mut steps = 0u64;
        for &b in &text[at..] {
            steps += 1;
            match step(dfa, cache, sid, b) {
                Some(next) => sid = next,
                None => return rest,
            }
            if sid.is_tagged() && (sid.is_dead() || sid.is_quit()) {
                return if sid.is_quit() { rest } else { steps };
            }
            if steps > room {
                return steps;
            }
        }
        steps.max(1)
    }

    /// [`FileRegex::next_match`] a position at a time.
    fn next_match_each(
        &self,
        s: &str,
        mut pos: usize,
        meter: &mut Meter,
        cache: &mut Cache,
    ) -> Result<Option<Range<usize>>> {
        while pos <= s.len() {
            let (steps, may_match) = self.scan(s.as_bytes(), pos, meter, cache);
            self.charge(steps, s.len(), meter)?;
            if may_match {
                let input = RegexInput::new(s).from_pos(pos).anchored(true);
                match self.inner.engine.find_input(input) {
                    Ok(Some(m)) => return Ok(Some(m.range())),
                    Ok(None) => {}
                    Err(e) => return Err(self.backtracked(e)),
                }
            }
            pos = next_char(s, pos);
        }
        Ok(None)
    }

    /// Scan `text` from `at` with the automaton, anchored: the bytes read
    /// until it dies (at least one step), stopping early once
    /// the meter would pass its bound; and whether it matched anywhere.
    fn scan(&self, text: &[u8], at: usize, meter: &Meter, cache: &mut Cache) -> (u64, bool) {
        let dfa = &self.inner.dfa;
        let room = meter.allowed.saturating_sub(meter.used);
        let config = start::Config::new()
            .anchored(Anchored::Yes)
            .look_behind(at.checked_sub(1).map(|i| text[i]));
        let Ok(mut sid) = dfa.start_state(cache, &config) else {
            // The lazy automaton gave up: count the rest of the text.
            return ((text.len() - at) as u64 + 1, true);
        };
        let mut matched = false;
        let mut steps = 0u64;
        for &b in &text[at..] {
            steps += 1;
            match step(dfa, cache, sid, b) {
                Some(next) => sid = next,
                None => return ((text.len() - at) as u64 + 1, true),
            }
            if sid.is_tagged() {
                if sid.is_match() {
                    matched = true;
                }
                if sid.is_dead() || sid.is_quit() {
                    return (steps, matched);
                }
            }
            if steps > room {
                return (steps, true);
            }
        }
        match dfa.next_eoi_state(cache, sid) {
            Ok(eoi) => matched |= eoi.is_match(),
            Err(_) => matched = true,
        }
        (steps.max(1), matched)
    }

    fn refusal(&self, why: String) -> Error {
        Error::input(format!(
            "{}: the regex {} {why}; bpeek stops rather than cut the text only in part",
            self.inner.place,
            quoted(&self.inner.pattern)
        ))
    }

    fn too_much(&self, len: usize, meter: &Meter) -> Error {
        self.refusal(format!(
            "needs more than {STEPS_PER_BYTE} steps a byte on this text (over {} steps for {len} bytes): its work grows faster than the text",
            meter.allowed
        ))
    }

    fn backtracked(&self, e: fancy_regex::Error) -> Error {
        self.refusal(format!(
            "reached the bound on backtracking on this text ({e})"
        ))
    }
}

/// The state after `sid` on byte `b`, by the cached transition when there
/// is one (`None`: the lazy automaton gave up).
#[inline(always)]
fn step(
    dfa: &DFA,
    cache: &mut Cache,
    sid: regex_automata::hybrid::LazyStateID,
    b: u8,
) -> Option<regex_automata::hybrid::LazyStateID> {
    if !sid.is_tagged() {
        let next = dfa.next_state_untagged(cache, sid, b);
        if !next.is_unknown() {
            return Some(next);
        }
    }
    dfa.next_state(cache, sid, b).ok()
}

/// The position of the character after the one at `at` (`at + 1` at the
/// end, so a loop over positions ends).
fn next_char(s: &str, at: usize) -> usize {
    s[at..].chars().next().map_or(at + 1, |c| at + c.len_utf8())
}

/// The automaton of `pattern`. The relaxed one keeps every match (`All`),
/// so it dies only when no branch could go on, whatever their order.
/// The bytes every match of `pattern` starts with one of, when its
/// prefixes say so: `None` where a match may be empty or start with any
/// byte the prefixes cannot name.
fn first_bytes(pattern: &str) -> Option<Box<[bool; 256]>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let prefixes = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    let mut first = Box::new([false; 256]);
    for literal in prefixes.literals()? {
        first[*literal.as_bytes().first()? as usize] = true;
    }
    Some(first)
}

fn automaton(pattern: &str, kind: MatchKind) -> std::result::Result<DFA, String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().which_captures(WhichCaptures::None))
        .build_from_hir(&hir)
        .map_err(|e| e.to_string())?;
    DFA::builder()
        .configure(
            DFA::config()
                .match_kind(kind)
                .minimum_cache_clear_count(None),
        )
        .build_from_nfa(nfa)
        .map_err(|e| e.to_string())
}

/// Write the relaxed form of `e` to `out` as regex syntax: what it matches
/// includes all `e` matches, and it reads at least as far. A look-ahead
/// `(?=B)` or `(?!B)` becomes `(?:B)?` (it may read B's text), except a
/// one-character look-ahead before a one-character class (`(?=[\p{L}])[^a-z]`),
/// which becomes the one class it amounts to; a look-behind, an assertion,
/// a backtracking verb become nothing; an atomic group an ordinary one.
/// What cannot be relaxed is named in the error.
fn relax(e: &Expr, out: &mut String) -> std::result::Result<(), &'static str> {
    match e {
        Expr::Empty
        | Expr::Assertion(_)
        | Expr::BacktrackingControlVerb(_)
        | Expr::DefineGroup { .. } => out.push_str("(?:)"),
        Expr::Any { newline: true, .. } => out.push_str("(?s:.)"),
        Expr::Any { crlf: true, .. } => out.push_str("[^\\r\\n]"),
        Expr::Any { .. } => out.push_str("[^\\n]"),
        Expr::GeneralNewline { .. } => {
            out.push_str("(?:\\r\\n|[\\n\\x0B\\x0C\\r\\x{85}\\x{2028}\\x{2029}])")
        }
        Expr::Literal { val, casei } => {
            out.push_str(if *casei { "(?i:" } else { "(?:" });
            out.push_str(&regex_syntax::escape(val));
            out.push(')');
        }
        Expr::LiteralBytes { bytes } => {
            out.push_str("(?:");
            out.push_str(&regex_syntax::escape(&String::from_utf8_lossy(bytes)));
            out.push(')');
        }
        Expr::Delegate { inner, casei } => {
            out.push_str(if *casei { "(?i:" } else { "(?:" });
            out.push_str(inner);
            out.push(')');
        }
        Expr::Concat(items) => {
            out.push_str("(?:");
            let mut i = 0;
            while i < items.len() {
                if let Some(class) = items.get(i + 1).and_then(|next| guarded(&items[i], next)) {
                    out.push_str(&class);
                    i += 2;
                    continue;
                }
                relax(&items[i], out)?;
                i += 1;
            }
            out.push(')');
        }
        Expr::Alt(items) => {
            out.push_str("(?:");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                relax(item, out)?;
            }
            out.push(')');
        }
        Expr::Group(inner) => relax(inner, out)?,
        Expr::AtomicGroup(inner) => relax(inner, out)?,
        Expr::LookAround(body, LookAround::LookAhead | LookAround::LookAheadNeg) => {
            out.push_str("(?:");
            relax(body, out)?;
            out.push_str(")?");
        }
        Expr::LookAround(_, LookAround::LookBehind | LookAround::LookBehindNeg) => {
            out.push_str("(?:)")
        }
        Expr::Repeat { child, lo, hi, .. } => {
            out.push_str("(?:");
            relax(child, out)?;
            out.push(')');
            match (*lo, *hi) {
                (lo, usize::MAX) => out.push_str(&format!("{{{lo},}}")),
                (lo, hi) => out.push_str(&format!("{{{lo},{hi}}}")),
            }
        }
        Expr::KeepOut => return Err("\\K"),
        Expr::ContinueFromPreviousMatchEnd => return Err("\\G"),
        Expr::Backref { .. }
        | Expr::BackrefWithRelativeRecursionLevel { .. }
        | Expr::BackrefExistsCondition { .. }
        | Expr::Conditional { .. }
        | Expr::SubroutineCall(_)
        | Expr::Absent(_)
        | Expr::AstNode(..) => return Err("a back-reference, condition or subroutine call"),
    }
    Ok(())
}

/// `(?=X)Y` or `(?!X)Y`, X and Y one character each: the class of the
/// characters Y takes that the look-ahead lets through.
fn guarded(look: &Expr, next: &Expr) -> Option<String> {
    use crate::formats::regex_check::{class_of, strip_groups};
    let Expr::LookAround(body, kind) = strip_groups(look) else {
        return None;
    };
    let (x, mut y) = (class_of(body)?, class_of(next)?);
    match kind {
        LookAround::LookAhead => y.intersect(&x),
        LookAround::LookAheadNeg => y.difference(&x),
        _ => return None,
    }
    let mut out = String::from("[");
    if y.ranges().is_empty() {
        // No character: a class that matches none.
        return Some("[a&&b]".into());
    }
    for r in y.ranges() {
        out.push_str(&format!(
            "\\x{{{:X}}}-\\x{{{:X}}}",
            r.start() as u32,
            r.end() as u32
        ));
    }
    out.push(']');
    Some(out)
}

thread_local! {
    /// How many [`watch`]es this thread is inside, and the first refusal
    /// met inside them.
    static WATCHES: Cell<usize> = const { Cell::new(0) };
    static REFUSED: RefCell<Option<Error>> = const { RefCell::new(None) };
}

/// A refusal met where no caller watched for one: kept for whoever asks
/// with [`take_unwatched`] (the explorer shows it).
static UNWATCHED: Mutex<Option<Error>> = Mutex::new(None);

/// Run `f`; if a file's regex refused to search a text inside it (see
/// [`note`]), that refusal instead of what `f` made.
pub fn watch<T>(f: impl FnOnce() -> T) -> Result<T> {
    let outer = REFUSED.with(|r| r.borrow_mut().take());
    WATCHES.with(|w| w.set(w.get() + 1));
    let value = f();
    WATCHES.with(|w| w.set(w.get() - 1));
    let mine = REFUSED.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer));
    match mine {
        Some(e) => Err(e),
        None => Ok(value),
    }
}

/// A refusal met where the code cannot return it: the [`watch`] around it
/// returns it (the text was left uncut, and that result is dropped).
pub fn note(e: Error) {
    if WATCHES.with(Cell::get) > 0 {
        REFUSED.with(|r| {
            let mut r = r.borrow_mut();
            if r.is_none() {
                *r = Some(e);
            }
        });
    } else if let Ok(mut u) = UNWATCHED.lock()
        && u.is_none()
    {
        *u = Some(e);
    }
}

/// A refusal met outside any [`watch`] since the last call, if any.
pub fn take_unwatched() -> Option<Error> {
    UNWATCHED.lock().ok().and_then(|mut u| u.take())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::regex_check::compile;

    fn work(pattern: &str, text: &str) -> (u64, Result<Vec<Range<usize>>>) {
        let re = compile(pattern, "t").unwrap();
        let mut meter = Meter::new();
        let found = re.find_all(text, &mut meter);
        (meter.used(), found)
    }

    fn naive(pattern: &str, text: &str) -> Vec<Range<usize>> {
        let re = fancy_regex::Regex::new(pattern).unwrap();
        re.find_iter(text).map(|m| m.unwrap().range()).collect()
    }

    #[test]
    fn matches_are_find_iters_empty_ones_included() {
        for (p, t) in [
            (r"\p{L}+|\s+(?!\S)|\s+", "ab  cd   "),
            (r"a*", "baaac"),
            (r"(?=a)|b", "abab"),
            (r"x?", "héé"),
            (r"(?<=a)b|\w", "abcab"),
            (r"^\s+|\w+", "  ab cd"),
            (r"\s+$|\s", "a   "),
            (r"(?i:'s|'t)|[^\r\n\p{L}\p{N}]?+\p{L}++", "IT'S it's ab'S"),
            (r"", "abc"),
        ] {
            assert_eq!(work(p, t).1.unwrap(), naive(p, t), "{p:?} on {t:?}");
        }
    }

    #[test]
    fn texts_passed_over_by_their_first_bytes_have_no_match() {
        // Whether a filter is made, and the matches equal to the engine's
        // on random texts of the characters the patterns care about.
        assert!(first_bytes(r"[0-9][0-9][0-9]").is_some());
        assert!(first_bytes(r"a*").is_none());
        assert!(first_bytes(r"\p{L}+").is_none());
        let alphabet = ['1', '2', 'a', 'b', 'k', 'K', '\u{212A}', ' ', 'é', 'x'];
        let mut roll = crate::dice::rolls(0x5eed_f00d);
        for p in [
            r"[0-9][0-9][0-9]",
            r"ab|k",
            r"(?i)k",
            r"\d+",
            r"x?b",
            r"[^\s]é",
        ] {
            for _ in 0..200 {
                let len = roll(12);
                let t: String = (0..len)
                    .map(|_| alphabet[roll(alphabet.len() as u64) as usize])
                    .collect();
                assert_eq!(work(p, &t).1.unwrap(), naive(p, &t), "{p:?} on {t:?}");
            }
        }
    }

    #[test]
    fn a_quadratic_shape_is_refused_by_name() {
        let text = "a".repeat(100_000);
        let (steps, found) = work(r"[a-z]+X|[a-z]", &text);
        let e = found.unwrap_err().to_string();
        assert!(
            e.starts_with("t: the regex '[a-z]+X|[a-z]' needs more than 8 steps a byte"),
            "{e}"
        );
        assert!(steps <= STEPS_PER_BYTE * 100_000 + SLACK + 1, "{steps}");
    }

    #[test]
    fn a_tekken_guard_reads_no_further_than_its_letters() {
        let p = r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";
        let text = "all lower case words and more of them ".repeat(3000);
        let (steps, found) = work(p, &text);
        assert_eq!(found.unwrap(), naive(p, &text));
        assert!(
            steps <= 3 * text.len() as u64,
            "{steps} steps for {}",
            text.len()
        );
    }

    #[test]
    fn a_refusal_inside_a_watch_is_its_result() {
        let r: Result<u32> = watch(|| {
            note(Error::input("x"));
            note(Error::input("y"));
            7
        });
        assert_eq!(r.unwrap_err().to_string(), "x");
        assert_eq!(watch(|| 7).unwrap(), 7);
    }
}
