//! Sets of elements as rows of bits: the native finder's cell domains, and its per-sort sets
//! (elements mentioned so far, open relabellings).
//!
//! Every row has the same number of 64-bit words, enough for the widest row, so that row `r`
//! starts at word `r · words`. Sorts of up to 64 elements take one word per row, which is what
//! the finder used before it took larger sorts; a sort of 81 elements takes two. There is no
//! upper bound of its own: the finder's limits on cells, instances and memory (which count these
//! words) say what a problem costs.

/// Equal-width bit sets, one per row, in one vector (module doc).
#[derive(Clone, Debug)]
pub(crate) struct BitRows {
    words: usize,
    bits: Vec<u64>,
}

/// How many elements a row holds: none, one (which), or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowSize {
    Empty,
    Single(u32),
    Many,
}

/// Words a set of `n` elements needs (at least one).
pub(crate) fn words_for(n: u32) -> usize {
    (n as usize).div_ceil(64).max(1)
}

/// Words per row for rows of these widths: as many as the widest needs.
fn row_words(widths: impl IntoIterator<Item = u32>) -> usize {
    widths.into_iter().map(words_for).max().unwrap_or(1)
}

/// Word `w` of the set {0, …, n − 1}.
pub(crate) fn range_word(n: u32, w: usize) -> u64 {
    let below = (n as usize).saturating_sub(64 * w);
    if below >= 64 {
        u64::MAX
    } else {
        (1u64 << below) - 1
    }
}

/// Bit `v % 64` of a word, and the word within a row that holds `v`.
fn place(v: u32) -> (usize, u64) {
    ((v / 64) as usize, 1u64 << (v % 64))
}

impl BitRows {
    /// One row per width `n`, holding {0, …, n − 1}.
    pub fn full(widths: impl IntoIterator<Item = u32> + Clone) -> BitRows {
        let words = row_words(widths.clone());
        let bits = widths
            .into_iter()
            .flat_map(|n| (0..words).map(move |w| range_word(n, w)))
            .collect();
        BitRows { words, bits }
    }

    /// One empty row per width `n`, with room for {0, …, n − 1}.
    pub fn empty(widths: impl IntoIterator<Item = u32> + Clone) -> BitRows {
        let words = row_words(widths.clone());
        BitRows {
            words,
            bits: vec![0; words * widths.into_iter().count()],
        }
    }

    /// The words of row `r`.
    pub fn row(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }

    /// How many elements row `r` holds.
    pub fn count(&self, r: usize) -> u32 {
        self.row(r).iter().map(|w| w.count_ones()).sum()
    }

    /// The greatest element of row `r`, if it holds any.
    pub fn greatest(&self, r: usize) -> Option<u32> {
        let row = self.row(r);
        row.iter()
            .rposition(|&w| w != 0)
            .map(|w| 64 * w as u32 + 63 - row[w].leading_zeros())
    }

    /// Whether row `r` holds `v`.
    pub fn contains(&self, r: usize, v: u32) -> bool {
        let (w, bit) = place(v);
        self.bits[r * self.words + w] & bit != 0
    }

    /// Adds `v` to row `r`.
    pub fn insert(&mut self, r: usize, v: u32) {
        let (w, bit) = place(v);
        self.bits[r * self.words + w] |= bit;
    }

    /// Takes `v` out of row `r`, with nothing to undo.
    pub fn clear(&mut self, r: usize, v: u32) {
        let (w, bit) = place(v);
        self.bits[r * self.words + w] &= !bit;
    }

    /// Takes `v` out of row `r`. When it was there, returns the changed word's position and its
    /// old value, for [`BitRows::restore`].
    pub fn remove(&mut self, r: usize, v: u32) -> Option<(usize, u64)> {
        let (w, bit) = place(v);
        let at = r * self.words + w;
        let old = self.bits[at];
        (old & bit != 0).then(|| {
            self.bits[at] = old & !bit;
            (at, old)
        })
    }

    /// Puts back a word that [`BitRows::remove`] changed.
    pub fn restore(&mut self, at: usize, old: u64) {
        self.bits[at] = old;
    }

    /// How many elements row `r` holds, as far as propagation cares.
    pub fn size(&self, r: usize) -> RowSize {
        let one = |w: usize, word: u64| match word.count_ones() {
            0 => RowSize::Empty,
            1 => RowSize::Single(64 * w as u32 + word.trailing_zeros()),
            _ => RowSize::Many,
        };
        if self.words == 1 {
            // Sorts of up to 64 elements, the common case, without the loop.
            return one(0, self.bits[r]);
        }
        let mut found = RowSize::Empty;
        for (w, &word) in self.row(r).iter().enumerate() {
            match (one(w, word), found) {
                (RowSize::Empty, _) => {}
                (single @ RowSize::Single(_), RowSize::Empty) => found = single,
                _ => return RowSize::Many,
            }
        }
        found
    }

