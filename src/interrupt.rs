//! Ctrl-C: the first press asks every search to stop and keep what it finished; a second press
//! exits at once (safe, because every file is written to a temporary name and then renamed).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The process-wide cancellation flag, with the Ctrl-C handler installed on first use.
pub fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = flag.clone();
        // If a handler cannot be installed (another one exists), Ctrl-C keeps its default
        // behaviour of killing the process, which leaves no half-written file either.
        let _ = ctrlc::set_handler(move || {
            if seen.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        flag
    })
    .clone()
}

/// Whether Ctrl-C has been pressed.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}
