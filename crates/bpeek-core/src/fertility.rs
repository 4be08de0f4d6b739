//! What a text costs in tokens: bytes, characters and words per token, and
//! the premium against the English version of the same text.

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::models::spm::NoPiece;
use crate::pretokenize::pattern_work;
use crate::script::{self, Script};
use std::ops::Range;

/// One tokenizer on one text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    pub tokenizer: String,
    pub text: String,
    pub bytes: usize,
    pub chars: usize,
    pub words: usize,
    pub tokens: usize,
    /// Of those, `[UNK]`: characters a char-mode tokenizer never saw in
    /// training, each one token whatever its size (for a SentencePiece
    /// model without byte fallback, a run of them is one token).
    pub unknown: usize,
    /// Bytes of the text no token stands for: a byte-level file without a
    /// token for every byte drops them, as the library does (see
    /// [`Tokenizer::dropped_bytes`]); `bytes` still counts them.
    pub dropped: usize,
    /// tokens / tokens of the English version, for the same tokenizer.
    pub premium: Option<f64>,
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

impl Row {
    pub fn bytes_per_token(&self) -> Option<f64> {
        ratio(self.bytes, self.tokens)
    }

    pub fn chars_per_token(&self) -> Option<f64> {
        ratio(self.chars, self.tokens)
    }

    pub fn tokens_per_word(&self) -> Option<f64> {
        ratio(self.tokens, self.words)
    }

    /// The share of the tokens that are `[UNK]`, if any are.
    pub fn unknown_share(&self) -> Option<f64> {
        (self.unknown > 0).then(|| self.unknown as f64 / self.tokens as f64)
    }
}

/// How many of `ids` (an encoding by `tok`) are `[UNK]`.
pub fn unknown_in(tok: &Tokenizer, ids: &[TokenId]) -> usize {
    ids.iter().filter(|&&id| tok.is_unknown(id)).count()
}

/// Encode `text` with `tok` and count.
pub fn measure(tok: &Tokenizer, label: &str, text: &str) -> Row {
    measured(tok, label, text, &tok.encode(text, false))
}

/// The row of `text` encoded as `ids`.
pub fn measured(tok: &Tokenizer, label: &str, text: &str, ids: &[TokenId]) -> Row {
    Row {
        tokenizer: tok.name().to_string(),
        text: label.to_string(),
        bytes: text.len(),
        chars: text.chars().count(),
        words: script::count_words(text),
        tokens: ids.len(),
        unknown: unknown_in(tok, ids),
        dropped: tok.dropped_bytes(text),
        premium: None,
    }
}

/// Fill in each row's premium against the row of the same tokenizer whose
/// text is `english`.
pub fn add_premiums(rows: &mut [Row], english: &str) {
    let base: Vec<(String, usize)> = rows
        .iter()
        .filter(|r| r.text == english)
        .map(|r| (r.tokenizer.clone(), r.tokens))
        .collect();
    for row in rows.iter_mut() {
        if let Some((_, t)) = base.iter().find(|(name, _)| *name == row.tokenizer) {
            row.premium = ratio(row.tokens, *t);
        }
    }
}

/// Each token of an encoding with the byte range of the text it covers.
/// Byte-level tokens tile the text. Char-mode tokens cover their words'
/// characters; the whitespace between words belongs to no token, and a lone
/// `</w>` covers nothing (an empty range at the end of its word).
pub fn token_spans(tok: &Tokenizer, text: &str) -> Vec<(TokenId, Range<usize>)> {
    if let Some(spm) = tok.sentencepiece() {
        if spm.hf_text.is_some() {
            return model_spans(tok, text, |t, at_start, ids, spans| {
                spm.encode_piece(t.as_bytes(), at_start, ids, Some(spans))
            });
        }
        return spm_spans(spm, text);
    }
    if let Some(wp) = tok.wordpiece() {
        return model_spans(tok, text, |t, at_start, ids, spans| {
            wp.encode_piece(t, at_start, ids, Some(spans));
            Ok(())
        });
    }
    if let Some(m) = tok.char_bpe() {
        return model_spans(tok, text, |t, at_start, ids, spans| {
            m.encode_piece(t, at_start, ids, Some(spans));
            Ok(())
        });
    }
    if tok.mode() == crate::Mode::Char {
        return char_mode_spans(tok, text);
    }
    if tok.rewrites_text() {
        return model_spans(tok, text, |t, at_start, ids, spans| {
            tok.encode_steps_piece(t, at_start, ids, spans);
            Ok(())
        });
    }
    let mut at = 0;
    tok.encode(text, false)
        .into_iter()
        .map(|id| {
            // A normalizer (NFC) can make the encoded text longer or
            // shorter than the text: the spans stay inside it, in order.
            let len = tok.describe(id).bytes.len();
            let start = at.min(text.len());
            let span = start..(at + len).min(text.len());
            at += len;
            (id, span)
        })
        .collect()
}

