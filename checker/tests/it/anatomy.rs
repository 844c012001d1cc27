//! The structure analysis (`birkhoff_engine::anatomy`, issue 51) on every model of small sizes,
//! against oracles that share none of its code: every partition tested against the definition
//! of a congruence, subdirect irreducibility and direct decompositions read off that list, and
//! the known counts of tests/data/structure_counts.tsv.

use birkhoff_checker::finder::{self, Options};
use birkhoff_checker::Budget;
use birkhoff_engine::anatomy::{self, congruence, Algebra, Partition};
use birkhoff_engine::{catalogue, seeds, Structure, Theory};

fn load(name: &str) -> Theory {
    seeds::load(name)
        .or_else(|_| catalogue::load(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every model of `t` of size `n`, one per isomorphism class.
fn models(t: &Theory, n: u32) -> Vec<Structure> {
    let e = finder::enumerate(t, &[n], &Budget::default(), Options::default()).unwrap();
    assert_eq!(e.iso.status, birkhoff_checker::Status::Exact);
    e.classes.into_iter().map(|c| c.model).collect()
}

/// Whether the map x ↦ (x/θ, x/φ) is a bijection from `alg` onto the product of its quotients
/// that respects every operation: `alg` is then the product, checked from the tables alone.
fn is_product(alg: &Algebra, theta: &Partition, phi: &Partition) -> bool {
    let n = alg.size();
    let pair = |x: u32| (theta.labels()[x as usize], phi.labels()[x as usize]);
    let mut images: Vec<(u32, u32)> = (0..n).map(pair).collect();
    images.sort_unstable();
    images.dedup();
    if images.len() as u32 != n || theta.blocks() * phi.blocks() != n {
        return false;
    }
    // A homomorphism: the value's image is determined by the arguments' images, in each factor.
    alg.operations().iter().all(|op| {
        let all: Vec<Vec<u32>> = op.argument_tuples(n).collect();
        all.iter().all(|s| {
            all.iter().all(|t| {
                let same_in = |p: &Partition| s.iter().zip(t).all(|(&a, &b)| p.related(a, b));
                let (vs, vt) = (op.value(n, s), op.value(n, t));
                (!same_in(theta) || theta.related(vs, vt)) && (!same_in(phi) || phi.related(vs, vt))
            })
        })
    })
}

/// What the oracle says of one algebra, from the list of every compatible partition.
struct Oracle {
    congruences: Vec<Partition>,
    simple: bool,
    subdirectly_irreducible: bool,
    decomposable: bool,
}

fn oracle(alg: &Algebra) -> Oracle {
    let n = alg.size();
    let congruences = congruence::brute_force(alg);
    let nontrivial: Vec<&Partition> = congruences.iter().filter(|c| !c.is_discrete()).collect();
    // The intersection of every nontrivial congruence, pair by pair.
    let below_all = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .any(|(a, b)| nontrivial.iter().all(|c| c.related(a, b)));
    let proper: Vec<&Partition> = nontrivial
        .iter()
        .copied()
        .filter(|c| !c.is_total())
        .collect();
    let decomposable = proper
        .iter()
        .any(|theta| proper.iter().any(|phi| is_product(alg, theta, phi)));
    Oracle {
        simple: n >= 2 && congruences.len() == 2,
        subdirectly_irreducible: n >= 2 && below_all,
        decomposable,
        congruences,
    }
}

/// Every model of these theories up to these sizes: the congruences are exactly the partitions
/// that the definition accepts, and simple, SI, the monolith and the direct decomposition agree
/// with what the oracle reads off that list. Unary, binary and ternary operations, constants,
/// one to four operations.
#[test]
fn the_analysis_agrees_with_brute_force_on_every_small_model() {
    let cases = [
        ("group", 6),
        ("semigroup", 4),
        ("lattice", 6),
        ("quasigroup", 4),
        ("loop", 5),
        ("heyting_algebra", 6),
        ("ring", 4),
        ("unary_algebra", 4),
        ("median_algebra", 5),
        ("magma", 3),
        ("rectangular_band", 4),
    ];
    let mut checked = 0;
    for (name, max) in cases {
        let t = load(name);
        for n in 1..=max {
            for m in models(&t, n) {
                let alg = Algebra::of(&t.sig, &m).unwrap();
                let an = anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT);
                let o = oracle(&alg);
                let at = || format!("{name} at size {n}: {m:?}");
                assert_eq!(an.congruences.as_ref(), Some(&o.congruences), "{}", at());
                let i = an.irreducibility.unwrap();
                assert_eq!(i.simple, o.simple, "simple, {}", at());
                assert_eq!(
                    i.subdirectly_irreducible,
                    o.subdirectly_irreducible,
                    "SI, {}",
                    at()
                );
                if let Some(monolith) = &i.monolith {
                    // The least nontrivial congruence: below every other nontrivial one.
                    assert!(o
                        .congruences
                        .iter()
                        .all(|c| c.is_discrete() || monolith.finer_than(c)));
                    assert!(!monolith.is_discrete());
                }
                assert_eq!(
                    i.directly_indecomposable,
                    n >= 2 && !o.decomposable,
                    "{}",
                    at()
                );
                assert_eq!(
                    i.factors.iter().product::<u32>(),
                    if n >= 2 { n } else { 1 }
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "only {checked} models");
}

/// A splitting pair of congruences really makes the algebra the product of its quotients, and
/// the quotients are algebras of the same theory (checked by the evaluator).
#[test]
fn a_direct_decomposition_is_a_product_of_models() {
    let t = load("group");
    let mut split = 0;
    for n in [4, 6, 8] {
        for m in models(&t, n) {
            let alg = Algebra::of(&t.sig, &m).unwrap();
            let lattice = congruence::all(&alg, anatomy::CONGRUENCE_LIMIT).unwrap();
            if let Some((theta, phi)) = congruence::splitting(&lattice) {
                assert!(is_product(&alg, &theta, &phi), "{m:?}");
                for c in [&theta, &phi] {
                    let q = alg.quotient(c);
                    let s = Structure {
                        sizes: vec![q.size()],
                        funcs: q.operations().iter().map(|op| op.table.clone()).collect(),
                        rels: vec![],
                    };
                    birkhoff_engine::eval::check(&t, &s).unwrap();
                }
                split += 1;
            }
        }
    }
    // Z_2^2; Z_6; Z_4 x Z_2 and Z_2^3.
    assert_eq!(split, 4);
}

/// The known counts of simple, SI and directly indecomposable models of 12 classes
/// (tests/data/structure_counts.tsv, each row with its reference).
#[test]
fn the_counts_agree_with_the_literature() {
    let data = include_str!("../data/structure_counts.tsv");
    let mut rows = 0;
    let mut classes = std::collections::BTreeSet::new();
    for line in data.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "{line}");
        let (name, n) = (f[0], f[1].parse::<u32>().unwrap());
        let t = load(name);
        let summary = anatomy::SizeSummary::of(
            n,
            &models(&t, n)
                .iter()
                .map(|m| {
                    anatomy::analyse(&Algebra::of(&t.sig, m).unwrap(), anatomy::CONGRUENCE_LIMIT)
                })
                .collect::<Vec<_>>(),
        );
        assert_eq!(summary.lattice_too_large, 0);
        for (column, got) in [
            (f[2], summary.simple),
            (f[3], summary.subdirectly_irreducible),
            (f[4], summary.directly_indecomposable),
        ] {
            if column != "-" {
                assert_eq!(column.parse::<usize>().unwrap(), got, "{line}");
            }
        }
        assert!(!f[5].trim().is_empty(), "a row without a reference: {line}");
        classes.insert(name);
        rows += 1;
    }
    assert!(
        classes.len() >= 10 && rows >= 50,
        "{} classes, {rows} rows",
        classes.len()
    );
}

/// A structure with a relation is not an algebra: refused, with the relation named.
#[test]
fn relations_are_refused() {
    let t = load("poset");
    let m = models(&t, 2).remove(0);
    let e = Algebra::of(&t.sig, &m).unwrap_err().to_string();
    assert!(e.contains("relation"), "{e}");
}

/// Every model of `t` up to size `max`.
fn models_up_to(t: &Theory, max: u32) -> Vec<Structure> {
    (1..=max).flat_map(|n| models(t, n)).collect()
}

/// Semigroups with x² = y² (issue 51's example): the statements found on the models up to order
/// 4, each proved with a replayed certificate, are the structure theorem: c = x² is a central
/// idempotent, and x ↦ x·x² (= cx) is a retraction and an endomorphism onto an ideal that is
/// commutative, with c as its identity and every square equal to c (a Boolean group).
#[test]
fn semigroups_with_equal_squares_get_their_structure_theorem() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Kind};
    let t = Theory::parse(
        include_str!("../data/semigroup_squares_equal.bk"),
        "semigroup_squares_equal.bk",
    )
    .unwrap();
    let opts = structural::Options {
        complete_up_to: Some(4),
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models_up_to(&t, 4), &opts).unwrap();
    let proved = |kind: Kind, term: &str| {
        found
            .iter()
            .any(|s| s.kind == kind && s.term == term && matches!(s.status, Status::Proved { .. }))
    };
    // x * x = y * y is the axiom itself: not restated.
    assert!(!found
        .iter()
        .any(|s| s.kind == Kind::Constant && s.term == "x * x"));
    for kind in [Kind::Idempotent, Kind::Central] {
        assert!(proved(kind, "x * x"), "{kind:?}: {found:#?}");
    }
    for kind in [
        Kind::Retraction,
        Kind::Endomorphism,
        Kind::ImageLeftIdeal,
        Kind::ImageRightIdeal,
        Kind::ImageCommutative,
        Kind::ImageSquaresConstant,
        Kind::ImageSquareIsIdentity,
        Kind::ImageContainsSquares,
    ] {
        assert!(proved(kind, "x * (x * x)"), "{kind:?}: {found:#?}");
    }
    // Associativity is an axiom: not restated, but known to the composition.
    assert!(
        !found.iter().any(|s| s.kind == Kind::Associative),
        "{found:#?}"
    );
    let axioms = structural::axiom_facts(&t);
    assert_eq!(
        axioms,
        [structural::Fact::new(Kind::Associative, "*", "assoc")]
    );
    // Read together, the proved statements are the structure theorem, in its strongest form.
    let mut facts = structural::proved(&found);
    facts.extend(axioms);
    let theorems = structural::compose(&facts, &structural::Notation::plain);
    assert_eq!(theorems.len(), 1, "{theorems:#?}");
    let th = &theorems[0];
    assert_eq!(th.term, "x * (x * x)");
    assert!(th.sentence.contains("Boolean group"), "{}", th.sentence);
    assert!(th.sentence.contains("ideal extension"), "{}", th.sentence);
    // Without associativity the image is not claimed to be a group.
    let without: Vec<_> = facts
        .iter()
        .filter(|f| f.kind != Kind::Associative)
        .cloned()
        .collect();
    let weaker = structural::compose(&without, &structural::Notation::plain);
    assert!(
        !weaker[0].sentence.contains("group"),
        "{}",
        weaker[0].sentence
    );
    // Each statement holds in every model it was drawn from (the evaluator's check).
    for s in &found {
        assert!(models_up_to(&t, 4)
            .iter()
            .all(|m| birkhoff_engine::eval::holds(&t.sig, m, &s.axiom)));
    }
}

/// A statement true in the small models only is refuted by a larger model: in the groups of
/// order at most 5 (all abelian) every square is central, which S_3 refutes.
#[test]
fn a_statement_true_in_small_models_only_is_refuted() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Kind};
    let t = load("group");
    let opts = structural::Options {
        complete_up_to: Some(5),
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models_up_to(&t, 5), &opts).unwrap();
    let central = found
        .iter()
        .find(|s| s.kind == Kind::Central && s.term == "x * x")
        .unwrap_or_else(|| panic!("{found:#?}"));
    match &central.status {
        Status::Disproved { model, .. } => {
            assert!(!birkhoff_engine::eval::holds(&t.sig, model, &central.axiom));
            birkhoff_engine::eval::check(&t, model).unwrap();
        }
        other => panic!("{other:?}"),
    }
}

