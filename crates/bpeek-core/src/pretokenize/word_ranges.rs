//! Hugging Face pre-tokenizer steps run over one buffer: every word is a
//! range of the buffer's text, a step that only cuts (Punctuation, Digits,
//! Split, ...) makes new ranges of the same text, and a step that rewrites
//! (Metaspace, ByteLevel) writes all the words once into the next buffer.
//! No word is a string of its own, and the buffers are kept from one text
//! to the next, so a long text costs no allocation per word.
//!
//! Where each byte came from is kept beside the text only when it is
//! asked for: a caller showing offsets asks, and so does a Metaspace step
//! (whether a word starts the text is read from it).

use crate::normalize::mapped::Mapped;
use crate::pretokenize::hf_pretok::{
    Behavior, CharClass, Metaspace, Pattern, PreStep, Word, char_chunks, find_matches, keep,
    script_runs,
};
use crate::pretokenize::pattern_work::Meter;
use std::ops::Range;

/// A word: its range of [`StepWords::text`] and whether it starts the
/// whole text (Metaspace's `first` scheme asks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordRange {
    pub range: Range<usize>,
    pub at_origin: bool,
}

/// The words of a text cut by a file's steps, as ranges of one buffer.
#[derive(Debug, Default)]
pub struct StepWords {
    /// The text the words are ranges of: the normalized text, or what the
    /// last rewriting step wrote.
    pub text: String,
    /// For each byte of `text`, the range of the input it came from;
    /// empty when it is not kept.
    pub from: Vec<Range<usize>>,
    pub words: Vec<WordRange>,
    scratch: Scratch,
}

/// Buffers a step fills and empties, kept to be filled again.
#[derive(Debug, Default)]
struct Scratch {
    words: Vec<WordRange>,
    text: String,
    from: Vec<Range<usize>>,
    matches: Vec<(Range<usize>, bool)>,
    kept: Vec<Range<usize>>,
    /// One word rewritten (a space put in front) before it is cut.
    word: String,
    word_from: Vec<Range<usize>>,
}

/// Whether running `steps` needs to know where each byte came from, when
/// the caller does not: a Metaspace step reads whether a word starts the
/// text, which that tells.
pub fn steps_need_sources(steps: &[PreStep]) -> bool {
    steps.iter().any(|s| matches!(s, PreStep::Metaspace(_)))
}

impl StepWords {
    /// Run `steps` over one normalized piece of text and where each of its
    /// bytes came from. A regex that would take more than linear
    /// work on it leaves no words and reports the refusal to the
    /// [`crate::pretokenize::pattern_work::watch`] around.
    pub fn run(&mut self, steps: &[PreStep], text: Mapped, at_start: bool) {
        self.text = text.text;
        self.from = text.from;
        self.cut_all(steps, at_start);
    }

    /// [`StepWords::run`] on `text` as it is, keeping no sources (no step
    /// may need them: see [`steps_need_sources`]); the text is copied into
    /// the buffer kept from the call before.
    pub fn run_untracked(&mut self, steps: &[PreStep], text: &str, at_start: bool) {
        self.text.clear();
        self.text.push_str(text);
        self.from.clear();
        self.cut_all(steps, at_start);
    }

    fn cut_all(&mut self, steps: &[PreStep], at_start: bool) {
        self.words.clear();
        if self.text.is_empty() {
            return;
        }
        self.words.push(WordRange {
            range: 0..self.text.len(),
            at_origin: at_start,
        });
        let mut meter = Meter::new();
        for step in steps {
            self.step(step, at_start, &mut meter);
            if meter.refused() {
                self.words.clear();
                return;
            }
        }
    }

