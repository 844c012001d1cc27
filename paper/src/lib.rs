//! Birkhoff's paper writer: a discovery in the library written up as a LaTeX paper
//! (`birkhoff paper`, docs/PAPER.md), and compiled to PDF when pdflatex is installed.
//!
//! [`Paper::gather`] reads everything about one discovery from the library (its theory, spectrum,
//! models, conjectures with their stored proofs and countermodels, derivation and confirmed
//! references, and the placement among known classes that [`place_discovery`] stored), after
//! [`try_open_conjectures`] has tried to refute each open conjecture in the models held and by a
//! short countermodel search; [`Paper::to_latex`] and [`Paper::to_bibtex`]
//! write it; [`Paper::write`] puts OUTPUT.tex, references.bib and, when asked and possible,
//! OUTPUT.pdf in a directory, each file atomically. Every text that comes from the library passes through one escape function
//! ([`escape::text`]), every formula through one printer ([`math::Symbols::math`]), so that a
//! name made of TeX's special characters or of any unicode cannot break the compile. Proofs are
//! typeset only when they re-check from their own text (`readable::recheck`), and only
//! confirmed references (REF-NNN) are cited.
#![warn(missing_docs)]

mod bibtex;
pub mod compile;
pub mod escape;
mod gather;
mod latex;
pub mod math;
mod place;
mod structure;
mod tables;
mod trial;

pub use compile::{Compiled, LatexError};
pub use gather::{best_discovery, LiteratureSearch, Paper, Placement};
pub use place::place_discovery;
use std::path::{Path, PathBuf};
pub use structure::{structure_theorems, study_structure, survey_of, Study};
pub use trial::{try_open_conjectures, Trial, Tried};

/// The paper's file name, as the issue names it; references.bib and OUTPUT.pdf sit beside it.
pub const TEX_FILE: &str = "OUTPUT.tex";
/// The BibTeX file written beside the paper.
pub const BIB_FILE: &str = "references.bib";
/// Where papers go inside the library when no directory is given: `<library>/papers/<slug>/`.
pub const PAPERS_DIR: &str = "papers";

/// Why a paper could not be written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The library could not be read.
    #[error(transparent)]
    Library(#[from] birkhoff_library::Error),
    /// No theory has this ID, name or alias.
    #[error("no discovery called `{0}` in the library (give a name or a record ID as `birkhoff library search` lists them)")]
    NotFound(String),
    /// The ID is another kind of record.
    #[error("{id} is a {kind} record, not a theory (give a discovery's name or thy- ID)")]
    NotATheory {
        /// The ID given.
        id: String,
        /// Its kind.
        kind: String,
    },
    /// The stored theory text does not parse.
    #[error("the theory {id} does not parse: {message}")]
    BadTheory {
        /// The record ID.
        id: String,
        /// The parser's message.
        message: String,
    },
    /// The prover failed while placing the discovery among known classes (an internal error,
    /// such as two strategies that contradict each other).
    #[error("placing the discovery: {0}")]
    Placement(#[from] birkhoff_checker::finder::FinderError),
}

/// A shorthand for results with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Whether to run pdflatex after writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compile {
    /// Compile when pdflatex is on `PATH` (otherwise say so and write the .tex only).
    IfInstalled,
    /// Write the .tex and .bib only.
    No,
}

/// What [`Paper::write`] wrote.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// OUTPUT.tex.
    pub tex: PathBuf,
    /// references.bib.
    pub bib: PathBuf,
    /// The compile's result.
    pub compiled: Compiled,
}

/// A directory name from a discovery's name: lower-case ASCII letters, digits and `-`; the
/// record ID when nothing of the name is left. Never a path of more than one component.
pub fn slug(name: &str, id: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').chars().take(80).collect::<String>();
    if s.is_empty() {
        id.chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect()
    } else {
        s
    }
}

/// The default output directory of a discovery's paper: `<library>/papers/<slug>/`.
pub fn default_dir(library_root: &Path, paper: &Paper) -> PathBuf {
    library_root
        .join(PAPERS_DIR)
        .join(slug(&paper.record.name, &paper.id))
}

impl Paper {
    /// Writes OUTPUT.tex and references.bib into `dir` (created if missing), each atomically,
    /// then compiles OUTPUT.pdf if asked and pdflatex is installed. A LaTeX error is not an
    /// `Err`: it is in [`Outcome::compiled`] with its line, and the .tex stays for inspection.
    pub fn write(&self, dir: &Path, compile: Compile) -> Result<Outcome> {
        let io = |source| birkhoff_library::Error::Io {
            path: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        birkhoff_library::atomic::clean_partial(dir)?;
        let (tex, bib) = (dir.join(TEX_FILE), dir.join(BIB_FILE));
        birkhoff_library::atomic::write(&tex, self.to_latex().as_bytes())?;
        birkhoff_library::atomic::write(&bib, self.to_bibtex().as_bytes())?;
        let compiled = match compile {
            Compile::No => Compiled::NotAsked,
            Compile::IfInstalled => compile::pdflatex(dir, TEX_FILE),
        };
        Ok(Outcome { tex, bib, compiled })
    }
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn a_slug_is_one_safe_path_component() {
        assert_eq!(
            slug("QuasigroupWithCommutative", "thy-1"),
            "quasigroupwithcommutative"
        );
        assert_eq!(slug("Lοοp_ü∘ & x", "thy-1"), "l-p-x");
        assert_eq!(
            slug("../..", "thy-0123456789abcdef"),
            "thy-0123456789abcdef"
        );
        assert_eq!(slug("/", "../x"), "x");
    }
}