/// SentencePiece tokens cover the text they were normalized from; a
/// character given as bytes belongs to its last byte's token, and the dummy
/// `▁` in front covers nothing of its own.
fn spm_spans(spm: &crate::models::spm::SpmModel, text: &str) -> Vec<(TokenId, Range<usize>)> {
    let mut ids = Vec::new();
    let mut spans = Vec::new();
    if let Err(missing) = spm.encode(text.as_bytes(), &mut ids, Some(&mut spans)) {
        pattern_work::note(missing.error(text.as_bytes(), Some(0)));
    }
    ids.into_iter().zip(spans).collect()
}

/// The tokens of a model that encodes on its own (WordPiece, BPE on
/// characters) cover the characters they were made from; added tokens
/// matched whole cover their own text. A character a model with no unknown
/// piece fails on goes to the [`pattern_work::watch`] around.
fn model_spans(
    tok: &Tokenizer,
    text: &str,
    encode: impl Fn(&str, bool, &mut Vec<TokenId>, &mut Vec<Range<usize>>) -> Result<(), NoPiece>,
) -> Vec<(TokenId, Range<usize>)> {
    let mut out = Vec::new();
    let failed = |t: &str, at: usize, missing: NoPiece| {
        pattern_work::note(missing.error(t.as_bytes(), Some(at)));
    };
    let Some(added) = tok.added() else {
        let mut ids = Vec::new();
        let mut spans = Vec::new();
        if let Err(missing) = encode(text, true, &mut ids, &mut spans) {
            failed(text, 0, missing);
        }
        return ids.into_iter().zip(spans).collect();
    };
    let mut at = 0;
    added.split(text, false, &mut |piece| match piece {
        crate::normalize::added::AddedPiece::Token(id) => {
            let len = tok.bytes_of(id).len();
            out.push((id, at..(at + len).min(text.len())));
            at += len;
        }
        crate::normalize::added::AddedPiece::Text(t) => {
            let mut ids = Vec::new();
            let mut spans = Vec::new();
            if let Err(missing) = encode(&t, at == 0, &mut ids, &mut spans) {
                failed(&t, at, missing);
            }
            out.extend(
                ids.into_iter()
                    .zip(spans)
                    .map(|(id, r)| (id, r.start + at..r.end + at)),
            );
            at += t.len();
        }
    });
    // Whitespace an added token takes in beside it is not counted above:
    // keep every range inside the text.
    for (_, r) in &mut out {
        r.end = r.end.min(text.len());
        r.start = r.start.min(r.end);
    }
    out
}

fn char_mode_spans(tok: &Tokenizer, text: &str) -> Vec<(TokenId, Range<usize>)> {
    let vocab = tok.vocab();
    let mut out = Vec::new();
    for (start, word) in words_with_offsets(text) {
        let mut chars = word
            .char_indices()
            .map(|(i, _)| start + i)
            .chain([start + word.len()]);
        let mut at = chars.next().unwrap_or(start);
        for id in tok.encode(word, false) {
            // Base symbols count once each; the end-of-word marker is no character.
            let n = vocab.units(id) as usize - usize::from(vocab.ends_word(id));
            let from = at;
            for _ in 0..n {
                at = chars.next().unwrap_or(at);
            }
            out.push((id, from..at));
        }
    }
    out
}

/// The whitespace-separated words of `text`, with their byte offsets.
fn words_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// One script's share of a mixed text.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptShare {
    pub script: Script,
    /// Bytes of the text in runs of this script.
    pub bytes: usize,
    /// Tokens given to this script.
    pub tokens: usize,
    /// The bytes of those tokens (a space inside a token counts here).
    pub token_bytes: usize,
}

impl ScriptShare {
    /// Bytes per token of the tokens given to this script, so a token's
    /// bytes and the token itself are always counted in the same row.
    pub fn bytes_per_token(&self) -> Option<f64> {
        ratio(self.token_bytes, self.tokens)
    }
}

