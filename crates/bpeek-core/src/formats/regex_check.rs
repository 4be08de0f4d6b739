//! Regexes from files (Hugging Face `Split` and `Replace` patterns),
//! compiled for `fancy-regex` after a look at their shape: a pattern whose
//! backtracking search could take more than linear time is refused by
//! name, before any text meets it.
//!
//! A pattern without look-around or back-references runs on a linear-time
//! engine whole. Otherwise the backtracking parts are checked for what
//! makes a search super-linear: a back-reference (or a condition on a
//! group), an unbounded repetition inside another one, an unbounded
//! repetition inside a look-around (each place rescans the rest), and a
//! look-around after an unbounded repetition (a failing look-around makes
//! the repetition give back its characters one by one, at every place) —
//! except `X+(?!Y)` where no character is both X and Y, which gives back at
//! most one (GPT-2's `\s+(?!\S)`). What passes is searched with a bound on
//! its work ([`crate::pretokenize::pattern_work`]): a text on which a pattern would
//! take more than linear work, or reach the bound on backtracking steps, is
//! refused by the pattern's name, never cut in part.

use crate::error::{Error, Result, quoted};
use crate::pretokenize::pattern_work::FileRegex;
use fancy_regex::{Expr, LookAround};

/// The most backtracking steps one search may take.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// Compile `pattern` or say why not; `path` names the field.
pub fn compile(pattern: &str, path: &str) -> Result<FileRegex> {
    compile_shown(pattern, pattern, path)
}

/// Compile a Hugging Face `Split` or `Replace` pattern, read as the
/// library's engine (Oniguruma) reads it ([`oniguruma_source`]); a
/// refusal quotes it as the file writes it.
pub fn compile_oniguruma(pattern: &str, path: &str) -> Result<FileRegex> {
    compile_shown(&oniguruma_source(pattern, path)?, pattern, path)
}

/// A Hugging Face pattern written for bpeek's engine: its folding to
/// several characters under `(?i)` spelt out
/// ([`crate::formats::onig_fold`]), then its classes read as Oniguruma
/// reads them ([`crate::formats::onig_classes`]); or the refusal, naming
/// `path`, of what bpeek does not run as Oniguruma does.
pub fn oniguruma_source(pattern: &str, path: &str) -> Result<String> {
    let refuse = |why: &str| Error::input(format!("{path}: the regex {} {why}", quoted(pattern)));
    if let Some(why) = crate::formats::onig_classes::not_run(pattern) {
        return Err(refuse(why));
    }
    let folded = crate::formats::onig_fold::rewrite(pattern).map_err(|why| refuse(&why))?;
    Ok(crate::formats::onig_classes::translate(&folded))
}

/// Compile `pattern`, naming it `shown` in a refusal.
fn compile_shown(pattern: &str, shown: &str, path: &str) -> Result<FileRegex> {
    let refuse = |why: String| Error::input(format!("{path}: the regex {} {why}", quoted(shown)));
    let tree = Expr::parse_tree(pattern).map_err(|e| refuse(format!("does not compile: {e}")))?;
    if let Some(why) = super_linear(&tree.expr) {
        return Err(refuse(format!(
            "could take more than linear time ({why}); bpeek refuses it rather than risk hanging"
        )));
    }
    let engine = fancy_regex::RegexBuilder::new(pattern)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map_err(|e| refuse(format!("does not compile: {e}")))?;
    FileRegex::new(pattern, path, engine, &tree.expr)
}

/// What in `e` can make a search super-linear, if anything.
pub fn super_linear(e: &Expr) -> Option<String> {
    if !is_fancy(e) {
        return None;
    }
    walk(e, false, false)
}

/// Whether `e` needs the backtracking engine at all.
pub fn is_fancy(e: &Expr) -> bool {
    match e {
        Expr::LookAround(..)
        | Expr::Backref { .. }
        | Expr::BackrefWithRelativeRecursionLevel { .. }
        | Expr::BackrefExistsCondition { .. }
        | Expr::Conditional { .. }
        | Expr::AtomicGroup(_)
        | Expr::SubroutineCall(_)
        | Expr::Absent(_)
        | Expr::BacktrackingControlVerb(_)
        | Expr::KeepOut
        | Expr::ContinueFromPreviousMatchEnd => true,
        _ => e.children_iter().any(is_fancy),
    }
}

fn unbounded(e: &Expr) -> bool {
    matches!(e, Expr::Repeat { hi, .. } if *hi == usize::MAX)
}

