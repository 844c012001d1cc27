//! Model spectra: the number of models of each size, up to isomorphism and labeled.

use crate::budget::{Budget, Count};
use crate::finder::{FinderError, Timing};
use crate::router::{self, Engine};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};

/// One row of a spectrum: how many models there are at one size tuple. This is the row every
/// crate passes around and the library stores; what a count cost is in [`TimedRow`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpectrumRow {
    /// Size of each sort.
    pub sizes: Vec<u32>,
    /// Models up to isomorphism.
    pub iso: Count,
    /// Labeled models.
    pub labeled: Count,
}

impl SpectrumRow {
    /// The counts of one enumeration.
    pub fn of(e: &crate::finder::Enumeration) -> SpectrumRow {
        SpectrumRow {
            sizes: e.sizes.clone(),
            iso: e.iso,
            labeled: e.labeled,
        }
    }
}

/// A spectrum row counted here, with what the count cost: what `spectrum` and `sweep` report
/// and a sweep's job results hold. In JSON the row's fields come first, then the costs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedRow {
    /// The counts.
    #[serde(flatten)]
    pub counts: SpectrumRow,
    /// Wall-clock seconds.
    #[serde(default)]
    pub seconds: f64,
    /// Search nodes.
    #[serde(default)]
    pub nodes: u64,
    /// Where the time went (absent in files written before it was recorded).
    #[serde(default)]
    pub timing: Timing,
}

impl TimedRow {
    /// The row of one enumeration, with its costs.
    pub fn of(e: &crate::finder::Enumeration) -> TimedRow {
        TimedRow {
            counts: SpectrumRow::of(e),
            seconds: e.elapsed.as_secs_f64(),
            nodes: e.nodes,
            timing: e.timing,
        }
    }

    /// The row of one enumeration of `sizes`, with its costs.
    fn at(sizes: &[u32], e: &crate::finder::Enumeration) -> TimedRow {
        let mut timed = TimedRow::of(e);
        timed.counts.sizes = sizes.to_vec();
        timed
    }
}

/// The size tuples of a spectrum up to `max`: `[1], [2], ...` for one sort; for several sorts,
/// every tuple with entries in `1..=max`, by total size and then lexicographically.
pub fn size_tuples(sorts: usize, max: u32) -> SizeTuples {
    SizeTuples::between(sorts, 1, max)
}

/// How many size tuples [`SizeTuples::between`] yields: `(hi - lo + 1)^sorts`, saturating.
pub fn size_tuple_count(sorts: usize, lo: u32, hi: u32) -> u128 {
    if lo > hi || lo == 0 {
        return 0;
    }
    let per_sort = (hi - lo) as u128 + 1;
    (0..sorts)
        .try_fold(1u128, |n, _| n.checked_mul(per_sort))
        .unwrap_or(u128::MAX)
}

/// The most size tuples one spectrum may ask for: each is a search of its own.
pub const MAX_SPECTRUM_TUPLES: u128 = 10_000;

/// The size tuples a spectrum of a theory with `sorts` sorts walks, each sort from `min` to
/// `max`, or an error that says how many there would be and what to change, when there are more
/// than `MAX_SPECTRUM_TUPLES`.
pub fn planned_tuples(sorts: usize, min: u32, max: u32) -> Result<SizeTuples, String> {
    let count = size_tuple_count(sorts, min, max);
    if count > MAX_SPECTRUM_TUPLES {
        return Err(format!(
            "{sorts} sorts, each of size {min} to {max}, make {count} size tuples, more than the {MAX_SPECTRUM_TUPLES} a spectrum may walk: lower --max-size or raise --min-size"
        ));
    }
    Ok(SizeTuples::between(sorts, min, max))
}

/// Every size tuple with each sort between `lo` and `hi`, smallest total first, then
/// lexicographically; made one at a time, since a theory with many sorts has more tuples than fit
/// in memory (16 sorts up to size 3: 43 million).
#[derive(Clone, Debug)]
pub struct SizeTuples {
    lo: u32,
    hi: u32,
    next: Option<Vec<u32>>,
}

impl SizeTuples {
    /// The tuples of `sorts` sizes, each in `lo..=hi`.
    pub fn between(sorts: usize, lo: u32, hi: u32) -> SizeTuples {
        let next = (lo <= hi && lo >= 1).then(|| vec![lo; sorts]);
        SizeTuples { lo, hi, next }
    }

    /// Fills `slots` with the lexicographically least sizes in `lo..=hi` summing to `total`, if any.
    fn least(&self, slots: &mut [u32], mut total: u64) -> bool {
        let k = slots.len() as u64;
        if total < k * self.lo as u64 || total > k * self.hi as u64 {
            return false;
        }
        for (j, slot) in slots.iter_mut().enumerate() {
            let after = k - j as u64 - 1;
            // As small as the slots after it allow: they take at most `hi` each.
            let v = (self.lo as u64).max(total.saturating_sub(after * self.hi as u64));
            *slot = v as u32;
            total -= v;
        }
        true
    }
}

impl Iterator for SizeTuples {
    type Item = Vec<u32>;