/// Split `text` into script runs and give each token to the script that
/// holds most of its bytes other than whitespace (a tie goes to the later
/// one), so ` мир` counts as Cyrillic, space included; a token of only
/// whitespace counts as whitespace. Scripts are listed in order of
/// appearance.
pub fn script_shares(tok: &Tokenizer, text: &str) -> Vec<ScriptShare> {
    shares_of(text, token_spans(tok, text))
}

/// [`script_shares`] of the part `from..to` of `text` as its tokens are
/// in the whole text (`from` and `to` cuts of
/// [`crate::line_cuts`]); `None` where the tokens do not tile it.
pub fn script_shares_between(
    tok: &Tokenizer,
    text: &str,
    from: usize,
    to: usize,
) -> Option<Vec<ScriptShare>> {
    let ids = crate::line_cuts::tokens_between(tok, text, from, to)?;
    let spans = crate::line_cuts::spans_from(tok, 0, &ids);
    Some(shares_of(
        &text[from..to],
        ids.into_iter().zip(spans).collect(),
    ))
}

/// Add `more` (a later part's shares) to `shares`, keeping the order in
/// which scripts first appear.
pub fn add_shares(shares: &mut Vec<ScriptShare>, more: Vec<ScriptShare>) {
    for m in more {
        match shares.iter_mut().find(|x| x.script == m.script) {
            Some(x) => {
                x.bytes += m.bytes;
                x.tokens += m.tokens;
                x.token_bytes += m.token_bytes;
            }
            None => shares.push(m),
        }
    }
}

/// Each script's share of `text` and of the tokens `spans` (each token
/// with the bytes it stands for), in the order scripts first appear.
pub fn shares_of(text: &str, spans: Vec<(TokenId, Range<usize>)>) -> Vec<ScriptShare> {
    let runs = script::runs(text);

    let mut shares: Vec<ScriptShare> = Vec::new();
    let share_of = |s: Script, shares: &mut Vec<ScriptShare>| -> usize {
        match shares.iter().position(|x| x.script == s) {
            Some(i) => i,
            None => {
                shares.push(ScriptShare {
                    script: s,
                    bytes: 0,
                    tokens: 0,
                    token_bytes: 0,
                });
                shares.len() - 1
            }
        }
    };
    for (s, r) in &runs {
        let i = share_of(*s, &mut shares);
        shares[i].bytes += r.len();
    }
    let mut k = 0;
    for (_, span) in spans {
        while k < runs.len() && runs[k].1.end <= span.start {
            k += 1;
        }
        if span.is_empty() {
            // A lone `</w>` (char mode) goes with the character before it.
            if let Some((s, _)) = runs.iter().find(|(_, r)| r.end == span.start) {
                let i = share_of(*s, &mut shares);
                shares[i].tokens += 1;
            }
            continue;
        }
        let mut best: Option<(Script, usize)> = None;
        let mut j = k;
        while j < runs.len() && runs[j].1.start < span.end {
            let r = &runs[j].1;
            let overlap = r.end.min(span.end) - r.start.max(span.start);
            // Whitespace wins only a token that holds nothing else.
            let weight = if runs[j].0 == Script::Whitespace {
                0
            } else {
                overlap
            };
            if best.is_none_or(|(_, o)| weight >= o) {
                best = Some((runs[j].0, weight));
            }
            j += 1;
        }
        if let Some((s, _)) = best {
            let i = share_of(s, &mut shares);
            shares[i].tokens += 1;
            shares[i].token_bytes += span.len();
        }
    }
    shares
}

/// The numbers the digit panel shows: 1 to 20 digits, decimals, years,
/// phone numbers and long runs.
pub fn number_examples() -> Vec<String> {
    labelled_numbers().into_iter().map(|(_, n)| n).collect()
}

/// The number examples, each with what kind of number it is.
pub fn labelled_numbers() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = (1..=20)
        .map(|n| {
            let label = if n == 1 {
                "1 digit".to_string()
            } else {
                format!("{n} digits")
            };
            (label, "12345678901234567890"[..n].to_string())
        })
        .collect();
    v.extend(
        [
            // Each label says its own row (at most 10 columns).
            ("decimal pi", "3.14159"),
            ("tiny 0.001", "0.001"),
            ("thousands", "1,234,567.89"),
            ("year 1999", "1999"),
            ("year 2026", "2026"),
            ("phone", "+1 (555) 010-4477"),
            ("18 random", "832408345770928764"),
            ("a million", "1000000"),
            ("zeros", "0000000000"),
        ]
        .map(|(l, n)| (l.to_string(), n.to_string())),
    );
    v
}

