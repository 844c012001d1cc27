//! The SAT back end: the same questions as the native [`finder`](crate::finder) (first model,
//! isomorphism classes) answered by a CDCL SAT solver, CaDiCaL, through the `cadical` crate.
//!
//! * [`encode`] turns a theory at fixed sizes into clauses (Paradox-style: one-hot tables,
//!   grounded axioms, shared term nodes, static least-number symmetry breaking), with the
//!   cancellation clauses of `crate::implied` beside the axioms, and the [`onto`] clauses of
//!   axioms that make a map of finite sets one-to-one.
//! * [`first`] searches with [`divisions`] added as defined symbols where a sort is no symbol's
//!   values, asks first for models with a prescribed automorphism ([`automorphism`]), then,
//!   with the least-number constraints on, for any model; [`enumerate`] blocks each model's
//!   table assignment (for small sizes the whole orbit of a new class) and removes isomorphic
//!   copies with `crate::iso` canonical forms, as the Z3 engine does; the labeled count is
//!   Σ n!/|Aut| over the classes.
//! * Every model is re-checked by the engine's evaluator before it is reported.
//! * The only size limit is the encoding's real cost: [`LITERAL_LIMIT`] literals.
//! * The solver polls a stop condition (deadline, Ctrl-C, or a race already decided elsewhere),
//!   and the encoding asks it too, so `--timeout` holds while the clauses are built.

pub mod automorphism;
pub mod divisions;
pub mod encode;
pub mod onto;

use crate::blocking::{self, BlockingSolver};
use crate::budget::{Budget, Count, Meter};
use crate::finder::{verify, Enumeration, FinderError, FirstModel};
use birkhoff_engine::{Structure, Theory};
use encode::{EncodeError, Encoding, Lit, Sink, Symmetry};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most literals an encoding may have: the real limit on the sizes this engine takes. The
/// solver's clause arena, watches and the encoder's tables came to about 60 bytes per literal
/// (quasigroups of order 81: 140 million literals, 9.7 GB, before cancellations were encoded
/// as at-most-one constraints), so 100 million stays within a few GB.
pub const LITERAL_LIMIT: u64 = 100_000_000;

/// When to give up: a deadline and any number of flags (Ctrl-C, a race decided elsewhere).
#[derive(Clone, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flags: Vec<Arc<AtomicBool>>,
}

impl Stop {
    /// The stop condition of `budget` (deadline from now, its cancel flag), plus `extra`.
    pub fn new(budget: &Budget, extra: Option<Arc<AtomicBool>>) -> Stop {
        Stop {
            deadline: budget.time.map(|t| Instant::now() + t),
            flags: budget.cancel.iter().cloned().chain(extra).collect(),
        }
    }

    /// Whether to stop now.
    pub fn now(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.flags.iter().any(|f| f.load(Ordering::Relaxed))
    }
}

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        self.now()
    }
}

/// A CaDiCaL solver that is freed on a thread of its own when it is large: CaDiCaL frees a
/// formula clause by clause (about 3 s for the 2.7 GB of quasigroups of order 81), which made
/// `find --timeout 10` answer after 12.9 s. The caller returns at once, and a process that exits
/// does not wait for the freeing.
struct Solver(Option<cadical::Solver<Stop>>);

/// Solvers holding more clauses than this are freed apart (a million clauses take about 30 ms).
const FREE_APART: usize = 1_000_000;

impl Solver {
    fn new() -> Solver {
        Solver(Some(cadical::Solver::new()))
    }
}

impl std::ops::Deref for Solver {
    type Target = cadical::Solver<Stop>;
    fn deref(&self) -> &Self::Target {
        self.0
            .as_ref()
            .expect("a solver is taken only when dropped")
    }
}

impl std::ops::DerefMut for Solver {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0
            .as_mut()
            .expect("a solver is taken only when dropped")
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Some(large) = self.0.take().filter(|s| s.num_clauses() > FREE_APART) {
            // When no thread can be started, the closure, and the solver with it, is dropped here.
            let _ = std::thread::Builder::new()
                .name("sat-free".into())
                .spawn(move || drop(large));
        }
    }
}

