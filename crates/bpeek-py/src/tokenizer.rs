//! `bpeek.Tokenizer`: a tokenizer loaded as `--tokenizer` loads it, with
//! encode, decode and count as the command line does them. The work is
//! done with the interpreter's lock released, so other Python threads go
//! on meanwhile.

use crate::errors::to_python;
use crate::flat;
use crate::ids::Ints;
use crate::text::{Text, Texts};
use bpeek_core::TokenId;
use bpeek_core::encoder::{EncodeCache, Tokenizer};
use bpeek_core::error::{Error, quoted};
use bpeek_core::parallel;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::sync::Mutex;

/// A tokenizer: a built-in name (bytes, gpt2, cl100k, o200k) or any file
/// or name `bpeek encode --tokenizer` takes.
#[pyclass(name = "Tokenizer", module = "bpeek", frozen)]
pub struct PyTokenizer {
    tok: Tokenizer,
    ints: Ints,
    /// Chunks met by `encode` and `count` on short texts, kept for the
    /// calls after: a loop over short texts then goes as fast as a batch.
    /// A call that finds it taken (another thread's) goes without.
    recent: Mutex<EncodeCache>,
}

/// The bytes of text [`PyTokenizer::recent`] is sized for.
const RECENT_BYTES: usize = 1 << 20;

#[pymethods]
impl PyTokenizer {
    #[new]
    fn new(py: Python<'_>, name_or_file: &str) -> PyResult<Self> {
        let tok = py
            .detach(|| bpeek_core::formats::load::load(name_or_file))
            .map_err(to_python)?;
        let ints = Ints::new(tok.id_limit());
        let recent = Mutex::new(tok.encode_cache(RECENT_BYTES));
        Ok(PyTokenizer { tok, ints, recent })
    }

    /// The ids of `text` (`str`, or `bytes` for a byte-level tokenizer),
    /// as `bpeek encode --format ids` gives them. `allow_special`: text
    /// that spells a special token is that token (otherwise it is ordinary
    /// text); `add_special_tokens`: the tokens the file's post-processor
    /// puts around a text. `threads`: how many threads a long text (1 MB
    /// or more) may be encoded on, every core's by default.
    #[pyo3(signature = (text, allow_special = false, add_special_tokens = false, threads = None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: Text,
        allow_special: bool,
        add_special_tokens: bool,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let o = Options::new(allow_special, add_special_tokens, threads);
        let ids = self.encode_one(py, &text, o)?;
        self.ints.list(py, &ids)
    }

    /// The ids of each text, as `encode` gives them, the texts encoded on
    /// every core (as `bpeek encode --lines` encodes lines), or on
    /// `threads` threads: a list of lists of ints, or with `flat=True` two
    /// arrays `(ids, offsets)`, text `i`'s ids being
    /// `ids[offsets[i]:offsets[i + 1]]` (see `flat.rs`).
    #[pyo3(signature = (texts, allow_special = false, add_special_tokens = false, threads = None, flat = false))]
    fn encode_batch<'py>(
        &self,
        py: Python<'py>,
        texts: Texts,
        allow_special: bool,
        add_special_tokens: bool,
        threads: Option<usize>,
        flat: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let texts = texts.0;
        let o = Options::new(allow_special, add_special_tokens, threads);
        let (tok, special, add) = (&self.tok, o.allow_special, o.add_special);
        if flat {
            let blocks = py
                .detach(|| parallel::encode_each_flat(tok, &texts, special, add, o.threads))
                .map_err(to_python)?;
            return Ok(flat::arrays(py, &blocks)?.into_any());
        }
        let all = py
            .detach(|| parallel::encode_each(tok, &texts, special, add, o.threads))
            .map_err(to_python)?;
        Ok(self.ints.lists(py, &all)?.into_any())
    }

    /// How many tokens `text` is, as `bpeek encode --count` says.
    #[pyo3(signature = (text, allow_special = false, add_special_tokens = false, threads = None))]
    fn count(
        &self,
        py: Python<'_>,
        text: Text,
        allow_special: bool,
        add_special_tokens: bool,
        threads: Option<usize>,
    ) -> PyResult<usize> {
        let o = Options::new(allow_special, add_special_tokens, threads);
        Ok(self.encode_one(py, &text, o)?.len())
    }

    /// The text of `ids`. Bytes that are not whole UTF-8 characters (a
    /// sequence cut inside a character) are written `<E6>`, as `bpeek
    /// decode --format json` writes its `text`; `decode_bytes` gives the
    /// bytes themselves. `skip_special_tokens=False` keeps special tokens,
    /// as `bpeek decode --keep-special` does.
    #[pyo3(signature = (ids, skip_special_tokens = true))]
    fn decode(&self, py: Python<'_>, ids: Vec<i64>, skip_special_tokens: bool) -> PyResult<String> {
        let ids = self.checked(&ids)?;
        py.detach(|| self.tok.decode_with(&ids, skip_special_tokens))
            .map_err(to_python)
    }

    /// The bytes of `ids`, exactly as `bpeek decode` writes them.
    #[pyo3(signature = (ids, skip_special_tokens = true))]
    fn decode_bytes<'py>(
        &self,
        py: Python<'py>,
        ids: Vec<i64>,
        skip_special_tokens: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let ids = self.checked(&ids)?;
        let bytes = py
            .detach(|| self.tok.decode_bytes_with(&ids, skip_special_tokens))
            .map_err(to_python)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Every id this tokenizer can produce, ordinary and special.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.tok.vocab_size()
    }

    /// The tokenizer's name, as the command line's reports show it.
    #[getter]
    fn name(&self) -> &str {
        self.tok.name()
    }

    /// What kind of tokenizer it is, as `bpeek tokenizers` says.
    #[getter]
    fn kind(&self) -> String {
        self.tok.kind_detail()
    }

    fn __repr__(&self) -> String {
        format!(
            "bpeek.Tokenizer({}, {} ids)",
            quoted(self.tok.name()),
            self.tok.vocab_size()
        )
    }
}

