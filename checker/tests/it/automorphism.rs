//! The SAT back end's tries for a model with a prescribed automorphism
//! ([`birkhoff_checker::sat::automorphism`]) against independent oracles: the invariance clauses
//! admit exactly the labeled models the permutation is an automorphism of (counted from the
//! native finder's isomorphism classes by relabeling each one every way), a failed try leaves
//! the unrestricted search whole, and the tries are what finds the hard instances.

use birkhoff_checker::{
    finder::{self, FirstModel, Options},
    sat::{self, automorphism},
    Budget, Status,
};
use birkhoff_engine::{eval, seeds, Structure, Theory};
use std::collections::BTreeSet;
use std::time::Duration;

use crate::common::{bench_theory, permutations, permute};

/// The labeled models of `t` (one sort) at `n` that `perm` is an automorphism of: every
/// relabeling of every class the native finder enumerates, without repeats, kept when renaming
/// by `perm` leaves it as it is. `None` when the native enumeration is cut short by `budget`.
fn invariant_by_relabeling(t: &Theory, n: u32, perm: &[Vec<u32>], budget: &Budget) -> Option<u128> {
    let e = finder::enumerate(
        t,
        &[n],
        budget,
        Options {
            classes: true,
            ..Options::default()
        },
    )
    .unwrap();
    if e.iso.status != Status::Exact {
        return None;
    }
    let mut labeled: BTreeSet<Structure> = BTreeSet::new();
    for class in &e.classes {
        for p in permutations(n) {
            labeled.insert(permute(&t.sig, &class.model, &[p]));
        }
    }
    assert_eq!(
        labeled.len() as u128,
        e.labeled.value,
        "relabeling {} at {n} does not give the labeled count",
        t.name
    );
    Some(
        labeled
            .iter()
            .filter(|m| permute(&t.sig, m, perm) == **m)
            .count() as u128,
    )
}

/// Every candidate permutation at sizes 4 and 5, on seeds with few models there and on
/// self-orthogonal Latin squares: the SAT count under the invariance clauses equals the oracle.
#[test]
fn invariance_admits_exactly_the_models_the_permutation_preserves() {
    let budget = Budget {
        nodes: Some(2_000_000),
        ..Budget::default()
    };
    let mut theories: Vec<Theory> = [
        "group",
        "abelian_group",
        "loop",
        "quasigroup",
        "lattice",
        "distributive_lattice",
        "boolean_algebra",
        "band",
        "comm_monoid",
        "latin_quandle",
        "linear_order",
    ]
    .iter()
    .map(|s| seeds::load(s).unwrap())
    .collect();
    theories.push(bench_theory("sols.bk"));
    let mut compared = 0;
    for t in &theories {
        for n in [4, 5] {
            for perm in automorphism::candidates(&[n]) {
                let Some(want) = invariant_by_relabeling(t, n, &perm, &budget) else {
                    continue;
                };
                let got = sat::count_invariant_directly(t, &[n], &perm, &budget).unwrap();
                assert_eq!(
                    got.status,
                    Status::Exact,
                    "{} at {n} under {perm:?}",
                    t.name
                );
                assert_eq!(got.value, want, "{} at {n} under {perm:?}", t.name);
                compared += 1;
            }
        }
    }
    assert!(compared >= 70, "only {compared} comparisons were made");
}

/// Four different constants leave a model of order 4 no automorphism but the identity, so every
/// try fails; the unrestricted search after them must still find the model (a try's clauses in
/// force without their guard would make it answer "none").
#[test]
fn failed_tries_leave_the_search_whole() {
    let t = Theory::parse("theory FourNames\nconst a\nconst b\nconst c\nconst d\naxiom distinct: a != b & a != c & a != d & b != c & b != d & c != d\n", "four.bk").unwrap();
    for p in automorphism::candidates(&[4]) {
        assert_eq!(
            sat::count_invariant_directly(&t, &[4], &p, &Budget::default())
                .unwrap()
                .value,
            0,
            "{p:?}"
        );
    }
    let model = sat_model(&t, 4);
    assert!(eval::check(&t, &model).is_ok());
}

/// SAT's first model of `t` at `n`, which must be found within a generous time budget (with the
/// tries each instance here takes about a second; without them SOLS 10 took about 50 s and
/// SOLS 12 was not found in 300 s).
fn sat_model(t: &Theory, n: u32) -> Structure {
    let budget = Budget {
        time: Some(Duration::from_secs(600)),
        ..Budget::default()
    };
    match sat::first(t, &[n], &budget).unwrap().0 {
        FirstModel::Found { model } => model,
        other => panic!("{other:?}"),
    }
}

/// Self-orthogonal Latin squares of order 10 and 12: the model SAT answers with has one of the
/// candidate permutations as an automorphism (the tries found it; the solver is deterministic
/// under its conflict limits), and passes the evaluator.
#[test]
fn the_tries_find_self_orthogonal_latin_squares() {
    let t = bench_theory("sols.bk");
    for n in [10, 12] {
        let model = sat_model(&t, n);
        assert!(eval::check(&t, &model).is_ok());
        let preserved = automorphism::candidates(&[n])
            .into_iter()
            .filter(|p| permute(&t.sig, &model, p) == model)
            .count();
        assert!(
            preserved >= 1,
            "the SOLS of order {n} found has none of the candidate automorphisms"
        );
    }
}

/// With a named element the full cycle leaves nothing to fix, so the first try is refuted at
/// once; that proves nothing about the theory, and the next try finds a square of order 10 (the
/// unrestricted search takes about a minute here, far past its first round).
#[test]
fn a_refuted_try_is_not_an_answer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/theories/sols.bk");
    let text = std::fs::read_to_string(path).unwrap() + "\nconst c\n";
    let t = Theory::parse(&text, "sols_named.bk").unwrap();
    let full_cycle = &automorphism::candidates(&[10])[0];
    assert_eq!(
        sat::count_invariant_directly(&t, &[10], full_cycle, &Budget::default())
            .unwrap()
            .value,
        0
    );
    let model = sat_model(&t, 10);
    assert!(eval::check(&t, &model).is_ok());
}

/// The candidates: permutations of each sort, a cycle and `k` fixed points for `k` = 0..3, none
/// the identity, none for sorts all below 4.
#[test]
fn candidates_are_cycles_with_few_fixed_points() {
    assert!(automorphism::candidates(&[3, 2]).is_empty());
    let c = automorphism::candidates(&[6, 2]);
    assert_eq!(c.len(), 4);
    for (k, perm) in c.iter().enumerate() {
        let fixed = perm[0]
            .iter()
            .enumerate()
            .filter(|&(a, &b)| a as u32 == b)
            .count();
        assert_eq!(fixed, k);
        let mut x = 0u32;
        let mut order = 0;
        loop {
            x = perm[0][x as usize];
            order += 1;
            if x == 0 {
                break;
            }
        }
        assert_eq!(order, 6 - k, "one cycle through the rest");
        assert_eq!(perm[1], if k == 0 { vec![1, 0] } else { vec![0, 1] });
    }
}
