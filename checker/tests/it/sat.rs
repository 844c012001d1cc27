//! The SAT back end against the native finder and a brute-force oracle: counts, isomorphism
//! classes and sat/unsat on every seed and on random theories up to size 5; every model it
//! reports passes the evaluator.

use birkhoff_checker::{
    finder::{self, FirstModel, Options},
    router::{self, Engine},
    sat, size_tuples, Budget, Status,
};
use birkhoff_engine::{eval, seeds, Structure, Theory};
use proptest::prelude::*;
use std::time::Duration;

/// The SAT engine's classes and counts equal the native finder's (an exact native count is
/// required), and its first-model answer agrees with them. Every class model passes the evaluator.
fn agrees(t: &Theory, sizes: &[u32]) {
    let native = finder::enumerate(t, sizes, &Budget::default(), Options::default()).unwrap();
    assert_eq!(native.iso.status, Status::Exact);
    agrees_with(t, sizes, &native, &Budget::default());
}

/// [`agrees`] against a native enumeration already made, with every SAT search under `budget`:
/// a search that runs out of it makes the comparison at these sizes inconclusive (nothing is
/// asserted) rather than slow, so a hard random theory cannot hold up the suite.
fn agrees_with(t: &Theory, sizes: &[u32], native: &finder::Enumeration, budget: &Budget) {
    let s = sat::enumerate(t, sizes, budget)
        .unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}\n{}", t.name, t.to_text()));
    if s.iso.status != Status::Exact {
        assert!(
            budget.time.is_some(),
            "{} at {sizes:?}: no budget was set, yet the count is not exact",
            t.name
        );
        return;
    }
    router::compare_enumerations(native, &s, "sat")
        .unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}\n{}", t.name, t.to_text()));
    for c in &s.classes {
        assert!(
            eval::check(t, &c.model).is_ok(),
            "{} at {sizes:?}: a class fails the evaluator",
            t.name
        );
    }
    first_agrees(t, sizes, native.iso.value > 0, budget);
}

/// SAT's first-model answer is `exists` (a model that passes the evaluator) or none; `Unknown`
/// only when `budget` has a time limit and it ran out.
fn first_agrees(t: &Theory, sizes: &[u32], exists: bool, budget: &Budget) {
    let (f, _, _) =
        sat::first(t, sizes, budget).unwrap_or_else(|e| panic!("{} at {sizes:?}: {e}", t.name));
    match f {
        FirstModel::Found { model } => {
            assert!(
                exists,
                "{} at {sizes:?}: SAT found a model where there is none\n{}",
                t.name,
                t.to_text()
            );
            assert!(eval::check(t, &model).is_ok());
        }
        FirstModel::None => assert!(
            !exists,
            "{} at {sizes:?}: SAT says none where there is a model\n{}",
            t.name,
            t.to_text()
        ),
        FirstModel::Unknown => assert!(budget.time.is_some(), "no budget was set"),
    }
}

/// Largest size compared per seed: 4 (every size tuple up to 4 for many-sorted seeds), less
/// where the classes are too many to enumerate one solver call each in CI (magmas: 3,330 at 3).
fn cap(name: &str) -> u32 {
    match name {
        "magma" => 2,
        "comm_magma" => 3,
        _ => 4,
    }
}

#[test]
fn every_seed_agrees_with_the_native_finder() {
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        for sizes in size_tuples(t.sig.sorts.len(), cap(s.name)) {
            agrees(&t, &sizes);
        }
    }
}

#[test]
fn every_seed_has_a_model_at_five_exactly_when_native_finds_one() {
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        let sizes = vec![5; t.sig.sorts.len()];
        let (f, _, _) = finder::first(&t, &sizes, &Budget::default(), Options::default()).unwrap();
        first_agrees(
            &t,
            &sizes,
            matches!(f, FirstModel::Found { .. }),
            &Budget::default(),
        );
    }
}

