//! Work in a child process that the caller kills at a deadline.
//!
//! Z3 4.8.12 is not safe to leave running beside the rest of the process. It notices an interrupt
//! late (a 20 s limit still running after 100 s), so a check abandoned on a thread kept a core
//! busy long after its caller had moved on. Its memory cap is process-wide: the first allocation
//! past it, in whichever thread, throws, and after that the process could not start another Z3
//! context at all. And a test binary running many checks at once twice died of a segmentation
//! fault inside libz3 (CI runs of db264a9 and fca315d), in a prover thread.
//!
//! [`run`] forks: the child does the work and writes its answer to a pipe, and the parent waits
//! until the answer comes, the deadline passes or the cancel flag is set. In the last two cases
//! it kills the child, at once. A crash, an abort or an exhausted memory cap in the child ends only
//! the child, and the caller hears "unknown" with the reason.
//!
//! A forked child holds only the thread that forked. A lock that another thread held at that
//! moment stays locked in the child, and the child waits on it until its deadline: an "unknown"
//! that more time would not change, but never a wrong answer, since the child computes on a
//! consistent copy of the caller's data. glibc's `malloc` is safe to use after `fork`.
//!
//! Elsewhere than on Unix the work runs on a thread of its own ([`crate::worker`]).

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What came of [`run`].
#[derive(Debug)]
pub enum Outcome<T> {
    /// The work finished in time and this is its answer.
    Done(T),
    /// The deadline passed, or (`interrupted`) the cancel flag was set, first; the work was
    /// stopped.
    GaveUp {
        /// The cancel flag, not the deadline, ended the wait.
        interrupted: bool,
        /// The last progress the work reported.
        progress: Option<u64>,
    },
    /// The work ended without an answer (a crash, an abort, a panic), or could not start.
    Failed {
        /// What happened.
        why: String,
        /// The last progress the work reported.
        progress: Option<u64>,
    },
}

/// Where the work reports how far it got (for example, the step it is on), so that the caller
/// can say where it stopped.
pub struct Progress(imp::Reporter);

impl Progress {
    /// Reports `at`; the last one reported before the work stops is the caller's.
    pub fn report(&self, at: u64) {
        self.0.report(at)
    }
}

/// The largest answer read from a child, in bytes: an answer is a verdict and its reason.
const MAX_ANSWER: usize = 1 << 20;

/// Runs `work` apart from the caller and waits for its answer until `deadline` or until `cancel`
/// is set; returns within a few milliseconds of either, having stopped the work.
pub fn run<T, F>(deadline: Instant, cancel: Option<&Arc<AtomicBool>>, work: F) -> Outcome<T>
where
    T: Serialize + DeserializeOwned + Send + 'static,
    F: FnOnce(&Progress) -> T + Send + 'static,
{
    imp::run(deadline, cancel, work)
}

#[cfg(unix)]
mod imp {
    use super::{Outcome, Progress, MAX_ANSWER};
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// How often the parent looks at the clock, the cancel flag and the child while no answer
    /// comes.
    const POLL: Duration = Duration::from_millis(5);

    /// A message's kind: how far the work got (a `u64`), or its answer (JSON).
    const PROGRESS: u8 = b'p';
    const ANSWER: u8 = b'a';

    /// A message's kind and length, before its bytes.
    const HEADER: usize = 9;

    /// The child's end of the pipe.
    pub(super) struct Reporter(libc::c_int);

    impl Reporter {
        pub(super) fn report(&self, at: u64) {
            self.send(PROGRESS, &at.to_le_bytes());
        }

