//! A conversation encoded as a model reads it: the chat template rendered,
//! then the rendered text encoded with its special tokens parsed and
//! nothing added around it (what `transformers`' `apply_chat_template(...,
//! tokenize=True)` does), with what the template costs and the special
//! tokens typed inside messages.

use crate::TokenId;
use crate::encoder::Tokenizer;
use crate::error::Result;
use crate::post::chat::{ChatTemplate, Conversation, Rendered};

/// A conversation rendered and encoded.
#[derive(Debug, Clone)]
pub struct ChatEncoding {
    pub rendered: Rendered,
    /// The rendered text's ids, special tokens parsed.
    pub ids: Vec<TokenId>,
    /// The tokens of the messages' contents, each encoded alone as the
    /// rendered text is (special tokens parsed), summed: what the
    /// conversation would cost with no template.
    pub message_tokens: usize,
    /// A special token's text typed inside a message's content.
    pub forged: Vec<ForgedSpecial>,
    /// The ids with every message's content encoded as plain text (its
    /// special tokens' texts spelled out), when some content holds one.
    pub ids_if_plain: Option<Vec<TokenId>>,
}

impl ChatEncoding {
    /// The tokens the template adds: all of them less the messages' own
    /// (a message's text can cost one token more or less in context, where
    /// its first word follows the template's text).
    pub fn template_tokens(&self) -> i64 {
        self.ids.len() as i64 - self.message_tokens as i64
    }
}

/// One special token's text inside a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgedSpecial {
    /// The message's index in the conversation.
    pub message: usize,
    pub text: String,
    pub id: TokenId,
}

/// Render `chat` with `template` and encode it with `tok`.
pub fn encode_chat(
    tok: &Tokenizer,
    template: &ChatTemplate,
    chat: &Conversation,
    add_generation_prompt: bool,
) -> Result<ChatEncoding> {
    let rendered = template.render(chat, add_generation_prompt)?;
    let ids = tok.try_encode(&rendered.text, true)?;
    let mut message_tokens = 0;
    for content in chat.contents().iter().flatten() {
        message_tokens += tok.try_encode(content, true)?.len();
    }
    let forged = forged_specials(tok, chat);
    let ids_if_plain = if forged.is_empty() {
        None
    } else {
        Some(encode_messages_as_plain(tok, &rendered)?)
    };
    Ok(ChatEncoding {
        rendered,
        ids,
        message_tokens,
        forged,
        ids_if_plain,
    })
}

/// Every special token's text found in a message's content, in message
/// order and then by place.
fn forged_specials(tok: &Tokenizer, chat: &Conversation) -> Vec<ForgedSpecial> {
    let mut out = Vec::new();
    for (message, content) in chat.contents().iter().enumerate() {
        let Some(content) = content else { continue };
        let mut found: Vec<(usize, ForgedSpecial)> = Vec::new();
        for special in tok.specials() {
            if special.text.is_empty() {
                continue;
            }
            for (at, _) in content.match_indices(special.text.as_str()) {
                found.push((
                    at,
                    ForgedSpecial {
                        message,
                        text: special.text.clone(),
                        id: special.id,
                    },
                ));
            }
        }
        found.sort_by_key(|(at, f)| (*at, std::cmp::Reverse(f.text.len())));
        out.extend(found.into_iter().map(|(_, f)| f));
    }
    out
}

/// The rendered text encoded piece by piece: the template's text with its
/// special tokens parsed, each message's content as plain text (what a
/// server that keeps users from forging turns would send).
fn encode_messages_as_plain(tok: &Tokenizer, rendered: &Rendered) -> Result<Vec<TokenId>> {
    let text = &rendered.text;
    let mut ids = Vec::new();
    let mut from = 0;
    for span in &rendered.spans {
        ids.extend(tok.try_encode(&text[from..span.start], true)?);
        ids.extend(tok.try_encode(&text[span.start..span.end], false)?);
        from = span.end;
    }
    ids.extend(tok.try_encode(&text[from..], true)?);
    Ok(ids)
}
