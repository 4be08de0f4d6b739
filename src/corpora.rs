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
        text: include_str!("../corpora/default.txt"),
    },
    BundledCorpus {
        name: "play",
        about: "one line of play/player/played/replay, the classic first example",
        text: include_str!("../corpora/tutorial-play.txt"),
    },
    BundledCorpus {
        name: "tokens",
        about: "a line about tokens repeated 20 times (4180 bytes)",
        text: include_str!("../corpora/tutorial-tokens.txt"),
    },
    BundledCorpus {
        name: "low",
        about: "low lower lowest newer newest, one word per line",
        text: include_str!("../corpora/tutorial-low.txt"),
    },
];

pub fn find(name: &str) -> Option<&'static BundledCorpus> {
    BUNDLED.iter().find(|c| c.name == name)
}

pub fn default_corpus() -> &'static BundledCorpus {
    &BUNDLED[0]
}

pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|c| c.name).collect()
}