/// (labeled models) by brute force: every table tried, judged by the evaluator.
fn brute_labeled(t: &Theory, n: u32) -> u128 {
    crate::common::all_structures(&t.sig, &[n])
        .into_iter()
        .filter(|s: &Structure| eval::check(t, s).is_ok())
        .count() as u128
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    /// Random theories (nested terms, relations, `<->`, `exists` under connectives): up to size 2
    /// the SAT engine's labeled count without symmetry breaking equals brute force; up to size 5
    /// its classes equal the native finder's where those are few, and sat/unsat always agrees.
    #[test]
    fn random_theories_agree(text in crate::common::random_theory()) {
        let t = Theory::parse(&text, "random.bk").unwrap_or_else(|e| panic!("generated theory does not parse:\n{text}\n{e}"));
        for n in 1..=5 {
            if n <= 2 {
                let direct = sat::count_labeled_directly(&t, &[n], &Budget::default()).unwrap();
                prop_assert_eq!(direct.value, brute_labeled(&t, n), "labeled at n={} of\n{}", n, text);
            }
            // Every search here is bounded: a random theory can be hard at size 5 for one
            // engine, and a size where a budget runs out is skipped, not waited on.
            let budget = Budget { time: Some(Duration::from_secs(10)), ..Budget::default() };
            let native = finder::enumerate(&t, &[n], &Budget { time: Some(Duration::from_secs(2)), ..Budget::default() }, Options::default()).unwrap();
            if native.iso.status == Status::Exact && native.iso.value <= 60 {
                agrees_with(&t, &[n], &native, &budget);
            } else {
                match finder::first(&t, &[n], &budget, Options::default()).unwrap().0 {
                    FirstModel::Found { .. } => first_agrees(&t, &[n], true, &budget),
                    FirstModel::None => first_agrees(&t, &[n], false, &budget),
                    FirstModel::Unknown => {}
                }
            }
        }
    }
}

#[test]
fn engine_sat_and_both_through_the_router() {
    let t = seeds::load("quasigroup").unwrap();
    let e = router::enumerate(Engine::Sat, &t, &[4], &Budget::default()).unwrap();
    assert_eq!((e.iso.value, e.labeled.value), (35, 576));
    let both = router::count(Engine::Both, &t, &[4], &Budget::default()).unwrap();
    assert_eq!(both.iso.value, 35);
    let f = router::first_by(Engine::Both, &t, &[5], &Budget::default()).unwrap();
    assert!(matches!(f.outcome, FirstModel::Found { .. }));
    assert_eq!(f.engine, Engine::Both);
}

/// The least-number constraints on cross lines (sat/encode.rs) lose no model. Two Latin squares
/// with rows `A`, unrelated to each other: `f` with columns `B` and symbols `C`, `g` with columns
/// `C` and symbols `B`, each with its divisions. Every pair is a model: L(n)² labeled ones, with
/// L(n) = 1, 2, 12, 576 the Latin squares of order n. The lines chosen are the first columns of
/// `f` and of `g`. Constraining their first rows instead (a line's cells indexed wrongly) keeps
/// only pairs with some row r where `g(r, f(r, -))` has a cycle type the constraints allow, and
/// loses pairs like `f(a, b) = a xor b`, `g(a, c) = a xor c xor 1`.
#[test]
fn cross_lines_lose_no_model() {
    let t = Theory::parse(
        "theory TwoLatinSquares\nsort A, B, C\nfunc f : A B -> C\nfunc g : A C -> B\n\
         func fl : A C -> B\nfunc fr : C B -> A\nfunc gl : A B -> C\nfunc gr : B C -> A\n\
         axiom f1: fl(x, f(x, y)) = y\naxiom f2: f(x, fl(x, z)) = z\naxiom f3: fr(f(x, y), y) = x\naxiom f4: f(fr(z, y), y) = z\n\
         axiom g1: gl(x, g(x, z)) = z\naxiom g2: g(x, gl(x, y)) = y\naxiom g3: gr(g(x, z), z) = x\naxiom g4: g(gr(y, z), z) = y",
        "squares.bk",
    )
    .unwrap();
    for (n, latin) in [(1u32, 1u128), (2, 2), (3, 12), (4, 576)] {
        let e = sat::enumerate(&t, &[n, n, n], &Budget::default()).unwrap();
        assert_eq!(e.labeled.value, latin * latin, "order {n}");
        agrees(&t, &[n, n, n]);
    }
}

