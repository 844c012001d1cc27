//! Birkhoff's checker: finite model finding, isomorphism and model spectra.
//!
//! The pipeline is `problem` (compile a theory at fixed sizes into ground clauses, [`Problem`])
//! → `search` (backtracking cell assignment with propagation and the least-number heuristic) →
//! [`finder`] (deduplicate by canonical forms, [`canonical_form`], re-check every model with the
//! engine's evaluator, count; `skolem` witnesses for first-model search) → the spectrum
//! ([`SpectrumRow`], counts per size) and [`sweep`] (batch jobs on disk). [`router`] chooses
//! between the engines ([`finder`], [`sat`], and `z3` with the feature of that name).
//! Every count carries a [`Status`]: a count cut short is never exact.
//! A spectrum is read by [`oeis`] (which known sequences it matches, offline) and
//! [`conjectures`] (open conjectures about the orders that have models).
#![warn(missing_docs)]

// The public modules are namespaces whose items read with the module's name. The engines and
// the router that chooses between them each have their own `first`, `enumerate` and `Options`;
// the prover is an API of its own (plans, certificates, equivalence, readable proofs); and
// `oeis::get`, `sweep::Plan`, `survey::Options` or `atomic_file::write` would say little at the
// root. Everything
// else is private and re-exported below.
pub mod atomic_file;
pub mod estimate;
pub mod finder;
pub mod oeis;
pub mod prover;
pub mod router;
pub mod sat;
pub mod survey;
pub mod sweep;
#[cfg(feature = "z3")]
pub mod z3;

pub(crate) mod bits;
mod blocking;
mod budget;
mod first_classes;
mod implied;
mod iso;
mod isolate;
mod lex;
mod mirrors;
mod patterns;
mod problem;
mod search;
mod skolem;
mod spectrum;
mod worker;

pub use budget::{memory_limit, memory_text, set_memory_limit, Budget, Count, Status};
pub use implied::{cancellations, cancels_at};
pub use iso::{
    automorphisms_label, canonical_form, isomorphic, labelled_copies, orbit, relabel, Canonical,
};
pub use lex::LexLeader;
pub use patterns::{conjectures, conjectures_beside, Conjecture, Pattern};
pub use problem::{Problem, ProblemError};
pub use spectrum::{
    classes_at_least, planned_tuples, row_by, row_each, size_tuples, sizes_label, SizeTuples,
    SpectrumRow, TimedRow,
};
