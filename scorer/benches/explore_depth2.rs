//! Issue 6 benchmark: depth 2 from every seed: generate, deduplicate up to renaming, and score
//! every distinct theory syntactically (the dimensions known before models are checked).
//! Run with `cargo bench -p birkhoff-scorer --bench explore_depth2`; prints times and counts.
//! Peak memory: run the binary it builds under `/usr/bin/time -v`.

use birkhoff_engine::{derivation, seeds};
use birkhoff_scorer::{score_syntactic_all, Weights};
use rayon::prelude::*;

/// The allocator of the `birkhoff` binary (src/main.rs), so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let bases: Vec<_> = seeds::all()
        .iter()
        .map(|s| seeds::load(s.name).expect("seeds parse"))
        .collect();
    let start = std::time::Instant::now();
    let (g, stats) = derivation::explore(&bases, 2);
    let explored = start.elapsed();
    let weights = Weights::default();
    let theories: Vec<_> = g.graph.node_weights().map(|n| &n.theory).collect();
    let scored: Vec<f64> = score_syntactic_all(&theories, &weights)
        .map(|s| s.total)
        .collect();
    let total = start.elapsed();
    let best = scored.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Sums in node order: two builds that explore and score alike print the same figure.
    let sum: f64 = scored.iter().sum();
    println!(
        "depth 2 from {} seeds: {} generated, {} distinct, {} edges, {} uncanonized; generate + deduplicate {:.3} s, score {} theories {:.3} s, total {:.3} s (best syntactic score {best:.3}, sum {sum:.9})",
        bases.len(), stats.generated, stats.distinct, g.graph.edge_count(), g.uncanonized, explored.as_secs_f64(), scored.len(), (total - explored).as_secs_f64(), total.as_secs_f64()
    );
}
