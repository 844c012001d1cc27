//! Models with a prescribed automorphism: the tries of the SAT back end's first-model search,
//! taking turns with the unrestricted search (`Sat::first_model` in `sat/mod.rs`).
//!
//! Designers of Latin squares and block designs rarely search blind: they ask for a structure
//! that a cyclic group acts on, with a few fixed points (difference methods; Parker's pair of
//! orthogonal Latin squares of order 10 is invariant under a 7-cycle fixing three points).
//! Asking the tables to commute with a permutation σ of each sort divides the unknowns by about
//! the order of σ, and the search that is left is small. [`candidates`] lists the permutations
//! tried: one cycle through all but `k` elements of each sort, for `k` = 0 to 3.
//!
//! Soundness: a model found under σ is a model of the theory, and is checked by the evaluator
//! like every other. A try that fails proves nothing about the theory: its clauses hold only
//! under a guard literal assumed for that try (and assumed false otherwise), and only the
//! unrestricted search can answer that there is no model. The least-number constraints are off
//! during the tries (they assume that every renaming of the elements is free, and a prescribed
//! automorphism is not) and on for the unrestricted search.

/// Most fixed points of the permutations tried.
const MOST_FIXED: u32 = 3;

/// The permutations tried, each as the image of every element of every sort: for `k` = 0 to
/// `MOST_FIXED` (3), the cycle `0 → 1 → … → n-k-1 → 0` on each sort of size `n`, fixing the last
/// `k` elements. A sort too small for the cycle (fewer than two elements in it) is fixed
/// pointwise; a permutation that would fix everything is not tried, so theories whose sorts
/// all have fewer than four elements get no tries (their whole search is quick anyway).
pub fn candidates(sizes: &[u32]) -> Vec<Vec<Vec<u32>>> {
    if sizes.iter().all(|&n| n < 4) {
        return Vec::new();
    }
    (0..=MOST_FIXED)
        .map(|k| {
            sizes
                .iter()
                .map(|&n| {
                    let cycle = n.saturating_sub(k);
                    (0..n)
                        .map(|a| {
                            if cycle >= 2 && a < cycle {
                                (a + 1) % cycle
                            } else {
                                a
                            }
                        })
                        .collect()
                })
                .collect::<Vec<Vec<u32>>>()
        })
        .filter(|perm| {
            perm.iter()
                .any(|p| p.iter().enumerate().any(|(a, &b)| a as u32 != b))
        })
        .collect()
}
