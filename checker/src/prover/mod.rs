//! The prover: does a theory imply a formula? Every answer but "unknown" comes with evidence
//! that is checked before it is reported.
//!
//! [`prove`] runs a plan of [`Strategy`] values until one decides, in two lanes side by side
//! from the start ([`prove_with`]): the countermodel searches, and the proof searches.
//! - [`Strategy::Countermodel`]: a finite model of the theory violating the goal (`find`'s race
//!   of the native finder and SAT, re-checked by the evaluator) → [`Verdict::Disproved`];
//! - [`Strategy::Known`]: a named structure of the literature ([`known`]: the Heisenberg group
//!   modulo 3, a Moufang loop of order 12...) read in the theory's symbols, a model of the theory
//!   violating the goal (confirmed by the evaluator) → [`Verdict::Disproved`];
//! - [`Strategy::Affine`]: a countermodel among the affine maps modulo n, for equational
//!   theories (confirmed by the evaluator) → [`Verdict::Disproved`];
//! - [`Strategy::Saturation`]: for equational goals, equality saturation with egg, whose
//!   explanation becomes a [`certificate::Certificate`] that [`certificate::check`] replays
//!   → [`Verdict::Proved`]. It runs on a `worker` thread, so that its time limit holds even
//!   inside one of egg's rule searches, which cannot be interrupted;
//! - [`Strategy::Completion`]: for equational goals, unfailing
//!   Knuth–Bendix completion ([`completion`]), whose derivations are expanded into the same
//!   certificate and replayed → [`Verdict::Proved`];
//! - [`Strategy::E`] (with the `z3` feature, and E on `PATH`): E refutes axioms ∧ ¬goal and
//!   Z3 proves each step of its derivation again ([`replayed`]) → [`Verdict::ProvedByZ3`], or
//!   on unit equations the kernel replays every step and the derivation is transcribed as a
//!   certificate (`transcribed`) → [`Verdict::Proved`];
//! - [`Strategy::Z3`] (with the `z3` feature): Z3 finds axioms ∧ ¬goal unsatisfiable over
//!   uninterpreted sorts → [`Verdict::ProvedByZ3`], recorded as weaker evidence than a replayed
//!   certificate because it trusts the solver;
//! - [`Strategy::Witness`] (with the `z3` feature): an existence statement through an instance
//!   with witnesses guessed from the small models ([`witness`]), proved by the rest of the plan
//!   → [`Verdict::ProvedByZ3`], naming the witnesses.
//!
//! A further engine plugs in as one more `Strategy` variant and one more arm in
//! `run_strategy`.

pub mod affine;
pub mod boolean;
pub mod certificate;
pub mod completion;
pub mod conjecture;
pub mod countermodel;
pub mod discrimination;
pub mod equivalence;
pub mod explanation;
pub mod external;
pub mod interpretation;
pub mod known;
pub mod lemmas;
pub mod placement;
pub mod readable;
#[cfg(feature = "z3")]
pub mod replayed;
pub mod rewrite;
pub mod saturation;
mod small;
pub mod structural;
#[cfg(feature = "z3")]
mod transcribed;
#[cfg(feature = "z3")]
mod unfolded;
pub mod witness;

