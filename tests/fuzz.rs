//! A deterministic mutation fuzzer that runs on stable Rust, as a test.
//!
//! Every loader (bpeek JSON, `.tiktoken`, GPT-2's `encoder.json` +
//! `vocab.bpe`, Hugging Face `tokenizer.json`) is given valid files mutated
//! at random: bytes flipped, inserted, deleted and repeated, numbers
//! replaced by boundary values, lines swapped and JSON punctuation dropped
//! in. A load may fail, but with an error: never a panic, never an abort,
//! never more memory than [`MEMORY_BOUND`]. Every tokenizer that loads, and
//! the built-in ones, must give back any bytes it encodes:
//! `decode(encode(s)) == s`, with and without special tokens.
//!
//! `cargo test --release --test fuzz` runs a bounded number of cases (the
//! seed is fixed, so a failure repeats). `BPEEK_FUZZ_ITERATIONS=N` runs N
//! cases per loader instead, and `BPEEK_FUZZ_SEED=S` other cases.

mod common;

use base64::Engine;
use bpeek::bpe::formats::{builtin, byte_unicode, import, tokenizer_file};
use bpeek::bpe::normalize::added::AddedToken;
use bpeek::bpe::{Mode, Tokenizer, Trainer, TrainerConfig};
use common::Rng;
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most memory one case may hold at once.
const MEMORY_BOUND: usize = 1 << 30;
const DEFAULT_ITERATIONS: usize = 4_000;

/// The system allocator, counting what is held and the most ever held.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now = HELD.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn iterations() -> usize {
    std::env::var("BPEEK_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_ITERATIONS)
}

fn seed() -> u64 {
    std::env::var("BPEEK_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8)
}

const BOUNDARY_NUMBERS: &[&str] = &[
    "0",
    "1",
    "255",
    "256",
    "257",
    "65535",
    "4194303",
    "4194304",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "1e9",
    "0.5",
    "99999999999999999999999999",
];
const PUNCTUATION: &[&str] = &[
    "[", "]", "{", "}", ",", "\"", ":", "\n", " ", "null", "true", "\\u0000", "\u{feff}", "=",
];

/// Change `text` in one to four places.
fn mutate(rng: &mut Rng, text: &[u8]) -> Vec<u8> {
    let mut t = text.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(t.len() + 1);
        match rng.below(8) {
            0 if !t.is_empty() => {
                let i = rng.below(t.len());
                t[i] ^= 1 << rng.below(8);
            }
            1 => t.insert(at, rng.next() as u8),
            2 => {
                let end = (at + 1 + rng.below(16)).min(t.len());
                t.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(t.len());
                let piece = t[at.min(end)..end].to_vec();
                let to = rng.below(t.len() + 1);
                t.splice(to..to, piece);
            }
            4 => {
                // Replace the number at or after `at` with a boundary value.
                let start = (at..t.len()).find(|&i| t[i].is_ascii_digit());
                if let Some(start) = start {
                    let end = (start..t.len())
                        .find(|&i| !t[i].is_ascii_digit())
                        .unwrap_or(t.len());
                    let n = BOUNDARY_NUMBERS[rng.below(BOUNDARY_NUMBERS.len())];
                    t.splice(start..end, n.bytes());
                }
            }
            5 => {
                let p = PUNCTUATION[rng.below(PUNCTUATION.len())];
                t.splice(at..at, p.bytes());
            }
            6 => {
                // Swap two lines.
                let lines: Vec<&[u8]> = t.split(|&b| b == b'\n').collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut lines: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                    lines.swap(a, b);
                    t = lines.join(&b'\n');
                }
            }
            _ => {
                // Repeat a line somewhere else (a duplicate rank, merge or id).
                let lines: Vec<&[u8]> = t.split(|&b| b == b'\n').collect();
                if lines.len() > 1 {
                    let line = lines[rng.below(lines.len())].to_vec();
                    let mut lines: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                    lines.insert(rng.below(lines.len() + 1), line);
                    t = lines.join(&b'\n');
                }
            }
        }
    }
    t
}

