//! The paper writer's tests, as one test binary: escaping and nasty names through pdflatex,
//! confirmed references only, LaTeX errors with their lines, typeset proofs that re-check, and
//! what a referee would flag (brackets, open conjectures tried, countermodels once, related work).
//!
//! Tests that compile need pdflatex (and pdftotext). Without them a test says so and passes,
//! unless `BIRKHOFF_REQUIRE_PDFLATEX=1` (set by `.ci/run`), which makes a missing pdflatex a
//! failure.

mod compile;
mod nasty;
mod proofs;
mod referee;
mod references;
mod structure;

use birkhoff_library::record::{Body, Record, TheoryRec};
use birkhoff_library::Library;
use std::path::Path;

/// Whether pdflatex and pdftotext are installed; when not, a note (or a failure when they are
/// required).
pub fn pdflatex_or_skip(test: &str) -> bool {
    let have = |p: &str| std::process::Command::new(p).arg("-v").output().is_ok();
    if have("pdflatex") && have("pdftotext") {
        return true;
    }
    assert!(std::env::var("BIRKHOFF_REQUIRE_PDFLATEX").as_deref() != Ok("1"), "BIRKHOFF_REQUIRE_PDFLATEX=1 but pdflatex or pdftotext is missing (Debian: texlive-latex-base texlive-latex-recommended texlive-pictures poppler-utils)");
    eprintln!("SKIPPED {test}: needs pdflatex and pdftotext; set BIRKHOFF_REQUIRE_PDFLATEX=1 to make this a failure");
    false
}

/// The paper written into `dir` and compiled, as pdftotext reads it; `None` (after a note) when
/// pdflatex is not installed. A paper that does not compile fails the test.
pub fn compiled_text(paper: &birkhoff_paper::Paper, dir: &Path, test: &str) -> Option<String> {
    if !pdflatex_or_skip(test) {
        return None;
    }
    let out = paper
        .write(dir, birkhoff_paper::Compile::IfInstalled)
        .unwrap();
    let birkhoff_paper::Compiled::Pdf(pdf) = out.compiled else {
        panic!("did not compile: {:?}", out.compiled)
    };
    Some(pdf_text(&pdf))
}

/// The text of a PDF, by pdftotext.
pub fn pdf_text(pdf: &Path) -> String {
    let o = std::process::Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    assert!(o.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stores a theory record for `text` under `name` (a discovery), with its real fingerprint.
pub fn put_theory(
    lib: &mut Library,
    name: &str,
    text: &str,
    notes: &str,
    parents: Vec<String>,
) -> Record {
    let t = birkhoff_engine::Theory::parse(text, "test").expect("the test theory parses");
    let rec = TheoryRec {
        name: name.into(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: notes.into(),
        parents,
        discovery: true,
        notes: notes.into(),
        score: None,
        aliases: vec![],
        presentations: vec![],
    };
    lib.put(Body::Theory(rec)).expect("stored").0
}