#[test]
fn the_race_reports_its_winner_and_the_answer_is_checked() {
    let t = seeds::load("group").unwrap();
    for n in [1, 4, 6] {
        let f = router::first_by(Engine::Auto, &t, &[n], &Budget::default()).unwrap();
        assert!(
            matches!(f.engine, Engine::Native | Engine::Sat),
            "{:?}",
            f.engine
        );
        let FirstModel::Found { model } = f.outcome else {
            panic!("groups of order {n} exist")
        };
        assert!(eval::check(&t, &model).is_ok());
    }
    // No model: a Boolean algebra has 2^k elements.
    let b = seeds::load("boolean_algebra").unwrap();
    let f = router::first_by(Engine::Auto, &b, &[3], &Budget::default()).unwrap();
    assert_eq!(f.outcome, FirstModel::None);
}

/// SAT starts late in a race (the native finder's head start, cut short when the native finder
/// answers without deciding) but still answers one the native finder gives up: with a budget of
/// one node the native side stops unknown at its first budget check, and SAT, which counts no
/// nodes, finds a Steiner quasigroup of order 13 (the native finder needs about 300 nodes).
#[test]
fn sat_answers_a_race_the_native_finder_gives_up() {
    let t = crate::common::bench_theory("steiner_quasigroup.bk");
    let budget = Budget {
        nodes: Some(1),
        ..Budget::default()
    };
    assert_eq!(
        finder::first(&t, &[13], &budget, Options::default())
            .unwrap()
            .0,
        FirstModel::Unknown
    );
    let f = router::first_by(Engine::Auto, &t, &[13], &budget).unwrap();
    assert_eq!(f.engine, Engine::Sat);
    let FirstModel::Found { model } = f.outcome else {
        panic!("a Steiner quasigroup of order 13 exists: {:?}", f.outcome)
    };
    assert!(eval::check(&t, &model).is_ok());
}

#[test]
fn sizes_above_64_are_attempted_not_refused() {
    // Both engines take 100 elements: the limits are what a problem costs.
    let t = Theory::parse(
        "theory Inv\nfunc f : 1\naxiom inv: f(f(x)) = x\naxiom free: f(x) != x",
        "inv.bk",
    )
    .unwrap();
    for engine in [Engine::Auto, Engine::Native, Engine::Sat] {
        let f = router::first_by(engine, &t, &[100], &Budget::default()).unwrap();
        let FirstModel::Found { model } = f.outcome else {
            panic!(
                "{engine:?}: a fixed-point-free involution on 100 elements exists: {:?}",
                f.outcome
            )
        };
        assert!(eval::check(&t, &model).is_ok());
    }
    // One class. Its 2^50·50! automorphisms pass a u128, so its labeled copies (99!! of them)
    // cannot be told from it: the labeled count is a lower bound, never a wrapped number.
    let e = router::count(Engine::Auto, &t, &[100], &Budget::default()).unwrap();
    assert_eq!((e.iso.value, e.iso.status), (1, Status::Exact));
    assert_eq!(e.labeled.status, Status::AtLeast);
}

/// Groups of order 35: one class, whose 35!/24 labeled copies pass a u128 (3.4·10³⁸). Before,
/// the sum wrapped and was reported as an exact count.
#[test]
fn labeled_counts_past_a_u128_are_lower_bounds() {
    let t = seeds::load("group").unwrap();
    let e = finder::enumerate(&t, &[35], &Budget::default(), Options::default()).unwrap();
    assert_eq!((e.iso.value, e.iso.status), (1, Status::Exact));
    assert_eq!(
        (e.labeled.value, e.labeled.status),
        (u128::MAX, Status::AtLeast)
    );
    // Order 34 still fits: 34!/16 + 34!/272 (the cyclic and the dihedral group).
    let e = finder::enumerate(&t, &[34], &Budget::default(), Options::default()).unwrap();
    let f34: u128 = (1..=34).product();
    assert_eq!(
        (e.labeled.value, e.labeled.status),
        (f34 / 16 + f34 / 272, Status::Exact)
    );
}