/// Texts to encode: the samples, pieces of them, and arbitrary bytes.
fn texts(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![Vec::new()];
    let samples: Vec<&str> = bpeek::corpora::SAMPLES.iter().map(|s| s.text).collect();
    for _ in 0..3 {
        let s = samples[rng.below(samples.len())].as_bytes();
        let a = rng.below(s.len());
        let b = (a + rng.below(200)).min(s.len());
        out.push(s[a..b].to_vec());
    }
    let n = rng.below(100);
    out.push((0..n).map(|_| rng.next() as u8).collect());
    // Runs, digits, whitespace and special-token look-alikes.
    let pieces: &[&str] = &[
        "aaaa",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        "12345",
        "<|endoftext|>",
        "é",
        "e\u{301}",
        "👨\u{200d}👩",
        "日本",
        "\u{feff}",
        "'s",
        "ab",
    ];
    let mut mixed = String::new();
    for _ in 0..rng.below(30) {
        mixed.push_str(pieces[rng.below(pieces.len())]);
    }
    out.push(mixed.into_bytes());
    out
}

/// `text` without the bytes a byte-level tokenizer has no token for; with
/// `allow_special`, a special token's text (the longest that starts at a
/// place, leftmost first) is one token and keeps every byte, as the library
/// keeps them: only the bytes the model is given can be dropped.
fn kept_bytes(tok: &Tokenizer, text: &[u8], allow_special: bool) -> Vec<u8> {
    if !tok.drops_bytes() {
        return text.to_vec();
    }
    let has_token = |b: u8| !tok.encode_bytes(&[b], false).unwrap().is_empty();
    let special_at = |at: usize| {
        tok.specials()
            .iter()
            .map(|s| s.text.as_bytes())
            .filter(|s| allow_special && !s.is_empty() && text[at..].starts_with(s))
            .map(<[u8]>::len)
            .max()
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        if let Some(len) = special_at(at) {
            out.extend_from_slice(&text[at..at + len]);
            at += len;
            continue;
        }
        if has_token(text[at]) {
            out.push(text[at]);
        }
        at += 1;
    }
    out
}

/// Encoding covers the text and decoding gives back its bytes as the
/// library would (byte-level tokenizers); other kinds must encode and
/// decode without failing.
fn assert_round_trips(tok: &Tokenizer, rng: &mut Rng, what: &str) {
    for text in texts(rng) {
        for allow_special in [false, true] {
            let encoded = tok.encode_bytes(&text, allow_special);
            if tok.mode() == Mode::Char || tok.is_piece_model() || tok.rewrites_text() {
                // Char mode reads UTF-8 only, and joins words with one
                // space; a model of pieces (a mutated file may become BPE
                // on characters) may drop what it has no token for; a
                // file's own steps may put a space in front or lowercase.
                if let Ok(ids) = encoded {
                    let _ = tok.decode_bytes(&ids);
                    assert_lengths_as_read(tok, &ids, what);
                }
                continue;
            }
            let ids = encoded.unwrap();
            assert_lengths_as_read(tok, &ids, what);
            // The tokens cover the text exactly, in order, but for the
            // bytes the vocabulary has no token for (dropped, as the library
            // drops them).
            let joined: Vec<u8> = ids.iter().flat_map(|&id| tok.describe(id).bytes).collect();
            assert_eq!(
                joined,
                kept_bytes(tok, &text, allow_special),
                "{what}: the tokens of {text:?}"
            );
            let back = tok.decode_bytes(&ids).unwrap();
            assert_eq!(
                back,
                decoded_as_the_library(tok, &ids),
                "{what}: decode of {text:?}"
            );
        }
    }
}

