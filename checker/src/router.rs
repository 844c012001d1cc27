//! Which engine answers: the native finder, the SAT back end, Z3, a documented automatic
//! choice, or all of them with a cross-check. Commands call [`enumerate`], [`count`] and
//! [`first_by`] here instead of the engines directly.
//!
//! # The `auto` rule
//!
//! * First model (`find`): a first look on the calling thread alone (`first_look`: the native
//!   finder fewest values first, briefly) answers small questions before any thread starts;
//!   otherwise the native finder and the SAT back end ([`crate::sat`]) race, each on
//!   threads of its own. The native finder has the machine to itself for its first 50 ms
//!   (`NATIVE_HEAD_START`), then, given more than one core, runs at a lower priority so that
//!   SAT keeps a core (`NATIVE_NICE`); the first decided answer (a model, or a proof that
//!   there is none) wins and the other is stopped. [`First::engine`] says which one answered. They are good at
//!   different things: the native finder exhausts small symmetric problems and finds models of
//!   theories with few solutions fast, CaDiCaL's clause learning finds Steiner and Mendelsohn
//!   quasigroups and orthogonal Latin squares the native finder does not (docs/BENCHMARKS.md,
//!   issue 24).
//! * Counting (`spectrum`, `models`, `sweep`, `identify`, the agent): decided by evidence, not
//!   by the theory's shape (issue 54; `count_race`). The native finder counts alone for
//!   [`COUNT_HEAD_START`], which settles most small sizes; then the SAT back end counts the same
//!   size beside it (the native threads yielding to it, as in `find`'s race), and the first exact
//!   count wins (the other is stopped). When the native finder, per second of CPU on as many cores
//!   as it has threads, finds classes at 3/2 of SAT's rate on its one core, SAT yields the
//!   machine to it and counts on with the idle cores (`Handover`). A size the native finder cannot take (more than a million table cells, 50 million ground instances, or more
//!   memory than [`crate::budget::memory_limit`]) starts SAT at once. The SAT back end's only
//!   limit is the size of its encoding ([`crate::sat::LITERAL_LIMIT`]). [`count_by`] and
//!   [`enumerate_by`] say which engine answered and why ([`Choice`]); `spectrum --json` shows
//!   it per row. Under a budget in search nodes the native finder counts alone, so that the
//!   count is the same on every run (`identify`'s sides, the agent's triage). On the issue's
//!   theory SAT counts size 5 in a quarter of a second where the native finder alone takes
//!   minutes (docs/BENCHMARKS.md, counting under `auto`).
//!
//! # `both`
//!
//! Runs every engine built in (native, SAT, and Z3 with the `z3` feature) and compares each with
//! the native finder's answer: exact counts must be equal and their sets of isomorphism classes
//! (canonical forms with |Aut|) identical; a count cut short by a budget must not exceed an exact
//! one, and its classes must be among the exact one's. A first-model question fails the check
//! when one engine finds a model and another proves there is none. Any disagreement is
//! [`FinderError::Disagreement`], carrying both answers. When they agree the native answer is
//! returned. The engines share one time limit: each runs within what the ones before it left of
//! `budget.time`, so that `both` takes no longer than one engine may. Only exact counts compared
//! equal are an agreement ([`Compared::agreed`]); a count cut short is checked against the others
//! but proves nothing.

use crate::budget::{Budget, Status};
use crate::finder::{self, Branching, Enumeration, FinderError, FirstModel, Options};
use crate::problem::ProblemError;
use birkhoff_engine::refine::Refinement;
use birkhoff_engine::Theory;
use std::time::{Duration, Instant};

/// An engine choice, as given by `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// Birkhoff's own finder.
    Native,
    /// The SAT back end (CaDiCaL).
    Sat,
    /// The Z3 backend.
    Z3,
    /// Chosen per theory and size by the rule in the module doc.
    Auto,
    /// Every engine built in, compared; a disagreement is an error.
    Both,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "native" => Ok(Engine::Native),
            "sat" => Ok(Engine::Sat),
            "z3" => Ok(Engine::Z3),
            "auto" => Ok(Engine::Auto),
            "both" => Ok(Engine::Both),
            _ => Err(format!(
                "`{s}` is not an engine: use native, sat, z3, auto or both"
            )),
        }
    }
}

/// What an engine answered to a first-model question: a first model, "none" or "unknown", with
/// its nodes and time.
type FirstAnswer = Result<(FirstModel, u64, Duration), FinderError>;

/// One engine's answer in a race, with the engine.
type RaceAnswer = (Engine, FirstAnswer);

/// Whether an answer settles a race: a model or "none", or an error other than a size the engine
/// cannot take, which is the other engine's to answer (an unsound model above all ends it).
fn decides(answer: &FirstAnswer) -> bool {
    match answer {
        Ok((outcome, _, _)) => *outcome != FirstModel::Unknown,
        Err(FinderError::Problem(_) | FinderError::Encoding(_)) => false,
        Err(_) => true,
    }
}

/// Whether the native finder refused the problem for its size alone (then `auto` asks SAT).
fn too_large_for_native<R>(r: &Result<R, FinderError>) -> bool {
    matches!(
        r,
        Err(FinderError::Problem(
            ProblemError::TooManyCells(_)
                | ProblemError::TooManyInstances(_)
                | ProblemError::TooMuchMemory { .. }
        ))
    )
}

#[cfg(not(feature = "z3"))]
fn no_z3() -> FinderError {
    FinderError::Encoding("this birkhoff was built without Z3 (cargo feature `z3`, which needs the Debian package libz3-dev); use --engine native or sat".into())
}

/// The engines `both` compares with the native finder.
fn others() -> Vec<Engine> {
    if cfg!(feature = "z3") {
        vec![Engine::Sat, Engine::Z3]
    } else {
        vec![Engine::Sat]
    }
}

/// The engine's name, as `--engine` spells it.
pub fn name(e: Engine) -> &'static str {
    match e {
        Engine::Native => "native",
        Engine::Sat => "sat",
        Engine::Z3 => "z3",
        Engine::Auto => "auto",
        Engine::Both => "both",
    }
}