/// "Every model is a product of SI models from this list": Boolean algebras up to order 4 are
/// products of the two-element one (Stone), rings with x³ = x up to order 6 of GF(2) and GF(3)
/// (Jacobson), and semigroups with x² = y² are not (three indecomposable models of order 3,
/// none SI).
#[test]
fn semisimple_classes_are_products_of_their_si_models() {
    use birkhoff_checker::router::Engine;
    use birkhoff_checker::survey::{survey, Options};
    let run = |t: &Theory, max: u32| {
        let opts = Options {
            sizes: 1..=max,
            sample: 1000,
            engine: Engine::Auto,
            statements: None,
        };
        survey(t, &opts, &birkhoff_checker::Budget::default(), |_| {}).unwrap()
    };
    let boolean = load("boolean_algebra");
    let s = run(&boolean, 4).semisimple(&boolean).expect("semisimple");
    assert_eq!((s.up_to, s.irreducible), (4, vec![(2, true)]));
    let ring = Theory::parse(include_str!("../data/ring_cube.bk"), "ring_cube.bk").unwrap();
    let s = run(&ring, 6).semisimple(&ring).expect("semisimple");
    assert_eq!((s.up_to, s.irreducible), (6, vec![(2, true), (3, true)]));
    let squares = Theory::parse(
        include_str!("../data/semigroup_squares_equal.bk"),
        "semigroup_squares_equal.bk",
    )
    .unwrap();
    assert!(run(&squares, 4).semisimple(&squares).is_none());
}

