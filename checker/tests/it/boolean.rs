//! Identities of Boolean algebras by normal forms (`prover::boolean`): proved with certificates
//! the kernel replays, from the laws proved first from the theory's own axioms; never for a
//! statement that is not an identity of Boolean algebras, nor in a theory that is no Boolean
//! algebra.

use crate::common::has_e;
use birkhoff_checker::prover::boolean::{prove, Kind, Kit};
use birkhoff_checker::prover::{certificate, Options};
use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::Theory;
use std::time::{Duration, Instant};

fn opts() -> Options {
    Options::for_verdicts(Duration::from_secs(2), None)
}

fn boolean_algebra() -> Theory {
    birkhoff_engine::seeds::load("boolean_algebra").unwrap()
}

/// The certificate for `goal`, checked here a second time by the kernel.
fn proved(t: &Theory, kit: &Kit, goal: &str) -> Option<usize> {
    let g = parse_formula(&t.sig, goal, "goal").unwrap();
    let cert = prove(t, &g, kit, Instant::now() + Duration::from_secs(20))?;
    certificate::check(t, &g, &cert).unwrap();
    Some(cert.total_steps())
}

#[test]
fn the_symmetric_difference_is_associative_and_meet_distributes_over_it() {
    if !has_e("the_symmetric_difference_is_associative_and_meet_distributes_over_it") {
        return;
    }
    let t = boolean_algebra();
    let kit = Kit::find(&t, &opts())
        .unwrap()
        .expect("a Boolean algebra's laws");
    let plus = |a: &str, b: &str| format!("(({a} ^ c({b})) v (c({a}) ^ {b}))");
    for goal in [
        // Stone's addition: associative, with 0 as identity and every element its own inverse.
        format!(
            "{} = {}",
            plus(&plus("x", "y"), "z"),
            plus("x", &plus("y", "z"))
        ),
        format!("{} = x", plus("bot", "x")),
        format!("{} = bot", plus("x", "x")),
        // Multiplication (meet) distributes over it.
        format!("x ^ {} = {}", plus("y", "z"), plus("x ^ y", "x ^ z")),
        // Ground, and the bounds.
        "c(bot) = top".to_string(),
        "x v top = top".to_string(),
        // Five variables.
        "(x ^ y) v (z ^ u) v w = (x v z v w) ^ (x v u v w) ^ (y v z v w) ^ (y v u v w)".to_string(),
    ] {
        assert!(proved(&t, &kit, &goal).is_some(), "{goal}");
    }
    // Not identities of Boolean algebras: no proof (a two-element algebra refutes each).
    for goal in [
        "x ^ y = x v y",
        format!("{} = {}", plus("x", "y"), "x v y").leak(),
        "c(x) = x",
        "top = bot",
    ] {
        assert_eq!(proved(&t, &kit, goal), None, "{goal}");
    }
}

/// Boolean rings get their own normal form, Zhegalkin's polynomials: the translations of a
/// Boolean algebra's axioms through Stone's definitions are proved (x ∨ y = x + y + xy).
#[test]
fn a_boolean_rings_identities_are_proved_by_its_polynomials() {
    let t = birkhoff_engine::catalogue::all()
        .into_iter()
        .find(|e| e.name == "boolean_ring")
        .unwrap()
        .theory()
        .unwrap();
    let kit = Kit::find(&t, &opts())
        .unwrap()
        .expect("a Boolean ring's laws");
    assert_eq!(kit.kind, Kind::Ring);
    let join = |a: &str, b: &str| format!("({a} + ({b} + {a} * {b}))");
    for goal in [
        // Meet distributes over join, and join is associative and absorbs.
        format!("x * {} = {}", join("y", "z"), join("x * y", "x * z")),
        format!(
            "{} = {}",
            join(&join("x", "y"), "z"),
            join("x", &join("y", "z"))
        ),
        format!("{} = x", join("x", "x * y")),
        // x ∨ ¬x = 1 with ¬x = x + 1; and the ring is commutative.
        format!("{} = r1", join("x", "(x + r1)")),
        "x * y = y * x".to_string(),
        "neg(x) = x".to_string(),
    ] {
        assert!(proved(&t, &kit, &goal).is_some(), "{goal}");
    }
    for goal in ["x + y = x * y", "x + r1 = x", "x * (y + z) = x * y + z"] {
        assert_eq!(proved(&t, &kit, goal), None, "{goal}");
    }
}

/// The roles are found by trying: in a Boolean algebra written with other names and in another
/// order, the laws are proved for the symbols that play the parts; a lattice (no complement)
/// and a ring (whose laws the two-element field refutes) get no kit.
#[test]
fn the_roles_are_found_and_a_theory_that_is_no_boolean_algebra_gets_no_kit() {
    let renamed = Theory::parse(
        "theory Renamed\nfunc * : 2 infix left 40\nfunc + : 2 infix left 35\nfunc n : 1\nconst one\nconst zero\n\
         axiom a1: (x + y) + z = x + (y + z)\naxiom a2: x + y = y + x\naxiom a3: (x * y) * z = x * (y * z)\n\
         axiom a4: x * y = y * x\naxiom a5: x + (x * y) = x\naxiom a6: x * (x + y) = x\n\
         axiom a7: x * (y + z) = (x * y) + (x * z)\naxiom a8: x + zero = x\naxiom a9: x * one = x\n\
         axiom a10: x * n(x) = zero\naxiom a11: x + n(x) = one\n",
        "renamed.bk",
    )
    .unwrap();
    let kit = Kit::find(&renamed, &opts())
        .unwrap()
        .expect("the laws, under other names");
    let name = |f| renamed.sig.func_decl(f).name.clone();
    assert_eq!(kit.kind, Kind::Algebra);
    let roles = [
        kit.roles.times,
        kit.roles.plus,
        kit.roles.zero,
        kit.roles.one,
    ]
    .map(name);
    // Meet and join, and the bounds, may come in either order (the dual is a Boolean algebra).
    assert!(
        roles == ["*", "+", "zero", "one"] || roles == ["+", "*", "one", "zero"],
        "{roles:?}"
    );
    assert!(proved(&renamed, &kit, "n(x * y) = n(x) + n(y)").is_some());
    for other in ["lattice", "ring_unital"] {
        let t = birkhoff_engine::seeds::load(other)
            .or_else(|_| {
                birkhoff_engine::catalogue::all()
                    .into_iter()
                    .find(|e| e.name == other)
                    .unwrap()
                    .theory()
            })
            .unwrap();
        assert!(Kit::find(&t, &opts()).unwrap().is_none(), "{other}");
    }
}
