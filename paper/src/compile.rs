//! Running pdflatex on a written paper, within a time limit, and reading its errors back as
//! (line, message) pairs. The bibliography is a `thebibliography` in the document itself, so no
//! BibTeX run is needed: one pass, and a second for the citations and cross-references.

use std::os::unix::fs::PermissionsExt;
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
    Command::new("pdflatex")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The errors in pdflatex's log or terminal output: each `! message` with the `l.NN` line that
/// follows it (TeX's own way to say where), or a `file:NN: message` line.
pub fn errors_in(log: &str) -> Vec<LatexError> {
    let lines: Vec<&str> = log.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(msg) = l.strip_prefix("! ") {
            let line = lines[i + 1..].iter().take(40).find_map(|x| {
                x.strip_prefix("l.")
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok())
            });
            out.push(LatexError {
                line,
                message: msg.trim().to_string(),
            });
        }
    }
    out
}

/// Compiles `tex` (a file in `dir`) with pdflatex: nonstop, halting at the first error, twice
/// when the first pass succeeds (citations and references settle on the second). Returns the
/// PDF's path or the errors with their lines.
///
/// pdflatex writes its log, aux and PDF files where it runs, through any symbolic link planted
/// there, and leaves them behind. So it runs on a copy of `tex` in a fresh private directory
/// (mode 0700, removed afterwards), and only the PDF comes back into `dir`, through the library's
/// atomic writer: a run killed halfway leaves the last good PDF, never half of one.
pub fn pdflatex(dir: &Path, tex: &str) -> Compiled {
    if !pdflatex_installed() {
        return Compiled::NoPdflatex;
    }
    let fail = |message: String| {
        Compiled::Failed(vec![LatexError {
            line: None,
            message,
        }])
    };
    let stem = Path::new(tex)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| tex.to_string());
    let work = match tempfile::Builder::new()
        .prefix("birkhoff-paper-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
    {
        Ok(w) => w,
        Err(e) => {
            return fail(format!(
                "cannot make a private directory to compile in: {e}"
            ))
        }
    };
    // The .tex was just written by the caller, so its size needs no limit; a link is refused.
    let source = dir.join(tex);
    match birkhoff_library::atomic::read(&source, u64::MAX) {
        Ok(Some(text)) => {
            if let Err(e) = std::fs::write(work.path().join(format!("{stem}.tex")), text) {
                return fail(format!(
                    "cannot copy {} to {}: {e}",
                    source.display(),
                    work.path().display()
                ));
            }
        }
        Ok(None) => return fail(format!("{}: no such file", source.display())),
        Err(e) => return fail(e.to_string()),
    }
    for _ in 0..2 {
        if let Err(errors) = pass(work.path(), &stem) {
            return Compiled::Failed(errors);
        }
    }
    let (built, pdf) = (
        work.path().join(format!("{stem}.pdf")),
        dir.join(format!("{stem}.pdf")),
    );
    let bytes = match std::fs::read(&built) {
        Ok(b) => b,
        Err(e) => {
            return fail(format!(
                "pdflatex reported success but {} cannot be read: {e}",
                built.display()
            ))
        }
    };
    match birkhoff_library::atomic::write(&pdf, &bytes) {
        Ok(()) => Compiled::Pdf(pdf),
        Err(e) => fail(format!("cannot write the PDF: {e}")),
    }
}

/// One pdflatex pass on `dir/job.tex` (its PDF, log and aux files are `job.*`), killed at
/// [`PASS_TIME`].
fn pass(dir: &Path, job: &str) -> Result<(), Vec<LatexError>> {
    let fail = |message: String| {
        Err(vec![LatexError {
            line: None,
            message,
        }])
    };
    let mut child = match Command::new("pdflatex")
        .args([
            "-interaction=nonstopmode",
            "-halt-on-error",
            &format!("{job}.tex"),
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
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
                return fail(format!(
                    "pdflatex did not finish within {} s and was stopped",
                    PASS_TIME.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return fail(format!("waiting for pdflatex failed: {e}")),
        }
    };
    if status.success() {
        return Ok(());
    }
    // The log holds the whole message; the terminal output is discarded (it wraps lines).
    let log = std::fs::read(dir.join(format!("{job}.log")))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let errors = errors_in(&log);
    if errors.is_empty() {
        return fail(format!(
            "pdflatex failed ({status}) without an error message in its log"
        ));
    }
    Err(errors)
}