/// The solver as the encoder's sink, with the stop condition the encoder polls.
struct SolverSink<'a>(&'a mut Solver, &'a Stop);

impl Sink for SolverSink<'_> {
    fn clause(&mut self, lits: &[Lit]) {
        self.0.add_clause(lits.iter().copied());
    }
    fn stopped(&self) -> bool {
        self.1.now()
    }
}

/// A theory encoded into a solver.
struct Sat {
    solver: Solver,
    enc: Encoding,
    /// A blocked structure had no free entry (every table forced): nothing is left.
    exhausted: bool,
}

/// What came of building the encoding.
enum Built {
    Ready(Box<Sat>),
    /// The stop condition held first.
    Stopped,
}

fn build(t: &Theory, sizes: &[u32], symmetry: Symmetry, stop: &Stop) -> Result<Built, FinderError> {
    check_sizes(t, sizes)?;
    let mut solver = Solver::new();
    let implied = crate::implied::cancellations(t);
    let estimate = encode::estimate(t, &implied, sizes);
    if estimate > LITERAL_LIMIT as u128 {
        return Err(too_large(t, sizes, &format!("about {estimate}")));
    }
    let (bytes, limit) = (
        encode::memory_estimate(t, &implied, sizes),
        crate::budget::memory_limit(),
    );
    if bytes > u128::from(limit) {
        let (bytes, limit) = (
            crate::budget::memory_text(bytes),
            crate::budget::memory_text(limit.into()),
        );
        return Err(FinderError::Encoding(format!(
            "the SAT encoding of {} at size {} would need about {bytes} of memory, more than the {limit} allowed (--max-memory; by default nine tenths of the memory available)",
            t.name,
            crate::spectrum::sizes_label(sizes)
        )));
    }
    // A formula too large for the automorphism tries is built as it would be without them.
    let symmetry = if symmetry == Symmetry::Switched && estimate > TRY_LITERALS as u128 {
        Symmetry::On
    } else {
        symmetry
    };
    let enc = match Encoding::new(
        t,
        &implied,
        sizes,
        symmetry,
        LITERAL_LIMIT,
        &mut SolverSink(&mut solver, stop),
        &|| stop.now(),
    ) {
        Ok(enc) => enc,
        Err(EncodeError::Stopped) => return Ok(Built::Stopped),
        Err(EncodeError::TooLarge { literals, .. }) => {
            return Err(too_large(t, sizes, &format!("more than {literals}")))
        }
    };
    solver.set_callbacks(Some(stop.clone()));
    Ok(Built::Ready(Box::new(Sat {
        solver,
        enc,
        exhausted: false,
    })))
}

fn too_large(t: &Theory, sizes: &[u32], needed: &str) -> FinderError {
    FinderError::Encoding(format!(
        "the SAT encoding of {} at size {} needs {needed} literals, past the SAT engine's limit of {LITERAL_LIMIT}",
        t.name,
        crate::spectrum::sizes_label(sizes)
    ))
}

/// One size per sort, each at least 1 (there is no fixed upper bound: see [`LITERAL_LIMIT`]).
fn check_sizes(t: &Theory, sizes: &[u32]) -> Result<(), FinderError> {
    use crate::problem::ProblemError;
    if sizes.len() != t.sig.sorts.len() {
        return Err(ProblemError::SizeCount {
            given: sizes.len(),
            sorts: t.sig.sorts.len(),
        }
        .into());
    }
    if sizes.contains(&0) {
        return Err(ProblemError::Empty.into());
    }
    Ok(())
}

impl BlockingSolver for Sat {
    fn solve(&mut self) -> Option<bool> {
        if self.exhausted {
            return Some(false);
        }
        self.solver.solve()
    }

    fn model(&self) -> Structure {
        self.enc
            .structure(&|l| self.solver.value(l).unwrap_or(false))
    }

