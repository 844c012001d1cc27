//! Ctrl-C: the first press asks every search to stop and keep what it finished; a second press
//! exits at once (safe, because every file is written to a temporary name and then renamed).
//!
//! The signal handler only reads and sets an atomic flag (signal-hook's `flag` module), so no
//! thread waits for the signal: a small `find` would otherwise start one just for this.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The process-wide cancellation flag, with the Ctrl-C handler installed on first use.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        // Registered first, so it runs first: it exits with 130 only when the flag was already
        // set by an earlier press. If a handler cannot be installed, Ctrl-C keeps its default
        // behaviour of killing the process, which leaves no half-written file either.
        let _ = signal_hook::flag::register_conditional_shutdown(
            signal_hook::consts::SIGINT,
            130,
            flag.clone(),
        );
        let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone());
        flag
    })
    .clone()
}

/// Whether Ctrl-C has been pressed.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}
