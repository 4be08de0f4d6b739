//! Case folding to several characters under `(?i)`, as Oniguruma (the
//! regex engine of Hugging Face `tokenizers`) does it, written out for
//! `fancy-regex`, which folds one character to one only.
//!
//! Oniguruma folds a character to several as Unicode's full case folding
//! does (`ß` to `ss`, `ﬃ` to `ffi`, `İ` to `i` U+0307), in two places:
//!
//! - A string of the pattern (a run of literal characters in one
//!   sequence) is read from the left: where the next three characters,
//!   each folded to one, are the folding of a character, those three
//!   also match that character; else the same for the next two; else the
//!   next character alone, which also matches its folding if it has one.
//!   So `(?i)sss` matches `ßs` but not `sß`, and `(?i)ffi` matches `ﬃ`
//!   but not `ﬀi`. Inside a look-behind a string folds one to one only.
//! - A bracketed class that is not negated also matches the folding of
//!   each character in it that has one (`(?i)[ß]` matches `ss`), after
//!   the class itself: `(?i)[sß]` takes one `s` of `ss` first.
//!
//! A repeated character is not part of the string before it (`(?i)ss+`
//! does not match `ß`), a group without a name holding only letters is
//! (`(?i)(?:s)s` matches `ß`), and a class outside brackets (`\w`,
//! `\p{Ll}`, `.`) never folds to several; a property outside brackets
//! (`\p{Lu}`) does not fold at all. Where Oniguruma's way of
//! building strings across a group's edge would decide whether two
//! letters fold together, the pattern is refused by name instead.
//!
//! Each rule was found by running the library and is held there by
//! `tests/hf_case_folds.rs`.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Oniguruma's table of foldings to several characters (its Unicode
/// 15.1 data, in its order): the folding, and the characters folding to
/// it. A class tries the foldings of its characters in this order.
const MULTI: [(&str, &str); 73] = [
    ("a\u{2be}", "\u{1e9a}"),
    ("ff", "\u{fb00}"),
    ("fi", "\u{fb01}"),
    ("fl", "\u{fb02}"),
    ("h\u{331}", "\u{1e96}"),
    ("j\u{30c}", "\u{1f0}"),
    ("ss", "\u{df}\u{1e9e}"),
    ("st", "\u{fb05}\u{fb06}"),
    ("t\u{308}", "\u{1e97}"),
    ("w\u{30a}", "\u{1e98}"),
    ("y\u{30a}", "\u{1e99}"),
    ("\u{2bc}n", "\u{149}"),
    ("\u{3ac}\u{3b9}", "\u{1fb4}"),
    ("\u{3ae}\u{3b9}", "\u{1fc4}"),
    ("\u{3b1}\u{342}", "\u{1fb6}"),
    ("\u{3b1}\u{3b9}", "\u{1fb3}\u{1fbc}"),
    ("\u{3b7}\u{342}", "\u{1fc6}"),
    ("\u{3b7}\u{3b9}", "\u{1fc3}\u{1fcc}"),
    ("\u{3b9}\u{342}", "\u{1fd6}"),
    ("\u{3c1}\u{313}", "\u{1fe4}"),
    ("\u{3c5}\u{313}", "\u{1f50}"),
    ("\u{3c5}\u{342}", "\u{1fe6}"),
    ("\u{3c9}\u{342}", "\u{1ff6}"),
    ("\u{3c9}\u{3b9}", "\u{1ff3}\u{1ffc}"),
    ("\u{3ce}\u{3b9}", "\u{1ff4}"),
    ("\u{565}\u{582}", "\u{587}"),
    ("\u{574}\u{565}", "\u{fb14}"),
    ("\u{574}\u{56b}", "\u{fb15}"),
    ("\u{574}\u{56d}", "\u{fb17}"),
    ("\u{574}\u{576}", "\u{fb13}"),
    ("\u{57e}\u{576}", "\u{fb16}"),
    ("\u{1f00}\u{3b9}", "\u{1f80}\u{1f88}"),
    ("\u{1f01}\u{3b9}", "\u{1f81}\u{1f89}"),
    ("\u{1f02}\u{3b9}", "\u{1f82}\u{1f8a}"),
    ("\u{1f03}\u{3b9}", "\u{1f83}\u{1f8b}"),
    ("\u{1f04}\u{3b9}", "\u{1f84}\u{1f8c}"),
    ("\u{1f05}\u{3b9}", "\u{1f85}\u{1f8d}"),
    ("\u{1f06}\u{3b9}", "\u{1f86}\u{1f8e}"),
    ("\u{1f07}\u{3b9}", "\u{1f87}\u{1f8f}"),
    ("\u{1f20}\u{3b9}", "\u{1f90}\u{1f98}"),
    ("\u{1f21}\u{3b9}", "\u{1f91}\u{1f99}"),
    ("\u{1f22}\u{3b9}", "\u{1f92}\u{1f9a}"),
    ("\u{1f23}\u{3b9}", "\u{1f93}\u{1f9b}"),
    ("\u{1f24}\u{3b9}", "\u{1f94}\u{1f9c}"),
    ("\u{1f25}\u{3b9}", "\u{1f95}\u{1f9d}"),
    ("\u{1f26}\u{3b9}", "\u{1f96}\u{1f9e}"),
    ("\u{1f27}\u{3b9}", "\u{1f97}\u{1f9f}"),
    ("\u{1f60}\u{3b9}", "\u{1fa0}\u{1fa8}"),
    ("\u{1f61}\u{3b9}", "\u{1fa1}\u{1fa9}"),
    ("\u{1f62}\u{3b9}", "\u{1fa2}\u{1faa}"),
    ("\u{1f63}\u{3b9}", "\u{1fa3}\u{1fab}"),
    ("\u{1f64}\u{3b9}", "\u{1fa4}\u{1fac}"),
    ("\u{1f65}\u{3b9}", "\u{1fa5}\u{1fad}"),
    ("\u{1f66}\u{3b9}", "\u{1fa6}\u{1fae}"),
    ("\u{1f67}\u{3b9}", "\u{1fa7}\u{1faf}"),
    ("\u{1f70}\u{3b9}", "\u{1fb2}"),
    ("\u{1f74}\u{3b9}", "\u{1fc2}"),
    ("\u{1f7c}\u{3b9}", "\u{1ff2}"),
    ("i\u{307}", "\u{130}"),
    ("ffi", "\u{fb03}"),
    ("ffl", "\u{fb04}"),
    ("\u{3b1}\u{342}\u{3b9}", "\u{1fb7}"),
    ("\u{3b7}\u{342}\u{3b9}", "\u{1fc7}"),
    ("\u{3b9}\u{308}\u{300}", "\u{1fd2}"),
    ("\u{3b9}\u{308}\u{301}", "\u{390}\u{1fd3}"),
    ("\u{3b9}\u{308}\u{342}", "\u{1fd7}"),
    ("\u{3c5}\u{308}\u{300}", "\u{1fe2}"),
    ("\u{3c5}\u{308}\u{301}", "\u{3b0}\u{1fe3}"),
    ("\u{3c5}\u{308}\u{342}", "\u{1fe7}"),
    ("\u{3c5}\u{313}\u{300}", "\u{1f52}"),
    ("\u{3c5}\u{313}\u{301}", "\u{1f54}"),
    ("\u{3c5}\u{313}\u{342}", "\u{1f56}"),
    ("\u{3c9}\u{342}\u{3b9}", "\u{1ff7}"),
];