/// A loop variant: in C-loops the squares lie in the nucleus (Phillips and Vojtěchovský, "C-loops:
/// extensions and constructions", J. Algebra Appl. 6 (2007); Fenyves 1969). The three nucleus
/// statements are proved with replayed certificates from the models up to order 5, and read
/// together as the theorem.
#[test]
fn c_loops_have_their_squares_in_the_nucleus() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Kind};
    let t = load("c_loop");
    let opts = structural::Options {
        complete_up_to: Some(5),
        max_proofs: 12,
        // Ample for what a quiet machine proves in 0.2 s; the two statements on the operation
        // (associative, commutative: true up to order 5, where every C-loop is a group) use it
        // all before the search gives up, so it is not larger.
        per_statement: std::time::Duration::from_secs(3),
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models_up_to(&t, 5), &opts).unwrap();
    for kind in [
        Kind::InLeftNucleus,
        Kind::InMiddleNucleus,
        Kind::InRightNucleus,
    ] {
        let s = found
            .iter()
            .find(|s| s.kind == kind && s.term == "x * x" && s.operation == "*")
            .unwrap_or_else(|| panic!("{kind:?} not stated: {found:#?}"));
        assert!(matches!(s.status, Status::Proved { .. }), "{s:#?}");
    }
    let mut facts = structural::proved(&found);
    facts.extend(structural::axiom_facts(&t));
    let theorems = structural::compose(&facts, &structural::Notation::plain);
    let th = theorems
        .iter()
        .find(|th| th.operation == "*")
        .expect("a theorem for *");
    assert!(th.sentence.contains("nucleus"), "{th:#?}");
}