/// Check `e`; `in_repeat` and `in_look` say what encloses it.
fn walk(e: &Expr, in_repeat: bool, in_look: bool) -> Option<String> {
    match e {
        Expr::Backref { .. }
        | Expr::BackrefWithRelativeRecursionLevel { .. }
        | Expr::BackrefExistsCondition { .. }
        | Expr::Conditional { .. }
        | Expr::SubroutineCall(_)
        | Expr::Absent(_) => {
            return Some("a back-reference, condition or subroutine call".into());
        }
        Expr::Repeat { child, hi, .. } if *hi == usize::MAX => {
            if in_look {
                return Some("an unbounded repetition inside a look-around".into());
            }
            if in_repeat {
                return Some("an unbounded repetition inside another one".into());
            }
            return walk(child, true, in_look);
        }
        Expr::LookAround(body, _) => return walk(body, in_repeat, true),
        Expr::Concat(items) => {
            let mut repeated_before: Option<&Expr> = None;
            for (i, item) in items.iter().enumerate() {
                if let Some(why) = walk(item, in_repeat, in_look) {
                    return Some(why);
                }
                if let Some(rep) = repeated_before
                    && contains_look(item)
                {
                    let next_to = i > 0 && std::ptr::eq(rep, &items[i - 1]);
                    let safe = next_to
                        && (gives_back_once(rep, item)
                            || i + 1 == items.len() && boundary_after_run(rep, item));
                    if !safe {
                        return Some("a look-around after an unbounded repetition".into());
                    }
                }
                if has_unbounded(item) {
                    repeated_before = Some(item);
                }
            }
            return None;
        }
        _ => {}
    }
    e.children_iter().find_map(|c| walk(c, in_repeat, in_look))
}

fn has_unbounded(e: &Expr) -> bool {
    unbounded(e) || e.children_iter().any(has_unbounded)
}

/// Whether `e` holds a look-around other than a one-character guard:
/// `(?=X)Y` with X and Y one character each asks only about the character
/// Y takes, as a class would.
fn contains_look(e: &Expr) -> bool {
    match e {
        Expr::LookAround(..) => true,
        Expr::Concat(items) => items.iter().enumerate().any(|(i, item)| {
            let guard = matches!(strip_groups(item), Expr::LookAround(body, LookAround::LookAhead | LookAround::LookAheadNeg) if class_of(body).is_some())
                && items.get(i + 1).is_some_and(|next| class_of(next).is_some());
            !guard && contains_look(item)
        }),
        _ => e.children_iter().any(contains_look),
    }
}

/// `X+` then `(?!Y)`, X and Y single-character classes with nothing in
/// common: when the look-ahead fails, giving back one character of the run
/// makes it hold.
fn gives_back_once(rep: &Expr, look: &Expr) -> bool {
    let Expr::Repeat { child, .. } = strip_groups(rep) else {
        return false;
    };
    let Expr::LookAround(body, LookAround::LookAheadNeg) = strip_groups(look) else {
        return false;
    };
    match (class_of(child), class_of(body)) {
        (Some(mut x), Some(y)) => {
            x.intersect(&y);
            x.ranges().is_empty()
        }
        _ => false,
    }
}

/// `X+` then a word boundary that ends the sequence, where the repetition
/// gives back at most one character: `\b` after a run of exactly the word
/// characters (it holds at the run's end, before a character that is not
/// one or the end of the text; after a run of the others it fails at the
/// end of the text, and the run would give back every character), `\B`
/// after a run of word characters only or of others only (it holds once
/// the run gives back one character, or at its end).
fn boundary_after_run(rep: &Expr, look: &Expr) -> bool {
    let Expr::Repeat { child, .. } = strip_groups(rep) else {
        return false;
    };
    let (Some((word, at)), Some(run)) = (word_boundary(look), class_of(child)) else {
        return false;
    };
    let mut inside = run.clone();
    inside.intersect(&word);
    match at {
        true => run == word,
        false => inside == run || inside.ranges().is_empty(),
    }
}

