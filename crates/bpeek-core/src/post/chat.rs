//! Chat templates: a model's Jinja template turns a conversation (a list
//! of `{role, content}` messages) into the one text the model reads, with
//! its turn markers. Rendered as `transformers`' `apply_chat_template`
//! renders it (Jinja with `trim_blocks` and `lstrip_blocks`, loop controls,
//! `raise_exception`, `strftime_now`, a `tojson` that writes as Python's
//! `json.dumps` does), by `minijinja`, with its fuel and an output limit so
//! that a template that loops forever or writes gigabytes is stopped.

use crate::error::{Error, Result};
use minijinja::value::{Kwargs, Value};
use minijinja::{Environment, ErrorKind, UndefinedBehavior};
use std::io::Write;

/// The work one render may do (minijinja's fuel: about one unit per
/// instruction). Real templates take a few thousand for a conversation.
pub const RENDER_FUEL: u64 = 50_000_000;

/// The most bytes one render may write.
pub const MAX_RENDERED_BYTES: usize = 64 << 20;

/// A chat template, with the special tokens' texts it is rendered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatTemplate {
    /// The Jinja source.
    pub source: String,
    /// Where it came from (a file, `tokenizer_config.json`, GGUF metadata).
    pub origin: String,
    /// `bos_token`, `eos_token`, ... as the template sees them.
    pub tokens: Vec<(String, String)>,
}

/// One rendered conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// Where each message's own content lies in `text` (byte ranges, in
    /// message order), for those found there unchanged.
    pub spans: Vec<MessageSpan>,
}

/// A message's content as found in the rendered text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSpan {
    /// The message's index in the conversation.
    pub message: usize,
    pub start: usize,
    pub end: usize,
}

/// A conversation: the messages file's list, each checked to be an object
/// with a `role` string; other fields (`tool_calls`, content parts) are
/// passed to the template as they are, in their order.
#[derive(Debug, Clone)]
pub struct Conversation {
    messages: Value,
    contents: Vec<Option<String>>,
}

impl Conversation {
    /// Read a messages file's text: a JSON list of messages, or an object
    /// with a `messages` list.
    pub fn parse(text: &str) -> Result<Conversation> {
        let doc: Value =
            serde_json::from_str(text).map_err(|e| Error::input(format!("not JSON: {e}")))?;
        let messages = match doc.get_attr("messages") {
            Ok(list) if !list.is_undefined() => list,
            _ => doc,
        };
        let Ok(items) = messages.try_iter() else {
            return Err(Error::input(
                "a chat is a JSON list of messages, each {\"role\": ..., \"content\": ...}",
            ));
        };
        let mut contents = Vec::new();
        for (i, m) in items.enumerate() {
            contents.push(message_content(i, &m)?);
        }
        if messages.kind() != minijinja::value::ValueKind::Seq {
            return Err(Error::input("a chat is a JSON list of messages"));
        }
        Ok(Conversation { messages, contents })
    }

    /// A conversation of one message.
    pub fn one(role: &str, content: &str) -> Conversation {
        let message: Value = [
            ("role", Value::from(role)),
            ("content", Value::from(content)),
        ]
        .into_iter()
        .collect();
        Conversation {
            messages: Value::from(vec![message]),
            contents: vec![Some(content.to_string())],
        }
    }

    /// How many messages there are.
    pub fn len(&self) -> usize {
        self.contents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.contents.is_empty()
    }

    /// Each message's content when it is a string (content given as parts
    /// has none).
    pub fn contents(&self) -> &[Option<String>] {
        &self.contents
    }

    /// Each message's role.
    pub fn roles(&self) -> Vec<String> {
        self.messages
            .try_iter()
            .map(|it| {
                it.map(|m| {
                    m.get_attr("role")
                        .ok()
                        .and_then(|r| r.as_str().map(str::to_string))
                        .unwrap_or_default()
                })
                .collect()
            })
            .unwrap_or_default()
    }
}

/// Message `i`'s content if it is a string, after checking its shape.
fn message_content(i: usize, m: &Value) -> Result<Option<String>> {
    let at = |field: &str| format!("message {} ({field})", i + 1);
    if m.kind() != minijinja::value::ValueKind::Map {
        return Err(Error::input(format!(
            "message {}: not an object with a role and a content",
            i + 1
        )));
    }
    let role = m.get_attr("role").unwrap_or_default();
    if role.as_str().is_none() {
        return Err(Error::input(format!("{}: a string is needed", at("role"))));
    }
    let content = m.get_attr("content").unwrap_or_default();
    Ok(content.as_str().map(str::to_string))
}

impl ChatTemplate {
    /// Check that the template parses, naming where it came from.
    pub fn new(source: String, origin: String, tokens: Vec<(String, String)>) -> Result<Self> {
        let chat = ChatTemplate {
            source,
            origin,
            tokens,
        };
        let env = environment();
        env.template_from_str(&chat.source)
            .map_err(|e| template_error(&chat.origin, &e))?;
        Ok(chat)
    }

    /// The text of the special token the template calls `name`
    /// (`bos_token`, `eos_token`), if it has one.
    pub fn token(&self, name: &str) -> Option<&str> {
        self.tokens
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }

