//! Model spectra: the number of models of each size, up to isomorphism and labeled.

use crate::budget::{Budget, Count};
use crate::finder::{FinderError, Timing};
use crate::router::{self, Engine};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};

/// One row of a spectrum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpectrumRow {
    /// Size of each sort.
    pub sizes: Vec<u32>,
    /// Models up to isomorphism.
    pub iso: Count,
    /// Labeled models.
    pub labeled: Count,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Search nodes.
    pub nodes: u64,
    /// Where the time went (absent in files written before it was recorded).
    #[serde(default)]
    pub timing: Timing,
}

/// The size tuples of a spectrum up to `max`: `[1], [2], ...` for one sort; for several sorts,
/// every tuple with entries in `1..=max`, by total size and then lexicographically.
pub fn size_tuples(sorts: usize, max: u32) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = vec![vec![]];
    for _ in 0..sorts {
        out = out.into_iter().flat_map(|t| (1..=max).map(move |n| [t.clone(), vec![n]].concat())).collect();
    }
    out.sort_by_key(|t| (t.iter().sum::<u32>(), t.clone()));
    out
}

/// Computes one row of the spectrum with the chosen engine.
pub fn row(engine: Engine, t: &Theory, sizes: &[u32], budget: &Budget) -> Result<SpectrumRow, FinderError> {
    let e = router::count(engine, t, sizes, budget)?;
    Ok(SpectrumRow { sizes: sizes.to_vec(), iso: e.iso, labeled: e.labeled, seconds: e.elapsed.as_secs_f64(), nodes: e.nodes, timing: e.timing })
}

/// Formats sizes as `3` (one sort) or `2x3` (several).
pub fn sizes_label(sizes: &[u32]) -> String {
    sizes.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
}
