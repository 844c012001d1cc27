//! Budgets never make a count wrong: a tiny time limit, a node limit, a model limit or a
//! cancellation gives `at least k` (k at most the truth) or `unknown`, and `exact` only when
//! it is the true count. The truth comes from the ground-truth table.

use crate::common::ground_truth;
use birkhoff_checker::finder::{
    count_labeled_directly, enumerate, enumerate_up_to, first, FirstModel, Options,
};
use birkhoff_checker::{Budget, Count, Status};
use birkhoff_engine::parse::theory_from_ladr_row;
use birkhoff_engine::Theory;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// (theory, n): rows with both counts known, large enough that small budgets cut them short.
const CASES: &[(&str, u32)] = &[
    ("semigroup", 4),
    ("group", 6),
    ("poset", 5),
    ("quasigroup", 4),
    ("lattice", 6),
    ("band", 5),
];

struct Case {
    theory: Theory,
    n: u32,
    iso: u128,
    labeled: Option<u128>,
}

fn cases() -> Vec<Case> {
    let rows = ground_truth();
    CASES
        .iter()
        .map(|&(name, n)| {
            let r = rows
                .iter()
                .find(|r| r.theory == name && r.n == n)
                .unwrap_or_else(|| panic!("no row {name} {n}"));
            Case {
                theory: theory_from_ladr_row(&r.theory, &r.functions, &r.relations, &r.axioms)
                    .unwrap(),
                n,
                iso: r.iso.unwrap(),
                labeled: r.labeled,
            }
        })
        .collect()
}

/// An honest count: exact only if true, otherwise a lower bound that is never above the truth,
/// and `unknown` exactly when nothing was found.
fn honest(what: &str, got: Count, truth: u128) {
    match got.status {
        Status::Exact => assert_eq!(got.value, truth, "{what}: a wrong exact count"),
        Status::AtLeast => assert!(
            got.value >= 1 && got.value <= truth,
            "{what}: at least {} but the truth is {truth}",
            got.value
        ),
        Status::Unknown => assert_eq!(got.value, 0, "{what}: unknown with a value"),
    }
}

fn check(c: &Case, budget: &Budget, label: &str) -> (Count, Count) {
    let what = format!("{} n={} {label}", c.theory.name, c.n);
    let e = enumerate(&c.theory, &[c.n], budget, Options::counts_only()).unwrap();
    honest(&format!("{what} iso"), e.iso, c.iso);
    if let Some(l) = c.labeled {
        honest(&format!("{what} labeled"), e.labeled, l);
    }
    assert_eq!(
        e.iso.status, e.labeled.status,
        "{what}: iso and labeled counts from one search share a status"
    );
    (e.iso, e.labeled)
}

#[test]
fn tiny_time_limits_never_give_a_wrong_exact_count() {
    for c in cases() {
        for micros in [0, 1, 50, 1000, 20_000] {
            let budget = Budget {
                time: Some(Duration::from_micros(micros)),
                ..Budget::default()
            };
            let (iso, _) = check(&c, &budget, &format!("time {micros}µs"));
            if micros == 0 {
                assert_ne!(
                    iso.status,
                    Status::Exact,
                    "{}: a zero time limit cannot finish a search",
                    c.theory.name
                );
            }
        }
    }
}

#[test]
fn node_limits_never_give_a_wrong_exact_count() {
    for c in cases() {
        let mut statuses = Vec::new();
        for nodes in [0, 1, 16, 100, 1000, 10_000, u64::MAX / 2] {
            let budget = Budget {
                nodes: Some(nodes),
                ..Budget::default()
            };
            let (iso, _) = check(&c, &budget, &format!("nodes {nodes}"));
            statuses.push(iso.status);
        }
        assert_ne!(
            statuses[0],
            Status::Exact,
            "{}: no node budget finishes a search that needs nodes",
            c.theory.name
        );
        assert_eq!(
            *statuses.last().unwrap(),
            Status::Exact,
            "{}: an ample node budget must finish",
            c.theory.name
        );
    }
}

