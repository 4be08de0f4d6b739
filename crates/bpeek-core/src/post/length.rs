//! A Hugging Face file's `truncation` and `padding`: the length the
//! library's `encode` gives one text, applied as it applies them. The text's
//! ids are cut to `max_length` (less the template's tokens when they are
//! added and fit in it), the template goes around them, then the whole is
//! padded to the fixed `length` (or to a multiple of `pad_to_multiple_of`).

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::error::{Error, Result};
use serde_json::Value;
use std::sync::Arc;

/// Which end of the ids is cut, or padded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// `truncation`, as it bears on one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    pub max_length: usize,
    pub side: Side,
    /// `strategy: OnlySecond`, with which the library encodes no single
    /// text that needs cutting.
    pub only_second: bool,
}

/// `padding`, as it bears on one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Padding {
    /// `strategy: {"Fixed": n}`; `None` for `BatchLongest`, which pads
    /// one text to its own length.
    pub length: Option<usize>,
    pub multiple: Option<usize>,
    pub pad_id: TokenId,
    pub side: Side,
}

/// A file's `truncation` and `padding`, either or both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LengthRules {
    pub truncation: Option<Truncation>,
    pub padding: Option<Padding>,
}

/// The longest length read: more ids than any text gives.
const MAX_LENGTH: u64 = u32::MAX as u64;

/// The longest length padded to: every encoding is padded to it, so a
/// file asking for billions would take gigabytes a text. Sixteen million
/// ids is far past any model's context.
const MAX_PADDED: u64 = 1 << 24;

impl LengthRules {
    /// `truncation` and `padding` of a `tokenizer.json`; `None` when both
    /// are null or missing.
    pub fn read(doc: &Value) -> Result<Option<LengthRules>> {
        let part = |name: &str| doc.get(name).filter(|v| !v.is_null());
        let rules = LengthRules {
            truncation: part("truncation").map(truncation).transpose()?,
            padding: part("padding").map(padding).transpose()?,
        };
        Ok((rules != LengthRules::default()).then_some(rules))
    }

    /// The ids of one text as the model gets them: cut, the template's
    /// tokens (`template`: how many, when they are added) around them by
    /// `around`, then padded.
    pub fn apply(
        &self,
        mut ids: Vec<TokenId>,
        template: Option<usize>,
        around: impl FnOnce(Vec<TokenId>) -> Result<Vec<TokenId>>,
    ) -> Result<Vec<TokenId>> {
        if let Some(t) = &self.truncation {
            // As the library: the template's tokens are kept out of the
            // length only when they fit in it; else the text is not cut.
            let keep = match template {
                None => Some(t.max_length),
                Some(n) => t.max_length.checked_sub(n),
            };
            if let Some(keep) = keep.filter(|&k| k < ids.len()) {
                if t.only_second {
                    return Err(Error::input(
                        "truncation.strategy: OnlySecond cuts the second of a pair of texts; the library encodes no single text longer than max_length with it",
                    ));
                }
                match t.side {
                    Side::Right => ids.truncate(keep),
                    Side::Left => {
                        ids.drain(..ids.len() - keep);
                    }
                }
            }
        }
        let mut ids = around(ids)?;
        if let Some(p) = &self.padding {
            let mut target = p.length.unwrap_or(ids.len());
            if let Some(m) = p.multiple.filter(|&m| m > 0)
                && target % m > 0
            {
                target += m - target % m;
            }
            if target > ids.len() {
                let pad = std::iter::repeat_n(p.pad_id, target - ids.len());
                match p.side {
                    Side::Right => ids.extend(pad),
                    Side::Left => {
                        ids.splice(0..0, pad);
                    }
                }
            }
        }
        Ok(ids)
    }
}

fn side(v: &Value, path: &str) -> Result<Side> {
    match v.get("direction").and_then(Value::as_str) {
        None | Some("Right") => Ok(Side::Right),
        Some("Left") => Ok(Side::Left),
        Some(other) => Err(Error::input(format!(
            "{path}.direction: {other:?} is not \"Left\" or \"Right\""
        ))),
    }
}

fn length(v: &Value, path: &str) -> Result<usize> {
    length_up_to(v, path, MAX_LENGTH)
}

fn length_up_to(v: &Value, path: &str, most: u64) -> Result<usize> {
    v.as_u64()
        .filter(|&n| n <= most)
        .map(|n| n as usize)
        .ok_or_else(|| Error::input(format!("{path}: {v} is not a length (0..={most})")))
}

fn truncation(v: &Value) -> Result<Truncation> {
    let max_length = length(
        v.get("max_length").unwrap_or(&Value::Null),
        "truncation.max_length",
    )?;
    let only_second = match v.get("strategy").and_then(Value::as_str) {
        None | Some("LongestFirst") | Some("OnlyFirst") => false,
        Some("OnlySecond") => true,
        Some(other) => {
            return Err(Error::input(format!(
                "truncation.strategy: {other:?} is not LongestFirst, OnlyFirst or OnlySecond"
            )));
        }
    };
    Ok(Truncation {
        max_length,
        side: side(v, "truncation")?,
        only_second,
    })
}

fn padding(v: &Value) -> Result<Padding> {
    let length =
        match v.get("strategy") {
            Some(Value::String(s)) if s == "BatchLongest" => None,
            Some(Value::Object(o)) if o.len() == 1 && o.contains_key("Fixed") => Some(
                length_up_to(&o["Fixed"], "padding.strategy.Fixed", MAX_PADDED)?,
            ),
            other => {
                return Err(Error::input(format!(
                    "padding.strategy: {} is not \"BatchLongest\" or {{\"Fixed\": n}}",
                    other.unwrap_or(&Value::Null)
                )));
            }
        };
    let multiple = match v.get("pad_to_multiple_of") {
        None | Some(Value::Null) => None,
        Some(m) => Some(length_up_to(m, "padding.pad_to_multiple_of", MAX_PADDED)?),
    };
    let pad_id = v
        .get("pad_id")
        .and_then(Value::as_u64)
        .filter(|&n| n <= crate::formats::limits::MAX_ID)
        .ok_or_else(|| Error::input("padding.pad_id: expected an id"))?;
    Ok(Padding {
        length,
        multiple,
        pad_id: pad_id as TokenId,
        side: side(v, "padding")?,
    })
}

impl Tokenizer {
    /// Give the tokenizer its file's `truncation` and `padding`.
    pub fn set_length_rules(&mut self, rules: LengthRules) {
        self.lengths = Some(Arc::new(rules));
    }

    /// The file's `truncation` and `padding`, if it sets either.
    pub fn length_rules(&self) -> Option<&LengthRules> {
        self.lengths.as_deref()
    }

    /// The ids of one text (`ids`, as `encode` gives them) as the
    /// library's `encode` hands them to the model: cut and padded as the
    /// file says, with the template's tokens when `add_special`.
    pub fn as_file_encodes(&self, ids: Vec<TokenId>, add_special: bool) -> Result<Vec<TokenId>> {
        let Some(rules) = self.lengths.as_deref() else {
            return self.around(ids, add_special);
        };
        let template = match (add_special, self.template()) {
            (true, Some(crate::post::Template::Around { before, after })) => {
                Some(before.len() + after.len())
            }
            _ => None,
        };
        rules.apply(ids, template, |ids| self.around(ids, add_special))
    }
}