    /// Excludes exactly this table assignment. Entries forced by the encoding (a sort of one
    /// element) are left out of the clause; a structure with none free leaves nothing to find
    /// (adding the empty clause through the crate left the next call answering "satisfiable":
    /// an enumeration of size 1 never ended).
    fn block(&mut self, s: &Structure) {
        let mut lits: Vec<Lit> = self
            .enc
            .literals_of(s)
            .into_iter()
            .map(|l| -l)
            .filter(|&l| l != encode::FALSE)
            .collect();
        lits.sort_unstable();
        lits.dedup();
        if lits.is_empty() {
            self.exhausted = true;
        } else {
            self.solver.add_clause(lits);
        }
    }
}

impl Sat {
    /// The first-model search: `Some(true)` with a model (read it with [`Sat::model`] before
    /// adding clauses), `Some(false)` when there is none, `None` when stopped. The tries need an
    /// encoding built [`Symmetry::Switched`] (`build` builds a formula larger than
    /// [`TRY_LITERALS`] with the constraints always on, and then there are none).
    ///
    /// Round by round, with the conflict limits of [`CONFLICTS_PER_TRY`], the unrestricted
    /// search (least-number constraints assumed, every try's guard assumed false) and then each
    /// try for a model invariant under one of the [`automorphism::candidates`] (its guard
    /// assumed, the least-number constraints not) take turns; then the unrestricted search runs
    /// without a limit. The unrestricted search goes first in each round, so that an instance it
    /// answers quickly pays nothing for the tries (Steiner quasigroups of order 27 and
    /// Mendelsohn quasigroups of order 16 are found in its first round), and the tries take
    /// turns so that one hopeless permutation (a cycle through all of an even order, for Latin
    /// squares) does not hold up the next.
    ///
    /// Only the unrestricted search answers "none": a guard occurs only negated, so assuming it
    /// false loses no model, and the least-number constraints lose no isomorphism class.
    fn first_model(&mut self, sizes: &[u32], stop: &Stop) -> Option<bool> {
        let switch = self.enc.symmetry_switch;
        // Guards are numbered past every variable of the encoding, used in a clause or not.
        let mut tries: Vec<Lit> = Vec::new();
        let candidates = if switch == encode::TRUE {
            Vec::new()
        } else {
            automorphism::candidates(sizes)
        };
        for perm in candidates {
            let guard = self.enc.variables() + 1 + tries.len() as Lit;
            self.solver.reserve(guard);
            self.enc.invariance(&perm, guard, &mut |c| {
                self.solver.add_clause(c.iter().copied())
            });
            tries.push(guard);
        }
        let unrestricted: Vec<Lit> = std::iter::once(switch)
            .chain(tries.iter().map(|&g| -g))
            .collect();
        let mut open = tries.clone();
        for limit in CONFLICTS_PER_TRY {
            if open.is_empty() {
                break;
            }
            self.solver
                .set_limit("conflicts", limit)
                .expect("CaDiCaL has a conflict limit");
            match self.solver.solve_with(unrestricted.iter().copied()) {
                None if !stop.now() => {}
                answer => return answer,
            }
            let mut still_open = Vec::new();
            for &guard in &open {
                self.solver
                    .set_limit("conflicts", limit)
                    .expect("CaDiCaL has a conflict limit");
                match self.solver.solve_with([guard]) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None if stop.now() => return None,
                    None => still_open.push(guard),
                }
            }
            open = still_open;
        }
        // Units in place of the assumptions, so that the solver can simplify with them.
        for &lit in unrestricted.iter().filter(|&&l| l != encode::TRUE) {
            self.solver.add_clause([lit]);
        }
        self.solve()
    }
}

/// The first model CaDiCaL finds, or its proof that there is none of these sizes.
pub fn first(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    first_until(t, sizes, budget, None)
}