    /// The least element of row `r` that is at least `from`.
    pub fn next_from(&self, r: usize, from: u32) -> Option<u32> {
        if self.words == 1 {
            // Sorts of up to 64 elements, the common case, without the loop.
            let word = if from < 64 {
                self.bits[r] & (u64::MAX << from)
            } else {
                0
            };
            return (word != 0).then(|| word.trailing_zeros());
        }
        let (first, _) = place(from);
        let row = self.row(r);
        let mut w = first;
        let mut word = *row.get(w)? & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return Some(64 * w as u32 + word.trailing_zeros());
            }
            w += 1;
            word = *row.get(w)?;
        }
    }
}

/// Takes the least element out of a bit set held in `words`.
pub(crate) fn pop_least(words: &mut [u64]) -> Option<u32> {
    let w = words.iter().position(|&x| x != 0)?;
    let v = 64 * w as u32 + words[w].trailing_zeros();
    words[w] &= words[w] - 1;
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of several widths against a plain list of sets.
    #[test]
    fn rows_behave_as_sets() {
        let widths = [1u32, 4, 63, 64, 65, 81, 130];
        let mut rows = BitRows::full(widths);
        assert_eq!(rows.row(0).len(), 3, "130 elements take three words");
        let mut sets: Vec<Vec<bool>> = widths.iter().map(|&n| vec![true; n as usize]).collect();
        let check = |rows: &BitRows, sets: &[Vec<bool>]| {
            for (r, set) in sets.iter().enumerate() {
                let listed: Vec<u32> =
                    std::iter::successors(rows.next_from(r, 0), |&v| rows.next_from(r, v + 1))
                        .collect();
                let expected: Vec<u32> =
                    (0..set.len() as u32).filter(|&v| set[v as usize]).collect();
                assert_eq!(listed, expected, "row {r}");
                let size = match expected[..] {
                    [] => RowSize::Empty,
                    [v] => RowSize::Single(v),
                    _ => RowSize::Many,
                };
                assert_eq!(rows.size(r), size, "row {r}");
                assert_eq!(
                    (rows.count(r), rows.greatest(r)),
                    (expected.len() as u32, expected.last().copied()),
                    "row {r}"
                );
                for v in 0..set.len() as u32 {
                    assert_eq!(rows.contains(r, v), set[v as usize]);
                }
            }
        };
        check(&rows, &sets);
        let mut undo = Vec::new();
        // Keep only the elements 3, 10, 17, …: the first row becomes empty, the second {3}.
        for (r, set) in sets.iter_mut().enumerate() {
            for v in (0..set.len() as u32).filter(|v| v % 7 != 3) {
                undo.extend(rows.remove(r, v));
                assert_eq!(rows.remove(r, v), None, "removing twice changes nothing");
                set[v as usize] = false;
            }
        }
        check(&rows, &sets);
        for (at, old) in undo.into_iter().rev() {
            rows.restore(at, old);
        }
        let full: Vec<Vec<bool>> = widths.iter().map(|&n| vec![true; n as usize]).collect();
        check(&rows, &full);
        rows.clear(5, 80);
        assert!(!rows.contains(5, 80));
        rows.insert(5, 80);
        check(&rows, &full);
        let mut one_word = BitRows::full([5, 64]);
        one_word.clear(1, 0);
        let mut set = [0b1010u64, 1 << 63];
        assert_eq!(
            [
                pop_least(&mut set),
                pop_least(&mut set),
                pop_least(&mut set),
                pop_least(&mut set)
            ],
            [Some(1), Some(3), Some(127), None]
        );
        assert_eq!(
            (
                one_word.next_from(1, 0),
                one_word.next_from(1, 63),
                one_word.next_from(1, 64),
                one_word.next_from(0, 5)
            ),
            (Some(1), Some(63), None, None)
        );
        let mut empty = BitRows::empty(widths);
        check(
            &empty,
            &widths
                .iter()
                .map(|&n| vec![false; n as usize])
                .collect::<Vec<_>>(),
        );
        (0..81).for_each(|v| empty.insert(5, v));
        assert_eq!(empty.row(5), rows.row(5));
    }
}