/// A loop variant (issue 51): commutative C-loops, where the squares lie in the nucleus and so,
/// the loop being commutative, in the centre, and x ↦ x·x is an endomorphism (Phillips and
/// Vojtěchovský, "C-loops: extensions and constructions"). From the models up to order 8 (all
/// abelian groups) associativity is refuted at order 10, and the middle nucleus and the
/// endomorphism are proved with replayed certificates. The left and right nuclei are proved
/// within 5 s on some runs and not on others (docs/PAPER.md), so they are not asserted; what the
/// four statements and commutativity give together is: x ↦ x·x is an endomorphism into the
/// centre, whose image is a commutative semigroup of central elements.
#[test]
fn commutative_c_loops_square_into_their_centre() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Fact, Kind};
    let t = Theory::parse(
        include_str!("../data/commutative_c_loop.bk"),
        "commutative_c_loop.bk",
    )
    .unwrap();
    let opts = structural::Options {
        complete_up_to: Some(8),
        // The term x * x alone, for the three operations.
        max_terms: 1,
        per_statement: std::time::Duration::from_secs(5),
        second_looks: 12,
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models_up_to(&t, 8), &opts).unwrap();
    let statement = |kind: Kind| {
        found
            .iter()
            .find(|s| s.kind == kind && s.operation == "*")
            .unwrap_or_else(|| panic!("{kind:?} not stated: {found:#?}"))
    };
    let associative = statement(Kind::Associative);
    assert!(
        matches!(&associative.status, Status::Disproved { model, .. } if model.sizes == [10]),
        "{associative:#?}"
    );
    for kind in [Kind::InMiddleNucleus, Kind::Endomorphism] {
        let s = statement(kind);
        assert_eq!(s.term, "x * x");
        assert!(matches!(s.status, Status::Proved { .. }), "{s:#?}");
    }
    for kind in [Kind::InLeftNucleus, Kind::InRightNucleus] {
        let s = statement(kind);
        eprintln!("{}: {} in {:.1} s", s.sentence, s.status.name(), s.seconds);
    }
    // Every proof replays from the axioms alone, those of a second look (citing statements
    // proved beside it) included.
    for s in &found {
        if let Status::Proved { certificate } = &s.status {
            birkhoff_checker::prover::certificate::check(&t, &s.axiom, certificate)
                .unwrap_or_else(|e| panic!("{}: {e:?}", s.sentence));
        }
    }

    let square = |kind| Fact::new(kind, "*", "x * x");
    let mut facts = vec![
        square(Kind::InLeftNucleus),
        square(Kind::InMiddleNucleus),
        square(Kind::InRightNucleus),
        square(Kind::Endomorphism),
    ];
    facts.extend(structural::axiom_facts(&t));
    let theorems = structural::compose(&facts, &structural::Notation::plain);
    let th = theorems
        .iter()
        .find(|th| th.operation == "*" && th.term == "x * x")
        .unwrap_or_else(|| panic!("no theorem for x * x: {theorems:#?}"));
    assert!(
        th.sentence.contains("endomorphism of S into its centre")
            && th
                .sentence
                .contains("commutative semigroup of central elements"),
        "{th:#?}"
    );
    assert!(
        th.parts.iter().any(|p| p.kind == Kind::Commutative),
        "{th:#?}"
    );
    // Without commutativity, the nucleus only; without a nucleus, nothing.
    for missing in [Kind::Commutative, Kind::InLeftNucleus] {
        let fewer: Vec<Fact> = facts
            .iter()
            .filter(|f| f.kind != missing)
            .cloned()
            .collect();
        let weaker = structural::compose(&fewer, &structural::Notation::plain);
        assert!(
            weaker.iter().all(|th| !th.sentence.contains("centre")),
            "{missing:?}: {weaker:#?}"
        );
    }
}