/// The native finder's domains past 64 elements (several words, `bits.rs`): a fixed-point-free
/// involution with two named elements has three classes at every even size from 4 (the names
/// equal, paired, or neither) and none at odd sizes; the pairs of its models run across each word
/// boundary. Groups of order 128 are found.
#[test]
fn native_counts_and_finds_past_64_elements() {
    let t = Theory::parse("theory Pairing\nfunc a : 0\nfunc b : 0\nfunc f : 1\naxiom inv: f(f(x)) = x\naxiom free: f(x) != x", "pair.bk").unwrap();
    for n in [6, 63, 64, 65, 66, 100, 127, 128, 129, 130] {
        let e = finder::enumerate(&t, &[n], &Budget::default(), Options::default()).unwrap();
        assert_eq!(
            (e.iso.value, e.iso.status),
            (if n % 2 == 0 { 3 } else { 0 }, Status::Exact),
            "size {n}"
        );
        assert!(e.classes.iter().all(|c| eval::check(&t, &c.model).is_ok()));
        let met: std::collections::BTreeSet<_> = e
            .classes
            .iter()
            .map(|c| birkhoff_checker::canonical_form(&t.sig, &c.model).form)
            .collect();
        assert_eq!(
            met.len(),
            e.classes.len(),
            "size {n}: the classes are pairwise nonisomorphic"
        );
    }
    let g = seeds::load("group").unwrap();
    let (outcome, _, _) =
        finder::first(&g, &[128], &Budget::default(), Options::default()).unwrap();
    let FirstModel::Found { model } = outcome else {
        panic!("groups of order 128 exist")
    };
    assert!(eval::check(&g, &model).is_ok());
}

#[test]
fn an_encoding_beyond_the_literal_limit_is_an_error_not_a_crash() {
    let t = seeds::load("group").unwrap();
    let err = sat::first(&t, &[400], &Budget::default()).unwrap_err();
    assert!(err.to_string().contains("literals"), "{err}");
}

/// A sink that counts clauses and asks to stop after `stop_after` of them.
struct StoppingSink {
    clauses: u64,
    stop_after: u64,
}

impl sat::encode::Sink for StoppingSink {
    fn clause(&mut self, _: &[sat::encode::Lit]) {
        self.clauses += 1;
    }
    fn stopped(&self) -> bool {
        self.clauses >= self.stop_after
    }
}

/// The encoder asks its sink whether to stop while it emits, in every phase: quasigroups of
/// order 81 spent 3 s in the one-hot tables and cancellation constraints before the first
/// question to its stop closure, so `find --timeout 0.5` answered after 3.4 s. Here the closure
/// never says stop; the sink does, and the encoding ends within one poll of it, long before the
/// tables of order 40 are built (about 3.5 million clauses).
#[test]
fn the_encoding_stops_when_its_sink_says_so_in_every_phase() {
    use sat::encode::{EncodeError, Encoding, Symmetry, CLAUSES_PER_POLL};
    let q = seeds::load("quasigroup").unwrap();
    let mut sink = StoppingSink {
        clauses: 0,
        stop_after: 1,
    };
    let built = Encoding::new(&q, &[], &[40], Symmetry::On, u64::MAX, &mut sink, &|| false);
    assert!(
        matches!(built, Err(EncodeError::Stopped)),
        "the encoding did not stop"
    );
    assert!(
        sink.clauses <= CLAUSES_PER_POLL,
        "{} clauses were emitted after the sink said stop",
        sink.clauses
    );
}