/// A file's `truncation` and `padding` applied to `ids` (with and without
/// the template) as a naive reference applies them: cut to `max_length`
/// (less the template's tokens when they fit), then padded to the fixed
/// length rounded up to the multiple; an unread template or OnlySecond on
/// a text that needs cutting is an error, never a panic.
fn assert_lengths_as_read(tok: &Tokenizer, ids: &[u32], what: &str) {
    use bpeek::bpe::post::Template;
    use bpeek::bpe::post::length::Side;
    for add in [false, true] {
        let got = tok.as_file_encodes(ids.to_vec(), add);
        let Some(rules) = tok.length_rules() else {
            continue;
        };
        let around = match (add, tok.template()) {
            (true, Some(Template::Around { before, after })) => Some((before, after)),
            (true, Some(Template::Unsupported(_))) => {
                assert!(got.is_err(), "{what}: an unread template applied");
                continue;
            }
            _ => None,
        };
        let mut want: Vec<u32> = ids.to_vec();
        if let Some(t) = &rules.truncation {
            let room = match around {
                Some((b, a)) => t.max_length.checked_sub(b.len() + a.len()),
                None => Some(t.max_length),
            };
            if let Some(room) = room.filter(|&r| r < want.len()) {
                if t.only_second {
                    assert!(got.is_err(), "{what}: OnlySecond cut a single text");
                    continue;
                }
                want = match t.side {
                    Side::Right => want[..room].to_vec(),
                    Side::Left => want[want.len() - room..].to_vec(),
                };
            }
        }
        if let Some((b, a)) = around {
            want = b.iter().chain(&want).chain(a.iter()).copied().collect();
        }
        if let Some(p) = &rules.padding {
            let mut target = p.length.unwrap_or(want.len());
            if let Some(m) = p.multiple.filter(|&m| m > 0) {
                target = target.div_ceil(m) * m;
            }
            if want.len() < target {
                let pad = vec![p.pad_id; target - want.len()];
                want = match p.side {
                    Side::Right => [want, pad].concat(),
                    Side::Left => [pad, want].concat(),
                };
            }
        }
        assert_eq!(
            got.unwrap(),
            want,
            "{what}: truncation and padding of {ids:?}"
        );
    }
}

/// What decoding `ids` gives: their bytes, except in a Hugging Face file
/// with added tokens, decoded as the library's `decode` does by default
/// (special tokens left out, an added token's text read through the byte
/// alphabet when every character of it is in it).
fn decoded_as_the_library(tok: &Tokenizer, ids: &[u32]) -> Vec<u8> {
    if tok.decodes_through_steps() {
        // No decoder (the seeds' other decoders all are `ByteLevel`): the
        // library joins the tokens' byte-level spellings with spaces.
        return spellings_joined(tok, ids).into_bytes();
    }
    let mut out = Vec::new();
    for &id in ids {
        match added_token(tok, id) {
            Some(t) if t.special => {}
            Some(t) => match byte_unicode::decode(&t.text) {
                Ok(bytes) => out.extend(bytes),
                Err(_) => out.extend_from_slice(t.text.as_bytes()),
            },
            None => out.extend(tok.describe(id).bytes),
        }
    }
    out
}

/// The added token `id` of `tok`'s file, if it is one.
fn added_token(tok: &Tokenizer, id: u32) -> Option<&AddedToken> {
    tok.added()?.tokens().iter().find(|t| t.id == id)
}

/// The texts of `ids` as a byte-level file's tokens are spelled (an
/// added token as its text), special tokens left out, joined by spaces.
fn spellings_joined(tok: &Tokenizer, ids: &[u32]) -> String {
    let mut words = Vec::new();
    for &id in ids {
        match added_token(tok, id) {
            Some(t) if t.special => {}
            Some(t) => words.push(t.text.clone()),
            None if tok.describe(id).special => {}
            None => words.push(
                tok.describe(id)
                    .bytes
                    .iter()
                    .map(|&b| byte_unicode::byte_chars()[b as usize])
                    .collect(),
            ),
        }
    }
    words.join(" ")
}

