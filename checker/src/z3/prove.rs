//! `prove_unsat`: does a theory imply a formula, in all structures (finite or not)? Z3 decides
//! `axioms ∧ ¬goal` over uninterpreted sorts with quantifiers kept. `unsat` means no structure
//! of any size satisfies the axioms and violates the goal, so the goal is a theorem: the verdict
//! is "proved (Z3)", weaker evidence than a replayed certificate because it trusts Z3. `sat` or
//! `unknown` (Z3's model of a quantified problem may be spurious, and it may time out) give
//! "unknown": this function never claims a disproof.

use super::encode::{Domains, Encoder};
use crate::budget::Budget;
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::Theory;
use serde::Serialize;
use std::time::{Duration, Instant};
use z3::{SatResult, Solver};

/// What Z3 says about `theory ⊢ goal`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// `axioms ∧ ¬goal` is unsatisfiable over uninterpreted sorts: the goal follows (trusting Z3).
    Proved,
    /// Z3 did not show unsatisfiability.
    Unknown {
        /// Z3's answer: `sat` (a possibly infinite or spurious countermodel), or why it gave up.
        reason: String,
    },
}

/// Decides `theory ⊢ goal` with Z3 within `timeout` (and `cancel`, as for a search). `goal` is a
/// formula with its own variable table, its free variables read universally, over the
/// theory's signature. Errors only when the goal or an axiom cannot be encoded.
pub fn prove_unsat(theory: &Theory, goal: &Axiom, timeout: Duration, cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) -> Result<Verdict, super::encode::EncodeError> {
    let mut enc = Encoder::new(&theory.sig, Domains::Uninterpreted);
    let solver = Solver::new();
    for a in &theory.axioms {
        solver.assert(enc.axiom(a)?);
    }
    solver.assert(enc.axiom(goal)?.not());
    let budget = Budget { time: Some(timeout), cancel, ..Budget::default() };
    Ok(match super::solve::check(&solver, &budget, Some(Instant::now() + timeout)) {
        SatResult::Unsat => Verdict::Proved,
        SatResult::Sat => Verdict::Unknown { reason: "sat: Z3 found a model of the axioms violating the goal (it may be infinite)".into() },
        SatResult::Unknown => Verdict::Unknown { reason: format!("Z3 gave up: {}", solver.get_reason_unknown().unwrap_or_else(|| "no reason given".into())) },
    })
}
