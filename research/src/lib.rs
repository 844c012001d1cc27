//! A discovery's research workspace: where Birkhoff takes a discovery from "found" towards
//! "written up" (docs/RESEARCH.md).
//!
//! `research open` makes `<library>/research/<slug>/` with PROBLEM.md, LITERATURE.md, PROOF.md,
//! COMPUTATION.md, STATE.md and SYNTHESIS.md ([`workspace`]). The research state is a set of
//! records, one YAML file each ([`record`]: leads, attempts, hypotheses, tasks), validated
//! against a schema with every fault named by file and field. SYNTHESIS.md is rendered from the
//! records alone, byte for byte the same on every run (`synth`). STATE.md holds the state
//! machine's verdict, a pure function of what the workspace and the library hold ([`route`]),
//! and [`steps`] runs the step it routes to, deterministically: the literature agent's search,
//! the open hypotheses against the prover with a larger budget, the spectrum to a larger size.
//! The files are the truth; the library's SQLite index holds SYNTHESIS.md and the records as
//! text, so `library search` finds them.
#![warn(missing_docs)]

pub mod record;
mod state;
pub mod steps;
mod synth;
pub use birkhoff_library::text;
pub mod workspace;

pub use record::{Kind, Phase, Problem, Record};
pub use state::{route, Facts, Route};
pub use workspace::Workspace;

/// Everything that can go wrong in the research workspace.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The library failed (its files or its index).
    #[error(transparent)]
    Library(#[from] birkhoff_library::Error),
    /// A workspace file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// No discovery of that name or ID.
    #[error("no discovery `{0}` in the library (give a discovery's name, an alias, or its thy-... ID; `birkhoff report --top 10` lists them)")]
    NoDiscovery(String),
    /// A workspace name that is not a slug, or no workspace of that name.
    #[error("no research workspace `{0}` (workspaces are directories under <library>/research/; `birkhoff research status` lists them)")]
    NoWorkspace(String),
    /// The workspace's files are not in a state the command can use.
    #[error("{0}")]
    Workspace(String),
    /// The workspace's records break the schema: each problem names its file and field.
    #[error("{} record problem(s), first: {}", .0.len(), .0.first().map(ToString::to_string).unwrap_or_default())]
    Invalid(Vec<Problem>),
    /// A step could not run.
    #[error("{0}")]
    Step(String),
}

/// Results of research operations.
pub type Result<T> = std::result::Result<T, Error>;

/// Wraps an I/O error with the path it concerns.
pub(crate) fn io_err(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`: the one clock records are stamped with.
pub fn now() -> String {
    birkhoff_literature::synth::iso(birkhoff_library::time::now())
}