/// The one-to-one maps [`sat::onto`] reads from `t`'s axioms, with the cancellations `t` implies.
fn injections(t: &Theory) -> Vec<(String, Vec<String>)> {
    let cancels: Vec<(u32, usize)> = birkhoff_checker::cancellations(t)
        .iter()
        .filter_map(birkhoff_checker::cancels_at)
        .collect();
    t.axioms
        .iter()
        .filter_map(|a| {
            let m = sat::onto::injection(a, &cancels)?;
            let printer = birkhoff_engine::print::FormulaPrinter::new(&t.sig, a);
            Some((
                m.terms
                    .iter()
                    .map(|term| printer.term(term))
                    .collect::<Vec<_>>()
                    .join(", "),
                m.vars
                    .iter()
                    .map(|v| a.vars[v.0 as usize].name.clone())
                    .collect(),
            ))
        })
        .collect()
}

/// Orthogonality (`x * y = z * w & x + y = z + w -> x = z`) makes `(x, y) ↦ (x * y, x + y)`
/// one-to-one once `*` cancels on the right argument, so it is onto; without a cancellation the
/// second coordinate is not determined, and a conclusion that is not a renamed variable, or
/// equations that are not renamings of each other, are not read as injections at all.
#[test]
fn injections_are_read_only_where_the_axioms_make_them_one_to_one() {
    assert_eq!(
        injections(&crate::common::bench_theory("orthogonal_latin_squares.bk")),
        [(
            "x * y, x + y".to_string(),
            vec!["x".to_string(), "y".to_string()]
        )]
    );
    assert_eq!(
        injections(&crate::common::bench_theory("sols.bk")),
        [(
            "x * y, y * x".to_string(),
            vec!["x".to_string(), "y".to_string()]
        )]
    );
    let read = |axioms: &str| {
        injections(
            &Theory::parse(&format!("theory T\nfunc * : 2\nfunc \\ : 2\n{axioms}"), "T").unwrap(),
        )
    };
    let cancels = "axiom l: x \\ (x * y) = y\n";
    assert_eq!(
        read(&format!(
            "{cancels}axiom o: x * y = z * w & y * x = w * z -> y = w"
        ))
        .len(),
        1,
        "y = w, then x through y * x"
    );
    assert!(
        read("axiom o: x * y = z * w & y * x = w * z -> x = z").is_empty(),
        "without cancellation y is not determined"
    );
    assert!(
        read(&format!(
            "{cancels}axiom o: x * y = z * w & y * x = w * z -> x = w"
        ))
        .is_empty(),
        "x = w is not x = its renaming"
    );
    assert!(
        read(&format!(
            "{cancels}axiom o: x * y = z * w & y * y = w * z -> x = z"
        ))
        .is_empty(),
        "the second equation renames y to w and z"
    );
    assert!(
        read(&format!("{cancels}axiom o: x * y = z * w -> x = z & y = w")).len() == 1,
        "a full conclusion needs no cancellation"
    );
}

/// The onto clauses change no count: with them, the SAT engine's classes and labeled counts of
/// orthogonal and self-orthogonal squares equal the native finder's, and a theory whose map is
/// not one-to-one (no cancellation: the second coordinate undetermined) keeps its models where
/// some pair of values is never taken.
#[test]
fn onto_clauses_keep_every_model() {
    for n in 1..=4 {
        agrees(
            &crate::common::bench_theory("orthogonal_latin_squares.bk"),
            &[n],
        );
    }
    for n in 1..=5 {
        agrees(&crate::common::bench_theory("sols.bk"), &[n]);
    }
    let magma = Theory::parse(
        "theory T\nfunc * : 2\naxiom o: x * y = z * w & y * x = w * z -> x = z\n",
        "T",
    )
    .unwrap();
    for n in 1..=3 {
        agrees(&magma, &[n]);
    }
    // One-to-one into a larger set: not onto, so no onto clause.
    let into = Theory::parse(
        "theory T\nsort A, B\nfunc f : A -> B\naxiom o: f(x) = f(y) -> x = y\n",
        "T",
    )
    .unwrap();
    for sizes in [[2, 3], [3, 3], [3, 2]] {
        agrees(&into, &sizes);
    }
}

