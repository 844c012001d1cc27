//! Completion alone: group and loop theorems are proved with replayed certificates, a corrupted step is
//! caught, and a non-theorem never comes out proved.

use birkhoff_checker::prover::certificate::{self, Certificate};
use birkhoff_checker::prover::{prove_with, Options, Strategy, Verdict};
use birkhoff_engine::parse::{parse_formula, parse_theory};
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::{seeds, Theory};
use std::time::Duration;

fn loop_problem(src: &str) -> Theory {
    parse_theory(src, "loop problem").unwrap()
}

/// Completion's answer with `seconds` for the whole attempt.
fn complete(t: &Theory, goal: &str, seconds: u64) -> (Axiom, Verdict) {
    let g = parse_formula(&t.sig, goal, "goal").unwrap();
    let opts = Options { timeout: Duration::from_secs(seconds), ..Options::default() };
    let a = prove_with(t, &g, &opts, &[Strategy::Completion { time_share: 100 }]).unwrap();
    eprintln!("{goal}: {:?}", a.attempts);
    (g, a.verdict)
}

/// The certificate of a proof completion must find, replayed here once more.
fn proof(t: &Theory, goal: &str) -> (Axiom, Certificate) {
    match complete(t, goal, 60) {
        (g, Verdict::Proved { certificate }) => {
            certificate::check(t, &g, &certificate).unwrap();
            (g, certificate)
        }
        (_, v) => panic!("{goal}: expected a proof, got {v:?}"),
    }
}

#[test]
fn groups_of_exponent_two_are_commutative() {
    let t = loop_problem(include_str!("../../../benches/provers/loops/group_exponent_two_commutative.bk"));
    proof(&t, "x * y = y * x");
}

#[test]
fn group_inverse_laws() {
    let g = seeds::load("group").unwrap();
    proof(&g, "inv(x * y) = inv(y) * inv(x)");
}

#[test]
fn left_moufang_loops_are_left_bol() {
    // Before completion only Z3 proved this one (docs/BENCHMARKS.md, issue 21): saturation fills
    // its e-graph.
    let t = loop_problem(include_str!("../../../benches/provers/loops/lm_implies_left_bol.bk"));
    proof(&t, "x * (y * (x * z)) = (x * (y * x)) * z");
}

#[test]
fn a_corrupted_step_is_rejected() {
    let t = loop_problem(include_str!("../../../benches/provers/loops/group_exponent_two_commutative.bk"));
    let (g, cert) = proof(&t, "x * y = y * x");
    // Move the first step (of a lemma, or of the goal's chain) one position deeper, then give
    // the goal's last step a wrong result: the checker must reject both.
    let mut c = cert.clone();
    let step = c.lemmas.iter_mut().flat_map(|l| l.steps.iter_mut()).chain(c.steps.iter_mut()).next().expect("a step");
    step.position.push(0);
    assert!(certificate::check(&t, &g, &c).is_err(), "a step at a wrong position");
    let mut c = cert.clone();
    let last = c.steps.len() - 1;
    c.steps[last].result = c.lhs.clone();
    assert!(certificate::check(&t, &g, &c).is_err(), "a wrong stated result");
}

#[test]
fn a_non_theorem_is_never_proved() {
    let t = loop_problem(include_str!("../../../benches/provers/loops/lm_implies_right_bol.bk"));
    let (_, v) = complete(&t, "x * y = y * x", 3);
    assert!(!matches!(v, Verdict::Proved { .. }), "{v:?}");
    let g = seeds::load("group").unwrap();
    let (_, v) = complete(&g, "x * y = y * x", 3);
    assert!(!matches!(v, Verdict::Proved { .. }), "{v:?}");
}
