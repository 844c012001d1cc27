//! One Z3 satisfiability check under a [`Budget`]: the remaining time becomes Z3's `timeout`
//! parameter, and a watcher thread turns the budget's cancel flag (Ctrl-C) into an interrupt of
//! the running check, which then returns `Unknown`.

use crate::budget::Budget;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use z3::{Context, Params, SatResult, Solver};

/// How often the watcher looks at the cancel flag.
const POLL: Duration = Duration::from_millis(20);

/// Runs `solver.check()` with the time left before `deadline` and the budget's cancel flag.
/// Returns `Unknown` without calling Z3 when the time is already up or cancel is set.
pub fn check(solver: &Solver, budget: &Budget, deadline: Option<Instant>) -> SatResult {
    let cancelled = || budget.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    if cancelled() || left.is_some_and(|l| l.is_zero()) {
        return SatResult::Unknown;
    }
    if let Some(l) = left {
        let mut p = Params::new();
        p.set_u32("timeout", l.as_millis().clamp(1, u32::MAX as u128) as u32);
        solver.set_params(&p);
    }
    let Some(cancel) = budget.cancel.as_ref() else { return solver.check() };
    let ctx = Context::thread_local();
    let handle = ctx.handle();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if cancel.load(Ordering::Relaxed) {
                    handle.interrupt();
                    return;
                }
                std::thread::sleep(POLL);
            }
        });
        let r = solver.check();
        done.store(true, Ordering::Relaxed);
        r
    })
}