/// Every character Oniguruma folds to several, in no order.
pub fn multi_fold_chars() -> impl Iterator<Item = char> {
    MULTI.iter().flat_map(|(_, from)| from.chars())
}

/// The characters that fold to several, with their entry in [`MULTI`].
fn entry_of() -> &'static HashMap<char, usize> {
    static TABLE: OnceLock<HashMap<char, usize>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        for (i, (_, from)) in MULTI.iter().enumerate() {
            for c in from.chars() {
                t.insert(c, i);
            }
        }
        t
    })
}

/// Each character that folds to one character of a folding in [`MULTI`]
/// (`S` and `ſ` to `s`), with that character: Oniguruma looks for a
/// folding among the pattern's characters each folded to one.
fn fold_one() -> &'static HashMap<char, char> {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    static TABLE: OnceLock<HashMap<char, char>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        for target in MULTI.iter().flat_map(|(to, _)| to.chars()) {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(target, target)]);
            class.case_fold_simple();
            for c in class.iter().flat_map(|r| r.start()..=r.end()) {
                if !entry_of().contains_key(&c) {
                    t.insert(c, target);
                }
            }
        }
        t
    })
}

/// `c` folded to one character, where that matters here.
fn fold1(c: char) -> char {
    fold_one().get(&c).copied().unwrap_or(c)
}

