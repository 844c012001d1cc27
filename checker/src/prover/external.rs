//! Other provers as witnesses: E, cvc5, Vampire or Prover9, run on the problem Birkhoff writes.
//!
//! [`ask`] writes the theory and goal with Birkhoff's own writer (TPTP for E, cvc5 and Vampire,
//! LADR for Prover9), runs the prover found on `PATH` under the time limit (killed at the
//! deadline, or on Ctrl-C), and reads its answer: the SZS status line (`% SZS status Theorem`),
//! or Prover9's `THEOREM PROVED`. The answer is *evidence*, never a certificate: nothing of the
//! prover's proof is replayed. `Theorem` (and `Unsatisfiable`: the axioms with the negated goal
//! have no model) counts as proved, `CounterSatisfiable` as disproved, and `ContradictoryAxioms`
//! is reported as what it is: the axioms alone have no model, which proves nothing about the
//! goal a user meant; everything else, a timeout included, is unknown. Only the problem written here is ever
//! judged, so a `Theorem` speaks about exactly this theory and goal.

use birkhoff_engine::interop::{self, Target};
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::Theory;
use serde::Serialize;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A prover Birkhoff knows how to call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Prover {
    /// E (Debian: `eprover`).
    #[serde(rename = "eprover")]
    E,
    /// cvc5 (Debian: `cvc5`).
    Cvc5,
    /// Vampire, if on `PATH`.
    Vampire,
    /// Prover9, if on `PATH` (reads LADR).
    Prover9,
}

impl Prover {
    /// Every prover, in the order `birkhoff prove --help` lists them.
    pub const ALL: [Prover; 4] = [Prover::E, Prover::Cvc5, Prover::Vampire, Prover::Prover9];

    /// The prover called `name` (`eprover` or `e`, `cvc5`, `vampire`, `prover9`).
    pub fn named(name: &str) -> Option<Prover> {
        match name.to_ascii_lowercase().as_str() {
            "e" | "eprover" => Some(Prover::E),
            "cvc5" => Some(Prover::Cvc5),
            "vampire" => Some(Prover::Vampire),
            "prover9" => Some(Prover::Prover9),
            _ => None,
        }
    }

    /// The program's name on `PATH`.
    pub fn program(self) -> &'static str {
        match self {
            Prover::E => "eprover",
            Prover::Cvc5 => "cvc5",
            Prover::Vampire => "vampire",
            Prover::Prover9 => "prover9",
        }
    }

    /// How to install it, for the error when it is missing.
    fn install_hint(self) -> &'static str {
        match self {
            Prover::E => "on Debian: apt-get install eprover",
            Prover::Cvc5 => "on Debian: apt-get install cvc5",
            Prover::Vampire => "Vampire is not packaged by Debian: put a `vampire` binary on PATH",
            Prover::Prover9 => "build Prover9 (LADR) from its source and put `prover9` on PATH",
        }
    }

    /// The arguments for a problem file and a time limit in whole seconds (at least 1).
    fn arguments(self, file: &Path, seconds: u64) -> Vec<String> {
        let file = file.display().to_string();
        match self {
            Prover::E => vec![
                "--auto".into(),
                "--tstp-format".into(),
                "-s".into(),
                format!("--cpu-limit={seconds}"),
                file,
            ],
            // Enumerative instantiation after e-matching: without it cvc5 gives up at once on
            // equational theorems as small as inv(inv(x)) = x in groups.
            Prover::Cvc5 => vec![
                "--lang=tptp".into(),
                "--full-saturate-quant".into(),
                format!("--tlimit={}", seconds * 1000),
                file,
            ],
            Prover::Vampire => vec![
                "--mode".into(),
                "casc".into(),
                "-t".into(),
                seconds.to_string(),
                file,
            ],
            Prover::Prover9 => vec!["-t".into(), seconds.to_string(), "-f".into(), file],
        }
    }
}

/// What the external prover's answer amounts to: its claim, in the words of [`super::Verdict`]
/// but unchecked (no certificate, no countermodel), so it is evidence and never a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The prover reports that the theory implies the goal.
    Proved,
    /// The prover reports that it does not (SZS `CounterSatisfiable`).
    Disproved,
    /// The prover reports that the axioms alone have no model (SZS `ContradictoryAxioms`). The
    /// goal then follows vacuously, which is never reported as a proof of it.
    ContradictoryAxioms,
    /// Anything else: gave up, ran out of time or memory, or said nothing Birkhoff reads.
    Unknown,
}

