//! Birkhoff's library: the persistent store of theories, spectra, models, conjectures, proofs
//! and cycle reports.
//!
//! **Files are the source of truth.** Every record is one JSON file under the library directory
//! (`theories/`, `spectra/`, `models/`, `conjectures/`, `proofs/`, `placements/`), named by a stable
//! content-derived ID ([`id`]), written atomically ([`atomic`]) under an exclusive lock
//! ([`lock`]). Cycle reports are numbered files in `reports/` that are never overwritten. A SQLite
//! index ([`index`], FTS5) serves search; it is derived from the files, kept in step on every
//! write and rebuilt from them by [`Library::reindex`]; it also holds the text of [`documents`] other
//! crates keep in the library (research workspaces), so that search finds them. [`backtest`] re-verifies what is stored.
#![warn(missing_docs)]

pub mod atomic;
pub mod backtest;
pub mod cycle;
pub mod documents;
pub mod id;
pub mod index;
pub mod json;
pub mod lock;
pub mod placement;
pub mod record;
mod reports;
pub mod settle;
pub mod statement;
mod store;
pub mod text;
pub mod time;

pub use record::{
    Alias, Body, ConjectureRec, ConjectureStatus, ModelRec, ProofRec, Record, Score, SpectrumRec,
    SpectrumRow, StructureClaim, TheoryRec,
};
pub use store::{default_dir, Library};

/// Everything that can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A record file is not valid JSON of the expected shape.
    #[error("{path}: not a valid record: {message}")]
    BadRecord {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// An ID that is not of the form `kind-<16 hex digits>`.
    #[error("`{0}` is not a record ID (IDs look like `thy-0123456789abcdef`)")]
    BadId(String),
    /// No record with this ID.
    #[error("no record `{0}` in the library")]
    NotFound(String),
    /// A result failed its re-check (a countermodel the evaluator rejects), so it was not stored.
    #[error("not stored: {0}")]
    FailedCheck(String),
    /// A record the library would not read back (larger than 256 MiB, or nested deeper than
    /// its JSON reader goes), so it was not stored.
    #[error("not stored: record `{id}` would not read back: {why}")]
    Unreadable {
        /// The record's ID.
        id: String,
        /// Why.
        why: String,
    },
    /// The SQLite index failed.
    #[error("index: {0}")]
    Index(#[from] rusqlite::Error),
}

/// Results of library operations.
pub type Result<T> = std::result::Result<T, Error>;

/// Wraps an I/O error with the path it concerns.
pub(crate) fn io_err(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}