/// The entry of [`MULTI`] whose folding is `chars`, each folded to one.
fn entry_folding_to(chars: &[char]) -> Option<usize> {
    MULTI.iter().position(|(to, _)| {
        to.chars().count() == chars.len() && to.chars().zip(chars).all(|(t, &c)| fold1(c) == t)
    })
}

/// Whether `a` then `b` could be part of a folding to several: what
/// makes a group's edge between them matter.
fn may_fold_together(a: char, b: char) -> bool {
    let (a, b) = (fold1(a), fold1(b));
    MULTI.iter().any(|(to, _)| {
        let to: Vec<char> = to.chars().collect();
        to.windows(2).any(|w| w[0] == a && w[1] == b)
    })
}

/// Whether a literal character takes part in folding to several at all.
fn relevant(c: char) -> bool {
    entry_of().contains_key(&c) || fold_one().contains_key(&c)
}

/// One literal character of a string: the character and the pattern
/// text that wrote it (`s`, `\x73`, `\.`).
struct Lit {
    c: char,
    text: String,
}

/// What came last, for the check at groups' edges.
#[derive(Clone, Copy, PartialEq)]
enum Last {
    Lit(char),
    /// A literal, then one or more groups' edges.
    Edge(char),
    Other,
}

/// The flags in force: `i`, `x`, and whether inside a look-behind.
#[derive(Clone, Copy)]
struct Flags {
    casei: bool,
    extended: bool,
    behind: bool,
}

struct Folder {
    chars: Vec<char>,
    i: usize,
    out: String,
    /// The string being read, and the flags it stands under.
    run: Vec<Lit>,
    run_flags: Flags,
    last: Last,
}

/// `pattern` (Oniguruma, Ruby syntax) with each string and class under
/// `(?i)` written so that one-to-one folding matches what Oniguruma's
/// folding to several matches; the pattern as it is where it has no
/// `(?i)`. `Err` says, in words, why it is refused.
pub fn rewrite(pattern: &str) -> Result<String, String> {
    if !has_ignore_case(pattern) {
        return Ok(pattern.to_string());
    }
    let flags = Flags {
        casei: false,
        extended: false,
        behind: false,
    };
    let mut f = Folder {
        chars: pattern.chars().collect(),
        i: 0,
        out: String::with_capacity(pattern.len() * 2),
        run: Vec::new(),
        run_flags: flags,
        last: Last::Other,
    };
    f.body(flags)?;
    while f.i < f.chars.len() {
        // An unmatched `)`: kept as written, for the engine to refuse.
        f.out.push(f.chars[f.i]);
        f.i += 1;
        f.body(flags)?;
    }
    Ok(f.out)
}

/// Whether `pattern` turns `i` on anywhere (a cheap test first).
fn has_ignore_case(pattern: &str) -> bool {
    pattern.split("(?").skip(1).any(|rest| {
        rest.chars()
            .take_while(|c| matches!(c, 'i' | 'm' | 'x'))
            .any(|c| c == 'i')
    })
}

