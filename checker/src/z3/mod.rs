//! The Z3 backend: the same three questions as the native [`finder`](crate::finder) (first model,
//! isomorphism classes, labeled count) answered by Z3, and [`prove_unsat`] for the prover.
//!
//! * [`encode`] translates formulas; [`finite`] builds one solver for a theory at fixed sizes;
//!   [`solve`] runs a check under a budget (deadline and Ctrl-C as an interrupt).
//! * Enumeration asserts blocking clauses after each model (for small sizes, one per member of a
//!   new class's orbit) and removes isomorphic copies with the finder's canonical forms
//!   ([`crate::iso`]); the labeled count is Σ n!/|Aut| over the classes.
//!   Counts have no cap other than the budget, and a count cut short is never exact.
//! * Every model is re-checked by the engine's evaluator before it is reported.
//! * libz3 is loaded on first use on x86-64 Linux ([`load`]), not at start-up; every entry
//!   point here first checks that it can be.
//! * Z3 objects are not `Send`: every Z3 object here lives in the calling thread's context
//!   (`z3::Context::thread_local`), so each rayon worker uses its own context, and every
//!   encoding declares its sorts and symbols under names no other encoding uses.
//!
//! Built only with the `z3` cargo feature (on by default), which uses the system's libz3
//! (Debian: `libz3-dev`). The `z3` crate 0.22 is used within the API of Z3 4.8.12.

pub mod encode;
pub mod finite;
pub mod load;
pub mod prove;
pub mod solve;

pub use prove::{prove_unsat, Verdict};

use crate::budget::{Budget, Count, Meter};
use crate::finder::{
    blocked_enumeration, key, merge_classes, verify, Enumeration, FinderError, FirstModel,
};
use crate::iso;
use finite::FiniteProblem;
use solve::stop_condition;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use z3::SatResult;

impl From<encode::EncodeError> for FinderError {
    fn from(e: encode::EncodeError) -> Self {
        FinderError::Encoding(e.to_string())
    }
}

/// `Err` when libz3 cannot be loaded ([`load`]): the engine then answers nothing, as when it is
/// not built in.
fn loaded() -> Result<(), FinderError> {
    load::available().map_err(|why| {
        FinderError::Encoding(format!(
            "the Z3 engine is unavailable: {why}; use --engine native or sat"
        ))
    })
}

fn deadline(budget: &Budget, start: Instant) -> Option<Instant> {
    budget.time.map(|t| start + t)
}

/// The first model Z3 finds, or a proof (Z3's `unsat`) that there is none of these sizes.
pub fn first(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    loaded()?;
    let start = Instant::now();
    crate::problem::check_sizes(&t.sig, sizes)?;
    let end = deadline(budget, start);
    let p = match FiniteProblem::new(t, sizes, true, stop_condition(budget, end)) {
        Err(e) if e.stopped => return Ok((FirstModel::Unknown, 0, start.elapsed())),
        p => p?,
    };
    let outcome = match solve::check(&p.solver, budget, end) {
        SatResult::Sat => {
            let m = p.structure(&p.solver.get_model().expect("sat gives a model"));
            verify(t, &m)?;
            FirstModel::Found { model: m }
        }
        SatResult::Unsat => FirstModel::None,
        SatResult::Unknown => FirstModel::Unknown,
    };
    Ok((outcome, 1, start.elapsed()))
}

/// Largest number of relabelings tried to block a new class's whole orbit (sizes up to 6 for
/// one sort; lattices n = 6: over 60 s with single blocking, 7.3 s with orbits); beyond it only
/// the model met is blocked (5,040 clauses per class at size 7 were not tried).
const ORBIT_LIMIT: u64 = 720;

/// One representative of every isomorphism class, by enumeration with blocking clauses. The
/// `nodes` of the result count Z3 checks (one per model met, plus the last).
pub fn enumerate(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Enumeration, FinderError> {
    loaded()?;
    let start = Instant::now();
    crate::problem::check_sizes(&t.sig, sizes)?;
    let meter = Meter::new(budget);
    let end = deadline(budget, start);
    let p = match FiniteProblem::new(t, sizes, true, stop_condition(budget, end)) {
        Ok(p) => Some(p),
        Err(e) if e.stopped => {
            meter.stop();
            None
        }
        Err(e) => return Err(e.into()),
    };
    let mut classes = HashMap::new();
    let (mut met, mut canon_time, mut verify_time) = (0u64, Duration::ZERO, Duration::ZERO);
    let mut template = None;
    while let Some(p) = &p {
        if !meter.charge(1) {
            break;
        }
        match solve::check(&p.solver, budget, end) {
            SatResult::Sat => {}
            SatResult::Unsat => break,
            SatResult::Unknown => {
                meter.stop();
                break;
            }
        }
        let m = p.structure(&p.solver.get_model().expect("sat gives a model"));
        met += 1;
        let v0 = Instant::now();
        verify(t, &m)?;
        verify_time += v0.elapsed();
        let c0 = Instant::now();
        let c = iso::canonical_form(&t.sig, &m);
        canon_time += c0.elapsed();
        let k = key(&c.form);
        template.get_or_insert(c.form);
        let new_class = classes.insert(k, c.automorphisms).is_none();
        // A new class's whole orbit is blocked when it is small, so Z3 meets each class about
        // once (semigroups n = 4: 2,331 models met for 188 classes with single blocking); no
        // class is lost, since every blocked model is isomorphic to one already counted.
        match new_class
            .then(|| iso::orbit(&t.sig, &m, ORBIT_LIMIT))
            .flatten()
        {
            Some(copies) => copies.iter().for_each(|c| p.block(c)),
            None => p.block(&m),
        }
        if new_class && budget.models.is_some_and(|lim| classes.len() as u64 >= lim) {
            meter.stop();
            break;
        }
    }
    let finished = !meter.stopped();
    let classes = merge_classes(template.as_ref(), [classes], budget.models);
    Ok(blocked_enumeration(
        sizes,
        classes,
        finished,
        met,
        meter.nodes(),
        start.elapsed(),
        canon_time,
        verify_time,
    ))
}

/// Counts labeled models by enumerating every one with Z3, without symmetry breaking, each
/// checked by the evaluator: an independent check of [`enumerate`]'s Σ n!/|Aut|, for tests.
pub fn count_labeled_directly(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Count, FinderError> {
    loaded()?;
    let start = Instant::now();
    crate::problem::check_sizes(&t.sig, sizes)?;
    let end = deadline(budget, start);
    let p = match FiniteProblem::new(t, sizes, false, stop_condition(budget, end)) {
        Err(e) if e.stopped => return Ok(Count::from_search(0, false)),
        p => p?,
    };
    let mut n: u128 = 0;
    loop {
        match solve::check(&p.solver, budget, end) {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(Count::from_search(n, true)),
            SatResult::Unknown => return Ok(Count::from_search(n, false)),
        }
        let m = p.structure(&p.solver.get_model().expect("sat gives a model"));
        verify(t, &m)?;
        p.block(&m);
        n += 1;
    }
}