/// Rings with x³ = x split as R ≅ 3R × 2R, a Boolean ring times a ring of characteristic 3
/// (the finite ones are products of GF(2)s and GF(3)s: Jacobson). The splitting statements about
/// the pair of terms are proved with replayed certificates from the models up to order 6 and
/// read together, with the endomorphisms, as the decomposition; the evaluator confirms it on
/// every model (the map to the pair of images is a bijection onto their product).
#[test]
fn rings_with_cubes_equal_split_as_a_direct_product() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Kind};
    use birkhoff_engine::eval::term_value;
    let t = Theory::parse(include_str!("../data/ring_cube.bk"), "ring_cube.bk").unwrap();
    let models = models_up_to(&t, 6);
    let opts = structural::Options {
        complete_up_to: Some(6),
        // The splitting's statements come first: its three and the four endomorphisms.
        max_proofs: 7,
        // x ↦ -(x + x) preserving * takes 4 s on a quiet machine (its proof cites the
        // splitting's statements): ample for a loaded one.
        per_statement: std::time::Duration::from_secs(3),
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models, &opts).unwrap();
    let pair: Vec<_> = found.iter().filter(|s| s.kind.about_pair()).collect();
    assert_eq!(pair.len(), 3, "{pair:#?}");
    for s in &pair {
        assert_eq!(s.operation, "+");
        assert!(matches!(s.status, Status::Proved { .. }), "{s:#?}");
    }
    // Every proof replays from the axioms alone, those that cite earlier statements included.
    use birkhoff_checker::prover::certificate::check;
    let mut citing = 0;
    for s in &found {
        if let Status::Proved { certificate } = &s.status {
            check(&t, &s.axiom, certificate).unwrap_or_else(|e| panic!("{}: {e}", s.equation));
            if certificate.cited.is_empty() {
                continue;
            }
            citing += 1;
            // A citation is an axiom only once its own certificate replays: a false statement
            // under a true one's proof is caught, and so is a name the theory already uses.
            let mut forged = certificate.clone();
            forged.cited[0].statement = "y + x = y".into();
            assert!(check(&t, &s.axiom, &forged).is_err(), "{}", s.equation);
            let mut forged = certificate.clone();
            forged.cited[0].name = "add_zero".into();
            assert!(check(&t, &s.axiom, &forged).is_err(), "{}", s.equation);
        }
    }
    assert!(citing > 0, "the second identity cites the first");
    // A false goal that cites itself, under another statement's proof, does not replay.
    {
        use birkhoff_checker::prover::certificate::*;
        let goal = birkhoff_engine::parse::parse_formula(&t.sig, "x + y = x", "goal").unwrap();
        let (constants, lhs, rhs) = goal_sides(&t.sig, &goal).unwrap();
        let Status::Proved { certificate: other } = &pair[0].status else {
            unreachable!()
        };
        let forged = Certificate {
            theory: t.name.clone(),
            goal: "x + y = x".into(),
            constants: constants.clone(),
            lhs,
            rhs: rhs.clone(),
            cited: vec![Cited {
                name: "lemma".into(),
                statement: "x + y = x".into(),
                certificate: other.clone(),
            }],
            lemmas: Vec::new(),
            steps: vec![Step {
                by: Justification::Axiom {
                    axiom: "lemma".into(),
                    part: 0,
                    substitution: ["x", "y"]
                        .iter()
                        .zip(&constants)
                        .enumerate()
                        .map(|(i, (v, _))| Binding {
                            var: (*v).into(),
                            term: birkhoff_engine::syntax::Term::App(
                                birkhoff_engine::signature::FuncId(
                                    t.sig.funcs.len() as u32 + i as u32,
                                ),
                                vec![],
                            ),
                        })
                        .collect(),
                },
                direction: Direction::LeftToRight,
                position: Vec::new(),
                result: rhs,
                text: "x".into(),
            }],
        };
        assert!(
            check(&t, &goal, &forged).is_err(),
            "a false citation was taken"
        );
    }
    let mut facts = structural::proved(&found);
    facts.extend(structural::axiom_facts(&t));
    let theorems = structural::compose(&facts, &structural::Notation::plain);
    let split = theorems
        .iter()
        .find(|th| th.sentence.contains("direct product"))
        .unwrap_or_else(|| panic!("{theorems:#?}"));
    assert!(split.sentence.contains("for + and *"), "{}", split.sentence);
    // Without one of its parts there is no decomposition.
    for k in [Kind::SplitLeftIdentity, Kind::Endomorphism] {
        let without: Vec<_> = facts.iter().filter(|f| f.kind != k).cloned().collect();
        let theorems = structural::compose(&without, &structural::Notation::plain);
        assert!(
            !theorems
                .iter()
                .any(|th| th.sentence.contains("direct product")),
            "{k:?}: {theorems:#?}"
        );
    }
    // The evaluator's check of the theorem on every model: x ↦ (t(x), u(x)) is one-to-one onto
    // the product of the two images.
    let complement = pair.iter().find(|s| s.kind == Kind::Complement).unwrap();
    let (tt, ut) = match &complement.axiom.formula {
        birkhoff_engine::syntax::Formula::Eq(birkhoff_engine::syntax::Term::App(_, args), _) => {
            (args[0].clone(), args[1].clone())
        }
        other => panic!("{other:?}"),
    };
    let mut nontrivial = false;
    for m in &models {
        let n = m.sizes[0];
        let pairs: std::collections::BTreeSet<(u32, u32)> = (0..n)
            .map(|x| {
                (
                    term_value(&t.sig, m, &tt, &[x]),
                    term_value(&t.sig, m, &ut, &[x]),
                )
            })
            .collect();
        let image = |i: usize| {
            pairs
                .iter()
                .map(|p| if i == 0 { p.0 } else { p.1 })
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        assert_eq!(pairs.len() as u32, n, "one-to-one");
        assert_eq!(image(0) * image(1), n as usize, "onto the product");
        nontrivial |= image(0) > 1 && image(1) > 1;
    }
    assert!(
        nontrivial,
        "Z6 = GF(2) x GF(3) splits into two proper factors"
    );
}

