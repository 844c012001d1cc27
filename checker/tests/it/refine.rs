//! Sort refinement ([`birkhoff_engine::refine`]) against independent oracles. A refined theory is
//! well-sorted (the moves' sort checker), each engine breaking the symmetry of its finer sorts
//! loses no model (its labeled count, summed over classes of the refined theory, equals a count
//! of the theory as written without any symmetry breaking), and a first-model question through the
//! router, which refines, gets the answer the native finder gives on the theory as written.

use birkhoff_checker::{
    finder::{self, FirstModel, Options},
    router::{self, Engine},
    sat, Budget, Status,
};
use birkhoff_engine::refine::Refinement;
use birkhoff_engine::{eval, moves, seeds, Theory};
use proptest::prelude::*;
use std::time::Duration;

/// The labeled models of `t` at one size per sort, by trying every table (the evaluator judges).
fn brute_labeled(t: &Theory, sizes: &[u32]) -> u128 {
    crate::common::all_structures(&t.sig, sizes)
        .into_iter()
        .filter(|s| eval::check(t, s).is_ok())
        .count() as u128
}

/// The refinement of `t` is well-sorted, and enumerating it (native finder and SAT, each with
/// its symmetry breaking on the refined sorts) counts as many labeled models at `n` as `direct`,
/// a count of `t` itself without symmetry breaking. Skipped where a count is cut short by
/// `budget`.
fn refined_counts_agree(t: &Theory, r: &Refinement, n: u32, direct: u128, budget: &Budget) {
    moves::sort_check(&r.theory)
        .unwrap_or_else(|e| panic!("refined {} is ill-sorted: {e}\n{}", t.name, t.to_text()));
    let sizes = r.sizes(&vec![n; t.sig.sorts.len()]);
    let native = finder::enumerate(&r.theory, &sizes, budget, Options::default()).unwrap();
    if native.labeled.status == Status::Exact {
        assert_eq!(
            native.labeled.value,
            direct,
            "native, refined {} at {n}\n{}",
            t.name,
            t.to_text()
        );
    }
    let sat = sat::enumerate(&r.theory, &sizes, budget).unwrap();
    if sat.labeled.status == Status::Exact {
        assert_eq!(
            sat.labeled.value,
            direct,
            "sat, refined {} at {n}\n{}",
            t.name,
            t.to_text()
        );
    }
}

/// Through the router (which refines), native, SAT and the race answer a first-model question as
/// the native finder does on `t` as written; a model found passes the evaluator against `t`.
fn first_agrees(t: &Theory, n: u32, budget: &Budget) {
    let sizes = vec![n; t.sig.sorts.len()];
    let plain = finder::first(t, &sizes, budget, Options::default())
        .unwrap()
        .0;
    for engine in [Engine::Native, Engine::Sat, Engine::Auto] {
        let refined = router::first_by(engine, t, &sizes, budget).unwrap().outcome;
        match (&plain, &refined) {
            (FirstModel::Unknown, _) | (_, FirstModel::Unknown) => {}
            (FirstModel::Found { .. }, FirstModel::Found { model }) => assert!(
                eval::check(t, model).is_ok(),
                "{engine:?} on {} at {n}",
                t.name
            ),
            (FirstModel::None, FirstModel::None) => {}
            _ => panic!(
                "{engine:?} on {} at {n}: {} as written, {} refined\n{}",
                t.name,
                word(&plain),
                word(&refined),
                t.to_text()
            ),
        }
    }
}

fn word(f: &FirstModel) -> &'static str {
    match f {
        FirstModel::Found { .. } => "a model",
        FirstModel::None => "no model",
        FirstModel::Unknown => "unknown",
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
    /// Random theories that refine: labeled counts against brute force at sizes 1 and 2 and
    /// against the native finder's direct count at 3; first models up to size 4.
    #[test]
    fn random_refinements_keep_every_model(text in crate::common::random_theory()) {
        let t = Theory::parse(&text, "random.bk").unwrap_or_else(|e| panic!("generated theory does not parse:\n{text}\n{e}"));
        let Some(r) = Refinement::of(&t) else { return Ok(()) };
        let budget = Budget { time: Some(Duration::from_secs(5)), ..Budget::default() };
        for n in 1..=3 {
            let direct = if n <= 2 {
                brute_labeled(&t, &[n])
            } else {
                let c = finder::count_labeled_directly(&t, &[n], &budget).unwrap();
                if c.status != Status::Exact {
                    continue;
                }
                c.value
            };
            refined_counts_agree(&t, &r, n, direct, &budget);
        }
        for n in 1..=4 {
            first_agrees(&t, n, &budget);
        }
    }
}

/// The refinements of the seeds and bench theories that have one are well-sorted and lose no
/// labeled model at size 3 (each counted without symmetry breaking, by the native finder).
#[test]
fn seeds_and_bench_theories_refine_without_losing_models() {
    let mut theories: Vec<Theory> = seeds::all()
        .iter()
        .map(|s| seeds::load(s.name).unwrap())
        .collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/theories");
    for file in std::fs::read_dir(dir).unwrap() {
        theories.push(crate::common::bench_theory(
            &file.unwrap().file_name().to_string_lossy(),
        ));
    }
    let mut refined = 0;
    for t in &theories {
        let Some(r) = Refinement::of(t) else { continue };
        refined += 1;
        let budget = Budget {
            time: Some(Duration::from_secs(20)),
            ..Budget::default()
        };
        let direct =
            finder::count_labeled_directly(t, &vec![3; t.sig.sorts.len()], &budget).unwrap();
        assert_eq!(direct.status, Status::Exact, "{}", t.name);
        refined_counts_agree(t, &r, 3, direct.value, &budget);
    }
    assert!(
        refined >= 1,
        "no theory refines: the test would check nothing"
    );
}

/// Orthogonal Latin squares split into rows, columns and the symbols of each square, and every
/// engine through the router decides orders 2 to 6 as Euler, Tarry and Bose–Shrikhande–Parker
/// did: no pair of order 2 or 6, pairs of order 3, 4 and 5.
#[test]
fn orthogonal_latin_squares_refine_into_four_sorts_and_keep_their_spectrum() {
    let t = crate::common::bench_theory("orthogonal_latin_squares.bk");
    let r = Refinement::of(&t).expect("orthogonal squares refine");
    assert_eq!(r.theory.sig.sorts.len(), 4);
    for n in 2..=6 {
        for engine in [Engine::Native, Engine::Sat, Engine::Auto] {
            let f = router::first_by(engine, &t, &[n], &Budget::default()).unwrap();
            match f.outcome {
                FirstModel::Found { model } => {
                    assert!(n != 2 && n != 6, "{engine:?}: a pair of order {n}");
                    assert_eq!(
                        model.sizes,
                        vec![n],
                        "the model is a structure of the theory as written"
                    );
                    assert!(eval::check(&t, &model).is_ok());
                }
                FirstModel::None => assert!(n == 2 || n == 6, "{engine:?}: no pair of order {n}"),
                FirstModel::Unknown => panic!("{engine:?}: unknown at {n} without a budget"),
            }
        }
    }
}
