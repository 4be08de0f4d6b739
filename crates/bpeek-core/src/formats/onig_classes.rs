//! Hugging Face `Split` and `Replace` regexes run on Oniguruma (Ruby
//! syntax, UTF-8), whose classes are not those of `fancy-regex` and the
//! `regex` crate under it. A pattern from a file is rewritten here so that
//! each class names the characters Oniguruma gives it, then compiled as
//! usual. Both engines read the same Unicode version (16.0) for general
//! categories, scripts and properties, so `\p{L}`, `\p{Han}`, `\d` and
//! `\s` need nothing; what differs is how a class is made of them:
//!
//! - `\w` (and `\p{Word}`) is Alphabetic, marks, decimal digits and
//!   connector punctuation, plus `² ³ ¹ ¼ ½ ¾` (Oniguruma's Latin-1 table
//!   counts them as word characters) and without U+200C and U+200D;
//!   `[[:word:]]`, and `\w` inside brackets, are the same without those
//!   six.
//! - POSIX brackets are Unicode there, ASCII in `regex`: `[[:alpha:]]` is
//!   Alphabetic, `[[:punct:]]` punctuation and symbols, `[[:upper:]]`
//!   Uppercase, and so on (the table in [`posix`]).
//! - `\h` is a hex digit, as in Ruby.
//! - `^` and `$` match at every line's start and end, and the option `m`
//!   lets `.` match a newline (`regex`'s `s`).
//! - `\b` and `\B` look at the characters on each side of a place through
//!   Oniguruma's `\w` (one-character look-arounds), not `regex`'s.
//!
//! Each rule was found by running every code point through the library
//! and is held there by `tests/hf_unicode_sweeps.rs`.

/// What in `pattern` (outside brackets) bpeek does not run as Oniguruma
/// does, in words, if anything: `\X`, Oniguruma's grapheme cluster, which
/// it takes by its own test for a break between two characters (looking
/// back before the place it starts at), and which bpeek's engine has no
/// equal for.
pub fn not_run(pattern: &str) -> Option<&'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                if depth == 0 && chars.get(i + 1) == Some(&'X') {
                    return Some(
                        "holds \\X (a grapheme cluster, which Oniguruma takes by its own break \
                         rules); bpeek's regex engine has nothing that matches it exactly",
                    );
                }
                i += 2;
            }
            '[' => {
                depth += 1;
                i += 1;
                // A `]` first in a class (after `^`) is a character.
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
            }
            ']' if depth > 0 => {
                depth -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Oniguruma's `\w`, as the items of a bracketed class.
const WORD: &str = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\xB2\xB3\xB9\xBC-\xBE";
/// Oniguruma's `[[:word:]]`.
const POSIX_WORD: &str = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}";
const HEX: &str = "0-9A-Fa-f";

/// The items of a POSIX bracket class (`alpha` of `[[:alpha:]]`) as
/// Oniguruma defines it on Unicode text, or `None` for a name it does not
/// have.
fn posix(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => r"\p{Alphabetic}",
        "digit" => r"\p{Nd}",
        "alnum" => r"\p{Alphabetic}\p{Nd}",
        "upper" => r"\p{Uppercase}",
        "lower" => r"\p{Lowercase}",
        "punct" => r"\p{P}\p{S}",
        "space" => r"\s",
        "blank" => r"\p{Zs}\t",
        "cntrl" => r"\p{Cc}",
        "xdigit" => HEX,
        "word" => POSIX_WORD,
        "graph" => r"[^\s\p{Cc}\p{Cn}]",
        "print" => r"[^\s\p{Cc}\p{Cn}]\p{Zs}",
        "ascii" => r"\x00-\x7F",
        _ => return None,
    })
}

