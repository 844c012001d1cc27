//! How the process starts and ends, in place of Rust's runtime start (`fn main` through
//! `lang_start`).
//!
//! A small `find` is over in about 2 ms, of which the runtime's own start and end took 7%
//! (docs/BENCHMARKS.md, issue 24): at start it reads /proc/self/maps to place the main thread's
//! stack guard and maps an alternate signal stack for its stack-overflow message; at exit it
//! unmaps that stack again and runs the exit handlers, where mimalloc hands every free page back
//! to the kernel one `madvise` at a time, just before the kernel takes all of them anyway.
//!
//! What the runtime gave that a command needs is done here: the standard streams are open
//! (so that no file the command opens becomes its stdout), SIGPIPE ends the process as it does
//! a Unix tool, a panic exits with 101 after its message, and stdout is flushed. What is given
//! up: the "has overflowed its stack" message before a stack overflow kills the process (it
//! still dies of the signal), and the main thread's name "main" in a panic message.

use std::io::Write;

/// Runs `command` as the whole process and exits with the code it returns, or 101 if it panics.
/// Never returns: the exit skips the C exit handlers, whose only work left is freeing memory.
/// `command` must not leave anything to be done by them: every file it writes is closed (and
/// renamed into place) before it returns, as every value it owns is dropped.
pub fn run_to_exit(command: impl FnOnce() -> u8 + std::panic::UnwindSafe) -> ! {
    open_missing_standard_streams();
    restore_default_sigpipe();
    let code = std::panic::catch_unwind(command).map_or(101, i32::from);
    // What is still buffered for a terminal's line (stdout is line-buffered); a reader that has
    // gone leaves nothing more to do.
    let _ = std::io::stdout().flush();
    // SAFETY: `_exit` ends the process at once; nothing of Rust's is left to run (see above).
    unsafe { libc::_exit(code) }
}

/// Opens /dev/null in the place of any of stdin, stdout and stderr that the parent left closed,
/// as Rust's runtime does: otherwise the first file the command opens would take descriptor 1,
/// and its output would be written into that file.
fn open_missing_standard_streams() {
    for fd in 0..3 {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
        // SAFETY: a constant NUL-terminated path; open returns the lowest free descriptor, `fd`.
        if closed && unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } != fd {
            // No safe place for output exists, and nothing has been written yet.
            std::process::abort();
        }
    }
}

/// Lets `birkhoff models ... | head` end quietly, as Unix tools do, instead of failing on a write
/// error when the reader closes the pipe (the parent may have set SIGPIPE to be ignored).
fn restore_default_sigpipe() {
    // SAFETY: called before any other thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