impl Folder {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    /// A group's body (or the whole pattern) up to its `)` (not taken).
    fn body(&mut self, mut flags: Flags) -> Result<(), String> {
        while let Some(c) = self.peek(0) {
            match c {
                ')' => break,
                '|' => self.other(1),
                '(' => self.group(&mut flags)?,
                '[' => self.class(flags)?,
                '\\' => self.escape(flags)?,
                '*' | '+' | '?' => self.quantifier(1),
                '{' => match quantifier_len(&self.chars[self.i..]) {
                    Some(len) => self.quantifier(len),
                    None => self.literal(c, 1, flags)?,
                },
                '.' | '^' | '$' => self.other(1),
                ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '#' if flags.extended => {
                    self.extended_space(c)
                }
                _ => self.literal(c, 1, flags)?,
            }
        }
        self.flush();
        Ok(())
    }

    /// `len` characters of text that is neither a literal nor a group,
    /// copied: the string so far ends.
    fn other(&mut self, len: usize) {
        self.flush();
        self.copy(len);
        self.last = Last::Other;
    }

    fn copy(&mut self, len: usize) {
        let end = (self.i + len).min(self.chars.len());
        self.out.extend(&self.chars[self.i..end]);
        self.i = end;
    }

    /// Whitespace or a comment under `x`, copied.
    fn extended_space(&mut self, c: char) {
        let len = match c {
            '#' => self.chars[self.i..]
                .iter()
                .position(|&d| d == '\n')
                .map_or(self.chars.len() - self.i, |p| p + 1),
            _ => 1,
        };
        self.other(len);
    }

    /// The literal `c`, written by the `len` characters at the cursor.
    fn literal(&mut self, c: char, len: usize, flags: Flags) -> Result<(), String> {
        if flags.casei && !flags.behind && relevant(c) {
            if flags.extended {
                return Err(format!(
                    "has {} under (?i) and (?x), where Oniguruma joins letters across spaces \
                     before it folds them to one; bpeek refuses it rather than cut differently",
                    shown(c)
                ));
            }
            if let Last::Edge(a) = self.last
                && may_fold_together(a, c)
            {
                return Err(format!(
                    "has {} and {} on the two sides of a group's edge under (?i), where \
                     Oniguruma may or may not fold them together into one character (as `ss` \
                     into `ß`) depending on how it builds the pattern; bpeek refuses it rather \
                     than cut differently",
                    shown(a),
                    shown(c)
                ));
            }
        }
        let text: String = self.chars[self.i..self.i + len].iter().collect();
        self.i += len;
        if self.run.is_empty() {
            self.run_flags = flags;
        }
        self.run.push(Lit { c, text });
        self.last = Last::Lit(c);
        Ok(())
    }

    /// A quantifier of `len` characters (with its `?` or `+` after) at
    /// the cursor: it takes the last literal alone, out of its string.
    fn quantifier(&mut self, len: usize) {
        let mut len = len;
        if matches!(self.peek(len), Some('?' | '+')) {
            len += 1;
        }
        let text: String = self.chars[self.i..self.i + len].iter().collect();
        self.i += len;
        self.last = Last::Other;
        if text == "{1}" || text == "{1,1}" {
            // Oniguruma drops a repetition of exactly once.
            return;
        }
        if let Some(alone) = self.run.pop() {
            self.flush();
            self.run.push(alone);
            self.flush();
        }
        self.out.push_str(&text);
    }

