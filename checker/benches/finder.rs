//! Criterion benchmarks of the finder's parts on small, fast workloads: one size of a
//! spectrum (search, canonical forms and verification together), a first-model search, and
//! canonical forms alone. Whole-command workloads with peak memory are in benches/run.sh.

use birkhoff_checker::{
    canonical_form,
    finder::{enumerate, first, Options},
    Budget,
};
use birkhoff_engine::{seeds, Theory};
use criterion::{criterion_group, criterion_main, Criterion};

fn seed(name: &str) -> Theory {
    seeds::load(name).expect("a seed")
}

fn spectra(c: &mut Criterion) {
    let mut g = c.benchmark_group("enumerate");
    g.sample_size(10);
    for (name, n) in [
        ("semigroup", 4),
        ("loop", 5),
        ("quasigroup", 4),
        ("lattice", 6),
        ("poset", 5),
        ("group", 8),
    ] {
        let t = seed(name);
        g.bench_function(format!("{name}/{n}"), |b| {
            b.iter(|| {
                enumerate(&t, &[n], &Budget::default(), Options::counts_only()).expect("runs")
            })
        });
    }
    g.finish();
}

fn first_models(c: &mut Criterion) {
    let mut g = c.benchmark_group("first");
    g.sample_size(10);
    for (name, n) in [("group", 12), ("moufang_loop", 8), ("field", 9)] {
        let t = seed(name);
        g.bench_function(format!("{name}/{n}"), |b| {
            b.iter(|| first(&t, &[n], &Budget::default(), Options::default()).expect("runs"))
        });
    }
    g.finish();
}

fn canonical_forms(c: &mut Criterion) {
    let mut g = c.benchmark_group("canonical_form");
    for (name, n) in [("quasigroup", 5), ("semigroup", 5), ("poset", 6)] {
        let t = seed(name);
        let budget = Budget {
            models: Some(200),
            ..Budget::default()
        };
        let e = enumerate(&t, &[n], &budget, Options::default()).expect("runs");
        let models: Vec<_> = e.classes.into_iter().map(|c| c.model).collect();
        g.bench_function(format!("{name}/{n}/{}", models.len()), |b| {
            b.iter(|| {
                models
                    .iter()
                    .map(|m| canonical_form(&t.sig, m).automorphisms)
                    .sum::<u128>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, spectra, first_models, canonical_forms);
criterion_main!(benches);
