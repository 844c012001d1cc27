//! One Z3 satisfiability check under a [`Budget`]: a watcher thread interrupts the running check
//! (which then returns `Unknown`) when the budget's cancel flag is set (Ctrl-C) or the deadline
//! has passed.
//!
//! Z3's own `timeout` parameter is deliberately not used. In Z3 4.8.12 it runs a timer that
//! takes a process-wide lock: while one thread's check was being stopped after its timeout, a
//! check in another thread that takes 0.05 s alone took 2 to 3 s (measured with `prove_unsat`;
//! without the parameter, 0.05 s). The interrupt ends a check just as a timeout would.
//!
//! Z3's `ctrl_c` parameter is turned off for every check: with it on (Z3's default), each check
//! installs libz3's own SIGINT handler and puts back the one it found when it ends, so two checks
//! overlapping on different threads put them back in the wrong order and leave libz3's handler
//! installed. A later Ctrl-C then crashed the process instead of setting Birkhoff's cancel flag,
//! which is what stops a check here (through the watcher).

use crate::budget::Budget;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use z3::{Context, Params, SatResult, Solver};

/// How often the watcher looks at the cancel flag and the clock.
const POLL: Duration = Duration::from_millis(20);

/// Whether work under `budget` must stop: `deadline` has passed or the cancel flag (Ctrl-C) is
/// set. It owns what it reads, so a watcher thread or an encoder can keep it.
pub fn stop_condition(
    budget: &Budget,
    deadline: Option<Instant>,
) -> impl Fn() -> bool + Send + 'static {
    let cancel = budget.cancel.clone();
    move || {
        deadline.is_some_and(|d| Instant::now() >= d)
            || cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Runs `solver.check()` until `deadline` or the budget's cancel flag. Returns `Unknown` without
/// calling Z3 when the time is already up or cancel is set.
pub fn check(solver: &Solver, budget: &Budget, deadline: Option<Instant>) -> SatResult {
    let stop = stop_condition(budget, deadline);
    if stop() {
        return SatResult::Unknown;
    }
    // Added to the solver's parameters (Z3 merges them), so the caller's stay.
    let mut params = Params::new();
    params.set_bool("ctrl_c", false);
    solver.set_params(&params);
    if budget.cancel.is_none() && deadline.is_none() {
        return solver.check();
    }
    let ctx = Context::thread_local();
    let handle = ctx.handle();
    // The watcher waits on a channel rather than sleeping, so that it ends as soon as the check
    // does: enumeration runs one short check per model, and a sleeping watcher added up to a
    // poll interval to each (band n = 4 with Z3: 7.5 s, mostly waiting).
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if stop() {
                    handle.interrupt();
                    return;
                }
            }
        });
        let r = solver.check();
        drop(done);
        r
    })
}
