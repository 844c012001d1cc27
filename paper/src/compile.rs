//! Running pdflatex on a written paper, within a time limit, and reading its errors back as
//! (line, message) pairs. The bibliography is a `thebibliography` in the document itself, so no
//! BibTeX run is needed: one pass, and a second for the citations and cross-references.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one pdflatex pass may take before it is killed.
pub const PASS_TIME: Duration = Duration::from_secs(120);

/// One LaTeX error: the line of the .tex file it was found at (when pdflatex said) and its
/// message.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LatexError {
    /// The line in the .tex file, from pdflatex's `l.NN` (or `file:NN:` with -file-line-error).
    pub line: Option<usize>,
    /// The message after `!`.
    pub message: String,
}

impl std::fmt::Display for LatexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

/// What compiling did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Compiled {
    /// Not asked for.
    NotAsked,
    /// pdflatex is not on `PATH`.
    NoPdflatex,
    /// The PDF was written.
    Pdf(PathBuf),
    /// pdflatex stopped with errors (or ran out of time); the .tex stays for inspection.
    Failed(Vec<LatexError>),
}

/// Whether `pdflatex` is on `PATH`.
pub fn pdflatex_installed() -> bool {
    Command::new("pdflatex").arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// The errors in pdflatex's log or terminal output: each `! message` with the `l.NN` line that
/// follows it (TeX's own way to say where), or a `file:NN: message` line.
pub fn errors_in(log: &str) -> Vec<LatexError> {
    let lines: Vec<&str> = log.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(msg) = l.strip_prefix("! ") {
            let line = lines[i + 1..].iter().take(40).find_map(|x| x.strip_prefix("l.").and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).and_then(|n| n.parse().ok()));
            out.push(LatexError { line, message: msg.trim().to_string() });
        }
    }
    out
}

/// Compiles `tex` (a file in `dir`) with pdflatex in `dir`: nonstop, halting at the first error,
/// twice when the first pass succeeds (citations and references settle on the second). Returns
/// the PDF's path or the errors with their lines.
///
/// pdflatex writes its PDF as it goes, so it works under another job name (`OUTPUT.partial.pdf`)
/// and the finished PDF is renamed into place: a run killed halfway leaves the last good
/// `OUTPUT.pdf`, never half of one.
pub fn pdflatex(dir: &Path, tex: &str) -> Compiled {
    if !pdflatex_installed() {
        return Compiled::NoPdflatex;
    }
    let stem = Path::new(tex).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| tex.to_string());
    let job = format!("{stem}.partial");
    for _ in 0..2 {
        match pass(dir, tex, &job) {
            Ok(()) => {}
            Err(errors) => return Compiled::Failed(errors),
        }
    }
    let (partial, pdf) = (dir.join(format!("{job}.pdf")), dir.join(format!("{stem}.pdf")));
    if !partial.is_file() {
        return Compiled::Failed(vec![LatexError { line: None, message: format!("pdflatex reported success but wrote no {}", partial.display()) }]);
    }
    match std::fs::rename(&partial, &pdf) {
        Ok(()) => Compiled::Pdf(pdf),
        Err(e) => Compiled::Failed(vec![LatexError { line: None, message: format!("cannot move {} to {}: {e}", partial.display(), pdf.display()) }]),
    }
}

/// One pdflatex pass under job name `job` (its PDF, log and aux files are `job.*`), killed at
/// [`PASS_TIME`].
fn pass(dir: &Path, tex: &str, job: &str) -> Result<(), Vec<LatexError>> {
    let fail = |message: String| Err(vec![LatexError { line: None, message }]);
    let jobname = format!("-jobname={job}");
    let mut child = match Command::new("pdflatex").args(["-interaction=nonstopmode", "-halt-on-error", &jobname, tex]).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => return fail(format!("pdflatex did not start: {e}")),
    };
    let deadline = Instant::now() + PASS_TIME;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return fail(format!("pdflatex did not finish within {} s and was stopped", PASS_TIME.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return fail(format!("waiting for pdflatex failed: {e}")),
        }
    };
    if status.success() {
        return Ok(());
    }
    // The log holds the whole message; the terminal output is discarded (it wraps lines).
    let log = std::fs::read(dir.join(format!("{job}.log"))).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let errors = errors_in(&log);
    if errors.is_empty() {
        return fail(format!("pdflatex failed ({status}) without an error message in its log"));
    }
    Err(errors)
}