/// Run `load` on `n` mutations of `seed_text`; return how many loaded.
fn fuzz_loader(
    name: &str,
    seed_text: &[u8],
    n: usize,
    rng: &mut Rng,
    load: impl Fn(&str) -> Option<Tokenizer>,
) -> usize {
    // The valid file itself loads.
    let valid = load(std::str::from_utf8(seed_text).unwrap())
        .unwrap_or_else(|| panic!("{name}: the valid file does not load"));
    assert_round_trips(&valid, rng, name);
    drop(valid);
    let mut loaded = 0;
    for case in 0..n {
        let input = mutate(rng, seed_text);
        let text = String::from_utf8_lossy(&input);
        let base = HELD.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| load(&text)));
        let Ok(tok) = result else {
            panic!("{name}: case {case} panicked on:\n{text}");
        };
        let used = PEAK.load(Ordering::Relaxed).saturating_sub(base);
        assert!(
            used < MEMORY_BOUND,
            "{name}: case {case} held {used} bytes on:\n{text}"
        );
        if let Some(tok) = tok {
            loaded += 1;
            assert_round_trips(&tok, rng, &format!("{name} case {case}"));
        }
    }
    loaded
}

/// A small tokenizer trained on the samples: the valid file every mutation
/// starts from.
fn trained(mode: Mode) -> Tokenizer {
    let text: String = bpeek::corpora::SAMPLES[..4]
        .iter()
        .map(|s| s.text)
        .collect();
    let config = TrainerConfig {
        mode,
        max_merges: Some(120),
        ..Default::default()
    };
    let mut trainer = Trainer::new(text.into_bytes(), config).unwrap();
    trainer.run();
    trainer
        .tokenizer()
        .with_specials(&["<|endoftext|>".to_string()])
}

fn printable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| byte_unicode::byte_chars()[b as usize])
        .collect()
}

fn vocab_strings(tok: &Tokenizer) -> serde_json::Map<String, Value> {
    (0..tok.vocab().len() as u32)
        .map(|id| (printable(tok.vocab().token_bytes(id)), json!(id)))
        .collect()
}

fn merge_strings(tok: &Tokenizer) -> Vec<String> {
    let show = |id| printable(tok.vocab().token_bytes(id));
    tok.merges()
        .iter()
        .map(|m| format!("{} {}", show(m.pair.0), show(m.pair.1)))
        .collect()
}

#[test]
fn bpeek_tokenizer_files() {
    let mut rng = Rng(seed());
    for mode in [Mode::Byte, Mode::Char] {
        let file = serde_json::to_string_pretty(&tokenizer_file::to_json(&trained(mode))).unwrap();
        let n = iterations();
        let loaded = fuzz_loader("bpeek JSON", file.as_bytes(), n, &mut rng, |t| {
            tokenizer_file::from_json_str(t).ok()
        });
        println!("bpeek JSON ({mode}): {n} cases, {loaded} loaded");
    }
}

#[test]
fn tiktoken_rank_files() {
    let mut rng = Rng(seed() + 1);
    let tok = trained(Mode::Byte);
    let file: String = (0..tok.vocab().len() as u32)
        .map(|id| {
            let b64 = base64::engine::general_purpose::STANDARD.encode(tok.vocab().token_bytes(id));
            format!("{b64} {id}\n")
        })
        .collect();
    let n = iterations();
    let loaded = fuzz_loader(".tiktoken", file.as_bytes(), n, &mut rng, |t| {
        import::tiktoken("t.tiktoken", t, bpeek::bpe::Pretok::Gpt2).ok()
    });
    println!(".tiktoken: {n} cases, {loaded} loaded");
}

#[test]
fn gpt2_encoder_and_vocab_files() {
    let mut rng = Rng(seed() + 2);
    let tok = trained(Mode::Byte);
    let mut encoder = vocab_strings(&tok);
    encoder.insert("<|endoftext|>".into(), json!(tok.vocab().len()));
    let encoder = serde_json::to_string_pretty(&Value::Object(encoder)).unwrap();
    let bpe = format!("#version: 0.2\n{}\n", merge_strings(&tok).join("\n"));
    let n = iterations() / 2;
    let loaded_enc = fuzz_loader("encoder.json", encoder.as_bytes(), n, &mut rng, |t| {
        import::gpt2_files("gpt2", t, &bpe).ok()
    });
    let loaded_bpe = fuzz_loader("vocab.bpe", bpe.as_bytes(), n, &mut rng, |t| {
        import::gpt2_files("gpt2", &encoder, t).ok()
    });
    println!("GPT-2: {} cases, {} loaded", 2 * n, loaded_enc + loaded_bpe);
}

