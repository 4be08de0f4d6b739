//! Which writing system a character belongs to, coarsely, for breaking a
//! mixed text into runs whose cost can be compared.
//!
//! The table covers the scripts bpeek's samples use; everything else is
//! `Other`. Combining marks, joiners and variation selectors belong to the
//! character before them.

use std::fmt;
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Script {
    Latin,
    Cyrillic,
    Greek,
    Arabic,
    Hebrew,
    Devanagari,
    Tamil,
    Thai,
    Han,
    Kana,
    Hangul,
    Emoji,
    Digits,
    Whitespace,
    Other,
}

impl Script {
    pub const ALL: [Script; 15] = [
        Script::Latin,
        Script::Cyrillic,
        Script::Greek,
        Script::Arabic,
        Script::Hebrew,
        Script::Devanagari,
        Script::Tamil,
        Script::Thai,
        Script::Han,
        Script::Kana,
        Script::Hangul,
        Script::Emoji,
        Script::Digits,
        Script::Whitespace,
        Script::Other,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Script::Latin => "Latin",
            Script::Cyrillic => "Cyrillic",
            Script::Greek => "Greek",
            Script::Arabic => "Arabic",
            Script::Hebrew => "Hebrew",
            Script::Devanagari => "Devanagari",
            Script::Tamil => "Tamil",
            Script::Thai => "Thai",
            Script::Han => "Han",
            Script::Kana => "Hiragana/Katakana",
            Script::Hangul => "Hangul",
            Script::Emoji => "emoji and symbols",
            Script::Digits => "digits",
            Script::Whitespace => "whitespace",
            Script::Other => "punctuation and other",
        }
    }
}

impl fmt::Display for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Marks and joiners that take the script of the character before them.
pub fn is_inherited(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
        | 0x200C | 0x200D | 0xFE00..=0xFE0F | 0xE0020..=0xE007F | 0xE0100..=0xE01EF
        | 0x1F3FB..=0x1F3FF)
}

/// The script of one character (inherited marks report `Other`; use
/// [`runs`] to attach them).
pub fn script_of(c: char) -> Script {
    if c.is_whitespace() {
        return Script::Whitespace;
    }
    if c.is_numeric() && !matches!(c as u32, 0x3007 | 0x4E00..=0x9FFF) {
        return Script::Digits;
    }
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xAA | 0xBA => Script::Latin,
        0xC0..=0x24F if c != '×' && c != '÷' => Script::Latin,
        0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF | 0xFB00..=0xFB06 => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x590..=0x5FF | 0xFB1D..=0xFB4F => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            Script::Arabic
        }
        0x900..=0x97F | 0xA8E0..=0xA8FF => Script::Devanagari,
        0xB80..=0xBFF => Script::Tamil,
        0xE00..=0xE7F => Script::Thai,
        0x3005
        | 0x3007
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3FFFF => Script::Han,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Script::Kana,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => Script::Hangul,
        0xA9
        | 0xAE
        | 0x2122
        | 0x2190..=0x21FF
        | 0x2300..=0x23FF
        | 0x25A0..=0x27BF
        | 0x2B00..=0x2BFF
        | 0x1F000..=0x1FAFF => Script::Emoji,
        _ => Script::Other,
    }
}

