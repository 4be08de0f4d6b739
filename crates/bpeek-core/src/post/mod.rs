//! The post-processor: the tokens a Hugging Face file's template (or a
//! SentencePiece model's BOS/EOS) puts around the ids of one text, when
//! `--add-special-tokens` asks for them.

pub mod chat;
pub mod chat_date;
pub mod chat_encode;
pub mod chat_json;
pub mod length;

use crate::TokenId;
use crate::error::{Error, Result};

/// The tokens a model puts around one text (its post-processor's
/// template for a single sequence).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Template {
    Around {
        before: Vec<TokenId>,
        after: Vec<TokenId>,
    },
    /// The file's post-processor, which bpeek does not read: why.
    Unsupported(String),
}

impl Template {
    /// `ids` with the template's tokens around them, or (a post-processor
    /// bpeek does not read) why not.
    pub fn around(&self, ids: Vec<TokenId>) -> Result<Vec<TokenId>> {
        match self {
            Template::Around { before, after } => {
                let mut out = Vec::with_capacity(before.len() + ids.len() + after.len());
                out.extend_from_slice(before);
                out.extend(ids);
                out.extend_from_slice(after);
                Ok(out)
            }
            Template::Unsupported(why) => Err(Error::input(format!("--add-special-tokens: {why}"))),
        }
    }
}