#[test]
fn hugging_face_files() {
    let mut rng = Rng(seed() + 3);
    let tok = trained(Mode::Byte);
    let special = tok.vocab().len();
    let doc = json!({
        "version": "1.0",
        "added_tokens": [{"id": special, "content": "<|endoftext|>", "special": true}],
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": vocab_strings(&tok), "merges": merge_strings(&tok)},
    });
    let file = serde_json::to_string_pretty(&doc).unwrap();
    let n = iterations();
    let loaded = fuzz_loader("tokenizer.json", file.as_bytes(), n, &mut rng, |t| {
        let doc: Value = serde_json::from_str(t).ok()?;
        import::hugging_face("tokenizer.json", &doc).ok()
    });
    println!("Hugging Face: {n} cases, {loaded} loaded");
}

/// A WordLevel file with truncation (OnlySecond), padding, a template and
/// a CTC decoder.
fn wordlevel_seed() -> Value {
    json!({
        "truncation": {"direction": "Right", "max_length": 5, "strategy": "OnlySecond",
                       "stride": 1},
        "padding": {"strategy": "BatchLongest", "direction": "Left", "pad_to_multiple_of": 3,
                    "pad_id": 2, "pad_type_id": 0, "pad_token": "a"},
        "post_processor": {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<unk>", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [], "special_tokens": {"<unk>": {"id": "<unk>", "ids": [0], "tokens": ["<unk>"]}}},
        "decoder": {"type": "CTC", "pad_token": "<unk>", "word_delimiter_token": "a",
                    "cleanup": true},
        "normalizer": {"type": "NFKD"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Whitespace"}, {"type": "Digits", "individual_digits": false}]},
        "model": {"type": "WordLevel", "unk_token": "<unk>",
                  "vocab": {"<unk>": 0, "the": 1, "a": 2, "12": 3}},
    })
}

/// A WordPiece file decoding through a Sequence that ends in CTC.
fn wordpiece_seed() -> Value {
    json!({
        "normalizer": {"type": "BertNormalizer", "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Metaspace", "replacement": "\u{2581}", "prepend_scheme": "always",
             "split": true},
            {"type": "WordPiece", "prefix": "##", "cleanup": false},
            {"type": "Strip", "content": " ", "start": 1, "stop": 1},
            {"type": "CTC", "pad_token": "[PAD]", "word_delimiter_token": "|",
             "cleanup": true}]},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100,
                  "vocab": {"[UNK]": 0, "[PAD]": 1, "a": 2, "##b": 3, "|": 4, "the": 5}},
    })
}

