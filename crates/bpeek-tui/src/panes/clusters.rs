//! Grapheme clusters as `unicode-segmentation` finds them, but a byte at a
//! time through ASCII, where every frame of the explorer spends most of
//! its time: two ASCII characters side by side always have a cluster
//! boundary between them (CR LF aside), so only the stretches around
//! other characters need the full rules.

use unicode_segmentation::{GraphemeIndices, UnicodeSegmentation};

/// The clusters of `s` with their byte offsets, exactly
/// `s.grapheme_indices(true)`.
pub fn clusters(s: &str) -> Clusters<'_> {
    Clusters {
        s,
        at: 0,
        slow: None,
    }
}

pub struct Clusters<'a> {
    s: &'a str,
    at: usize,
    /// A stretch the full rules cut, and where it starts in `s`.
    slow: Option<(usize, GraphemeIndices<'a>)>,
}

/// A boundary surely lies between bytes `p - 1` and `p`.
fn sure_boundary(bytes: &[u8], p: usize) -> bool {
    let (a, b) = (bytes[p - 1], bytes[p]);
    a.is_ascii() && b.is_ascii() && !(a == b'\r' && b == b'\n')
}

impl<'a> Iterator for Clusters<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        if let Some((base, slow)) = &mut self.slow {
            if let Some((i, g)) = slow.next() {
                return Some((*base + i, g));
            }
            self.slow = None;
        }
        let bytes = self.s.as_bytes();
        let at = self.at;
        if at >= bytes.len() {
            return None;
        }
        if at + 1 == bytes.len() && bytes[at].is_ascii()
            || at + 1 < bytes.len() && sure_boundary(bytes, at + 1)
        {
            self.at = at + 1;
            return Some((at, &self.s[at..at + 1]));
        }
        // Up to the next sure boundary, the full rules.
        let end = (at + 1..bytes.len())
            .find(|&p| sure_boundary(bytes, p))
            .unwrap_or(bytes.len());
        self.at = end;
        self.slow = Some((at, self.s[at..end].grapheme_indices(true)));
        self.next()
    }
}

/// The one-character string of an ASCII byte, without allocating.
pub fn ascii_str(b: u8) -> Option<&'static str> {
    const ALL: &str = "\u{0}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{f}\
        \u{10}\u{11}\u{12}\u{13}\u{14}\u{15}\u{16}\u{17}\u{18}\u{19}\u{1a}\u{1b}\u{1c}\u{1d}\u{1e}\u{1f} \
        !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\u{7f}";
    let i = usize::from(b);
    ALL.get(i..i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_as_the_full_rules(s: &str) {
        let fast: Vec<_> = clusters(s).collect();
        let full: Vec<_> = s.grapheme_indices(true).collect();
        assert_eq!(fast, full, "{s:?}");
    }

    #[test]
    fn cuts_every_script_as_unicode_segmentation_does() {
        for s in [
            "",
            "a",
            "plain ascii, with punctuation.\n",
            "line\r\nbreaks\r\n\r\r\n\n",
            "e\u{301}te\u{301}",
            "\u{301}leading mark",
            "हमारे शहर का पुस्तकालय",
            "👩‍👩‍👧 family, 🇫🇷🇩🇪 flags, 🇫x",
            "\u{600}1 prepend, a\u{200d}b",
            "日本語のテキスト and mixed 한국어",
            "\u{0}\u{1b}[31m control",
        ] {
            same_as_the_full_rules(s);
        }
    }

    #[test]
    fn cuts_random_text_as_unicode_segmentation_does() {
        let pieces = [
            "a", " ", "\r", "\n", "e", "\u{301}", "\u{200d}", "👩", "🇫", "🇷", "ह", "\u{94d}",
            "\u{600}", "1", "\u{fe0f}", "\t",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut s = String::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            seed = seed.wrapping_add(1);
            same_as_the_full_rules(&s);
        }
    }

    #[test]
    fn every_ascii_byte_has_its_string() {
        for b in 0..128u8 {
            assert_eq!(ascii_str(b).map(|s| s.as_bytes()), Some(&[b][..]));
        }
        assert_eq!(ascii_str(0x80), None);
    }
}
