//! `--engine both`: the native finder and the Z3 backend agree (counts and isomorphism classes
//! as canonical forms) on every seed at small sizes and on 200 random small theories.
#![cfg(feature = "z3")]

use birkhoff_checker::{
    router::{self, Engine},
    size_tuples, Budget, Status,
};
use birkhoff_engine::{seeds, Theory};
use proptest::prelude::*;

/// Largest size per seed: 4, as the issue asks, except where no engine can enumerate every class
/// in CI. Magmas at size 3 have 3,330 classes, which Z3 meets one check each (about 100 s);
/// at size 4 they have 178,981,952, and commutative magmas 43,968, far beyond either engine in
/// CI. Many-sorted seeds compare every size tuple up to 4 per sort.
fn cap(name: &str) -> u32 {
    match name {
        "magma" => 2,
        "comm_magma" => 3,
        _ => 4,
    }
}

fn both(t: &Theory, sizes: &[u32]) {
    let e = router::enumerate(Engine::Both, t, sizes, &Budget::default())
        .unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}\n{}", t.name, t.to_text()));
    assert_eq!(e.iso.status, Status::Exact);
    let f = router::first(Engine::Both, t, sizes, &Budget::default())
        .unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}", t.name));
    assert_eq!(
        matches!(f.0, birkhoff_checker::finder::FirstModel::Found { .. }),
        e.iso.value > 0,
        "{} at {sizes:?}",
        t.name
    );
}

#[test]
fn every_seed_agrees() {
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        for sizes in size_tuples(t.sig.sorts.len(), cap(s.name)) {
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
    fn random_theories_agree(text in crate::common::random_theory()) {
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