    /// Write the string read so far, folded as Oniguruma folds it.
    fn flush(&mut self) {
        let run = std::mem::take(&mut self.run);
        let flags = self.run_flags;
        if !flags.casei || flags.behind {
            for lit in &run {
                self.out.push_str(&lit.text);
            }
            return;
        }
        let mut p = 0;
        while p < run.len() {
            let chars: Vec<char> = run.iter().map(|l| l.c).collect();
            let window = [3, 2]
                .into_iter()
                .filter(|&n| p + n <= run.len())
                .find_map(|n| entry_folding_to(&chars[p..p + n]).map(|e| (n, e)));
            match window {
                Some((n, e)) => {
                    // The letters, or a character folding to them.
                    self.out.push_str("(?:");
                    for lit in &run[p..p + n] {
                        self.out.push_str(&lit.text);
                    }
                    for u in MULTI[e].1.chars() {
                        self.out.push('|');
                        self.out.push(u);
                    }
                    self.out.push(')');
                    p += n;
                }
                None => {
                    let lit = &run[p];
                    match entry_of().get(&lit.c) {
                        // The character, another folding as it does, or
                        // its folding.
                        Some(&e) => {
                            self.out.push_str("(?:");
                            self.out.push_str(&lit.text);
                            for u in MULTI[e].1.chars().filter(|&u| u != lit.c) {
                                self.out.push('|');
                                self.out.push(u);
                            }
                            self.out.push('|');
                            self.out.push_str(MULTI[e].0);
                            self.out.push(')');
                        }
                        None => self.out.push_str(&lit.text),
                    }
                    p += 1;
                }
            }
        }
    }
}

impl Folder {
    /// A group at the cursor (`(`): its body read with its flags; an
    /// option alone (`(?i)`) changes `flags` for the rest of the body.
    fn group(&mut self, flags: &mut Flags) -> Result<(), String> {
        let rest: String = self.chars[self.i..].iter().take(4).collect();
        if rest.starts_with("(?:") && self.only_letters_inside(*flags) {
            return self.flatten(*flags);
        }
        if rest.starts_with("(?#") {
            let len = self.len_to(')').unwrap_or(self.chars.len() - self.i);
            self.flush();
            self.copy(len);
            self.last = edge(self.last);
            return Ok(());
        }
        let (len, inner, scoped) = self.group_head(*flags);
        self.flush();
        self.copy(len);
        if !scoped {
            // `(?i)`: the rest of this body has the new flags.
            *flags = inner;
            self.last = Last::Other;
            return Ok(());
        }
        let non_capturing = rest.starts_with("(?:");
        self.last = if non_capturing {
            edge(self.last)
        } else {
            Last::Other
        };
        self.body(inner)?;
        if self.peek(0) == Some(')') {
            self.copy(1);
        }
        self.last = if non_capturing {
            edge(self.last)
        } else {
            Last::Other
        };
        Ok(())
    }

    /// The length of the group's head at the cursor (`(`, `(?=`,
    /// `(?<name>`, `(?i:`, `(?i)`), the flags inside it, and whether it
    /// has a body (`false` for an option alone).
    fn group_head(&self, flags: Flags) -> (usize, Flags, bool) {
        if self.peek(1) != Some('?') {
            return (1, flags, true);
        }
        let rest: String = self.chars[self.i + 2..].iter().take(2).collect();
        if rest.starts_with("<=") || rest.starts_with("<!") {
            let inner = Flags {
                behind: true,
                ..flags
            };
            return (4, inner, true);
        }
        let named = |close: char| {
            let len = self.chars[self.i + 3..].iter().position(|&c| c == close);
            (len.map_or(3, |l| l + 4), flags, true)
        };
        match self.peek(2) {
            Some('<') => return named('>'),
            Some('\'') => return named('\''),
            Some('P') if self.peek(3) == Some('<') => {
                let (len, f, b) = named('>');
                return (len + 1, f, b);
            }
            _ => {}
        }
        let mut k = self.i + 2;
        let mut inner = flags;
        let mut on = true;
        while let Some(&c) = self.chars.get(k) {
            match c {
                'i' => inner.casei = on,
                'x' => inner.extended = on,
                'm' => {}
                '-' => on = false,
                _ => break,
            }
            k += 1;
        }
        match self.chars.get(k) {
            Some(':') => (k + 1 - self.i, inner, true),
            Some(')') => (k + 1 - self.i, inner, false),
            // `(?=`, `(?!`, `(?>`, `(?~`: one character of kind.
            _ => (3, flags, true),
        }
    }

    /// Characters from the cursor to the first `close`, both counted.
    fn len_to(&self, close: char) -> Option<usize> {
        self.chars[self.i..]
            .iter()
            .position(|&c| c == close)
            .map(|p| p + 1)
    }

