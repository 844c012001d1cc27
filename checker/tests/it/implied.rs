//! The redundant clauses of `implied` against brute force: every clause holds in every model that
//! the evaluator accepts among all tables of a small size, and the native finder, which searches
//! with the clauses, counts as many labeled models as brute force does.

use birkhoff_checker::{cancellations, finder::count_labeled_directly, Budget};
use birkhoff_engine::{eval, seeds, Structure, Theory};

/// Every brute-force model of `t` at size `n` satisfies the implied clauses, and the finder's
/// labeled count (searched with them) equals brute force's.
fn clauses_hold(t: &Theory, n: u32) {
    let clauses = Theory {
        axioms: cancellations(t).into_iter().map(Into::into).collect(),
        ..t.clone()
    };
    let models: Vec<Structure> = crate::common::all_structures(&t.sig, &[n])
        .into_iter()
        .filter(|s| eval::check(t, s).is_ok())
        .collect();
    for m in &models {
        if let Err(e) = eval::check(&clauses, m) {
            panic!(
                "{} at size {n}: an implied clause fails in a model: {e:?}\n{m:?}",
                t.name
            );
        }
    }
    let found = count_labeled_directly(t, &[n], &Budget::default()).unwrap();
    assert_eq!(
        found.value,
        models.len() as u128,
        "{} at size {n}: labeled models",
        t.name
    );
}

fn theory(text: &str) -> Theory {
    Theory::parse(text, "t.bk").unwrap_or_else(|e| panic!("{e}"))
}

fn names(t: &Theory) -> Vec<String> {
    cancellations(t).into_iter().map(|a| a.name).collect()
}

/// Associativity with an inverse and an identity on the same side gives cancellation on that
/// side: groups get both laws, from their axioms as the seed writes them or with the inverses as
/// existentials.
#[test]
fn inverses_and_identities_give_cancellation() {
    let group = seeds::load("group").unwrap();
    assert_eq!(
        names(&group),
        [
            "left_inverse_cancellation_2",
            "right_inverse_cancellation_1"
        ]
    );
    clauses_hold(&group, 2);
    let existential = theory(
        "theory G\nfunc * : 2\nconst e\naxiom a: x * (y * z) = (x * y) * z\naxiom l: x = e * x\naxiom r: x * e = x\naxiom li: exists u (u * x = e)\naxiom ri: exists u (e = x * u)\n",
    );
    assert_eq!(
        names(&existential),
        ["li_cancellation_2", "ri_cancellation_1"]
    );
    for n in 1..=3 {
        clauses_hold(&existential, n);
    }
}

/// Not when the identity is on the other side from the inverse, nor without associativity: each
/// of the first two has a model of size 2 that is not cancellative on the side in question
/// (`x * y = y`; `e * x = x`, `1 * 1 = e` and `1 * e = e`), which a wrong clause would lose.
#[test]
fn no_cancellation_without_all_three() {
    let other_side = theory("theory T\nfunc * : 2\nfunc inv : 1\nconst e\naxiom a: (x * y) * z = x * (y * z)\naxiom l: e * x = x\naxiom ri: x * inv(x) = e\n");
    assert!(names(&other_side).is_empty(), "{:?}", names(&other_side));
    let not_associative = theory("theory T\nfunc * : 2\nfunc inv : 1\nconst e\naxiom l: e * x = x\naxiom li: inv(x) * x = e\n");
    assert!(
        names(&not_associative).is_empty(),
        "{:?}",
        names(&not_associative)
    );
    let wrong_unit = theory("theory T\nfunc * : 2\nfunc inv : 1\nconst e\nconst c\naxiom a: (x * y) * z = x * (y * z)\naxiom l: c * x = x\naxiom li: inv(x) * x = e\n");
    assert!(names(&wrong_unit).is_empty(), "{:?}", names(&wrong_unit));
    for t in [&other_side, &not_associative] {
        clauses_hold(t, 1);
        clauses_hold(t, 2);
    }
}

/// Cancellation laws, stated or derived, are propagated along the lines of their tables rather
/// than through ground instances (`problem::Injective`). With the law stated and implied by
/// nothing else, a line that propagates too little lets through tables the evaluator rejects
/// (the finder then fails), one that propagates too much or along the wrong cells loses models.
/// Both the labeled count (no symmetry breaking) and the enumeration's must equal brute force's,
/// across a middle argument whose line is strided and between sorts of different sizes.
#[test]
fn stated_cancellation_laws_count_as_brute_force_does() {
    let cases = [
        ("theory T\nfunc * : 2\naxiom lc: x * y = x * z -> y = z\n", vec![vec![1], vec![2], vec![3]]),
        ("theory T\nfunc * : 2\naxiom rc: y * x = z * x -> y = z\naxiom idem: x * x = x\n", vec![vec![3]]),
        ("theory T\nsort A, B\nfunc f : A B A -> B\naxiom mid: f(a, b, c) = f(a, d, c) -> b = d\n", vec![vec![3, 2], vec![2, 3]]),
        // Injective from a larger sort into a smaller one: no model at all.
        ("theory T\nsort A, B\nfunc g : A -> B\naxiom inj: g(x) = g(y) -> x = y\n", vec![vec![3, 2], vec![2, 3]]),
    ];
    for (text, all_sizes) in cases {
        let t = theory(text);
        for sizes in all_sizes {
            let models: Vec<Structure> = crate::common::all_structures(&t.sig, &sizes)
                .into_iter()
                .filter(|s| eval::check(&t, s).is_ok())
                .collect();
            let direct = count_labeled_directly(&t, &sizes, &Budget::default())
                .unwrap_or_else(|e| panic!("{text} at {sizes:?}: {e}"));
            assert_eq!(
                direct.value,
                models.len() as u128,
                "{text} at {sizes:?}: labeled models, searched directly"
            );
            let e = birkhoff_checker::finder::enumerate(
                &t,
                &sizes,
                &Budget::default(),
                Default::default(),
            )
            .unwrap_or_else(|e| panic!("{text} at {sizes:?}: {e}"));
            assert_eq!(
                e.labeled.value,
                models.len() as u128,
                "{text} at {sizes:?}: labeled models, from the classes"
            );
        }
    }
}