/// Hugging Face files whose normalizer and pre-tokenizer run as their
/// own steps: BPE on characters, Unigram, WordLevel and byte-level BPE,
/// each with a long pipeline of regexes, character classes and Metaspace;
/// and a Unigram file with `unk_id: null` (texts with characters no piece
/// covers are refused, never a panic).
#[test]
fn hugging_face_pipelines() {
    let mut rng = Rng(seed() + 5);
    let n = iterations() / 2;
    let metaspace = json!({"type": "Metaspace", "replacement": "\u{2581}",
                           "prepend_scheme": "first", "split": true});
    let char_bpe = json!({
        "added_tokens": [{"id": 0, "content": "<unk>", "special": true, "normalized": false}],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFKC"}, {"type": "StripAccents"},
            {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": " "},
            {"type": "BertNormalizer", "lowercase": true, "strip_accents": null,
             "clean_text": true, "handle_chinese_chars": true},
            {"type": "Prepend", "prepend": "\u{2581}"}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": "\\p{N}{1,3}"}, "behavior": "Isolated",
             "invert": false},
            {"type": "Punctuation", "behavior": "MergedWithNext"},
            {"type": "Digits", "individual_digits": true}, {"type": "UnicodeScripts"},
            {"type": "CharDelimiterSplit", "delimiter": "-"}, metaspace]},
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u{2581}"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": true,
                  "fuse_unk": true, "continuing_subword_prefix": "##",
                  "end_of_word_suffix": "</w>",
                  "vocab": {"<unk>": 0, "\u{2581}": 1, "a": 2, "##b": 3, "\u{2581}a": 4,
                            "ab": 5, "\u{2581}ab": 6, "<0xC3>": 7, "<0xA9>": 8, "##b</w>": 9,
                            "\u{2581}ab</w>": 10, "##a": 11},
                  "merges": ["\u{2581} ##a", "a ##b", "\u{2581}a ##b", "\u{2581}a ##b</w>"]},
    });
    let unigram = json!({
        "added_tokens": [{"id": 0, "content": "<unk>", "special": true, "normalized": false},
                         {"id": 3, "content": "b", "special": false, "normalized": true},
                         {"id": 5, "content": "zz", "special": false, "normalized": true},
                         {"id": 6, "content": "<x>", "special": true, "normalized": false}],
        "truncation": {"direction": "Left", "max_length": 7, "strategy": "LongestFirst",
                       "stride": 0},
        "padding": {"strategy": {"Fixed": 9}, "direction": "Right", "pad_to_multiple_of": 4,
                    "pad_id": 0, "pad_type_id": 0, "pad_token": "<unk>"},
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            {"type": "Lowercase"}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "WhitespaceSplit"}, metaspace]},
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": false,
                  "vocab": [["<unk>", 0.0], ["\u{2581}", -1.0], ["a", -2.0], ["b", -2.5],
                            ["\u{2581}ab", -1.5]]},
    });
    // No unknown piece: a character no piece covers fails the encoding.
    let unigram_no_unknown = json!({
        "added_tokens": [{"id": 0, "content": "<s>", "special": true, "normalized": false}],
        "normalizer": {"type": "Lowercase"},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u{2581}",
                          "prepend_scheme": "always", "split": true},
        "decoder": {"type": "Metaspace", "replacement": "\u{2581}",
                    "prepend_scheme": "always", "split": true},
        "model": {"type": "Unigram", "unk_id": null, "byte_fallback": false,
                  "vocab": [["<s>", 0.0], ["\u{2581}", -1.0], ["a", -2.0], ["b", -2.5],
                            ["\u{2581}ab", -1.5], ["x", 20.0], ["xy", -0.5]]},
    });
    let tok = trained(Mode::Byte);
    let byte_level = json!({
        "normalizer": null,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Punctuation", "behavior": "Contiguous"},
            {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
            {"type": "Digits", "individual_digits": false},
            {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"}, "behavior": "Isolated",
             "invert": false}]},
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": vocab_strings(&tok), "merges": merge_strings(&tok)},
    });
    // Without a normalizer or a space put in front, the byte-level file's
    // own steps keep every byte.
    let valid = import::hugging_face("tokenizer.json", &byte_level).unwrap();
    for text in texts(&mut rng) {
        let ids = valid.encode_bytes(&text, false).unwrap();
        assert_eq!(valid.decode_bytes(&ids).unwrap(), text);
    }
    for (name, doc) in [
        ("BPE on characters", char_bpe),
        ("Unigram", unigram),
        ("Unigram without an unknown piece", unigram_no_unknown),
        ("WordLevel", wordlevel_seed()),
        ("WordPiece", wordpiece_seed()),
        ("byte-level BPE", byte_level),
    ] {
        let file = serde_json::to_string_pretty(&doc).unwrap();
        let loaded = fuzz_loader(name, file.as_bytes(), n, &mut rng, |t| {
            let doc: Value = serde_json::from_str(t).ok()?;
            import::hugging_face("tokenizer.json", &doc).ok()
        });
        println!("{name}: {n} cases, {loaded} loaded");
    }
}

#[test]
fn built_in_tokenizers_round_trip_arbitrary_bytes() {
    let mut rng = Rng(seed() + 4);
    for name in ["bytes", "gpt2", "cl100k", "o200k"] {
        let tok = builtin::load(name).unwrap();
        for _ in 0..iterations() / 10 {
            assert_round_trips(&tok, &mut rng, name);
        }
    }
}
