//! The built-in GPT-2, cl100k and o200k tokenizers give exactly the ids of
//! `tiktoken-rs`, token for token, on a large text full of awkward cases.

use bpeek::bpe::Tokenizer;
use bpeek::bpe::formats::builtin;

/// At least 100 KB mixing scripts, code, digits, whitespace, emoji and odd
/// Unicode, ending in a run of 10,000 `a`.
fn awkward_text() -> String {
    let mut s = String::new();
    for sample in bpeek::corpora::SAMPLES {
        s.push_str(sample.text);
        s.push('\n');
    }
    s.push_str(bpeek::corpora::default_corpus().text);
    let code = "fn main() {\n    let xs: Vec<u32> = (0..10).map(|x| x * x).collect();\n\tprintln!(\"{xs:?}\"); // squares\n}\r\n";
    let odd = [
        "e\u{301}\u{302}\u{303} a\u{308}\u{304} combining",
        "👩‍👩‍👧‍👦 👍🏽 🏳️‍🌈 ❤️ ☺︎ 1️⃣",
        "zero\u{200b}width\u{200d}joiner\u{200c}non\u{feff}bom",
        "\u{200f}שלום\u{200e} abc \u{202e}reversed\u{202c}",
        "tabs\t\tand\r\nCRLF\r\nlines\r\n\r\n",
        "it's we'll they've I'M HE'S you'd 'tis",
        "Ünïcödé ÀÉÎÕÜ ǅ ǈ ß ẞ ﬁ ﬀ",
        "<|endoftext|> <|fim_prefix|> text that looks special",
    ];
    let mut digits = String::new();
    for n in 1..=40 {
        digits.push_str(&"9876543210".repeat(4)[..n]);
        digits.push(' ');
    }
    digits.push_str("3.14159 2026-11-29 +1 (555) 010-9999 0x7fff_ffff 1e-9 1,234,567.89 ");
    let mut i = 0;
    while s.len() < 110_000 {
        s.push_str(code);
        s.push_str(odd[i % odd.len()]);
        s.push_str(&digits);
        s.push_str(&" ".repeat(1 + i % 40));
        s.push_str(&"\n".repeat(1 + i % 3));
        s.push_str(bpeek::corpora::SAMPLES[i % bpeek::corpora::SAMPLES.len()].text);
        i += 1;
    }
    s.push_str(&" ".repeat(3000));
    s.push('x');
    s.push_str(&"a".repeat(10_000));
    s
}