/// How `tok` cuts `text`: the pieces in order.
pub fn pieces(tok: &Tokenizer, text: &str) -> Vec<Vec<u8>> {
    tok.encode(text, false)
        .into_iter()
        .map(|id| tok.describe(id).bytes)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_row_has_a_label_of_its_own_that_fits() {
        let labels: Vec<String> = labelled_numbers().into_iter().map(|(l, _)| l).collect();
        for (k, l) in labels.iter().enumerate() {
            assert!(!labels[..k].contains(l), "{l} twice");
            assert!(l.chars().count() <= 10, "{l}");
        }
    }

    #[test]
    fn counts_are_known_by_construction() {
        let bytes = Tokenizer::bytes_only();
        let row = measure(&bytes, "t", "ab cd é");
        assert_eq!((row.bytes, row.chars, row.words, row.tokens), (8, 7, 3, 8));
        assert_eq!(row.bytes_per_token(), Some(1.0));
        assert_eq!(row.tokens_per_word(), Some(8.0 / 3.0));
        let mut rows = vec![measure(&bytes, "en", "abcd"), measure(&bytes, "xx", "日本")];
        add_premiums(&mut rows, "en");
        assert_eq!(rows[0].premium, Some(1.0));
        assert_eq!(rows[1].premium, Some(1.5), "6 bytes against 4");
    }

    #[test]
    fn each_token_goes_to_the_script_holding_most_of_it() {
        let bytes = Tokenizer::bytes_only();
        let shares = script_shares(&bytes, "ab мир");
        let got: Vec<(Script, usize, usize)> = shares
            .iter()
            .map(|s| (s.script, s.bytes, s.tokens))
            .collect();
        assert_eq!(
            got,
            [
                (Script::Latin, 2, 2),
                (Script::Whitespace, 1, 1),
                (Script::Cyrillic, 6, 6)
            ]
        );
    }

    #[test]
    fn char_mode_tokens_are_placed_on_their_characters() {
        use crate::{Mode, Trainer, TrainerConfig};
        let config = TrainerConfig {
            mode: Mode::Char,
            max_merges: Some(3),
            ..Default::default()
        };
        let mut t = Trainer::new("ab ab ab".as_bytes().to_vec(), config).unwrap();
        t.run();
        let tok = t.tokenizer();
        // `ab</w>` is one token after three merges; `x` is unseen, then `</w>`.
        let spans: Vec<(usize, usize)> = token_spans(&tok, "ab  x")
            .into_iter()
            .map(|(_, r)| (r.start, r.end))
            .collect();
        assert_eq!(spans, [(0, 2), (4, 5), (5, 5)]);
        let shares = script_shares(&tok, "ab мир");
        let tokens: usize = shares.iter().map(|s| s.tokens).sum();
        assert_eq!(
            tokens,
            tok.encode("ab мир", false).len(),
            "every token is counted once"
        );
    }

    #[test]
    fn a_space_inside_a_token_counts_with_its_letters() {
        // With every byte a token, the space is a token of its own; with
        // merges that make " мир" one token, it goes to Cyrillic, space
        // included, and whitespace is left with no tokens.
        let bytes = Tokenizer::bytes_only();
        let text = "мир мир";
        let plain = script_shares(&bytes, text);
        let ws = plain
            .iter()
            .find(|s| s.script == Script::Whitespace)
            .unwrap();
        assert_eq!((ws.bytes, ws.tokens, ws.token_bytes), (1, 1, 1));

        use crate::{Pretok, Trainer, TrainerConfig};
        let config = TrainerConfig {
            pretok: Pretok::Gpt2,
            ..Default::default()
        };
        let mut t = Trainer::new(text.as_bytes().to_vec(), config).unwrap();
        t.run();
        let tok = t.tokenizer();
        assert_eq!(tok.encode(text, false).len(), 2, "мир and ' мир'");
        let shares = script_shares(&tok, text);
        let cyr = shares
            .iter()
            .find(|s| s.script == Script::Cyrillic)
            .unwrap();
        assert_eq!((cyr.bytes, cyr.tokens, cyr.token_bytes), (12, 2, 13));
        assert_eq!(cyr.bytes_per_token(), Some(6.5));
        let ws = shares
            .iter()
            .find(|s| s.script == Script::Whitespace)
            .unwrap();
        assert_eq!((ws.bytes, ws.tokens), (1, 0));
        assert_eq!(ws.bytes_per_token(), None);
    }
}
