//! Random text of many kinds, for the tests that hold bpeek to Hugging
//! Face `tokenizers` on more than the samples.

/// splitmix64, so that a failure can be run again.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Text of many kinds: scripts, CJK ideographs of every block BERT spaces
/// out, accents as composed letters and as combining marks, control and
/// format characters, punctuation runs, whitespace of every kind, and words
/// longer than the 100 characters WordPiece reads.
pub fn random_texts(n: usize) -> Vec<String> {
    random_texts_from(n, 0x5eed_0019, false)
}

/// [`random_texts`] from another seed; with `late_marks`, the combining
/// marks of Unicode 14 (U+1ABF..U+1ACE) too, for models whose normalizer
/// does not order marks (BERT's strips them by its Unicode 8.0 table).
pub fn random_texts_from(n: usize, seed: u64, late_marks: bool) -> Vec<String> {
    let pools = pools(late_marks);
    let mut rng = Rng(seed);
    let mut out: Vec<String> = (0..n).map(|k| random_text(&mut rng, &pools, k)).collect();
    out.extend(fixed_texts());
    out
}

/// The ranges of code points that one piece of text draws from, a pool
/// at a time.
fn pools(late_marks: bool) -> Vec<Vec<(u32, u32)>> {
    // Marks from before Unicode 14 only, unless asked: Hugging Face
    // normalizes with older tables, which give later marks no combining
    // class.
    let last_mark = if late_marks { 0x1ACE } else { 0x1ABE };
    vec![
        vec![(0x61, 0x7A), (0x41, 0x5A)],
        vec![(0x61, 0x7A)],
        vec![(0x30, 0x39)],
        vec![(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        vec![
            (0xA1, 0xBF),
            (0x2010, 0x2027),
            (0x3001, 0x3003),
            (0x2E00, 0x2E52),
        ],
        vec![
            (0x20, 0x20),
            (0x09, 0x0A),
            (0x0D, 0x0D),
            (0xA0, 0xA0),
            (0x3000, 0x3000),
        ],
        vec![
            (0x2000, 0x200F),
            (0x2028, 0x202E),
            (0xFEFF, 0xFEFF),
            (0xAD, 0xAD),
        ],
        vec![(0x00, 0x1F), (0x7F, 0x9F), (0xFFFD, 0xFFFD)],
        vec![
            (0x300, 0x36F),
            (0x1AB0, last_mark),
            (0x1DC0, 0x1DFF),
            (0x20D0, 0x20F0),
        ],
        vec![(0xC0, 0x24F), (0x1E00, 0x1EFF)],
        vec![(0x391, 0x3C9), (0x400, 0x44F)],
        vec![
            (0x5D0, 0x5EA),
            (0x620, 0x64A),
            (0x660, 0x669),
            (0x8A0, 0x8FF),
        ],
        vec![(0x900, 0x97F), (0xB80, 0xBFF), (0xE01, 0xE5B)],
        vec![
            (0x3041, 0x3096),
            (0x30A1, 0x30FA),
            (0x4E00, 0x4FFF),
            (0x9FF0, 0x9FFF),
            (0x3400, 0x3410),
            (0xF900, 0xF910),
            (0x20000, 0x20010),
            (0x2B810, 0x2B830),
            (0x2CEA0, 0x2CEB5),
            (0x2F800, 0x2F810),
            (0xAC00, 0xAD00),
        ],
        vec![
            (0x1F300, 0x1F64F),
            (0x1F900, 0x1F9FF),
            (0xFE0F, 0xFE0F),
            (0x1F3FB, 0x1F3FF),
        ],
        vec![
            (0xFF01, 0xFF5E),
            (0xFB00, 0xFB06),
            (0x2460, 0x2473),
            (0x2150, 0x218B),
            (0x130, 0x130),
            (0x1E9E, 0x1E9E),
        ],
        vec![
            (0x10000, 0x1007F),
            (0xE000, 0xE010),
            (0xFFF9, 0xFFFC),
            (0x378, 0x379),
        ],
    ]
}

/// The `k`th random text: runs of characters from random pools, some
/// with leading spaces, some ending in a long word.
fn random_text(rng: &mut Rng, pools: &[Vec<(u32, u32)>], k: usize) -> String {
    let mut s = String::new();
    if k.is_multiple_of(5) {
        s.push_str(&" ".repeat(1 + rng.below(3)));
    }
    let len = 1 + rng.below(40);
    for _ in 0..len {
        let pool = &pools[rng.below(pools.len())];
        let (lo, hi) = pool[rng.below(pool.len())];
        let c = lo + (rng.below((hi - lo + 1) as usize) as u32);
        let Some(c) = char::from_u32(c) else { continue };
        let run = if rng.below(8) == 0 {
            2 + rng.below(30)
        } else {
            1
        };
        for _ in 0..run {
            s.push(c);
        }
    }
    if k.is_multiple_of(9) {
        // A long word: just under, at and over the limit.
        let n = 95 + rng.below(12);
        s.push(' ');
        s.extend(std::iter::repeat_n('a', n));
    }
    s
}

/// The texts every run has: empty, special tokens, accents, CJK, control
/// characters, and words at WordPiece's 100-character limit.
fn fixed_texts() -> Vec<String> {
    let mut out: Vec<String> = [
        "",
        " ",
        "unaffable Unaffable UNAFFABLE",
        "[CLS] hello [SEP] [MASK] [UNK]x [PAD]",
        "café cafe\u{301} CAFÉ naïve Ångström İstanbul ß ẞ",
        "don't ... !!! ?!? ,,, --- ((( ))) $$$ ^^^ ```",
        "中文字符 日本語 한국어",
        "\u{0}\u{1}\u{7f}x\u{85}\u{ad}y\u{200b}z",
        "\n\n line\r\n\tend",
    ]
    .map(String::from)
    .into();
    out.push("x".repeat(100));
    out.push("x".repeat(101));
    out.push(format!("{} {}", "é".repeat(100), "é".repeat(101)));
    out
}