/// The items of a `\p{NAME}` Oniguruma reads as a POSIX class or another
/// name than `regex` does (`Alpha`, `Word`, `Punct`...), or `None` where
/// both read the name alike.
fn property(name: &str) -> Option<&'static str> {
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    Some(match key.as_str() {
        "word" => WORD,
        "alpha" => r"\p{Alphabetic}",
        "punct" => r"\p{P}",
        "digit" => r"\p{Nd}",
        "space" => r"\s",
        "any" => r"\x00-\x{10FFFF}",
        "alnum" | "upper" | "lower" | "blank" | "cntrl" | "xdigit" | "graph" | "print" => {
            return posix(&key);
        }
        _ => return None,
    })
}

/// `items` as they stand in a pattern: inside a bracketed class as they
/// are (negated: as a nested class), outside it bracketed.
fn class_of(items: &str, negated: bool, in_class: bool) -> String {
    match (negated, in_class) {
        (false, true) => items.to_string(),
        (false, false) => format!("[{items}]"),
        (true, _) => format!("[^{items}]"),
    }
}

/// `pattern` (Oniguruma, Ruby syntax) rewritten for `fancy-regex` with
/// Oniguruma's classes. What is not a class, an anchor or an option is
/// left as written.
pub fn translate(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let in_class = depth > 0;
        match c {
            '\\' => i = escape(&chars, i, in_class, &mut out),
            '[' if in_class && chars.get(i + 1) == Some(&':') => {
                i = posix_bracket(&chars, i, &mut out);
            }
            '[' => {
                depth += 1;
                out.push('[');
                i += 1;
                // A `]` first in a class (after `^`) is a character.
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    out.push_str(r"\]");
                    i += 1;
                }
            }
            ']' if in_class => {
                depth -= 1;
                out.push(']');
                i += 1;
            }
            '^' if !in_class => {
                out.push_str("(?m:^)");
                i += 1;
            }
            '$' if !in_class => {
                out.push_str("(?m:$)");
                i += 1;
            }
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => i = options(&chars, i, &mut out),
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The escape at `chars[i]` (a backslash) written to `out`; the index
/// after it.
fn escape(chars: &[char], i: usize, in_class: bool, out: &mut String) -> usize {
    let Some(&next) = chars.get(i + 1) else {
        out.push('\\');
        return i + 1;
    };
    match next {
        // Inside brackets Oniguruma's `\w` is `[[:word:]]`, without the
        // six Latin-1 numbers its `\w` takes outside.
        'w' | 'W' if in_class => out.push_str(&class_of(POSIX_WORD, next == 'W', true)),
        'w' | 'W' => out.push_str(&class_of(WORD, next == 'W', false)),
        'b' if !in_class => out.push_str(&word_boundary(true)),
        'B' if !in_class => out.push_str(&word_boundary(false)),
        'h' | 'H' => out.push_str(&class_of(HEX, next == 'H', in_class)),
        'p' | 'P' if chars.get(i + 2) == Some(&'{') => {
            if let Some(close) = chars[i + 3..].iter().position(|&c| c == '}') {
                let name: String = chars[i + 3..i + 3 + close].iter().collect();
                let (negated, name) = match name.strip_prefix('^') {
                    Some(rest) => (next == 'p', rest.to_string()),
                    None => (next == 'P', name),
                };
                match property(&name) {
                    Some(items) => out.push_str(&class_of(items, negated, in_class)),
                    None => {
                        out.push_str(if negated { r"\P{" } else { r"\p{" });
                        out.push_str(&name);
                        out.push('}');
                    }
                }
                return i + 4 + close;
            }
            out.push('\\');
            out.push(next);
        }
        _ => {
            out.push('\\');
            out.push(next);
        }
    }
    i + 2
}

/// Oniguruma's `\b` (`at` true) or `\B` (false): whether one and only one
/// of the characters on each side of the place is a word character, its
/// `\w` outside brackets (no character counts as not one, at either end).
/// Each side is a one-character look-around, so the test costs the same
/// at every place.
pub fn word_boundary(at: bool) -> String {
    let (ahead_word, ahead_other) = match at {
        true => ("!", "="),
        false => ("=", "!"),
    };
    format!("(?:(?<=[{WORD}])(?{ahead_word}[{WORD}])|(?<![{WORD}])(?{ahead_other}[{WORD}]))")
}

/// A POSIX bracket `[:name:]` or `[:^name:]` at `chars[i]`, inside a class;
/// the index after it. One Oniguruma does not know is left as written.
fn posix_bracket(chars: &[char], i: usize, out: &mut String) -> usize {
    let rest: String = chars[i + 2..].iter().take(12).collect();
    if let Some(end) = rest.find(":]") {
        let name = &rest[..end];
        let (negated, bare) = match name.strip_prefix('^') {
            Some(n) => (true, n),
            None => (false, name),
        };
        if let Some(items) = posix(bare) {
            out.push_str(&class_of(items, negated, true));
            return i + 2 + name.chars().count() + 2;
        }
    }
    out.push('[');
    i + 1
}

/// A group's options at `chars[i]` (`(?im:` or `(?m)`): Oniguruma's `m`
/// is `regex`'s `s` (a dot matches a newline); the index after them.
fn options(chars: &[char], i: usize, out: &mut String) -> usize {
    let mut k = i + 2;
    while k < chars.len() && matches!(chars[k], 'i' | 'm' | 'x' | '-') {
        k += 1;
    }
    let closes = matches!(chars.get(k), Some(':' | ')'));
    out.push_str("(?");
    for &c in &chars[i + 2..k] {
        out.push(if closes && c == 'm' { 's' } else { c });
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_become_oniguruma_s() {
        assert_eq!(translate(r"\w+"), format!("[{WORD}]+"));
        assert_eq!(translate(r"[\w-]"), format!("[{POSIX_WORD}-]"));
        assert_eq!(translate(r"[^\W\d]"), format!("[^[^{POSIX_WORD}]\\d]"));
        assert_eq!(translate("[[:punct:]]+"), r"[\p{P}\p{S}]+");
        assert_eq!(translate("[[:^alpha:]x]"), r"[[^\p{Alphabetic}]x]");
        assert_eq!(translate(r"\p{^Alpha}\P{L}"), r"[^\p{Alphabetic}]\P{L}");
        assert_eq!(translate("^a$"), "(?m:^)a(?m:$)");
        assert_eq!(translate("(?m:.)(?i)x"), "(?s:.)(?i)x");
        assert_eq!(translate(r"[]a]\\w"), r"[\]a]\\w");
    }

    #[test]
    fn clusters_are_named_outside_brackets_only() {
        assert!(not_run(r"\X+").is_some_and(|w| w.contains("grapheme")));
        for p in [
            r"[\X]", r"\\X", r"[]\X]", r"\bx\B", r"\w+\Z", r"\R", r"(?i)k",
        ] {
            assert_eq!(not_run(p), None, "{p}");
        }
    }

    #[test]
    fn word_boundaries_take_oniguruma_s_word_characters() {
        let at = fancy_regex::Regex::new(&translate(r"\b")).unwrap();
        let places =
            |text: &str| -> Vec<usize> { at.find_iter(text).map(|m| m.unwrap().start()).collect() };
        // `²` is a word character there, U+200C is not.
        assert_eq!(places("x\u{b2}x a"), [0, 4, 5, 6]);
        assert_eq!(places("x\u{200c}x"), [0, 1, 4, 5]);
        assert_eq!(translate(r"[\b]"), r"[\b]");
        let inside = fancy_regex::Regex::new(&translate(r"\B")).unwrap();
        let found: Vec<usize> = inside
            .find_iter("ab c")
            .map(|m| m.unwrap().start())
            .collect();
        assert_eq!(found, [1]);
    }

    #[test]
    fn what_is_not_a_class_is_left_alone() {
        for p in [
            r"\s+(?!\S)",
            r"\p{L}+|\p{N}",
            r"'s|'t",
            r"[a-z\d]{2,3}",
            r"(?<=x)y",
        ] {
            assert_eq!(translate(p), p);
        }
    }
}