/// One equation may be two statements: in semigroups with x³ = x, "x * x is idempotent" and
/// "x ↦ x * x is a retraction" both read (x * x) * (x * x) = x * x. Both are stated, with the one
/// proof, so that a theorem resting on either finds it.
#[test]
fn one_equation_is_every_statement_it_reads_as() {
    use birkhoff_checker::prover::conjecture::Status;
    use birkhoff_checker::prover::structural::{self, Kind};
    let t = Theory::parse(
        "theory SemigroupWithCube\nfunc * : 2\naxiom assoc: (x * y) * z = x * (y * z)\naxiom cube: x * (x * x) = x\n",
        "cube_semigroup.bk",
    )
    .unwrap();
    let opts = structural::Options {
        complete_up_to: Some(4),
        ..structural::Options::default()
    };
    let found = structural::statements(&t, &models_up_to(&t, 4), &opts).unwrap();
    let of = |kind: Kind| {
        found
            .iter()
            .find(|s| s.kind == kind && s.term == "x * x")
            .unwrap_or_else(|| panic!("{kind:?} not stated: {found:#?}"))
    };
    let (idempotent, retraction) = (of(Kind::Idempotent), of(Kind::Retraction));
    assert_eq!(idempotent.equation, retraction.equation);
    for s in [idempotent, retraction] {
        assert!(matches!(s.status, Status::Proved { .. }), "{s:#?}");
    }
}