use crate::budget::Budget;
use crate::finder::FinderError;
use crate::worker;
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::{Structure, Theory};
use certificate::Certificate;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// One way of deciding a goal, with its own limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "strategy", rename_all = "snake_case")]
pub enum Strategy {
    /// A countermodel among the named structures of the literature ([`known`]), at most this
    /// share of the remaining time.
    Known {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// Look for a countermodel with every sort between `min_size` and `max_size` elements, at
    /// most this share of the remaining time.
    Countermodel {
        /// Smallest sort size tried.
        min_size: u32,
        /// Largest sort size tried.
        max_size: u32,
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// An affine countermodel (each function symbol `a₁x₁ + … + c` modulo `n`) for some `n` from
    /// 2 to `max_modulus` (equational theories and goals only), at most this share of the
    /// remaining time.
    Affine {
        /// Largest modulus tried.
        max_modulus: u32,
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// Equality saturation (equational goals only), at most this share of the remaining time,
    /// reading and replaying the proof included.
    Saturation {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// Unfailing Knuth–Bendix completion (equational goals, from the equational axioms), at most
    /// this share of the remaining time, writing and replaying the proof included. A later
    /// completion in the same attempt goes on where the earlier one stopped.
    Completion {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// Normal forms of Boolean algebras or Boolean rings ([`boolean`]), when the theory's laws
    /// of one of them are proved, at most this share of the remaining time (proving the laws
    /// included).
    NormalForm {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// A goal `∀x̄ ∃ȳ φ` proved through an instance `∀x̄ φ[ȳ := t̄]` ([`witness`]): terms that
    /// hold as witnesses in the theory's small models, each instance given to the rest of the
    /// plan in turn, within this share of the remaining time. An instance proved by Z3 or by E's
    /// checked derivation proves the goal ([`Verdict::ProvedByZ3`], naming the witnesses).
    Witness {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// E's refutation of axioms ∧ ¬goal, each of its steps proved again by Z3 ([`replayed`]),
    /// at most this share of the remaining time; a checked refutation gives
    /// [`Verdict::ProvedByZ3`], as it trusts Z3 (on one inference at a time), or
    /// [`Verdict::Proved`] when it was transcribed as a certificate. Only with the `z3`
    /// feature, and when E is on `PATH`.
    #[cfg(feature = "z3")]
    E {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
    /// Z3 on axioms ∧ ¬goal over uninterpreted sorts (any first-order goal), at most this share
    /// of the remaining time; unsat gives [`Verdict::ProvedByZ3`]. Only with the `z3` feature.
    #[cfg(feature = "z3")]
    Z3 {
        /// Percentage of the remaining time this strategy may use.
        time_share: u8,
    },
}

impl Strategy {
    /// Whether the strategy looks for a countermodel ([`Strategy::Known`],
    /// [`Strategy::Countermodel`], [`Strategy::Affine`]) rather than a proof.
    pub fn refutes(&self) -> bool {
        matches!(
            self,
            Strategy::Known { .. } | Strategy::Countermodel { .. } | Strategy::Affine { .. }
        )
    }

    /// The lane of [`prove_with`]'s portfolio the strategy runs in: the countermodel searches,
    /// Birkhoff's own proof searches, or an outside prover (E), which is a process of its own
    /// and so starts with the others rather than after them.
    fn lane(&self) -> usize {
        match self {
            #[cfg(feature = "z3")]
            Strategy::E { .. } => OUTSIDE_LANE,
            s if s.refutes() => REFUTING_LANE,
            _ => PROVING_LANE,
        }
    }
}

/// How long Birkhoff's own lanes have before E is started ([`Strategy::E`]): the goals they
/// decide within it (most of what the conjecture engine asks) never start a process, and the
/// theorems E decides first wait no longer than this. 30 ms put Birkhoff's median on TPTP's
/// held-out split at 2.7× E's, 5 ms at 1.9× (docs/BENCHMARKS.md, issue 52, 6 Dec).
#[cfg(feature = "z3")]
const E_HEAD_START: Duration = Duration::from_millis(5);

/// Waits `time` unless `cancel` is set first (then `false`).
#[cfg(feature = "z3")]
fn waited(time: Duration, cancel: Option<&Arc<AtomicBool>>) -> bool {
    let until = Instant::now() + time;
    loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return false;
        }
        let now = Instant::now();
        if now >= until {
            return true;
        }
        std::thread::sleep((until - now).min(Duration::from_millis(5)));
    }
}

/// The lanes of [`prove_with`]'s portfolio ([`Strategy::lane`]): the countermodel searches,
/// Birkhoff's own proof searches (whose proofs carry certificates) and an outside prover.
const REFUTING_LANE: usize = 0;
const PROVING_LANE: usize = 1;
#[cfg(feature = "z3")]
const OUTSIDE_LANE: usize = 2;
const LANES: usize = 3;

/// What the prover may spend.
#[derive(Clone, Debug)]
pub struct Options {
    /// Largest countermodel size (per sort).
    pub max_size: u32,
    /// Wall-clock limit for the whole attempt.
    pub timeout: Duration,
    /// E-node limit for saturation.
    pub max_enodes: usize,
    /// Set to true (Ctrl-C) to stop soon; the answer is then "unknown".
    pub cancel: Option<Arc<AtomicBool>>,
    /// Whether [`Options::plan`] includes Z3 (with the `z3` feature). Its proofs carry no
    /// certificate to replay ([`Verdict::ProvedByZ3`]), so a caller that shows proofs step by
    /// step turns it off.
    pub z3: bool,
    /// Whether, with `z3` set, Z3 is also asked the whole goal ([`Strategy::Z3`]). Off where its
    /// E-matching blows up: on obligations whose definitions are graphs with a quantifier of
    /// their own (a meet as a greatest lower bound), where it took gigabytes within seconds and
    /// held a core for its whole share ([`interpretation`]). E and the witnesses, which ask Z3
    /// one inference at a time, stay on.
    pub z3_whole_goals: bool,
    /// Whether [`equivalence::relate`] also compares with operations' arguments swapped (mirror
    /// images, parastrophes). On everywhere a verdict is given (`equiv`, `identify`, the agent),
    /// so that a mirror image is never called new; off only where a caller wants renamings
    /// alone.
    pub swaps: bool,
    /// The largest named structure of the literature ([`known`]) that [`Options::plan`] tries
    /// as a countermodel, in elements; 0 tries none. Not `max_size`, which bounds the searches
    /// by size (the agent keeps them small) where a named structure costs milliseconds; `prove
    /// --max-size` sets both, as the bound on what a user wants shown. Verdicts on classes,
    /// asking hundreds of questions, do without them: on loop theories the structures of order
    /// 81 cost up to a fifth of a second a question.
    pub named_structures: u32,
    /// Whether [`Options::plan`] asks E for a derivation that Birkhoff's kernel (Z3 for the steps
    /// it does not replay) then checks step by step ([`replayed`]; with the `z3` feature and `z3`
    /// set, and E on `PATH`). E's unit-equality derivations come back as certificates, so verdicts
    /// on classes ask E too: with it, a lattice given as an order with named operations is proved
    /// the lattice at two seconds a question. Off in [`structural`]'s statements.
    pub e_prover: bool,
    /// Whether [`Options::plan`] tries the normal forms of Boolean algebras and Boolean rings
    /// ([`Strategy::NormalForm`]). It first proves some twenty laws of the theory, about a second
    /// on Boolean algebras: worth it for one question (`prove`), not for each of the many a
    /// verdict or the conjecture engine asks, so off by default; verdicts prove the laws once
    /// per direction instead (`equivalence`).
    pub normal_forms: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_size: 6,
            timeout: Duration::from_secs(10),
            max_enodes: 200_000,
            cancel: None,
            z3: true,
            z3_whole_goals: true,
            swaps: true,
            named_structures: u32::MAX,
            e_prover: true,
            normal_forms: false,
        }
    }
}

impl Options {
    /// The options of every verdict on two classes (`equiv`, `identify` and the agent's
    /// identification): the defaults (countermodels up to size 6, Z3, E, swapped arguments; no
    /// named structures, which cost time on every one of their many questions) with
    /// `timeout` per question and the caller's cancel flag. One constructor for the three is what
    /// lets them give one verdict for one pair.
    pub fn for_verdicts(timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> Options {
        Options {
            timeout,
            cancel,
            named_structures: 0,
            ..Options::default()
        }
    }

    /// The strategies, cheapest first, each with a share of the time left so that none can
    /// starve the others (shares measured on implications between magma laws, docs/BENCHMARKS.md,
    /// issue 5, when the plan ran as one sequence). [`prove_with`] runs the countermodel searches
    /// (1, 2, 3, 5, 11, 14), Birkhoff's proof searches (4, 6, 7, 8, 9, 12, 13) and E (10) as lanes
    /// side by side, each in this order, each share of the time its own lane has left:
    /// 1. countermodels up to size 3 (10 %): most non-theorems fall in milliseconds, and a
    ///    smallest countermodel is the one to show;
    /// 2. the named structures of the literature (10 %): milliseconds, and a countermodel of
    ///    order 12, 27 or 81 that no search by size reaches in time ([`known`]); one found is
    ///    shown only if a search below its size finds no smaller one (25 %);
    /// 3. affine countermodels modulo 2 to [`AFFINE_MODULI`] (10 %): milliseconds, and they
    ///    refute laws whose smallest countermodels the finder cannot reach in time;
    /// 4. saturation (25 %): a replayed certificate is the best evidence, and most proofs egg
    ///    finds at all it finds in a tenth of a second;
    /// 5. a first look at every larger size (10 %): where the sizes below are quick to rule out
    ///    (groups, loops, quasigroups), a countermodel of size 5 or 6 is found in milliseconds,
    ///    before a size where showing that none exists takes seconds has used the lane's time;
    /// 6. completion (30 %): unfailing Knuth–Bendix completion, for theorems on which saturation
    ///    fills its e-graph, with the same replayed certificate;
    /// 7. normal forms of Boolean algebras or rings (50 %, when [`Options::normal_forms`] is
    ///    set): identities superposition does not find, such as the symmetric difference's
    ///    associativity, once the theory's laws are proved ([`boolean`]);
    /// 8. Z3 (50 %, when built in and [`Options::z3_whole_goals`] is set): fast on theorems whose
    ///    saturation blows up;
    /// 9. witnesses (60 %, when built with Z3; listed for existence statements only): terms
    ///    that are witnesses in the small models put in, each instance proved by the proof
    ///    strategies of this plan ([`witness`]; a lattice's least upper bound, which neither Z3
    ///    nor E finds as an existence statement in seconds, is the join);
    /// 10. E with its derivation checked (100 % of a lane of its own, started 5 ms after the
    ///     others, when built with Z3, E is on `PATH` and [`Options::e_prover`] is set):
    ///     first-order theorems Z3 gives up on (a lattice given as an order proves meet
    ///     associative), and equational ones completion does not reach in time (Huntington's
    ///     axioms prove `x v x = x`, single axioms for groups their laws);
    /// 11. countermodels of sizes 4 and 5 (40 %): showing that none exists can take seconds;
    /// 12. completion again (60 %), going on where step 6 stopped, for proofs that need more time;
    /// 13. saturation again from scratch with most of what is left (80 %), likewise for step 4;
    /// 14. larger countermodels with the rest.
    pub fn plan(&self) -> Vec<Strategy> {
        let tiny = self.max_size.min(3);
        let small = self.max_size.min(5);
        let mut plan = vec![Strategy::Countermodel {
            min_size: 1,
            max_size: tiny,
            time_share: 10,
        }];
        if self.named_structures > 0 {
            plan.push(Strategy::Known { time_share: 10 });
        }
        plan.extend([
            Strategy::Affine {
                max_modulus: AFFINE_MODULI,
                time_share: 10,
            },
            Strategy::Saturation { time_share: 25 },
        ]);
        if self.max_size > tiny {
            plan.push(Strategy::Countermodel {
                min_size: tiny + 1,
                max_size: self.max_size,
                time_share: 10,
            });
        }
        plan.push(Strategy::Completion { time_share: 30 });
        if self.normal_forms {
            plan.push(Strategy::NormalForm { time_share: 50 });
        }
        #[cfg(feature = "z3")]
        if self.z3 {
            if self.z3_whole_goals {
                plan.push(Strategy::Z3 { time_share: 50 });
            }
            plan.push(Strategy::Witness { time_share: 60 });
            if self.e_prover {
                plan.push(Strategy::E { time_share: 100 });
            }
        }
        if small > tiny {
            plan.push(Strategy::Countermodel {
                min_size: tiny + 1,
                max_size: small,
                time_share: 40,
            });
        }
        plan.push(Strategy::Completion { time_share: 60 });
        plan.push(Strategy::Saturation { time_share: 80 });
        if self.max_size > small {
            plan.push(Strategy::Countermodel {
                min_size: small + 1,
                max_size: self.max_size,
                time_share: 100,
            });
        }
        plan
    }
}

/// The share of the time left that a countermodel from the named structures gives a search for
/// a smaller one (of fewer elements than the structure): a smallest countermodel is the one to
/// show.
const SMALLER_SHARE: u8 = 25;

/// The largest modulus of [`Options::plan`]'s affine countermodels: all of them up to 20 take
/// about 30 ms for one binary operation.
pub const AFFINE_MODULI: u32 = 20;

/// One strategy's run, for the record.
#[derive(Clone, Debug, Serialize)]
pub struct Attempt {
    /// What ran.
    pub strategy: Strategy,
    /// What came of it, in words.
    pub result: String,
    /// How long it took.
    pub seconds: f64,
}

/// The prover's answer, the one outcome type for "does the theory imply the goal?". Its words are
/// the project's vocabulary for it: proved (a replayed certificate), proved by Z3 (weaker
/// evidence), disproved (a countermodel the evaluator confirms) and unknown. The conjecture engine
/// ([`conjecture::Status`]), the library (its `ConjectureStatus`, stored as open, refuted or
/// proved) and a research hypothesis record what became of a statement from it.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// A countermodel: a model of the theory in which the goal fails, checked by the evaluator.
    Disproved {
        /// The model, over the theory's signature.
        model: Structure,
        /// Values of the goal's universal variables at which it fails.
        witness: Vec<(String, u32)>,
    },
    /// A certificate that [`certificate::check`] has accepted.
    Proved {
        /// The replayed proof.
        certificate: Certificate,
    },
    /// Z3 found axioms ∧ ¬goal unsatisfiable over uninterpreted sorts. Weaker evidence than a
    /// replayed certificate: it trusts the solver.
    ProvedByZ3 {
        /// What the solver reported.
        detail: String,
    },
    /// Nothing decided; see the attempts.
    Unknown,
}

impl Verdict {
    /// What the verdict rests on, in words, for people and for `--json`.
    pub fn evidence(&self) -> &'static str {
        match self {
            Verdict::Disproved { .. } => "a countermodel, checked by the evaluator",
            Verdict::Proved { .. } => "a certificate, replayed by the independent checker",
            Verdict::ProvedByZ3 { .. } => "Z3 reported unsat; this trusts the solver and is weaker evidence than a replayed certificate",
            Verdict::Unknown => "none",
        }
    }
}

/// A verdict and what was tried to reach it.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Every strategy run, in order.
    pub attempts: Vec<Attempt>,
    /// For "unknown": whether the deadline (or Ctrl-C) came, or every strategy finished for
    /// good with time left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_because: Option<String>,
}

/// Most rewrite steps in a certificate (lemmas included): enough for any proof egg finds within
/// the default e-node limit that we have seen, and a bound on what a reader must replay.
const PROOF_STEPS: usize = 100_000;

/// Most equations completion keeps: each holds its derivation for the proof, and 400 000 of
/// them take some hundreds of megabytes.
const COMPLETION_EQUATIONS: usize = 400_000;

/// Saturations left running after their strategy's time ran out (one rule search of egg cannot
/// be interrupted, and took 10 s on an e-graph of 50 000 nodes for a magma law).
static SATURATION_WORKERS: worker::Pool = worker::Pool::new(2);

/// `percent` % of `left`.
fn share(left: Duration, percent: u8) -> Duration {
    left * u32::from(percent) / 100
}

/// The budget of a countermodel search: the caller's cancel flag (its time is given to the
/// search apart, as its strategy's share).
fn countermodel_budget(opts: &Options) -> Budget {
    Budget {
        cancel: opts.cancel.clone(),
        ..Budget::default()
    }
}

/// A countermodel search's result as a verdict, or a note; `none` says what was ruled out.
fn disproof(
    found: countermodel::Search,
    none: impl FnOnce() -> String,
) -> Result<Verdict, Undecided> {
    match found {
        countermodel::Search::Found(c) => Ok(Verdict::Disproved {
            model: c.model,
            witness: c.witness,
        }),
        countermodel::Search::NoneUpTo => Err(Undecided::for_good(none())),
        countermodel::Search::OutOfTime(why) => Err(Undecided::out_of_time(why)),
        countermodel::Search::CannotSearch(why) => Err(Undecided::for_good(why)),
    }
}

/// A strategy that did not decide: why (the attempt's note), and what stopped it.
#[derive(Debug)]
pub struct Undecided {
    /// Why, for the attempt's note.
    pub note: String,
    /// What stopped it: whether a retry with more time or room might decide.
    pub stop: Stop,
}

/// What stopped a strategy that did not decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Its time ran out (or it waited for earlier work to stop): more time might decide.
    Time,
    /// It filled its e-graph or used its iterations: a larger limit might decide.
    Room,
    /// It finished (saturated, searched its whole range, found a possibly infinite model) or
    /// cannot take the problem: rerunning it would say the same.
    ForGood,
}

impl Undecided {
    /// Stopped by the clock.
    pub fn out_of_time(note: impl Into<String>) -> Self {
        Undecided {
            note: note.into(),
            stop: Stop::Time,
        }
    }
    /// Stopped by a size limit.
    pub fn out_of_room(note: impl Into<String>) -> Self {
        Undecided {
            note: note.into(),
            stop: Stop::Room,
        }
    }
    /// Finished, or cannot take the problem.
    pub fn for_good(note: impl Into<String>) -> Self {
        Undecided {
            note: note.into(),
            stop: Stop::ForGood,
        }
    }
}

/// A bare message is a final stop: only a stop known to be a limit earns a retry, so an
/// unforeseen one ends the attempt rather than repeating it.
impl From<String> for Undecided {
    fn from(note: String) -> Self {
        Undecided::for_good(note)
    }
}

/// Runs one strategy; `Ok(Err(_))` means it did not decide. `completion` is the attempt's
/// completion so far, which a completion strategy goes on with (and starts when there is none);
/// `named` gets the description of the named structure a countermodel is, when it is one.
fn run_strategy(
    theory: &Theory,
    goal: &Axiom,
    s: &Strategy,
    left: Duration,
    opts: &Options,
    completion: &mut Option<completion::Search>,
    named: &mut Option<String>,
) -> Result<Result<Verdict, Undecided>, FinderError> {
    match *s {
        Strategy::Known { time_share } => {
            let found = match known::search(
                theory,
                goal,
                opts.named_structures,
                Instant::now() + share(left, time_share),
                opts.cancel.as_ref(),
            ) {
                Ok(Some(found)) => found,
                Ok(None) => {
                    return Ok(Err(Undecided::for_good(
                        "no named structure of the literature is a countermodel",
                    )))
                }
                Err(_) => {
                    return Ok(Err(Undecided::out_of_time(
                        "time ran out reading the named structures of the literature",
                    )))
                }
            };
            // A smaller countermodel is the one to show, when a short search finds one.
            let below = found.model.sizes[0] - 1;
            let smaller = countermodel::search(
                theory,
                goal,
                1,
                below,
                share(left, SMALLER_SHARE),
                &countermodel_budget(opts),
            )?;
            Ok(Ok(disproof(smaller, String::new).unwrap_or_else(|_| {
                *named = Some(found.example.description.to_string());
                Verdict::Disproved {
                    model: found.model,
                    witness: found.witness,
                }
            })))
        }
        Strategy::Countermodel {
            min_size,
            max_size,
            time_share,
        } => {
            let found = countermodel::search(
                theory,
                goal,
                min_size,
                max_size,
                share(left, time_share),
                &countermodel_budget(opts),
            )?;
            Ok(disproof(found, || {
                format!("no countermodel with sorts of {min_size} to {max_size} elements")
            }))
        }
        Strategy::Affine {
            max_modulus,
            time_share,
        } => {
            let found = affine::search(
                theory,
                goal,
                max_modulus,
                share(left, time_share),
                opts.cancel.as_ref(),
            )?;
            Ok(disproof(found, || {
                format!("no affine countermodel modulo 2 to {max_modulus}")
            }))
        }
        Strategy::Saturation { time_share } => {
            let time = share(left, time_share);
            let deadline = Instant::now() + time;
            let (theory, goal, nodes) = (theory.clone(), goal.clone(), opts.max_enodes);
            let saturate = move |stop| {
                // The search gets three quarters of the time, reading and replaying the proof the rest.
                let limits = saturation::Limits {
                    time: time * 3 / 4,
                    deadline,
                    proof_steps: PROOF_STEPS,
                    nodes,
                    iterations: 10_000,
                    cancel: Some(stop),
                };
                saturation::prove(&theory, &goal, &limits).and_then(|cert| match certificate::check(&theory, &goal, &cert) {
                    Ok(()) => Ok(Verdict::Proved { certificate: cert }),
                    Err(e) => Err(Undecided::for_good(format!("egg joined the sides but its chain failed replay ({e}); not counted as a proof"))),
                })
            };
            Ok(match worker::run("saturation", &SATURATION_WORKERS, deadline, opts.cancel.as_ref(), saturate) {
                worker::Outcome::Done(outcome) => outcome,
                worker::Outcome::GaveUp { interrupted: true } => Err(Undecided::for_good("interrupted")),
                worker::Outcome::GaveUp { interrupted: false } => Err(Undecided::out_of_time(format!("time limit ({:.2} s) reached inside one step of egg (stopped in the background)", time.as_secs_f64()))),
                worker::Outcome::Busy => Err(Undecided::out_of_time("earlier saturations were still stopping")),
                worker::Outcome::Failed(why) => Err(Undecided::for_good(format!("saturation did not run: {why}"))),
            })
        }
        Strategy::NormalForm { time_share } => {
            let deadline = Instant::now() + share(left, time_share);
            // The laws get half of the time, and are proved without normal forms.
            let law_opts = Options {
                timeout: share(left, time_share / 2),
                normal_forms: false,
                ..opts.clone()
            };
            Ok(match boolean::Kit::find(theory, &law_opts)? {
                None => Err(Undecided::for_good(
                    "the laws of Boolean algebras or rings were not all proved",
                )),
                Some(kit) => boolean::prove(theory, goal, &kit, deadline)
                    .map(|certificate| Verdict::Proved { certificate })
                    .ok_or_else(|| {
                        Undecided::for_good(
                            "the two sides have different Boolean normal forms, or no time was left",
                        )
                    }),
            })
        }
        Strategy::Witness { time_share } => witnessed(theory, goal, share(left, time_share), opts),
        Strategy::Completion { time_share } => {
            let time = share(left, time_share);
            // The search stops at four fifths of the time, leaving the rest to write and replay the proof.
            let limits = completion::Limits {
                deadline: Instant::now() + time * 4 / 5,
                equations: COMPLETION_EQUATIONS,
                proof_steps: PROOF_STEPS,
                cancel: opts.cancel.clone(),
            };
            let search = match completion {
                Some(search) => search,
                None => match completion::Search::new(theory, goal) {
                    Ok(search) => completion.insert(search),
                    Err(why) => return Ok(Err(why)),
                },
            };
            Ok(search.run(theory, goal, &limits).and_then(|cert| match certificate::check(theory, goal, &cert) {
                Ok(()) => Ok(Verdict::Proved { certificate: cert }),
                Err(e) => Err(Undecided::for_good(format!("completion joined the sides but its proof failed replay ({e}); not counted as a proof"))),
            }))
        }
        #[cfg(feature = "z3")]
        Strategy::E { time_share } => Ok({
            // A process of its own, E is not started for the goals Birkhoff's own lanes decide
            // at once (most, and the conjecture engine asks many).
            let head_start = E_HEAD_START.min(left);
            if !waited(head_start, opts.cancel.as_ref()) {
                return Ok(Err(Undecided::for_good(
                    "not run: another strategy decided",
                )));
            }
            let left = left.saturating_sub(head_start);
            match replayed::prove(theory, goal, share(left, time_share), opts.cancel.clone()) {
                replayed::Outcome::Certified { certificate } => Ok(Verdict::Proved { certificate }),
                replayed::Outcome::Proved { detail } => Ok(Verdict::ProvedByZ3 { detail }),
                replayed::Outcome::Unknown {
                    reason,
                    at_limit: true,
                } => Err(Undecided::out_of_time(reason)),
                replayed::Outcome::Unknown {
                    reason,
                    at_limit: false,
                } => Err(Undecided::for_good(reason)),
            }
        }),
        #[cfg(feature = "z3")]
        Strategy::Z3 { time_share } => Ok(
            match crate::z3::prove_unsat(theory, goal, share(left, time_share), opts.cancel.clone())
            {
                Ok(crate::z3::Verdict::Proved) => Ok(Verdict::ProvedByZ3 {
                    detail:
                        "the axioms and the negated goal are unsatisfiable over uninterpreted sorts"
                            .into(),
                }),
                Ok(crate::z3::Verdict::Unknown {
                    reason,
                    at_limit: true,
                }) => Err(Undecided::out_of_time(reason)),
                Ok(crate::z3::Verdict::Unknown {
                    reason,
                    at_limit: false,
                }) => Err(Undecided::for_good(reason)),
                Err(e) => Err(Undecided::for_good(format!(
                    "Z3 cannot take this problem: {e}"
                ))),
            },
        ),
    }
}

/// Decides whether `theory` implies `goal` (its free variables read universally), running the
/// strategies of [`Options::plan`] within `opts.timeout`: the countermodel searches and the proof
/// searches side by side from the start, each in the plan's order ([`prove_with`]). `Err` only
/// for an internal error (a claimed countermodel the evaluator rejects), never for "cannot
/// decide".
pub fn prove(theory: &Theory, goal: &Axiom, opts: &Options) -> Result<Answer, FinderError> {
    prove_with(theory, goal, opts, &opts.plan())
}

/// [`prove`] with an explicit list of strategies.
///
/// The plan is a portfolio of lanes that start together: the strategies that look for a
/// countermodel ([`Strategy::refutes`]), those that look for a proof, and an outside prover (E,
/// a process of its own), each lane in the plan's order, on a thread of its own (on one core the
/// lanes take turns; on more they run at once). The first decided answer wins and stops the
/// other lanes, so a countermodel of order 12 is not kept waiting while saturation and
/// completion use their shares, nor a proof while the countermodel searches rule out size after
/// size, nor E's proof in milliseconds behind seconds of saturation. One exception: E's proof
/// that is not on unit equations is checked but no certificate (`transcribed`), so when it
/// comes first Birkhoff's own proof searches go on for as long again (within the time limit),
/// and a certificate found then is the answer. Each
/// lane's shares are of the time it has left. A plan with strategies of one lane only runs on
/// the calling thread.
///
/// Each lane uses the budget to the end: when every strategy of the lane has stopped with time
/// left, those that stopped at a limit rather than for good run again with the time left,
/// saturation with four times the e-nodes each round (up to [`MAX_RETRY_ENODES`]), until one
/// decides, the deadline comes, or every strategy has finished for good (saturated, no
/// countermodel in its range, Z3 found a possibly infinite model). [`Answer::unknown_because`]
/// says which. Each strategy says what stopped it ([`Stop`]). The attempts are listed in the
/// order they started, the one that decided last.
pub fn prove_with(
    theory: &Theory,
    goal: &Axiom,
    opts: &Options,
    plan: &[Strategy],
) -> Result<Answer, FinderError> {
    let start = Instant::now();
    let caller = opts.cancel.as_ref();
    let mut lanes: Vec<Vec<Strategy>> = vec![Vec::new(); LANES];
    // Witnesses only for an existence statement: for any other goal the step is not listed.
    let existence = witness::Existence::of(goal).is_some();
    for s in plan {
        if existence || !matches!(s, Strategy::Witness { .. }) {
            lanes[s.lane()].push(s.clone());
        }
    }
    let (kinds, lanes): (Vec<usize>, Vec<Vec<Strategy>>) = lanes
        .into_iter()
        .enumerate()
        .filter(|(_, lane)| !lane.is_empty())
        .unzip();
    if lanes.len() < 2 {
        let plan = lanes.into_iter().next().unwrap_or_default();
        return combine(
            vec![run_lane(theory, goal, opts, &plan, start, caller)],
            caller,
            opts.timeout,
        );
    }
    // Each lane's own stop: set when an answer is settled, or when the caller cancels (a flag
    // already set stops them before they start).
    let stops: Vec<Arc<AtomicBool>> = lanes
        .iter()
        .map(|_| {
            Arc::new(AtomicBool::new(
                caller.is_some_and(|c| c.load(Ordering::Relaxed)),
            ))
        })
        .collect();
    let stop_all = || stops.iter().for_each(|s| s.store(true, Ordering::Relaxed));
    let proving = kinds.iter().position(|&k| k == PROVING_LANE);
    let count = lanes.len();
    let lanes = std::thread::scope(|scope| {
        let (sender, results) = mpsc::channel();
        for (k, lane) in lanes.into_iter().enumerate() {
            let lane_opts = Options {
                cancel: Some(stops[k].clone()),
                ..opts.clone()
            };
            let sender = sender.clone();
            scope.spawn(move || {
                let ran = run_lane(theory, goal, &lane_opts, &lane, start, caller);
                // The receiver waits for every lane, so the send cannot fail.
                let _ = sender.send((k, ran));
            });
        }
        drop(sender);
        let mut lanes = Vec::with_capacity(count);
        // When E's proof (checked, but not a certificate) comes first, Birkhoff's own proof
        // searches go on as long again for a certificate, the better evidence. (At least a
        // tenth of the time limit put the median of TPTP's held-out set at 0.2 s, E's at 0.03.)
        let mut grace: Option<Instant> = None;
        while lanes.len() < count {
            match results.recv_timeout(CANCEL_POLL) {
                Ok((k, ran)) => {
                    match ran.as_ref().map(|l| (l.ended, &l.verdict)) {
                        Ok((Ended::Decided, Verdict::ProvedByZ3 { .. }))
                            if proving
                                .is_some_and(|p| p != k && !stops[p].load(Ordering::Relaxed)) =>
                        {
                            for (j, stop) in stops.iter().enumerate() {
                                if Some(j) != proving {
                                    stop.store(true, Ordering::Relaxed);
                                }
                            }
                            let deadline = start + opts.timeout;
                            grace.get_or_insert(deadline.min(Instant::now() + start.elapsed()));
                        }
                        Ok((Ended::Decided, _)) | Err(_) => stop_all(),
                        Ok(_) => {}
                    }
                    lanes.push(ran);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if caller.is_some_and(|c| c.load(Ordering::Relaxed))
                        || grace.is_some_and(|g| Instant::now() >= g)
                    {
                        stop_all();
                    }
                }
                // A lane panicked: the scope passes its panic on when it ends.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        lanes
    });
    combine(lanes, caller, opts.timeout)
}

/// How often the portfolio passes the caller's Ctrl-C on to its lanes.
const CANCEL_POLL: Duration = Duration::from_millis(10);

/// What one lane of the portfolio came to.
struct Lane {
    /// Its verdict; [`Verdict::Unknown`] when it did not decide.
    verdict: Verdict,
    /// Its attempts, each with when it started (from the start of the whole attempt); when it
    /// decided, the deciding one last.
    attempts: Vec<(Duration, Attempt)>,
    /// Why it ended.
    ended: Ended,
}

/// Why a lane ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// A strategy decided.
    Decided,
    /// The caller cancelled, or the other lane decided.
    Interrupted,
    /// The deadline came.
    TimeLimit,
    /// Every strategy finished for good with time left.
    ForGood,
}

/// The answer from the lanes' results: a decided verdict wins (two that contradict each other
/// are an internal error), otherwise the first lane's error, otherwise "unknown" with the
/// reason that says most (Ctrl-C, then the deadline, then "finished for good" only when every
/// lane finished for good). The attempts are in the order they started, the deciding one last.
fn combine(
    lanes: Vec<Result<Lane, FinderError>>,
    caller: Option<&Arc<AtomicBool>>,
    timeout: Duration,
) -> Result<Answer, FinderError> {
    let mut attempts = Vec::new();
    let mut decided: Option<(Verdict, Option<(Duration, Attempt)>)> = None;
    let mut failed = None;
    let mut ends = Vec::new();
    for lane in lanes {
        let mut lane = match lane {
            Ok(lane) => lane,
            Err(e) => {
                failed.get_or_insert(e);
                continue;
            }
        };
        if lane.ended == Ended::Decided {
            let deciding = lane.attempts.pop();
            let proof =
                |v: &Verdict| matches!(v, Verdict::Proved { .. } | Verdict::ProvedByZ3 { .. });
            decided = match decided.take() {
                None => Some((lane.verdict, deciding)),
                // Two proofs (two lanes may finish before either sees the other's word): the
                // stronger evidence is kept, the other's attempt stays among the attempts.
                Some((first, first_deciding)) if proof(&first) && proof(&lane.verdict) => {
                    let later_is_stronger = matches!(lane.verdict, Verdict::Proved { .. })
                        && !matches!(first, Verdict::Proved { .. });
                    if later_is_stronger {
                        attempts.extend(first_deciding);
                        Some((lane.verdict, deciding))
                    } else {
                        attempts.extend(deciding);
                        Some((first, first_deciding))
                    }
                }
                Some((first, _)) => {
                    return Err(FinderError::Unsound {
                        violation: format!(
                            "the prover's lanes contradict each other: {} and {}",
                            first.evidence(),
                            lane.verdict.evidence()
                        ),
                        model: String::new(),
                    })
                }
            };
        }
        attempts.extend(lane.attempts);
        ends.push(lane.ended);
    }
    // A countermodel the evaluator rejected is never hidden behind the other lane's verdict.
    if let Some(e @ FinderError::Unsound { .. }) = failed {
        return Err(e);
    }
    attempts.sort_by_key(|(started, _)| *started);
    let mut attempts: Vec<Attempt> = attempts.into_iter().map(|(_, a)| a).collect();
    if let Some((verdict, deciding)) = decided {
        attempts.extend(deciding.map(|(_, a)| a));
        return Ok(Answer {
            verdict,
            attempts,
            unknown_because: None,
        });
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let why = if caller.is_some_and(|c| c.load(Ordering::Relaxed))
        || ends.contains(&Ended::Interrupted)
    {
        "interrupted".to_string()
    } else if ends.contains(&Ended::TimeLimit) {
        format!(
            "the time limit ({:.1} s) was reached",
            timeout.as_secs_f64()
        )
    } else {
        "every strategy finished for good with time left (saturated, or no countermodel in its range)".to_string()
    };
    Ok(unknown(attempts, &why))
}

/// [`Strategy::Witness`] within `time`: the instances of the existence statement `goal` whose
/// witnesses hold in the theory's small models, each proved in turn by the plan without this
/// strategy, with half of the time left (the last with all of it).
fn witnessed(
    theory: &Theory,
    goal: &Axiom,
    time: Duration,
    opts: &Options,
) -> Result<Result<Verdict, Undecided>, FinderError> {
    let deadline = Instant::now() + time;
    let Some(existence) = witness::Existence::of(goal) else {
        return Ok(Err(Undecided::for_good(
            "the goal states no existence (no leading `exists`)",
        )));
    };
    // The models may take a quarter of the time; the proofs of the instances need the rest.
    let models = small::models(theory, Instant::now() + time / 4, opts.cancel.clone())?;
    let instances = existence.instances(theory, goal, &models);
    if instances.is_empty() {
        return Ok(Err(Undecided::for_good(format!(
            "no term up to depth {} is a witness in the theory's {} small model(s)",
            witness::MAX_DEPTH,
            models.len()
        ))));
    }
    let n = instances.len();
    let mut tried = Vec::new();
    for (i, (instance, shown)) in instances.into_iter().enumerate() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero()
            || opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Ok(Err(Undecided::out_of_time(format!(
                "witnesses tried without a proof: {}",
                tried.join("; ")
            ))));
        }
        // Half of what is left for each witness but the last, which gets the rest: the
        // smallest terms come first and are the likeliest.
        let sub = Options {
            timeout: if i + 1 == n { left } else { left / 2 },
            ..opts.clone()
        };
        // Proofs only: the instance holds in the small models, and a larger countermodel to it
        // would say nothing of the goal (another witness may hold there).
        let plan: Vec<Strategy> = sub
            .plan()
            .into_iter()
            .filter(|s| !s.refutes() && !matches!(s, Strategy::Witness { .. }))
            .collect();
        match prove_with(theory, &instance, &sub, &plan)?.verdict {
            Verdict::ProvedByZ3 { detail } => {
                return Ok(Ok(Verdict::ProvedByZ3 {
                    detail: format!("by the witness {shown}, whose instance is proved: {detail}"),
                }))
            }
            // A certificate proves its own (equational) goal, the instance, and carries no
            // existential introduction: the goal stays open on it.
            Verdict::Proved { .. } => tried.push(format!(
                "{shown} (its instance has a certificate, which proves the instance only)"
            )),
            Verdict::Disproved { .. } => tried.push(format!("{shown} (refuted)")),
            Verdict::Unknown => tried.push(format!("{shown} (undecided)")),
        }
    }
    // Every witness had its time: a retry would give the same ones less.
    Ok(Err(Undecided::for_good(format!(
        "witnesses tried without a proof: {}",
        tried.join("; ")
    ))))
}

/// Runs the strategies of one lane in order within `opts.timeout` from `start`, with retries
/// ([`prove_with`]). `opts.cancel` stops it; `caller` is the caller's own flag, which tells an
/// interruption by Ctrl-C from the other lane's decision in the attempts' words.
fn run_lane(
    theory: &Theory,
    goal: &Axiom,
    opts: &Options,
    plan: &[Strategy],
    start: Instant,
    caller: Option<&Arc<AtomicBool>>,
) -> Result<Lane, FinderError> {
    let mut attempts = Vec::new();
    // The caller's flag too: the portfolio passes it on to the lane's only every few ms.
    let cancelled = || {
        [opts.cancel.as_ref(), caller]
            .into_iter()
            .flatten()
            .any(|c| c.load(Ordering::Relaxed))
    };
    let ended = |attempts, ended| Lane {
        verdict: Verdict::Unknown,
        attempts,
        ended,
    };
    // The strategies of the plan that may yet decide with more time or room, and the e-node
    // limit the next saturation gets.
    let mut open: Vec<Strategy> = Vec::new();
    let mut nodes = opts.max_enodes;
    let mut round = 0;
    let mut queue: Vec<Strategy> = plan.to_vec();
    let mut completion = None;
    loop {
        for (k, s) in queue.iter().enumerate() {
            let left = opts.timeout.saturating_sub(start.elapsed());
            if cancelled() || left.is_zero() {
                let result = if !cancelled() {
                    "no time left"
                } else if caller.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    "interrupted"
                } else {
                    "not run: another strategy decided"
                };
                attempts.push((
                    start.elapsed(),
                    Attempt {
                        strategy: s.clone(),
                        result: result.into(),
                        seconds: 0.0,
                    },
                ));
                continue;
            }
            let t0 = Instant::now();
            let run_opts = Options {
                max_enodes: nodes,
                ..opts.clone()
            };
            let mut named = None;
            let outcome = run_strategy(
                theory,
                goal,
                s,
                left,
                &run_opts,
                &mut completion,
                &mut named,
            )?;
            let started = t0 - start;
            let seconds = t0.elapsed().as_secs_f64();
            let record = |result: String| {
                let strategy = s.clone();
                let attempt = Attempt {
                    strategy,
                    result,
                    seconds,
                };
                (started, attempt)
            };
            match outcome {
                Ok(Verdict::Unknown) => attempts.push(record("undecided".into())),
                Ok(verdict) => {
                    let result = match &verdict {
                        Verdict::Disproved { model, .. } => match named {
                            Some(what) => format!("countermodel of size {:?}: {what}", model.sizes),
                            None => format!("countermodel of size {:?}", model.sizes),
                        },
                        Verdict::Proved { certificate } => {
                            format!("proof of {} step(s), replayed", certificate.steps.len())
                        }
                        Verdict::ProvedByZ3 { detail } => detail.clone(),
                        Verdict::Unknown => unreachable!("matched above"),
                    };
                    attempts.push(record(result));
                    return Ok(Lane {
                        verdict,
                        attempts,
                        ended: Ended::Decided,
                    });
                }
                Err(Undecided { note, stop }) => {
                    let result = if round > 0 && matches!(s, Strategy::Saturation { .. }) {
                        format!("{note} (retry {round}, e-node limit {nodes})")
                    } else {
                        note
                    };
                    // Saturation that filled the largest e-graph a retry may build cannot grow.
                    let may_decide = match stop {
                        Stop::Time => true,
                        Stop::Room => nodes < MAX_RETRY_ENODES,
                        Stop::ForGood => false,
                    };
                    // A first look at sizes that later countermodel searches of the plan cover
                    // is not retried: those searches are.
                    let covered = round == 0 && covered_later(s, &queue[k + 1..]);
                    if may_decide && !covered && !open.contains(s) {
                        open.push(s.clone());
                    }
                    attempts.push(record(result));
                }
            }
        }
        let left = opts.timeout.saturating_sub(start.elapsed());
        if cancelled() {
            return Ok(ended(attempts, Ended::Interrupted));
        }
        if left < MIN_RETRY {
            return Ok(ended(attempts, Ended::TimeLimit));
        }
        if open.is_empty() {
            return Ok(ended(attempts, Ended::ForGood));
        }
        // Another round with what is left: each open strategy once, shares growing so that the
        // last one gets all the time that remains.
        round += 1;
        nodes = (nodes.saturating_mul(4)).min(MAX_RETRY_ENODES);
        let n = open.len();
        queue = std::mem::take(&mut open)
            .into_iter()
            .enumerate()
            .map(|(i, s)| with_share(s, (100 / (n - i)) as u8))
            .collect();
    }
}