/// An external prover's answer, with who gave it.
#[derive(Clone, Debug, Serialize)]
pub struct Evidence {
    /// Which prover.
    pub prover: Prover,
    /// The first line of its `--version` output.
    pub version: String,
    /// The SZS status it printed (`Theorem`, `GaveUp`, ...), or `Timeout` when Birkhoff stopped it.
    pub status: String,
    /// What the status amounts to.
    pub claim: Claim,
    /// Wall-clock seconds the prover ran.
    pub seconds: f64,
}

/// Why an external prover could not be asked.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// No such prover is known.
    #[error("unknown prover `{0}`: Birkhoff calls eprover, cvc5, vampire and prover9")]
    Unknown(String),
    /// The program is not on `PATH`.
    #[error("{program} is not on PATH ({hint})")]
    NotFound {
        /// The program's name.
        program: &'static str,
        /// How to get it.
        hint: &'static str,
    },
    /// The problem cannot be written for this prover.
    #[error("{0}")]
    Problem(String),
    /// Running it failed.
    #[error("{program}: {detail}")]
    Run {
        /// The program's name.
        program: &'static str,
        /// What went wrong.
        detail: String,
    },
}

/// The program's path, searching `PATH` as a shell does.
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// The SZS status a prover printed: the word after `SZS status` on the first line that has one.
pub fn szs_status(output: &str) -> Option<String> {
    output.lines().find_map(|l| {
        l.split_once("SZS status ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .map(str::to_string)
    })
}

/// What an SZS status claims about `axioms ⊨ goal`.
pub fn claim_of(status: &str) -> Claim {
    match status {
        "Theorem" | "Unsatisfiable" => Claim::Proved,
        "ContradictoryAxioms" => Claim::ContradictoryAxioms,
        "CounterSatisfiable" => Claim::Disproved,
        _ => Claim::Unknown,
    }
}

/// Asks `prover` whether `theory` implies `goal`, within `timeout` (wall clock, including start
/// up). The problem is Birkhoff's own export of exactly this theory and goal.
pub fn ask(
    prover: Prover,
    theory: &Theory,
    goal: &Axiom,
    timeout: Duration,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Evidence, ExternalError> {
    let program = prover.program();
    let path = find_on_path(program).ok_or(ExternalError::NotFound {
        program,
        hint: prover.install_hint(),
    })?;
    let target = if prover == Prover::Prover9 {
        Target::Ladr
    } else {
        Target::Tptp
    };
    let problem = interop::export(theory, Some(goal), target)
        .map_err(|e| ExternalError::Problem(format!("{program}: {e}")))?;
    let version = version(&path, prover);
    let file = ProblemFile::write(&problem, if target == Target::Tptp { "p" } else { "in" })
        .map_err(|e| ExternalError::Run {
            program,
            detail: format!("cannot write the problem file: {e}"),
        })?;
    let seconds = timeout.as_secs_f64().ceil().max(1.0) as u64;
    let start = Instant::now();
    let run = run_until(
        &path,
        &prover.arguments(&file.0, seconds),
        start + timeout,
        cancel,
    )
    .map_err(|detail| ExternalError::Run { program, detail })?;
    let elapsed = start.elapsed().as_secs_f64();
    let status = match run {
        Run::Finished(out) => match prover {
            Prover::Prover9 if out.contains("THEOREM PROVED") => "Theorem".to_string(),
            Prover::Prover9 => "GaveUp".to_string(),
            _ => szs_status(&out).unwrap_or_else(|| "Unknown".to_string()),
        },
        Run::Stopped { interrupted: true } => "Interrupted".to_string(),
        Run::Stopped { interrupted: false } => "Timeout".to_string(),
    };
    Ok(Evidence {
        prover,
        version,
        claim: claim_of(&status),
        status,
        seconds: elapsed,
    })
}

/// What E made of a problem given to [`refute_with_e`].
pub enum Refutation {
    /// E found the problem unsatisfiable and printed its derivation.
    Found {
        /// Everything E printed, the derivation between its `SZS output` lines.
        output: String,
        /// E's version line.
        version: String,
    },
    /// No refutation: E's SZS status, or why it stopped.
    NotFound {
        /// The status, such as `Satisfiable`, `GaveUp` or `Timeout`.
        status: String,
        /// Whether the deadline or Ctrl-C stopped it (more time may decide).
        at_limit: bool,
    },
}

/// Runs E on `problem`, a TPTP problem without a conjecture, within `timeout`, asking for its
/// derivation (`--proof-object`) when it finds the problem unsatisfiable. E's answer is not
/// trusted here: [`super::replayed`] checks the derivation step by step.
pub fn refute_with_e(
    problem: &str,
    timeout: Duration,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Refutation, ExternalError> {
    let prover = Prover::E;
    let program = prover.program();
    let path = find_on_path(program).ok_or(ExternalError::NotFound {
        program,
        hint: prover.install_hint(),
    })?;
    let file = ProblemFile::write(problem, "p").map_err(|e| ExternalError::Run {
        program,
        detail: format!("cannot write the problem file: {e}"),
    })?;
    let mut args = prover.arguments(&file.0, timeout.as_secs_f64().ceil().max(1.0) as u64);
    args.insert(0, "--proof-object".into());
    let run = run_until(&path, &args, Instant::now() + timeout, cancel)
        .map_err(|detail| ExternalError::Run { program, detail })?;
    Ok(match run {
        Run::Finished(output) => {
            let status = szs_status(&output).unwrap_or_else(|| "Unknown".to_string());
            if status == "Unsatisfiable" && output.contains("SZS output start") {
                Refutation::Found {
                    output,
                    version: version(&path, prover),
                }
            } else {
                Refutation::NotFound {
                    status,
                    at_limit: false,
                }
            }
        }
        Run::Stopped { interrupted } => Refutation::NotFound {
            status: if interrupted {
                "Interrupted"
            } else {
                "Timeout"
            }
            .to_string(),
            at_limit: true,
        },
    })
}

/// The first line the program prints for `--version` (Prover9: for `--help`).
fn version(path: &Path, prover: Prover) -> String {
    let flag = if prover == Prover::Prover9 {
        "--help"
    } else {
        "--version"
    };
    let out = Command::new(path).arg(flag).stdin(Stdio::null()).output();
    out.ok()
        .and_then(|o| {
            version_line(
                &(String::from_utf8_lossy(&o.stdout).into_owned()
                    + &String::from_utf8_lossy(&o.stderr)),
            )
        })
        .unwrap_or_else(|| format!("{} (version unknown)", prover.program()))
}

/// The first line of a version or help text that says something: Prover9 opens its help with a
/// rule of `=` signs around its name, and the version is on the next line.
fn version_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('='))
        .map(str::to_string)
}

/// A problem in a temporary file, removed when dropped.
struct ProblemFile(PathBuf);

impl ProblemFile {
    fn write(text: &str, extension: &str) -> std::io::Result<ProblemFile> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("birkhoff-{}-{n}.{extension}", std::process::id()));
        std::fs::write(&path, text)?;
        Ok(ProblemFile(path))
    }
}

