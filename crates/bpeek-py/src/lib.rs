//! The `bpeek` Python module: every tokenizer bpeek reads, to encode,
//! decode and count from Python with the engine the command line uses.
//!
//! ```python
//! import bpeek
//! tok = bpeek.Tokenizer("cl100k")            # or a file: tokenizer.json, .model, .gguf ...
//! ids = tok.encode("hello world")            # [15339, 1917]
//! tok.decode(ids)                            # 'hello world'
//! tok.encode_batch(["a", "b c"])             # every core, the lock released
//! ids, offsets = tok.encode_batch(["a", "b c"], flat=True)  # two arrays
//! ```

mod errors;
mod flat;
mod ids;
mod text;
mod tokenizer;

use pyo3::prelude::*;

/// The module Python imports as `bpeek`.
#[pymodule(name = "bpeek")]
fn bpeek_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tokenizer::PyTokenizer>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BUILT_IN", bpeek_core::formats::builtin::names())?;
    Ok(())
}
