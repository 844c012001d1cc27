//! Work on a thread of its own that the caller can walk away from at a deadline.
//!
//! Some engines notice a time limit late or not at all inside one indivisible step: Z3's
//! E-matching on quantified problems (a 20 s limit still running after 100 s), or one rule search
//! of egg on an e-graph whose classes hold many nodes (a single search took 10 s on a magma law).
//! [`run`] gives such work a thread, waits until the work is done, the deadline passes or the
//! cancel flag is set, and in the last two cases raises the work's stop flag and returns without
//! it. The abandoned thread ends by itself at the engine's next check. Abandoned threads never
//! pile up: while a [`Pool`]'s limit of them are still stopping, a new call waits for one to end,
//! within its own deadline.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the caller looks at the worker's answer, the cancel flag and the pool.
const POLL: Duration = Duration::from_millis(5);

/// The abandoned workers of one kind of work: how many are still running, and how many may be.
pub struct Pool {
    running: AtomicUsize,
    max: usize,
}

impl Pool {
    /// A pool that lets at most `max` abandoned workers run at once.
    pub const fn new(max: usize) -> Self {
        Pool {
            running: AtomicUsize::new(0),
            max,
        }
    }
}

/// What came of [`run`].
pub enum Outcome<T> {
    /// The work finished in time.
    Done(T),
    /// The deadline passed (or `interrupted`: the cancel flag was set) first; the worker was told
    /// to stop and left to end by itself.
    GaveUp {
        /// The cancel flag, not the deadline, ended the wait.
        interrupted: bool,
    },
    /// The pool's abandoned workers were still stopping when the deadline came; nothing ran.
    Busy,
    /// The work could not run: no thread could be started, or it panicked.
    Failed(String),
}

/// A worker's state, shared with its caller: whichever of "the worker is done" and "the caller
/// gave up" happens first wins, so the pool counts each abandoned worker exactly once.
const RUNNING: u8 = 0;
const DONE: u8 = 1;
const GIVEN_UP: u8 = 2;

/// Marks the worker done when its thread ends, even by a panic, and takes it out of the pool
/// if the caller had given up on it.
struct Finish {
    state: Arc<AtomicU8>,
    pool: &'static Pool,
}

impl Drop for Finish {
    fn drop(&mut self) {
        if self
            .state
            .compare_exchange(RUNNING, DONE, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            self.pool.running.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Runs `work` on a thread named `name` and waits for it until `deadline` or until `cancel` is
/// set; returns within about `POLL` of either. `work` gets a stop flag, raised when the caller
/// stops waiting, and should look at it (and at the deadline) as often as it can.
pub fn run<T, F>(
    name: &str,
    pool: &'static Pool,
    deadline: Instant,
    cancel: Option<&Arc<AtomicBool>>,
    work: F,
) -> Outcome<T>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
{
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    while pool.running.load(Ordering::Acquire) >= pool.max {
        if cancelled() {
            return Outcome::GaveUp { interrupted: true };
        }
        if Instant::now() >= deadline {
            return Outcome::Busy;
        }
        std::thread::sleep(POLL);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let state = Arc::new(AtomicU8::new(RUNNING));
    let (tx, rx) = mpsc::channel();
    let (worker_stop, finish) = (
        stop.clone(),
        Finish {
            state: state.clone(),
            pool,
        },
    );
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _finish = finish;
            let _ = tx.send(work(worker_stop));
        });
    if let Err(e) = spawned {
        return Outcome::Failed(format!("cannot start a thread: {e}"));
    }
    loop {
        let wait = POLL.min(deadline.saturating_duration_since(Instant::now()));
        match rx.recv_timeout(wait) {
            Ok(answer) => return Outcome::Done(answer),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Outcome::Failed("the worker stopped without an answer".into())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if cancelled() || Instant::now() >= deadline {
            stop.store(true, Ordering::Relaxed);
            // Counted before the state changes, so that the worker's decrement comes after it.
            pool.running.fetch_add(1, Ordering::AcqRel);
            if state
                .compare_exchange(RUNNING, GIVEN_UP, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
            {
                pool.running.fetch_sub(1, Ordering::AcqRel);
                if let Ok(answer) = rx.try_recv() {
                    return Outcome::Done(answer);
                }
            }
            return Outcome::GaveUp {
                interrupted: cancelled(),
            };
        }
    }
}