impl Drop for ProblemFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

enum Run {
    /// Its standard output and error, together.
    Finished(String),
    /// Killed at the deadline or on Ctrl-C.
    Stopped { interrupted: bool },
}

/// Runs the program, killing it at the deadline or when `cancel` is raised. Output is read on
/// threads of its own (capped at 16 MiB each) so that a full pipe never blocks the prover.
fn run_until(
    path: &Path,
    args: &[String],
    deadline: Instant,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Run, String> {
    let mut child = Command::new(path)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(p) = pipe {
                let _ = p.take(16 << 20).read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stopped = loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break None;
        }
        let interrupted = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if interrupted || Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break Some(interrupted);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = out.join().unwrap_or_default() + &err.join().unwrap_or_default();
    Ok(match stopped {
        Some(interrupted) => Run::Stopped { interrupted },
        None => Run::Finished(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn szs_lines_are_read_and_only_theorem_like_ones_prove() {
        assert_eq!(
            szs_status("# Proof found!\n# SZS status Theorem\n").as_deref(),
            Some("Theorem")
        );
        assert_eq!(
            szs_status("% SZS status GaveUp for c\n").as_deref(),
            Some("GaveUp")
        );
        assert_eq!(szs_status("nothing here"), None);
        assert_eq!(claim_of("Theorem"), Claim::Proved);
        assert_eq!(claim_of("CounterSatisfiable"), Claim::Disproved);
        assert_eq!(claim_of("ContradictoryAxioms"), Claim::ContradictoryAxioms);
        for s in [
            "GaveUp",
            "Timeout",
            "ResourceOut",
            "Satisfiable",
            "Unknown",
            "InputError",
        ] {
            assert_eq!(claim_of(s), Claim::Unknown, "{s}");
        }
        assert_eq!(Prover::named("E"), Some(Prover::E));
        assert_eq!(Prover::named("z3"), None);
    }

    #[test]
    fn prover9s_version_is_read_past_its_banner() {
        let help = "============================== Prover9 ===============================\nProver9 (64) version 2009-11A, November 2009.\n";
        assert_eq!(
            version_line(help).as_deref(),
            Some("Prover9 (64) version 2009-11A, November 2009.")
        );
        assert_eq!(
            version_line("\nE 2.6 Floral Guranse\n").as_deref(),
            Some("E 2.6 Floral Guranse")
        );
    }
}
