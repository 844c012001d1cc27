//! The Z3 backend against the ground-truth counts, Z3's own direct labeled count and the
//! evaluator; `prove_unsat` on theorems and non-theorems.
#![cfg(feature = "z3")]

mod common;

use birkhoff_checker::budget::{Budget, Status};
use birkhoff_checker::z3 as zb;
use birkhoff_engine::{seeds, Theory};

fn seed(name: &str) -> Option<Theory> {
    seeds::all().iter().any(|s| s.name == name).then(|| seeds::load(name).unwrap())
}

#[test]
fn explore() {
    for (name, n) in [("group", 4), ("group", 6), ("semigroup", 3), ("poset", 4), ("quandle", 4), ("ring", 4), ("lattice", 5), ("group", 8)] {
        let t0 = std::time::Instant::now();
        let e = zb::enumerate(&seed(name).unwrap(), &[n], &Budget::default()).unwrap();
        eprintln!("{name} {n}: iso {} labeled {} met {} in {:?}", e.iso, e.labeled, e.models_met, t0.elapsed());
    }
}
