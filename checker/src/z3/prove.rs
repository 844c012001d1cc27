//! `prove_unsat`: does a theory imply a formula, in all structures (finite or not)? Z3 decides
//! `axioms ∧ ¬goal` over uninterpreted sorts with quantifiers kept. `unsat` means no structure
//! of any size satisfies the axioms and violates the goal, so the goal is a theorem: the verdict
//! is "proved (Z3)", weaker evidence than a replayed certificate because it trusts Z3. `sat` or
//! `unknown` (Z3's model of a quantified problem may be spurious, and it may time out) give
//! "unknown": this function never claims a disproof.
//!
//! **Isolation.** Each check runs in a child process (`crate::isolate`) that is killed at the
//! deadline. On quantified problems Z3 4.8.12 notices its `timeout` and interrupts late, at times
//! very late: we measured 3 s timeouts ending after 7 to 14 s, and a 20 s timeout still running
//! after 100 s (a group, goal `x * y = y * x`); E-matching runs long stretches without looking.
//! On a thread, such a check kept running (and a core busy) after its caller had moved on; a
//! process is stopped at once. Z3's memory is capped (`MEMORY_MB`, for the process), and past a
//! high watermark (`WATERMARK_BYTES`) its solver gives up by itself ("memout"); either gives
//! "unknown", and a crash of libz3 in the child is an "unknown" with its reason as well.

use super::encode::{Domains, EncodeError, Encoder};
use crate::budget::Budget;
use crate::isolate::{self, Outcome};
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};
use z3::{Params, SatResult, Solver};

/// What Z3 says about `theory ⊢ goal`: one strategy's answer, which the prover reports as
/// [`crate::prover::Verdict::ProvedByZ3`] or leaves undecided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// `axioms ∧ ¬goal` is unsatisfiable over uninterpreted sorts: the goal follows (trusting Z3).
    Proved,
    /// Z3 did not show unsatisfiability.
    Unknown {
        /// Z3's answer: `sat` (a possibly infinite or spurious countermodel), or why it gave up.
        reason: String,
        /// Whether Z3 stopped at the deadline or gave up (more time may decide), rather than
        /// answering `sat` or failing to run.
        at_limit: bool,
    },
}

/// Z3's memory limit in megabytes (a global Z3 parameter): E-matching on associativity can
/// take gigabytes within seconds.
const MEMORY_MB: &str = "4096";

/// The memory (bytes, for the process) past which Z3's solver stops with "memout" at its next
/// look, without failing. Past [`MEMORY_MB`], by contrast, the allocation that crosses it throws,
/// in whichever thread makes it, and Z3 4.8.12 then refuses every new context in that process
/// (measured: with the cap lowered to 300 MB, every check after the first to reach it answered
/// "could not start"; with this watermark at 300 MB instead, the same checks said "memout" and
/// the checks after them ran). A global parameter of Z3 4.8.12, read as an unsigned 32-bit int.
const WATERMARK_BYTES: &str = "3221225472";

/// Sets Z3's memory limits ([`WATERMARK_BYTES`], [`MEMORY_MB`]) and lets Z3 set up its global
/// tables, once, in this process: each check's child process then starts from them (Z3's first
/// context in a process takes about 25 ms to make, the next ones about 1 ms).
fn prepare() {
    static PREPARED: Once = Once::new();
    PREPARED.call_once(|| {
        z3::set_global_param("memory_high_watermark", WATERMARK_BYTES);
        z3::set_global_param("memory_max_size", MEMORY_MB);
        let _ = refusal();
    });
}

/// Why Z3 cannot start a check in this process now, if it cannot. Z3's memory limit
/// ([`MEMORY_MB`]) holds for the whole process, and once it is reached Z3 refuses new contexts;
/// the `z3` crate unwraps that refusal when it makes a thread's context, which ended the check
/// with a panic (seen in a 20-cycle agent run). Asked first, the refusal is an unknown with its
/// reason.
fn refusal() -> Option<String> {
    // SAFETY: libz3 is loaded (every caller asked `available` first); the configuration and the
    // context made here are deleted here, and neither escapes.
    let started = unsafe {
        z3_sys::Z3_mk_config().is_some_and(|config| {
            let context = z3_sys::Z3_mk_context_rc(config);
            z3_sys::Z3_del_config(config);
            context.map(|c| z3_sys::Z3_del_context(c)).is_some()
        })
    };
    (!started).then(|| {
        format!("Z3 could not start: its memory limit ({MEMORY_MB} MB for the whole process) is reached")
    })
}