/// The word characters of a word boundary as `onig_classes` writes it
/// (`(?:(?<=W)(?!W)|(?<!W)(?=W))`), and whether it is `\b` (true) or
/// `\B`.
fn word_boundary(e: &Expr) -> Option<(regex_syntax::hir::ClassUnicode, bool)> {
    let Expr::Alt(sides) = strip_groups(e) else {
        return None;
    };
    let [first, second] = sides.as_slice() else {
        return None;
    };
    let looks = |side: &Expr| match strip_groups(side) {
        Expr::Concat(pair) => match pair.as_slice() {
            [Expr::LookAround(behind, b), Expr::LookAround(ahead, a)] => {
                Some((class_of(behind)?, *b, class_of(ahead)?, *a))
            }
            _ => None,
        },
        _ => None,
    };
    let (w1, b1, w2, a1) = looks(first)?;
    let (w3, b2, w4, a2) = looks(second)?;
    let same = w1 == w2 && w2 == w3 && w3 == w4;
    let behind = b1 == LookAround::LookBehind && b2 == LookAround::LookBehindNeg;
    match (a1, a2) {
        (LookAround::LookAheadNeg, LookAround::LookAhead) if same && behind => Some((w1, true)),
        (LookAround::LookAhead, LookAround::LookAheadNeg) if same && behind => Some((w1, false)),
        _ => None,
    }
}

pub fn strip_groups(e: &Expr) -> &Expr {
    match e {
        Expr::Group(inner) => strip_groups(inner),
        Expr::AtomicGroup(inner) => strip_groups(inner),
        other => other,
    }
}

/// The characters a one-character expression matches.
pub fn class_of(e: &Expr) -> Option<regex_syntax::hir::ClassUnicode> {
    match strip_groups(e) {
        Expr::Delegate { inner, casei } => class_of_source(inner, *casei),
        Expr::Literal { val, casei } => {
            let mut chars = val.chars();
            let (Some(_), None) = (chars.next(), chars.next()) else {
                return None;
            };
            class_of_source(&regex_syntax::escape(val), *casei)
        }
        _ => None,
    }
}

/// The characters a piece of pattern matching one character matches, each
/// case of it under `(?i)` (folded one to one, as the engine folds: a
/// folding to several has been written out before).
fn class_of_source(source: &str, casei: bool) -> Option<regex_syntax::hir::ClassUnicode> {
    use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};
    let hir = if casei {
        regex_syntax::parse(&format!("(?i:{source})"))
    } else {
        regex_syntax::parse(source)
    }
    .ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Some(c.clone()),
        HirKind::Literal(lit) => {
            let s = std::str::from_utf8(&lit.0).ok()?;
            let mut chars = s.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return None;
            };
            Some(ClassUnicode::new([ClassUnicodeRange::new(c, c)]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(p: &str) -> bool {
        super_linear(&Expr::parse_tree(p).unwrap().expr).is_some()
    }

    #[test]
    fn the_patterns_models_ship_are_accepted() {
        for p in [
            r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
            r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            r"\d+",
            r"(a+)+",
            // Case makes no difference to spaces: still a run that gives
            // back one character.
            r"(?i)\s+(?!\S)|\w+",
            r"(?i)[a-z]+(?![0-9])",
        ] {
            assert!(!refused(p), "{p}");
        }
        // Word boundaries where they cost one look at each side.
        for p in [r"\b\w+\b", r"\W+\B", r"\b[a-z]+\B", r"x|\b\w+\b|\s+(?!\S)"] {
            let p = crate::formats::onig_classes::translate(p);
            assert!(!refused(&p), "{p}");
        }
    }

    #[test]
    fn what_backtracks_without_end_is_refused() {
        for p in [
            r"(a+)+(?=b)",
            r"(?:x\s*)*(?!y)z",
            r"a+(?=b)|a",
            r"(?=a+b)",
            r"(a)\1",
            r"\s+(?!\s)x",
            r"a+b?(?=c)",
            r"\w+(?!\d)",
            // Under (?i) `a` and `A` are one class: the run gives back all.
            r"(?i)a+(?!A)",
            r"(?i)[a-z]+(?![K])",
            // Digits in threes from the right: each match looks to the end
            // of its run of digits, so a run of n costs n * n / 3.
            r"\p{N}{1,3}(?=(?:\p{N}{3})*(?:\P{N}|$))",
        ] {
            assert!(refused(p), "{p}");
        }
        // A boundary that may fail at the end of every shorter run, or
        // that more of the pattern follows.
        for p in [r"[a-z]+\b", r"\W+\b", r"\s+\b", r"\w+\bx", r"\w+\b\w"] {
            assert!(refused(&crate::formats::onig_classes::translate(p)), "{p}");
        }
    }
}
