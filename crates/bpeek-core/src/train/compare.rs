//! Merge lists side by side: where lists trained with different options
//! part, and which merges one list has that no other has. Merges are
//! compared by the bytes of their two halves, so lists of different modes
//! or pre-tokenizers can be set beside each other.

/// A merge as bytes: its left half and its right half.
pub type MergeBytes = (Vec<u8>, Vec<u8>);

/// The merges of `trainer` as bytes, from rank `from` on: a list kept
/// beside a trainer that moves is brought up to date from where they part.
pub fn merges_as_bytes(trainer: &crate::Trainer, from: usize) -> Vec<MergeBytes> {
    let vocab = trainer.vocab();
    trainer.merges()[from.min(trainer.merges().len())..]
        .iter()
        .map(|m| {
            (
                vocab.token_bytes(m.pair.0).to_vec(),
                vocab.token_bytes(m.pair.1).to_vec(),
            )
        })
        .collect()
}

/// The first rank at which the lists do not all hold the same merge,
/// among the ranks every list reaches. `None` when they agree on all of
/// those (one may still go on where another stopped).
pub fn first_difference<L: AsRef<[MergeBytes]>>(lists: &[L]) -> Option<usize> {
    let shortest = lists.iter().map(|l| l.as_ref().len()).min()?;
    (0..shortest).find(|&r| lists.iter().any(|l| l.as_ref()[r] != lists[0].as_ref()[r]))
}

/// For each list, for each of its merges, whether no other list has that
/// merge at any rank.
pub fn only_here(lists: &[Vec<MergeBytes>]) -> Vec<Vec<bool>> {
    use std::collections::HashSet;
    let sets: Vec<HashSet<&MergeBytes>> = lists.iter().map(|l| l.iter().collect()).collect();
    lists
        .iter()
        .enumerate()
        .map(|(i, list)| {
            list.iter()
                .map(|m| {
                    sets.iter()
                        .enumerate()
                        .all(|(j, set)| j == i || !set.contains(m))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(merges: &[(&str, &str)]) -> Vec<MergeBytes> {
        merges
            .iter()
            .map(|(a, b)| (a.as_bytes().to_vec(), b.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn the_lists_part_where_one_merge_differs() {
        let a = list(&[("t", "h"), ("th", "e"), (" ", "t")]);
        let b = list(&[("t", "h"), ("e", " "), ("th", "e")]);
        assert_eq!(first_difference(&[a.clone(), b.clone()]), Some(1));
        // ("th","e") is in both lists, at different ranks.
        assert_eq!(
            only_here(&[a, b]),
            [vec![false, false, true], vec![false, true, false]]
        );
    }

    #[test]
    fn a_list_that_stops_early_parts_from_no_one() {
        let a = list(&[("t", "h")]);
        let b = list(&[("t", "h"), ("th", "e")]);
        assert_eq!(first_difference(&[a.clone(), b.clone()]), None);
        assert_eq!(only_here(&[a, b]), [vec![false], vec![false, true]]);
    }

    /// Against the obvious reading on random lists: a rank is the first
    /// difference when all lists reach it, they differ there, and agree on
    /// every rank before it.
    #[test]
    fn random_lists_agree_with_a_naive_reading() {
        let mut next = crate::dice::rolls(0x2545F4914F6CDD1D);
        for _ in 0..500 {
            let k = 2 + next(3) as usize;
            let lists: Vec<Vec<MergeBytes>> = (0..k)
                .map(|_| {
                    (0..next(6))
                        .map(|_| (vec![b'a' + next(3) as u8], vec![b'a' + next(3) as u8]))
                        .collect()
                })
                .collect();
            let shortest = lists.iter().map(Vec::len).min().unwrap();
            let naive = (0..shortest).find(|&r| {
                let firsts: Vec<_> = lists.iter().map(|l| &l[r]).collect();
                firsts.windows(2).any(|w| w[0] != w[1])
            });
            assert_eq!(first_difference(&lists), naive, "{lists:?}");
            for (i, flags) in only_here(&lists).iter().enumerate() {
                for (r, &flag) in flags.iter().enumerate() {
                    let elsewhere = lists
                        .iter()
                        .enumerate()
                        .any(|(j, l)| j != i && l.contains(&lists[i][r]));
                    assert_eq!(flag, !elsewhere, "{lists:?}");
                }
            }
        }
    }
}
