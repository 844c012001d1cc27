//! Countermodels among the named structures of the literature
//! ([`birkhoff_engine::examples`]): the Heisenberg group modulo 3 refutes "monoids of exponent 3
//! are commutative" before any search, though a search by size would need order 27.
//!
//! The theory's symbols are read as the example's operations of the same arity, every way
//! (the same names first), so a structure serves any class it is a model of under some reading:
//! the Heisenberg group's multiplication and identity are a monoid's `*` and `e`, or an
//! additive `+` and `0`. A reading counts only when the evaluator finds every axiom of the theory
//! true in it and the goal false, so the answer is a countermodel like any other, whatever
//! example it came from.

use birkhoff_engine::examples::{self, Example};
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::{eval, Structure, Theory};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Most readings of a theory's symbols tried in one example: a theory with four binary
/// operations read in a loop's three has 81.
const MAX_READINGS: usize = 256;

/// A countermodel found among the examples.
pub struct Found {
    /// The example it is a reading of.
    pub example: &'static Example,
    /// The model, over the theory's signature.
    pub model: Structure,
    /// Values of the goal's variables at which it fails.
    pub witness: Vec<(String, u32)>,
}

/// The first example of at most `max_size` elements that, read in the theory's symbols, is a
/// model of `theory` violating `goal`; `Ok(None)` when none is or the theory has relations or
/// several sorts, `Err(Stopped)` when the deadline or a cancel comes first.
pub fn search(
    theory: &Theory,
    goal: &Axiom,
    max_size: u32,
    deadline: Instant,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Option<Found>, eval::Stopped> {
    if theory.sig.sorts.len() != 1 || !theory.sig.rels.is_empty() {
        return Ok(None);
    }
    let stop = || Instant::now() >= deadline || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    for example in examples::all()
        .iter()
        .filter(|x| x.model.sizes[0] <= max_size)
    {
        for reading in readings(theory, example) {
            if stop() {
                return Err(eval::Stopped);
            }
            let model = Structure {
                sizes: example.model.sizes.clone(),
                funcs: reading
                    .iter()
                    .map(|&j| example.model.funcs[j].clone())
                    .collect(),
                rels: Vec::new(),
            };
            // Under the deadline inside each axiom: one axiom on an example of order 81 can take
            // seconds (a lattice's four-variable laws: 43 million assignments), and a reading
            // that satisfies the axioms is evaluated to the end.
            if eval::check_until(theory, &model, &stop)?.is_err() {
                continue;
            }
            if let Some(witness) = eval::falsify_until(&theory.sig, &model, goal, &stop)? {
                return Ok(Some(Found {
                    example,
                    model,
                    witness,
                }));
            }
        }
    }
    Ok(None)
}

/// Every way (at most [`MAX_READINGS`]) of reading each of the theory's function symbols as one
/// of the example's of the same arity, as indices into the example's symbols: the reading by
/// equal names first.
fn readings(theory: &Theory, example: &Example) -> Vec<Vec<usize>> {
    let theirs = &example.theory.sig.funcs;
    let choices: Vec<Vec<usize>> = theory
        .sig
        .funcs
        .iter()
        .map(|f| {
            let mut same: Vec<usize> = (0..theirs.len())
                .filter(|&j| theirs[j].args.len() == f.args.len())
                .collect();
            same.sort_by_key(|&j| theirs[j].name != f.name);
            same
        })
        .collect();
    let mut out = vec![Vec::new()];
    for choice in &choices {
        out = out
            .into_iter()
            .flat_map(|r| {
                choice.iter().map(move |&j| {
                    let mut r = r.clone();
                    r.push(j);
                    r
                })
            })
            .take(MAX_READINGS)
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::parse::parse_formula;
    use std::time::Duration;

    fn refuted_by(theory: &str, goal: &str) -> Option<&'static str> {
        let t = Theory::parse(theory, "t.bk").unwrap();
        let g = parse_formula(&t.sig, goal, "goal").unwrap();
        let found = search(&t, &g, 100, Instant::now() + Duration::from_secs(60), None).ok()??;
        assert!(eval::check(&t, &found.model).is_ok());
        assert!(!eval::holds(&t.sig, &found.model, &g));
        Some(found.example.name)
    }

    #[test]
    fn monoids_of_exponent_3_are_not_commutative_by_the_heisenberg_group() {
        let monoid = "theory M\nfunc * : 2\nconst e\naxiom assoc: (x * y) * z = x * (y * z)\n\
                      axiom left: e * x = x\naxiom right: x * e = x\naxiom cube: x * (x * x) = e";
        assert_eq!(refuted_by(monoid, "x * y = y * x"), Some("heisenberg_3"));
        // In other symbols: an additive monoid of exponent 3.
        let additive = "theory A\nfunc + : 2\nconst z\naxiom assoc: (x + y) + z0 = x + (y + z0)\n\
                        axiom left: z + x = x\naxiom right: x + z = x\naxiom cube: x + (x + x) = z";
        assert_eq!(refuted_by(additive, "x + y = y + x"), Some("heisenberg_3"));
        // What holds in every example of the class refutes nothing.
        assert_eq!(refuted_by(monoid, "x * (x * (x * y)) = y"), None);
    }

    #[test]
    fn a_nonassociative_moufang_loop_of_order_12() {
        let loop_ = birkhoff_engine::catalogue::load("moufang_loop")
            .unwrap()
            .to_text();
        assert_eq!(
            refuted_by(&loop_, "(x * y) * z = x * (y * z)"),
            Some("moufang_12")
        );
    }
}
