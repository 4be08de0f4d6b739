//! A Hugging Face decoder chain: the steps a `tokenizer.json` names under
//! `decoder`, each run over the list of token texts as the library runs it.

/// A decoder step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeStep {
    Replace {
        from: String,
        to: String,
    },
    /// Runs of `<0xNN>` tokens as the text their bytes make.
    ByteFallback,
    /// All tokens as one.
    Fuse,
    /// Up to `start` copies of `content` off the front of each token and
    /// `stop` off its end.
    Strip {
        content: char,
        start: usize,
        stop: usize,
    },
    /// The mark as a space; in the first token, when a mark is put in
    /// front, every mark dropped.
    Metaspace {
        replacement: char,
        prepend: bool,
    },
    /// `BPEDecoder`: the end-of-word suffix as a space (nothing in the
    /// last token).
    WordEnds {
        suffix: String,
    },
    /// `WordPiece`: a token with the prefix joins the one before, any
    /// other gets a space before it; `cleanup` tidies spaces before
    /// punctuation.
    WordPiece {
        prefix: String,
        cleanup: bool,
    },
    /// `CTC`: runs of one token as one, `pad` taken out of each, and with
    /// `cleanup` the WordPiece tidying and `delimiter` as a space; a token
    /// left empty goes.
    Ctc {
        pad: String,
        delimiter: String,
        cleanup: bool,
    },
    /// `ByteLevel` (byte-level files, after other steps): every token's
    /// byte-level characters as the bytes they stand for, one token.
    ByteLevel,
}

/// The text of tokens whose texts are `tokens`, through `decoder`, a
/// Hugging Face decoder chain, step by step as the library runs it.
pub fn run(decoder: &[DecodeStep], tokens: Vec<String>) -> String {
    // Without a decoder the library joins the tokens with spaces.
    if decoder.is_empty() {
        return tokens.join(" ");
    }
    run_steps(decoder, tokens).concat()
}

/// The tokens `decoder`'s steps leave, in order.
fn run_steps(decoder: &[DecodeStep], mut tokens: Vec<String>) -> Vec<String> {
    for step in decoder {
        tokens = match step {
            DecodeStep::Replace { from, to } => tokens
                .into_iter()
                .map(|t| {
                    if from.is_empty() {
                        t
                    } else {
                        t.replace(from.as_str(), to)
                    }
                })
                .collect(),
            DecodeStep::ByteFallback => byte_fallback(tokens),
            DecodeStep::Fuse => vec![tokens.concat()],
            DecodeStep::Strip {
                content,
                start,
                stop,
            } => tokens
                .into_iter()
                .map(|t| strip(&t, *content, *start, *stop))
                .collect(),
            DecodeStep::Metaspace {
                replacement,
                prepend,
            } => tokens
                .into_iter()
                .enumerate()
                // In the first token every mark goes, not only the
                // one put in front: the library decodes so.
                .map(|(i, t)| {
                    t.chars()
                        .filter(|&c| !(i == 0 && *prepend && c == *replacement))
                        .map(|c| if c == *replacement { ' ' } else { c })
                        .collect()
                })
                .collect(),
            DecodeStep::WordEnds { suffix } => {
                let n = tokens.len();
                tokens
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        if suffix.is_empty() {
                            t
                        } else {
                            t.replace(suffix.as_str(), if i + 1 == n { "" } else { " " })
                        }
                    })
                    .collect()
            }
            DecodeStep::WordPiece { prefix, cleanup } => tokens
                .into_iter()
                .enumerate()
                .map(|(i, t)| {
                    let t = match t.strip_prefix(prefix.as_str()) {
                        _ if i == 0 => t,
                        Some(rest) => rest.to_string(),
                        None => format!(" {t}"),
                    };
                    if *cleanup {
                        crate::normalize::bert_text::cleanup(&t)
                    } else {
                        t
                    }
                })
                .collect(),
            DecodeStep::Ctc {
                pad,
                delimiter,
                cleanup,
            } => ctc(tokens, pad, delimiter, *cleanup),
            DecodeStep::ByteLevel => vec![byte_level(&tokens)],
        };
    }
    tokens
}

/// `ByteLevel`: each token's characters read through the byte-level
/// alphabet (the token's own UTF-8 where one of them is not in it), all
/// joined, the bytes as text (U+FFFD where they are not UTF-8).
fn byte_level(tokens: &[String]) -> String {
    let mut bytes = Vec::new();
    for t in tokens {
        match crate::formats::byte_unicode::decode(t) {
            Ok(b) => bytes.extend_from_slice(&b),
            Err(_) => bytes.extend_from_slice(t.as_bytes()),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn ctc(mut tokens: Vec<String>, pad: &str, delimiter: &str, cleanup: bool) -> Vec<String> {
    tokens.dedup();
    tokens
        .into_iter()
        .filter_map(|t| {
            let mut t = if pad.is_empty() {
                t
            } else {
                t.replace(pad, "")
            };
            if cleanup {
                t = crate::normalize::bert_text::cleanup(&t);
                if !delimiter.is_empty() {
                    t = t.replace(delimiter, " ");
                }
            }
            (!t.is_empty()).then_some(t)
        })
        .collect()
}

/// The byte of a `<0xNN>` token.
fn byte_token(t: &str) -> Option<u8> {
    let hex = t.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// Runs of byte tokens as the text they make, or U+FFFD for each byte
/// when they make no text.
fn byte_fallback(tokens: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut bytes = Vec::new();
    let flush = |bytes: &mut Vec<u8>, out: &mut Vec<String>| {
        if bytes.is_empty() {
            return;
        }
        match String::from_utf8(std::mem::take(bytes)) {
            Ok(s) => out.push(s),
            Err(e) => out.extend(std::iter::repeat_n(
                "\u{FFFD}".to_string(),
                e.as_bytes().len(),
            )),
        }
    };
    for t in tokens {
        match byte_token(&t) {
            Some(b) => bytes.push(b),
            None => {
                flush(&mut bytes, &mut out);
                out.push(t);
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

fn strip(t: &str, content: char, start: usize, stop: usize) -> String {
    let mut s = t;
    for _ in 0..start {
        match s.strip_prefix(content) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    for _ in 0..stop {
        match s.strip_suffix(content) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    s.to_string()
}
