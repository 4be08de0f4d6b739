//! The corpora compiled into the binary, by name.

/// A bundled text.
#[derive(Debug, Clone, Copy)]
pub struct BundledCorpus {
    pub name: &'static str,
    pub about: &'static str,
    pub text: &'static str,
}

pub const DEFAULT_NAME: &str = "bakery";

pub const BUNDLED: &[BundledCorpus] = &[
    BundledCorpus {
        name: "bakery",
        about: "the default: a short English story with frequent words, -ing/-ed/-s, numbers and a Japanese line",
        text: include_str!("../../../corpora/default.txt"),
    },
    BundledCorpus {
        name: "play",
        about: "one line of play/player/played/replay, the classic first example",
        text: include_str!("../../../corpora/tutorial-play.txt"),
    },
    BundledCorpus {
        name: "tokens",
        about: "a line about tokens repeated 20 times (4180 bytes)",
        text: include_str!("../../../corpora/tutorial-tokens.txt"),
    },
    BundledCorpus {
        name: "low",
        about: "low lower lowest newer newest, one word per line",
        text: include_str!("../../../corpora/tutorial-low.txt"),
    },
    BundledCorpus {
        name: "echo",
        about: "hums and drawn-out vowels (aaaah, hmmm): pairs that overlap themselves",
        text: include_str!("../../../corpora/tutorial-echo.txt"),
    },
];

/// A lesson compiled into the binary, by name (`bpeek tui --lesson NAME`).
#[derive(Debug, Clone, Copy)]
pub struct BundledLesson {
    pub name: &'static str,
    pub about: &'static str,
    pub text: &'static str,
}

pub const LESSONS: &[BundledLesson] = &[
    BundledLesson {
        name: "classic",
        about: "lesson: the char-level tutorial on low/lower/newest, ties and the word-end mark",
        text: include_str!("../../../corpora/lessons/classic.lesson"),
    },
    BundledLesson {
        name: "bytes",
        about: "lesson: byte-level BPE, a pair that overlaps itself, and a stop at the fertility view",
        text: include_str!("../../../corpora/lessons/bytes.lesson"),
    },
];

pub fn find_lesson(name: &str) -> Option<&'static BundledLesson> {
    LESSONS.iter().find(|l| l.name == name)
}

pub fn find(name: &str) -> Option<&'static BundledCorpus> {
    BUNDLED.iter().find(|c| c.name == name)
}

pub fn default_corpus() -> &'static BundledCorpus {
    &BUNDLED[0]
}

pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|c| c.name).collect()
}

/// One text of the parallel sample set used to compare tokenizers.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// A short code: `en`, `fr`, ..., `emoji`, `code`, `digits`.
    pub code: &'static str,
    pub language: &'static str,
    pub text: &'static str,
}

macro_rules! sample {
    ($code:literal, $language:literal, $file:literal) => {
        Sample {
            code: $code,
            language: $language,
            text: include_str!(concat!("../../../corpora/samples/", $file)),
        }
    };
}

/// The same passage in fifteen languages, then emoji-heavy text, source
/// code and digits. English comes first: premiums are measured against it.
pub const SAMPLES: &[Sample] = &[
    sample!("en", "English", "en-english.txt"),
    sample!("fr", "French", "fr-french.txt"),
    sample!("de", "German", "de-german.txt"),
    sample!("es", "Spanish", "es-spanish.txt"),
    sample!("ru", "Russian", "ru-russian.txt"),
    sample!("el", "Greek", "el-greek.txt"),
    sample!("ar", "Arabic", "ar-arabic.txt"),
    sample!("he", "Hebrew", "he-hebrew.txt"),
    sample!("hi", "Hindi", "hi-hindi.txt"),
    sample!("ta", "Tamil", "ta-tamil.txt"),
    sample!("th", "Thai", "th-thai.txt"),
    sample!("zh", "Chinese", "zh-chinese.txt"),
    sample!("ja", "Japanese", "ja-japanese.txt"),
    sample!("ko", "Korean", "ko-korean.txt"),
    sample!("vi", "Vietnamese", "vi-vietnamese.txt"),
    sample!("emoji", "emoji-heavy text", "emoji.txt"),
    sample!("code", "source code", "code-rust.txt"),
    sample!("digits", "digits", "digits.txt"),
];

/// The languages of the parallel passage (not emoji, code or digits).
pub fn parallel_samples() -> &'static [Sample] {
    &SAMPLES[..15]
}
