//! Fitting text into a number of columns, measured by display width the
//! way ratatui measures it, and cut only between grapheme clusters.

use crate::panes::rows::cell_width;
use unicode_segmentation::UnicodeSegmentation;

pub fn width(s: &str) -> usize {
    cell_width(s)
}

/// `s` cut to at most `max` columns, ending in `ellipsis` if it was cut.
pub fn truncate(s: &str, max: usize, ellipsis: &str) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    let room = max.saturating_sub(width(ellipsis));
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = width(g);
        if used + w > room {
            break;
        }
        out.push_str(g);
        used += w;
    }
    if max >= width(ellipsis) {
        out.push_str(ellipsis);
    }
    out
}

/// `s` cut from the left to at most `max` columns, starting with
/// `ellipsis` if it was cut: the end of a path says most.
pub fn truncate_left(s: &str, max: usize, ellipsis: &str) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    let room = max.saturating_sub(width(ellipsis));
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 0;
    for g in s.graphemes(true).rev() {
        let w = width(g);
        if used + w > room {
            break;
        }
        kept.push(g);
        used += w;
    }
    kept.reverse();
    let head = if max >= width(ellipsis) { ellipsis } else { "" };
    format!("{head}{}", kept.concat())
}

/// `s` cut or padded with spaces to exactly `cols` columns.
pub fn fit_left(s: &str, cols: usize, ellipsis: &str) -> String {
    let mut out = truncate(s, cols, ellipsis);
    let w = width(&out);
    out.extend(std::iter::repeat_n(' ', cols.saturating_sub(w)));
    out
}

/// `s` right-aligned in `cols` columns (cut on the right if too long).
pub fn fit_right(s: &str, cols: usize, ellipsis: &str) -> String {
    let out = truncate(s, cols, ellipsis);
    let pad = cols.saturating_sub(width(&out));
    format!("{}{out}", " ".repeat(pad))
}

/// A number right-aligned in `cols` columns with at least one blank before
/// it, so columns never run together. One too wide is shortened, never cut:
/// fewer decimals first, then a suffix (`20972k` or `21.0M` for 20971535). Text that is
/// not a number (`-`, `…`) is right-aligned as it is.
pub fn fit_number(s: &str, cols: usize) -> String {
    let room = cols.saturating_sub(1);
    let shown = match s.parse::<f64>() {
        Ok(v) if width(s) > room && v.is_finite() => shorter_number(v, room),
        _ => s.to_string(),
    };
    fit_right(&shown, cols, "")
}

/// `v` in at most `room` columns if any of the shorter forms fits, else
/// the shortest of them.
fn shorter_number(v: f64, room: usize) -> String {
    let mut forms = vec![format!("{v:.1}"), format!("{v:.0}")];
    for (scale, suffix) in [(1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T")] {
        if v.abs() >= scale {
            forms.push(format!("{:.1}{suffix}", v / scale));
            forms.push(format!("{:.0}{suffix}", v / scale));
        }
    }
    forms
        .iter()
        .find(|f| width(f) <= room)
        .cloned()
        .unwrap_or_else(|| {
            forms
                .into_iter()
                .min_by_key(|f| width(f))
                .unwrap_or_default()
        })
}

/// Join items with `sep`, dropping the least important (highest rank)
/// first until the line fits in `max` columns. Order is kept.
pub fn fit_items(items: &[(usize, String)], sep: &str, max: usize) -> String {
    let mut keep: Vec<bool> = vec![true; items.len()];
    loop {
        let line = items
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|((_, s), _)| s.as_str())
            .collect::<Vec<_>>()
            .join(sep);
        if width(&line) <= max {
            return line;
        }
        let drop = items
            .iter()
            .enumerate()
            .filter(|(i, _)| keep[*i])
            .max_by_key(|(i, (rank, _))| (*rank, *i))
            .map(|(i, _)| i);
        match drop {
            Some(i) if keep.iter().filter(|k| **k).count() > 1 => keep[i] = false,
            _ => return truncate(&line, max, ""),
        }
    }
}

