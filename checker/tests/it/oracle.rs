//! The finder against a brute-force oracle: random small theories, every table on up to 3
//! elements tried, isomorphism decided by trying every permutation. The oracle shares no code
//! with the search or the canonical forms; only the evaluator is common, and it is the judge.

use birkhoff_checker::finder::{
    count_labeled_directly, enumerate, first, first_on_this_thread, Branching, FirstModel, Options,
};
use birkhoff_checker::{Budget, Status};
use birkhoff_engine::signature::SortId;
use birkhoff_engine::{eval, Structure, Theory};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// (iso classes, labeled models) by brute force.
fn oracle(t: &Theory, n: u32) -> (usize, u128) {
    let perms = crate::common::perm_tuples(&[n]);
    let models: Vec<Structure> = crate::common::all_structures(&t.sig, &[n])
        .into_iter()
        .filter(|s| eval::check(t, s).is_ok())
        .collect();
    let classes: BTreeSet<Structure> = models
        .iter()
        .map(|m| crate::common::brute_canonical(&t.sig, m, &perms))
        .collect();
    (classes.len(), models.len() as u128)
}

fn check_against_oracle(t: &Theory, n: u32) {
    let (iso, labeled) = oracle(t, n);
    let e = enumerate(t, &[n], &Budget::default(), Options::default()).unwrap();
    let text = t.to_text();
    assert_eq!(
        (e.iso.value as usize, e.iso.status),
        (iso, Status::Exact),
        "iso classes at n={n} of\n{text}"
    );
    assert_eq!(
        (e.labeled.value, e.labeled.status),
        (labeled, Status::Exact),
        "labeled (sum n!/|Aut|) at n={n} of\n{text}"
    );
    let direct = count_labeled_directly(t, &[n], &Budget::default()).unwrap();
    assert_eq!(
        direct.value, labeled,
        "labeled by direct enumeration at n={n} of\n{text}"
    );
    // Each way of branching is complete on its own, and so is the two side by side, on threads
    // or taking turns on this one.
    for branching in [
        Branching::DecisionOrder,
        Branching::FewestValues,
        Branching::Both,
    ] {
        let opts = Options {
            branching,
            ..Options::default()
        };
        for (how, answer) in [
            ("threads", first(t, &[n], &Budget::default(), opts)),
            (
                "this thread",
                first_on_this_thread(t, &[n], &Budget::default(), opts),
            ),
        ] {
            match answer.unwrap().0 {
                FirstModel::Found { model } => {
                    assert!(labeled > 0 && eval::check(t, &model).is_ok())
                }
                FirstModel::None => assert_eq!(
                    labeled, 0,
                    "first ({branching:?}, {how}) says none at n={n} of\n{text}"
                ),
                FirstModel::Unknown => panic!("no budget was set"),
            }
        }
    }
    for c in &e.classes {
        assert!(eval::check(t, &c.model).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn finder_agrees_with_brute_force(text in crate::common::random_theory()) {
        let t = Theory::parse(&text, "random.bk").unwrap_or_else(|e| panic!("generated theory does not parse:\n{text}\n{e}"));
        for n in 1..=3 {
            check_against_oracle(&t, n);
        }
    }
}

/// A ground formula over the constants `a` and `b` and the binary `*`.
fn ground_formula() -> impl Strategy<Value = String> {
    let term = prop::sample::select(vec![
        "a",
        "b",
        "a * b",
        "b * a",
        "a * a",
        "b * b",
        "a * (a * b)",
    ]);
    let atom = (term.clone(), term, any::<bool>())
        .prop_map(|(l, r, eq)| format!("{l} {} {r}", if eq { "=" } else { "!=" }));
    atom.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} | {r})")),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} & {r})")),
            inner.prop_map(|g| format!("~({g})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]
    /// Constants named only in ground axioms are searched for as an existential (the finder
    /// turns them back into one, `skolem::unskolemize`) and restored afterwards: the answer is
    /// brute force's, and a model shown gives the constants values that satisfy the axioms.
    #[test]
    fn named_witnesses_agree_with_brute_force(
        law in prop::sample::select(vec![
            "(x * y) * z = x * (y * z)", "x * y = y * x", "x * x = x", "x * (x * y) = y",
            "x * y = x * z -> y = z", "exists y. x * y = x", "x * y = y * x -> x = y", "x = x",
            // `a` used with variables too: not a witness, and `b` still one.
            "a * x = x", "x * a = a * x",
        ]),
        ground in ground_formula(),
        second in prop::option::of(ground_formula()),
    ) {
        let mut text = format!("theory W\nfunc * : 2\nconst a\nconst b\naxiom law: {law}\naxiom w: {ground}\n");
        if let Some(g) = second {
            text.push_str(&format!("axiom v: {g}\n"));
        }
        let t = Theory::parse(&text, "w.bk").unwrap_or_else(|e| panic!("does not parse:\n{text}\n{e}"));
        for n in 1..=3 {
            let exists = crate::common::all_structures(&t.sig, &[n])
                .iter()
                .any(|s| eval::check(&t, s).is_ok());
            match first(&t, &[n], &Budget::default(), Options::default()).unwrap().0 {
                FirstModel::Found { model } => {
                    prop_assert!(exists, "found a model at {n} of\n{text}");
                    prop_assert!(eval::check(&t, &model).is_ok());
                }
                FirstModel::None => prop_assert!(!exists, "none at {n} of\n{text}"),
                FirstModel::Unknown => panic!("no budget was set"),
            }
        }
    }
}

#[test]
fn known_small_theories_against_brute_force() {
    let cases = [
        "theory Sg\nfunc * : 2\naxiom assoc: (x * y) * z = x * (y * z)",
        "theory Poset\nrel <= : 2\naxiom refl: x <= x\naxiom anti: x <= y & y <= x -> x = y\naxiom trans: x <= y & y <= z -> x <= z",
        "theory Inv\nfunc g : 1\nconst c\naxiom inv: g(g(x)) = x\naxiom fix: g(c) = c",
        "theory Ex\nfunc * : 2\naxiom div: all x y. exists z. x * z = y",
    ];
    for src in cases {
        let t = Theory::parse(src, "case.bk").unwrap();
        for n in 1..=3 {
            check_against_oracle(&t, n);
        }
    }
}

#[test]
fn functions_between_two_sorts_count_partitions() {
    // Up to isomorphism a map A -> B is the multiset of its fibre sizes: a partition of |A| into
    // at most |B| parts; labeled, there are |B|^|A| maps.
    fn partitions(m: u32, parts: u32, max: u32) -> u128 {
        if m == 0 {
            return 1;
        }
        if parts == 0 {
            return 0;
        }
        (1..=max.min(m))
            .map(|k| partitions(m - k, parts - 1, k))
            .sum()
    }
    let t = Theory::parse("theory Map\nsort A, B\nfunc f : A -> B", "map.bk").unwrap();
    for m in 1..=5 {
        for n in 1..=4 {
            let e = enumerate(&t, &[m, n], &Budget::default(), Options::default()).unwrap();
            assert_eq!(
                e.iso.value,
                partitions(m, n, m),
                "maps from {m} to {n} elements up to isomorphism"
            );
            assert_eq!(
                e.labeled.value,
                (n as u128).pow(m),
                "labeled maps from {m} to {n} elements"
            );
            assert_eq!(e.iso.status, Status::Exact);
        }
    }
    let _ = SortId(0);
}

/// A theory whose search, split into pieces, records a path that a fresh replay from the root
/// propagates into a conflict (propagation's fixpoint depends on where the watches stand): the
/// piece has no model and is skipped. It used to panic while counting labeled models directly.
#[test]
fn a_path_that_replays_into_a_conflict_holds_no_model() {
    let t = Theory::parse("theory Random\nfunc g : 1\nconst c\nrel P : 2\naxiom a0: ((x = x -> g(z) = z) | P(c, x))\naxiom a1: (g(x) = x <-> (P(g(x), x) -> P(x, x)))\n", "replay.bk").unwrap();
    for n in 1..=3 {
        check_against_oracle(&t, n);
    }
}

/// `find` (`router::first_by`) adds the mirrors of one-sided axioms that completion proves. A
/// mirror that does not follow must never be added: left distributivity with right
/// distributivity failing somewhere has models (`x * y = 1 - y` on two elements), and brute force
/// decides each size. A group written with its left axioms and two noncommuting constants, as
/// Mace4 users write it, gets its right axioms, and every engine answers as group theory does:
/// nonabelian groups of orders 6, 8 and 10, none of orders 1 to 5, 7 and 9.
#[test]
fn mirrors_are_added_only_when_proved() {
    use birkhoff_checker::router::{first_by, Engine};
    let t = Theory::parse_any(
        "formulas(assumptions).\nx * (y * z) = (x * y) * (x * z).\n(a * b) * c != (a * c) * (b * c).\nend_of_list.\n",
        "ld.in",
    )
    .unwrap();
    for n in 1..=3 {
        let exists = crate::common::all_structures(&t.sig, &[n])
            .iter()
            .any(|s| eval::check(&t, s).is_ok());
        assert_eq!(exists, n >= 2, "brute force at {n}");
        for engine in [Engine::Native, Engine::Sat, Engine::Auto] {
            match first_by(engine, &t, &[n], &Budget::default())
                .unwrap()
                .outcome
            {
                FirstModel::Found { model } => {
                    assert!(
                        exists && eval::check(&t, &model).is_ok(),
                        "{engine:?} at {n}"
                    )
                }
                FirstModel::None => assert!(!exists, "{engine:?} says none at {n}"),
                FirstModel::Unknown => panic!("no budget was set"),
            }
        }
    }
    let group = Theory::parse_any(
        "formulas(assumptions).\n(x*y)*z = x*(y*z).\ne*x = x.\nx'*x = e.\na*b != b*a.\nend_of_list.\n",
        "g.in",
    )
    .unwrap();
    for n in 1..=10u32 {
        for engine in [Engine::Native, Engine::Sat, Engine::Auto] {
            let found = first_by(engine, &group, &[n], &Budget::default()).unwrap();
            match found.outcome {
                FirstModel::Found { model } => {
                    assert!(
                        [6, 8, 10].contains(&n),
                        "{engine:?}: a nonabelian group of order {n}"
                    );
                    assert!(eval::check(&group, &model).is_ok());
                }
                FirstModel::None => {
                    assert!(![6, 8, 10].contains(&n), "{engine:?}: none of order {n}")
                }
                FirstModel::Unknown => panic!("no budget was set"),
            }
        }
    }
}
