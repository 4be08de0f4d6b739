//! The list of tokenizers by name (`N`): the Hugging Face cache's
//! repositories and Ollama's models that the explorer does not have yet,
//! one of which Enter adds and selects.

use bpeek_core::formats::catalog::{self, Source};

/// One name the picker offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickRow {
    /// The name `--tokenizer` takes.
    pub name: String,
    /// Where it lives: `hf-cache`, `ollama`.
    pub source: &'static str,
}

/// The open list and its cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker {
    pub rows: Vec<PickRow>,
    pub at: usize,
}

impl Picker {
    /// The names there are on this machine, less the built-ins and those
    /// in `have`; `None` if there are none.
    pub fn of_this_machine(have: &[String]) -> Option<Picker> {
        let rows: Vec<PickRow> = catalog::entries()
            .into_iter()
            .filter(|e| e.source != Source::BuiltIn && e.problem.is_none())
            .filter(|e| !have.contains(&e.name))
            .map(|e| PickRow {
                name: e.name,
                source: e.source.label(),
            })
            .collect();
        (!rows.is_empty()).then_some(Picker { rows, at: 0 })
    }

    /// Move the cursor by `by` rows, stopping at either end.
    pub fn move_by(&mut self, by: i8) {
        let last = self.rows.len().saturating_sub(1) as isize;
        self.at = (self.at as isize + isize::from(by)).clamp(0, last) as usize;
    }

    /// The name under the cursor.
    pub fn chosen(&self) -> Option<&str> {
        self.rows.get(self.at).map(|r| r.name.as_str())
    }
}

/// What the explorer says when there is nothing to pick: where it looked.
pub fn nothing_found() -> String {
    format!(
        "no tokenizers by name: none in the Hugging Face cache ({}) or Ollama's store ({}); \
         `hf download ORG/NAME tokenizer.json tokenizer_config.json` puts one there",
        bpeek_core::formats::hub_cache::cache_dir().display(),
        bpeek_core::formats::ollama::store_dir().display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stops_at_either_end() {
        let row = |n: &str| PickRow {
            name: n.into(),
            source: "ollama",
        };
        let mut p = Picker {
            rows: vec![row("a"), row("b"), row("c")],
            at: 0,
        };
        p.move_by(-1);
        assert_eq!(p.chosen(), Some("a"));
        p.move_by(10);
        assert_eq!(p.chosen(), Some("c"));
        p.move_by(-1);
        assert_eq!(p.chosen(), Some("b"));
    }
}