    /// Each word's text.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.words.iter().map(|w| &self.text[w.range.clone()])
    }

    /// The words as strings of their own, with where each byte came from.
    pub fn to_words(&self) -> Vec<Word> {
        self.words
            .iter()
            .map(|w| Word {
                text: Mapped {
                    text: self.text[w.range.clone()].to_string(),
                    from: self.from[w.range.clone()].to_vec(),
                },
                at_origin: w.at_origin,
            })
            .collect()
    }

    fn tracked(&self) -> bool {
        !self.from.is_empty()
    }

    fn step(&mut self, step: &PreStep, at_start: bool, meter: &mut Meter) {
        let mut next = std::mem::take(&mut self.scratch.words);
        next.clear();
        match step {
            PreStep::Split {
                pattern,
                behavior,
                invert,
            } => {
                for w in &self.words {
                    let s = &self.text[w.range.clone()];
                    find_matches(pattern, s, *invert, meter, &mut self.scratch.matches);
                    keep(&self.scratch.matches, *behavior, &mut self.scratch.kept);
                    let (kept, base) = (&self.scratch.kept, w.range.start);
                    self.cut(kept, base, at_start, &mut next);
                }
            }
            PreStep::Scripts | PreStep::FixedLength(_) => {
                for w in &self.words {
                    let s = &self.text[w.range.clone()];
                    let ranges = match step {
                        PreStep::FixedLength(n) => char_chunks(s, *n),
                        _ => script_runs(s),
                    };
                    self.cut(&ranges, w.range.start, at_start, &mut next);
                }
            }
            PreStep::Metaspace(ms) => self.metaspace(ms, at_start, meter, &mut next),
            PreStep::ByteLevel {
                add_prefix_space,
                regex,
            } => self.byte_level(
                *add_prefix_space,
                regex.as_ref(),
                at_start,
                meter,
                &mut next,
            ),
        }
        self.scratch.words = std::mem::replace(&mut self.words, next);
    }

    /// The non-empty pieces `ranges` (of a word starting at `base`), each
    /// a word of its own.
    fn cut(&self, ranges: &[Range<usize>], base: usize, at_start: bool, out: &mut Vec<WordRange>) {
        for r in ranges {
            if r.is_empty() {
                continue;
            }
            let range = base + r.start..base + r.end;
            out.push(WordRange {
                at_origin: self.starts_origin(at_start, range.start),
                range,
            });
        }
    }

    /// The library asks where a piece starts in the original text: once
    /// cut (even into one piece) a piece starts where its first byte came
    /// from, so text a normalizer stripped off the front counts.
    fn starts_origin(&self, at_start: bool, at: usize) -> bool {
        at_start && self.tracked() && self.from[at].start == 0
    }

    /// Swap in the text the rewriting step wrote.
    fn take_written(&mut self) {
        std::mem::swap(&mut self.text, &mut self.scratch.text);
        std::mem::swap(&mut self.from, &mut self.scratch.from);
    }

    /// Each space of each word written as the mark, a mark put in front
    /// where the scheme says, and the word cut before each mark (`split`).
    fn metaspace(
        &mut self,
        ms: &Metaspace,
        at_start: bool,
        meter: &mut Meter,
        next: &mut Vec<WordRange>,
    ) {
        let mut buf = [0u8; 4];
        let mark: &str = ms.replacement.encode_utf8(&mut buf);
        let tracked = self.tracked();
        let (text, from) = (&mut self.scratch.text, &mut self.scratch.from);
        text.clear();
        from.clear();
        let mut written = Vec::with_capacity(self.words.len());
        for w in &self.words {
            let start = text.len();
            let src = &self.text[w.range.clone()];
            let front = ms.prepend && (w.at_origin || !ms.first_only);
            if front && !src.starts_with(' ') && !src.starts_with(mark) {
                text.push_str(mark);
                if tracked {
                    let at = self.from[w.range.start].start;
                    from.extend(std::iter::repeat_n(at..at, mark.len()));
                }
            }
            for (i, c) in src.char_indices() {
                let at = w.range.start + i;
                if c == ' ' {
                    text.push_str(mark);
                    if tracked {
                        from.extend(std::iter::repeat_n(self.from[at].clone(), mark.len()));
                    }
                } else {
                    text.push(c);
                    if tracked {
                        from.extend_from_slice(&self.from[at..at + c.len_utf8()]);
                    }
                }
            }
            written.push(WordRange {
                range: start..text.len(),
                at_origin: w.at_origin,
            });
        }
        self.take_written();
        if !ms.split {
            next.extend(written);
            return;
        }
        let marks = Pattern::Class(CharClass::One(ms.replacement));
        for w in &written {
            let s = &self.text[w.range.clone()];
            find_matches(&marks, s, false, meter, &mut self.scratch.matches);
            keep(
                &self.scratch.matches,
                Behavior::MergedWithNext,
                &mut self.scratch.kept,
            );
            self.cut(&self.scratch.kept, w.range.start, at_start, next);
        }
    }

    /// A space in front of each word that has none (`add_prefix_space`),
    /// the word cut by the pattern, and each piece's bytes written as
    /// byte-level characters.
    fn byte_level(
        &mut self,
        add_prefix_space: bool,
        regex: Option<&Pattern>,
        at_start: bool,
        meter: &mut Meter,
        next: &mut Vec<WordRange>,
    ) {
        let tracked = self.tracked();
        let mut s = std::mem::take(&mut self.scratch);
        s.text.clear();
        s.from.clear();
        for w in &self.words {
            // The word, with the space in front when one goes there.
            let src = &self.text[w.range.clone()];
            s.word.clear();
            s.word_from.clear();
            if add_prefix_space && !src.starts_with(' ') {
                s.word.push(' ');
                if tracked {
                    let at = self.from[w.range.start].start;
                    s.word_from.push(at..at);
                }
            }
            s.word.push_str(src);
            if tracked {
                s.word_from.extend_from_slice(&self.from[w.range.clone()]);
            }
            s.kept.clear();
            match regex {
                Some(re) => {
                    find_matches(re, &s.word, false, meter, &mut s.matches);
                    keep(&s.matches, Behavior::Isolated, &mut s.kept);
                }
                None => s.kept.push(0..s.word.len()),
            }
            for r in &s.kept {
                if r.is_empty() {
                    continue;
                }
                let at_origin = match regex {
                    Some(_) => at_start && tracked && s.word_from[r.start].start == 0,
                    None => w.at_origin,
                };
                let start = s.text.len();
                write_byte_chars(&s.word, &s.word_from, r.clone(), &mut s.text, &mut s.from);
                next.push(WordRange {
                    range: start..s.text.len(),
                    at_origin,
                });
            }
        }
        self.scratch = s;
        self.take_written();
    }
}