/// A count cut short by a budget in search nodes is the same on every run and every machine
/// (the agent's triage and the score's calibration compare theories by it): the same classes,
/// labeled models and nodes on 1, 2 and 5 threads, run after run.
#[test]
fn a_node_limit_cuts_the_count_at_the_same_place_on_any_number_of_threads() {
    for c in cases() {
        for nodes in [100, 1000, 10_000] {
            let budget = Budget {
                nodes: Some(nodes),
                ..Budget::default()
            };
            let on = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let e = pool
                    .install(|| enumerate(&c.theory, &[c.n], &budget, Options::default()))
                    .unwrap();
                (e.iso, e.labeled, e.classes, e.nodes)
            };
            let one = on(1);
            for threads in [2, 5, 5, 2] {
                assert_eq!(
                    on(threads),
                    one,
                    "{} within {nodes} nodes on {threads} threads",
                    c.theory.name
                );
            }
        }
    }
}

#[test]
fn model_limits_give_at_least_the_limit() {
    for c in cases() {
        for k in [1, 2, c.iso / 2, c.iso - 1] {
            if k == 0 {
                continue;
            }
            let budget = Budget {
                models: Some(k as u64),
                ..Budget::default()
            };
            let (iso, labeled) = check(&c, &budget, &format!("models {k}"));
            assert_eq!(
                iso,
                Count {
                    value: k,
                    status: Status::AtLeast
                },
                "{} limit {k}",
                c.theory.name
            );
            assert_eq!(labeled.status, Status::AtLeast);
        }
        // The classes a limit keeps are the first ones in the order of the whole search tree,
        // whichever thread met them: the same on 1, 2 and 5 threads, whose splits differ.
        let kept = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let budget = Budget {
                models: Some((c.iso / 2).max(1) as u64),
                ..Budget::default()
            };
            let e = pool
                .install(|| enumerate(&c.theory, &[c.n], &budget, Options::default()))
                .unwrap();
            (e.classes, e.labeled)
        };
        let one = kept(1);
        for threads in [2, 5] {
            assert_eq!(kept(threads), one, "{} on {threads} threads", c.theory.name);
        }
        // With the classes kept, the limit caps the list too.
        let e = enumerate(
            &c.theory,
            &[c.n],
            &Budget {
                models: Some(1),
                ..Budget::default()
            },
            Options::default(),
        )
        .unwrap();
        assert_eq!(e.classes.len(), 1);
        assert_eq!(
            Some(e.labeled.value),
            birkhoff_checker::labelled_copies(&[c.n], e.classes[0].automorphisms)
        );
        // A limit above every model the search meets never binds: the count is exact.
        let met = enumerate(
            &c.theory,
            &[c.n],
            &Budget::default(),
            Options::counts_only(),
        )
        .unwrap()
        .models_met;
        let (iso, _) = check(
            &c,
            &Budget {
                models: Some(met + 1),
                ..Budget::default()
            },
            "models above the models met",
        );
        assert_eq!(
            iso,
            Count {
                value: c.iso,
                status: Status::Exact
            }
        );
    }
}

#[test]
fn cancellation_never_gives_a_wrong_exact_count() {
    for c in cases() {
        // Cancelled before the start.
        let flag = Arc::new(AtomicBool::new(true));
        let (iso, _) = check(
            &c,
            &Budget {
                cancel: Some(flag),
                ..Budget::default()
            },
            "cancelled at once",
        );
        assert_ne!(
            iso.status,
            Status::Exact,
            "{}: a cancelled search finished",
            c.theory.name
        );
        // Cancelled from another thread while it runs (it may finish first: then it is exact).
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(5));
                flag.store(true, Ordering::Relaxed);
            })
        };
        check(
            &c,
            &Budget {
                cancel: Some(flag),
                ..Budget::default()
            },
            "cancelled after 5 ms",
        );
        setter.join().unwrap();
    }
}

