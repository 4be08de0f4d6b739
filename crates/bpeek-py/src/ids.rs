//! Ids handed back to Python as lists of ints. Making a Python int costs
//! about as much as finding the token, so each tokenizer keeps one int
//! object per id (made once, on first use) and a list of ids holds
//! references to them: ints are immutable, so sharing them is invisible.

use bpeek_core::TokenId;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList};

/// The most ids given an int object each (the largest vocabularies bpeek
/// reads hold about 260,000); an id beyond is made when it is handed out.
const MOST_KEPT: usize = 1 << 20;

/// One Python int per id below the limit.
pub struct Ints {
    limit: usize,
    kept: PyOnceLock<Vec<Py<PyInt>>>,
}

impl Ints {
    /// Ints for the ids below `id_limit` (at most [`MOST_KEPT`]).
    pub fn new(id_limit: usize) -> Self {
        Ints {
            limit: id_limit.min(MOST_KEPT),
            kept: PyOnceLock::new(),
        }
    }

    fn kept(&self, py: Python<'_>) -> &[Py<PyInt>] {
        self.kept.get_or_init(py, || {
            (0..self.limit)
                .map(|id| PyInt::new(py, id).unbind())
                .collect()
        })
    }

    /// `ids` as a Python list of ints.
    pub fn list<'py>(&self, py: Python<'py>, ids: &[TokenId]) -> PyResult<Bound<'py, PyList>> {
        let kept = self.kept(py);
        PyList::new(
            py,
            ids.iter().map(|&id| match kept.get(id as usize) {
                Some(int) => int.bind(py).clone(),
                None => PyInt::new(py, id),
            }),
        )
    }

    /// Each id list as a Python list, in a list.
    pub fn lists<'py>(
        &self,
        py: Python<'py>,
        all: &[Vec<TokenId>],
    ) -> PyResult<Bound<'py, PyList>> {
        let _paused = GcPaused::new(py)?;
        let lists = all
            .iter()
            .map(|ids| self.list(py, ids))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, lists)
    }
}

/// Python's cycle collector paused while it lives. Every new list counts
/// towards its next pass, and a pass looks at every list made so far: a
/// batch of many short texts spent a tenth of its time there, on lists of
/// ints, which hold no cycle.
struct GcPaused<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPaused<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let gc = py.import("gc")?;
        if !gc.call_method0("isenabled")?.is_truthy()? {
            return Ok(GcPaused { gc: None });
        }
        gc.call_method0("disable")?;
        Ok(GcPaused { gc: Some(gc) })
    }
}

impl Drop for GcPaused<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            // Enabling cannot fail; were it to, the collector stays paused
            // rather than the ids being lost.
            let _ = gc.call_method0("enable");
        }
    }
}
