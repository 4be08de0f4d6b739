//! A text handed in from Python: a `str` (its UTF-8) or `bytes` (as they
//! are, for byte-level tokenizers), held without copying so that it can be
//! encoded with the interpreter's lock released.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// A `str` or `bytes` argument.
pub enum Text {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
}

impl FromPyObject<'_, '_> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyString>() {
            return Ok(Text::Str(obj.extract()?));
        }
        if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
            return Ok(Text::Bytes(obj.extract()?));
        }
        Err(PyTypeError::new_err(format!(
            "a text is a str or bytes, not {}",
            obj.get_type().name()?
        )))
    }
}

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        match self {
            Text::Str(s) => s.as_bytes(),
            Text::Bytes(b) => b.as_ref(),
        }
    }
}
