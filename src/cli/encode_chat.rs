//! `encode --chat CHAT.json`: a conversation rendered by a chat template
//! and encoded as the model reads it, with what the template adds and the
//! special tokens typed inside messages.

use crate::cli::args::{EncodeArgs, EncodeFormat};
use crate::cli::input::read_file;
use bpeek_core::encoder::{ChatTemplate, Tokenizer};
use bpeek_core::error::{Error, Result, quoted};
use bpeek_core::post::chat::Conversation;
use bpeek_core::post::chat_encode::{ChatEncoding, encode_chat};
use serde_json::json;
use std::io::Write;
use std::path::Path;

pub fn run(tok: &Tokenizer, chat_file: &Path, args: &EncodeArgs) -> Result<()> {
    if args.allow_special || args.add_special_tokens {
        return Err(Error::input(
            "encode --chat parses the template's special tokens and adds none around it: \
             leave out --allow-special and --add-special-tokens",
        ));
    }
    let name = chat_file.display().to_string();
    let text = read_file(chat_file)?;
    let text =
        std::str::from_utf8(&text).map_err(|_| Error::input(format!("{name}: not UTF-8 text")))?;
    let chat = Conversation::parse(text).map_err(|e| e.context(&name))?;
    let template = template_for(tok, args.chat_template.as_deref())?;
    let encoded = encode_chat(tok, &template, &chat, args.add_generation_prompt)?;
    let roles = chat.roles();
    bpeek_core::output::emit_with(false, |mut out| {
        if args.count {
            return match args.format {
                EncodeFormat::Json => writeln!(out, "{}", summary(&encoded, &roles)),
                _ => writeln!(out, "{}", encoded.ids.len()),
            };
        }
        match args.format {
            EncodeFormat::Json => writeln!(out, "{:#}", report_json(tok, &encoded, &roles)),
            EncodeFormat::Text => write_text(&mut out, tok, &encoded, &roles),
            EncodeFormat::Ids => crate::cli::encode_ids::write_ids(out, &encoded.ids),
            EncodeFormat::U32 => crate::cli::encode_ids::write_u32(out, &encoded.ids),
            EncodeFormat::Npy => crate::cli::encode_ids::write_npy(out, &encoded.ids),
        }
    })
}

/// The template given with `--chat-template`, else the tokenizer's own.
fn template_for(tok: &Tokenizer, file: Option<&Path>) -> Result<ChatTemplate> {
    let tokens = tok.chat().map(|c| c.tokens.clone()).unwrap_or_default();
    let Some(file) = file else {
        return tok.chat().cloned().ok_or_else(|| {
            Error::input(format!(
                "{}: carries no chat template; give one with --chat-template FILE \
                 (a Jinja file or a tokenizer_config.json)",
                tok.name()
            ))
        });
    };
    let name = file.display().to_string();
    let bytes = read_file(file)?;
    let source =
        String::from_utf8(bytes).map_err(|_| Error::input(format!("{name}: not UTF-8 text")))?;
    if file.extension().is_some_and(|e| e == "json") {
        let doc: serde_json::Value = serde_json::from_str(&source)
            .map_err(|e| bpeek_core::formats::limits::json_error(&e).context(&name))?;
        let config =
            bpeek_core::formats::tokenizer_config::parse(&doc).map_err(|e| e.context(&name))?;
        let Some((_, source)) = config.chat_template else {
            return Err(Error::input(format!("{name}: has no chat_template")));
        };
        let tokens = if config.tokens.is_empty() {
            tokens
        } else {
            config.tokens
        };
        return ChatTemplate::new(source, name, tokens);
    }
    ChatTemplate::new(source, name, tokens)
}

/// The counts: all tokens, the messages' own, the template's.
fn summary(e: &ChatEncoding, roles: &[String]) -> serde_json::Value {
    json!({
        "bytes": e.rendered.text.len(),
        "token_count": e.ids.len(),
        "message_tokens": e.message_tokens,
        "template_tokens": e.template_tokens(),
        "warnings": warnings(e, roles),
    })
}

fn warnings(e: &ChatEncoding, roles: &[String]) -> Vec<serde_json::Value> {
    e.forged
        .iter()
        .map(|f| {
            let role = roles.get(f.message).map_or("", String::as_str);
            json!({
                "message": f.message,
                "role": role,
                "special_token": f.text,
                "id": f.id,
                "says": forged_sentence(f.message, role, &f.text, f.id),
            })
        })
        .collect()
}

fn forged_sentence(message: usize, role: &str, text: &str, id: u32) -> String {
    format!(
        "message {} ({role}) types the special token {} (id {id}): the model reads it as a turn marker",
        message + 1,
        quoted(text)
    )
}

fn report_json(tok: &Tokenizer, e: &ChatEncoding, roles: &[String]) -> serde_json::Value {
    let mut doc = summary(e, roles);
    doc["rendered"] = json!(e.rendered.text);
    doc["ids"] = json!(e.ids);
    doc["tokenizer"] = json!(tok.name());
    doc["messages"] = json!(
        e.rendered
            .spans
            .iter()
            .map(|s| json!({"message": s.message, "start": s.start, "end": s.end}))
            .collect::<Vec<_>>()
    );
    if let Some(plain) = &e.ids_if_plain {
        doc["ids_if_messages_plain"] = json!(plain);
    }
    doc
}

fn write_text(
    out: &mut impl Write,
    tok: &Tokenizer,
    e: &ChatEncoding,
    roles: &[String],
) -> std::io::Result<()> {
    writeln!(out, "rendered ({} bytes):", e.rendered.text.len())?;
    writeln!(out, "{}", e.rendered.text)?;
    writeln!(out)?;
    bpeek_core::encode_report::write(out, tok, &e.ids, e.rendered.text.len())?;
    writeln!(
        out,
        "{} tokens: {} from the messages' own text, {} added by the template",
        e.ids.len(),
        e.message_tokens,
        e.template_tokens()
    )?;
    for f in &e.forged {
        let role = roles.get(f.message).map_or("", String::as_str);
        writeln!(
            out,
            "warning: {}",
            forged_sentence(f.message, role, &f.text, f.id)
        )?;
    }
    if let Some(plain) = &e.ids_if_plain {
        let ids: Vec<String> = plain.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "with the messages encoded as plain text: {} tokens: {}",
            plain.len(),
            ids.join(" ")
        )?;
    }
    Ok(())
}