/// Orthogonal Latin squares as Mace4 users write them, with cancellation laws instead of
/// divisions: once refined, the columns are no symbol's values, and the SAT back end adds a
/// division so that their symmetry is broken too (`sat::divisions`). At orders 2 to 5 SAT, on the
/// refined theory as the router searches it, answers as the native finder does on the theory as
/// written (no pair of order 2, pairs of order 3 to 5); at order 6 it finds none, as Tarry proved.
#[test]
fn divisions_keep_the_answers_on_orthogonal_squares_written_with_cancellation() {
    let t = Theory::parse(
        "theory OrthogonalByCancellation\nfunc * : 2\nfunc + : 2\n\
         axiom a: x * y = x * z -> y = z\naxiom b: y * x = z * x -> y = z\n\
         axiom c: x + y = x + z -> y = z\naxiom d: y + x = z + x -> y = z\n\
         axiom o: x * y = z * w & x + y = z + w -> x = z & y = w",
        "ols.bk",
    )
    .unwrap();
    let refined = birkhoff_engine::refine::Refinement::of(&t).expect("four sorts");
    let cancels = sat::divisions::cancellations(&refined.theory);
    assert!(
        sat::divisions::extend(&refined.theory, &cancels, &[4; 4]).is_some(),
        "the test is about a theory that gets a division"
    );
    for n in 2..=6u32 {
        // Refuted in about 3 s; without the division it was unknown after a minute.
        let budget = Budget {
            time: Some(Duration::from_secs(120)),
            ..Budget::default()
        };
        let sat = router::first_by(Engine::Sat, &t, &[n], &budget).unwrap();
        let expected = if n <= 5 {
            finder::first(&t, &[n], &Budget::default(), Options::default())
                .unwrap()
                .0
        } else {
            FirstModel::None
        };
        match (&expected, &sat.outcome) {
            (FirstModel::Found { .. }, FirstModel::Found { model }) => {
                assert!(eval::check(&t, model).is_ok(), "order {n}")
            }
            (FirstModel::None, FirstModel::None) => {}
            (e, s) => panic!("order {n}: native {e:?}, SAT {s:?}"),
        }
    }
}

/// Divisions against brute force on many-sorted theories whose sorts have different sizes: a map
/// from 2 columns into 3 symbols can be one-to-one without being onto, so no division exists and
/// none may be assumed. Every size from 1 to 3 of each sort (to 2 for two tables): SAT finds a model exactly when some
/// table assignment satisfies the axioms.
#[test]
fn divisions_are_added_only_where_they_exist() {
    let texts = [
        (3, "theory RowsInjective\nsort R, C, A\nfunc * : R C -> A\naxiom a: x * y = x * z -> y = z"),
        (3, "theory BothWays\nsort R, C, A\nfunc * : R C -> A\nconst e : C\n\
         axiom a: x * y = x * z -> y = z\naxiom b: y * x = z * x -> y = z\n\
         axiom u: x * e = y * e -> x = y"),
        (2, "theory TwoTables\nsort R, C, A, B\nfunc * : R C -> A\nfunc + : R C -> B\n\
         axiom a: x * y = x * z -> y = z\naxiom c: x + y = x + z -> y = z\n\
         axiom o: x * y = z * w & x + y = z + w -> x = z"),
    ];
    for (max, text) in texts {
        let t = Theory::parse(text, "t.bk").unwrap();
        let sorts = t.sig.sorts.len();
        for sizes in size_tuples(sorts, max) {
            let exists = crate::common::all_structures(&t.sig, &sizes)
                .iter()
                .any(|s| eval::check(&t, s).is_ok());
            let (found, ..) = sat::first(&t, &sizes, &Budget::default()).unwrap();
            match found {
                FirstModel::Found { model } => {
                    assert!(exists, "{} at {sizes:?}: SAT found one", t.name);
                    assert!(eval::check(&t, &model).is_ok());
                }
                FirstModel::None => assert!(!exists, "{} at {sizes:?}: SAT found none", t.name),
                FirstModel::Unknown => panic!("{} at {sizes:?}: unknown", t.name),
            }
        }
    }
}
