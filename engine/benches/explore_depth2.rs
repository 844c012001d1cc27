//! Issue 6 benchmark: depth 2 from every seed (generate and deduplicate up to renaming).
//! Run with `cargo bench -p birkhoff-engine --bench explore_depth2`; prints time and counts.

fn main() {
    let seeds: Vec<_> = birkhoff_engine::seeds::all().iter().map(|s| birkhoff_engine::seeds::load(s.name).expect("seeds parse")).collect();
    let start = std::time::Instant::now();
    let (g, stats) = birkhoff_engine::derivation::explore(&seeds, 2, |_, _| {});
    println!("depth 2 from {} seeds: {} generated, {} distinct, {} edges, {} uncanonized, {:.3} s", seeds.len(), stats.generated, stats.distinct, g.graph.edge_count(), g.uncanonized, start.elapsed().as_secs_f64());
}