    /// Whether the `(?:` at the cursor holds letters only and is not
    /// repeated: Oniguruma reads it as part of the string around it.
    fn only_letters_inside(&self, flags: Flags) -> bool {
        let Some(len) = self.len_to(')') else {
            return false;
        };
        let inside = &self.chars[self.i + 3..self.i + len - 1];
        let plain = |c: &char| {
            !"\\[](){}|.*+?^$".contains(*c) && !(flags.extended && (c.is_whitespace() || *c == '#'))
        };
        let after = &self.chars[self.i + len..];
        let repeated = match after.first() {
            Some('*' | '+' | '?') => true,
            Some('{') => quantifier_len(after).is_some_and(|q| {
                let q: String = after[..q].iter().collect();
                q != "{1}" && q != "{1,1}"
            }),
            _ => false,
        };
        // Letters only, or one escaped letter: one string node there.
        let one_string = match inside.first() {
            Some('\\') => matches!(read_escape(inside), (len, Some(_)) if len == inside.len()),
            Some(_) => inside.iter().all(plain),
            None => false,
        };
        one_string && !repeated
    }

    /// The letters of a `(?:` holding letters only, as part of the
    /// string.
    fn flatten(&mut self, flags: Flags) -> Result<(), String> {
        self.i += 3;
        while let Some(c) = self.peek(0) {
            if c == ')' {
                self.i += 1;
                break;
            }
            match c {
                '\\' => self.escape(flags)?,
                _ => self.literal(c, 1, flags)?,
            }
        }
        Ok(())
    }

    /// A bracketed class at the cursor: under `(?i)`, and not negated,
    /// it also matches the folding of each character in it that has one.
    fn class(&mut self, flags: Flags) -> Result<(), String> {
        let len = class_len(&self.chars[self.i..]);
        let text: String = self.chars[self.i..self.i + len].iter().collect();
        let negated = self.peek(1) == Some('^');
        let foldings = match flags.casei && !negated {
            true => class_foldings(&text),
            false => Vec::new(),
        };
        if foldings.is_empty() {
            self.other(len);
            return Ok(());
        }
        if flags.behind {
            return Err(format!(
                "has the class {text} under (?i) in a look-behind, where Oniguruma also \
                 matches the folding of {} to several characters: a look-behind of more than \
                 one length, which bpeek's regex engine does not run",
                shown(
                    multi_fold_chars()
                        .find(|&c| class_holds(&text, c))
                        .unwrap_or('?')
                )
            ));
        }
        self.flush();
        self.out.push_str("(?:");
        self.out.push_str(&text);
        for to in foldings {
            self.out.push('|');
            self.out.push_str(to);
        }
        self.out.push(')');
        self.i += len;
        self.last = Last::Other;
        Ok(())
    }

    /// An escape at the cursor: a literal character (`\\x73`, `\\.`) is
    /// part of the string; a class, an anchor or a reference is not.
    fn escape(&mut self, flags: Flags) -> Result<(), String> {
        match read_escape(&self.chars[self.i..]) {
            (len, Some(c)) => self.literal(c, len, flags),
            // A property outside brackets does not fold at all there
            // (`(?i)\p{Lu}` does not match `s`), not even one to one.
            (len, None) if flags.casei && matches!(self.peek(1), Some('p' | 'P')) && len > 2 => {
                self.flush();
                self.out.push_str("(?-i:");
                self.copy(len);
                self.out.push(')');
                self.last = Last::Other;
                Ok(())
            }
            (len, None) => {
                self.other(len);
                Ok(())
            }
        }
    }
}

