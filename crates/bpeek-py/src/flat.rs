//! A batch's ids as two flat arrays, the way quicktok's `encode_batch`
//! gives them: every text's ids one after another (`array('I')`, unsigned
//! 32-bit) and where each text's ids start (`array('q')`, signed 64-bit, one
//! more than the texts: text `i` is `ids[offsets[i]:offsets[i + 1]]`).
//!
//! `array.array` is Python's own: the module needs no numpy, and numpy
//! reads one without a copy (`numpy.frombuffer(ids, dtype=numpy.uint32)`)
//! as any reader of the buffer protocol does. A list of lists costs a
//! reference per id and a list per text; the arrays, one copy of the ids'
//! bytes.

use bpeek_core::parallel::FlatIds;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyTuple, PyType};
use std::ffi::{c_char, c_longlong, c_uint};

// The arrays' type codes are C's `unsigned int` and `long long`: 32 and 64
// bits on every platform Python runs on, checked here.
const _: () = assert!(size_of::<c_uint>() == 4 && size_of::<c_longlong>() == 8);

/// `array.array`, imported once.
static ARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `(ids, offsets)` of the blocks' texts, in order.
pub fn arrays<'py>(py: Python<'py>, blocks: &[FlatIds]) -> PyResult<Bound<'py, PyTuple>> {
    let array = ARRAY.import(py, "array", "array")?;
    let ids = array.call1(("I",))?;
    for block in blocks {
        append(&ids, &block.ids)?;
    }
    let offsets = array.call1(("q",))?;
    append(&offsets, &offsets_of(blocks))?;
    PyTuple::new(py, [ids, offsets])
}

/// Where each text's ids start, and where the last one's end.
fn offsets_of(blocks: &[FlatIds]) -> Vec<i64> {
    let texts: usize = blocks.iter().map(|b| b.ends.len()).sum();
    let mut offsets = Vec::with_capacity(texts + 1);
    offsets.push(0);
    let mut before = 0;
    for block in blocks {
        offsets.extend(block.ends.iter().map(|&end| (before + end) as i64));
        before += block.ids.len();
    }
    offsets
}

/// Numbers whose bytes are their value (no padding, any bit pattern one).
trait Plain: Copy {}
impl Plain for u32 {}
impl Plain for i64 {}

/// `items` appended to `array` (of their size) by one copy of their bytes.
fn append<T: Plain>(array: &Bound<'_, PyAny>, items: &[T]) -> PyResult<()> {
    if items.is_empty() {
        return Ok(());
    }
    // SAFETY: a read-only memoryview of `items`' bytes, which outlive it:
    // `frombytes` copies them, and the view is released before `items`
    // can go (a view someone kept would then refuse to be read).
    let view = unsafe {
        let raw = pyo3::ffi::PyMemoryView_FromMemory(
            items.as_ptr().cast::<c_char>().cast_mut(),
            size_of_val(items) as pyo3::ffi::Py_ssize_t,
            pyo3::ffi::PyBUF_READ,
        );
        Bound::from_owned_ptr_or_err(array.py(), raw)?
    };
    let copied = array.call_method1("frombytes", (&view,));
    view.call_method0("release")?;
    copied.map(drop)
}
