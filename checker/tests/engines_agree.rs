//! `--engine both`: the native finder and the Z3 backend agree (counts and isomorphism classes
//! as canonical forms) on every seed at small sizes and on 200 random small theories.
#![cfg(feature = "z3")]

mod common;

use birkhoff_checker::budget::{Budget, Status};
use birkhoff_checker::router::{self, Engine};
use birkhoff_checker::spectrum::size_tuples;
use birkhoff_engine::{seeds, Theory};
use proptest::prelude::*;

/// Largest size per seed. The issue asks for every seed up to size 4; the Z3 side enumerates the
/// symmetry-broken labeled models one by one, which is too slow for CI at size 4 on many seeds,
/// so the cap is 3 for one-sorted seeds (2 for magmas and commutative magmas, whose 3,330 and 129
/// classes at size 3 take Z3 minutes and seconds), and size tuples up to 2 per sort for
/// many-sorted seeds. Sizes 4 and beyond are compared on the groups in `group_up_to_six`.
fn cap(name: &str, sorts: usize) -> u32 {
    match (name, sorts) {
        (_, 2..) => 2,
        ("magma" | "comm_magma", _) => 2,
        _ => 3,
    }
}

fn both(t: &Theory, sizes: &[u32]) {
    let e = router::enumerate(Engine::Both, t, sizes, &Budget::default()).unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}\n{}", t.name, t.to_text()));
    assert_eq!(e.iso.status, Status::Exact);
    let f = router::first(Engine::Both, t, sizes, &Budget::default()).unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}", t.name));
    assert_eq!(matches!(f.0, birkhoff_checker::finder::FirstModel::Found { .. }), e.iso.value > 0, "{} at {sizes:?}", t.name);
}

#[test]
fn every_seed_agrees() {
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        for sizes in size_tuples(t.sig.sorts.len(), cap(s.name, t.sig.sorts.len())) {
            both(&t, &sizes);
        }
    }
}

#[test]
fn group_up_to_six() {
    let t = seeds::load("group").unwrap();
    for n in 4..=6 {
        both(&t, &[n]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_theories_agree(text in common::random_theory()) {
        let t = Theory::parse(&text, "random.bk").unwrap_or_else(|e| panic!("generated theory does not parse:\n{text}\n{e}"));
        // Z3 meets the symmetry-broken labeled models one by one: a weak random theory with
        // thousands of classes at size 3 would take it minutes, so size 3 is compared only when
        // the native finder reports at most 60 classes (most generated theories).
        for n in 1..=3 {
            let native = birkhoff_checker::finder::enumerate(&t, &[n], &Budget::default(), birkhoff_checker::finder::Options::default()).unwrap();
            if n < 3 || native.iso.value <= 60 {
                both(&t, &[n]);
            }
        }
    }
}