    fn next(&mut self) -> Option<Vec<u32>> {
        let current = self.next.take()?;
        let mut t = current.clone();
        // The next tuple of the same total: raise the rightmost entry that can be raised while the
        // entries after it still reach the total, and make those the least they can be.
        let mut advanced = false;
        for i in (0..t.len().saturating_sub(1)).rev() {
            let rest: u64 = t[i + 1..].iter().map(|&v| v as u64).sum();
            if t[i] < self.hi && rest > (t.len() - i - 1) as u64 * self.lo as u64 {
                t[i] += 1;
                if self.least(&mut t[i + 1..], rest - 1) {
                    advanced = true;
                    break;
                }
                t[i] -= 1;
            }
        }
        if !advanced {
            // The least tuple of the next total, if there is one.
            let total: u64 = current.iter().map(|&v| v as u64).sum::<u64>() + 1;
            advanced = !t.is_empty() && self.least(&mut t, total);
        }
        self.next = advanced.then_some(t);
        Some(current)
    }
}

/// Computes one row of the spectrum with the chosen engine, and says which engine answered and
/// why (under `auto`, the counting race of [`router::count_by`]).
pub fn row_by(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(TimedRow, router::Choice), FinderError> {
    let (e, choice) = router::count_by(engine, t, sizes, budget)?;
    Ok((TimedRow::at(sizes, &e), choice))
}

/// One row of the spectrum under `--engine both`: the native finder's row, with every engine's
/// answer and whether their exact counts were compared ([`router::enumerate_each`]).
pub fn row_each(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(TimedRow, router::Compared), FinderError> {
    let compared = router::enumerate_each(t, sizes, budget)?;
    Ok((TimedRow::at(sizes, &compared.answers[0].1), compared))
}

/// A lower bound on the number of isomorphism classes of models of `t` at `sizes`, known before
/// counting: once one model exists (found within a tenth of a second), every choice of tables
/// for the symbols no axiom mentions gives another labeled model, and an isomorphism class
/// holds at most the product of the sizes' factorials of them. `None` when no symbol is free or
/// no model was found in that time. Magmas of order 5 have at least 5^25 / 5! ≈ 2.5 · 10^15.
pub fn classes_at_least(t: &Theory, sizes: &[u32]) -> Option<u128> {
    let mentioned_func = |f: usize| {
        t.axioms
            .iter()
            .any(|a| a.formula.mentions_func(birkhoff_engine::FuncId(f as u32)))
    };
    let mentioned_rel = |r: usize| {
        t.axioms
            .iter()
            .any(|a| a.formula.mentions_rel(birkhoff_engine::RelId(r as u32)))
    };
    let size = |s: &birkhoff_engine::SortId| u128::from(sizes[s.0 as usize]);
    // log2 of the labeled models the free symbols give: their tables' choices.
    let mut bits = 0f64;
    for (_, d) in t
        .sig
        .funcs
        .iter()
        .enumerate()
        .filter(|&(f, _)| !mentioned_func(f))
    {
        bits += d.args.iter().map(size).product::<u128>() as f64 * (size(&d.result) as f64).log2();
    }
    for (_, d) in t
        .sig
        .rels
        .iter()
        .enumerate()
        .filter(|&(r, _)| !mentioned_rel(r))
    {
        bits += d.args.iter().map(size).product::<u128>() as f64;
    }
    if bits == 0.0 {
        return None;
    }
    let budget = Budget {
        time: Some(std::time::Duration::from_millis(100)),
        ..Budget::default()
    };
    let found = router::first_by(Engine::Auto, t, sizes, &budget).ok()?;
    if !matches!(found.outcome, crate::finder::FirstModel::Found { .. }) {
        return None;
    }
    let copies_per_class: f64 = sizes
        .iter()
        .map(|&n| (2..=n).map(f64::from).map(f64::log2).sum::<f64>())
        .sum();
    let classes = (bits - copies_per_class).exp2();
    Some(if classes >= u128::MAX as f64 {
        u128::MAX
    } else {
        classes.floor().max(1.0) as u128
    })
}

/// Formats sizes as `3` (one sort) or `2x3` (several).
pub fn sizes_label(sizes: &[u32]) -> String {
    sizes
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order the old eager version produced: every tuple, sorted by total, then lexicographically.
    fn eager(sorts: usize, lo: u32, hi: u32) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = vec![vec![]];
        for _ in 0..sorts {
            out = out
                .into_iter()
                .flat_map(|t| (lo..=hi).map(move |n| [t.clone(), vec![n]].concat()))
                .collect();
        }
        out.sort_by_key(|t| (t.iter().sum::<u32>(), t.clone()));
        out
    }

    #[test]
    fn size_tuples_come_in_order_one_at_a_time() {
        for sorts in 0..=4 {
            for lo in 1..=3 {
                for hi in 0..=4 {
                    let lazy: Vec<Vec<u32>> = SizeTuples::between(sorts, lo, hi).collect();
                    let want = if lo <= hi {
                        eager(sorts, lo, hi)
                    } else {
                        vec![]
                    };
                    assert_eq!(lazy, want, "{sorts} sorts, {lo}..={hi}");
                    assert_eq!(
                        size_tuple_count(sorts, lo, hi),
                        want.len() as u128,
                        "{sorts} sorts, {lo}..={hi}"
                    );
                }
            }
        }
        // Many sorts: the first tuples come at once, and the count is known without making them.
        assert_eq!(
            size_tuples(16, 3).nth(1),
            Some([vec![1; 15], vec![2]].concat())
        );
        assert_eq!(size_tuple_count(16, 1, 3), 43_046_721);
    }
}