/// Models of one size up to isomorphism, from the chosen engine(s).
pub fn enumerate(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Enumeration, FinderError> {
    match engine {
        Engine::Native => finder::enumerate(t, sizes, budget, Options::default()),
        Engine::Sat => crate::sat::enumerate(t, sizes, budget),
        #[cfg(feature = "z3")]
        Engine::Z3 => crate::z3::enumerate(t, sizes, budget),
        #[cfg(not(feature = "z3"))]
        Engine::Z3 => Err(no_z3()),
        Engine::Auto => Ok(count_race(t, sizes, budget, Options::default())?.0),
        Engine::Both => Ok(enumerate_each(t, sizes, budget)?.answers.swap_remove(0).1),
    }
}

/// [`enumerate`], and which engine answered and why ([`Choice`]).
pub fn enumerate_by(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(Enumeration, Choice), FinderError> {
    match engine {
        Engine::Auto => count_race(t, sizes, budget, Options::default()),
        _ => enumerate(engine, t, sizes, budget).map(|e| (e, Choice::given(engine))),
    }
}

/// Every engine's answer to one enumeration under `both`, and what comparing them established.
#[derive(Clone, Debug)]
pub struct Compared {
    /// Each engine that ran and its answer, the native finder first.
    pub answers: Vec<(Engine, Enumeration)>,
    /// Whether every count was exact and all were compared equal: only then did the engines
    /// agree. A count cut short by the budget was checked against the exact ones (it may not
    /// exceed them) but confirms nothing.
    pub agreed: bool,
}

/// Runs every engine built in (module doc, `both`) on one enumeration within one budget whose
/// time limit they share, comparing each with the native finder's answer: a disagreement is an
/// error.
pub fn enumerate_each(t: &Theory, sizes: &[u32], budget: &Budget) -> Result<Compared, FinderError> {
    let left = shared_time(budget);
    let native = enumerate(Engine::Native, t, sizes, &left())?;
    let mut agreed = true;
    let mut answers = Vec::new();
    for other in others() {
        let theirs = enumerate(other, t, sizes, &left())?;
        agreed &= compare_enumerations(&native, &theirs, name(other))?;
        answers.push((other, theirs));
    }
    answers.insert(0, (Engine::Native, native));
    Ok(Compared { answers, agreed })
}

/// The budgets of searches run one after another within `budget`'s time limit (engines under
/// `both`, the sizes of a spectrum): each call gives what is left of it then, so that together
/// they take no longer than one search may.
pub fn shared_time(budget: &Budget) -> impl Fn() -> Budget + '_ {
    let deadline = budget.time.map(|limit| Instant::now() + limit);
    move || Budget {
        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..budget.clone()
    }
}

/// [`enumerate`] for its counts alone: the native finder then does not build the classes'
/// representatives (every class is still checked by the evaluator). Comparing the engines
/// (`Both`) still compares their classes.
pub fn count(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Enumeration, FinderError> {
    match engine {
        Engine::Native => finder::enumerate(t, sizes, budget, Options::counts_only()),
        Engine::Auto => Ok(count_race(t, sizes, budget, Options::counts_only())?.0),
        Engine::Sat | Engine::Z3 | Engine::Both => enumerate(engine, t, sizes, budget),
    }
}

/// [`count`], and which engine answered and why ([`Choice`]).
pub fn count_by(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(Enumeration, Choice), FinderError> {
    match engine {
        Engine::Auto => count_race(t, sizes, budget, Options::counts_only()),
        _ => count(engine, t, sizes, budget).map(|e| (e, Choice::given(engine))),
    }
}

/// Which engine answered a count, and why: under `auto`, what the race between the native
/// finder and SAT showed (module doc, `auto`); otherwise the engine given.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Choice {
    /// The engine whose answer is reported (`Both` under `--engine both`).
    pub engine: Engine,
    /// Why that engine's answer, in words.
    pub reason: String,
}

impl Choice {
    fn given(engine: Engine) -> Choice {
        Choice {
            engine,
            reason: format!("--engine {}", name(engine)),
        }
    }
}

/// How long the native finder counts alone before the SAT back end joins a counting race
/// under `auto`: most counts of small sizes are over by then (and no SAT encoding is built for
/// them), and what SAT counts first comes at most this much later.
pub const COUNT_HEAD_START: Duration = Duration::from_millis(10);

/// Whether a count settles a race: an exact count, or an error other than a size the engine
/// cannot take (an unsound model above all ends it).
fn count_decides(r: &Result<Enumeration, FinderError>) -> bool {
    match r {
        Ok(e) => e.iso.status == Status::Exact,
        Err(FinderError::Problem(_) | FinderError::Encoding(_)) => false,
        Err(_) => true,
    }
}

/// Counting under `auto` (issue 54): the native finder counts on the calling thread (so that a
/// sweep's pool runs it as before); after [`COUNT_HEAD_START`], or at once when the native
/// finder gives up or refuses the size, the SAT back end counts the same size on a thread of its
/// own. As in [`race`], the native finder's threads (a pool of their own) yield to SAT's
/// ([`NATIVE_NICE`]) when there is more than one core: at equal priority SAT took about 3× its
/// time alone in the race on a loaded 2-core machine (docs/BENCHMARKS.md). The first exact count
/// wins and the other engine is told to stop; a count is exact only if that engine's search
/// finished, and every model either engine reports has passed the evaluator. When both finish,
/// their counts must be equal (else [`FinderError::Disagreement`]). When neither finishes, the
/// larger lower bound is reported (the native finder's on a tie). A monitor thread watches both
/// engines' classes: it hands the machine to the native finder when the evidence calls for it
/// ([`Handover`]), passes the user's Ctrl-C to both, and adds to `budget.progress` the classes of
/// whichever engine is ahead.
///
/// A budget in search nodes ([`Budget::nodes`]) is the native finder's measure, which SAT has no
/// counterpart of: under one the native finder counts alone, so that the count (exact, or the
/// lower bound where the nodes ran out) is the same on every run and every machine. That is what
/// the callers comparing many theories ask for (`identify`'s sides, the agent's triage, the
/// score's calibration); the commands and the agent's spectra give a time limit and race.
fn count_race(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    opts: Options,
) -> Result<(Enumeration, Choice), FinderError> {
    if budget.nodes.is_some() {
        return finder::enumerate(t, sizes, budget, opts).map(|e| {
            let reason = "a budget in search nodes is the native finder's own measure: it counts alone, so the count is the same on every run".into();
            (e, Choice { engine: Engine::Native, reason })
        });
    }
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{mpsc, Arc, OnceLock};
    let start = Instant::now();
    let native_stop = Arc::new(AtomicBool::new(false));
    let sat_stop = Arc::new(AtomicBool::new(false));
    // Raised when the native finder has answered without deciding: SAT need not wait longer.
    let sat_go = Arc::new(AtomicBool::new(false));
    // Raised when the race is over: the monitor ends.
    let over = Arc::new(AtomicBool::new(false));
    // Each engine's classes so far: the monitor's evidence, and the user's progress line.
    let native_classes = Arc::new(AtomicU64::new(0));
    let sat_classes = Arc::new(AtomicU64::new(0));
    // When SAT started, and its thread's id (for `demote_thread` and its CPU time).
    let sat_began: Arc<OnceLock<(Instant, ThreadId)>> = Arc::new(OnceLock::new());
    // The native finder's threads, for the CPU time they have had.
    let native_threads = Arc::new(Threads::default());
    let (tx, rx) = mpsc::channel();
    let sat = {
        let (t, sizes) = (t.clone(), sizes.to_vec());
        let budget = Budget {
            cancel: Some(sat_stop.clone()),
            progress: Some(sat_classes.clone()),
            ..budget.clone()
        };
        let (stop, go, native_stop) = (sat_stop.clone(), sat_go.clone(), native_stop.clone());
        let began = sat_began.clone();
        std::thread::spawn(move || {
            // Stopped before it started: it sends nothing, and dropping `tx` says so.
            if !wait_for_turn(start + COUNT_HEAD_START, &stop, &go) {
                return;
            }
            let deadline = budget.time.map(|limit| start + limit);
            let Some(_slot) = SatSlot::acquire(&stop, deadline) else {
                return;
            };
            let _ = began.set((Instant::now(), this_thread_id()));
            // The deadline counts from the start of the race, not from SAT's.
            let budget = Budget {
                time: budget
                    .time
                    .map(|limit| limit.saturating_sub(start.elapsed())),
                ..budget
            };
            let r = crate::sat::enumerate(&t, &sizes, &budget);
            if count_decides(&r) {
                native_stop.store(true, Ordering::Relaxed);
            }
            let _ = tx.send(r);
        })
    };
    let monitor = {
        let (over, native_stop, sat_stop) = (over.clone(), native_stop.clone(), sat_stop.clone());
        let (native_classes, sat_classes) = (native_classes.clone(), sat_classes.clone());
        let (user_cancel, user_progress) = (budget.cancel.clone(), budget.progress.clone());
        let (sat_began, native_threads) = (sat_began.clone(), native_threads.clone());
        std::thread::spawn(move || {
            let (mut forwarded, mut handover) = (0, None);
            loop {
                // Read before the progress is forwarded, so that the last pass forwards all.
                let finished = over.load(Ordering::Relaxed);
                let found = [&native_classes, &sat_classes].map(|c| c.load(Ordering::Relaxed));
                // The user's progress line shows the classes of whichever engine is ahead.
                if let Some(progress) = &user_progress {
                    let ahead = found[0].max(found[1]);
                    progress.fetch_add(ahead.saturating_sub(forwarded), Ordering::Relaxed);
                    forwarded = forwarded.max(ahead);
                }
                if finished {
                    return handover;
                }
                if user_cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed))
                {
                    native_stop.store(true, Ordering::Relaxed);
                    sat_stop.store(true, Ordering::Relaxed);
                }
                if let (None, Some(&(began, thread))) = (&handover, sat_began.get()) {
                    let rates = Rates {
                        classes: found,
                        cpu: [native_threads.cpu_time(), Threads::cpu_time_of(&[thread])],
                        native_cores: native_threads.cores(),
                    };
                    if let Some(h) = Handover::due(began, rates, start) {
                        demote_thread(thread);
                        handover = Some(h);
                    }
                }
                // Parked rather than asleep, so that the race's end wakes it at once: a
                // sleep made every race last 10 ms more, minutes over the many short counts of
                // `explore --check-models`.
                std::thread::park_timeout(Duration::from_millis(10));
            }
        })
    };
    let native_budget = Budget {
        cancel: Some(native_stop.clone()),
        progress: Some(native_classes.clone()),
        ..budget.clone()
    };
    // As in `race`: the native finder's threads yield to SAT's when there are cores to spare.
    // But on a worker of a pool (a caller counting many theories in parallel: the agent's
    // checks, `explore --check-models`) the native finder counts on that pool, as it would
    // without a race: a pool of its own, entered from another pool's worker, lets that worker
    // take up the caller's other theories while it waits (rayon's cross-pool `install`), each
    // starting a race and a pool in turn; `explore --base semigroup --depth 2 --check-models`
    // so opened thousands of pools and overflowed a stack. Its threads are then not the race's
    // alone, so none is recorded and no handover is made.
    let count = || finder::enumerate(t, sizes, &native_budget, opts);
    let native = if rayon::current_thread_index().is_some() {
        count()
    } else {
        in_yielding_pool(Some(native_threads), count)
    };
    // An exact count is exact whoever stopped the other engine: its search finished. A count
    // that reached the budget's limit of models is as far as either engine may go (SAT would
    // stop at as many), so it ends the race too.
    let native_at_limit =
        matches!(&native, Ok(e) if budget.models.is_some_and(|m| e.iso.value >= u128::from(m)));
    let native_decided = count_decides(&native) || native_at_limit;
    let native_too_large = too_large_for_native(&native);
    let sat_started = Instant::now() >= start + COUNT_HEAD_START || sat_go.load(Ordering::Relaxed);
    let sat_answer = if native_decided {
        sat_stop.store(true, Ordering::Relaxed);
        sat.thread().unpark();
        rx.recv_timeout(LOSER_GRACE).ok()
    } else {
        sat_go.store(true, Ordering::Relaxed);
        sat.thread().unpark();
        // SAT keeps to the deadline and to the cancel flag the watcher raises.
        rx.recv().ok()
    };
    over.store(true, Ordering::Relaxed);
    monitor.thread().unpark();
    let handover = monitor.join().ok().flatten();
    let exact =
        |r: &Result<Enumeration, FinderError>| matches!(r, Ok(e) if e.iso.status == Status::Exact);
    let choice = |engine: Engine, reason: String| Choice { engine, reason };
    let head = COUNT_HEAD_START.as_millis();
    // The time reported is the race's, from its start.
    let elapsed = start.elapsed();
    let answer = match (native, sat_answer) {
        // Both finished: their counts must agree (each model passed the evaluator in both).
        (Ok(n), Some(Ok(s))) if n.iso.status == Status::Exact && s.iso.status == Status::Exact => {
            if n.iso != s.iso || n.labeled != s.labeled {
                return Err(FinderError::Disagreement {
                    native: summary(&n),
                    engine: "sat",
                    other: summary(&s),
                });
            }
            Ok((
                n,
                choice(
                    Engine::Native,
                    "native and sat both finished; their counts agree".into(),
                ),
            ))
        }
        (n, _) if native_decided => {
            let why = if native_at_limit {
                format!(
                    "native reached the limit of {} models; sat could count no further",
                    budget.models.unwrap_or_default()
                )
            } else if sat_started {
                "native finished first; sat was stopped".to_string()
            } else {
                format!("native finished within its {head} ms head start; sat never started")
            };
            n.map(|n| (n, choice(Engine::Native, why)))
        }
        (n, Some(s)) if count_decides(&s) => {
            let why = match &n {
                Err(e) if native_too_large => {
                    format!("native cannot take this size ({e}); sat finished")
                }
                _ if exact(&s) => "sat finished first; native was stopped".to_string(),
                _ => "sat failed".to_string(),
            };
            s.map(|s| (s, choice(Engine::Sat, why)))
        }
        // Neither finished: the larger lower bound, native's on a tie; an error only if neither
        // answered (native's, unless it refused the size).
        (Ok(n), Some(Ok(s))) => {
            Ok(if s.iso.value > n.iso.value {
                (
                    s,
                    choice(
                        Engine::Sat,
                        "neither finished within the limits; sat's lower bound is the larger"
                            .into(),
                    ),
                )
            } else {
                (n, choice(Engine::Native, "neither finished within the limits; native's lower bound is at least sat's".into()))
            })
        }
        (Ok(n), _) => Ok((
            n,
            choice(
                Engine::Native,
                "native did not finish; sat gave no count".into(),
            ),
        )),
        (Err(e), Some(Ok(s))) => Ok((
            s,
            choice(
                Engine::Sat,
                format!("native gave no count ({e}); sat did not finish"),
            ),
        )),
        (Err(ne), Some(Err(se))) => Err(if native_too_large { se } else { ne }),
        (Err(e), None) => Err(e),
    };
    answer.map(|(e, mut c)| {
        // Whatever the outcome, the reason says when SAT was made to yield.
        if let Some(h) = handover {
            c.reason = format!("{}; {h}", c.reason);
        }
        (Enumeration { elapsed, ..e }, c)
    })
}