/// A pane's two top titles fitted to a border `cols` columns wide (each
/// drawn with a space either side, one border cell kept between them).
/// The left title is `left[0]` followed by the less important `left[1..]`;
/// what gives way first is the left title's tail, last part first, then
/// the right title's `, `-separated items from its end, then the left
/// title's words from its end, marked by `ellipsis`. The right title's
/// items end at any of `seps`. A word is cut in two
/// only when it alone is too wide.
pub fn fit_titles(
    left: &[&str],
    right: &str,
    seps: &[&str],
    cols: usize,
    ellipsis: &str,
) -> (String, String) {
    let room = cols.saturating_sub(2);
    let mut parts: Vec<&str> = left.to_vec();
    // Where each of the right title's items ends: it is shown up to one.
    let mut ends: Vec<usize> = seps
        .iter()
        .flat_map(|sep| right.match_indices(sep).map(|(i, _)| i))
        .collect();
    ends.sort_unstable();
    if !right.is_empty() {
        ends.push(right.len());
    }
    let mut items = ends.len();
    let all_words = left.first().map_or(0, |l| l.split(' ').count());
    let mut words = all_words;
    loop {
        let head: Vec<&str> = parts
            .first()
            .map_or(Vec::new(), |l| l.split(' ').take(words).collect());
        let mut l = head.join(" ");
        if words < all_words {
            l.push_str(ellipsis);
        }
        for tail in parts.iter().skip(1) {
            l.push(' ');
            l.push_str(tail);
        }
        let r = match items {
            0 => "",
            n => &right[..ends[n - 1]],
        };
        let need = width(&l) + 2 + if r.is_empty() { 0 } else { width(r) + 3 };
        if need <= room {
            return (l, r.to_string());
        }
        if parts.len() > 1 {
            parts.pop();
        } else if items > 0 {
            items -= 1;
        } else if words > 1 {
            words -= 1;
        } else {
            return (
                truncate(&l, room.saturating_sub(2), ellipsis),
                String::new(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_lose_whole_items_then_whole_words() {
        let fit = |w| {
            fit_titles(
                &["Pairs changed 11", "of 31"],
                "5 new, 6 gone",
                &[", "],
                w,
                "…",
            )
        };
        assert_eq!(
            fit(60),
            ("Pairs changed 11 of 31".into(), "5 new, 6 gone".into())
        );
        assert_eq!(fit(36), ("Pairs changed 11".into(), "5 new, 6 gone".into()));
        assert_eq!(fit(30), ("Pairs changed 11".into(), "5 new".into()));
        assert_eq!(fit(20), ("Pairs changed 11".into(), String::new()));
        assert_eq!(fit(18), ("Pairs changed…".into(), String::new()));
        assert_eq!(fit(8), ("Pai…".into(), String::new()));
        for w in 0..60 {
            let (l, r) = fit(w);
            let need = width(&l) + 2 + if r.is_empty() { 0 } else { width(&r) + 3 };
            assert!(need <= w.saturating_sub(2) || w < 8, "{w}: {l:?} {r:?}");
        }
    }

    #[test]
    fn wide_characters_count_twice() {
        assert_eq!(truncate("日本語", 5, "…"), "日本…");
        assert_eq!(fit_left("日本", 6, "…"), "日本  ");
        assert_eq!(fit_right("ab", 4, "…"), "  ab");
    }

    #[test]
    fn paths_are_cut_from_the_left() {
        assert_eq!(
            truncate_left("corpora/samples/hi.txt", 10, "…"),
            "…es/hi.txt"
        );
        assert_eq!(truncate_left("short", 10, "…"), "short");
    }

    #[test]
    fn least_important_items_go_first() {
        let items = [
            (0, "aaaa".to_string()),
            (2, "bbbb".into()),
            (1, "cc".into()),
        ];
        assert_eq!(fit_items(&items, " ", 20), "aaaa bbbb cc");
        assert_eq!(fit_items(&items, " ", 8), "aaaa cc");
    }

    #[test]
    fn numbers_are_shortened_never_cut_and_never_touch() {
        assert_eq!(fit_number("20971535", 7), " 20972k");
        assert_eq!(fit_number("20971535", 6), " 21.0M");
        assert_eq!(fit_number("5454.72", 7), " 5454.7");
        assert_eq!(fit_number("233.19", 7), " 233.19");
        assert_eq!(fit_number("123456.78", 7), " 123457");
        assert_eq!(fit_number("-", 7), "      -");
        // Joined, the cells of one row stay apart.
        let row = format!("{}{}", fit_number("5.45", 5), fit_number("47233.19", 7));
        assert_eq!(row, " 5.45  47233");
    }
}