/// The escape at the start of `chars` (a backslash): its length, and
/// the character it writes if it writes one (`\\x73`, `\\u0073`, `\\t`,
/// `\\.`), not if it is a class, an anchor or a reference.
fn read_escape(chars: &[char]) -> (usize, Option<char>) {
    let Some(&n) = chars.get(1) else {
        return (1, None);
    };
    let hex = |from: usize, most: usize| -> (usize, Option<char>) {
        let digits: String = chars[from.min(chars.len())..]
            .iter()
            .take(most)
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        let c = u32::from_str_radix(&digits, 16)
            .ok()
            .and_then(char::from_u32);
        (digits.len(), c)
    };
    let to = |close: char| chars.iter().position(|&c| c == close).map(|p| p + 1);
    match n {
        'x' if chars.get(2) == Some(&'{') => match to('}') {
            Some(len) => {
                let (d, c) = hex(3, 8);
                (len, c.filter(|_| d + 4 == len))
            }
            None => (2, None),
        },
        'x' => {
            let (d, c) = hex(2, 2);
            (2 + d, c)
        }
        'u' => match hex(2, 4) {
            (4, c) => (6, c),
            _ => (2, None),
        },
        't' => (2, Some('\t')),
        'n' => (2, Some('\n')),
        'r' => (2, Some('\r')),
        'f' => (2, Some('\x0c')),
        'v' => (2, Some('\x0b')),
        'a' => (2, Some('\x07')),
        'e' => (2, Some('\x1b')),
        'p' | 'P' | 'o' if chars.get(2) == Some(&'{') => (to('}').unwrap_or(2), None),
        'k' | 'g' if matches!(chars.get(2), Some('<' | '\'')) => {
            let close = if chars[2] == '<' { '>' } else { '\'' };
            let len = chars[3..].iter().position(|&c| c == close);
            (len.map_or(2, |l| l + 4), None)
        }
        '0'..='9' => (
            1 + chars[1..].iter().take_while(|c| c.is_ascii_digit()).count(),
            None,
        ),
        c if c.is_ascii_alphanumeric() => (2, None),
        c => (2, Some(c)),
    }
}

/// What the last thing becomes once a group's edge is passed.
fn edge(last: Last) -> Last {
    match last {
        Last::Lit(c) | Last::Edge(c) => Last::Edge(c),
        Last::Other => Last::Other,
    }
}

/// The length of the bracketed class at the start of `chars`, nested
/// classes and POSIX brackets included (all of it if it is not closed).
fn class_len(chars: &[char]) -> usize {
    let mut j = 1;
    if chars.get(j) == Some(&'^') {
        j += 1;
    }
    // A `]` first in a class is a character.
    if chars.get(j) == Some(&']') {
        j += 1;
    }
    let mut depth = 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '[' if chars.get(j + 1) == Some(&':') => {
                let close = chars[j..].windows(2).position(|w| w == [':', ']']);
                if let Some(p) = close {
                    j += p + 1;
                }
            }
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    chars.len()
}

/// The characters of the class `text` (Oniguruma syntax) under `(?i)`,
/// or `None` where it does not read as one.
fn class_set(text: &str) -> Option<regex_syntax::hir::ClassUnicode> {
    use regex_syntax::hir::{Class, HirKind};
    let pattern = format!("(?i){}", crate::formats::onig_classes::translate(text));
    let hir = regex_syntax::parse(&pattern).ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Some(c.clone()),
        HirKind::Literal(lit) => {
            let s = std::str::from_utf8(&lit.0).ok()?;
            let c = s.chars().next()?;
            Some(regex_syntax::hir::ClassUnicode::new([
                regex_syntax::hir::ClassUnicodeRange::new(c, c),
            ]))
        }
        _ => None,
    }
}

fn class_holds(text: &str, c: char) -> bool {
    class_set(text).is_some_and(|set| set.ranges().iter().any(|r| r.start() <= c && c <= r.end()))
}

/// The foldings to several that the class `text` also matches under
/// `(?i)`, in the order Oniguruma tries them.
fn class_foldings(text: &str) -> Vec<&'static str> {
    let Some(set) = class_set(text) else {
        return Vec::new();
    };
    let holds = |c: char| set.ranges().iter().any(|r| r.start() <= c && c <= r.end());
    MULTI
        .iter()
        .filter(|(_, from)| from.chars().any(holds))
        .map(|(to, _)| *to)
        .collect()
}

/// `c` for a message: the character and its code point.
fn shown(c: char) -> String {
    format!("'{c}' (U+{:04X})", c as u32)
}