/// The evidence on which a counting race gives the native finder the machine (issue 54).
///
/// Both engines enumerate the same isomorphism classes, so the one that would find them faster
/// alone is likely to finish first. In the race the native finder's threads yield to SAT's
/// ([`NATIVE_NICE`]), which halves its speed on 2 cores: a count the native finder alone makes in
/// 3 s of a 5 s limit was cut short in the race (8 of the 200 theories of the benchmark set, all
/// with some 300,000 classes at size 4, which SAT, blocking one class at a time, finds at a
/// tenth of the native finder's rate). So the monitor compares what each engine would do alone:
/// its classes per second of CPU time (measured per thread, [`Threads`]) times the cores it
/// would have alone, as many as its threads for the native finder and one for SAT. Once SAT has
/// run for [`HANDOVER_PROBE`], if the native finder has found at least [`HANDOVER_MIN_CLASSES`]
/// classes and its rate alone is [`HANDOVER_LEAD`] (3/2) times SAT's, SAT's thread is demoted
/// below the native finder's ([`demote_thread`]): the native finder gets nearly the whole machine,
/// and SAT keeps running, so a count it would still finish is not lost.
///
/// The rule first compared the classes found in the race (a lead of 5/4), assuming the shares of
/// the machine the two engines have in it. The shares vary: on a theory whose classes both
/// engines find at the same rate per core, SAT kept within 5/4 of the native finder in one run
/// of three and the count the native finder alone makes in 4.5 s of 5 was lost
/// (docs/BENCHMARKS.md, issue 54).
#[derive(Clone, Copy, Debug)]
struct Handover {
    /// When it happened, from the start of the race.
    after: Duration,
    /// What the two engines had done by then.
    rates: Rates,
}