/// The bytes `r` of `word` written onto `text` as byte-level characters,
/// and (when `word_from` is kept) where each came from onto `from`.
fn write_byte_chars(
    word: &str,
    word_from: &[Range<usize>],
    r: Range<usize>,
    text: &mut String,
    from: &mut Vec<Range<usize>>,
) {
    let table = crate::formats::byte_unicode::byte_chars();
    for i in r {
        let c = table[word.as_bytes()[i] as usize];
        text.push(c);
        if !word_from.is_empty() {
            from.extend(std::iter::repeat_n(word_from[i].clone(), c.len_utf8()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pretokenize::hf_pretok::Metaspace;

    /// The steps one word at a time, each word a [`Mapped`] of its own, as
    /// the library runs them (and with ByteLevel's pattern by the regex
    /// engine): the reference the buffer is held to.
    fn naive(steps: &[PreStep], text: Mapped, at_start: bool) -> Vec<Word> {
        let gpt2 = crate::formats::regex_check::compile(
            r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
            "test",
        )
        .unwrap();
        let mut meter = Meter::new();
        let mut words = vec![Word {
            text,
            at_origin: at_start,
        }];
        let cut = |w: &Word, pattern: &Pattern, behavior, meter: &mut Meter| {
            let (mut m, mut k) = (Vec::new(), Vec::new());
            find_matches(pattern, &w.text.text, false, meter, &mut m);
            keep(&m, behavior, &mut k);
            k.into_iter()
                .filter(|r| !r.is_empty())
                .map(|r| Word {
                    at_origin: at_start && w.text.from[r.start].start == 0,
                    text: w.text.slice(r),
                })
                .collect::<Vec<_>>()
        };
        for step in steps {
            let mut next = Vec::new();
            for mut w in words {
                match step {
                    PreStep::Split {
                        pattern, behavior, ..
                    } => next.extend(cut(&w, pattern, *behavior, &mut meter)),
                    PreStep::Metaspace(ms) => {
                        let mark = ms.replacement.to_string();
                        w.text.replace(" ", &mark);
                        if ms.prepend
                            && (w.at_origin || !ms.first_only)
                            && !w.text.text.starts_with(&mark)
                        {
                            w.text.prepend(&mark);
                        }
                        let marks = Pattern::Class(CharClass::One(ms.replacement));
                        match ms.split {
                            true => {
                                next.extend(cut(&w, &marks, Behavior::MergedWithNext, &mut meter))
                            }
                            false => next.push(w),
                        }
                    }
                    PreStep::ByteLevel {
                        add_prefix_space, ..
                    } => {
                        if *add_prefix_space && !w.text.text.starts_with(' ') {
                            w.text.prepend(" ");
                        }
                        let regex = Pattern::Regex(Box::new(gpt2.clone()));
                        for mut p in cut(&w, &regex, Behavior::Isolated, &mut meter) {
                            p.text.as_byte_chars();
                            next.push(p);
                        }
                    }
                    PreStep::Scripts | PreStep::FixedLength(_) => unreachable!(),
                }
            }
            words = next;
        }
        words
    }

    fn falcon() -> Vec<PreStep> {
        vec![
            PreStep::at(CharClass::Punctuation, Behavior::Contiguous),
            PreStep::ByteLevel {
                add_prefix_space: false,
                regex: Some(Pattern::Gpt2),
            },
            PreStep::at(CharClass::Numeric, Behavior::Contiguous),
            PreStep::Split {
                pattern: Pattern::Regex(Box::new(
                    crate::formats::regex_check::compile("[0-9][0-9][0-9]", "test").unwrap(),
                )),
                behavior: Behavior::Isolated,
                invert: false,
            },
        ]
    }

    fn bert() -> Vec<PreStep> {
        vec![
            PreStep::at(CharClass::Whitespace, Behavior::Removed),
            PreStep::at(CharClass::Punctuation, Behavior::Isolated),
        ]
    }

    fn t5(first_only: bool) -> Vec<PreStep> {
        vec![
            PreStep::at(CharClass::Whitespace, Behavior::Removed),
            PreStep::Metaspace(Metaspace {
                replacement: '\u{2581}',
                prepend: true,
                first_only,
                split: true,
            }),
        ]
    }

    fn with_prefix_space() -> Vec<PreStep> {
        vec![
            PreStep::at(CharClass::Whitespace, Behavior::Removed),
            PreStep::ByteLevel {
                add_prefix_space: true,
                regex: Some(Pattern::Gpt2),
            },
        ]
    }

    /// Random texts of the characters the steps treat apart: spaces of
    /// kinds, digits (ASCII, Arabic-Indic, `²`), punctuation (ASCII,
    /// Latin-1, CJK), letters in three scripts, a contraction, emoji.
    fn random_texts() -> Vec<String> {
        let pieces = [
            " ",
            "  ",
            "\n",
            "\t",
            "\u{3000}",
            "1",
            "22",
            "1234567",
            "٣",
            "²",
            "'s",
            "'ll",
            ".",
            ",",
            "...",
            "¡",
            "«»",
            "。",
            "-",
            "_",
            "a",
            "word",
            "Ünï",
            "日本",
            "смысл",
            "🙂",
            "é",
            "\u{301}",
            "$",
            "~",
        ];
        let mut roll = crate::dice::rolls(0xfa1c_05ee);
        (0..400)
            .map(|_| {
                let n = roll(14);
                (0..n)
                    .map(|_| pieces[roll(pieces.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_buffer_cuts_as_each_word_on_its_own_does() {
        let sequences = [
            ("falcon", falcon()),
            ("bert", bert()),
            ("t5", t5(false)),
            ("t5-first", t5(true)),
            ("prefix-space", with_prefix_space()),
        ];
        let mut words = StepWords::default();
        for (name, steps) in &sequences {
            for text in random_texts() {
                for at_start in [true, false] {
                    let want = naive(steps, Mapped::new(&text), at_start);
                    // With sources: the words, their sources, their starts.
                    words.run(steps, Mapped::new(&text), at_start);
                    assert_eq!(words.to_words(), want, "{name}: {text:?}");
                    // Without (the same buffer, used again): the texts.
                    if !steps_need_sources(steps) {
                        words.run_untracked(steps, &text, at_start);
                        let got: Vec<&str> = words.texts().collect();
                        let want: Vec<&str> = want.iter().map(|w| w.text.text.as_str()).collect();
                        assert_eq!(got, want, "{name}: {text:?}");
                    }
                }
            }
        }
    }
}