/// What an encoding call was asked for.
#[derive(Clone, Copy)]
struct Options {
    allow_special: bool,
    add_special: bool,
    threads: usize,
}

impl Options {
    /// The options; threads every core's unless said (0 is taken as 1).
    fn new(allow_special: bool, add_special: bool, threads: Option<usize>) -> Self {
        Options {
            allow_special,
            add_special,
            threads: threads.unwrap_or_else(parallel::threads).max(1),
        }
    }
}

impl PyTokenizer {
    /// One text's ids, on every core where it is long (as `bpeek encode`).
    fn encode_one(&self, py: Python<'_>, text: &Text, o: Options) -> PyResult<Vec<TokenId>> {
        py.detach(|| {
            let text = text.as_ref();
            let (special, add) = (o.allow_special, o.add_special);
            if text.len() < parallel::PARALLEL_FROM
                && let Ok(mut recent) = self.recent.try_lock()
            {
                return self
                    .tok
                    .encode_for_model_in(text, special, add, &mut recent);
            }
            parallel::encode_whole(&self.tok, text, special, add, o.threads)
        })
        .map_err(to_python)
    }

    /// `ids` as token ids, each one this tokenizer has, or the error
    /// `bpeek decode` gives for the first that is not (counted from 1).
    fn checked(&self, ids: &[i64]) -> PyResult<Vec<TokenId>> {
        let last = self.tok.id_limit().saturating_sub(1);
        let mut out = Vec::with_capacity(ids.len());
        for (i, &id) in ids.iter().enumerate() {
            let place = format!("decode: item {}", i + 1);
            let why = match TokenId::try_from(id) {
                Ok(id) if self.tok.contains(id) => {
                    out.push(id);
                    continue;
                }
                _ if id < 0 => {
                    format!("{place}: {id} is not a token id (a whole number 0 or above)")
                }
                Ok(id) if (id as usize) <= last => format!(
                    "{place}: id {id} is unused: this tokenizer has no token with that id (its ids 0-{last} have gaps)"
                ),
                _ => format!("{place}: id {id} is too large: this tokenizer's ids go up to {last}"),
            };
            return Err(to_python(Error::input(why)));
        }
        Ok(out)
    }
}