/// Decides `theory ⊢ goal` with Z3 within `timeout` (and `cancel`, as for a search); returns
/// soon after the deadline whatever Z3 does. `goal` is a formula with its own
/// variable table, its free variables read universally, over the theory's signature. Errors only
/// when the goal or an axiom cannot be encoded.
pub fn prove_unsat(
    theory: &Theory,
    goal: &Axiom,
    timeout: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Verdict, EncodeError> {
    if let Err(why) = super::load::available() {
        return Ok(Verdict::Unknown {
            reason: format!("Z3 did not run: {why}"),
            at_limit: false,
        });
    }
    let deadline = Instant::now() + timeout;
    prepare();
    let (theory, goal) = (theory.clone(), goal.clone());
    let unknown = |reason: &str| {
        Ok(Verdict::Unknown {
            reason: reason.into(),
            at_limit: true,
        })
    };
    match isolate::run(deadline, cancel.as_ref(), move |_| match refusal() {
        Some(reason) => Ok(Verdict::Unknown {
            reason,
            at_limit: true,
        }),
        None => check(&theory, &goal, deadline),
    }) {
        Outcome::Done(answer) => answer,
        Outcome::GaveUp {
            interrupted: true, ..
        } => unknown("Z3 gave up: interrupted"),
        Outcome::GaveUp {
            interrupted: false, ..
        } => unknown("Z3 gave up: timeout"),
        Outcome::Failed { why, .. } => Ok(Verdict::Unknown {
            reason: format!("Z3 did not answer: {why}"),
            at_limit: false,
        }),
    }
}

/// The first attempt's time; each restart gets twice the last.
const FIRST_ATTEMPT: Duration = Duration::from_millis(100);

/// The longest restarted attempt; the next one runs to the deadline.
const LAST_SHORT_ATTEMPT: Duration = Duration::from_millis(800);

/// The check itself, in the child process: `theory`'s axioms and the negated goal, [`decide`]d.
fn check(theory: &Theory, goal: &Axiom, deadline: Instant) -> Result<Verdict, EncodeError> {
    let mut enc = Encoder::new(&theory.sig, Domains::Uninterpreted);
    let mut assertions = theory
        .axioms
        .iter()
        .map(|a| enc.axiom(a))
        .collect::<Result<Vec<_>, _>>()?;
    assertions.push(enc.axiom(goal)?.not());
    Ok(decide(&assertions, deadline))
}

/// Whether `assertions` are unsatisfiable, as a series of attempts with a fresh solver and a new
/// random seed, each twice as long as the last, from [`FIRST_ATTEMPT`] to [`LAST_SHORT_ATTEMPT`];
/// then one attempt runs to the deadline, so a long budget loses at most 1.5 s to restarts (De
/// Morgan in a Boolean algebra needs 25–40 s of one Z3 run). Z3's time on these problems is
/// heavy-tailed and depends on incidental choices (even on symbol names): an implication between
/// magma laws took 0.1 s in one run and more than 2 s in the next, so restarts decide more within
/// a deadline than one long run.
fn decide(assertions: &[z3::ast::Bool], deadline: Instant) -> Verdict {
    let budget = Budget::default();
    let (mut attempt, mut seed) = (FIRST_ATTEMPT, 0);
    loop {
        let solver = Solver::new();
        let mut params = Params::new();
        params.set_u32("random_seed", seed);
        solver.set_params(&params);
        assertions.iter().for_each(|a| solver.assert(a));
        let now = Instant::now();
        let until = if attempt > LAST_SHORT_ATTEMPT || now + 2 * attempt >= deadline {
            deadline
        } else {
            now + attempt
        };
        match super::solve::check(&solver, &budget, Some(until)) {
            SatResult::Unsat => return Verdict::Proved,
            SatResult::Sat => return Verdict::Unknown {
                reason:
                    "sat: Z3 found a model of the axioms violating the goal (it may be infinite)"
                        .into(),
                at_limit: false,
            },
            SatResult::Unknown if until < deadline => (attempt, seed) = (attempt * 2, seed + 1),
            SatResult::Unknown => {
                let reason = solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "no reason given".into());
                return Verdict::Unknown {
                    reason: format!("Z3 gave up after {} attempt(s): {reason}", seed + 1),
                    at_limit: true,
                };
            }
        }
    }
}

/// One step of a derivation: the statement that must follow from its premises.
pub struct Step {
    /// What it follows from.
    pub premises: Vec<Arc<Axiom>>,
    /// Instances of the premises that may help Z3 (they follow from the premises).
    pub hints: Vec<Arc<Axiom>>,
    /// What follows.
    pub conclusion: Arc<Axiom>,
}

