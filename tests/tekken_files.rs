//! Mistral's Tekken files, those the `mistral-common` package ships: loaded
//! by bpeek, each gives the ids mistral-common's `Tekkenizer` gives
//! (`encode(text, bos=False, eos=False)`) on the bundled samples in every
//! language and on random text of many scripts, takes special tokens from
//! the text only when allowed, and decodes to the bytes mistral-common
//! decodes to.

mod python;
mod tekken;
#[path = "hf/texts.rs"]
mod texts;

use bpeek::bpe::Tokenizer;
use bpeek::bpe::formats::load::load;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The bundled samples, each whole.
fn samples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Texts with special tokens in them, among them the fillers mistral-common
/// numbers up to `default_num_special_tokens`.
fn special_texts() -> Vec<String> {
    [
        "<s>[INST] What is 2+2? [/INST]4</s>",
        "a<unk>b<pad><pad>c",
        "[TOOL_CALLS][{\"name\": \"f\"}]",
        "x<SPECIAL_999>y<SPECIAL_20> <SPECIAL_5>",
        "<s<s>>[IMG][IMG_BREAK][IMG_END]",
        "no special token here",
    ]
    .map(String::from)
    .into()
}

/// Lists of ids to decode: what each text encoded to, and random ids,
/// special ones among them, that may cut a character's bytes apart.
fn id_lists(encoded: &[Vec<u32>], n_words: u32, num_special: u32) -> Vec<Vec<u32>> {
    let mut rng = texts::Rng(0x07e6_6e11);
    let mut lists = encoded.to_vec();
    for _ in 0..300 {
        let len = 1 + rng.below(24);
        let list = (0..len)
            .map(|_| match rng.below(6) {
                0 => rng.below(num_special as usize) as u32,
                _ => num_special + rng.below((n_words - num_special) as usize) as u32,
            })
            .collect();
        lists.push(list);
    }
    lists
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn ids_of(v: &Value) -> Vec<Vec<u32>> {
    serde_json::from_value(v.clone()).expect("lists of ids")
}

/// Compare `tok`'s ids for `texts` with mistral-common's, naming the first
/// text that differs.
fn assert_same_ids(file: &Path, texts: &[String], ours: &[Vec<u32>], theirs: &[Vec<u32>]) {
    assert_eq!(ours.len(), theirs.len());
    for ((text, a), b) in texts.iter().zip(ours).zip(theirs) {
        assert_eq!(a, b, "{}: ids differ for {text:?}", file.display());
    }
}

/// Compare decoding with mistral-common's: the same bytes always, and the
/// same text where the bytes are UTF-8 (mistral-common writes U+FFFD for
/// broken bytes, bpeek `<XX>`).
fn assert_same_decoding(file: &Path, tok: &Tokenizer, lists: &[Vec<u32>], theirs: &Value) {
    for (ids, want) in lists.iter().zip(theirs.as_array().unwrap()) {
        let bytes = tok.decode_bytes(ids).unwrap();
        assert_eq!(
            hex(&bytes),
            want["hex"].as_str().unwrap(),
            "{}: bytes differ for {ids:?}",
            file.display()
        );
        if std::str::from_utf8(&bytes).is_ok() {
            assert_eq!(tok.decode(ids).unwrap(), want["keep"].as_str().unwrap());
        }
    }
}

#[test]
fn shipped_tekken_files_encode_and_decode_as_mistral_common() {
    let Some(python) = tekken::python() else {
        return;
    };
    let mut all = samples();
    all.extend(texts::random_texts(400));
    all.extend(special_texts());
    for file in tekken::shipped_files(&python) {
        let tok = load(&file.to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
        let ours: Vec<Vec<u32>> = all.iter().map(|t| tok.encode(t, false)).collect();
        let specials: Vec<Vec<u32>> = special_texts()
            .iter()
            .map(|t| tok.encode(t, true))
            .collect();
        // The sizes first, to place the random ids.
        let sizes = tekken::run(
            &python,
            &json!({"file": file, "texts": [], "special_texts": [], "id_lists": []}),
        );
        let n_words = sizes["n_words"].as_u64().unwrap() as u32;
        let num_special = sizes["num_special"].as_u64().unwrap() as u32;
        assert_eq!(tok.id_limit(), n_words as usize, "{}", file.display());
        let lists = id_lists(&ours, n_words, num_special);
        let answer = tekken::run(
            &python,
            &json!({"file": file, "texts": all, "special_texts": special_texts(), "id_lists": lists}),
        );
        assert_same_ids(&file, &all, &ours, &ids_of(&answer["ids"]));
        assert_same_ids(
            &file,
            &special_texts(),
            &specials,
            &ids_of(&answer["special_ids"]),
        );
        assert_same_decoding(&file, &tok, &lists, &answer["decoded"]);
    }
}

/// The `bpeek` binary on a shipped file: `encode --format ids` gives
/// mistral-common's ids, `--allow-special` its special ids, and `decode`
/// gives the text back.
#[test]
fn the_binary_encodes_and_decodes_with_a_tekken_file() {
    let Some(python) = tekken::python() else {
        return;
    };
    let file = tekken::shipped_files(&python).pop().unwrap();
    let spec = file.to_string_lossy().into_owned();
    let text = samples().concat();
    let answer = tekken::run(
        &python,
        &json!({"file": file, "texts": [text], "special_texts": special_texts(), "id_lists": []}),
    );
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bpeek"))
            .args(args)
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let ids_text = |ids: &Value| -> String {
        let ids: Vec<String> = ids_of(ids)[0].iter().map(u32::to_string).collect();
        ids.join(" ")
    };
    let dir = std::env::temp_dir().join(format!("bpeek-tekken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text_file = dir.join("text.txt");
    std::fs::write(&text_file, &text).unwrap();
    let path = text_file.to_string_lossy().into_owned();
    let ours = run(&[
        "encode",
        "--tokenizer",
        &spec,
        "--format",
        "ids",
        "--file",
        &path,
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ours.trim_end(), ids_text(&answer["ids"]));
    let special = &special_texts()[0];
    let ours = run(&[
        "encode",
        "--tokenizer",
        &spec,
        "--format",
        "ids",
        "--allow-special",
        special,
    ]);
    assert_eq!(ours.trim_end(), ids_text(&answer["special_ids"]));
    let ids: Vec<&str> = ours.split_whitespace().collect();
    let mut args = vec!["decode", "--tokenizer", &spec];
    args.extend(ids);
    assert_eq!(run(&args), format!("{special}\n"));
}