#[test]
fn first_model_with_tiny_budgets_never_claims_none_wrongly() {
    for c in cases() {
        for budget in [
            Budget {
                time: Some(Duration::ZERO),
                ..Budget::default()
            },
            Budget {
                nodes: Some(0),
                ..Budget::default()
            },
            Budget {
                nodes: Some(3),
                ..Budget::default()
            },
            Budget {
                cancel: Some(Arc::new(AtomicBool::new(true))),
                ..Budget::default()
            },
        ] {
            let (outcome, _, _) = first(&c.theory, &[c.n], &budget, Options::default()).unwrap();
            match outcome {
                FirstModel::Found { model } => {
                    assert!(birkhoff_engine::eval::check(&c.theory, &model).is_ok())
                }
                FirstModel::None => panic!(
                    "{} n={}: 'none' under a cut budget, but models exist",
                    c.theory.name, c.n
                ),
                FirstModel::Unknown => {}
            }
        }
    }
}

#[test]
fn direct_labeled_counts_with_budgets_are_honest() {
    for c in cases()
        .into_iter()
        .filter(|c| c.labeled.is_some() && c.n <= 4)
    {
        let truth = c.labeled.unwrap();
        for nodes in [0, 10, 1000] {
            let got = count_labeled_directly(
                &c.theory,
                &[c.n],
                &Budget {
                    nodes: Some(nodes),
                    ..Budget::default()
                },
            )
            .unwrap();
            honest(
                &format!("{} direct labeled, nodes {nodes}", c.theory.name),
                got,
                truth,
            );
        }
        let got = count_labeled_directly(&c.theory, &[c.n], &Budget::default()).unwrap();
        assert_eq!(
            got,
            Count {
                value: truth,
                status: Status::Exact
            }
        );
    }
}

/// A walk over sizes is exact up to where the budget first cuts a count short, and stops there:
/// nothing after a lower bound is searched.
#[test]
fn a_walk_over_sizes_stops_after_the_first_count_cut_short() {
    let rows = ground_truth();
    let semigroup = rows.iter().find(|r| r.theory == "semigroup").unwrap();
    let t = theory_from_ladr_row(
        &semigroup.theory,
        &semigroup.functions,
        &semigroup.relations,
        &semigroup.axioms,
    )
    .unwrap();
    let truth = |n: u32| {
        rows.iter()
            .find(|r| r.theory == "semigroup" && r.n == n)
            .and_then(|r| r.iso)
            .unwrap()
    };
    let all = enumerate_up_to(&t, 4, &Budget::default(), Options::default()).unwrap();
    assert_eq!(
        all.iter()
            .map(|e| (e.sizes.clone(), e.iso))
            .collect::<Vec<_>>(),
        (1..=4)
            .map(|n| (vec![n], Count::from_search(truth(n), true)))
            .collect::<Vec<_>>()
    );
    // 5 semigroups of order 2 but at most 3 models per size: order 2 is a lower bound, the end.
    let cut = enumerate_up_to(
        &t,
        4,
        &Budget {
            models: Some(3),
            ..Budget::default()
        },
        Options::default(),
    )
    .unwrap();
    assert_eq!(cut.len(), 2);
    assert_eq!(cut[0].iso, Count::from_search(1, true));
    honest(
        "semigroups of order 2 with 3 models at most",
        cut[1].iso,
        truth(2),
    );
    assert_ne!(cut[1].iso.status, Status::Exact);
}

/// A medial idempotent magma of order 64: 16.8 million ground instances of mediality, seconds of
/// compiling before any search.
fn large_problem() -> Theory {
    Theory::parse("theory M\nfunc * : 2\naxiom medial: (x * y) * (z * w) = (x * z) * (y * w)\naxiom idem: x * x = x\n", "m.bk").unwrap()
}