/// Why [`prove_each`] did not prove every step.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StepFailure {
    /// The first step not proved (the one being checked when the deadline or Ctrl-C came), or
    /// `None` when Z3 did not run.
    pub step: Option<usize>,
    /// Z3's answer, or why it stopped.
    pub reason: String,
    /// Whether time ran out (more may prove it) rather than Z3 answering.
    pub at_limit: bool,
}

/// Whether every step follows from its premises (Z3 finds premises ∧ ¬conclusion unsatisfiable),
/// all over `sig` and within `timeout` (and `cancel`). The steps are decided in order in one
/// child process (`crate::isolate`) with one encoder and one incremental solver (push the step, check, pop): the
/// premises alone for 0.1 s, then with the hints as long, then each again in windows twice as
/// long, until the step is proved or the time is out. Some steps Z3 proves at once from the
/// premises and slowly with the hints, some only with them. A fresh solver per step costs
/// 10–20 ms of set-up, the incremental one about 4 ms (the 81 steps of E's proof that meet is
/// associative in a lattice given as an order: 0.3 s against 2.7 s).
/// `Ok(None)` when every step is proved. Errors only when a formula cannot be encoded.
pub fn prove_each(
    sig: &Arc<birkhoff_engine::Signature>,
    steps: Vec<Step>,
    timeout: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Option<StepFailure>, EncodeError> {
    let stopped = |reason: String, at_limit| {
        Ok(Some(StepFailure {
            step: None,
            reason,
            at_limit,
        }))
    };
    if let Err(why) = super::load::available() {
        return stopped(format!("Z3 did not run: {why}"), false);
    }
    let deadline = Instant::now() + timeout;
    prepare();
    let sig = sig.clone();
    let run = isolate::run(deadline, cancel.as_ref(), move |progress| {
        if let Some(reason) = refusal() {
            return Ok(Some(StepFailure {
                step: None,
                reason,
                at_limit: true,
            }));
        }
        let mut enc = Encoder::new(&sig, Domains::Uninterpreted);
        let budget = Budget::default();
        let shared = Solver::new();
        for (i, step) in steps.iter().enumerate() {
            progress.report(i as u64);
            let mut assertions = step
                .premises
                .iter()
                .map(|a| enc.axiom(a))
                .collect::<Result<Vec<_>, _>>()?;
            assertions.push(enc.axiom(&step.conclusion)?.not());
            let hints = step
                .hints
                .iter()
                .map(|a| enc.axiom(a))
                .collect::<Result<Vec<_>, _>>()?;
            // The premises alone, then with the hints, on the shared solver, in windows that
            // double until one proves the step, Z3 finds a model, or time runs out.
            let check = |extra: &[z3::ast::Bool], time: Duration| {
                shared.push();
                assertions
                    .iter()
                    .chain(extra)
                    .for_each(|a| shared.assert(a));
                let until = (Instant::now() + time).min(deadline);
                let answer = super::solve::check(&shared, &budget, Some(until));
                shared.pop(1);
                answer
            };
            let sets: &[&[z3::ast::Bool]] = if hints.is_empty() {
                &[&[]]
            } else {
                &[&[], &hints]
            };
            let mut window = FIRST_ATTEMPT;
            'windows: loop {
                for set in sets {
                    match check(set, window) {
                        SatResult::Unsat => break 'windows,
                        SatResult::Sat => {
                            return Ok(Some(StepFailure {
                                step: Some(i),
                                reason: "sat: Z3 found a model of the premises in which the step \
                                         fails"
                                    .into(),
                                at_limit: false,
                            }))
                        }
                        SatResult::Unknown if Instant::now() >= deadline => {
                            return Ok(Some(StepFailure {
                                step: Some(i),
                                reason: "Z3 gave up: the time ran out".into(),
                                at_limit: true,
                            }));
                        }
                        SatResult::Unknown => {}
                    }
                }
                window *= 2;
            }
        }
        Ok(None)
    });
    let during = |what: &str, progress: Option<u64>| {
        Ok(Some(StepFailure {
            // The step being checked when Z3 was stopped (the first, if none had started).
            step: Some(progress.unwrap_or(0) as usize),
            reason: format!("Z3 gave up: {what}"),
            at_limit: true,
        }))
    };
    match run {
        Outcome::Done(answer) => answer,
        Outcome::GaveUp {
            interrupted: true,
            progress,
        } => during("interrupted", progress),
        Outcome::GaveUp {
            interrupted: false,
            progress,
        } => during("timeout", progress),
        Outcome::Failed { why, progress } => Ok(Some(StepFailure {
            step: progress.map(|at| at as usize),
            reason: format!("Z3 did not answer: {why}"),
            at_limit: false,
        })),
    }
}
