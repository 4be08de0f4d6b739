//! A Hugging Face post-processor as the tokens it puts around one text:
//! `TemplateProcessing` (its `single` template), `BertProcessing` and
//! `RobertaProcessing` (`cls` before, `sep` after), `ByteLevel` (none) and
//! a `Sequence` of these. Token counts leave them out unless asked for
//! (`--add-special-tokens`); a post-processor bpeek cannot read is kept as
//! the reason, said only when it is asked for.

use crate::TokenId;
use crate::encoder::Template;
use serde_json::Value;

/// The template `post_processor` sets, if it sets one.
pub fn template(post_processor: &Value) -> Option<Template> {
    if post_processor.is_null() {
        return None;
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    match collect(post_processor, "post_processor", &mut before, &mut after) {
        Ok(()) => Some(Template::Around { before, after }),
        Err(why) => Some(Template::Unsupported(why)),
    }
}

fn collect(
    p: &Value,
    path: &str,
    before: &mut Vec<TokenId>,
    after: &mut Vec<TokenId>,
) -> Result<(), String> {
    let kind = p
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{path}: no \"type\""))?;
    match kind {
        "ByteLevel" => Ok(()),
        "BertProcessing" | "RobertaProcessing" => {
            let token = |field: &str| -> Result<TokenId, String> {
                p.get(field)
                    .and_then(Value::as_array)
                    .and_then(|pair| pair.get(1))
                    .and_then(Value::as_u64)
                    .and_then(|id| TokenId::try_from(id).ok())
                    .ok_or_else(|| format!("{path}.{field}: expected [TOKEN, ID]"))
            };
            before.push(token("cls")?);
            after.push(token("sep")?);
            Ok(())
        }
        "TemplateProcessing" => {
            let items = p
                .get("single")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{path}.single: expected a list"))?;
            let specials = p.get("special_tokens").and_then(Value::as_object);
            let mut seen_text = false;
            for (i, item) in items.iter().enumerate() {
                let place = format!("{path}.single[{i}]");
                if item.get("Sequence").is_some() {
                    if seen_text {
                        return Err(format!("{place}: the text appears twice"));
                    }
                    seen_text = true;
                    continue;
                }
                let name = item
                    .get("SpecialToken")
                    .and_then(|s| s.get("id"))
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("{place}: neither Sequence nor SpecialToken"))?;
                let ids = specials
                    .and_then(|m| m.get(name))
                    .and_then(|t| t.get("ids"))
                    .and_then(Value::as_array)
                    .ok_or_else(|| {
                        format!("{path}.special_tokens: {name:?} is used but not listed")
                    })?;
                let side = if seen_text { &mut *after } else { &mut *before };
                for id in ids {
                    let id = id
                        .as_u64()
                        .and_then(|id| TokenId::try_from(id).ok())
                        .ok_or_else(|| format!("{path}.special_tokens.{name}.ids: not an id"))?;
                    side.push(id);
                }
            }
            if !seen_text {
                return Err(format!("{path}.single: no $A (the text)"));
            }
            Ok(())
        }
        "Sequence" => {
            let list = p
                .get("processors")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{path}.processors: expected a list"))?;
            for (i, step) in list.iter().enumerate() {
                collect(step, &format!("{path}.processors[{i}]"), before, after)?;
            }
            Ok(())
        }
        other => Err(format!(
            "{path}: type {other:?} is not supported (bpeek reads TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel and a Sequence of them)"
        )),
    }
}