#[test]
fn the_budget_holds_while_the_problem_is_built() {
    use birkhoff_checker::{Problem, ProblemError};
    let t = large_problem();
    // The stop condition is asked while instances are compiled, not only once the search runs.
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        true
    };
    assert!(matches!(
        Problem::within(&t, &[64], &stop),
        Err(ProblemError::Stopped)
    ));
    assert_eq!(asked.get(), 1, "it stops at the first look");
    // A search whose time is already up answers honestly, without building the whole problem.
    let cancelled = Budget {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    };
    let e = enumerate(&t, &[64], &cancelled, Options::default()).unwrap();
    assert_eq!(
        (e.iso.status, e.labeled.status, e.nodes),
        (Status::Unknown, Status::Unknown, 0)
    );
    let (f, nodes, _) = first(&t, &[64], &cancelled, Options::default()).unwrap();
    assert_eq!((f, nodes), (FirstModel::Unknown, 0));
    assert_eq!(
        count_labeled_directly(&t, &[64], &cancelled)
            .unwrap()
            .status,
        Status::Unknown
    );
}

#[test]
fn a_problem_too_large_for_memory_is_refused_before_it_is_built() {
    use birkhoff_checker::{Problem, ProblemError};
    // Six variables over 19 elements: 47 million instances of 6 words each, about 4.6 GiB with the
    // search's copies, past a limit of 2 GiB (the default, nine tenths of the memory available,
    // depends on the machine).
    birkhoff_checker::set_memory_limit(2 << 30);
    let t = Theory::parse(
        "theory W\nfunc * : 2\naxiom a: ((x * y) * (z * u)) * (v * w) = x\n",
        "w.bk",
    )
    .unwrap();
    match Problem::new(&t, &[19]) {
        Err(e @ ProblemError::TooMuchMemory { .. }) => {
            assert!(e.to_string().contains("iB of memory"), "{e}")
        }
        other => panic!("expected a refusal, got {:?}", other.map(|p| p.instances())),
    }
}

/// What a SAT encoding will cost in memory is known before it is built: a relation of arity 16
/// at size 3 (43 million cells, more than 6 GB when it was built) is refused at once, under
/// `--max-memory` or the machine's own limit, while a size that fits is built and answered.
#[test]
fn a_sat_encoding_too_large_for_memory_is_refused_before_it_is_built() {
    use birkhoff_checker::finder::FinderError;
    birkhoff_checker::set_memory_limit(2 << 30);
    let relation = |arity: usize| {
        let args = vec!["x"; arity].join(", ");
        Theory::parse(
            &format!("theory R\nrel R : {arity}\naxiom a: R({args})\n"),
            "r.bk",
        )
        .unwrap()
    };
    match birkhoff_checker::sat::first(&relation(16), &[3], &Budget::default()) {
        Err(FinderError::Encoding(e)) => assert!(
            e.contains("of memory, more than the 2.0 GiB allowed"),
            "{e}"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let (found, _, _) =
        birkhoff_checker::sat::first(&relation(8), &[3], &Budget::default()).unwrap();
    assert!(matches!(found, FirstModel::Found { .. }));
}

/// A deadline holds while an encoding is built: the encoder asks before it fills the tables of
/// a relation with 1.6 million cells, and stops at the first look.
#[test]
fn a_sat_encoding_stops_while_it_is_built() {
    use birkhoff_checker::sat::encode::{EncodeError, Encoding, Sink, Symmetry};
    struct Discard;
    impl Sink for Discard {
        fn clause(&mut self, _: &[birkhoff_checker::sat::encode::Lit]) {}
    }
    let args = vec!["x"; 13].join(", ");
    let t = Theory::parse(
        &format!("theory R\nrel R : 13\naxiom a: R({args})\n"),
        "r.bk",
    )
    .unwrap();
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        true
    };
    let built = Encoding::new(&t, &[], &[3], Symmetry::On, u64::MAX, &mut Discard, &stop);
    assert!(matches!(built, Err(EncodeError::Stopped)));
    assert_eq!(asked.get(), 1, "it stops at the first look");
}
