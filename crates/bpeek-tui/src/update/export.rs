//! The encode box's ids and tokens taken out of the explorer: to the
//! terminal's clipboard (OSC 52, which reaches a student's own machine over
//! SSH too) or to a file, in exactly the text `bpeek encode` prints for the
//! same text and tokenizer.

use crate::app::App;
use base64::Engine;

/// Texts longer than this are not sent to the clipboard: terminals drop
/// (or choke on) very long OSC 52 sequences. `Y` writes them to a file.
pub const CLIPBOARD_MOST_BYTES: usize = 1 << 20;

/// What `bpeek encode` prints for the encode box's text with its tokenizer,
/// if the whole text is encoded.
pub fn report(app: &App) -> Result<Vec<u8>, String> {
    let enc = &app.encode;
    if enc.text.is_empty() {
        return Err("the encode box is empty: e, type or paste, Esc, then y".into());
    }
    let Some(tok) = enc.encoded_with() else {
        return Err("the encode box's tokenizer is still loading".into());
    };
    if !enc.is_fully_encoded() {
        return Err("the text is still being encoded: try again when it is done".into());
    }
    let mut out = Vec::new();
    bpeek_core::encode_report::write(&mut out, tok, &enc.ids, enc.text.len())
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The escape sequence that puts `text` on the terminal's clipboard.
pub fn osc52(text: &[u8]) -> Vec<u8> {
    let mut out = b"\x1b]52;c;".to_vec();
    out.extend_from_slice(
        base64::engine::general_purpose::STANDARD
            .encode(text)
            .as_bytes(),
    );
    out.push(0x07);
    out
}

/// `y`: the report to the clipboard, sent after the next frame.
pub fn copy(app: &mut App) {
    match report(app) {
        Ok(report) if report.len() > CLIPBOARD_MOST_BYTES => {
            app.notice = Some(format!(
                "{} bytes is too long for a terminal's clipboard: Y writes them to a file",
                report.len()
            ));
        }
        Ok(report) => {
            app.notice = Some(format!(
                "{} ids and tokens on the clipboard, as bpeek encode prints them",
                app.encode.ids.len()
            ));
            app.outgoing.extend_from_slice(&osc52(&report));
        }
        Err(why) => app.notice = Some(why),
    }
}

/// The file `Y` writes, in the current directory.
pub fn file_name(app: &App) -> String {
    let tokenizer = app
        .encode
        .encoded_with()
        .map(|t| t.name().to_string())
        .unwrap_or_default();
    let safe: String = tokenizer
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    format!("bpeek-encode-{safe}.txt")
}

/// `Y`: the report to a file in the current directory.
pub fn save(app: &mut App) {
    save_in(app, std::path::Path::new("."));
}

/// The report to [`file_name`] in `dir` (written whole or not at all). A
/// class's explorers run on the server, whose files are not a student's to
/// write.
pub fn save_in(app: &mut App, dir: &std::path::Path) {
    if app.classroom.is_some() {
        app.notice = Some(
            "in a class, y copies to your own clipboard; no file is written on the server".into(),
        );
        return;
    }
    let report = match report(app) {
        Ok(report) => report,
        Err(why) => {
            app.notice = Some(why);
            return;
        }
    };
    let name = file_name(app);
    let path = dir.join(&name);
    let mut roles = crate::options::input_roles(&app.options);
    roles.push(bpeek_core::formats::same_file::Role::writes(
        name.as_str(),
        &path,
    ));
    let written = bpeek_core::formats::same_file::refuse_outputs_over_inputs(&roles)
        .and_then(|()| bpeek_core::formats::atomic::Output::create(&path))
        .and_then(|mut out| {
            out.writer()?
                .write_all(&report)
                .map_err(|e| out.write_error(&e))?;
            bpeek_core::formats::atomic::commit_all(vec![&mut out])
        });
    app.notice = Some(match written {
        Ok(()) => format!(
            "wrote {name}: {} ids and tokens, as bpeek encode prints them",
            app.encode.ids.len()
        ),
        Err(e) => format!("cannot write {name}: {e}"),
    });
}