/// The length of a `{n}`, `{n,}`, `{,m}` or `{n,m}` repetition at the
/// start of `chars`, if it is one (else the `{` is a literal).
fn quantifier_len(chars: &[char]) -> Option<usize> {
    let close = chars.iter().position(|&c| c == '}')?;
    let inner: String = chars[1..close].iter().collect();
    let (lo, hi) = match inner.split_once(',') {
        Some((lo, hi)) => (lo, Some(hi)),
        None => (inner.as_str(), None),
    };
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let ok =
        digits(lo) && hi.is_none_or(digits) && !(lo.is_empty() && hi.is_none_or(str::is_empty));
    ok.then_some(close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_from_the_left_two_or_three_letters_at_a_time() {
        assert_eq!(rewrite("(?i)sss").unwrap(), "(?i)(?:ss|\u{df}|\u{1e9e})s");
        assert_eq!(rewrite("(?i)Ffi").unwrap(), "(?i)(?:Ffi|\u{fb03})");
        assert_eq!(rewrite("(?i)\u{df}").unwrap(), "(?i)(?:\u{df}|\u{1e9e}|ss)");
        // Escaped letters and a group of letters are part of the string.
        assert_eq!(
            rewrite(r"(?i)\x73(?:s)").unwrap(),
            "(?i)(?:\\x73s|\u{df}|\u{1e9e})"
        );
        assert_eq!(rewrite("(?i)s{1}s").unwrap(), "(?i)(?:ss|\u{df}|\u{1e9e})");
    }

    #[test]
    fn repetitions_looks_behind_and_other_flags_fold_one_to_one() {
        for p in [
            "(?i)ss+",
            "(?i)s(?-i)s",
            "(?i)(?<=ss)x",
            "(?i:s)s",
            "ss",
            "(?i)s(s)",
        ] {
            assert_eq!(rewrite(p).unwrap(), p, "{p}");
        }
        assert_eq!(
            rewrite("(?i)s\u{df}+").unwrap(),
            "(?i)s(?:\u{df}|\u{1e9e}|ss)+"
        );
    }

    #[test]
    fn classes_not_negated_match_their_characters_foldings_after_them() {
        assert_eq!(rewrite("(?i)[s\u{df}]").unwrap(), "(?i)(?:[s\u{df}]|ss)");
        assert_eq!(
            rewrite("(?i)[\u{fb03}\u{fb00}]").unwrap(),
            "(?i)(?:[\u{fb03}\u{fb00}]|ff|ffi)"
        );
        for p in ["(?i)[^\u{df}]", "[\u{df}]", r"(?i)\w", "(?i)[a-z]"] {
            assert_eq!(rewrite(p).unwrap(), p, "{p}");
        }
    }

    #[test]
    fn what_oniguruma_may_join_across_a_group_is_refused() {
        for p in [
            "(?i)s(?:s|x)",
            "(?i)(?:s\\x73)s",
            "(?i)(?<=[\u{df}])",
            "(?ix)s s",
        ] {
            assert!(rewrite(p).is_err(), "{p}");
        }
        assert!(rewrite("(?i)a(?:s|x)").is_ok());
    }

    #[test]
    fn the_table_is_unicode_s_foldings_to_several() {
        assert_eq!(multi_fold_chars().count(), 104);
        for (to, from) in MULTI {
            for c in from.chars() {
                assert!(to.chars().count() > 1, "{c}");
            }
        }
    }
}

#[cfg(test)]
mod shape {
    use crate::formats::regex_check::compile_oniguruma;

    /// A property kept from folding keeps the shapes the linear-time
    /// check accepts.
    #[test]
    fn properties_kept_from_folding_pass_the_shape_check() {
        for p in [
            r"(?i)\p{L}+(?!\p{N})",
            r"(?i)\p{Lu}+(?!\p{Ll})",
            r"(?i)(?=\p{L})[^a-z]",
        ] {
            if let Err(e) = compile_oniguruma(p, "t") {
                panic!("{e}");
            }
        }
    }
}
