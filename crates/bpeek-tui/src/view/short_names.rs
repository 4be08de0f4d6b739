//! Names cut to a column so that no two look alike: a long name keeps its
//! head and its tail around an ellipsis (`hf-wo…piece.json`), since names
//! of one family share a head and differ in the middle or the end; where
//! two cuts still collide, the cut moves until the part that tells them
//! apart shows (`hf-w…piece.json`, `hf-w…level.json`).

use crate::view::widths::width;
use unicode_segmentation::UnicodeSegmentation;

/// `names` cut to at most `max` columns each, a cut one as its head, then
/// `ellipsis`, then its tail. Different names come out different whenever
/// some cuts can tell them apart; a name that fits is kept whole.
pub fn distinct_short_names(names: &[&str], max: usize, ellipsis: &str) -> Vec<String> {
    let room = max.saturating_sub(width(ellipsis));
    let mut out: Vec<String> = names
        .iter()
        .map(|n| shorten(n, max, room / 3, ellipsis))
        .collect();
    if room == 0 {
        return out;
    }
    // Each pass settles one group of equal cuts; a group that cannot be
    // told apart stays as it is.
    for _ in 0..names.len() {
        let Some(group) = colliding_group(names, &out, max) else {
            break;
        };
        let others: Vec<String> = (0..out.len())
            .filter(|i| !group.contains(i))
            .map(|i| out[i].clone())
            .collect();
        match split_telling_apart(names, &group, &others, max, room, ellipsis) {
            Some(cuts) => {
                for (&i, cut) in group.iter().zip(cuts) {
                    out[i] = cut;
                }
            }
            None => break,
        }
    }
    out
}

/// The first set of at least two cut names that came out the same and
/// were different names to begin with.
fn colliding_group(names: &[&str], out: &[String], max: usize) -> Option<Vec<usize>> {
    (0..out.len()).find_map(|i| {
        let group: Vec<usize> = (0..out.len())
            .filter(|&j| out[j] == out[i] && width(names[j]) > max)
            .collect();
        let distinct = group.iter().any(|&j| names[j] != names[group[0]]);
        (group.len() > 1 && distinct).then_some(group)
    })
}

/// Cuts of the names in `group` that differ from one another and from
/// `others`: one head width for all of them, the nearest to a third of
/// the room first; failing that, a head width of its own for each (the
/// ellipsis then stands in a different place in each).
fn split_telling_apart(
    names: &[&str],
    group: &[usize],
    others: &[String],
    max: usize,
    room: usize,
    ellipsis: &str,
) -> Option<Vec<String>> {
    let usual = room / 3;
    let mut heads: Vec<usize> = (0..=room).collect();
    heads.sort_by_key(|&h| (h.abs_diff(usual), std::cmp::Reverse(room - h)));
    let fine = |cuts: &[String]| {
        let mut seen: Vec<&String> = others.iter().collect();
        cuts.iter().all(|c| {
            let new = !seen.contains(&c);
            seen.push(c);
            new
        })
    };
    for &head in &heads {
        let cuts: Vec<String> = group
            .iter()
            .map(|&i| shorten(names[i], max, head, ellipsis))
            .collect();
        if fine(&cuts) {
            return Some(cuts);
        }
    }
    if group.len() > heads.len() {
        return None;
    }
    let cuts: Vec<String> = group
        .iter()
        .zip(&heads)
        .map(|(&i, &head)| shorten(names[i], max, head, ellipsis))
        .collect();
    fine(&cuts).then_some(cuts)
}

/// `name` whole if it fits `max` columns, else its first graphemes up to
/// `head` columns, `ellipsis`, and its last graphemes in the room left.
pub fn shorten(name: &str, max: usize, head: usize, ellipsis: &str) -> String {
    if width(name) <= max {
        return name.to_string();
    }
    let ell = width(ellipsis);
    if max < ell + 1 {
        return crate::view::widths::truncate(name, max, "");
    }
    let room = max - ell;
    let graphemes: Vec<&str> = name.graphemes(true).collect();
    let mut front = 0;
    let mut used = 0;
    while front < graphemes.len() && used + width(graphemes[front]) <= head.min(room) {
        used += width(graphemes[front]);
        front += 1;
    }
    let mut back = graphemes.len();
    while back > front && used + width(graphemes[back - 1]) <= room {
        used += width(graphemes[back - 1]);
        back -= 1;
    }
    format!(
        "{}{ellipsis}{}",
        graphemes[..front].concat(),
        graphemes[back..].concat()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_hugging_face_files_keep_what_tells_them_apart() {
        let names = ["hf-wordpiece.json", "hf-wordlevel.json", "gpt2"];
        assert_eq!(
            distinct_short_names(&names, 16, "…"),
            ["hf-wo…piece.json", "hf-wo…level.json", "gpt2"]
        );
        // Too narrow for `piece`/`level`: the tails `e.json` and `l.json`.
        let cut = distinct_short_names(&names, 9, "…");
        assert_eq!(cut, ["hf…e.json", "hf…l.json", "gpt2"]);
        // Wide enough: whole.
        assert_eq!(distinct_short_names(&names, 20, "…"), names);
    }

    #[test]
    fn names_that_differ_only_in_the_middle_move_the_cut() {
        let names = ["model-aaaa-v1.json", "model-bbbb-v1.json"];
        let cut = distinct_short_names(&names, 10, "...");
        assert_eq!(cut, ["model-a...", "model-b..."]);
    }
}