/// Largest e-node limit a retry of saturation gets (16 × the default of 200 000).
pub const MAX_RETRY_ENODES: usize = 3_200_000;

/// No retry round starts with less time than this left.
const MIN_RETRY: Duration = Duration::from_millis(50);

/// An "unknown" answer after `attempts`, because of `why`.
fn unknown(attempts: Vec<Attempt>, why: &str) -> Answer {
    Answer {
        verdict: Verdict::Unknown,
        attempts,
        unknown_because: Some(why.to_string()),
    }
}

/// Whether `s` is a countermodel search each of whose sizes one of the `later` countermodel
/// searches also tries.
fn covered_later(s: &Strategy, later: &[Strategy]) -> bool {
    let Strategy::Countermodel {
        min_size, max_size, ..
    } = *s
    else {
        return false;
    };
    (min_size..=max_size).all(|n| later.iter().any(|l| matches!(*l, Strategy::Countermodel { min_size: lo, max_size: hi, .. } if lo <= n && n <= hi)))
}

/// `s` with a new share of the time left.
fn with_share(s: Strategy, percent: u8) -> Strategy {
    match s {
        Strategy::Known { .. } => Strategy::Known {
            time_share: percent,
        },
        Strategy::Countermodel {
            min_size, max_size, ..
        } => Strategy::Countermodel {
            min_size,
            max_size,
            time_share: percent,
        },
        Strategy::Affine { max_modulus, .. } => Strategy::Affine {
            max_modulus,
            time_share: percent,
        },
        Strategy::Saturation { .. } => Strategy::Saturation {
            time_share: percent,
        },
        Strategy::Completion { .. } => Strategy::Completion {
            time_share: percent,
        },
        Strategy::NormalForm { .. } => Strategy::NormalForm {
            time_share: percent,
        },
        Strategy::Witness { .. } => Strategy::Witness {
            time_share: percent,
        },
        #[cfg(feature = "z3")]
        Strategy::E { .. } => Strategy::E {
            time_share: percent,
        },
        #[cfg(feature = "z3")]
        Strategy::Z3 { .. } => Strategy::Z3 {
            time_share: percent,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::signature::FuncId;
    use birkhoff_engine::syntax::Term;

    fn decided(verdict: Verdict, note: &str) -> Result<Lane, FinderError> {
        let attempt = Attempt {
            strategy: Strategy::Saturation { time_share: 100 },
            result: note.into(),
            seconds: 0.0,
        };
        Ok(Lane {
            verdict,
            attempts: vec![(Duration::ZERO, attempt)],
            ended: Ended::Decided,
        })
    }

    /// E's lane and the proof lane may both finish before either is stopped: two proofs are
    /// not a contradiction, and the certificate is the answer whichever lane came first.
    #[test]
    fn of_two_proofs_the_certificate_is_kept() {
        let constant = Term::App(FuncId(0), vec![]);
        let certificate = Certificate {
            theory: "T".into(),
            goal: "c = c".into(),
            constants: vec![],
            lhs: constant.clone(),
            rhs: constant,
            cited: vec![],
            lemmas: vec![],
            steps: vec![],
        };
        let by_e = || decided(Verdict::ProvedByZ3 { detail: "E".into() }, "E");
        let own = || {
            decided(
                Verdict::Proved {
                    certificate: certificate.clone(),
                },
                "own",
            )
        };
        for lanes in [vec![by_e(), own()], vec![own(), by_e()]] {
            let answer = combine(lanes, None, Duration::from_secs(1)).unwrap();
            assert!(matches!(answer.verdict, Verdict::Proved { .. }));
            // Both attempts are reported, the deciding one last.
            let notes: Vec<&str> = answer.attempts.iter().map(|a| a.result.as_str()).collect();
            assert_eq!(notes, ["E", "own"]);
        }
    }
}
