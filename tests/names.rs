//! Tokenizers by the names users know, read offline from where the tools
//! keep them: the Hugging Face cache laid out as `huggingface_hub` lays it
//! out (`models--ORG--NAME`, `refs/`, `snapshots/` of symlinks into
//! `blobs/`) and Ollama's store (manifests naming GGUF blobs), each in a
//! temporary `HOME`; ids against `tokenizers`, `sentencepiece` and
//! llama.cpp's expected ids; absent and broken names refused in one line.

mod hf;
mod python;
mod scratch;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TEXTS: &[&str] = &[
    "The quick brown fox jumps over the lazy dog.",
    "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "いろはにほへと ちりぬるを 12345",
];

const TEMPLATE: &str = "{{ bos_token }}{% for m in messages %}<|start_header_id|>{{ m['role'] }}<|end_header_id|>\n\n{{ m['content'] | trim }}<|eot_id|>{% endfor %}{% if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}";

/// `bpeek ARGS` with `HOME` (and nothing else of the tools' settings) set
/// to `home`, plus `env`.
fn bpeek(home: &Path, env: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bpeek"));
    for var in [
        "HF_HUB_CACHE",
        "HUGGINGFACE_HUB_CACHE",
        "HF_HOME",
        "XDG_CACHE_HOME",
        "OLLAMA_MODELS",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("HOME", home).env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(args).output().unwrap()
}

fn ids_of(out: &Output) -> Vec<u32> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect()
}