/// Every element of the group that `generators` (permutations of `{0..n-1}` as image vectors)
/// generate, by closure under composition: the oracle for Schreier–Sims, fit for small groups.
fn closure(n: usize, generators: &[Vec<u32>]) -> std::collections::HashSet<Vec<u32>> {
    let identity: Vec<u32> = (0..n as u32).collect();
    let mut seen = std::collections::HashSet::from([identity.clone()]);
    let mut todo = vec![identity];
    while let Some(p) = todo.pop() {
        for g in generators {
            let q: Vec<u32> = p.iter().map(|&x| g[x as usize]).collect();
            if seen.insert(q.clone()) {
                todo.push(q);
            }
        }
    }
    seen
}

/// The translations' groups of the operation `op` of `m` against oracles that share none of
/// their code: Mlt listed by closure from the table's rows and columns; Inn as the elements of
/// that list fixing the identity, each tested as an automorphism (not only Bruck's generators).
fn check_translations(t: &Theory, m: &Structure, op: &str) -> anatomy::Translations {
    let alg = Algebra::of(&t.sig, m).unwrap();
    let a = anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT);
    let parts = a.binary.iter().find(|b| b.operation == op).unwrap();
    let table = &alg
        .operations()
        .iter()
        .find(|o| o.name == op)
        .unwrap()
        .table;
    let n = alg.size() as usize;
    let mul = |x: u32, y: u32| table[x as usize * n + y as usize];
    let rows: Vec<Vec<u32>> = (0..n as u32)
        .map(|a| (0..n as u32).map(|x| mul(a, x)).collect())
        .collect();
    let columns: Vec<Vec<u32>> = (0..n as u32)
        .map(|a| (0..n as u32).map(|x| mul(x, a)).collect())
        .collect();
    let latin = rows.iter().chain(&columns).all(|p| {
        let mut sorted = p.clone();
        sorted.sort_unstable();
        sorted == (0..n as u32).collect::<Vec<_>>()
    });
    let Some(tr) = parts.translations.clone() else {
        assert!(!latin, "a Latin square without its groups: {m:?}");
        return anatomy::Translations {
            multiplication_group: None,
            identity: None,
            inner_mapping_group: None,
            automorphic: None,
        };
    };
    assert!(latin, "groups of a table that is not a Latin square: {m:?}");
    let generators: Vec<Vec<u32>> = rows.iter().chain(&columns).cloned().collect();
    let mlt = closure(n, &generators);
    assert_eq!(tr.multiplication_group, Some(mlt.len() as u64), "{m:?}");
    let identity = (0..n as u32).find(|&e| (0..n as u32).all(|x| mul(e, x) == x && mul(x, e) == x));
    assert_eq!(tr.identity, identity);
    match identity {
        Some(e) => {
            let inn: Vec<&Vec<u32>> = mlt.iter().filter(|p| p[e as usize] == e).collect();
            assert_eq!(tr.inner_mapping_group, Some(inn.len() as u64), "{m:?}");
            let automorphic = inn.iter().all(|f| {
                (0..n as u32).all(|x| {
                    (0..n as u32)
                        .all(|y| f[mul(x, y) as usize] == mul(f[x as usize], f[y as usize]))
                })
            });
            assert_eq!(tr.automorphic, Some(automorphic), "{m:?}");
        }
        None => assert_eq!((tr.inner_mapping_group, tr.automorphic), (None, None)),
    }
    tr
}