    /// Render `chat`, with the assistant's turn opened at the end when
    /// `add_generation_prompt` is set.
    pub fn render(&self, chat: &Conversation, add_generation_prompt: bool) -> Result<Rendered> {
        let env = environment();
        let template = env
            .template_from_str(&self.source)
            .map_err(|e| template_error(&self.origin, &e))?;
        let mut context: Vec<(String, Value)> = self
            .tokens
            .iter()
            .map(|(n, t)| (n.clone(), Value::from(t.as_str())))
            .collect();
        context.push(("messages".into(), chat.messages.clone()));
        // `transformers` passes these as None when none are given, and
        // templates test them (`tools is not none`).
        context.push(("tools".into(), Value::from(())));
        context.push(("documents".into(), Value::from(())));
        context.push((
            "add_generation_prompt".into(),
            Value::from(add_generation_prompt),
        ));
        let context: Value = context.into_iter().collect();
        let mut out = Limited::default();
        let rendered = template.render_captured_to(context, &mut out).map(|_| ());
        if out.over {
            return Err(Error::input(format!(
                "{}: the chat template wrote more than {} MiB; stopped",
                self.origin,
                MAX_RENDERED_BYTES >> 20
            )));
        }
        rendered.map_err(|e| template_error(&self.origin, &e))?;
        let text = String::from_utf8(out.bytes)
            .map_err(|_| Error::failure("the chat template wrote text that is not UTF-8"))?;
        let spans = find_contents(&text, chat.contents());
        Ok(Rendered { text, spans })
    }
}

/// Where each message's content is in the rendered text: searched in
/// order, each after the one before, as it is and then with its
/// surrounding whitespace trimmed (templates often `| trim` it).
fn find_contents(text: &str, contents: &[Option<String>]) -> Vec<MessageSpan> {
    let mut spans = Vec::new();
    let mut from = 0;
    for (message, content) in contents.iter().enumerate() {
        let Some(content) = content else { continue };
        for wanted in [content.as_str(), content.trim()] {
            if wanted.is_empty() {
                break;
            }
            if let Some(at) = text[from..].find(wanted) {
                let start = from + at;
                let end = start + wanted.len();
                spans.push(MessageSpan {
                    message,
                    start,
                    end,
                });
                from = end;
                break;
            }
        }
    }
    spans
}

/// A writer that keeps at most [`MAX_RENDERED_BYTES`], and fails the
/// render after that.
#[derive(Default)]
struct Limited {
    bytes: Vec<u8>,
    over: bool,
}

impl Write for Limited {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > MAX_RENDERED_BYTES {
            self.over = true;
            return Err(std::io::Error::other("the output limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The one line an error of the template's says: its kind, line and why.
fn template_error(origin: &str, e: &minijinja::Error) -> Error {
    let mut msg = match e.kind() {
        ErrorKind::OutOfFuel => format!(
            "{origin}: the chat template did too much work (more than {RENDER_FUEL} steps); stopped"
        ),
        _ => format!("{origin}: chat template: {}", e.detail().unwrap_or("error")),
    };
    if !matches!(e.kind(), ErrorKind::OutOfFuel) {
        msg = format!("{msg} ({:?})", e.kind());
        if let Some(line) = e.line() {
            msg = format!("{msg} at line {line}");
        }
    }
    Error::input(msg)
}

/// Jinja as `transformers` sets it up for chat templates.
fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_undefined_behavior(UndefinedBehavior::Lenient);
    env.set_fuel(Some(RENDER_FUEL));
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    // Python's None is not iterable (minijinja iterates it as empty):
    // templates guard a loop over `tools` with `tools is iterable`.
    env.add_test("iterable", |v: &Value| !v.is_none() && v.try_iter().is_ok());
    env.add_filter("tojson", python_json);
    env.add_function("raise_exception", raise_exception);
    env.add_function("strftime_now", strftime_now);
    env
}

/// `raise_exception(message)`: the template refuses the conversation.
fn raise_exception(message: String) -> std::result::Result<Value, minijinja::Error> {
    Err(minijinja::Error::new(ErrorKind::InvalidOperation, message))
}

/// `strftime_now(format)`: today's date, formatted (UTC; `%d`, `%m`,
/// `%Y`, `%b`, `%B`, `%H`, `%M`, `%S`, `%%`).
fn strftime_now(format: String) -> String {
    crate::post::chat_date::format_now(&format)
}

/// `tojson`: the value as Python's `json.dumps(value, ensure_ascii=False,
/// ...)` writes it (`", "` and `": "` between items without an indent;
/// keys in their order; no HTML escaping), with `indent`, `sort_keys` and
/// `separators` as Python takes them.
fn python_json(
    value: &Value,
    indent: Option<Value>,
    kwargs: Kwargs,
) -> std::result::Result<Value, minijinja::Error> {
    let bad =
        |what: &str| minijinja::Error::new(ErrorKind::InvalidOperation, format!("tojson: {what}"));
    let indent = match indent {
        Some(v) => Some(v),
        None => kwargs.get::<Option<Value>>("indent")?,
    };
    let indent = indent
        .filter(|v| !v.is_none())
        .map(|v| usize::try_from(v).map_err(|_| bad("indent must be a number")))
        .transpose()?;
    let sort_keys = kwargs.get::<Option<bool>>("sort_keys")?.unwrap_or(false);
    let separators = match kwargs.get::<Option<Vec<String>>>("separators")? {
        None => None,
        Some(pair) if pair.len() == 2 => Some((pair[0].clone(), pair[1].clone())),
        Some(_) => return Err(bad("separators must be two strings")),
    };
    // ensure_ascii=True would escape every non-ASCII character; templates
    // pass False, the default under `transformers`.
    if kwargs.get::<Option<bool>>("ensure_ascii")? == Some(true) {
        return Err(bad("ensure_ascii=True is not supported"));
    }
    kwargs.assert_all_used()?;
    let style = crate::post::chat_json::JsonStyle {
        indent,
        sort_keys,
        separators,
    };
    let text = crate::post::chat_json::dumps(value, &style).map_err(|e| bad(&e.to_string()))?;
    Ok(Value::from_safe_string(text))
}
