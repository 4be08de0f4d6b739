//! The merge tree of the selected token.

use super::*;

/// Open the merge tree of the token selected where the eye is: the
/// fertility view's token line, the encode box or the merge list.
pub(super) fn open_tree(app: &mut App) {
    let tree = if app.fert.open || app.focus == Focus::Encode {
        let tok = app.toks.get(app.toks.selected);
        let (token, tok) = if app.fert.open && app.fert.panel == Panel::Merges {
            // The merge selected in the panel's list, not the token line's.
            let id = tok.and_then(|tok| {
                let (rows, first) = merge_rows(tok);
                let at = app
                    .fert
                    .merge_row
                    .unwrap_or(first)
                    .min(rows.checked_sub(1)?);
                crate::fertility::merge_row(tok, at).map(|m| m.id)
            });
            (id, tok)
        } else if app.fert.open {
            (app.fert.selected_token().map(|t| t.id), tok)
        } else {
            (
                app.encode
                    .selected
                    .and_then(|i| app.encode.token(i))
                    .map(|t| t.id),
                tok,
            )
        };
        match (token, tok) {
            (Some(id), Some(tok)) => {
                let source = app.toks.selected_slot().label.clone();
                // The selected tokenizer's tokens, drawn as its token line
                // draws them.
                let shown = |bytes: &[u8]| crate::view::fertility::shown(app, bytes);
                Some(merge_tree::of_token(
                    tok,
                    id,
                    &shown,
                    app.theme.glyphs.ellipsis,
                    &source,
                ))
            }
            _ => None,
        }
    } else {
        app.selected_merge().map(|rank| {
            let trainer = app.trainer();
            let merges = trainer.merges();
            let base = trainer.vocab().base_size() as u32;
            let made_by = |id: u32| {
                let m = merges.get(id.checked_sub(base)? as usize)?;
                (m.id == id).then_some(bpeek_core::encoder::MadeBy {
                    rank: m.rank as u32,
                    left: m.pair.0,
                    right: m.pair.1,
                })
            };
            merge_tree::build(
                merges[rank].id,
                &made_by,
                &|id| crate::view::trained_label(app, trainer, trainer.vocab().token_bytes(id)),
                crate::panes::merge_number::Numbering::List,
                "the merges so far",
            )
        })
    };
    match tree {
        Some(tree) => app.tree = Some(tree),
        None => {
            app.notice = Some(
                "select a token first: a merge in the merge list, [ ] in the encode box or the fertility view"
                    .into(),
            )
        }
    }
}