        /// Writes one message: its kind, its length (8 bytes, little-endian) and its bytes. A
        /// failed write (the parent is gone) ends the child.
        fn send(&self, kind: u8, bytes: &[u8]) {
            let mut message = Vec::with_capacity(HEADER + bytes.len());
            message.push(kind);
            message.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            message.extend_from_slice(bytes);
            let mut rest = &message[..];
            while !rest.is_empty() {
                // SAFETY: `rest` is a live buffer of `rest.len()` bytes; the descriptor is ours.
                let wrote = unsafe { libc::write(self.0, rest.as_ptr().cast(), rest.len()) };
                if wrote < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                    continue;
                }
                if wrote <= 0 {
                    // SAFETY: ends this (child) process at once, running nothing of the parent's.
                    unsafe { libc::_exit(CHILD_FAILED) }
                }
                rest = &rest[wrote as usize..];
            }
        }
    }

    /// The child's exit status when its work panicked or it could not write its answer.
    const CHILD_FAILED: libc::c_int = 101;

    pub(super) fn run<T, F>(
        deadline: Instant,
        cancel: Option<&Arc<AtomicBool>>,
        work: F,
    ) -> Outcome<T>
    where
        T: Serialize + DeserializeOwned,
        F: FnOnce(&Progress) -> T,
    {
        let failed = |why: String| Outcome::Failed {
            why,
            progress: None,
        };
        let mut ends = [0; 2];
        // SAFETY: `ends` has room for the two descriptors pipe2 writes.
        if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return failed(format!(
                "cannot make a pipe: {}",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: pipe2 succeeded, so both are open descriptors that nothing else owns.
        let (read, write) =
            unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        let parent = std::process::id();
        // SAFETY: fork has no memory preconditions; the child below runs only `child`, which
        // never returns.
        match unsafe { libc::fork() } {
            -1 => failed(format!("cannot fork: {}", std::io::Error::last_os_error())),
            0 => child(parent, read, write, work),
            pid => {
                drop(write);
                // SAFETY: F_SETFL on our own open descriptor.
                unsafe { libc::fcntl(read.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
                wait(pid, read, deadline, cancel)
            }
        }
    }

    /// The child: does the work, writes its answer and exits without running anything of the
    /// parent's (no destructors, no `atexit` handlers, no buffered output).
    fn child<T: Serialize, F: FnOnce(&Progress) -> T>(
        parent: u32,
        read: OwnedFd,
        write: OwnedFd,
        work: F,
    ) -> ! {
        drop(read);
        // SAFETY: plain system calls on this process's own state.
        unsafe {
            // Ctrl-C reaches the whole process group; the parent, not the child's copy of its
            // handler, decides what it means, and kills the child.
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            // A child whose parent is gone (killed by anything) is killed too, on Linux; and
            // one whose parent went before that was asked ends here.
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() as u32 != parent {
                libc::_exit(CHILD_FAILED);
            }
        }
        let progress = Progress(Reporter(write.as_raw_fd()));
        let status =
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&progress))) {
                Ok(answer) => match serde_json::to_vec(&answer) {
                    Ok(bytes) => {
                        progress.0.send(ANSWER, &bytes);
                        0
                    }
                    Err(_) => CHILD_FAILED,
                },
                Err(_) => CHILD_FAILED,
            };
        // SAFETY: ends this process at once.
        unsafe { libc::_exit(status) }
    }

    /// The parent: reads the child's messages until its answer, its end, the deadline or the
    /// cancel flag, and always reaps it.
    fn wait<T: DeserializeOwned>(
        pid: libc::pid_t,
        read: OwnedFd,
        deadline: Instant,
        cancel: Option<&Arc<AtomicBool>>,
    ) -> Outcome<T> {
        let mut messages = Messages::default();
        let outcome = loop {
            let now = Instant::now();
            let cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
            if cancelled || now >= deadline {
                break Outcome::GaveUp {
                    interrupted: cancelled,
                    progress: messages.progress,
                };
            }
            let mut poll = libc::pollfd {
                fd: read.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let wait = POLL.min(deadline - now).as_millis().max(1) as libc::c_int;
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut poll, 1, wait) };
            if ready > 0 {
                if let Err(why) = messages.read_from(&read) {
                    break Outcome::Failed {
                        why,
                        progress: messages.progress,
                    };
                }
                if let Some(answered) = messages.answered() {
                    break answered;
                }
            }
            // A child that ended wrote everything first; one more look at the pipe, then why.
            if let Some(status) = ended(pid) {
                let _ = messages.read_from(&read);
                if let Some(answered) = messages.answered() {
                    return answered;
                }
                return Outcome::Failed {
                    why: status,
                    progress: messages.progress,
                };
            }
        };
        // SAFETY: `pid` is our child and not yet reaped, so the number is still its own.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        outcome
    }

    /// Whether the child has ended (and is reaped), and how, in words.
    fn ended(pid: libc::pid_t) -> Option<String> {
        let mut status = 0;
        // SAFETY: `status` is a live int; `pid` is our child.
        if unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } != pid {
            return None;
        }
        Some(if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            // SAFETY: strsignal returns a static or thread-local string for any number.
            let name = unsafe { std::ffi::CStr::from_ptr(libc::strsignal(signal)) };
            format!(
                "it was killed by signal {signal} ({})",
                name.to_string_lossy()
            )
        } else {
            format!(
                "it stopped without an answer (exit status {})",
                libc::WEXITSTATUS(status)
            )
        })
    }

    /// The messages read so far from a child.
    #[derive(Default)]
    struct Messages {
        buffer: Vec<u8>,
        progress: Option<u64>,
        answer: Option<Vec<u8>>,
    }

    impl Messages {
        /// The child's answer, read, once it has come.
        fn answered<T: DeserializeOwned>(&mut self) -> Option<Outcome<T>> {
            let answer = self.answer.take()?;
            Some(match serde_json::from_slice(&answer) {
                Ok(answer) => Outcome::Done(answer),
                Err(e) => Outcome::Failed {
                    why: format!("its answer did not read: {e}"),
                    progress: self.progress,
                },
            })
        }

        /// Reads what the pipe holds now (its read end does not block), taking out every whole
        /// message as it comes, so that the buffer never holds more than one message.
        fn read_from(&mut self, read: &OwnedFd) -> Result<(), String> {
            let mut chunk = [0u8; 1 << 16];
            loop {
                // SAFETY: `chunk` is a live buffer of its length; the descriptor is ours.
                let got =
                    unsafe { libc::read(read.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len()) };
                if got < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                    continue;
                }
                if got <= 0 {
                    return Ok(()); // nothing more for now (EAGAIN), or every writer is gone
                }
                self.buffer.extend_from_slice(&chunk[..got as usize]);
                self.take_messages()?;
            }
        }

        /// Takes the whole messages out of the buffer.
        fn take_messages(&mut self) -> Result<(), String> {
            while self.buffer.len() >= HEADER {
                let kind = self.buffer[0];
                let length =
                    u64::from_le_bytes(self.buffer[1..HEADER].try_into().expect("8 bytes"));
                if length > MAX_ANSWER as u64 {
                    return Err(format!("its answer is longer than {MAX_ANSWER} bytes"));
                }
                let end = HEADER + length as usize;
                if self.buffer.len() < end {
                    break;
                }
                let body = self.buffer[HEADER..end].to_vec();
                self.buffer.drain(..end);
                match (kind, <[u8; 8]>::try_from(&body[..])) {
                    (PROGRESS, Ok(at)) => self.progress = Some(u64::from_le_bytes(at)),
                    (ANSWER, _) => self.answer = Some(body),
                    _ => return Err(format!("it wrote a message of unknown kind {kind}")),
                }
            }
            Ok(())
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{Outcome, Progress};
    use crate::worker;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    /// No progress yet.
    const NONE: u64 = u64::MAX;

    /// Checks left running after their caller stopped waiting.
    static ABANDONED: worker::Pool = worker::Pool::new(2);

    pub(super) struct Reporter(Arc<AtomicU64>);

    impl Reporter {
        pub(super) fn report(&self, at: u64) {
            self.0.store(at.min(NONE - 1), Ordering::Relaxed);
        }
    }

    pub(super) fn run<T, F>(
        deadline: Instant,
        cancel: Option<&Arc<AtomicBool>>,
        work: F,
    ) -> Outcome<T>
    where
        T: Send + 'static,
        F: FnOnce(&Progress) -> T + Send + 'static,
    {
        let at = Arc::new(AtomicU64::new(NONE));
        let reporter = Progress(Reporter(at.clone()));
        let outcome = worker::run("isolated", &ABANDONED, deadline, cancel, move |_| {
            work(&reporter)
        });
        let progress = Some(at.load(Ordering::Relaxed)).filter(|&p| p != NONE);
        match outcome {
            worker::Outcome::Done(answer) => Outcome::Done(answer),
            worker::Outcome::GaveUp { interrupted } => Outcome::GaveUp {
                interrupted,
                progress,
            },
            worker::Outcome::Busy => Outcome::Failed {
                why: "earlier work was still stopping".into(),
                progress,
            },
            worker::Outcome::Failed(why) => Outcome::Failed { why, progress },
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Whether process `pid` exists (a zombie counts): `kill(pid, 0)` succeeds.
    fn exists(pid: u64) -> bool {
        // SAFETY: signal 0 only asks whether the process exists.
        unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
    }

    /// `outcome` gave up (`interrupted` as said) and the child, whose pid the work reported, is
    /// gone.
    fn assert_stopped(outcome: Outcome<()>, interrupted: bool) {
        match outcome {
            Outcome::GaveUp {
                interrupted: was,
                progress: Some(pid),
            } if was == interrupted => assert!(!exists(pid), "the child {pid} is still there"),
            other => panic!("{other:?}"),
        }
    }

    fn own_pid() -> u64 {
        std::process::id() as u64
    }

    #[test]
    fn the_answer_comes_back_from_another_process() {
        let parent = own_pid();
        let deadline = Instant::now() + Duration::from_secs(20);
        match run(deadline, None, move |_| {
            (own_pid() != parent, vec!["x".repeat(100_000); 3])
        }) {
            Outcome::Done((elsewhere, long)) => {
                assert!(elsewhere, "the work ran in the caller's process");
                assert_eq!(long.len(), 3);
                assert_eq!(long[2].len(), 100_000);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn work_past_its_deadline_is_killed_at_once_and_says_how_far_it_got() {
        let started = Instant::now();
        let outcome: Outcome<()> = run(started + Duration::from_millis(300), None, |progress| {
            progress.report(own_pid());
            loop {
                std::hint::spin_loop();
            }
        });
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the caller waited for the work"
        );
        assert_stopped(outcome, false);
    }

    #[test]
    fn the_cancel_flag_stops_the_work() {
        let cancel = Arc::new(AtomicBool::new(false));
        let setter = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            setter.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let deadline = Instant::now() + Duration::from_secs(600);
        let outcome: Outcome<()> = run(deadline, Some(&cancel), |progress| {
            progress.report(own_pid());
            std::thread::sleep(Duration::from_secs(600));
        });
        assert_stopped(outcome, true);
    }

    #[test]
    fn a_crash_or_a_panic_in_the_work_is_a_failure_with_its_reason_not_the_callers() {
        let deadline = Instant::now() + Duration::from_secs(20);
        let crashed: Outcome<()> = run(deadline, None, |progress| {
            progress.report(7);
            // SAFETY: ends this (child) process by the signal a wild read would raise.
            // The default action first: std's own handler returns from a raised
            // (not faulted) SIGSEGV, where a real fault would re-run and die.
            unsafe {
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::raise(libc::SIGSEGV);
            }
        });
        match crashed {
            Outcome::Failed {
                why,
                progress: Some(7),
            } => assert!(why.contains("signal 11"), "{why}"),
            other => panic!("{other:?}"),
        }
        let panicked: Outcome<()> = run(deadline, None, |_| panic!("on purpose"));
        match panicked {
            Outcome::Failed {
                why,
                progress: None,
            } => assert!(why.contains("exit status 101"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