/// What the two engines in a counting race have done so far: `[native, SAT]`.
#[derive(Clone, Copy, Debug)]
struct Rates {
    /// Classes found.
    classes: [u64; 2],
    /// CPU time used (None where it cannot be measured: then no handover).
    cpu: [Option<Duration>; 2],
    /// The cores the native finder would have alone: its threads, at most the machine's.
    native_cores: u64,
}

/// How long SAT must have counted before the race may hand the machine to the native finder.
const HANDOVER_PROBE: Duration = Duration::from_millis(100);

/// How many classes the native finder must have found before the race hands it the machine:
/// small counts say little about rates.
const HANDOVER_MIN_CLASSES: u64 = 256;

/// How many times SAT's rate alone the native finder's rate alone must be, as a fraction
/// (numerator, denominator): 3/2, a margin for the bursts in which both engines find classes
/// and for the part of the native finder's time that does not scale with its cores.
const HANDOVER_LEAD: (u64, u64) = (3, 2);

impl Handover {
    /// The handover that the engines' work so far calls for, if any; `began` is when SAT
    /// started, `start` when the race did.
    fn due(began: Instant, rates: Rates, start: Instant) -> Option<Handover> {
        let Rates {
            classes: [native, sat],
            cpu: [Some(native_cpu), Some(sat_cpu)],
            native_cores,
        } = rates
        else {
            return None;
        };
        // native / native_cpu × native_cores ≥ lead × sat / sat_cpu, without dividing; an
        // engine that has had no CPU yet has shown no rate.
        let (native_cpu, sat_cpu) = (native_cpu.as_nanos(), sat_cpu.as_nanos());
        let ahead = u128::from(native) * sat_cpu * u128::from(native_cores * HANDOVER_LEAD.1)
            >= u128::from(sat) * native_cpu * u128::from(HANDOVER_LEAD.0);
        (began.elapsed() >= HANDOVER_PROBE
            && native >= HANDOVER_MIN_CLASSES
            && native_cpu > 0
            && sat_cpu > 0
            && ahead)
            .then(|| Handover {
                after: start.elapsed(),
                rates,
            })
    }
}

impl std::fmt::Display for Handover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Rates {
            classes: [native, sat],
            cpu,
            native_cores,
        } = self.rates;
        let [native_cpu, sat_cpu] = cpu.map(|c| c.unwrap_or_default().as_secs_f64());
        write!(
            f,
            "after {:.2} s native had found {native} classes in {native_cpu:.2} s of CPU on \
             {native_cores} thread(s) to sat's {sat} in {sat_cpu:.2} s, and sat yielded the \
             machine to native",
            self.after.as_secs_f64(),
        )
    }
}

/// The threads an engine runs on in a race, and the CPU time they have used: the evidence of
/// [`Handover`], which does not depend on the share of the machine each engine had.
#[derive(Debug, Default)]
struct Threads(std::sync::Mutex<Vec<ThreadId>>);

impl Threads {
    /// Records the calling thread as one of the engine's.
    fn join(&self) {
        if let Ok(mut threads) = self.0.lock() {
            threads.push(this_thread_id());
        }
    }

    /// How many cores the engine would have alone: its threads, at most the machine's.
    fn cores(&self) -> u64 {
        let threads = self.0.lock().map_or(0, |t| t.len());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        threads.min(cores) as u64
    }

    /// The CPU time the engine's threads have used.
    fn cpu_time(&self) -> Option<Duration> {
        Threads::cpu_time_of(&self.0.lock().ok()?)
    }

    /// The CPU time threads `threads` (of this process) have used, or None if any cannot be
    /// read (a thread that has ended, or not Linux) or there are none.
    fn cpu_time_of(threads: &[ThreadId]) -> Option<Duration> {
        if threads.is_empty() {
            return None;
        }
        threads.iter().map(|&t| thread_cpu_time(t)).sum()
    }
}

