//! The encode box's chat mode: its text taken as a user's turn, rendered by
//! the selected tokenizer's chat template (the assistant's turn opened
//! after it) and encoded as the model reads it, with what the template
//! adds and any special token's text typed in the turn.

use crate::fertility::tokenizers::TokenizerSet;
use bpeek_core::TokenId;
use bpeek_core::post::chat::Conversation;
use bpeek_core::post::chat_encode::encode_chat;

/// What the turn costs, and what it types that the model takes for a
/// turn marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatCost {
    /// Tokens of the rendered conversation.
    pub tokens: usize,
    /// Tokens of the text alone.
    pub message: usize,
    /// Special tokens' texts typed in the text, with their ids.
    pub forged: Vec<(String, TokenId)>,
    /// Tokens of the rendered conversation with the text encoded as plain
    /// text, when it types a special token.
    pub as_plain: Option<usize>,
}

impl ChatCost {
    /// Tokens the template adds around the text.
    pub fn template(&self) -> i64 {
        self.tokens as i64 - self.message as i64
    }
}

/// A tokenizer's cost of the text as a chat turn, with the (tokenizer
/// stamp, text generation) it was worked out for.
pub type SlotCost = ((u64, u64), Result<ChatCost, String>);

/// Chat mode: on or off, and the cost of the text it was last worked out
/// for.
#[derive(Debug, Clone, Default)]
pub struct ChatTurn {
    pub on: bool,
    /// (tokenizer slot, its stamp, text generation) of `cost`.
    computed_for: Option<(usize, u64, u64)>,
    /// The cost, or why there is none (no template; the template refused).
    pub cost: Option<Result<ChatCost, String>>,
    /// For the fertility view: each tokenizer's cost, with the (stamp,
    /// text generation) it was worked out for.
    pub per_slot: Vec<Option<SlotCost>>,
}

/// The longest text the fertility view renders as a chat turn for every
/// tokenizer at each change (the encode box's own count has no limit).
pub const EVERY_TOKENIZER_UP_TO: usize = 256 << 10;

impl ChatTurn {
    /// Work the cost out again if chat mode is on and the text or the
    /// tokenizer changed.
    pub fn refresh(&mut self, toks: &TokenizerSet, text: &str, generation: u64) {
        if !self.on {
            self.cost = None;
            self.computed_for = None;
            return;
        }
        let slot = toks.selected;
        let key = (slot, toks.slots[slot].stamp, generation);
        if self.computed_for == Some(key) {
            return;
        }
        let Some(tok) = toks.get(slot) else {
            // Still loading: worked out once it is ready.
            self.cost = None;
            return;
        };
        self.computed_for = Some(key);
        self.cost = Some(cost_of(tok, text));
    }

    /// Work out every ready tokenizer's cost of `text` as a chat turn,
    /// where it is out of date (for the fertility view).
    pub fn refresh_all(&mut self, toks: &TokenizerSet, text: &str, generation: u64) {
        if !self.on || text.len() > EVERY_TOKENIZER_UP_TO {
            self.per_slot.clear();
            return;
        }
        self.per_slot.resize(toks.slots.len(), None);
        for (i, slot) in toks.slots.iter().enumerate() {
            let key = (slot.stamp, generation);
            if self.per_slot[i].as_ref().is_some_and(|(k, _)| *k == key) {
                continue;
            }
            self.per_slot[i] = toks.get(i).map(|tok| (key, cost_of(tok, text)));
        }
    }

    /// Tokenizer `i`'s cost of the text of `generation`, if worked out.
    pub fn of_slot(
        &self,
        i: usize,
        stamp: u64,
        generation: u64,
    ) -> Option<&Result<ChatCost, String>> {
        match self.per_slot.get(i)? {
            Some((key, cost)) if *key == (stamp, generation) => Some(cost),
            _ => None,
        }
    }
}

fn cost_of(tok: &bpeek_core::Tokenizer, text: &str) -> Result<ChatCost, String> {
    let Some(template) = tok.chat() else {
        return Err("no chat template".into());
    };
    let chat = Conversation::one("user", text);
    let e = encode_chat(tok, template, &chat, true).map_err(|e| e.to_string())?;
    Ok(ChatCost {
        tokens: e.ids.len(),
        message: e.message_tokens,
        forged: e.forged.iter().map(|f| (f.text.clone(), f.id)).collect(),
        as_plain: e.ids_if_plain.as_ref().map(Vec::len),
    })
}