fn compare(name: &str, reference: tiktoken_rs::CoreBPE) {
    let ours = builtin::load(name).unwrap();
    let text = awkward_text();
    assert!(text.len() >= 100_000);
    let want = reference.encode_ordinary(&text);
    let got = ours.encode(&text, false);
    if got != want {
        let at = got
            .iter()
            .zip(&want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        let from = at.saturating_sub(3);
        panic!(
            "{name}: first difference at token {at}: ours {:?} vs tiktoken {:?}\n ours: {:?}\n want: {:?}",
            &got[from..(at + 3).min(got.len())],
            &want[from..(at + 3).min(want.len())],
            got[from..(at + 3).min(got.len())]
                .iter()
                .map(|&i| ours.decode(&[i]).unwrap())
                .collect::<Vec<_>>(),
            want[from..(at + 3).min(want.len())]
                .iter()
                .map(|&i| ours.decode(&[i]).unwrap())
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(ours.decode(&got).unwrap(), text);
    // Special tokens: literal by default, the special id when allowed.
    let special = "a<|endoftext|>b";
    assert_eq!(
        ours.encode(special, false),
        reference.encode_ordinary(special),
        "{name}"
    );
    assert_eq!(
        ours.encode(special, true),
        reference.encode_with_special_tokens(special),
        "{name}"
    );
}

#[test]
fn gpt2_matches_tiktoken() {
    compare("gpt2", tiktoken_rs::r50k_base().unwrap());
}

#[test]
fn cl100k_matches_tiktoken() {
    compare("cl100k", tiktoken_rs::cl100k_base().unwrap());
}

#[test]
fn o200k_matches_tiktoken() {
    compare("o200k", tiktoken_rs::o200k_base().unwrap());
}

#[test]
fn published_facts_hold() {
    let gpt2 = builtin::load("gpt2").unwrap();
    assert_eq!(
        gpt2.vocab_size(),
        50_257,
        "256 bytes + 50,000 merges + <|endoftext|>"
    );
    // GPT-2 merges arbitrary digit runs.
    let pieces: Vec<String> = gpt2
        .encode("832408345770928764", false)
        .iter()
        .map(|&i| gpt2.decode(&[i]).unwrap())
        .collect();
    assert_eq!(pieces, ["83", "24", "08", "345", "7", "709", "287", "64"]);
    let cl = builtin::load("cl100k").unwrap();
    assert_eq!(cl.encode("<|endoftext|>", true), [100257]);
    let o = builtin::load("o200k").unwrap();
    assert_eq!(o.encode("<|endofprompt|>", true), [200018]);
}

#[test]
fn a_rank_file_token_knows_the_merge_that_made_it() {
    let gpt2 = builtin::load("gpt2").unwrap();
    let the = gpt2.encode(" the", false);
    assert_eq!(the.len(), 1);
    let made = gpt2.made_by(the[0]).expect("a multi-byte token has halves");
    let halves = format!(
        "{}|{}",
        gpt2.decode(&[made.left]).unwrap(),
        gpt2.decode(&[made.right]).unwrap()
    );
    assert_eq!(halves, " t|he");
    assert_eq!(made.rank, the[0]);
    assert!(
        gpt2.made_by(gpt2.encode("a", false)[0]).is_none(),
        "a byte is not made by a merge"
    );
}

/// The built-in tokenizers load from tables made when bpeek is built. They
/// hold the same tokens as tiktoken-rs's rank data, and the same pairs as
/// reading that rank data as any rank file is read, at run time.
#[test]
fn built_in_tables_equal_the_rank_data_read_at_run_time() {
    let references = [
        ("gpt2", tiktoken_rs::r50k_base().unwrap(), 50_256),
        ("cl100k", tiktoken_rs::cl100k_base().unwrap(), 100_257),
        ("o200k", tiktoken_rs::o200k_base().unwrap(), 199_999),
    ];
    for (name, reference, first_special) in references {
        let built_in = builtin::load(name).unwrap();
        let tokens: Vec<Vec<u8>> = (0..first_special)
            .map_while(|rank| reference.decode_bytes(&[rank]).ok())
            .collect();
        let read = Tokenizer::from_ranks(
            name,
            tokens.clone(),
            built_in.pretok(),
            built_in.specials().to_vec(),
        )
        .unwrap();
        assert_eq!(built_in.vocab().len(), tokens.len(), "{name}");
        for (id, bytes) in tokens.iter().enumerate() {
            assert_eq!(
                built_in.vocab().token_bytes(id as u32),
                bytes,
                "{name} id {id}"
            );
        }
        assert_eq!(built_in.ranked_pairs(), read.ranked_pairs(), "{name}");
        assert!(
            built_in.ranked_pairs().len() >= tokens.len() - 256,
            "{name}"
        );
        // The tables read in place find each token by its bytes, and merge
        // any chunk as the maps made from the rank data do.
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for (id, bytes) in tokens.iter().enumerate() {
            built_in.chunk_ids(bytes, false, &mut ours);
            assert_eq!(ours, [id as u32], "{name} id {id}");
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for k in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Pieces of two tokens joined, cut anywhere: most are no token.
            let (a, b) = (
                &tokens[seed as usize % tokens.len()],
                &tokens[(seed >> 32) as usize % tokens.len()],
            );
            let joined = [a.as_slice(), b.as_slice()].concat();
            let chunk = &joined[(k % joined.len().max(1))..];
            built_in.chunk_ids(chunk, false, &mut ours);
            read.chunk_ids(chunk, false, &mut theirs);
            assert_eq!(ours, theirs, "{name} {chunk:?}");
        }
        for (text, id) in [("<|endoftext|>", first_special), ("a", 64)] {
            assert_eq!(built_in.encode(text, true), [id], "{name} {text}");
        }
    }
}

/// Long runs of one character (and of two, alternating) merge as runs; the
/// ids must be tiktoken's at every length, odd and even, around powers of
/// two, and with a different character in the middle or at the ends.
#[test]
fn long_runs_match_tiktoken() {
    for (name, reference) in [
        ("gpt2", tiktoken_rs::r50k_base().unwrap()),
        ("cl100k", tiktoken_rs::cl100k_base().unwrap()),
        ("o200k", tiktoken_rs::o200k_base().unwrap()),
    ] {
        let ours = builtin::load(name).unwrap();
        for unit in ["a", "0", " ", "\n", "é", "ab", "x ", "-", "=", "日", "aa b"] {
            for n in [
                63, 64, 65, 127, 128, 129, 1000, 1023, 1024, 1025, 4097, 9999, 70_001,
            ] {
                for text in [
                    unit.repeat(n),
                    format!("{}Z{}", unit.repeat(n / 2), unit.repeat(n - n / 2)),
                    format!("Q{}", unit.repeat(n)),
                    format!("{}q", unit.repeat(n)),
                ] {
                    let want = reference.encode_ordinary(&text);
                    let got = ours.encode(&text, false);
                    assert!(got == want, "{name}: {unit:?} x {n}, {} bytes", text.len());
                }
            }
        }
    }
}
