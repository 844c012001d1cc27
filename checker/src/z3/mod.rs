//! The Z3 backend: the same three questions as the native [`finder`](crate::finder) (first model,
//! isomorphism classes, labeled count) answered by Z3, and [`prove_unsat`] for the prover.
//!
//! * [`encode`] translates formulas; [`finite`] builds one solver for a theory at fixed sizes;
//!   [`solve`] runs a check under a budget (deadline and Ctrl-C as an interrupt).
//! * Enumeration asserts blocking clauses after each model (for small sizes, one per member of a
//!   new class's orbit) and removes isomorphic copies with the finder's canonical forms
//!   (`crate::iso`); the labeled count is Σ n!/|Aut| over the classes.
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

pub use prove::{prove_each, prove_unsat, Verdict};

use crate::blocking::{self, BlockingSolver};
use crate::budget::{Budget, Count, Meter};
use crate::finder::{verify, Enumeration, FinderError, FirstModel};
use birkhoff_engine::Structure;
use finite::FiniteProblem;
use solve::stop_condition;
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

/// A theory's [`FiniteProblem`] searched under a budget: each check stops at `deadline` or on
/// the budget's cancel flag.
struct BudgetedSearch<'a> {
    problem: FiniteProblem,
    budget: &'a Budget,
    deadline: Option<Instant>,
}

impl<'a> BudgetedSearch<'a> {
    /// Encodes `t` at `sizes` (with the least-number constraints when `symmetry_breaking`) for a
    /// search under `budget` begun at `start`; `None` when the budget ran out during the encoding.
    fn new(
        t: &birkhoff_engine::Theory,
        sizes: &[u32],
        symmetry_breaking: bool,
        budget: &'a Budget,
        start: Instant,
    ) -> Result<Option<Self>, FinderError> {
        loaded()?;
        crate::problem::check_sizes(&t.sig, sizes)?;
        let deadline = deadline(budget, start);
        let stop = stop_condition(budget, deadline);
        match FiniteProblem::new(t, sizes, symmetry_breaking, stop) {
            Ok(problem) => Ok(Some(BudgetedSearch {
                problem,
                budget,
                deadline,
            })),
            Err(e) if e.stopped => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

impl BlockingSolver for BudgetedSearch<'_> {
    fn solve(&mut self) -> Option<bool> {
        match solve::check(&self.problem.solver, self.budget, self.deadline) {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
        }
    }

    fn model(&self) -> Structure {
        let solver = &self.problem.solver;
        self.problem
            .structure(&solver.get_model().expect("sat gives a model"))
    }

    fn block(&mut self, s: &Structure) {
        self.problem.block(s)
    }
}

/// The first model Z3 finds, or a proof (Z3's `unsat`) that there is none of these sizes.
pub fn first(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    let start = Instant::now();
    let Some(mut search) = BudgetedSearch::new(t, sizes, true, budget, start)? else {
        return Ok((FirstModel::Unknown, 0, start.elapsed()));
    };
    let outcome = match search.solve() {
        Some(true) => {
            let m = search.model();
            verify(t, &m)?;
            FirstModel::Found { model: m }
        }
        Some(false) => FirstModel::None,
        None => FirstModel::Unknown,
    };
    Ok((outcome, 1, start.elapsed()))
}

/// One representative of every isomorphism class, by enumeration with blocking clauses
/// (`blocking::enumerate`). The `nodes` of the result count Z3 checks (one per model met, plus
/// the last).
pub fn enumerate(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Enumeration, FinderError> {
    let start = Instant::now();
    let meter = Meter::new(budget);
    let search = BudgetedSearch::new(t, sizes, true, budget, start)?;
    if search.is_none() {
        meter.stop();
    }
    blocking::enumerate(t, sizes, budget, &meter, search, start)
}

/// Counts labeled models by enumerating every one with Z3, without symmetry breaking, each
/// checked by the evaluator: an independent check of [`enumerate`]'s Σ n!/|Aut|, for tests.
pub fn count_labeled_directly(
    t: &birkhoff_engine::Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Count, FinderError> {
    match BudgetedSearch::new(t, sizes, false, budget, Instant::now())? {
        Some(mut search) => blocking::count_every_model(t, &mut search),
        None => Ok(Count::from_search(0, false)),
    }
}
