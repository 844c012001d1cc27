//! The conjecture engine on theories whose equational consequences are known: it must find and
//! prove them, never prove a false one, drop instances of axioms, and stay honest when stopped.

use birkhoff_checker::prover::certificate;
use birkhoff_checker::prover::conjecture::{conjecture, Options, Report, Status};
use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::{eval, seeds, Theory};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A seed with extra axioms.
fn with_axioms(seed: &str, extra: &[&str]) -> Theory {
    let mut t = seeds::load(seed).unwrap();
    for (i, text) in extra.iter().enumerate() {
        let a = parse_formula(&t.sig, text, &format!("extra{i}")).unwrap();
        t.axioms.push(a.into());
    }
    t
}

fn run(t: &Theory, opts: &Options) -> Report {
    let r = conjecture(t, opts, &mut |_| {}).unwrap();
    // Whatever the verdicts, their evidence must stand on its own.
    for c in &r.conjectures {
        let goal = c.axiom("conjecture");
        match &c.status {
            Status::Proved { certificate } => certificate::check(t, &goal, certificate).unwrap(),
            Status::Disproved { model, .. } => {
                assert!(eval::check(t, model).is_ok());
                assert!(!eval::holds(&t.sig, model, &goal), "{}", c.equation);
            }
            _ => {}
        }
    }
    r
}

fn status<'a>(r: &'a Report, equation: &str) -> Option<&'a Status> {
    r.conjectures
        .iter()
        .find(|c| c.equation == equation)
        .map(|c| &c.status)
}

fn proved(s: Option<&Status>) -> bool {
    matches!(s, Some(Status::Proved { .. } | Status::ProvedByZ3 { .. }))
}

#[test]
fn groups_of_exponent_two_are_commutative() {
    let t = with_axioms("group", &["x * x = e"]);
    let r = run(
        &t,
        &Options {
            per_conjecture: Duration::from_secs(10),
            ..Options::default()
        },
    );
    assert!(r.models.complete && r.terms_complete && !r.interrupted);
    assert!(
        proved(status(&r, "x * y = y * x")),
        "{:#?}",
        r.conjectures
            .iter()
            .map(|c| (&c.equation, c.status.name()))
            .collect::<Vec<_>>()
    );
    assert!(proved(status(&r, "inv(x) = x")));
    // Every elementary abelian 2-group satisfies the same equations, so nothing is refuted.
    assert_eq!(r.counts.refuted, 0);
    // (x * y) * (x * y) = e is an instance of the axiom: dropped, not listed.
    assert!(status(&r, "x * y * (x * y) = e").is_none());
    assert!(r.trivial > 0);
}

#[test]
fn boolean_rings_have_characteristic_two_and_commute() {
    let t = with_axioms("ring_unital", &["x * x = x"]);
    let r = run(
        &t,
        &Options {
            depth: 1,
            per_conjecture: Duration::from_secs(30),
            ..Options::default()
        },
    );
    for law in ["x + x = r0", "neg(x) = x", "x * y = y * x"] {
        assert!(
            proved(status(&r, law)),
            "{law}: {:?}",
            status(&r, law).map(Status::name)
        );
    }
}

#[test]
fn small_groups_suggest_commutativity_but_it_is_never_proved() {
    // Every group of order at most 4 is abelian, so x * y = y * x holds in every model checked;
    // the prover must refute it (S_3, order 6) or leave it open.
    let t = seeds::load("group").unwrap();
    let r = run(
        &t,
        &Options {
            depth: 1,
            per_conjecture: Duration::from_secs(10),
            ..Options::default()
        },
    );
    match status(&r, "x * y = y * x") {
        Some(Status::Disproved { model, .. }) => assert_eq!(model.sizes, vec![6]),
        Some(Status::Open { .. }) => {}
        s => panic!("commutativity of groups: {:?}", s.map(Status::name)),
    }
}

#[test]
fn a_cancelled_run_is_partial_and_says_so() {
    let t = with_axioms("group", &["x * x = e"]);
    let cancel = Arc::new(AtomicBool::new(true));
    let r = conjecture(
        &t,
        &Options {
            cancel: Some(cancel),
            ..Options::default()
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(r.interrupted);
    assert!(!r.models.complete || !r.terms_complete || r.counts.not_tried == r.conjectures.len());
    assert_eq!(
        r.counts.proved + r.counts.proved_by_z3 + r.counts.refuted + r.counts.open,
        0
    );
}

#[test]
fn the_limit_on_conjectures_leaves_the_rest_not_tried() {
    let t = with_axioms("group", &["x * x = e"]);
    let r = run(
        &t,
        &Options {
            max_conjectures: 2,
            ..Options::default()
        },
    );
    assert_eq!(
        r.conjectures
            .iter()
            .filter(|c| !matches!(c.status, Status::NotTried))
            .count(),
        2
    );
    assert_eq!(r.counts.not_tried, r.conjectures.len() - 2);
}

#[test]
fn one_countermodel_refutes_many_conjectures_without_the_prover() {
    // Groups of order at most 4 are abelian, so many equations of depth 2 hold in them and fail in
    // S_3: the first refutation's countermodel must settle the others (it took 1.5 s each).
    let t = seeds::load("group").unwrap();
    let r = run(
        &t,
        &Options {
            per_conjecture: Duration::from_secs(10),
            ..Options::default()
        },
    );
    assert!(
        r.counts.refuted >= 5,
        "{:#?}",
        r.conjectures
            .iter()
            .map(|c| (&c.equation, c.status.name()))
            .collect::<Vec<_>>()
    );
    assert!(
        r.refuted_by_earlier >= r.counts.refuted - 2,
        "{} of {} refutations reused a countermodel",
        r.refuted_by_earlier,
        r.counts.refuted
    );
}

/// Boolean algebras by Huntington's axioms (1933): join and negation.
const HUNTINGTON: &str = "theory Huntington
func v : 2 infix left 35
func n : 1
axiom join_assoc: (x v y) v z = x v (y v z)
axiom join_comm: x v y = y v x
axiom huntington: n(n(x) v y) v n(n(x) v n(y)) = x
";

#[test]
fn huntingtons_small_laws_are_proved_as_lemmas_citing_each_other() {
    let t = birkhoff_engine::parse::parse_theory(HUNTINGTON, "huntington.bk").unwrap();
    let lemmas =
        birkhoff_checker::prover::conjecture::lemmas(&t, Duration::from_secs(60), None).unwrap();
    let statements: Vec<&str> = lemmas.iter().map(|l| l.statement.as_str()).collect();
    for law in ["n(n(x)) = x", "x v x = x"] {
        assert!(statements.contains(&law), "{law} not among {statements:?}");
    }
    // Each replays from Huntington's axioms alone, its citations first; and the chain is one:
    // some lemma's proof cites an earlier lemma.
    for l in &lemmas {
        let goal = parse_formula(&t.sig, &l.statement, "lemma").unwrap();
        certificate::check(&t, &goal, &l.certificate).unwrap();
    }
    assert!(
        lemmas.iter().any(|l| !l.certificate.cited.is_empty()),
        "no lemma cites another: {statements:?}"
    );
}