/// The CPU time thread `thread` (of this process) has used, from its CPU-time clock.
#[cfg(target_os = "linux")]
fn thread_cpu_time(thread: ThreadId) -> Option<Duration> {
    // Linux names a thread's CPU-time clock by its id: `MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)`
    // of the kernel's posix-cpu-timers ABI, which glibc's `pthread_getcpuclockid` also computes.
    // By id and not by `pthread_t`, a thread that has ended gives an error, not undefined
    // behaviour.
    const PER_THREAD: libc::clockid_t = 4;
    const SCHED: libc::clockid_t = 2;
    let clock = (!thread << 3) | PER_THREAD | SCHED;
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` lives across the call, which writes only it.
    let read = unsafe { libc::clock_gettime(clock, &mut now) };
    (read == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Elsewhere than on Linux a thread's CPU time is not read ([`demote_thread`] changes nothing
/// there either, so no handover is made).
#[cfg(not(target_os = "linux"))]
fn thread_cpu_time(_: ThreadId) -> Option<Duration> {
    None
}

/// A thread's id for [`demote_thread`] (the kernel's on Linux; elsewhere nothing).
#[cfg(target_os = "linux")]
type ThreadId = libc::pid_t;
#[cfg(not(target_os = "linux"))]
type ThreadId = ();

/// The calling thread's [`ThreadId`].
fn this_thread_id() -> ThreadId {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe {
        libc::gettid()
    }
}

/// Moves thread `thread` (of this process) to Linux's idle scheduling class, `SCHED_IDLE`: it
/// runs only on a core that nothing else wants, so the native finder's threads (at
/// [`NATIVE_NICE`]) get the whole machine while SAT still counts with what is left. Lowering a
/// thread's priority needs no privilege. Elsewhere than on Linux nothing is changed, as in
/// [`yield_to_other_threads`].
fn demote_thread(thread: ThreadId) {
    #[cfg(target_os = "linux")]
    // SAFETY: `param` lives across the call, which only reads it; on failure the thread keeps
    // its scheduling class.
    unsafe {
        let param = libc::sched_param { sched_priority: 0 };
        libc::sched_setscheduler(thread, libc::SCHED_IDLE, &param);
    }
    #[cfg(not(target_os = "linux"))]
    let () = thread;
}

/// How SAT waits for its turn in a race (`find`'s and counting's): parked until `starts_at`,
/// or until `go` (the native finder answered without deciding) or `stop` is raised, woken by
/// an unpark; true when it is to run, false when it was stopped first.
fn wait_for_turn(
    starts_at: Instant,
    stop: &std::sync::atomic::AtomicBool,
    go: &std::sync::atomic::AtomicBool,
) -> bool {
    use std::sync::atomic::Ordering;
    while !stop.load(Ordering::Relaxed) && !go.load(Ordering::Relaxed) && Instant::now() < starts_at
    {
        std::thread::park_timeout(starts_at.saturating_duration_since(Instant::now()));
    }
    !stop.load(Ordering::Relaxed)
}

/// How many counting races' SAT back ends run at once ([`SatSlot`]).
static SAT_COUNTING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A core for one counting race's SAT back end, at most as many at once as the machine has
/// cores. A caller that counts many theories in parallel (the agent's checks) runs a race for
/// each, and a worker waiting inside one race's native finder may take up another theory's;
/// without a bound, every race so opened would run a SAT thread beside the native finders.
/// A command counting one theory at a time always gets one at once.
struct SatSlot;

impl SatSlot {
    /// Waits for a free core, polling `stop` and `deadline`: `None` if either comes first.
    fn acquire(stop: &std::sync::atomic::AtomicBool, deadline: Option<Instant>) -> Option<SatSlot> {
        use std::sync::atomic::Ordering;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        loop {
            let running = SAT_COUNTING.load(Ordering::Acquire);
            if running < cores
                && SAT_COUNTING
                    .compare_exchange(running, running + 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            {
                return Some(SatSlot);
            }
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for SatSlot {
    fn drop(&mut self) {
        SAT_COUNTING.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// An answer to "is there a model of this size?", with the engine that gave it.
#[derive(Clone, Debug)]
pub struct First {
    /// The answer.
    pub outcome: FirstModel,
    /// Search nodes (native) or solver calls (SAT, Z3) of the answering engine.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Which engine answered: `Native`, `Sat` or `Z3`; `Both` when every engine answered and
    /// they agree. Under `auto`, the race's winner (or `Native` when neither decided).
    pub engine: Engine,
}

/// The first model of one size, from the chosen engine(s), without saying which answered.
pub fn first(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    first_by(engine, t, sizes, budget).map(|f| (f.outcome, f.nodes, f.elapsed))
}

/// The first model of one size, from the chosen engine(s) (module doc), and which engine answered.
///
/// Every engine searches the theory with its sorts refined ([`Refinement`]) when they split: the
/// models are the same tables, and the finer sorts let each engine break far more symmetry
/// (orthogonal Latin squares of order 6, Euler's problem, went from undecided in a minute to a
/// proof in about a second). Before that, the mirrors of one-sided axioms that completion proves
/// are added (`mirrors`: a group written with its left axioms gets its right ones). The model
/// found is checked again, as a structure of `t` itself.
pub fn first_by(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<First, FinderError> {
    crate::problem::check_sizes(&t.sig, sizes)?;
    let start = Instant::now();
    let left = shared_time(budget);
    let mirrored = crate::mirrors::with_mirrors(t, budget);
    refined_first(
        engine,
        t,
        mirrored.as_ref().unwrap_or(t),
        sizes,
        &left(),
        start,
    )
}

/// [`first_by`] without the mirror lemmas: `t`'s own axioms, its sorts refined. For a search
/// that asks size after size of one theory (the prover's countermodels), where finding the
/// mirrors again for each size would cost more than they save; `mirrors` itself searches for
/// its countermodels this way, so that no search asks for its own mirrors.
pub fn first_as_written(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<First, FinderError> {
    crate::problem::check_sizes(&t.sig, sizes)?;
    refined_first(engine, t, t, sizes, budget, Instant::now())
}

/// The first model of `searched` (`t`, or `t` with lemmas), its sorts refined, checked again as
/// a structure of `t`.
fn refined_first(
    engine: Engine,
    t: &Theory,
    searched: &Theory,
    sizes: &[u32],
    budget: &Budget,
    start: Instant,
) -> Result<First, FinderError> {
    let mut first = match Refinement::of(searched) {
        None => first_at(engine, searched, sizes, budget)?,
        Some(refined) => {
            let mut first = first_at(engine, &refined.theory, &refined.sizes(sizes), budget)?;
            if let FirstModel::Found { model } = first.outcome {
                first.outcome = FirstModel::Found {
                    model: refined.restore(model, sizes),
                };
            }
            first
        }
    };
    if let FirstModel::Found { model } = &first.outcome {
        finder::verify(t, model)?;
    }
    first.elapsed = start.elapsed();
    Ok(first)
}

/// [`first_by`] on `t` as it is.
fn first_at(
    engine: Engine,
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<First, FinderError> {
    let single = |e: Engine, r: FirstAnswer| {
        r.map(|(outcome, nodes, elapsed)| First {
            outcome,
            nodes,
            elapsed,
            engine: e,
        })
    };
    match engine {
        Engine::Native => single(engine, finder::first(t, sizes, budget, Options::default())),
        Engine::Sat => single(engine, crate::sat::first(t, sizes, budget)),
        #[cfg(feature = "z3")]
        Engine::Z3 => single(engine, crate::z3::first(t, sizes, budget)),
        #[cfg(not(feature = "z3"))]
        Engine::Z3 => Err(no_z3()),
        Engine::Auto => race(t, sizes, budget),
        Engine::Both => {
            let left = shared_time(budget);
            let native = first_at(Engine::Native, t, sizes, &left())?;
            let word = |f: &FirstModel| match f {
                FirstModel::Found { .. } => "a model",
                FirstModel::None => "no model (search finished)",
                FirstModel::Unknown => "unknown",
            };
            for other in others() {
                let theirs = first_at(other, t, sizes, &left())?;
                if matches!(
                    (&native.outcome, &theirs.outcome),
                    (FirstModel::Found { .. }, FirstModel::None)
                        | (FirstModel::None, FirstModel::Found { .. })
                ) {
                    return Err(FinderError::Disagreement {
                        native: word(&native.outcome).into(),
                        engine: name(other),
                        other: word(&theirs.outcome).into(),
                    });
                }
            }
            Ok(First {
                engine: Engine::Both,
                ..native
            })
        }
    }
}

/// How long the native finder has the machine to itself before the SAT back end starts in a
/// race.
///
/// Once SAT runs it keeps a core ([`NATIVE_NICE`]), and on 2 cores that halves the native
/// finder's: its two searches (two ways of branching, or the plain and Skolemized theory) then
/// share one core. Started at once, SAT made the race take twice as long as the native finder
/// alone on what the native finder decides (nonabelian groups of order 17 and 21: 138 and 318 ms
/// against 72 and 150; a nonassociative Moufang loop of order 16: 50 ms against 23). What SAT
/// decides first comes this much later; of the 128 benchmark instances, none that Mace4 decides
/// changes hands (docs/BENCHMARKS.md).
const NATIVE_HEAD_START: Duration = Duration::from_millis(50);

/// How long the winner of a race waits for the loser to notice its stop flag.
const LOSER_GRACE: Duration = Duration::from_millis(500);

/// How much the native finder's threads yield to the SAT thread in a race (a nice value).
///
/// The native finder runs as many threads as there are cores, and its plain and Skolemized
/// searches need two to progress side by side; the SAT solver is one thread. At equal priority on
/// 2 cores the three share the machine and CaDiCaL gets about two thirds of a core, too little to
/// find a self-orthogonal Latin square of order 10 within a minute (about 50 s alone). At nice 10
/// (a tenth of the weight) SAT keeps a core to itself while it runs, the native threads share the
/// rest, and when SAT stops or refuses the problem they get the whole machine.
#[cfg(target_os = "linux")]
const NATIVE_NICE: libc::c_int = 10;

/// Lowers the calling thread's priority to `NATIVE_NICE` (a constant on Linux only), never
/// raises it: a thread already nicer (`nice -n 15 birkhoff ...` on a shared machine) keeps its
/// nice value, since setting 10 would raise its priority (as root, setpriority allows it). On
/// Linux a nice value belongs to a thread, not to the process; elsewhere nothing is changed,
/// since it would lower the SAT thread's as well.
fn yield_to_other_threads() {
    #[cfg(target_os = "linux")]
    // SAFETY: errno is this thread's own; getpriority and setpriority read no memory of ours;
    // on failure the thread keeps its priority.
    unsafe {
        // -1 is both a nice value and getpriority's error return: only errno tells them apart.
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, 0);
        if *libc::__errno_location() == 0 && now < NATIVE_NICE {
            libc::setpriority(libc::PRIO_PROCESS, 0, NATIVE_NICE);
        }
    }
}

/// Runs `f` in a pool of as many threads as the global one, each yielding to the SAT thread
/// ([`yield_to_other_threads`]) when there are cores to spare: on a single one it would leave the
/// native finder a tenth of it (no nonabelian group of order 23: 15 s against 1.5 s alone), so
/// the two share it evenly. Built with rayon's default size (RAYON_NUM_THREADS, else the cores),
/// it leaves the global pool unstarted: a small `find` is over before two more threads would
/// have started. A worker's start handler counts its own pool, and joins `threads` if given
/// (the counting race's evidence, [`Handover`]).
fn in_yielding_pool<R: Send>(
    threads: Option<std::sync::Arc<Threads>>,
    f: impl FnOnce() -> R + Send,
) -> R {
    let workers = threads.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .start_handler(move |_| {
            if rayon::current_num_threads() > 1 {
                yield_to_other_threads()
            }
            if let Some(threads) = &workers {
                threads.join()
            }
        })
        .build();
    match pool {
        Ok(pool) => pool.install(f),
        Err(_) => {
            // The calling thread runs `f` itself.
            if let Some(threads) = &threads {
                threads.join()
            }
            f()
        }
    }
}

/// How many nodes a race's first look may search, fewest values first: the theory with witness
/// functions for its leading existentials (if any) and the theory itself take turns, 512 nodes
/// each at first.
///
/// Starting the race's threads (the native finder's pool and SAT's thread) costs about a
/// millisecond, more than the whole search of many small questions (a Mendelsohn quasigroup of
/// order 10: 230 nodes, 0.3 ms), and fewest values first finds what is small fast where the
/// threads' decision order does not (a nonassociative Moufang loop of order 16: 72 nodes, 5 ms,
/// against 546; no Mendelsohn quasigroup of order 8: 640 nodes, 0.6 ms). Its nodes cost a
/// quarter of the decision order's, whose lex-leader checks made a turn of it 36 ms on a Steiner
/// quasigroup of order 19. A look that does not decide is lost, at most this much or
/// [`FIRST_LOOK_TIME`] (docs/BENCHMARKS.md).
const FIRST_LOOK_NODES: u64 = 1024;

/// How long a race's first look may take, building the problem included: nodes of large
/// problems take long (a self-orthogonal Latin square of order 7: 113 nodes, about 5 ms).
const FIRST_LOOK_TIME: Duration = Duration::from_millis(20);

/// The native finder on the calling thread alone, within [`FIRST_LOOK_NODES`] and
/// [`FIRST_LOOK_TIME`] (and the caller's budget): its answer when that [`decides`] the race,
/// else `None` for the race to go on.
fn first_look(t: &Theory, sizes: &[u32], budget: &Budget) -> Option<FirstAnswer> {
    let look = Budget {
        time: Some(
            budget
                .time
                .map_or(FIRST_LOOK_TIME, |limit| limit.min(FIRST_LOOK_TIME)),
        ),
        nodes: Some(
            budget
                .nodes
                .map_or(FIRST_LOOK_NODES, |limit| limit.min(FIRST_LOOK_NODES)),
        ),
        ..budget.clone()
    };
    let fewest_values = Options {
        branching: Branching::FewestValues,
        ..Options::default()
    };
    Some(finder::first_on_this_thread(t, sizes, &look, fewest_values)).filter(decides)
}

/// The native finder and the SAT back end side by side (module doc, `auto`). Each runs on a
/// thread of its own with its own stop flag; the user's Ctrl-C reaches both. A first look
/// ([`first_look`]) on the calling thread comes before either. SAT starts after
/// [`NATIVE_HEAD_START`], or as soon as the native finder answers without deciding, unless the
/// race is over by then; the native finder's threads yield to it ([`NATIVE_NICE`]). The loser
/// is told to stop and given [`LOSER_GRACE`] to do so; a loser still building its problem is
/// left to finish that on its own thread, which ends it.
fn race(t: &Theory, sizes: &[u32], budget: &Budget) -> Result<First, FinderError> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};
    let start = std::time::Instant::now();
    if let Some(decided) = first_look(t, sizes, budget) {
        return decided.map(|(outcome, nodes, _)| First {
            outcome,
            nodes,
            elapsed: start.elapsed(),
            engine: Engine::Native,
        });
    }
    let native_stop = Arc::new(AtomicBool::new(false));
    let sat_stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    {
        let (t, sizes, tx) = (t.clone(), sizes.to_vec(), tx.clone());
        let budget = Budget {
            cancel: Some(native_stop.clone()),
            ..budget.clone()
        };
        std::thread::spawn(move || {
            let answer = in_yielding_pool(None, || {
                finder::first(&t, &sizes, &budget, Options::default())
            });
            tx.send((Engine::Native, answer))
        });
    }
    // Raised when the native finder has answered without deciding: SAT need not wait longer.
    let sat_go = Arc::new(AtomicBool::new(false));
    let sat = {
        let (t, sizes, budget, stop, go) = (
            t.clone(),
            sizes.to_vec(),
            budget.clone(),
            sat_stop.clone(),
            sat_go.clone(),
        );
        std::thread::spawn(move || {
            // Stopped before it started (the native finder decided, or the user gave up): it
            // sends nothing, and dropping `tx` tells the race at once.
            if wait_for_turn(start + NATIVE_HEAD_START, &stop, &go) {
                // The deadline counts from the start of the race, not from SAT's.
                let budget = Budget {
                    time: budget
                        .time
                        .map(|limit| limit.saturating_sub(start.elapsed())),
                    ..budget
                };
                let _ = tx.send((
                    Engine::Sat,
                    crate::sat::first_until(&t, &sizes, &budget, Some(stop)),
                ));
            }
        })
    };
    let stop_all = || {
        native_stop.store(true, Ordering::Relaxed);
        sat_stop.store(true, Ordering::Relaxed);
        sat.thread().unpark();
    };
    let user_cancelled = || {
        budget
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let mut answers: Vec<RaceAnswer> = Vec::new();
    while answers.len() < 2 {
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok((engine, r)) => {
                let decided = decides(&r);
                answers.push((engine, r));
                if decided {
                    stop_all();
                    let _ = rx.recv_timeout(LOSER_GRACE);
                    let (engine, r) = answers.pop().expect("just pushed");
                    return r.map(|(outcome, nodes, _)| First {
                        outcome,
                        nodes,
                        elapsed: start.elapsed(),
                        engine,
                    });
                }
                // The native finder gave up or cannot take the size: SAT's wait is over.
                sat_go.store(true, Ordering::Relaxed);
                sat.thread().unpark();
            }
            Err(mpsc::RecvTimeoutError::Timeout) if user_cancelled() => stop_all(),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Neither decided: an unknown answer if either ran (the native finder's first), else an
    // error: the native finder's, unless it refused the size, when SAT's refusal is given, with
    // the word that no engine here takes it.
    let native_refused = answers
        .iter()
        .any(|(e, r)| *e == Engine::Native && too_large_for_native(r));
    answers.sort_by_key(|(e, r)| (too_large_for_native(r), *e != Engine::Native));
    let mut error = None;
    for (engine, r) in answers {
        match r {
            Ok((outcome, nodes, _)) => {
                return Ok(First {
                    outcome,
                    nodes,
                    elapsed: start.elapsed(),
                    engine,
                })
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    Err(match error.expect("an engine that did not answer failed") {
        FinderError::Encoding(why) if native_refused => FinderError::Encoding(format!(
            "{why}, and the native finder refuses it too: this size is beyond every engine here"
        )),
        e => e,
    })
}

fn summary(e: &Enumeration) -> String {
    format!("iso {}, labeled {}", e.iso, e.labeled)
}

/// Checks two answers to the same enumeration against each other (module doc, `both`): the
/// native finder's and `engine`'s. `Ok(true)` when both counts are exact (and so were compared
/// equal), `Ok(false)` when a count cut short is consistent with the other but nothing could be
/// compared.
pub fn compare_enumerations(
    native: &Enumeration,
    other: &Enumeration,
    engine: &'static str,
) -> Result<bool, FinderError> {
    let disagree = |why: &str| {
        Err(FinderError::Disagreement {
            native: format!("{} ({why})", summary(native)),
            engine,
            other: summary(other),
        })
    };
    let exact = |e: &Enumeration| e.iso.status == Status::Exact;
    let contains = |big: &Enumeration, small: &Enumeration| {
        small.classes.iter().all(|c| big.classes.contains(c))
    };
    match (exact(native), exact(other)) {
        (true, true) if native.iso != other.iso || native.labeled != other.labeled => {
            disagree("counts differ")
        }
        (true, true) if native.classes != other.classes => {
            disagree("the isomorphism classes differ")
        }
        (true, false) if other.iso.value > native.iso.value || !contains(native, other) => {
            disagree("the other engine's partial answer has a class native's exact one lacks")
        }
        (false, true) if native.iso.value > other.iso.value || !contains(other, native) => {
            disagree("native's partial answer has a class the other engine's exact one lacks")
        }
        (native_exact, other_exact) => Ok(native_exact && other_exact),
    }
}

#[cfg(test)]
mod tests {
    use super::{shared_time, Budget};
    use std::time::Duration;

    /// Searches run in turn under one budget share its time: each gets what is left when it
    /// starts, never the whole limit again.
    #[test]
    fn searches_in_turn_share_one_time_limit() {
        let budget = Budget {
            time: Some(Duration::from_secs(2)),
            ..Budget::default()
        };
        let left = shared_time(&budget);
        let first = left().time.unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let second = left().time.unwrap();
        assert!(
            first <= Duration::from_secs(2) && second + Duration::from_millis(20) <= first,
            "{first:?} then {second:?}"
        );
        assert_eq!(shared_time(&Budget::default())().time, None);
    }

    /// The native side of a race yields to the SAT thread, and to it alone: the thread that calls
    /// `yield_to_other_threads` gets [`super::NATIVE_NICE`], its caller's priority is unchanged.
    #[cfg(target_os = "linux")]
    #[test]
    fn only_the_native_threads_yield() {
        // SAFETY: getpriority reads no memory of ours.
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let before = nice();
        let yielded = std::thread::spawn(move || {
            super::yield_to_other_threads();
            nice()
        });
        assert_eq!(yielded.join().unwrap(), super::NATIVE_NICE.max(before));
        assert_eq!(nice(), before);
    }

    /// A thread already nicer than [`super::NATIVE_NICE`] keeps its nice value: yielding never
    /// raises a priority (under `nice -n 15`, setting 10 would).
    #[cfg(target_os = "linux")]
    #[test]
    fn yielding_never_lowers_a_nice_value() {
        // SAFETY: getpriority and setpriority read no memory of ours and act on this thread.
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let nicer = std::thread::spawn(move || {
            let start = (super::NATIVE_NICE + 5).max(nice());
            // SAFETY: as above.
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, start) };
            assert_eq!(nice(), start, "a thread may always make itself nicer");
            super::yield_to_other_threads();
            (start, nice())
        });
        let (start, after) = nicer.join().unwrap();
        assert_eq!(after, start);
    }

    /// The counting race hands the machine to the native finder only on evidence: SAT has run
    /// its probe, the native finder has found enough classes, and on as many cores as it has
    /// threads it finds them at 3/2 of SAT's rate on one, per second of CPU time.
    #[test]
    fn a_handover_needs_a_probe_enough_classes_and_a_lead_per_second_of_cpu() {
        use super::{Handover, Rates, HANDOVER_LEAD, HANDOVER_MIN_CLASSES, HANDOVER_PROBE};
        use std::time::Instant;
        let start = Instant::now();
        let probed = start - HANDOVER_PROBE - Duration::from_millis(1);
        let many = HANDOVER_MIN_CLASSES * 12;
        let second = Some(Duration::from_secs(1));
        let rates = |classes, cpu, native_cores| Rates {
            classes,
            cpu,
            native_cores,
        };
        let due = |began, r| Handover::due(began, r, start).is_some();
        let (num, den) = HANDOVER_LEAD;
        // Equal CPU, one native core: the native finder needs 3/2 of SAT's classes.
        assert!(due(probed, rates([many, many * den / num], [second; 2], 1)));
        assert!(!due(
            probed,
            rates([many, many * den / num + 1], [second; 2], 1)
        ));
        // On two cores the same classes per second of CPU are twice the rate alone.
        assert!(due(probed, rates([many, many], [second; 2], 2)));
        assert!(!due(
            probed,
            rates([many, many * 2 * den / num + 1], [second; 2], 2)
        ));
        // The same classes with less CPU are a higher rate (the share of the machine differs).
        let half = Some(Duration::from_millis(500));
        assert!(due(probed, rates([many, many], [half, second], 1)));
        assert!(!due(probed, rates([many, many], [second, half], 1)));
        assert!(due(
            probed,
            rates([HANDOVER_MIN_CLASSES, 0], [second; 2], 1)
        ));
        // Too early: SAT has not run its probe.
        assert!(!due(start, rates([many, 0], [second; 2], 2)));
        // Too few classes to say anything of rates.
        assert!(!due(
            probed,
            rates([HANDOVER_MIN_CLASSES - 1, 0], [second; 2], 2)
        ));
        // No CPU time read, or none used: no rate shown.
        assert!(!due(probed, rates([many, 0], [None, second], 2)));
        assert!(!due(
            probed,
            rates([many, 0], [second, Some(Duration::ZERO)], 2)
        ));
        let h = Handover::due(probed, rates([many, 7], [second; 2], 2), start).unwrap();
        assert_eq!(h.rates.classes, [many, 7]);
        assert!(
            h.to_string().contains(&format!(
                "{many} classes in 1.00 s of CPU on 2 thread(s) to sat's 7 in 1.00 s"
            )),
            "{h}"
        );
    }

    /// A thread's CPU time is read by its id, and shows the time it computed.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_threads_cpu_time_is_read_while_it_runs() {
        use super::{this_thread_id, Threads};
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        // The thread spins until its own clock (CLOCK_THREAD_CPUTIME_ID, not the clock by id
        // read below) says 50 ms of CPU: 50 ms of wall time gave it 17 ms under a loaded test run.
        let own_cpu = || {
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `now` lives across the call, which writes only it.
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
            Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
        };
        let busy = std::thread::spawn(move || {
            let mut x = 0u64;
            while own_cpu() < Duration::from_millis(50) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
            tx.send(this_thread_id()).unwrap();
            done_rx.recv().unwrap();
        });
        let thread = rx.recv().unwrap();
        let used = Threads::cpu_time_of(&[thread]).expect("a running thread's CPU time");
        assert!(used >= Duration::from_millis(20), "{used:?}");
        let threads = Threads::default();
        assert_eq!(threads.cpu_time(), None, "no threads, no time");
        threads.join();
        assert!(threads.cpu_time().is_some());
        assert_eq!(threads.cores(), 1);
        done_tx.send(()).unwrap();
        busy.join().unwrap();
    }

    /// A demoted thread (SAT's, after a handover) runs in the idle scheduling class; the thread
    /// that demoted it keeps its own.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_demoted_thread_runs_only_on_idle_cores() {
        // SAFETY: sched_getscheduler reads no memory of ours.
        let class = |thread| unsafe { libc::sched_getscheduler(thread) };
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let sat = std::thread::spawn(move || {
            tx.send(super::this_thread_id()).unwrap();
            done_rx.recv().unwrap();
        });
        let thread = rx.recv().unwrap();
        let own = class(super::this_thread_id());
        // Under `chrt --idle` every thread starts idle, and the demotion cannot be seen.
        if own != libc::SCHED_IDLE {
            assert_ne!(class(thread), libc::SCHED_IDLE);
        }
        super::demote_thread(thread);
        assert_eq!(class(thread), libc::SCHED_IDLE);
        assert_eq!(class(super::this_thread_id()), own);
        done_tx.send(()).unwrap();
        sat.join().unwrap();
    }
}
