//! A text handed in from Python: a `str` (its UTF-8) or `bytes` (as they
//! are, for byte-level tokenizers), held without copying so that it can be
//! encoded with the interpreter's lock released; and a batch of them,
//! whose refusal names the text that is not one.

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

/// The texts of a batch: any iterable of `str` or `bytes` but one text
/// itself (a `str` is an iterable of characters, which is never meant).
pub struct Texts(pub Vec<Text>);

impl FromPyObject<'_, '_> for Texts {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<Self> {
        if is_one_text(&obj) {
            return Err(PyTypeError::new_err(format!(
                "texts is a list of str or bytes, not one {} (encode takes one text)",
                obj.get_type().name()?
            )));
        }
        let Ok(items) = obj.try_iter() else {
            return Err(PyTypeError::new_err(format!(
                "texts is a list of str or bytes, not {}",
                obj.get_type().name()?
            )));
        };
        let mut texts = Vec::with_capacity(obj.len().unwrap_or(0));
        for (i, item) in items.enumerate() {
            let item = item?;
            let text = item.extract().map_err(|e: PyErr| {
                PyTypeError::new_err(format!("texts[{i}]: {}", e.value(obj.py())))
            })?;
            texts.push(text);
        }
        Ok(Texts(texts))
    }
}

/// Whether `obj` is a text (`str`, `bytes` or `bytearray`).
fn is_one_text(obj: &Borrowed<'_, '_, PyAny>) -> bool {
    obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
}
