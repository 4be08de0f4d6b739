//! `W` in the fertility view: its cost table written as
//! `bpeek-fertility-N.csv` and `.json`, exactly what `bpeek fertility
//! --format csv` and `--format json` print for the same texts and
//! tokenizers (one writer makes both, see
//! [`bpeek_core::fertility_report`]).

use crate::app::App;
use crate::fertility::TextSource;
use bpeek_core::Tokenizer;
use bpeek_core::corpora::SAMPLES;
use bpeek_core::fertility::{self, Row};
use bpeek_core::fertility_report;
use std::path::Path;
use std::sync::Arc;

/// Why nothing is written in a class (see [`super::save_screen`]).
const REFUSED_IN_CLASS: &str = "in a class the explorer runs on the server, so W writes no file there; \
     bpeek fertility --format csv or json on your own machine gives the same table";

/// The texts the view measures, each with the label `bpeek fertility`
/// gives it, the label premiums are measured against, and whether they
/// are the bundled samples (`--samples`).
type Texts = (Vec<(String, String)>, Option<String>, bool);

fn texts(app: &App) -> Texts {
    if app.fert.effective_source(&app.encode.text) == TextSource::Samples {
        let texts = SAMPLES
            .iter()
            .map(|s| (s.code.to_string(), s.text.to_string()))
            .collect();
        return (texts, Some("en".into()), true);
    }
    // Pasted text is `bpeek fertility TEXT`, its English `--english F`.
    let mut texts = vec![("text".to_string(), app.encode.text.clone())];
    let english = app.fert.english.as_ref().map(|(path, text)| {
        let label = format!("english:{path}");
        texts.insert(0, (label.clone(), text.clone()));
        label
    });
    (texts, english, false)
}

/// The view's tokenizers, all loaded; why not, if one is still loading.
fn tokenizers(app: &App) -> Result<Vec<Arc<Tokenizer>>, String> {
    let mut out = Vec::new();
    for (i, slot) in app.toks.slots.iter().enumerate() {
        if slot.is_loading() {
            return Err(format!(
                "{} is still loading: try W again when it is in",
                slot.label
            ));
        }
        // A tokenizer that failed to load is left out, as the view does.
        out.extend(app.toks.get(i).cloned());
    }
    Ok(out)
}

/// The CSV and the JSON of the view's cost table.
pub fn reports(app: &App) -> Result<(String, String), String> {
    let toks = tokenizers(app)?;
    let (texts, english, samples) = texts(app);
    let mut rows: Vec<Row> = Vec::new();
    for tok in &toks {
        for (label, text) in &texts {
            rows.push(fertility::measure(tok, label, text));
        }
    }
    if let Some(en) = &english {
        fertility_report::add_premiums(&mut rows, en, samples);
    }
    let kinds: Vec<&Tokenizer> = toks.iter().map(|t| t.as_ref()).collect();
    let json = format!("{}\n", fertility_report::json(&kinds, &rows));
    Ok((fertility_report::csv(&rows), json))
}

/// `W`: the tables in the current directory.
pub fn save(app: &mut App) {
    save_in(app, Path::new("."));
}

/// The tables as `bpeek-fertility-N.csv` and `.json` in `dir`.
pub fn save_in(app: &mut App, dir: &Path) {
    if app.classroom.is_some() {
        app.notice = Some(REFUSED_IN_CLASS.into());
        return;
    }
    let (csv, json) = match reports(app) {
        Ok(both) => both,
        Err(why) => {
            app.notice = Some(why);
            return;
        }
    };
    let files = [("csv", csv.as_bytes()), ("json", json.as_bytes())];
    app.notice = Some(
        match super::new_files::write_new(dir, "bpeek-fertility", &files) {
            Ok(names) => format!(
                "wrote {}: bpeek fertility's csv and json",
                names.join(" and ")
            ),
            Err(e) => format!("cannot write the tables: {e}"),
        },
    );
}