/// One line on stderr, a failure exit, no panic.
fn refusal(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !out.status.success(),
        "accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_ne!(out.status.code(), Some(101), "a panic: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

/// Put `files` (name, bytes) in the cache `hub` as repository `repo` at
/// commit `commit`: blobs named by content, symlinked from the snapshot.
fn cache_repo(hub: &Path, repo: &str, commit: &str, files: &[(&str, Vec<u8>)]) {
    let dir = hub.join(format!("models--{}", repo.replace('/', "--")));
    let snapshot = dir.join("snapshots").join(commit);
    std::fs::create_dir_all(dir.join("blobs")).unwrap();
    std::fs::create_dir_all(&snapshot).unwrap();
    for (name, bytes) in files {
        let blob = format!("{:016x}{}", fxhash(bytes), bytes.len());
        std::fs::write(dir.join("blobs").join(&blob), bytes).unwrap();
        std::os::unix::fs::symlink(Path::new("../../blobs").join(&blob), snapshot.join(name))
            .unwrap();
    }
}

fn set_ref(hub: &Path, repo: &str, name: &str, commit: &str) {
    let refs = hub
        .join(format!("models--{}", repo.replace('/', "--")))
        .join("refs");
    std::fs::create_dir_all(refs.join(name).parent().unwrap()).unwrap();
    std::fs::write(refs.join(name), commit).unwrap();
}

fn fxhash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

struct Made {
    dir: scratch::Scratch,
    reference: Value,
}

/// The tokenizer files, trained by the real libraries, with their ids.
fn make_tokenizers(python: &str, tag: &str) -> Made {
    let dir = scratch::Scratch::new(tag);
    let reference = hf::run(
        python,
        "names_setup.py",
        &json!({"dir": dir.path(), "texts": TEXTS}),
    );
    Made { dir, reference }
}

fn chat_config() -> Vec<u8> {
    json!({
        "bos_token": "<|begin_of_text|>",
        "eos_token": "<|eot_id|>",
        "chat_template": TEMPLATE,
    })
    .to_string()
    .into_bytes()
}

/// A cache in a temporary `HOME` holding `acme/chat` at two revisions:
/// `main` with its config (chat template), `refs/pr/1` without.
struct ChatCache {
    made: Made,
    home: PathBuf,
    hub: PathBuf,
    main: String,
}

fn chat_cache(python: &str, tag: &str) -> ChatCache {
    let made = make_tokenizers(python, tag);
    let home = made.dir.join("home");
    let hub = home.join(".cache/huggingface/hub");
    let chat_json = std::fs::read(made.dir.join("chat.json")).unwrap();
    let (main, old) = ("a".repeat(40), "b".repeat(40));
    cache_repo(
        &hub,
        "acme/chat",
        &main,
        &[
            ("tokenizer.json", chat_json.clone()),
            ("tokenizer_config.json", chat_config()),
        ],
    );
    set_ref(&hub, "acme/chat", "main", &main);
    // An older revision held only the byte-level vocabulary of GPT-2.
    cache_repo(
        &hub,
        "acme/chat",
        &old,
        &[("tokenizer.json", chat_json.clone())],
    );
    set_ref(&hub, "acme/chat", "refs/pr/1", &old);
    ChatCache {
        made,
        home,
        hub,
        main,
    }
}

#[test]
fn a_cached_repository_is_read_by_its_name_at_the_revision_asked() {
    let Some(python) = hf::python() else { return };
    let ChatCache {
        made, home, main, ..
    } = chat_cache(&python, "names-cache");

    for (k, text) in TEXTS.iter().enumerate() {
        let want: Vec<u32> = serde_json::from_value(made.reference["chat_ids"][k].clone()).unwrap();
        for name in [
            "acme/chat",
            "hf:acme/chat",
            &format!("acme/chat@{main}"),
            "acme/chat@refs/pr/1",
        ] {
            let out = bpeek(
                &home,
                &[],
                &["encode", "--tokenizer", name, "--format", "ids", text],
            );
            assert_eq!(ids_of(&out), want, "{name} on {text}");
        }
    }
    // The template is the main revision's; the old one has none.
    let chat = made.dir.file(
        "chat.jsonl",
        json!([{"role": "user", "content": " hi "}]).to_string(),
    );
    let chat = chat.to_str().unwrap();
    let out = bpeek(
        &home,
        &[],
        &[
            "encode",
            "--tokenizer",
            "acme/chat",
            "--chat",
            chat,
            "--format",
            "json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["rendered"],
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>"
    );
    let err = refusal(&bpeek(
        &home,
        &[],
        &[
            "encode",
            "--tokenizer",
            "acme/chat@refs/pr/1",
            "--chat",
            chat,
        ],
    ));
    assert!(err.contains("no chat template"), "{err}");
}

#[test]
fn the_cache_is_found_where_huggingface_hub_puts_it() {
    let Some(python) = hf::python() else { return };
    let ChatCache {
        made, home, main, ..
    } = chat_cache(&python, "names-where");
    let chat_json = std::fs::read(made.dir.join("chat.json")).unwrap();
    // Where the cache is: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache.
    let elsewhere = made.dir.join("elsewhere");
    cache_repo(
        &elsewhere.join("hub"),
        "acme/other",
        &main,
        &[("tokenizer.json", chat_json)],
    );
    set_ref(&elsewhere.join("hub"), "acme/other", "main", &main);
    let text = TEXTS[0];
    let want = ids_of(&bpeek(
        &home,
        &[],
        &[
            "encode",
            "--tokenizer",
            "acme/chat",
            "--format",
            "ids",
            text,
        ],
    ));
    let got = bpeek(
        &home,
        &[("HF_HOME", &elsewhere)],
        &[
            "encode",
            "--tokenizer",
            "acme/other",
            "--format",
            "ids",
            text,
        ],
    );
    assert_eq!(ids_of(&got), want);
    let hub_cache = elsewhere.join("hub");
    let got = bpeek(
        &home,
        &[("HF_HUB_CACHE", &hub_cache), ("HF_HOME", &home)],
        &[
            "encode",
            "--tokenizer",
            "acme/other",
            "--format",
            "ids",
            text,
        ],
    );
    assert_eq!(ids_of(&got), want);
}

#[test]
fn absent_names_are_refused_in_one_line_saying_where_bpeek_looked() {
    let Some(python) = hf::python() else { return };
    let ChatCache {
        home,
        hub,
        made: _made,
        ..
    } = chat_cache(&python, "names-absent");
    // Absent names and revisions: one line that says where it looked.
    let err = refusal(&bpeek(
        &home,
        &[],
        &["encode", "--tokenizer", "acme/none", "x"],
    ));
    assert!(
        err.contains(&hub.display().to_string()) && err.contains("never downloads"),
        "{err}"
    );
    let err = refusal(&bpeek(
        &home,
        &[],
        &["encode", "--tokenizer", "acme/chat@v9", "x"],
    ));
    assert!(
        err.contains("no revision v9") && err.contains("main"),
        "{err}"
    );
    // Every command that takes a tokenizer refuses before it starts.
    for command in [
        &["decode", "--tokenizer", "acme/none", "1"][..],
        &["fertility", "--tokenizer", "acme/none", "x"],
        &["tui", "--tokenizer", "acme/none"],
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--tokenizer",
            "acme/none",
        ],
    ] {
        let err = refusal(&bpeek(&home, &[], command));
        assert!(err.contains("acme/none"), "{command:?}: {err}");
    }
    for hostile in ["acme/../chat", "acme/chat@../../x", "hf:", "hf:a/b/c"] {
        refusal(&bpeek(&home, &[], &["encode", "--tokenizer", hostile, "x"]));
    }
}

#[test]
fn a_sentencepiece_repository_adds_bos_and_eos_as_its_config_asks() {
    let Some(python) = hf::python() else { return };
    let made = make_tokenizers(&python, "names-spm");
    let home = made.dir.join("home");
    let hub = home.join(".cache/huggingface/hub");
    let config = json!({"add_bos_token": true, "add_eos_token": true, "bos_token": "<s>", "eos_token": "</s>"});
    let model = std::fs::read(made.dir.join("spm.model")).unwrap();
    let commit = "c".repeat(40);
    cache_repo(
        &hub,
        "acme/spm",
        &commit,
        &[
            ("tokenizer.model", model),
            ("tokenizer_config.json", config.to_string().into_bytes()),
        ],
    );
    set_ref(&hub, "acme/spm", "main", &commit);
    for (k, text) in TEXTS.iter().enumerate() {
        let want: Vec<u32> =
            serde_json::from_value(made.reference["spm_ids_bos_eos"][k].clone()).unwrap();
        let out = bpeek(
            &home,
            &[],
            &[
                "encode",
                "--tokenizer",
                "acme/spm",
                "--add-special-tokens",
                "--format",
                "ids",
                text,
            ],
        );
        assert_eq!(ids_of(&out), want, "{text}");
    }
}

/// llama.cpp's test vocabulary of Llama 3 (from the source package
/// `.ci/run` unpacks), or `None` where the test may be skipped.
fn llama_bpe_vocab() -> Option<PathBuf> {
    let root = std::env::var_os("BPEEK_TEST_DATA")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/bpeek-test-data"))
        })?;
    let found = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            e.path()
                .join("vendor/llama.cpp/models/ggml-vocab-llama-bpe.gguf")
        })
        .find(|p| p.is_file());
    if found.is_none() {
        let why = format!(
            "llama.cpp's test vocabularies are not unpacked under {}",
            root.display()
        );
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "{why}");
        eprintln!("SKIPPED: {why}");
    }
    found
}