/// [`first`], also giving up as soon as `settled` is raised (another engine answered).
pub fn first_until(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    settled: Option<Arc<AtomicBool>>,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    let start = Instant::now();
    let stop = Stop::new(budget, settled);
    let extended = divisions::extend(t, &divisions::cancellations(t), sizes);
    let searched = extended.as_ref().unwrap_or(t);
    let mut sat = match build(searched, sizes, Symmetry::Switched, &stop)? {
        Built::Ready(sat) => sat,
        Built::Stopped => return Ok((FirstModel::Unknown, 0, start.elapsed())),
    };
    let outcome = match sat.first_model(sizes, &stop) {
        Some(true) => {
            let m = divisions::restrict(sat.model(), t);
            verify(t, &m)?;
            FirstModel::Found { model: m }
        }
        Some(false) => FirstModel::None,
        None => FirstModel::Unknown,
    };
    Ok((outcome, 1, start.elapsed()))
}

/// The largest encoding, in literals as [`encode::estimate`] predicts them, whose first-model
/// search begins with the automorphism tries; a larger one is built and searched as if there
/// were no tries. Under a prescribed automorphism one decision implies a whole orbit of entries,
/// so a conflict costs more the larger the formula: 1,000 conflicts of one try took 2.4 s on
/// loops of order 32 (estimate 0.96 million) and 28 s on loops of order 64, which SAT answers in
/// 0.5 s and 3 s without tries. The designs the tries are for are small: self-orthogonal Latin
/// squares of order 12 are estimated at 0.11 million literals, orthogonal pairs of order 10 at
/// 0.09 million, Steiner quasigroups of order 27 at 0.16 million.
const TRY_LITERALS: u64 = 500_000;

/// The conflicts allowed, round by round, to the unrestricted search and to each try of
/// [`Sat::first_model`].
const CONFLICTS_PER_TRY: [i32; 2] = [1_000, 10_000];

/// One representative of every isomorphism class, by enumeration with blocking clauses
/// (`blocking::enumerate`). The `nodes` of the result count solver calls (one per model met,
/// plus the last).
pub fn enumerate(t: &Theory, sizes: &[u32], budget: &Budget) -> Result<Enumeration, FinderError> {
    let start = Instant::now();
    crate::problem::check_sizes(&t.sig, sizes)?;
    let meter = Meter::new(budget);
    let stop = Stop::new(budget, None);
    let sat = match build(t, sizes, Symmetry::On, &stop)? {
        Built::Ready(sat) => Some(*sat),
        Built::Stopped => {
            meter.stop();
            None
        }
    };
    blocking::enumerate(t, sizes, budget, &meter, sat, start)
}

/// Counts labeled models by enumerating every one with the solver, without symmetry breaking,
/// each checked by the evaluator: an independent check of [`enumerate`]'s Σ n!/|Aut|, for tests.
pub fn count_labeled_directly(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Count, FinderError> {
    count_directly(t, sizes, None, budget)
}

/// Counts, like [`count_labeled_directly`], the labeled models that `perm` (per sort, each
/// element's image) is an automorphism of: the clauses of the automorphism tries
/// ([`Encoding::invariance`]) against an independent count, for tests.
pub fn count_invariant_directly(
    t: &Theory,
    sizes: &[u32],
    perm: &[Vec<u32>],
    budget: &Budget,
) -> Result<Count, FinderError> {
    let is_permutation =
        |p: &Vec<u32>, n: u32| p.len() == n as usize && (0..n).all(|a| p.contains(&a));
    if perm.len() != sizes.len() || !perm.iter().zip(sizes).all(|(p, &n)| is_permutation(p, n)) {
        return Err(FinderError::Encoding(format!(
            "{perm:?} is not a permutation of each sort of sizes {sizes:?}"
        )));
    }
    count_directly(t, sizes, Some(perm), budget)
}

fn count_directly(
    t: &Theory,
    sizes: &[u32],
    under: Option<&[Vec<u32>]>,
    budget: &Budget,
) -> Result<Count, FinderError> {
    let stop = Stop::new(budget, None);
    let mut sat = match build(t, sizes, Symmetry::Off, &stop)? {
        Built::Ready(sat) => sat,
        Built::Stopped => return Ok(Count::from_search(0, false)),
    };
    if let Some(perm) = under {
        sat.enc.invariance(perm, encode::TRUE, &mut |c| {
            sat.solver.add_clause(c.iter().copied())
        });
    }
    blocking::count_every_model(t, &mut *sat)
}
