//! Mirror lemmas: the other half of one-sided axioms, proved and then given to a first-model
//! search.
//!
//! Groups are often written with their left axioms only (`e * x = x`, `x' * x = e` and
//! associativity, as in Mace4's and TPTP's examples). The right halves follow (`x * e = x`,
//! `x * x' = e`), but a search that is not told so learns them only by failing: a nonabelian group
//! of order 64 written that way was not found in 60 s, and with the right axioms stated it is
//! found in half a second.
//!
//! The mirror of an equation is the equation with the arguments of its binary function swapped.
//! For each axiom that is an equation (under its universal quantifiers) with one binary function
//! (whose arguments have one sort), its mirror
//! is a candidate unless it is a variant of an axiom already there. A candidate that fails in a
//! model of at most four elements is dropped; completion tries each other one for a few
//! milliseconds, and a candidate is added only when its certificate passes
//! [`certificate::check`], the replay that shares no code with completion. A lemma so proved holds
//! in every model of the theory, so adding it changes no model and no answer, and the evaluator
//! still checks every model found against the theory as written.

use crate::budget::{Budget, Meter};
use crate::prover::{certificate, completion, countermodel};
use birkhoff_engine::fingerprint::canonical_axiom;
use birkhoff_engine::syntax::{Axiom, Formula, Term};
use birkhoff_engine::Theory;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long completion may try one candidate. The right identity and inverse of a group written
/// with its left axioms take half a millisecond each; a mirror that does not follow (right
/// distributivity from left) is given up at this limit, which every first-model search of such
/// a theory pays.
const TIME_PER_CANDIDATE: Duration = Duration::from_millis(5);

/// The largest models searched for a counterexample to a candidate before completion tries it.
const SMALL_MODELS: u32 = 4;

/// How long the search for a small counterexample may take.
const TIME_FOR_SMALL_MODELS: Duration = Duration::from_millis(2);

/// Most candidates tried, so that the whole costs at most about 30 ms.
const MOST_CANDIDATES: usize = 4;

/// Most equations completion keeps while trying one candidate, a bound on its memory.
const EQUATIONS: usize = 20_000;

/// Most rewrite steps in a certificate.
const PROOF_STEPS: usize = 20_000;

/// `t` with the mirrors of its axioms that were proved (module doc) added after its own axioms,
/// or `None` when none was. The time taken stays within `budget`'s.
pub fn with_mirrors(t: &Theory, budget: &Budget) -> Option<Theory> {
    with_mirrors_within(t, budget, TIME_PER_CANDIDATE)
}

/// [`with_mirrors`], completion trying each candidate for at most `per_candidate`.
fn with_mirrors_within(t: &Theory, budget: &Budget, per_candidate: Duration) -> Option<Theory> {
    let start = Instant::now();
    // The axioms and the candidates so far, as canonical text: a mirror already among them is
    // no candidate.
    let mut known: Vec<String> = t.axioms.iter().map(|a| canonical_axiom(t, a)).collect();
    let mut candidates: Vec<Axiom> = Vec::new();
    for a in &t.axioms {
        let Some(m) = mirror(t, a) else { continue };
        let text = canonical_axiom(t, &m);
        if !known.contains(&text) {
            known.push(text);
            candidates.push(m);
        }
    }
    let meter = Meter::new(budget);
    let mut proved: Vec<Arc<Axiom>> = Vec::new();
    for candidate in candidates.into_iter().take(MOST_CANDIDATES) {
        if meter.out_of_time() {
            break;
        }
        // Most mirrors that do not follow fail in a small model (the divisions of a quasigroup,
        // mirrored, fail at order 3), found faster than completion gives up.
        if let Ok(countermodel::Search::Found(_)) = countermodel::search(
            t,
            &candidate,
            1,
            SMALL_MODELS,
            TIME_FOR_SMALL_MODELS,
            budget,
        ) {
            continue;
        }
        let own = Instant::now() + per_candidate;
        let limits = completion::Limits {
            deadline: budget.time.map_or(own, |time| own.min(start + time)),
            equations: EQUATIONS,
            proof_steps: PROOF_STEPS,
            cancel: budget.cancel.clone(),
        };
        let Ok(cert) = completion::prove(t, &candidate, &limits) else {
            continue;
        };
        if certificate::check(t, &candidate, &cert).is_ok() {
            proved.push(Arc::new(candidate));
        }
    }
    if proved.is_empty() {
        return None;
    }
    let mut out = t.clone();
    out.axioms.extend(proved);
    Some(out)
}

/// The mirror of `a` when `a` is an equation under universal quantifiers and mentions one binary
/// function, whose two arguments have one sort; `None` otherwise.
fn mirror(t: &Theory, a: &Axiom) -> Option<Axiom> {
    let Formula::Eq(..) = a.formula.without_leading_foralls() else {
        return None;
    };
    // One operation: a law relating two (a quasigroup's product and division) has as its mirror
    // a law about the opposite operations, which swapping arguments does not give.
    let mut binary = t
        .sig
        .func_ids()
        .filter(|&f| t.sig.funcs[f.0 as usize].args.len() == 2 && a.formula.mentions_func(f));
    let (Some(op), None) = (binary.next(), binary.next()) else {
        return None;
    };
    let args = &t.sig.funcs[op.0 as usize].args;
    if args[0] != args[1] {
        return None;
    }
    let formula = a.formula.map_symbols(
        &|f, mut args: Vec<Term>| {
            if f == op {
                args.swap(0, 1);
            }
            Term::App(f, args)
        },
        &|r, args| Formula::Rel(r, args),
    );
    Some(Axiom {
        name: format!("{}_mirrored", a.name),
        formula,
        vars: a.vars.clone(),
        origin: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left_group() -> Theory {
        Theory::parse_any(
            "formulas(assumptions).\n(x*y)*z = x*(y*z).\ne*x = x.\nx'*x = e.\nend_of_list.\n",
            "g.in",
        )
        .unwrap()
    }

    #[test]
    fn a_group_written_on_the_left_gets_its_right_axioms() {
        let t = left_group();
        // A generous time per candidate: on a loaded machine half a millisecond can take longer.
        let m = with_mirrors_within(&t, &Budget::default(), Duration::from_secs(5))
            .expect("the right axioms follow");
        // Associativity mirrored is associativity again: not a candidate.
        assert_eq!(m.axioms.len(), t.axioms.len() + 2);
        let text = m.to_text();
        assert!(text.contains("x * e = x"), "{text}");
        assert!(text.contains("x * prime(x) = e"), "{text}");
    }

    #[test]
    fn a_mirror_that_does_not_follow_is_not_added() {
        // Left distributivity does not give right distributivity: x * y = f(y) is left
        // distributive for every f, right distributive only when f(f(x)) = f(x).
        let t = Theory::parse_any(
            "formulas(assumptions).\nx * (y * z) = (x * y) * (x * z).\nend_of_list.\n",
            "d.in",
        )
        .unwrap();
        assert!(with_mirrors(&t, &Budget::default()).is_none());
        // Commutative theories and theories without a binary function have no candidates.
        assert!(with_mirrors(
            &birkhoff_engine::seeds::load("group").unwrap(),
            &Budget::default()
        )
        .is_none());
    }
}