fn ollama_manifest(store: &Path, name: &str, tag: &str, layers: &Value) {
    let dir = store.join("manifests/registry.ollama.ai").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let doc = json!({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json", "layers": layers});
    std::fs::write(dir.join(tag), doc.to_string()).unwrap();
}

/// An Ollama store in a temporary folder: llama.cpp's Llama 3 test
/// vocabulary as the blob of `llama3.2` and `me/mine:v1`, and three broken
/// manifests; `None` where the vocabulary is missing (outside CI).
fn ollama_store(tag: &str) -> Option<(scratch::Scratch, PathBuf, PathBuf, PathBuf)> {
    let vocab = llama_bpe_vocab()?;
    let dir = scratch::Scratch::new(tag);
    let store = dir.join("models");
    std::fs::create_dir_all(store.join("blobs")).unwrap();
    let hex = format!("{:064x}", 0xfeed_u64);
    std::fs::copy(&vocab, store.join("blobs").join(format!("sha256-{hex}"))).unwrap();
    let model_layer = json!([
        {"mediaType": "application/vnd.ollama.image.template", "digest": format!("sha256:{}", "0".repeat(64)), "size": 1},
        {"mediaType": "application/vnd.ollama.image.model", "digest": format!("sha256:{hex}"), "size": 1},
    ]);
    ollama_manifest(&store, "library/llama3.2", "latest", &model_layer);
    ollama_manifest(&store, "me/mine", "v1", &model_layer);
    ollama_manifest(
        &store,
        "library/broken",
        "latest",
        &json!([{"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:../../../etc/passwd"}]),
    );
    ollama_manifest(&store, "library/nomodel", "latest", &json!([]));
    ollama_manifest(
        &store,
        "library/gone",
        "latest",
        &json!([{"mediaType": "application/vnd.ollama.image.model", "digest": format!("sha256:{}", "1".repeat(64))}]),
    );
    let home = dir.join("home");
    Some((dir, store, home, vocab))
}

#[test]
fn an_ollama_model_is_its_gguf_blob_read_as_llama_cpp_reads_it() {
    let Some((_dir, store, home, vocab)) = ollama_store("ollama-names") else {
        return;
    };

    // llama.cpp's own test strings and the ids its tokenizer gives.
    let inp = std::fs::read_to_string(vocab.with_extension("gguf.inp")).unwrap();
    let out = std::fs::read_to_string(vocab.with_extension("gguf.out")).unwrap();
    let texts: Vec<&str> = inp.split("\n__ggml_vocab_test__\n").collect();
    let text = texts.iter().copied().max_by_key(|t| t.len()).unwrap();
    let line = out
        .lines()
        .nth(texts.iter().position(|t| *t == text).unwrap())
        .unwrap();
    let want: Vec<u32> = line
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    for name in [
        "ollama:llama3.2",
        "ollama:llama3.2:latest",
        "ollama:me/mine:v1",
    ] {
        let got = bpeek(
            &home,
            &[("OLLAMA_MODELS", &store)],
            &["encode", "--tokenizer", name, "--format", "ids", text],
        );
        assert_eq!(ids_of(&got), want, "{name}");
    }
    // Ollama's default store is ~/.ollama/models.
    let default = home.join(".ollama");
    std::fs::create_dir_all(&default).unwrap();
    std::os::unix::fs::symlink(&store, default.join("models")).unwrap();
    let got = bpeek(
        &home,
        &[],
        &[
            "encode",
            "--tokenizer",
            "ollama:llama3.2",
            "--format",
            "ids",
            text,
        ],
    );
    assert_eq!(ids_of(&got), want);

    for (name, says) in [
        ("ollama:broken", "sha256:HEX"),
        ("ollama:nomodel", "no layer of media type"),
        ("ollama:gone", "missing from the store"),
        ("ollama:absent", "not in Ollama's store"),
        ("ollama:llama3.2:8b", "not in Ollama's store"),
        ("ollama:../x", ""),
    ] {
        let err = refusal(&bpeek(&home, &[], &["encode", "--tokenizer", name, "x"]));
        assert!(err.contains(says), "{name}: {err}");
    }
}

#[test]
fn the_list_has_each_model_with_its_size_or_why_it_cannot_be_read() {
    let Some((_dir, store, home, _)) = ollama_store("ollama-list") else {
        return;
    };
    // The list: built-ins first, each read model with kind and size, each
    // broken one with why.
    let out = bpeek(
        &home,
        &[("OLLAMA_MODELS", &store)],
        &["tokenizers", "--format", "json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = doc["tokenizers"].as_array().unwrap();
    let find = |n: &str| {
        list.iter()
            .find(|e| e["name"] == n)
            .unwrap_or_else(|| panic!("{n} in {doc:#}"))
    };
    assert_eq!(find("cl100k")["vocab_size"], 100_261);
    assert_eq!(find("ollama:llama3.2:latest")["vocab_size"], 128_256);
    assert_eq!(find("ollama:me/mine:v1")["source"], "ollama");
    assert!(
        find("ollama:broken:latest")["error"]
            .as_str()
            .unwrap()
            .contains("sha256:HEX")
    );
    let text = bpeek(&home, &[("OLLAMA_MODELS", &store)], &["tokenizers"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("ollama:llama3.2:latest") && l.contains("128256 ids")),
        "{text}"
    );
}

#[test]
fn a_repository_listed_is_a_name_that_loads() {
    let Some(python) = hf::python() else { return };
    let made = make_tokenizers(&python, "names-list");
    let home = made.dir.join("home");
    let hub = home.join(".cache/huggingface/hub");
    let commit = "d".repeat(40);
    cache_repo(
        &hub,
        "acme/chat",
        &commit,
        &[(
            "tokenizer.json",
            std::fs::read(made.dir.join("chat.json")).unwrap(),
        )],
    );
    set_ref(&hub, "acme/chat", "main", &commit);
    // A repository cached for its weights alone holds no tokenizer.
    cache_repo(
        &hub,
        "acme/weights",
        &commit,
        &[("config.json", b"{}".to_vec())],
    );
    set_ref(&hub, "acme/weights", "main", &commit);
    let out = bpeek(&home, &[], &["tokenizers", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = doc["tokenizers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bytes", "gpt2", "cl100k", "o200k", "acme/chat"]);
    let entry = &doc["tokenizers"][4];
    assert_eq!(entry["vocab_size"], made.reference["chat_vocab"]);
    assert_eq!(entry["source"], "hf-cache");
}

mod tmux;

#[test]
fn the_explorer_lists_the_names_there_are_and_encodes_with_the_one_picked() {
    let Some(python) = hf::python() else { return };
    let Some(tmux) = tmux::Tmux::start("names-picker") else {
        return;
    };
    let made = make_tokenizers(&python, "names-picker");
    let home = made.dir.join("home");
    let hub = home.join(".cache/huggingface/hub");
    let commit = "e".repeat(40);
    cache_repo(
        &hub,
        "acme/chat",
        &commit,
        &[(
            "tokenizer.json",
            std::fs::read(made.dir.join("chat.json")).unwrap(),
        )],
    );
    set_ref(&hub, "acme/chat", "main", &commit);
    let text = "Zwölf Boxkämpfer";
    let want = ids_of(&bpeek(
        &home,
        &[],
        &[
            "encode",
            "--tokenizer",
            "acme/chat",
            "--format",
            "ids",
            text,
        ],
    ));

    let term = tmux.open("picker", 100, 30);
    term.command(&format!(
        "HOME={} HF_HUB_CACHE= HF_HOME= XDG_CACHE_HOME= OLLAMA_MODELS= {}",
        home.display(),
        env!("CARGO_BIN_EXE_bpeek")
    ));
    term.wait_for("the explorer", |s| s.contains("Corpus"));
    term.keys(&["N"]);
    let screen = term.wait_for("the list of names", |s| {
        s.contains("Add a tokenizer: 1 by name")
    });
    assert!(
        screen.contains("acme/chat") && screen.contains("hf-cache"),
        "{screen}"
    );
    term.keys(&["Enter"]);
    term.wait_for("the encode box on acme/chat", |s| {
        s.contains("Encode with acme/chat")
    });
    term.keys(&["e"]);
    term.text(text);
    let ids: Vec<String> = want.iter().map(u32::to_string).collect();
    let line = format!("ids {}", ids.join(" "));
    term.wait_for("the ids of acme/chat", |s| s.contains(&line));
    term.keys(&["Escape", "q"]);
}