/// Whether `c` is written right to left (Hebrew, Arabic, Syriac, Thaana,
/// N'Ko and their presentation forms).
pub fn is_right_to_left(c: char) -> bool {
    matches!(c as u32,
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF
        | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// Maximal runs of one script, as byte ranges of `text`, in order.
pub fn runs(text: &str) -> Vec<(Script, Range<usize>)> {
    let mut out: Vec<(Script, Range<usize>)> = Vec::new();
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        let script = match out.last() {
            Some((prev, _)) if is_inherited(c) => *prev,
            _ => script_of(c),
        };
        match out.last_mut() {
            Some((s, r)) if *s == script => r.end = end,
            _ => out.push((script, i..end)),
        }
    }
    out
}

/// Words, counted the way bpeek counts them (see [`word_scripts`]).
pub fn count_words(text: &str) -> usize {
    word_scripts(text).len()
}

/// How words are counted, in one sentence for a reader of the numbers.
pub const WORD_RULE: &str = "a word is a run between whitespace, Han \
    characters and kana runs that holds a letter or a number (Unicode L or \
    N); each Han character and each kana run is a word; marks, symbols, \
    circled letters and emoji alone are none";

/// A letter or a number: Unicode general category L (Lu, Ll, Lt, Lm, Lo)
/// or N (Nd, Nl, No), as of the Unicode version of `regex-syntax`. Not
/// `char::is_alphanumeric`, whose Alphabetic property also takes marks
/// (a Devanagari vowel sign) and symbols (circled letters `Ⓐ`), which
/// alone make no word.
pub fn is_letter_or_number(c: char) -> bool {
    static LN: std::sync::OnceLock<crate::normalize::bert_text::Class> = std::sync::OnceLock::new();
    c.is_ascii_alphanumeric()
        || (!c.is_ascii() && crate::normalize::bert_text::class(&LN, r"[\p{L}\p{N}]").contains(c))
}

/// The script of each word of `text`, in order. Words are the
/// whitespace-separated units, cut further around Chinese and Japanese,
/// which are written without spaces: each Han character is a word, each
/// run of kana is a word (the middle dot `・` ends a run and is no word),
/// and each run of other characters between them is a word if it holds a
/// letter or number ([`is_letter_or_number`]; `使用GNOME和KDE` is five
/// words, `don't` one, `→`, `Ⓐ`, a lone mark and `👍` none). A word's script is that of its first letter or digit. Thai
/// is also written without spaces between words and bpeek has no
/// dictionary to split it, so a Thai "word" is a whitespace-separated
/// phrase and Thai word counts are too low.
pub fn word_scripts(text: &str) -> Vec<Script> {
    let mut words = Vec::new();
    for unit in text.split_whitespace() {
        // The script of the current run's first letter or digit, if any.
        let mut run: Option<Script> = None;
        let mut in_kana = false;
        for c in unit.chars() {
            let script = script_of(c);
            let kana = script == Script::Kana && c != '\u{30FB}';
            if script == Script::Han || kana {
                words.extend(run.take());
                if script == Script::Han {
                    words.push(Script::Han);
                } else if !in_kana {
                    words.push(Script::Kana);
                }
                in_kana = kana;
                continue;
            }
            in_kana = false;
            if run.is_none() && is_letter_or_number(c) {
                run = Some(script);
            }
        }
        words.extend(run);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(Script, &str)> {
        runs(text).into_iter().map(|(s, r)| (s, &text[r])).collect()
    }

    #[test]
    fn mixed_text_splits_into_script_runs() {
        assert_eq!(
            names("Hi мир 42 日本語です👍🏽!"),
            [
                (Script::Latin, "Hi"),
                (Script::Whitespace, " "),
                (Script::Cyrillic, "мир"),
                (Script::Whitespace, " "),
                (Script::Digits, "42"),
                (Script::Whitespace, " "),
                (Script::Han, "日本語"),
                (Script::Kana, "です"),
                (Script::Emoji, "👍🏽"),
                (Script::Other, "!"),
            ]
        );
        assert_eq!(
            names("e\u{301}te\u{301}"),
            [(Script::Latin, "e\u{301}te\u{301}")]
        );
        assert_eq!(
            names("Thư viện"),
            [
                (Script::Latin, "Thư"),
                (Script::Whitespace, " "),
                (Script::Latin, "viện")
            ]
        );
    }

    #[test]
    fn words_are_counted_per_han_character_and_kana_run() {
        assert_eq!(count_words("the cat sat."), 3);
        assert_eq!(count_words("— 42 !"), 1);
        assert_eq!(count_words("图书馆"), 3);
        // 本 | を | 読 | みます: two Han characters and two kana runs.
        assert_eq!(count_words("本を読みます"), 4);
    }

    #[test]
    fn symbols_and_emoji_alone_are_no_words() {
        assert_eq!(count_words("→ ← ©"), 0);
        assert_eq!(count_words("great 👍 ..."), 1);
        assert_eq!(count_words("don't e.g. x²"), 3);
    }

    #[test]
    fn latin_inside_chinese_and_the_katakana_middle_dot() {
        // 使 | 用 | GNOME | 和 | KDE
        assert_eq!(count_words("使用GNOME和KDE"), 5);
        assert_eq!(
            word_scripts("使用GNOME和KDE"),
            [
                Script::Han,
                Script::Han,
                Script::Latin,
                Script::Han,
                Script::Latin
            ]
        );
        // 東 | 京 | 大 | 阪: the middle dot separates and is no word.
        assert_eq!(count_words("東京・大阪"), 4);
        // カタ | カナ: two kana runs; ー lengthens a vowel inside one.
        assert_eq!(count_words("カタ・カナ コーヒー"), 3);
    }

    /// The word rule over every code point, alone and after a lone mark:
    /// a word where the character is a letter or a number (Unicode L or
    /// N, matched here by the regex engine, not the table the rule reads),
    /// a Han character or kana; never for a mark, a symbol or a circled
    /// letter.
    #[test]
    fn the_word_rule_holds_over_every_code_point() {
        let letter_or_number = regex_automata::meta::Regex::new(r"^[\p{L}\p{N}]$").unwrap();
        let mut wrong = Vec::new();
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            let s = c.to_string();
            let script = script_of(c);
            let expected = usize::from(
                !c.is_whitespace()
                    && (letter_or_number.is_match(&s)
                        || script == Script::Han
                        || (script == Script::Kana && c != '\u{30FB}')),
            );
            let after_mark = format!("\u{94D}{c}");
            if count_words(&s) != expected || count_words(&after_mark) != expected {
                wrong.push(format!("U+{:04X}", c as u32));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} wrong: {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(20)]
        );
        for no_word in ["\u{93E}", "\u{301}\u{302}", "\u{24B6}", "\u{1F150}"] {
            assert_eq!(count_words(no_word), 0, "{no_word:?}");
        }
    }
}