/// Multiplication and inner mapping groups (GAP's LOOPS computes them) on every loop of order at
/// most 5 and every quasigroup of order at most 4, against closure; on every group of order at
/// most 8, against |Mlt(G)| = |G|²/|Z(G)| and |Inn(G)| = |G/Z(G)|, every group being an A-loop
/// (its inner mappings are conjugations); a table that is not a Latin square has none; and the
/// Schreier–Sims order against closure on random permutations of 7 points.
#[test]
fn multiplication_groups_agree_with_closure_and_with_groups() {
    let loops = load("loop");
    let (mut nonassociative, mut not_automorphic) = (0, 0);
    for n in 1..=5 {
        for m in models(&loops, n) {
            let tr = check_translations(&loops, &m, "*");
            let alg = Algebra::of(&loops.sig, &m).unwrap();
            let a = anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT);
            if a.binary[0].nucleus.len() < n as usize {
                nonassociative += 1;
                // Its translations generate more than a group's x ↦ a·x·b (at most n² maps).
                assert!(tr.multiplication_group > Some(u64::from(n * n)), "{m:?}");
                not_automorphic += usize::from(tr.automorphic == Some(false));
            }
        }
    }
    // The six loops of order 5 (A057771) are Z5 and five nonassociative ones; some have an inner
    // mapping that is not an automorphism, so the oracle's check of every one is put to use.
    assert_eq!(nonassociative, 5);
    assert!(not_automorphic > 0);
    let quasigroups = load("quasigroup");
    for n in 1..=4 {
        for m in models(&quasigroups, n) {
            check_translations(&quasigroups, &m, "*");
        }
    }
    let groups = load("group");
    let mut nonabelian = 0;
    for n in 1..=8u64 {
        for m in models(&groups, n as u32) {
            let tr = check_translations(&groups, &m, "*");
            let alg = Algebra::of(&groups.sig, &m).unwrap();
            let a = anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT);
            let z = a.binary[0].centre.len() as u64;
            assert_eq!(tr.multiplication_group, Some(n * n / z));
            assert_eq!(tr.inner_mapping_group, Some(n / z));
            assert_eq!(tr.automorphic, Some(true));
            nonabelian += usize::from(z < n);
        }
    }
    // S3, D4 and Q8.
    assert_eq!(nonabelian, 3);
    let semigroups = load("semigroup");
    let mut none = 0;
    for m in models(&semigroups, 3) {
        none += usize::from(
            check_translations(&semigroups, &m, "*")
                .multiplication_group
                .is_none(),
        );
    }
    assert!(none > 0);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % k
    };
    for _ in 0..200 {
        let generators: Vec<Vec<u32>> = (0..1 + next(3))
            .map(|_| {
                let mut p: Vec<u32> = (0..7).collect();
                for i in (1..7).rev() {
                    p.swap(i, next(i as u64 + 1) as usize);
                }
                p
            })
            .collect();
        assert_eq!(
            anatomy::permutation::order(7, &generators),
            Some(closure(7, &generators).len() as u64),
            "{generators:?}"
        );
    }
}
